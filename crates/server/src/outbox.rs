//! A connection's outgoing queue, shared by the tables and the hub that write to it. Messages are encoded once and
//! the same bytes go to every watcher. A connection that falls too far behind (too many messages or too many bytes
//! queued) is closed, so its client reconnects and resyncs: never silently dropped messages. What a connection
//! holds in memory is bounded by the byte cap plus what its socket buffers hold.

use axum::extract::ws::Utf8Bytes;
use parlor_protocol::{PlayerInfo, ServerMsg};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::mpsc;

/// A connection's id, unique for the life of the process.
pub type ConnId = u64;

/// Messages queued beyond this close the connection (the client resyncs on reconnect).
pub const MAX_QUEUED: usize = 2048;

/// Bytes queued beyond this close the connection. A lobby of 300 public tables encodes to about 100 KB and a
/// long game's full state to a few tens of KB: 1 MiB holds several of each, far more than a client that reads
/// ever has waiting, and bounds what a client that stops reading costs (with 1,000 such sockets, 1 GiB at most).
pub const MAX_QUEUED_BYTES: usize = 1 << 20;

/// The close code for a connection that fell behind: "try again later" (the client reconnects and resyncs).
pub const CLOSE_BEHIND: u16 = 1013;

/// What is waiting in a connection's queue.
#[derive(Debug, Default)]
struct Backlog {
    messages: AtomicUsize,
    bytes: AtomicUsize,
    /// Set once the queue overflowed: the writer drops what is queued and closes the socket.
    overflowed: AtomicBool,
}

/// Something for a connection's writer task.
#[derive(Debug)]
pub enum Out {
    /// A text frame.
    Text(Utf8Bytes),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

/// What the server knows of a player across their connections.
#[derive(Debug)]
pub struct Session {
    info: RwLock<PlayerInfo>,
    muted: RwLock<HashSet<String>>,
    /// The tables the player's connections here have open, with how many connections have each.
    watching: Mutex<HashMap<String, u32>>,
}

impl Session {
    /// A session for a player.
    pub fn new(info: PlayerInfo) -> Session {
        Session {
            info: RwLock::new(info),
            muted: RwLock::new(HashSet::new()),
            watching: Mutex::new(HashMap::new()),
        }
    }

    /// One more of the player's connections has `table` open.
    pub fn watch(&self, table: &str) {
        let mut w = self.watching.lock().unwrap_or_else(|e| e.into_inner());
        *w.entry(table.to_owned()).or_default() += 1;
    }

    /// One fewer of the player's connections has `table` open.
    pub fn unwatch(&self, table: &str) {
        let mut w = self.watching.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = w.get_mut(table) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                w.remove(table);
            }
        }
    }

    /// The tables the player's connections here have open.
    pub fn watching(&self) -> Vec<String> {
        let w = self.watching.lock().unwrap_or_else(|e| e.into_inner());
        w.keys().cloned().collect()
    }

    /// The player's id and current name.
    pub fn info(&self) -> PlayerInfo {
        self.info
            .read()
            .map(|i| i.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }

    /// The player's id.
    pub fn id(&self) -> String {
        self.info().id
    }

    /// Changes the name.
    pub fn rename(&self, name: String) {
        match self.info.write() {
            Ok(mut info) => info.name = name,
            Err(e) => e.into_inner().name = name,
        }
    }

    /// Whether this player muted `other`.
    pub fn has_muted(&self, other: &str) -> bool {
        self.muted.read().map(|m| m.contains(other)).unwrap_or(false)
    }

    /// Replaces every mute (marks reloaded from the store).
    pub fn set_mutes(&self, mutes: HashSet<String>) {
        match self.muted.write() {
            Ok(mut m) => *m = mutes,
            Err(e) => *e.into_inner() = mutes,
        }
    }

    /// Sets or clears a mute.
    pub fn set_muted(&self, other: &str, on: bool) {
        if let Ok(mut m) = self.muted.write() {
            if on {
                m.insert(other.to_owned());
            } else {
                m.remove(other);
            }
        }
    }
}

/// The sending half of a connection's queue.
#[derive(Clone, Debug)]
pub struct Outbox {
    conn: ConnId,
    tx: mpsc::UnboundedSender<Out>,
    backlog: Arc<Backlog>,
    session: Arc<Session>,
}

/// The receiving half of a connection's queue, for its writer task.
#[derive(Debug)]
pub struct Drain {
    rx: mpsc::UnboundedReceiver<Out>,
    backlog: Arc<Backlog>,
    closed: bool,
}

impl Drain {
    /// The next thing to write, or `None` when the connection is done. After an overflow the queued messages are
    /// dropped and the only thing left is the close (1013: reconnect and resync).
    pub async fn recv(&mut self) -> Option<Out> {
        if self.closed {
            return None;
        }
        if self.backlog.overflowed.load(Ordering::Acquire) {
            self.closed = true;
            self.rx.close();
            return Some(Out::Close(CLOSE_BEHIND, "too far behind; reconnect to resync"));
        }
        let out = self.rx.recv().await?;
        if let Out::Text(text) = &out {
            self.backlog.messages.fetch_sub(1, Ordering::Relaxed);
            self.backlog.bytes.fetch_sub(text.len(), Ordering::Relaxed);
        }
        if self.backlog.overflowed.load(Ordering::Acquire) {
            self.closed = true;
            self.rx.close();
            return Some(Out::Close(CLOSE_BEHIND, "too far behind; reconnect to resync"));
        }
        Some(out)
    }
}

impl Drain {
    /// The next thing to write if one is queued already, without waiting (so that everything queued goes out in
    /// one write); `None` when nothing is, or the connection is done.
    pub fn try_recv(&mut self) -> Option<Out> {
        if self.closed || self.backlog.overflowed.load(Ordering::Acquire) {
            return None;
        }
        let out = self.rx.try_recv().ok()?;
        if let Out::Text(text) = &out {
            self.backlog.messages.fetch_sub(1, Ordering::Relaxed);
            self.backlog.bytes.fetch_sub(text.len(), Ordering::Relaxed);
        }
        Some(out)
    }
}

impl Outbox {
    /// A new queue for a connection; the [`Drain`] goes to its writer task.
    pub fn new(conn: ConnId, session: Arc<Session>) -> (Outbox, Drain) {
        let (tx, rx) = mpsc::unbounded_channel();
        let backlog = Arc::new(Backlog::default());
        (
            Outbox {
                conn,
                tx,
                backlog: backlog.clone(),
                session,
            },
            Drain {
                rx,
                backlog,
                closed: false,
            },
        )
    }

    /// The connection's id.
    pub fn conn(&self) -> ConnId {
        self.conn
    }

    /// The player behind the connection.
    pub fn session(&self) -> &Arc<Session> {
        &self.session
    }

    /// Whether the connection is gone (or closing because it fell behind).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed() || self.backlog.overflowed.load(Ordering::Acquire)
    }

    /// Queues encoded text. Returns false if the connection is gone or is being closed for lagging (past
    /// [`MAX_QUEUED`] messages or [`MAX_QUEUED_BYTES`] bytes).
    pub fn send_text(&self, text: Utf8Bytes) -> bool {
        if self.backlog.overflowed.load(Ordering::Acquire) {
            return false;
        }
        let len = text.len();
        let messages = self.backlog.messages.fetch_add(1, Ordering::Relaxed) + 1;
        let bytes = self.backlog.bytes.fetch_add(len, Ordering::Relaxed) + len;
        if messages > MAX_QUEUED || bytes > MAX_QUEUED_BYTES {
            self.backlog.messages.fetch_sub(1, Ordering::Relaxed);
            self.backlog.bytes.fetch_sub(len, Ordering::Relaxed);
            self.backlog.overflowed.store(true, Ordering::Release);
            // Wakes the writer if it waits for something to write.
            let _ = self
                .tx
                .send(Out::Close(CLOSE_BEHIND, "too far behind; reconnect to resync"));
            return false;
        }
        if self.tx.send(Out::Text(text)).is_ok() {
            true
        } else {
            self.backlog.messages.fetch_sub(1, Ordering::Relaxed);
            self.backlog.bytes.fetch_sub(len, Ordering::Relaxed);
            false
        }
    }

    /// Encodes and queues a message.
    pub fn send(&self, msg: &ServerMsg) -> bool {
        self.send_text(encode(msg))
    }

    /// Queues a chat line unless this player muted its author.
    pub fn send_chat(&self, author: &str, text: Utf8Bytes) -> bool {
        if self.session.has_muted(author) {
            return true;
        }
        self.send_text(text)
    }

    /// Asks the writer to close the socket.
    pub fn close(&self, code: u16, reason: &'static str) {
        let _ = self.tx.send(Out::Close(code, reason));
    }
}

/// Encodes a server message as JSON text.
pub fn encode(msg: &ServerMsg) -> Utf8Bytes {
    // Serialising our own types cannot fail (no maps with non-string keys, no custom serialisers).
    Utf8Bytes::from(
        serde_json::to_string(msg)
            .unwrap_or_else(|e| format!("{{\"t\":\"error\",\"code\":\"internal\",\"message\":\"{e}\"}}")),
    )
}

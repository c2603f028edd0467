//! A connection's outgoing queue, shared by the tables and the hub that write to it. Messages are encoded once and
//! the same bytes go to every watcher. A connection that falls too far behind is closed, so its client reconnects
//! and resyncs: never silently dropped messages.

use axum::extract::ws::Utf8Bytes;
use parlor_protocol::{PlayerInfo, ServerMsg};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use tokio::sync::mpsc;

/// A connection's id, unique for the life of the process.
pub type ConnId = u64;

/// Messages queued beyond this close the connection (the client resyncs on reconnect).
pub const MAX_QUEUED: usize = 2048;

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
}

impl Session {
    /// A session for a player.
    pub fn new(info: PlayerInfo) -> Session {
        Session {
            info: RwLock::new(info),
            muted: RwLock::new(HashSet::new()),
        }
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
    queued: Arc<AtomicUsize>,
    session: Arc<Session>,
}

impl Outbox {
    /// A new queue for a connection; the receiver goes to its writer task, which calls [`Outbox::sent`] per item.
    pub fn new(
        conn: ConnId,
        session: Arc<Session>,
    ) -> (Outbox, mpsc::UnboundedReceiver<Out>, Arc<AtomicUsize>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let queued = Arc::new(AtomicUsize::new(0));
        (
            Outbox {
                conn,
                tx,
                queued: queued.clone(),
                session,
            },
            rx,
            queued,
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

    /// Whether the connection is gone.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Queues encoded text. Returns false if the connection is gone or was closed for lagging.
    pub fn send_text(&self, text: Utf8Bytes) -> bool {
        if self.queued.fetch_add(1, Ordering::Relaxed) >= MAX_QUEUED {
            let _ = self
                .tx
                .send(Out::Close(1013, "too far behind; reconnect to resync"));
            return false;
        }
        self.tx.send(Out::Text(text)).is_ok()
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

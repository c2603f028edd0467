//! A connection's outgoing queue, shared by the tables and the hub that write to it. Messages are encoded once and
//! the same bytes go to every watcher. A connection that falls too far behind (too many messages or too many bytes
//! queued) is closed, so its client reconnects and resyncs: never silently dropped messages. What a connection
//! holds in memory is bounded by the byte cap plus what its socket buffers hold.

use axum::extract::ws::Utf8Bytes;
use parlor_protocol::{PlayerInfo, ServerMsg};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::Notify;

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

/// A connection's queue: a deque that holds nothing while empty (a channel keeps a block of slots per
/// connection, about 1 KB idle, 10 MB at 10,000 sockets) and the writer's wake-up.
#[derive(Debug, Default)]
struct Queue {
    items: Mutex<VecDeque<Out>>,
    /// Wakes the writer; a wake-up given while it is busy is kept for its next wait.
    ready: Notify,
    backlog: Backlog,
    /// The writer is gone: nothing more is queued.
    writer_gone: AtomicBool,
    /// Every [`Outbox`] is gone: the writer ends once the queue is empty.
    senders_gone: AtomicBool,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Out>> {
        self.items
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues `out`; false if the writer is gone.
    fn push(&self, out: Out) -> bool {
        if self.writer_gone.load(Ordering::Acquire) {
            return false;
        }
        self.lock().push_back(out);
        self.ready.notify_one();
        true
    }

    /// The next queued item, if any; the deque gives its room back once a burst has drained.
    fn pop(&self) -> Option<Out> {
        let mut items = self.lock();
        let out = items.pop_front()?;
        if items.is_empty() && items.capacity() > IDLE_SLOTS {
            items.shrink_to(IDLE_SLOTS);
        }
        Some(out)
    }
}

/// Slots a connection's queue keeps between bursts (a move's acknowledgement and event, and a little more).
const IDLE_SLOTS: usize = 4;

/// Held by every [`Outbox`] of a connection: when the last goes, the writer is told.
#[derive(Debug)]
struct Senders(Arc<Queue>);

impl Drop for Senders {
    fn drop(&mut self) {
        self.0.senders_gone.store(true, Ordering::Release);
        self.0.ready.notify_one();
    }
}

/// The sending half of a connection's queue.
#[derive(Clone, Debug)]
pub struct Outbox {
    conn: ConnId,
    queue: Arc<Queue>,
    _senders: Arc<Senders>,
    session: Arc<Session>,
}

/// The receiving half of a connection's queue, for its writer task.
#[derive(Debug)]
pub struct Drain {
    queue: Arc<Queue>,
    closed: bool,
}

impl Drop for Drain {
    fn drop(&mut self) {
        self.queue.writer_gone.store(true, Ordering::Release);
        self.queue.lock().clear();
    }
}

impl Drain {
    /// Ends the queue after an overflow: what is queued is dropped and the only thing left is the close (1013:
    /// reconnect and resync).
    fn behind(&mut self) -> Option<Out> {
        self.closed = true;
        self.queue.writer_gone.store(true, Ordering::Release);
        self.queue.lock().clear();
        Some(Out::Close(CLOSE_BEHIND, "too far behind; reconnect to resync"))
    }

    /// Takes `out` off the backlog's count.
    fn taken(&self, out: &Out) {
        if let Out::Text(text) = out {
            self.queue.backlog.messages.fetch_sub(1, Ordering::Relaxed);
            self.queue.backlog.bytes.fetch_sub(text.len(), Ordering::Relaxed);
        }
    }

    /// The next thing to write, or `None` when the connection is done. After an overflow the queued messages are
    /// dropped and the only thing left is the close (1013: reconnect and resync).
    pub async fn recv(&mut self) -> Option<Out> {
        loop {
            if self.closed {
                return None;
            }
            if self.queue.backlog.overflowed.load(Ordering::Acquire) {
                return self.behind();
            }
            if let Some(out) = self.queue.pop() {
                self.taken(&out);
                return Some(out);
            }
            if self.queue.senders_gone.load(Ordering::Acquire) {
                return None;
            }
            self.queue.ready.notified().await;
        }
    }

    /// The next thing to write if one is queued already, without waiting (so that everything queued goes out in
    /// one write); `None` when nothing is, or the connection is done.
    pub fn try_recv(&mut self) -> Option<Out> {
        if self.closed || self.queue.backlog.overflowed.load(Ordering::Acquire) {
            return None;
        }
        let out = self.queue.pop()?;
        self.taken(&out);
        Some(out)
    }
}

impl Outbox {
    /// A new queue for a connection; the [`Drain`] goes to its writer task.
    pub fn new(conn: ConnId, session: Arc<Session>) -> (Outbox, Drain) {
        let queue = Arc::new(Queue::default());
        (
            Outbox {
                conn,
                queue: queue.clone(),
                _senders: Arc::new(Senders(queue.clone())),
                session,
            },
            Drain { queue, closed: false },
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
        self.queue.writer_gone.load(Ordering::Acquire)
            || self.queue.backlog.overflowed.load(Ordering::Acquire)
    }

    /// Queues encoded text. Returns false if the connection is gone or is being closed for lagging (past
    /// [`MAX_QUEUED`] messages or [`MAX_QUEUED_BYTES`] bytes).
    pub fn send_text(&self, text: Utf8Bytes) -> bool {
        let backlog = &self.queue.backlog;
        if backlog.overflowed.load(Ordering::Acquire) {
            return false;
        }
        let len = text.len();
        let messages = backlog.messages.fetch_add(1, Ordering::Relaxed) + 1;
        let bytes = backlog.bytes.fetch_add(len, Ordering::Relaxed) + len;
        if messages > MAX_QUEUED || bytes > MAX_QUEUED_BYTES {
            backlog.messages.fetch_sub(1, Ordering::Relaxed);
            backlog.bytes.fetch_sub(len, Ordering::Relaxed);
            backlog.overflowed.store(true, Ordering::Release);
            // Wakes the writer if it waits for something to write.
            self.queue.ready.notify_one();
            return false;
        }
        if self.queue.push(Out::Text(text)) {
            true
        } else {
            backlog.messages.fetch_sub(1, Ordering::Relaxed);
            backlog.bytes.fetch_sub(len, Ordering::Relaxed);
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
        self.queue.push(Out::Close(code, reason));
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn outbox() -> (Outbox, Drain) {
        let session = Arc::new(Session::new(PlayerInfo {
            id: "p".to_owned(),
            name: "P".to_owned(),
        }));
        Outbox::new(1, session)
    }

    fn text(out: Option<Out>) -> String {
        match out {
            Some(Out::Text(t)) => t.to_string(),
            other => format!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn messages_come_out_in_order_and_the_writer_ends_with_the_last_sender() {
        let (outbox, mut drain) = outbox();
        let other = outbox.clone();
        assert!(outbox.send_text("a".into()));
        assert!(other.send_text("b".into()));
        assert_eq!(text(drain.recv().await), "a");
        assert_eq!(text(drain.try_recv()), "b");
        assert!(drain.try_recv().is_none());
        // A message sent while the writer waits wakes it.
        let waiting = tokio::spawn(async move { text(drain.recv().await) });
        tokio::task::yield_now().await;
        assert!(other.send_text("c".into()));
        assert_eq!(waiting.await.unwrap(), "c");
        drop((outbox, other));
    }

    #[tokio::test]
    async fn the_writer_ends_when_every_sender_is_gone_and_senders_see_a_gone_writer() {
        let (outbox, mut drain) = outbox();
        assert!(outbox.send_text("last".into()));
        let waiting = tokio::spawn(async move {
            let first = text(drain.recv().await);
            (first, drain.recv().await.is_none())
        });
        tokio::task::yield_now().await;
        drop(outbox);
        assert_eq!(waiting.await.unwrap(), ("last".to_owned(), true));

        let (outbox, drain) = self::outbox();
        assert!(!outbox.is_closed());
        drop(drain);
        assert!(outbox.is_closed());
        assert!(!outbox.send_text("nobody reads".into()));
    }

    #[tokio::test]
    async fn a_queue_past_its_cap_ends_in_a_close_and_empties() {
        let (outbox, mut drain) = outbox();
        for _ in 0..MAX_QUEUED {
            assert!(outbox.send_text("x".into()));
        }
        assert!(!outbox.send_text("one too many".into()));
        assert!(matches!(drain.recv().await, Some(Out::Close(CLOSE_BEHIND, _))));
        assert!(drain.recv().await.is_none());
        assert!(outbox.is_closed());
        assert!(drain.queue.lock().is_empty());
    }
}

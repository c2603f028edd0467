//! The accept loop: HTTP/1.1 connections (and the websockets they become) under a header-read timeout, a global
//! cap below the open-file limit and a cap per client address, so that held-open or slow connections cannot take
//! the sockets and files the site needs for everyone else.
//!
//! Every accepted connection holds a [`Slot`] until its socket closes (a websocket keeps the slot of the HTTP
//! connection it came from). When the site is full, a new connection takes the slot of the oldest connection that
//! has not yet sent a whole request (a slow or silent client); only when there is none is it refused.

use crate::config::{Config, MAX_CONNECTIONS};
use crate::proxy;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Open files kept out of the connection cap for everything else (the store's files and pool, the log, the
/// image renderer's fonts, accepting the connection that is then refused): this many at least ...
pub const FILE_HEADROOM_MIN: u64 = 256;
/// ... or this fraction of the file limit (1/8), when more.
pub const FILE_HEADROOM_DIVISOR: u64 = 8;

/// The most bytes of a request head (request line and headers) a connection may buffer: our requests carry a
/// cookie and at most an image query, well under this; it bounds what each of many connections can make us hold
/// (hyper's default is about 400 KiB).
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// `Retry-After` of the refusal: long enough that a refused browser does not hammer, short enough to come back
/// soon after a burst.
pub const RETRY_AFTER_SECONDS: u64 = 5;

/// At most one log line per this long about refused connections or accept errors (a flood must not flood the log).
pub const LOG_EVERY: Duration = Duration::from_secs(10);

/// Pause after an accept error (out of files, say): the loop must not spin while the error lasts.
pub const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(100);

/// Time open connections get to finish their request at shutdown before `run` goes on without them.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The whole answer to a refused connection: it is written once without waiting, then the socket is closed.
const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain\r\n\
Content-Length: 19\r\nConnection: close\r\n\r\nserver busy, retry\n";
const _: () = assert!(RETRY_AFTER_SECONDS == 5, "REFUSAL spells out Retry-After");

/// The connection limits in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections at once.
    pub total: usize,
    /// Connections at once per client address.
    pub per_address: usize,
    /// See [`crate::config::HEADER_TIMEOUT`].
    pub header_timeout: Duration,
}

impl Limits {
    /// The configured limits, the total kept below `file_limit` (see [`FILE_HEADROOM_MIN`]).
    pub fn new(config: &Config, file_limit: Option<u64>) -> Limits {
        let mut total = config.max_connections.unwrap_or(MAX_CONNECTIONS);
        if let Some(files) = file_limit {
            let headroom = FILE_HEADROOM_MIN.max(files / FILE_HEADROOM_DIVISOR);
            let usable = usize::try_from(files.saturating_sub(headroom)).unwrap_or(usize::MAX);
            total = total.min(usable);
        }
        Limits {
            total: total.max(1),
            per_address: config.max_connections_per_address.max(1),
            header_timeout: config.header_timeout,
        }
    }
}

/// The open-file limit of this process, after raising the soft limit to the hard one; `None` when unlimited or
/// unknown.
pub fn file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let limit = getrlimit(Resource::Nofile);
        if limit.current != limit.maximum {
            let raised = rustix::process::Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            if setrlimit(Resource::Nofile, raised).is_ok() {
                return limit.maximum;
            }
        }
        limit.current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The site is at its connection cap and every connection has sent a request.
    Full,
    /// The client's address is at its cap.
    Address,
}

/// The key a client address is counted under: the address, or its /64 for IPv6 (one subscriber's block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct AddressKey(u128);

impl AddressKey {
    fn of(ip: IpAddr) -> AddressKey {
        match ip.to_canonical() {
            IpAddr::V4(v4) => AddressKey(u128::from(u32::from(v4))),
            IpAddr::V6(v6) => AddressKey(u128::from(v6) & !u128::from(u64::MAX) | 1 << 127),
        }
    }
}

#[derive(Default)]
struct Count {
    /// Connections holding a slot.
    open: usize,
    /// Per capped address.
    by_address: HashMap<AddressKey, usize>,
    /// Connections that have not sent a whole request yet, oldest first, with the token that closes them.
    waiting: BTreeMap<u64, CancellationToken>,
    /// Connections told to close to make room, whose slots are already given away.
    evicted: HashSet<u64>,
    next: u64,
}

/// The counts behind the limits, shared by the accept loop and every connection.
pub struct Gate {
    limits: Limits,
    count: Mutex<Count>,
    refused_full: AtomicU64,
    refused_address: AtomicU64,
    evicted: AtomicU64,
    header_timeouts: AtomicU64,
    last_log: Mutex<Option<Instant>>,
}

/// A connection's place under the limits, given back when dropped.
struct Slot {
    gate: Arc<Gate>,
    id: u64,
    address: Option<AddressKey>,
}

impl Gate {
    /// A gate with these limits and nothing open.
    pub fn new(limits: Limits) -> Arc<Gate> {
        Arc::new(Gate {
            limits,
            count: Mutex::new(Count::default()),
            refused_full: AtomicU64::new(0),
            refused_address: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
            header_timeouts: AtomicU64::new(0),
            last_log: Mutex::new(None),
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn count(&self) -> MutexGuard<'_, Count> {
        // A panic elsewhere while holding the lock leaves plain counts behind: go on with them.
        self.count.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot for a connection from `ip` (`capped`: counted against the per-address cap), and the token that
    /// closes it to make room for another; or why not.
    fn admit(self: &Arc<Self>, ip: IpAddr, capped: bool) -> Result<(Slot, CancellationToken), Refusal> {
        let address = capped.then(|| AddressKey::of(ip));
        let mut count = self.count();
        if let Some(key) = address
            && count.by_address.get(&key).copied().unwrap_or(0) >= self.limits.per_address
        {
            return Err(Refusal::Address);
        }
        if count.open - count.evicted.len() >= self.limits.total {
            let Some((id, token)) = count.waiting.pop_first() else {
                return Err(Refusal::Full);
            };
            token.cancel();
            count.evicted.insert(id);
            self.evicted.fetch_add(1, Ordering::Relaxed);
        }
        count.open += 1;
        if let Some(key) = address {
            *count.by_address.entry(key).or_insert(0) += 1;
        }
        let id = count.next;
        count.next += 1;
        let token = CancellationToken::new();
        count.waiting.insert(id, token.clone());
        Ok((
            Slot {
                gate: self.clone(),
                id,
                address,
            },
            token,
        ))
    }

    fn refused(&self, why: Refusal, peer: SocketAddr) {
        let counter = match why {
            Refusal::Full => &self.refused_full,
            Refusal::Address => &self.refused_address,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if self.may_log() {
            tracing::warn!(
                ?why,
                %peer,
                full = self.refused_full.load(Ordering::Relaxed),
                address = self.refused_address.load(Ordering::Relaxed),
                limits = ?self.limits,
                "refusing connections"
            );
        }
    }

    fn may_log(&self) -> bool {
        let mut last = self.last_log.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < LOG_EVERY) {
            return false;
        }
        *last = Some(now);
        true
    }

    /// The connection counters in the Prometheus text format.
    pub fn render_metrics(&self) -> String {
        let mut out = String::new();
        let (open, waiting) = {
            let count = self.count();
            (count.open, count.waiting.len())
        };
        for (name, kind, help, value) in [
            (
                "parlor_tcp_connections",
                "gauge",
                "Open HTTP and websocket connections.",
                open as u64,
            ),
            (
                "parlor_tcp_connections_waiting",
                "gauge",
                "Connections that have not sent a whole request yet.",
                waiting as u64,
            ),
            (
                "parlor_tcp_connections_max",
                "gauge",
                "The connection cap.",
                self.limits.total as u64,
            ),
            (
                "parlor_tcp_refused_full_total",
                "counter",
                "Connections refused at the connection cap.",
                self.refused_full.load(Ordering::Relaxed),
            ),
            (
                "parlor_tcp_refused_address_total",
                "counter",
                "Connections refused at the per-address cap.",
                self.refused_address.load(Ordering::Relaxed),
            ),
            (
                "parlor_tcp_evicted_total",
                "counter",
                "Connections without a request closed to make room for a new one.",
                self.evicted.load(Ordering::Relaxed),
            ),
            (
                "parlor_tcp_header_timeouts_total",
                "counter",
                "Connections closed for not sending a request's headers in time.",
                self.header_timeouts.load(Ordering::Relaxed),
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}");
        }
        out
    }
}

impl Slot {
    /// The connection sent a whole request: it is no longer one to close to make room.
    fn served(&self) {
        self.gate.count().waiting.remove(&self.id);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut count = self.gate.count();
        count.open -= 1;
        count.waiting.remove(&self.id);
        count.evicted.remove(&self.id);
        if let Some(key) = self.address
            && let Some(n) = count.by_address.get_mut(&key)
        {
            *n -= 1;
            if *n == 0 {
                count.by_address.remove(&key);
            }
        }
    }
}

/// A socket that holds its slot until it is dropped (after a websocket upgrade too).
struct Counted {
    tcp: TcpStream,
    _slot: Arc<Slot>,
}

impl AsyncRead for Counted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().tcp).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

/// Serves `router` on `listener` under `gate`'s limits until `shutdown` is cancelled, then stops accepting and
/// gives open connections [`SHUTDOWN_GRACE`] to finish. Each request carries its peer as
/// [`ConnectInfo<SocketAddr>`].
pub async fn serve(
    listener: TcpListener,
    router: Router,
    gate: Arc<Gate>,
    config: &Config,
    shutdown: CancellationToken,
) {
    let tracker = TaskTracker::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(gate.limits.header_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .keep_alive(true);
    let serving = Arc::new(Serving {
        router,
        http,
        gate: gate.clone(),
        shutdown: shutdown.clone(),
    });
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.cancelled() => break,
        };
        let (tcp, peer) = match accepted {
            Ok(x) => x,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                if gate.may_log() {
                    tracing::error!(error = %e, "cannot accept connections");
                }
                tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                continue;
            }
        };
        // Moves are small and latency matters: no Nagle delay.
        let _ = tcp.set_nodelay(true);
        let capped = !proxy::is_trusted(peer.ip(), config);
        match gate.admit(peer.ip(), capped) {
            Ok((slot, evict)) => {
                let task = connection(tcp, peer, slot, evict, serving.clone());
                let shutdown = shutdown.clone();
                tracker.spawn(async move {
                    tokio::select! {
                        () = task => {}
                        // Past the grace the connection is dropped with the runtime.
                        () = async { shutdown.cancelled().await; tokio::time::sleep(SHUTDOWN_GRACE).await } => {}
                    }
                });
            }
            Err(why) => {
                gate.refused(why, peer);
                // One write that never waits: a refused client gets no more of our time.
                let _ = tcp.try_write(REFUSAL);
            }
        }
    }
    drop(listener);
    tracker.close();
    tracker.wait().await;
}

/// Errors of one connection that arrived and died before it was accepted: the listener is fine.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}

/// What every connection is served with.
struct Serving {
    router: Router,
    http: hyper::server::conn::http1::Builder,
    gate: Arc<Gate>,
    shutdown: CancellationToken,
}

async fn connection(
    tcp: TcpStream,
    peer: SocketAddr,
    slot: Slot,
    evict: CancellationToken,
    serving: Arc<Serving>,
) {
    let slot = Arc::new(slot);
    let io = TokioIo::new(Counted {
        tcp,
        _slot: slot.clone(),
    });
    let router = serving.router.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        slot.served();
        request.extensions_mut().insert(ConnectInfo(peer));
        tower_service::Service::call(&mut router.clone(), request)
    });
    let conn = serving.http.serve_connection(io, service).with_upgrades();
    tokio::pin!(conn);
    let mut stopping = false;
    let result = loop {
        tokio::select! {
            result = conn.as_mut() => break result,
            () = evict.cancelled() => return,
            // Idle connections close now; one in the middle of a request finishes it first.
            () = serving.shutdown.cancelled(), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    };
    if let Err(e) = result
        && e.is_timeout()
    {
        serving.gate.header_timeouts.fetch_add(1, Ordering::Relaxed);
    }
}

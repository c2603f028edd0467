//! Server settings (the flags of `parlor serve`) and their defaults. A leaf: every module may read it.

use crate::ip_net::IpNet;
use std::time::Duration;

/// Events kept per table for resync, by default.
pub const EVENT_LOG: usize = 256;

/// Bytes of encoded events kept per table for resync, by default: the last few moves with their legal-move lists
/// (a client that missed more gets the whole state, a few KB). At thousands of tables this log, not the sockets,
/// would take most of the memory.
pub const EVENT_LOG_BYTES: usize = 4 * 1024;

/// Longest turn of a game without a clock while another person waits: then the turn ends as an absence does
/// (two players: the mover loses as having left; four: a CPU plays the seat). Long enough for any real thought,
/// short enough that one silent player cannot hold the others for ever.
pub const UNTIMED_TURN: Duration = Duration::from_secs(30 * 60);

/// Time a client has to send a request's headers, counted from the connection's start or from the end of the
/// previous response (so it is the keep-alive idle timeout too). A browser sends its headers in one packet at
/// once; 10 s leaves room for a slow mobile link and frees a slowloris connection's slot quickly.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections at once, whatever the file limit: each costs some memory (buffers, a task; a websocket
/// more), and 32,768 is several times the players one node serves (`parlor loadtest` reaches 10,000 sockets).
pub const MAX_CONNECTIONS: usize = 32_768;

/// The most connections at once from one client address (an IPv6 /64 counts as one address). Browsers open up
/// to six connections per site and a websocket per tab, so 256 lets a school of about a hundred players share
/// one NAT address, while one attacker holds at most this many. Trusted proxies (and so loopback, by default)
/// are not capped: every player behind them shares their address.
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 256;

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// `sqlite://path?mode=rwc` or `postgres://...`.
    pub database: String,
    /// How long a seated player may stay away before losing (two-player) or handing the seat to a CPU (four).
    pub grace: Duration,
    /// Longest turn of a game without a clock while another person waits (see [`UNTIMED_TURN`]).
    pub untimed_turn: Duration,
    /// Events kept per table for resync; an older `since` gets the full state.
    pub event_log: usize,
    /// Bytes of encoded events kept per table; the oldest go first when more would be kept.
    pub event_log_bytes: usize,
    /// The site this node joins (PostgreSQL + Redis); `None` runs alone.
    pub cluster: Option<ClusterConfig>,
    /// Time a client has to send a request's headers (and the keep-alive idle timeout); see
    /// [`HEADER_TIMEOUT`].
    pub header_timeout: Duration,
    /// Connections at once; `None` for [`MAX_CONNECTIONS`]. Kept below the open-file limit in any case.
    pub max_connections: Option<usize>,
    /// Connections at once from one client address (not counted for trusted proxies).
    pub max_connections_per_address: usize,
    /// Other origins (`scheme://host[:port]`) whose pages may open the websocket, besides the site's own.
    pub origins: Vec<String>,
    /// Peers whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (reverse proxies); loopback by default.
    pub trusted_proxies: Vec<IpNet>,
    /// The site's address as players reach it (`https://play.example.org`), for links written into exported
    /// games; `None` takes it from each request (its `Host`, and the scheme a trusted proxy reports).
    pub public_url: Option<String>,
    /// Searches at once for the analysis board and game reviews (each one thread); `None` for one fewer than the
    /// machine's cores (at least one), so live games keep a core.
    pub analysis_slots: Option<usize>,
    /// The engine's thinking time per position of a game review.
    pub review_think: Duration,
}

/// The engine's thinking time per position of a game review: a 60-move chess game (121 positions) takes about
/// 12 s on one engine place.
pub const REVIEW_THINK: Duration = Duration::from_millis(100);

impl Default for Config {
    fn default() -> Config {
        Config {
            database: "sqlite://parlor.db?mode=rwc".to_owned(),
            grace: Duration::from_secs(60),
            untimed_turn: UNTIMED_TURN,
            event_log: EVENT_LOG,
            event_log_bytes: EVENT_LOG_BYTES,
            cluster: None,
            header_timeout: HEADER_TIMEOUT,
            max_connections: None,
            max_connections_per_address: MAX_CONNECTIONS_PER_ADDRESS,
            origins: Vec::new(),
            trusted_proxies: IpNet::loopback(),
            public_url: None,
            analysis_slots: None,
            review_think: REVIEW_THINK,
        }
    }
}

/// How a node joins a site.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// `redis://HOST:PORT`.
    pub redis: String,
    /// Prefix of every key and channel: nodes with the same database and prefix are one site.
    pub prefix: String,
    /// This node's name, unique in the site.
    pub node: String,
    /// How long a lease lives without renewal: a dead node's tables move after about this long.
    pub lease: Duration,
}

impl ClusterConfig {
    /// The default lease.
    pub const DEFAULT_LEASE: Duration = Duration::from_millis(3000);
}

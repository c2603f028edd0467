//! Server settings (the flags of `parlor serve`).

use std::time::Duration;

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// `sqlite://path?mode=rwc` or `postgres://...`.
    pub database: String,
    /// How long a seated player may stay away before losing (two-player) or handing the seat to a CPU (four).
    pub grace: Duration,
    /// Longest turn of a game without a clock while another person waits (see [`crate::table::UNTIMED_TURN`]).
    pub untimed_turn: Duration,
    /// Events kept per table for resync; an older `since` gets the full state.
    pub event_log: usize,
    /// Bytes of encoded events kept per table; the oldest go first when more would be kept.
    pub event_log_bytes: usize,
    /// The site this node joins (PostgreSQL + Redis); `None` runs alone.
    pub cluster: Option<crate::cluster::ClusterConfig>,
    /// Time a client has to send a request's headers (and the keep-alive idle timeout); see
    /// [`crate::listen::HEADER_TIMEOUT`].
    pub header_timeout: Duration,
    /// Connections at once; `None` for [`crate::listen::MAX_CONNECTIONS`]. Kept below the open-file limit in any case.
    pub max_connections: Option<usize>,
    /// Connections at once from one client address (not counted for trusted proxies).
    pub max_connections_per_address: usize,
    /// Other origins (`scheme://host[:port]`) whose pages may open the websocket, besides the site's own.
    pub origins: Vec<String>,
    /// Peers whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (reverse proxies); loopback by default.
    pub trusted_proxies: Vec<crate::proxy::IpNet>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            database: "sqlite://parlor.db?mode=rwc".to_owned(),
            grace: Duration::from_secs(60),
            untimed_turn: crate::table::UNTIMED_TURN,
            event_log: crate::table::EVENT_LOG,
            event_log_bytes: crate::table::EVENT_LOG_BYTES,
            cluster: None,
            header_timeout: crate::listen::HEADER_TIMEOUT,
            max_connections: None,
            max_connections_per_address: crate::listen::MAX_CONNECTIONS_PER_ADDRESS,
            origins: Vec::new(),
            trusted_proxies: crate::proxy::IpNet::loopback(),
        }
    }
}

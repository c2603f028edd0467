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
        }
    }
}

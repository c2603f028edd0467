//! What a table's task gets from the server: settings, the store and its group commit, counters, the shutdown
//! signal, the site (may it write?), the lobby and the players' marks. One context is shared by every table of a
//! node; the table never sees the hub, which owns the registry of tables and so sits above them.

use crate::config::Config;
use crate::lobby::Lobby;
use crate::marks::Marks;
use crate::metrics::Metrics;
use crate::persist::Persist;
use crate::site::Site;
use parlor_store::AnyStore;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// What every table of a node shares.
#[derive(Debug)]
pub struct Context {
    /// Settings (grace, event log, untimed turns).
    pub config: Config,
    /// The store, for reads and chat lines.
    pub store: Arc<AnyStore>,
    /// Group commit for game writes.
    pub persist: Persist,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// Cancelled when the server shuts down.
    pub shutdown: CancellationToken,
    /// Whether this node may write for a table.
    pub site: Arc<dyn Site>,
    /// Where a public table publishes itself.
    pub lobby: Arc<Lobby>,
    /// Who blocked whom (a blocked player may not sit down).
    pub marks: Arc<Marks>,
}

/// Why a table's task ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It closed (idle, nobody seated) and stored that: it is forgotten everywhere.
    Closed,
    /// Another node holds it now: it stopped without writing.
    Lost,
    /// The server is shutting down (or the inbox closed): it stays open in the store.
    Stopped,
}

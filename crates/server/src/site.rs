//! Where this node stands among others: one interface for a node that runs alone ([`Alone`]) and for a node of a
//! site of several (scale-out, [`crate::cluster::Cluster`]). The hub, the tables and the connections call it and
//! never ask which one it is; the cluster calls back into the hub, so this interface sits below both.

use crate::outbox::{ConnId, Outbox};
use parlor_protocol::{ChallengeState, ClientMsg, LobbyTable, PlayerInfo, TableSpec};
use std::future::Future;
use std::pin::Pin;

/// A boxed future, so that [`Site`] can be used as `dyn Site`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Whether this node may write for a table now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Alone: every table here is this node's to write for.
    Alone,
    /// This node holds the table's lease: its writes carry this fencing token.
    Lease(i64),
    /// This node does not hold the table (any more), or cannot renew its hold: it must not write.
    Lost,
}

/// Where a table that does not run on this node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// It runs here now (it was being restored, or was just taken over).
    Here,
    /// Another node owns it.
    Remote(String),
    /// Nobody holds it and it cannot be taken: it does not exist or has closed.
    Missing,
}

/// What becomes of a stored open table when this node starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This node restores it from the store.
    Restore,
    /// The site took it over and restored it here already.
    TakenOver,
    /// Another node holds it, or it could not be taken.
    Elsewhere,
}

/// A challenge's news, for the other nodes.
#[derive(Clone, Copy, Debug)]
pub struct ChallengeNews<'a> {
    /// The challenge.
    pub id: &'a str,
    /// Who challenged.
    pub from: &'a PlayerInfo,
    /// Who was challenged.
    pub to: &'a PlayerInfo,
    /// The table asked for.
    pub spec: &'a TableSpec,
    /// What happened.
    pub state: ChallengeState,
    /// The table made for an accepted challenge.
    pub table: Option<&'a str>,
}

/// What a node shares with the other nodes of its site. Every method of [`Alone`] is the answer for a node with
/// no others: nothing to tell, everything to own.
pub trait Site: Send + Sync + std::fmt::Debug {
    /// A connection of this node came.
    fn connected(&self, outbox: &Outbox);
    /// A connection of this node went.
    fn disconnected(&self, conn: ConnId);
    /// A connection of this node opened (or closed) a table, wherever the table runs.
    fn watch(&self, table: &str, conn: ConnId, on: bool);
    /// This node's connections watching a table (to open it again where it runs now).
    fn watchers(&self, table: &str) -> Vec<Outbox>;
    /// Sends a client's table message to the node that owns the table.
    fn forward(&self, node: &str, outbox: &Outbox, msg: ClientMsg);

    /// A player became visible on this node, or stopped being.
    fn presence(&self, info: &PlayerInfo, online: bool);
    /// A player of this node changed their name.
    fn renamed(&self, info: &PlayerInfo);
    /// A player of this node changed their marks (block, mute, favourite).
    fn marks(&self, player: &str);
    /// A public table of this node changed.
    fn lobby_changed(&self, table: &LobbyTable);
    /// A public table of this node is gone.
    fn lobby_gone(&self, id: &str);
    /// A challenge's news.
    fn challenge_news(&self, news: ChallengeNews<'_>);
    /// Makes a new challenge claimable from any node; false if that failed (the challenge must not be sent).
    fn challenge_stored<'a>(&'a self, id: &'a str) -> BoxFuture<'a, bool>;
    /// Claims a pending challenge (to answer, withdraw or lapse it): true for exactly one caller in the site.
    fn challenge_claim<'a>(&'a self, id: &'a str) -> BoxFuture<'a, bool>;

    /// Whether this node may write for a table of its own now.
    fn hold(&self, table: &str) -> Hold;
    /// A table was just created here: takes it for this node. False if that failed (the table must not run).
    fn claim_new<'a>(&'a self, table: &'a str) -> BoxFuture<'a, bool>;
    /// A stored open table at start: who restores it.
    fn claim_stored<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Claim>;
    /// Where a table that does not run here is; a table nobody holds is taken over here if it can be.
    fn locate<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Located>;
    /// The id of a table of another node by its private code.
    fn table_by_code<'a>(&'a self, code: &'a str) -> BoxFuture<'a, Option<String>>;
    /// A table of this node closed.
    fn closed<'a>(&'a self, table: &'a str) -> BoxFuture<'a, ()>;
    /// A table of this node stopped because another node holds it now.
    fn evicted(&self, table: &str);
}

/// A node that runs alone: it owns every table and has nobody to tell anything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alone;

impl Site for Alone {
    fn connected(&self, _outbox: &Outbox) {}

    fn disconnected(&self, _conn: ConnId) {}

    fn watch(&self, _table: &str, _conn: ConnId, _on: bool) {}

    fn watchers(&self, _table: &str) -> Vec<Outbox> {
        Vec::new()
    }

    fn forward(&self, _node: &str, _outbox: &Outbox, _msg: ClientMsg) {}

    fn presence(&self, _info: &PlayerInfo, _online: bool) {}

    fn renamed(&self, _info: &PlayerInfo) {}

    fn marks(&self, _player: &str) {}

    fn lobby_changed(&self, _table: &LobbyTable) {}

    fn lobby_gone(&self, _id: &str) {}

    fn challenge_news(&self, _news: ChallengeNews<'_>) {}

    fn challenge_stored<'a>(&'a self, _id: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(std::future::ready(true))
    }

    fn challenge_claim<'a>(&'a self, _id: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(std::future::ready(true))
    }

    fn hold(&self, _table: &str) -> Hold {
        Hold::Alone
    }

    fn claim_new<'a>(&'a self, _table: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(std::future::ready(true))
    }

    fn claim_stored<'a>(&'a self, _table: &'a str) -> BoxFuture<'a, Claim> {
        Box::pin(std::future::ready(Claim::Restore))
    }

    fn locate<'a>(&'a self, _table: &'a str) -> BoxFuture<'a, Located> {
        Box::pin(std::future::ready(Located::Missing))
    }

    fn table_by_code<'a>(&'a self, _code: &'a str) -> BoxFuture<'a, Option<String>> {
        Box::pin(std::future::ready(None))
    }

    fn closed<'a>(&'a self, _table: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(std::future::ready(()))
    }

    fn evicted(&self, _table: &str) {}
}

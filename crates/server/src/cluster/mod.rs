//! Scale-out: several `parlor serve` nodes as one site, sharing PostgreSQL (storage) and Redis (routing, presence
//! and messages between nodes). Without `--redis` none of this runs and a node is alone, as on a laptop.
//!
//! # How it works
//! - **Ownership.** Each table is owned by one node at a time, by an expiring Redis lease `lease:<table>` whose
//!   value is `<node> <epoch>`. The epoch is a fencing token from one Redis counter; the owner raises the table's
//!   token in the database ([`parlor_store::Write::Fence`]) before it reads the table, and puts [`parlor_store::Write::Fenced`] first in every
//!   batch it commits, so a node that lost its lease can no longer write for the table, whatever the timing.
//! - **Liveness.** Every `lease / 4` a node runs one script that stamps its heartbeat in `nodes` (a sorted set by
//!   Redis time), renews its leases and names the nodes whose heartbeat is older than a lease. It renews only if
//!   the database answered too. A node accepts writes for a table only until `renewal start + lease - margin`:
//!   cut off from Redis or the database, it stops accepting moves before anyone can take its tables.
//! - **Takeover.** The tables of a dead node (`owned:<node>`) are taken by the live nodes (`SET NX` decides) and
//!   restored from the store, as after a restart. A node that stops gracefully releases its leases and says so;
//!   the others take the tables at once. A table nobody holds is taken by the first node asked for it.
//! - **Forwarding.** A client may connect to any node. Its node forwards table commands to the owner's channel
//!   `to:<node>`; the owner serves them through a proxy connection whose messages go back to the client's node
//!   and on to its socket, in order. When a table moves, every node re-opens it for its connections watching it.
//! - **Shared state.** Lobby tables (`lobby` hash), who is online (`presence:<node>` hashes) and pending
//!   challenges (`challenge:<id>` keys, claimed by `DEL`) live in Redis; changes are broadcast on `all`, and each
//!   node keeps a copy for its own connections.
//!
//! Every key and channel starts with the site's prefix (`--redis-prefix`, default `parlor`).
//!
//! # Layout
//! - this file: the node's part of the site, joining and leaving it, and the [`Site`] interface the hub calls.
//! - `ownership`: leases, fencing, renewal, takeover of dead nodes' tables, who owns a table.
//! - `forward`: this node's connections and the tables they watch; client messages forwarded to a table's
//!   owner and served there through proxy connections.
//! - `bus`: the messages between nodes, the publisher and the listener.

mod bus;
mod forward;
mod ownership;

pub use crate::config::ClusterConfig;
use crate::hub::Hub;
use crate::outbox::{ConnId, Outbox};
use crate::site::{BoxFuture, ChallengeNews, Claim, Hold, Located, Site};
use bus::{Bus, Publish, listener, publisher};
use forward::Proxy;
use ownership::Held;
use parlor_protocol::{ClientMsg, LobbyTable, PlayerInfo};
use parlor_store::Store;
use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};
use tokio_util::sync::CancellationToken;

/// Could not join the site.
#[derive(Debug, thiserror::Error)]
#[error("redis: {0}")]
pub struct ClusterError(#[from] redis::RedisError);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// This node's part of the site.
pub struct Cluster {
    /// This node's name.
    pub node: String,
    prefix: String,
    lease: Duration,
    client: redis::Client,
    redis: ConnectionManager,
    publish: mpsc::UnboundedSender<Publish>,
    held: Mutex<HashMap<String, Held>>,
    routes: Mutex<HashMap<String, String>>,
    proxies: Mutex<HashMap<(String, ConnId), Proxy>>,
    local: Mutex<HashMap<ConnId, Outbox>>,
    watching: Mutex<HashMap<String, HashSet<ConnId>>>,
    /// Tables being taken over here right now.
    taking: Mutex<HashSet<String>>,
    live_nodes: Mutex<Vec<String>>,
    pinged: Mutex<Instant>,
    renewed: Mutex<Option<Instant>>,
    rounds: std::sync::atomic::AtomicU64,
    stop: CancellationToken,
    /// The hub this node serves, set by [`Cluster::start`]; the cluster calls back into it.
    hub: OnceLock<Weak<Hub>>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("node", &self.node)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Connects to Redis (commands and the publisher); [`Cluster::start`] then subscribes and keeps the leases.
    ///
    /// # Errors
    /// Redis is unreachable or the URL is wrong.
    pub async fn connect(config: &ClusterConfig) -> Result<Arc<Cluster>, ClusterError> {
        let client = redis::Client::open(config.redis.as_str())?;
        let step = config.lease / 4;
        let manager_config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(step))
            .set_connection_timeout(Some(step))
            .set_number_of_retries(1)
            .set_max_delay(step);
        let redis = client.get_connection_manager_with_config(manager_config).await?;
        let (publish, queue) = mpsc::unbounded_channel();
        let cluster = Arc::new(Cluster {
            node: config.node.clone(),
            prefix: config.prefix.clone(),
            lease: config.lease,
            client,
            redis: redis.clone(),
            publish,
            held: Mutex::new(HashMap::new()),
            routes: Mutex::new(HashMap::new()),
            proxies: Mutex::new(HashMap::new()),
            local: Mutex::new(HashMap::new()),
            watching: Mutex::new(HashMap::new()),
            taking: Mutex::new(HashSet::new()),
            live_nodes: Mutex::new(Vec::new()),
            pinged: Mutex::new(Instant::now()),
            renewed: Mutex::new(None),
            rounds: std::sync::atomic::AtomicU64::new(0),
            stop: CancellationToken::new(),
            hub: OnceLock::new(),
        });
        tokio::spawn(publisher(redis, queue, Arc::downgrade(&cluster)));
        Ok(cluster)
    }

    /// The hub, while it lives.
    fn hub(&self) -> Option<Arc<Hub>> {
        self.hub.get().and_then(Weak::upgrade)
    }

    fn key(&self, name: &str) -> String {
        format!("{}:{name}", self.prefix)
    }

    fn lease_key(&self, table: &str) -> String {
        format!("{}:lease:{table}", self.prefix)
    }

    fn owned_key(&self, node: &str) -> String {
        format!("{}:owned:{node}", self.prefix)
    }

    fn presence_key(&self, node: &str) -> String {
        format!("{}:presence:{node}", self.prefix)
    }

    fn channel(&self, node: &str) -> String {
        format!("{}:to:{node}", self.prefix)
    }

    fn all(&self) -> String {
        self.key("all")
    }

    fn margin(&self) -> Duration {
        (self.lease / 10).max(Duration::from_millis(100))
    }

    fn conn(&self) -> ConnectionManager {
        self.redis.clone()
    }

    fn send(&self, node: &str, msg: &Bus) {
        if let Ok(text) = serde_json::to_string(msg) {
            let _ = self.publish.send(Publish {
                channel: self.channel(node),
                text,
                forwarded: None,
                flushed: None,
            });
        }
    }

    fn broadcast(&self, msg: &Bus) {
        if let Ok(text) = serde_json::to_string(msg) {
            let _ = self.publish.send(Publish {
                channel: self.all(),
                text,
                forwarded: None,
                flushed: None,
            });
        }
    }

    /// Subscribes, loads the shared lobby and presence, stamps the first heartbeat, takes unowned tables and
    /// starts the keeper.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn start(self: &Arc<Self>, hub: &Arc<Hub>) -> Result<(), ClusterError> {
        let _ = self.hub.set(Arc::downgrade(hub));
        self.renew(hub).await?;
        let pubsub = self.subscribe().await?;
        tokio::spawn(listener(self.clone(), Arc::downgrade(hub), pubsub));
        self.load_shared(hub).await?;
        tokio::spawn(keeper(self.clone(), Arc::downgrade(hub)));
        Ok(())
    }

    async fn subscribe(&self) -> Result<redis::aio::PubSub, ClusterError> {
        let step = self.lease / 2;
        let mut pubsub = timeout(step, self.client.get_async_pubsub())
            .await
            .map_err(|_| redis::RedisError::from(std::io::Error::from(std::io::ErrorKind::TimedOut)))??;
        timeout(step, pubsub.subscribe(&[self.channel(&self.node), self.all()]))
            .await
            .map_err(|_| redis::RedisError::from(std::io::Error::from(std::io::ErrorKind::TimedOut)))??;
        *lock(&self.pinged) = Instant::now();
        Ok(pubsub)
    }

    /// Loads the lobby and who is online on the other nodes.
    async fn load_shared(&self, hub: &Arc<Hub>) -> Result<(), ClusterError> {
        let mut redis = self.conn();
        let lobby: HashMap<String, String> = redis.hgetall(self.key("lobby")).await?;
        let tables = lobby
            .values()
            .filter_map(|text| serde_json::from_str::<LobbyTable>(text).ok())
            .collect();
        hub.lobby.load(tables);
        let nodes: Vec<String> = redis.zrange(self.key("nodes"), 0, -1).await?;
        let mut online = Vec::new();
        for node in nodes.iter().filter(|n| **n != self.node) {
            let players: HashMap<String, String> = redis.hgetall(self.presence_key(node)).await?;
            for text in players.values() {
                if let Ok(info) = serde_json::from_str::<PlayerInfo>(text) {
                    online.push((node.clone(), info));
                }
            }
        }
        hub.presence_load(online);
        *lock(&self.live_nodes) = nodes;
        Ok(())
    }

    /// The live nodes, as of the last renewal.
    pub fn nodes(&self) -> Vec<String> {
        lock(&self.live_nodes).clone()
    }

    /// The tables this node holds.
    pub fn held_tables(&self) -> Vec<String> {
        lock(&self.held).keys().cloned().collect()
    }

    /// How many tables this node holds.
    pub fn owned(&self) -> usize {
        lock(&self.held).len()
    }

    /// Graceful stop, after every table task ended: gives every lease back, says so, and leaves the site.
    pub async fn leave(&self, tables: Vec<String>) {
        self.release(&tables).await;
        if !tables.is_empty() {
            self.broadcast(&Bus::Released {
                node: self.node.clone(),
                tables,
            });
        }
        let mut redis = self.conn();
        let _: Result<(), _> = redis.zrem(self.key("nodes"), &self.node).await;
        let _: Result<(), _> = redis.del(self.presence_key(&self.node)).await;
        let _: Result<(), _> = redis.del(self.owned_key(&self.node)).await;
        self.broadcast(&Bus::NodeGone {
            node: self.node.clone(),
            gone: self.node.clone(),
        });
        // Let the publisher send everything queued, then stop.
        let (done, flushed) = tokio::sync::oneshot::channel();
        let barrier = Publish {
            channel: String::new(),
            text: String::new(),
            forwarded: None,
            flushed: Some(done),
        };
        if self.publish.send(barrier).is_ok() {
            let _ = timeout(self.lease, flushed).await;
        }
        self.stop.cancel();
    }

    /// After the subscription was lost and made again: messages may have been missed, so reload the shared
    /// state and re-open every table this node's connections watch.
    async fn resync(self: &Arc<Self>, hub: &Arc<Hub>) {
        if let Err(e) = self.load_shared(hub).await {
            tracing::warn!(error = %e, "could not reload the shared lobby and presence");
        }
        hub.republish_presence();
        lock(&self.routes).clear();
        let tables: Vec<String> = lock(&self.watching).keys().cloned().collect();
        for table in tables {
            if hub.table(&table).is_none() {
                hub.reopen(&table).await;
            }
        }
    }
}

/// Every `lease / 4`: pings itself, renews leases and the heartbeat, takes the tables of dead nodes.
async fn keeper(cluster: Arc<Cluster>, hub: std::sync::Weak<Hub>) {
    let step = cluster.lease / 4;
    let mut tick = tokio::time::interval(step);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = cluster.stop.cancelled() => return,
        }
        let Some(hub) = hub.upgrade() else { return };
        if hub.shutdown.is_cancelled() {
            return;
        }
        cluster.send(&cluster.node.clone(), &Bus::Ping);
        match timeout(cluster.lease / 2, cluster.renew(&hub)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(node = %cluster.node, error = %e, "could not renew leases"),
            Err(_) => tracing::warn!(node = %cluster.node, "renewing leases timed out"),
        }
    }
}

impl Site for Cluster {
    fn connected(&self, outbox: &Outbox) {
        lock(&self.local).insert(outbox.conn(), outbox.clone());
    }

    fn disconnected(&self, conn: ConnId) {
        lock(&self.local).remove(&conn);
        lock(&self.watching).retain(|_, conns| {
            conns.remove(&conn);
            !conns.is_empty()
        });
    }

    fn watch(&self, table: &str, conn: ConnId, on: bool) {
        let mut watching = lock(&self.watching);
        if on {
            watching.entry(table.to_owned()).or_default().insert(conn);
        } else if let Some(conns) = watching.get_mut(table) {
            conns.remove(&conn);
            if conns.is_empty() {
                watching.remove(table);
            }
        }
    }

    fn watchers(&self, table: &str) -> Vec<Outbox> {
        let conns: Vec<ConnId> = lock(&self.watching)
            .get(table)
            .map(|c| c.iter().copied().collect())
            .unwrap_or_default();
        let local = lock(&self.local);
        conns.iter().filter_map(|c| local.get(c).cloned()).collect()
    }

    fn forward(&self, node: &str, outbox: &Outbox, msg: ClientMsg) {
        self.forward_as(node, outbox.conn(), outbox.session().info(), msg, 0);
    }

    fn presence(&self, info: &PlayerInfo, online: bool) {
        let mut redis = self.conn();
        let key = self.presence_key(&self.node);
        let id = info.id.clone();
        let text = serde_json::to_string(info).unwrap_or_default();
        tokio::spawn(async move {
            let _: Result<(), _> = if online {
                redis.hset(key, id, text).await
            } else {
                redis.hdel(key, id).await
            };
        });
        self.broadcast(&if online {
            Bus::Online {
                node: self.node.clone(),
                player: info.clone(),
            }
        } else {
            Bus::Offline {
                node: self.node.clone(),
                id: info.id.clone(),
            }
        });
    }

    fn renamed(&self, player: &PlayerInfo) {
        self.broadcast(&Bus::Renamed {
            node: self.node.clone(),
            player: player.clone(),
        });
    }

    fn marks(&self, player: &str) {
        self.broadcast(&Bus::Marks {
            node: self.node.clone(),
            player: player.to_owned(),
        });
    }

    fn lobby_changed(&self, table: &LobbyTable) {
        if let Ok(text) = serde_json::to_string(table) {
            let mut redis = self.conn();
            let key = self.key("lobby");
            let id = table.id.clone();
            tokio::spawn(async move {
                let _: Result<(), _> = redis.hset(key, id, text).await;
            });
        }
        self.broadcast(&Bus::Lobby {
            node: self.node.clone(),
            table: table.clone(),
        });
    }

    fn lobby_gone(&self, id: &str) {
        let mut redis = self.conn();
        let key = self.key("lobby");
        let field = id.to_owned();
        tokio::spawn(async move {
            let _: Result<(), _> = redis.hdel(key, field).await;
        });
        self.broadcast(&Bus::LobbyGone {
            node: self.node.clone(),
            id: id.to_owned(),
        });
    }

    fn challenge_news(&self, news: ChallengeNews<'_>) {
        self.broadcast(&Bus::Challenge {
            node: self.node.clone(),
            id: news.id.to_owned(),
            from: news.from.clone(),
            to: news.to.clone(),
            spec: news.spec.clone(),
            state: news.state,
            table: news.table.map(str::to_owned),
        });
    }

    fn challenge_stored<'a>(&'a self, id: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(async move {
            let mut redis = self.conn();
            let done: Result<(), _> = redis
                .set_ex(self.key(&format!("challenge:{id}")), 1, 86_400)
                .await;
            done.is_ok()
        })
    }

    fn challenge_claim<'a>(&'a self, id: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(async move {
            let mut redis = self.conn();
            let gone: Result<i64, _> = redis.del(self.key(&format!("challenge:{id}"))).await;
            matches!(gone, Ok(1))
        })
    }

    fn hold(&self, table: &str) -> Hold {
        match self.may_write(table) {
            Some(epoch) => Hold::Lease(epoch),
            None => Hold::Lost,
        }
    }

    fn claim_new<'a>(&'a self, table: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(async move {
            let Some(hub) = self.hub() else { return false };
            self.acquire_fenced(&hub, table).await
        })
    }

    fn claim_stored<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Claim> {
        Box::pin(async move {
            let Some(hub) = self.hub() else {
                return Claim::Elsewhere;
            };
            if matches!(self.owner(table).await, Ok(None)) && self.take_over(&hub, table).await {
                Claim::TakenOver
            } else {
                Claim::Elsewhere
            }
        })
    }

    fn locate<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Located> {
        Box::pin(async move {
            match self.hub() {
                Some(hub) => self.locate_owner(&hub, table).await,
                None => Located::Missing,
            }
        })
    }

    fn table_by_code<'a>(&'a self, code: &'a str) -> BoxFuture<'a, Option<String>> {
        Box::pin(async move {
            let hub = self.hub()?;
            match hub.store.table_by_code(code).await {
                Ok(Some(t)) if t.status != parlor_store::table_status::CLOSED => Some(t.id),
                _ => None,
            }
        })
    }

    fn closed<'a>(&'a self, table: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            self.release(&[table.to_owned()]).await;
            self.forget_route(table);
        })
    }

    fn evicted(&self, table: &str) {
        lock(&self.held).remove(table);
        self.forget_route(table);
    }
}

//! Scale-out: several `parlor serve` nodes as one site, sharing PostgreSQL (storage) and Redis (routing, presence
//! and messages between nodes). Without `--redis` none of this runs and a node is alone, as on a laptop.
//!
//! # How it works
//! - **Ownership.** Each table is owned by one node at a time, by an expiring Redis lease `lease:<table>` whose
//!   value is `<node> <epoch>`. The epoch is a fencing token from one Redis counter; the owner raises the table's
//!   token in the database ([`Write::Fence`]) before it reads the table, and puts [`Write::Fenced`] first in every
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

pub use crate::config::ClusterConfig;
use crate::hub::Hub;
use crate::outbox::{ConnId, Out, Outbox};
use crate::table::command::{Cmd, table_of};
use parlor_protocol::{ChallengeState, ClientMsg, LobbyTable, PlayerInfo, TableSpec};
use parlor_store::{Store, Write};
use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};
use tokio_util::sync::CancellationToken;

/// Could not join the site.
#[derive(Debug, thiserror::Error)]
#[error("redis: {0}")]
pub struct ClusterError(#[from] redis::RedisError);

/// A message between nodes (JSON), except [`DELIVER`] frames.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
enum Bus {
    /// To a table's owner: a client's message for the table.
    Fwd {
        from: String,
        conn: ConnId,
        player: PlayerInfo,
        msg: ClientMsg,
        retry: u8,
    },
    /// Back to the client's node: the table is not here.
    NotHere {
        conn: ConnId,
        msg: ClientMsg,
        retry: u8,
    },
    /// To a client's node: close the socket (the client reconnects and resyncs).
    CloseConn {
        conn: ConnId,
        code: u16,
    },
    /// Broadcast: a lobby table changed, or is gone.
    Lobby {
        node: String,
        table: LobbyTable,
    },
    LobbyGone {
        node: String,
        id: String,
    },
    /// Broadcast: a player is visible on a node, or no longer.
    Online {
        node: String,
        player: PlayerInfo,
    },
    Offline {
        node: String,
        id: String,
    },
    /// Broadcast: a challenge's news.
    Challenge {
        node: String,
        id: String,
        from: PlayerInfo,
        to: PlayerInfo,
        spec: TableSpec,
        state: ChallengeState,
        table: Option<String>,
    },
    /// Broadcast: a player's name, or marks, changed.
    Renamed {
        node: String,
        player: PlayerInfo,
    },
    Marks {
        node: String,
        player: String,
    },
    /// Broadcast: a node took these tables (after a takeover).
    Owner {
        node: String,
        tables: Vec<String>,
    },
    /// Broadcast: a stopping node released these tables.
    Released {
        node: String,
        tables: Vec<String>,
    },
    /// Broadcast: a node is gone (stopped, or found dead).
    NodeGone {
        node: String,
        gone: String,
    },
    /// To oneself: the subscription still works.
    Ping,
}

/// How many times a client's message that found its table between nodes is sent again (100 ms apart).
const NOT_HERE_RETRIES: u8 = 10;

/// A frame carrying one server message for one connection: `D<conn>\n<text>`.
const DELIVER: char = 'D';

/// One lease this node holds.
#[derive(Clone, Copy, Debug)]
struct Held {
    epoch: i64,
    /// Writes are accepted until then.
    until: Instant,
}

/// A remote connection's proxy on the owner: its outbox and the tables it opened here.
struct Proxy {
    outbox: Outbox,
    tables: HashSet<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Renews this node's leases and heartbeat; names dead nodes. KEYS: nodes, owned set, then the leases.
/// ARGV: node, lease ms, length of the lease keys' prefix, then each lease's value. A lease that lapsed while
/// nobody took it is taken again (the database's token still says it is ours). Returns {lost lease indexes
/// (1-based), dead nodes}.
const RENEW: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
local skip = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[1])
local lost = {}
for i = 3, #KEYS do
  local want = ARGV[i + 1]
  local v = redis.call('GET', KEYS[i])
  if v == want then
    redis.call('PEXPIRE', KEYS[i], ttl)
  elseif v == false then
    redis.call('SET', KEYS[i], want, 'PX', ttl)
    redis.call('SADD', KEYS[2], string.sub(KEYS[i], skip + 1))
  else
    table.insert(lost, i - 2)
  end
end
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
return {lost, dead}
";

/// Takes a free lease. KEYS: lease, owned set. ARGV: value, lease ms, table. Returns 1 if taken.
const ACQUIRE: &str = r"
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('SADD', KEYS[2], ARGV[3])
  return 1
end
return 0
";

/// Gives leases back. KEYS: owned set, then leases. ARGV: values, then tables.
const RELEASE: &str = r"
local n = #KEYS - 1
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i - 1] then redis.call('DEL', KEYS[i]) end
  redis.call('SREM', KEYS[1], ARGV[n + i - 1])
end
return 1
";

/// Forgets a dead node if it is still dead and none of its tables is left to take. KEYS: nodes, owned set,
/// presence hash. ARGV: node, lease ms.
const BURY: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if seen and tonumber(seen) > now - tonumber(ARGV[2]) then return 0 end
if redis.call('SCARD', KEYS[2]) > 0 then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3])
return 1
";

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
        });
        tokio::spawn(publisher(redis, queue, Arc::downgrade(&cluster)));
        Ok(cluster)
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
        hub.lobby_load(tables);
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

    /// The token to write for `table` with, if this node may write for it now.
    pub fn may_write(&self, table: &str) -> Option<i64> {
        lock(&self.held)
            .get(table)
            .filter(|h| Instant::now() < h.until)
            .map(|h| h.epoch)
    }

    /// Renews the heartbeat and every lease; evicts the tables whose lease another node took; takes over the
    /// tables of dead nodes.
    async fn renew(self: &Arc<Self>, hub: &Arc<Hub>) -> Result<(), ClusterError> {
        let started = Instant::now();
        // Renew only while the database answers too: a node that cannot store moves lets its tables go.
        let db = timeout(self.lease / 4, hub.store.setting("cluster")).await;
        if !matches!(db, Ok(Ok(_))) {
            tracing::warn!(node = %self.node, "the database does not answer: not renewing leases");
            return Ok(());
        }
        let held: Vec<(String, Held)> = lock(&self.held).iter().map(|(t, h)| (t.clone(), *h)).collect();
        let renew = redis::Script::new(RENEW);
        let mut script = renew.prepare_invoke();
        script.key(self.key("nodes")).key(self.owned_key(&self.node));
        script
            .arg(&self.node)
            .arg(self.lease.as_millis() as u64)
            .arg(self.lease_key("").len());
        for (table, h) in &held {
            script.key(self.lease_key(table));
            script.arg(format!("{} {}", self.node, h.epoch));
        }
        let mut redis = self.conn();
        let (lost, dead): (Vec<usize>, Vec<String>) = script.invoke_async(&mut redis).await?;
        let until = started + self.lease - self.margin();
        // Out of touch for longer than a lease: the others may have buried this node (dropped its connections'
        // proxies and its players' presence). Tell them again.
        let previous = lock(&self.renewed).replace(started);
        if previous.is_some_and(|p| started.duration_since(p) > self.lease) {
            let me = self.clone();
            let hub = hub.clone();
            tokio::spawn(async move { me.resync(&hub).await });
        }
        let lost: HashSet<usize> = lost.into_iter().collect();
        let mut evicted = Vec::new();
        {
            let mut map = lock(&self.held);
            for (i, (table, h)) in held.iter().enumerate() {
                if lost.contains(&(i + 1)) {
                    map.remove(table);
                    evicted.push(table.clone());
                } else if let Some(entry) = map.get_mut(table)
                    && entry.epoch == h.epoch
                {
                    entry.until = until;
                }
            }
        }
        for table in evicted {
            tracing::warn!(node = %self.node, %table, "lease lost to another node: letting the table go");
            if let Some(tx) = hub.table(&table) {
                let _ = tx.try_send(Cmd::Evict);
            }
        }
        let nodes: Vec<String> = redis.zrange(self.key("nodes"), 0, -1).await.unwrap_or_default();
        *lock(&self.live_nodes) = nodes.into_iter().filter(|n| !dead.contains(n)).collect();
        for node in dead.into_iter().filter(|n| *n != self.node) {
            self.bury(hub, &node).await;
        }
        if self.rounds.fetch_add(1, Ordering::Relaxed) % 8 == 7 {
            self.adopt(hub).await;
        }
        Ok(())
    }

    /// Tables listed as this node's that it does not hold: left by an earlier process with the same node name
    /// (a quick restart, before anyone saw the node dead). Taken again once their old lease lapses.
    async fn adopt(self: &Arc<Self>, hub: &Arc<Hub>) {
        let mut redis = self.conn();
        let listed: Vec<String> = match redis.smembers(self.owned_key(&self.node)).await {
            Ok(t) => t,
            Err(_) => return,
        };
        let orphans: Vec<String> = {
            let held = lock(&self.held);
            listed.into_iter().filter(|t| !held.contains_key(t)).collect()
        };
        for table in orphans {
            let gone = match self.owner_fresh(&table).await {
                Ok(None) => !self.take_over(hub, &table).await && hub.table(&table).is_none(),
                Ok(Some(n)) => n != self.node,
                Err(_) => false,
            };
            if gone {
                let _: Result<(), _> = redis.srem(self.owned_key(&self.node), &table).await;
            }
        }
    }

    /// Takes over a dead node's tables, then forgets the node.
    async fn bury(self: &Arc<Self>, hub: &Arc<Hub>, node: &str) {
        let mut redis = self.conn();
        let tables: Vec<String> = match redis.smembers(self.owned_key(node)).await {
            Ok(t) => t,
            Err(_) => return,
        };
        tracing::warn!(node = %self.node, dead = %node, tables = tables.len(), "a node is gone: taking its tables");
        for table in tables {
            if self.take_over(hub, &table).await {
                let _: Result<(), _> = redis.srem(self.owned_key(node), &table).await;
                continue;
            }
            // Not taken: still leased by the dead node (its lease lapses a moment after its heartbeat), or taken
            // by another node, or closed. Only the first is tried again next round. A lease that lapsed between
            // the try and this look leaves the table free: try once more now, since once the table leaves the dead
            // node's set no round comes back for it.
            let still_theirs = match self.owner_fresh(&table).await {
                Ok(Some(n)) => n == node,
                Ok(None) => {
                    self.take_over(hub, &table).await;
                    false
                }
                Err(_) => false,
            };
            if !still_theirs {
                let _: Result<(), _> = redis.srem(self.owned_key(node), &table).await;
            }
        }
        let buried: Result<i64, _> = redis::Script::new(BURY)
            .key(self.key("nodes"))
            .key(self.owned_key(node))
            .key(self.presence_key(node))
            .arg(node)
            .arg(self.lease.as_millis() as u64)
            .invoke_async(&mut redis)
            .await;
        if matches!(buried, Ok(1)) {
            self.broadcast(&Bus::NodeGone {
                node: self.node.clone(),
                gone: node.to_owned(),
            });
            self.node_gone(hub, node);
        }
    }

    /// Takes a lease for a table: a new one (just created) or a free one. Returns its epoch.
    async fn acquire(&self, table: &str) -> Option<i64> {
        let started = Instant::now();
        let mut redis = self.conn();
        let epoch: i64 = redis.incr(self.key("epoch"), 1).await.ok()?;
        let taken: i64 = redis::Script::new(ACQUIRE)
            .key(self.lease_key(table))
            .key(self.owned_key(&self.node))
            .arg(format!("{} {epoch}", self.node))
            .arg(self.lease.as_millis() as u64)
            .arg(table)
            .invoke_async(&mut redis)
            .await
            .ok()?;
        if taken != 1 {
            return None;
        }
        lock(&self.held).insert(
            table.to_owned(),
            Held {
                epoch,
                until: started + self.lease - self.margin(),
            },
        );
        lock(&self.routes).insert(table.to_owned(), self.node.clone());
        Some(epoch)
    }

    /// Gives leases back (a closed table, a failed takeover, a graceful stop).
    async fn release(&self, tables: &[String]) {
        if tables.is_empty() {
            return;
        }
        let held: Vec<(String, Held)> = {
            let mut map = lock(&self.held);
            tables
                .iter()
                .filter_map(|t| map.remove(t).map(|h| (t.clone(), h)))
                .collect()
        };
        let release = redis::Script::new(RELEASE);
        let mut script = release.prepare_invoke();
        script.key(self.owned_key(&self.node));
        for (table, h) in &held {
            script.key(self.lease_key(table));
            script.arg(format!("{} {}", self.node, h.epoch));
        }
        for (table, _) in &held {
            script.arg(table);
        }
        let mut redis = self.conn();
        let done: Result<i64, _> = script.invoke_async(&mut redis).await;
        if let Err(e) = done {
            tracing::warn!(error = %e, "could not release leases; they expire by themselves");
        }
    }

    /// A new table here: takes its lease and fences it. Returns false if that failed (the table must not run).
    pub async fn claim_new(&self, hub: &Hub, table: &str) -> bool {
        self.acquire_fenced(hub, table).await
    }

    /// Takes a free lease and raises the table's token in the database to its epoch: from then on a write of a
    /// former owner fails. False (and no lease kept) if either step failed.
    async fn acquire_fenced(&self, hub: &Hub, table: &str) -> bool {
        let Some(epoch) = self.acquire(table).await else {
            return false;
        };
        let fence = Write::Fence {
            table_id: table.to_owned(),
            epoch,
        };
        if let Err(e) = hub.persist.commit(vec![fence]).await {
            tracing::warn!(%table, error = %e, "could not fence a table");
            self.release(&[table.to_owned()]).await;
            return false;
        }
        true
    }

    /// Takes a table nobody holds and restores it from the store. Returns whether this node now runs it.
    /// (Boxed: taking over re-opens the table for this node's watchers, which routes, which may take over.)
    pub fn take_over<'a>(
        self: &'a Arc<Self>,
        hub: &'a Arc<Hub>,
        table: &'a str,
    ) -> std::pin::Pin<Box<dyn Future<Output = bool> + Send + 'a>> {
        Box::pin(async move {
            if hub.table(table).is_some() {
                return true;
            }
            if !lock(&self.taking).insert(table.to_owned()) {
                return false;
            }
            let done = self.take_over_inner(hub, table).await;
            lock(&self.taking).remove(table);
            if done {
                self.broadcast(&Bus::Owner {
                    node: self.node.clone(),
                    tables: vec![table.to_owned()],
                });
                let hub = hub.clone();
                let table = table.to_owned();
                tokio::spawn(async move { hub.reopen(&table).await });
            }
            done
        })
    }

    async fn take_over_inner(self: &Arc<Self>, hub: &Arc<Hub>, table: &str) -> bool {
        let record = match hub.store.table(table).await {
            Ok(Some(r)) if r.status != parlor_store::table_status::CLOSED => r,
            _ => return false,
        };
        // Raise the token before reading: a write of the former owner either landed already or will fail.
        if !self.acquire_fenced(hub, table).await {
            return false;
        }
        let last = match hub.store.last_game_of_table(table).await {
            Ok(last) => last,
            Err(e) => {
                tracing::warn!(%table, error = %e, "could not read a table to take it over");
                self.release(&[table.to_owned()]).await;
                return false;
            }
        };
        if hub.restore_one(&record, last.as_ref()) {
            tracing::info!(node = %self.node, %table, "took a table over");
            true
        } else {
            self.release(&[table.to_owned()]).await;
            false
        }
    }

    /// Which node owns a table: the cache, else the lease. `None` if nobody holds it.
    ///
    /// # Errors
    /// Redis failed.
    pub async fn owner(&self, table: &str) -> Result<Option<String>, ClusterError> {
        if let Some(node) = lock(&self.routes).get(table) {
            return Ok(Some(node.clone()));
        }
        self.owner_fresh(table).await
    }

    async fn owner_fresh(&self, table: &str) -> Result<Option<String>, ClusterError> {
        let mut redis = self.conn();
        let value: Option<String> = redis.get(self.lease_key(table)).await?;
        let node = value.and_then(|v| v.split(' ').next().map(str::to_owned));
        // Remember the route only to a live node: a dead node's lease lingers until it lapses.
        let live = node
            .as_ref()
            .is_some_and(|n| *n == self.node || lock(&self.live_nodes).contains(n));
        let mut routes = lock(&self.routes);
        match &node {
            Some(n) if live => {
                routes.insert(table.to_owned(), n.clone());
            }
            _ => {
                routes.remove(table);
            }
        }
        Ok(node)
    }

    fn forget_route(&self, table: &str) {
        lock(&self.routes).remove(table);
    }

    /// A local table closed: its lease goes.
    pub async fn closed(&self, table: &str) {
        self.release(&[table.to_owned()]).await;
        self.forget_route(table);
    }

    /// A local table stopped because its lease is gone (evicted or fenced).
    pub fn evicted(&self, table: &str) {
        lock(&self.held).remove(table);
        self.forget_route(table);
    }

    /// A connection of this node came.
    pub fn connected(&self, outbox: &Outbox) {
        lock(&self.local).insert(outbox.conn(), outbox.clone());
    }

    /// A connection of this node went.
    pub fn disconnected(&self, conn: ConnId) {
        lock(&self.local).remove(&conn);
        lock(&self.watching).retain(|_, conns| {
            conns.remove(&conn);
            !conns.is_empty()
        });
    }

    /// A connection of this node opened (or closed) a table.
    pub fn watch(&self, table: &str, conn: ConnId, on: bool) {
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

    /// This node's connections watching a table.
    pub fn watchers(&self, table: &str) -> Vec<Outbox> {
        let conns: Vec<ConnId> = lock(&self.watching)
            .get(table)
            .map(|c| c.iter().copied().collect())
            .unwrap_or_default();
        let local = lock(&self.local);
        conns.iter().filter_map(|c| local.get(c).cloned()).collect()
    }

    /// Sends a client's table message to the node that owns the table.
    pub fn forward(&self, node: &str, outbox: &Outbox, msg: ClientMsg) {
        self.forward_as(node, outbox.conn(), outbox.session().info(), msg, 0);
    }

    fn forward_as(&self, node: &str, conn: ConnId, player: PlayerInfo, msg: ClientMsg, retry: u8) {
        let bus = Bus::Fwd {
            from: self.node.clone(),
            conn,
            player,
            msg: msg.clone(),
            retry,
        };
        if let Ok(text) = serde_json::to_string(&bus) {
            let _ = self.publish.send(Publish {
                channel: self.channel(node),
                text,
                forwarded: Some((conn, msg)),
                flushed: None,
            });
        }
    }

    /// A forwarded message reached nobody: the owner is gone (its lease has not expired yet). The route is
    /// forgotten, and a command waiting for an answer is refused so that the client tries again.
    fn undelivered(&self, conn: ConnId, msg: &ClientMsg) {
        let Some(table) = table_of(msg) else {
            return;
        };
        self.forget_route(table);
        let outbox = lock(&self.local).get(&conn).cloned();
        let Some(outbox) = outbox else { return };
        let ack = match msg {
            ClientMsg::Move { ack, .. } => Some(*ack),
            ClientMsg::Open { .. } | ClientMsg::Close { .. } => return,
            _ => None,
        };
        outbox.send(&parlor_protocol::ServerMsg::Error {
            code: parlor_protocol::ErrorCode::Unavailable,
            message: "this table is moving to another server; try again in a moment".to_owned(),
            table: Some(table.to_owned()),
            ack,
        });
    }

    /// Broadcasts: lobby, presence, challenges, names, marks.
    pub fn lobby_changed(&self, table: &LobbyTable) {
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

    /// A lobby table is gone.
    pub fn lobby_gone(&self, id: &str) {
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

    /// A player became visible on this node, or stopped being.
    pub fn presence(&self, info: &PlayerInfo, online: bool) {
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

    /// Stores a new challenge so that any node can claim it.
    pub async fn challenge_stored(&self, id: &str) -> bool {
        let mut redis = self.conn();
        let done: Result<(), _> = redis
            .set_ex(self.key(&format!("challenge:{id}")), 1, 86_400)
            .await;
        done.is_ok()
    }

    /// Claims a pending challenge (to answer, cancel or lapse it): true for exactly one caller in the site.
    pub async fn challenge_claim(&self, id: &str) -> bool {
        let mut redis = self.conn();
        let gone: Result<i64, _> = redis.del(self.key(&format!("challenge:{id}"))).await;
        matches!(gone, Ok(1))
    }

    /// Tells every node of a challenge's news.
    #[allow(clippy::too_many_arguments)]
    pub fn challenge_news(
        &self,
        id: &str,
        from: &PlayerInfo,
        to: &PlayerInfo,
        spec: &TableSpec,
        state: ChallengeState,
        table: Option<String>,
    ) {
        self.broadcast(&Bus::Challenge {
            node: self.node.clone(),
            id: id.to_owned(),
            from: from.clone(),
            to: to.clone(),
            spec: spec.clone(),
            state,
            table,
        });
    }

    /// Tells every node of a new name.
    pub fn renamed(&self, player: &PlayerInfo) {
        self.broadcast(&Bus::Renamed {
            node: self.node.clone(),
            player: player.clone(),
        });
    }

    /// Tells every node that a player's marks changed (they reload them).
    pub fn marks(&self, player: &str) {
        self.broadcast(&Bus::Marks {
            node: self.node.clone(),
            player: player.to_owned(),
        });
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

    /// The proxy outbox of another node's connection, made on first use.
    async fn proxy(self: &Arc<Self>, hub: &Arc<Hub>, node: &str, conn: ConnId, player: PlayerInfo) -> Outbox {
        let key = (node.to_owned(), conn);
        if let Some(p) = lock(&self.proxies).get(&key) {
            return p.outbox.clone();
        }
        let session = hub.session(player).await;
        let (outbox, mut rx) = Outbox::new(hub.next_conn(), session);
        let mut proxies = lock(&self.proxies);
        if let Some(p) = proxies.get(&key) {
            return p.outbox.clone();
        }
        proxies.insert(
            key,
            Proxy {
                outbox: outbox.clone(),
                tables: HashSet::new(),
            },
        );
        drop(proxies);
        let publish = self.publish.clone();
        let channel = self.channel(node);
        tokio::spawn(async move {
            while let Some(out) = rx.recv().await {
                let frame = match out {
                    Out::Text(text) => format!("{DELIVER}{conn}\n{}", text.as_str()),
                    Out::Close(code, _) => {
                        serde_json::to_string(&Bus::CloseConn { conn, code }).unwrap_or_default()
                    }
                };
                let item = Publish {
                    channel: channel.clone(),
                    text: frame,
                    forwarded: None,
                    flushed: None,
                };
                if publish.send(item).is_err() {
                    break;
                }
            }
        });
        outbox
    }

    /// A forwarded message arrived for a table of ours.
    async fn serve_forwarded(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        from: String,
        conn: ConnId,
        player: PlayerInfo,
        msg: ClientMsg,
        retry: u8,
    ) {
        let Some(table) = table_of(&msg).map(str::to_owned) else {
            return;
        };
        // Not here, or here but stopping (a graceful stop hands the table over in a moment): the sender retries.
        let Some(tx) = hub.table(&table).filter(|_| !hub.shutdown.is_cancelled()) else {
            self.send(&from, &Bus::NotHere { conn, msg, retry });
            return;
        };
        let copy = msg.clone();
        let closing = matches!(msg, ClientMsg::Close { .. });
        let outbox = self.proxy(hub, &from, conn, player).await;
        {
            let mut proxies = lock(&self.proxies);
            let key = (from.clone(), conn);
            if let Some(p) = proxies.get_mut(&key) {
                if closing {
                    p.tables.remove(&table);
                    if p.tables.is_empty() {
                        proxies.remove(&key);
                    }
                } else {
                    p.tables.insert(table.clone());
                }
            }
        }
        if let Some(cmd) = Cmd::from_client(msg, outbox)
            && tx.send(cmd).await.is_err()
        {
            self.send(
                &from,
                &Bus::NotHere {
                    conn,
                    msg: copy,
                    retry,
                },
            );
        }
    }

    /// A node is gone: its connections stop watching our tables; its players go offline here.
    fn node_gone(&self, hub: &Arc<Hub>, node: &str) {
        let gone: Vec<(Outbox, HashSet<String>)> = {
            let mut proxies = lock(&self.proxies);
            let keys: Vec<(String, ConnId)> = proxies.keys().filter(|(n, _)| n == node).cloned().collect();
            keys.iter()
                .filter_map(|k| proxies.remove(k))
                .map(|p| (p.outbox, p.tables))
                .collect()
        };
        for (outbox, tables) in gone {
            for table in tables {
                if let Some(tx) = hub.table(&table) {
                    let _ = tx.try_send(Cmd::Close { conn: outbox.conn() });
                }
            }
        }
        lock(&self.routes).retain(|_, n| n != node);
        lock(&self.live_nodes).retain(|n| n != node);
        hub.node_gone(node);
    }

    /// Handles one message from Redis.
    async fn on_message(self: &Arc<Self>, hub: &Arc<Hub>, text: &str) {
        if let Some(rest) = text.strip_prefix(DELIVER) {
            let Some((conn, body)) = rest.split_once('\n') else {
                return;
            };
            let Ok(conn) = conn.parse::<ConnId>() else { return };
            let outbox = lock(&self.local).get(&conn).cloned();
            if let Some(outbox) = outbox {
                outbox.send_text(body.to_owned().into());
            }
            return;
        }
        let Ok(msg) = serde_json::from_str::<Bus>(text) else {
            tracing::warn!("unreadable message between nodes");
            return;
        };
        match msg {
            Bus::Ping => *lock(&self.pinged) = Instant::now(),
            Bus::Fwd {
                from,
                conn,
                player,
                msg,
                retry,
            } => {
                // Order matters per connection (a move after its open): serve inline.
                self.serve_forwarded(hub, from, conn, player, msg, retry).await;
            }
            Bus::NotHere { conn, msg, retry } => {
                let Some(table) = table_of(&msg).map(str::to_owned) else {
                    return;
                };
                self.forget_route(&table);
                let outbox = lock(&self.local).get(&conn).cloned();
                let Some(outbox) = outbox else { return };
                if retry >= NOT_HERE_RETRIES {
                    // The table is between nodes for longer than expected: a move is refused (the client sends
                    // it again), an open waits for the table to be re-opened when its new owner says so.
                    if matches!(msg, ClientMsg::Move { .. }) {
                        self.undelivered(conn, &msg);
                    } else if !matches!(msg, ClientMsg::Open { .. } | ClientMsg::Close { .. }) {
                        hub.table_missing(&outbox, &table);
                    }
                    return;
                }
                let hub = hub.clone();
                let me = self.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    match hub.route(&table).await {
                        crate::hub::Route::Local(tx) => {
                            if let Some(cmd) = Cmd::from_client(msg, outbox) {
                                let _ = tx.send(cmd).await;
                            }
                        }
                        crate::hub::Route::Remote(node) => {
                            me.forward_as(&node, conn, outbox.session().info(), msg, retry + 1);
                        }
                        crate::hub::Route::Missing => hub.table_missing(&outbox, &table),
                    }
                });
            }
            Bus::CloseConn { conn, code } => {
                let outbox = lock(&self.local).get(&conn).cloned();
                if let Some(outbox) = outbox {
                    outbox.close(code, "table moved; reconnect");
                }
            }
            Bus::Lobby { node, table } if node != self.node => hub.lobby_apply(table),
            Bus::LobbyGone { node, id } if node != self.node => hub.lobby_remove_local(&id),
            Bus::Online { node, player } if node != self.node => hub.remote_online(&node, player),
            Bus::Offline { node, id } if node != self.node => hub.remote_offline(&node, &id),
            Bus::Challenge {
                node,
                id,
                from,
                to,
                spec,
                state,
                table,
            } if node != self.node => hub.challenge_apply(id, from, to, spec, state, table),
            Bus::Renamed { node, player } if node != self.node => hub.renamed_elsewhere(player),
            Bus::Marks { node, player } if node != self.node => hub.reload_marks(&player).await,
            Bus::Owner { node, tables } if node != self.node => {
                for table in tables {
                    lock(&self.routes).insert(table.clone(), node.clone());
                    let hub = hub.clone();
                    tokio::spawn(async move { hub.reopen(&table).await });
                }
            }
            Bus::Released { node, tables } if node != self.node => {
                let me = self.clone();
                let hub = hub.clone();
                tokio::spawn(async move {
                    for table in tables {
                        me.forget_route(&table);
                        me.take_over(&hub, &table).await;
                    }
                });
            }
            Bus::NodeGone { node, gone } if node != self.node && gone != self.node => {
                self.node_gone(hub, &gone)
            }
            _ => {}
        }
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

/// One message to publish; a forwarded client message keeps a copy, to refuse it if nobody received it.
struct Publish {
    channel: String,
    text: String,
    forwarded: Option<(ConnId, ClientMsg)>,
    /// Not published: answered once everything queued before it has been.
    flushed: Option<tokio::sync::oneshot::Sender<()>>,
}

/// Publishes queued messages in order, many per round trip.
async fn publisher(
    mut redis: ConnectionManager,
    mut queue: mpsc::UnboundedReceiver<Publish>,
    cluster: std::sync::Weak<Cluster>,
) {
    let Some(stop) = cluster.upgrade().map(|c| c.stop.clone()) else {
        return;
    };
    let mut batch: Vec<Publish> = Vec::new();
    loop {
        let first = tokio::select! {
            m = queue.recv() => m,
            () = stop.cancelled() => None,
        };
        let Some(first) = first else { return };
        batch.push(first);
        while batch.len() < 512 {
            match queue.try_recv() {
                Ok(m) => batch.push(m),
                Err(_) => break,
            }
        }
        let flushes: Vec<tokio::sync::oneshot::Sender<()>> =
            batch.iter_mut().filter_map(|item| item.flushed.take()).collect();
        batch.retain(|item| !item.channel.is_empty());
        let mut pipe = redis::pipe();
        for item in &batch {
            pipe.publish(&item.channel, &item.text);
        }
        let sent: Result<Vec<i64>, _> = if batch.is_empty() {
            Ok(Vec::new())
        } else {
            pipe.query_async(&mut redis).await
        };
        match sent {
            Ok(receivers) => {
                if let Some(cluster) = cluster.upgrade() {
                    for (item, count) in batch.iter().zip(receivers) {
                        if count == 0
                            && let Some((conn, msg)) = &item.forwarded
                        {
                            cluster.undelivered(*conn, msg);
                        }
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not publish to other nodes");
                if let Some(cluster) = cluster.upgrade() {
                    for item in &batch {
                        if let Some((conn, msg)) = &item.forwarded {
                            cluster.undelivered(*conn, msg);
                        }
                    }
                }
            }
        }
        batch.clear();
        for done in flushes {
            let _ = done.send(());
        }
    }
}

/// Receives this node's and the site's messages; makes the subscription again when it breaks or goes silent.
async fn listener(cluster: Arc<Cluster>, hub: std::sync::Weak<Hub>, first: redis::aio::PubSub) {
    use futures_util::StreamExt;
    let mut pubsub = Some(first);
    loop {
        if cluster.stop.is_cancelled() {
            return;
        }
        let current = match pubsub.take() {
            Some(p) => p,
            None => match cluster.subscribe().await {
                Ok(p) => {
                    if let Some(hub) = hub.upgrade() {
                        cluster.resync(&hub).await;
                    }
                    p
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot subscribe to other nodes; retrying");
                    tokio::time::sleep(cluster.lease / 4).await;
                    continue;
                }
            },
        };
        let mut stream = current.into_on_message();
        let check = cluster.lease / 4;
        loop {
            let next = tokio::select! {
                m = timeout(check, stream.next()) => m,
                () = cluster.stop.cancelled() => return,
            };
            match next {
                Ok(Some(msg)) => {
                    let Some(hub) = hub.upgrade() else { return };
                    let text: String = match msg.get_payload() {
                        Ok(t) => t,
                        Err(_) => continue,
                    };
                    cluster.on_message(&hub, &text).await;
                }
                Ok(None) => break,
                Err(_) => {}
            }
            // Silent for two rounds of pings: the link is broken even if the socket is open.
            if lock(&cluster.pinged).elapsed() > cluster.lease / 2 {
                tracing::warn!(node = %cluster.node, "no news from Redis: subscribing again");
                break;
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

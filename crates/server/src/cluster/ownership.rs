//! Who owns each table: expiring Redis leases with fencing tokens, their renewal with the node's heartbeat,
//! taking over the tables of dead nodes (and of nobody), and the cached route to a table's owner.

use super::bus::Bus;
use super::{Cluster, ClusterError, lock};
use crate::hub::Hub;
use crate::site::Located;
use crate::table::Cmd;
use parlor_store::{Store, Write};
use redis::AsyncCommands;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::time::{Instant, timeout};

/// One lease this node holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Held {
    pub(super) epoch: i64,
    /// Writes are accepted until then.
    pub(super) until: Instant,
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

impl Cluster {
    /// The token to write for `table` with, if this node may write for it now.
    pub(super) fn may_write(&self, table: &str) -> Option<i64> {
        lock(&self.held)
            .get(table)
            .filter(|h| Instant::now() < h.until)
            .map(|h| h.epoch)
    }

    /// Renews the heartbeat and every lease; evicts the tables whose lease another node took; takes over the
    /// tables of dead nodes.
    pub(super) async fn renew(self: &Arc<Self>, hub: &Arc<Hub>) -> Result<(), ClusterError> {
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
                let _ = tx.try_send(Box::new(Cmd::Evict));
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
    pub(super) async fn adopt(self: &Arc<Self>, hub: &Arc<Hub>) {
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
    pub(super) async fn bury(self: &Arc<Self>, hub: &Arc<Hub>, node: &str) {
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
    pub(super) async fn acquire(&self, table: &str) -> Option<i64> {
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
    pub(super) async fn release(&self, tables: &[String]) {
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

    /// Takes a free lease and raises the table's token in the database to its epoch: from then on a write of a
    /// former owner fails. False (and no lease kept) if either step failed.
    pub(super) async fn acquire_fenced(&self, hub: &Hub, table: &str) -> bool {
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
        &'a self,
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

    async fn take_over_inner(&self, hub: &Arc<Hub>, table: &str) -> bool {
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

    /// Where a table that does not run here is: its owner, or here once it is taken over (a table nobody
    /// holds), or missing. Asks a few times while the table is between owners.
    pub(super) async fn locate_owner(&self, hub: &Arc<Hub>, id: &str) -> Located {
        for attempt in 0..20 {
            if hub.table(id).is_some() {
                return Located::Here;
            }
            match self.owner(id).await {
                Ok(Some(node)) if node != self.node => return Located::Remote(node),
                // Ours, but being restored right now: wait for it.
                Ok(Some(_)) => {}
                Ok(None) => {
                    if self.take_over(hub, id).await {
                        if hub.table(id).is_some() {
                            return Located::Here;
                        }
                    } else if attempt > 0 && matches!(self.owner(id).await, Ok(None)) {
                        // Nobody holds it and it cannot be taken: it does not exist or has closed.
                        return Located::Missing;
                    }
                }
                Err(e) => {
                    tracing::warn!(table = %id, error = %e, "cannot find a table's owner");
                    return Located::Missing;
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        Located::Missing
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

    pub(super) async fn owner_fresh(&self, table: &str) -> Result<Option<String>, ClusterError> {
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

    pub(super) fn forget_route(&self, table: &str) {
        lock(&self.routes).remove(table);
    }
}

//! The tables' path to durable storage: the store's group commit (one transaction for whatever many tables wrote
//! meanwhile), timed for `/metrics`. A table acknowledges and broadcasts a move only after `commit` returns. Also
//! what `/healthz` says of the store: whether it can write now.

use crate::metrics::Metrics;
use parlor_store::{AnyStore, GroupCommit, GroupCommitConfig, Store, StoreError, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// How long a player waits for a move to be stored before being told the store is unavailable (the table keeps
/// waiting for the outcome, and the move is broadcast if it is stored after all). Commits take milliseconds; a
/// stalled disk or database takes forever.
pub const COMMIT_PATIENCE: Duration = Duration::from_secs(5);
/// Longest a `/healthz` write probe may take before the store is reported unable to write.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// A commit that succeeded this recently answers `/healthz` without a probe, and a probe's outcome is reused
/// this long while no other commit ends, so a flood of health checks makes at most one write a second.
pub const PROBE_FRESH: Duration = Duration::from_secs(1);
/// The setting the probe writes (the time of the probe).
const PROBE_SETTING: &str = "healthz/probe";

/// The handle tables use to make writes durable.
#[derive(Clone, Debug)]
pub struct Persist {
    group: GroupCommit,
    metrics: Arc<Metrics>,
    health: Arc<Health>,
}

/// What the last commits said of the store.
#[derive(Debug)]
struct Health {
    /// When the store was opened.
    start: Instant,
    /// Commit outcomes so far: each outcome below is stamped with its number in this count.
    outcomes: AtomicU64,
    /// The number of the last successful commit (0: none yet).
    last_ok: AtomicU64,
    /// The number of the last commit that found the store unable to write (0: none yet).
    last_error: AtomicU64,
    /// Milliseconds after `start` of the last successful commit.
    last_ok_ms: AtomicU64,
    /// The last probe: when, the outcome count after it, and what it found. Held while a probe runs, so probes
    /// never overlap.
    probe: tokio::sync::Mutex<Option<Probe>>,
}

/// A probe's outcome.
#[derive(Debug)]
struct Probe {
    /// When it ended.
    at: Instant,
    /// The count of commit outcomes just after it.
    count: u64,
    /// What it found.
    result: Result<(), String>,
}

impl Health {
    fn succeeded(&self) {
        let n = self.outcomes.fetch_add(1, Ordering::Relaxed) + 1;
        self.last_ok.fetch_max(n, Ordering::Relaxed);
        self.last_ok_ms
            .fetch_max(self.start.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn failed(&self) {
        let n = self.outcomes.fetch_add(1, Ordering::Relaxed) + 1;
        self.last_error.fetch_max(n, Ordering::Relaxed);
    }

    /// Whether the last outcome was an outage.
    fn failing(&self) -> bool {
        self.last_error.load(Ordering::Relaxed) > self.last_ok.load(Ordering::Relaxed)
    }

    /// Whether the last commit succeeded and is recent.
    fn fresh_ok(&self) -> bool {
        let since =
            (self.start.elapsed().as_millis() as u64).saturating_sub(self.last_ok_ms.load(Ordering::Relaxed));
        self.last_ok.load(Ordering::Relaxed) > 0 && !self.failing() && since < PROBE_FRESH.as_millis() as u64
    }
}

impl Persist {
    /// Starts the group-commit writers on `store`, tuned for its backend.
    pub fn start(store: AnyStore, metrics: Arc<Metrics>) -> (Persist, JoinHandle<()>) {
        let config = GroupCommitConfig::for_backend(store.backend());
        let (group, task) = GroupCommit::spawn(store, config);
        let health = Arc::new(Health {
            start: Instant::now(),
            outcomes: AtomicU64::new(0),
            last_ok: AtomicU64::new(0),
            last_error: AtomicU64::new(0),
            last_ok_ms: AtomicU64::new(0),
            probe: tokio::sync::Mutex::new(None),
        });
        (
            Persist {
                group,
                metrics,
                health,
            },
            task,
        )
    }

    /// Commits `writes` (with whatever other tables queued) and returns once they are durable.
    ///
    /// # Errors
    /// The store's error; nothing of these writes was stored.
    pub async fn commit(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        let count = writes.len();
        let start = Instant::now();
        let result = self.group.commit(writes).await;
        self.metrics
            .observe_commit(count, start.elapsed(), result.is_ok());
        let failing = self.health.failing();
        match &result {
            Ok(()) => {
                self.health.succeeded();
                if failing {
                    tracing::warn!("the store writes again");
                }
            }
            Err(error) if is_outage(error) => {
                self.health.failed();
                if !failing {
                    tracing::error!(%error, "the store cannot write: moves are refused until it can");
                }
            }
            // Another node holds the table: normal when a table moves, and the table stops here.
            Err(StoreError::Fenced(_)) => {}
            // One write refused (a key already stored, a row missing): this node's copy disagrees with the store.
            Err(error) => tracing::warn!(%error, "the store refused a write"),
        }
        result
    }

    /// Whether the store can write now: yes if a commit just succeeded, else a small write (one setting) is
    /// committed through the same queue as the moves, within [`PROBE_TIMEOUT`].
    ///
    /// # Errors
    /// Why the store cannot write (its error, or that it did not answer in time).
    pub async fn probe(&self) -> Result<(), String> {
        if self.health.fresh_ok() {
            return Ok(());
        }
        let mut last = self.health.probe.lock().await;
        if let Some(probe) = &*last
            && probe.at.elapsed() < PROBE_FRESH
            && probe.count == self.health.outcomes.load(Ordering::Relaxed)
        {
            return probe.result.clone();
        }
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let write = Write::SetSetting {
            name: PROBE_SETTING.to_owned(),
            value: now_ms.to_string(),
        };
        let result = match tokio::time::timeout(PROBE_TIMEOUT, self.commit(vec![write])).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(StoreError::Timeout(PROBE_TIMEOUT).to_string()),
        };
        *last = Some(Probe {
            at: Instant::now(),
            count: self.health.outcomes.load(Ordering::Relaxed),
            result: result.clone(),
        });
        result
    }
}

/// Whether a commit's error says the store cannot write (rather than that one write was refused, as a conflict or
/// a fenced table is).
fn is_outage(error: &StoreError) -> bool {
    matches!(
        error,
        StoreError::Database(_) | StoreError::Unwritable(_) | StoreError::Timeout(_) | StoreError::Closed
    )
}

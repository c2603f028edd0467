//! The tables' path to durable storage: the store's group commit (one transaction for whatever many tables wrote
//! meanwhile), timed for `/metrics`. A table acknowledges and broadcasts a move only after `commit` returns.

use crate::metrics::Metrics;
use parlor_store::{AnyStore, GroupCommit, GroupCommitConfig, Store, StoreError, Write};
use std::sync::Arc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// The handle tables use to make writes durable.
#[derive(Clone, Debug)]
pub struct Persist {
    group: GroupCommit,
    metrics: Arc<Metrics>,
}

impl Persist {
    /// Starts the group-commit writers on `store`, tuned for its backend.
    pub fn start(store: AnyStore, metrics: Arc<Metrics>) -> (Persist, JoinHandle<()>) {
        let config = GroupCommitConfig::for_backend(store.backend());
        let (group, task) = GroupCommit::spawn(store, config);
        (Persist { group, metrics }, task)
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
        result
    }
}

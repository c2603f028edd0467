//! Group commit: one writer task gathers the writes of many tables and commits them in one transaction.
//!
//! Each table task sends its writes and waits for the answer; the writer takes everything that queued up while
//! the previous transaction was being made durable, so the cost of one fsync is shared by every table that moved
//! meanwhile (the technique of database logs, e.g. PostgreSQL's `commit_delay`, without the delay).

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{Mutex, mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::error::StoreError;
use crate::store::Backend;
use crate::store::Store;
use crate::write::Write;

/// The numbers of the group-commit policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupCommitConfig {
    /// Most writes in one transaction; a larger queue is committed in several.
    pub max_writes: usize,
    /// Writer tasks committing at the same time. One keeps all writes in submission order whatever the caller
    /// does; more may help PostgreSQL under heavy load (it flushes concurrent commits together), but then a table
    /// must wait for each answer before it sends writes that depend on it. SQLite has one write connection, so
    /// more writers only queue for it.
    pub writers: usize,
    /// Submissions that may wait in the queue before `commit` itself waits (back-pressure).
    pub queue: usize,
}

impl GroupCommitConfig {
    /// The default for a backend: one writer on both, so that writes are committed in the order they were
    /// submitted (a table may send a move without waiting for the previous answer). Measured with
    /// `benches/commit.rs` on 2 busy cores: one writer gave 40-50k durable moves/s on SQLite and 19-37k on
    /// PostgreSQL with 100-1000 tables in a closed loop; four PostgreSQL writers did better only with 1000 tables
    /// (41k) and worse with 100 (14k).
    pub fn for_backend(backend: Backend) -> GroupCommitConfig {
        let writers = match backend {
            Backend::Sqlite | Backend::Postgres => 1,
        };
        GroupCommitConfig {
            max_writes: 1_000,
            writers,
            queue: 10_000,
        }
    }
}

/// Where a submission's outcome goes.
type Answer = oneshot::Sender<Result<(), StoreError>>;

/// One submission: its writes and where to send the outcome.
struct Job {
    writes: Vec<Write>,
    done: Answer,
}

/// A handle to the group-commit writers; clone it into every table task. The writers stop once every handle is
/// dropped and the queue is empty.
#[derive(Clone, Debug)]
pub struct GroupCommit {
    queue: mpsc::Sender<Job>,
    transactions: Arc<AtomicU64>,
}

impl GroupCommit {
    /// Starts the writer tasks on the current tokio runtime. Await the returned handle after dropping every
    /// [`GroupCommit`] to know that everything submitted is committed (graceful shutdown).
    pub fn spawn<S: Store>(store: S, config: GroupCommitConfig) -> (GroupCommit, JoinHandle<()>) {
        let (queue, jobs) = mpsc::channel(config.queue.max(1));
        let store = Arc::new(store);
        let jobs = Arc::new(Mutex::new(jobs));
        let max_writes = config.max_writes.max(1);
        let transactions = Arc::new(AtomicU64::new(0));
        let writers: Vec<JoinHandle<()>> = (0..config.writers.max(1))
            .map(|_| {
                tokio::spawn(writer(
                    store.clone(),
                    jobs.clone(),
                    max_writes,
                    transactions.clone(),
                ))
            })
            .collect();
        let all = tokio::spawn(async move {
            for writer in writers {
                // A writer only ends when the queue closes; a panic in one is not ours to re-raise here.
                let _ = writer.await;
            }
        });
        (GroupCommit { queue, transactions }, all)
    }

    /// Transactions committed so far (for metrics: writes per transaction shows how well commits are grouped).
    pub fn transactions(&self) -> u64 {
        self.transactions.load(Ordering::Relaxed)
    }

    /// Commits the writes atomically, together with other tables' writes, and returns once they are durable.
    ///
    /// # Errors
    /// This submission's own error as [`Store::commit`] gives it (another table's conflict in the same
    /// transaction does not fail it), or [`StoreError::Closed`] if the writers have stopped.
    pub async fn commit(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.queue
            .send(Job { writes, done })
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }
}

/// One writer: takes what is queued (up to `max_writes`), commits it, answers every submitter.
async fn writer<S: Store>(
    store: Arc<S>,
    jobs: Arc<Mutex<mpsc::Receiver<Job>>>,
    max_writes: usize,
    transactions: Arc<AtomicU64>,
) {
    let mut writes: Vec<Write> = Vec::new();
    // Per submission: where to answer, and its writes' range in `writes`.
    let mut waiting: Vec<(Answer, Range<usize>)> = Vec::new();
    loop {
        writes.clear();
        {
            let mut queue = jobs.lock().await;
            let Some(mut job) = queue.recv().await else { return };
            loop {
                let start = writes.len();
                writes.append(&mut job.writes);
                waiting.push((job.done, start..writes.len()));
                if writes.len() >= max_writes {
                    break;
                }
                match queue.try_recv() {
                    Ok(next) => job = next,
                    Err(_) => break,
                }
            }
        }
        let result = store.commit(&writes).await;
        transactions.fetch_add(1, Ordering::Relaxed);
        match result {
            Ok(()) => {
                for (done, _) in waiting.drain(..) {
                    let _ = done.send(Ok(()));
                }
            }
            Err(error) if waiting.len() == 1 => {
                if let Some((done, _)) = waiting.pop() {
                    let _ = done.send(Err(error));
                }
            }
            Err(_) => {
                // One submission spoiled the transaction: commit each alone so that the others still land.
                for (done, range) in waiting.drain(..) {
                    let result = store.commit(&writes[range]).await;
                    transactions.fetch_add(1, Ordering::Relaxed);
                    let _ = done.send(result);
                }
            }
        }
    }
}

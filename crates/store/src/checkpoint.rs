//! A background checkpointer for an SQLite file: it copies the WAL back into the database on its own connection,
//! so that the writer's commits seldom wait for a checkpoint's copying and fsyncs.
//!
//! SQLite runs a checkpoint inside the commit that fills the WAL past `wal_autocheckpoint` pages, and every commit
//! queued behind it waits: the checkpoint fsyncs the WAL, copies the pages and fsyncs the database. Here a task
//! runs `PRAGMA wal_checkpoint(PASSIVE)` in a loop on a connection of its own. A passive checkpoint never blocks
//! the writer, and the writer never blocks it. The writer keeps a larger `wal_autocheckpoint`: when it reaches it,
//! its own checkpoint finds nearly every frame copied already, copies the few new ones and lets the next commit
//! start the WAL again from its beginning. (A passive checkpointer alone never catches up with a busy writer, so
//! the WAL would grow without end; see <https://sqlite.org/wal.html#avoiding_excessively_large_wal_files>.)

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};
use tokio::task::JoinHandle;

use crate::error::StoreError;

/// What the checkpointer has done since the store was opened (for `/metrics`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckpointCounts {
    /// Passive checkpoints that returned.
    pub runs: u64,
    /// Of those, the ones that found another connection checkpointing.
    pub busy: u64,
    /// WAL frames copied into the database (by the checkpointer or the writer).
    pub frames_copied: u64,
    /// Times the WAL was seen to have started again from its beginning.
    pub wal_restarts: u64,
    /// Checkpoints that failed.
    pub errors: u64,
}

/// The live counters behind [`CheckpointCounts`].
#[derive(Debug, Default)]
struct CheckpointStats {
    /// Checkpoint calls that returned.
    runs: AtomicU64,
    /// Calls that found another connection checkpointing (SQLite's `busy` column).
    busy: AtomicU64,
    /// WAL frames copied into the database, summed over the calls (by this checkpointer or the writer).
    copied: AtomicU64,
    /// Times the WAL was seen to have started again from its beginning.
    restarts: AtomicU64,
    /// Calls that failed (the loop goes on after a pause).
    errors: AtomicU64,
}

/// The running checkpointer. It stops when dropped or closed.
#[derive(Debug)]
pub(crate) struct Checkpointer {
    pool: AnyPool,
    task: JoinHandle<()>,
    stats: Arc<CheckpointStats>,
}

impl Checkpointer {
    /// Opens one connection to the file at `url` with the writer's `synchronous` pragma and starts checkpointing
    /// every `pause` on the current tokio runtime.
    pub(crate) async fn start(
        url: &str,
        synchronous: &'static str,
        pause: Duration,
    ) -> Result<Checkpointer, StoreError> {
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    // A checkpoint fsyncs as its connection's `synchronous` says.
                    sqlx::query(synchronous).execute(&mut *conn).await?;
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        let stats = Arc::new(CheckpointStats::default());
        let task = tokio::spawn(run(pool.clone(), stats.clone(), pause));
        Ok(Checkpointer { pool, task, stats })
    }

    pub(crate) fn counts(&self) -> CheckpointCounts {
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        CheckpointCounts {
            runs: load(&self.stats.runs),
            busy: load(&self.stats.busy),
            frames_copied: load(&self.stats.copied),
            wal_restarts: load(&self.stats.restarts),
            errors: load(&self.stats.errors),
        }
    }

    /// Stops the loop and closes the connection.
    pub(crate) async fn close(&self) {
        self.task.abort();
        self.pool.close().await;
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The loop: checkpoint, count, pause.
async fn run(pool: AnyPool, stats: Arc<CheckpointStats>, pause: Duration) {
    let mut last = Progress::default();
    loop {
        match checkpoint(&pool).await {
            Ok(now) => {
                stats.runs.fetch_add(1, Ordering::Relaxed);
                if now.busy {
                    stats.busy.fetch_add(1, Ordering::Relaxed);
                }
                // The counts start from zero again when the WAL does.
                let restarted = now.frames < last.frames || now.checkpointed < last.checkpointed;
                if restarted {
                    stats.restarts.fetch_add(1, Ordering::Relaxed);
                    last = Progress::default();
                }
                stats.copied.fetch_add(
                    now.checkpointed.saturating_sub(last.checkpointed),
                    Ordering::Relaxed,
                );
                last = now;
            }
            Err(_) => {
                // The writer's own checkpoints still keep the file in shape; try again later.
                stats.errors.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(pause * 10).await;
            }
        }
        tokio::time::sleep(pause).await;
    }
}

/// What `PRAGMA wal_checkpoint` answers: frames are counted from the WAL's last start.
#[derive(Clone, Copy, Debug, Default)]
struct Progress {
    busy: bool,
    /// Frames in the WAL.
    frames: u64,
    /// Frames of those already copied into the database.
    checkpointed: u64,
}

/// One passive checkpoint.
async fn checkpoint(pool: &AnyPool) -> Result<Progress, StoreError> {
    let row = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(pool)
        .await?;
    let busy: i64 = row.try_get(0)?;
    let frames: i64 = row.try_get(1)?;
    let checkpointed: i64 = row.try_get(2)?;
    Ok(Progress {
        busy: busy != 0,
        frames: u64::try_from(frames).unwrap_or(0),
        checkpointed: u64::try_from(checkpointed).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::{AnyStore, SqliteDurability, Store};

    /// Writes enough to pass the writer's `wal_autocheckpoint` several times: the checkpointer copies frames
    /// beside the writer and the WAL starts again, so the file stays small.
    #[tokio::test]
    async fn checkpointer_copies_the_wal_and_lets_it_restart() {
        let dir = std::env::temp_dir().join(format!("parlor-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.db");
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let store = AnyStore::open_sqlite(&url, SqliteDurability::ProcessCrash)
            .await
            .unwrap();
        for i in 0..3_000 {
            store
                .secret(&format!("key-{i}"), || "x".repeat(200))
                .await
                .unwrap();
            if i % 100 == 0 {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let counts = store.sqlite_checkpoints().unwrap();
        assert!(counts.runs > 10, "{counts:?}");
        assert_eq!(counts.errors, 0, "{counts:?}");
        assert!(counts.frames_copied >= 3_000, "{counts:?}");
        assert!(counts.wal_restarts > 0, "{counts:?}");
        // The checkpointer copies frames beside the writer and the log restarts: far below the 3,000 frames written.
        let wal = std::fs::metadata(dir.join("c.db-wal")).unwrap().len();
        assert!(wal < 2_000 * 4_096, "WAL of {wal} bytes");
        store.close().await;
        let in_memory = AnyStore::open_sqlite("sqlite::memory:", SqliteDurability::ProcessCrash)
            .await
            .unwrap();
        assert!(in_memory.sqlite_checkpoints().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

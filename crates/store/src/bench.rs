//! Durable commit throughput: moves per second by moves per transaction, and closed loop through group commit.
//!
//! Used by `cargo bench -p parlor-store --bench commit` (and meant for `parlor bench store`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::error::StoreError;
use crate::group_commit::{GroupCommit, GroupCommitConfig};
use crate::record::{GameRecord, MoveRecord, TableRecord, game_status, table_status};
use crate::store::Store;
use crate::write::Write;

/// What one measurement did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Throughput {
    /// Moves committed (and so durable).
    pub moves: u64,
    /// Transactions that committed them.
    pub transactions: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Throughput {
    /// Durable moves per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64().max(f64::MIN_POSITIVE)
    }
}

/// Open loop: `writers` tasks each commit, as fast as the store allows for `duration`, transactions of
/// `moves_per_batch` moves (one move in each of as many games, as group commit would gather them).
///
/// # Errors
/// The first error of a commit or of the set-up.
pub async fn batch_commits<S: Store + Clone>(
    store: &S,
    writers: usize,
    moves_per_batch: usize,
    duration: Duration,
) -> Result<Throughput, StoreError> {
    let writers = writers.max(1);
    let per_batch = moves_per_batch.max(1);
    let games = set_up(store, writers * per_batch).await?;
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for writer in 0..writers {
        let store = store.clone();
        let games: Vec<String> = games[writer * per_batch..(writer + 1) * per_batch].to_vec();
        tasks.push(tokio::spawn(async move {
            let mut transactions = 0u64;
            let mut ply = 0;
            let mut batch = Vec::with_capacity(games.len());
            while Instant::now() < deadline {
                batch.clear();
                batch.extend(games.iter().map(|game| Write::Move(move_record(game, ply))));
                store.commit(&batch).await?;
                transactions += 1;
                ply += 1;
            }
            Ok::<u64, StoreError>(transactions)
        }));
    }
    let mut transactions = 0;
    for task in tasks {
        transactions += task
            .await
            .map_err(|error| StoreError::Database(Box::new(error)))??;
    }
    let moves = transactions * per_batch as u64;
    Ok(Throughput {
        moves,
        transactions,
        elapsed: start.elapsed(),
    })
}

/// Closed loop, as a server runs: `tables` tasks each send one move through [`GroupCommit`], wait until it is
/// durable, and send the next, for `duration`.
///
/// # Errors
/// The first error of a commit or of the set-up.
pub async fn closed_loop<S: Store + Clone>(
    store: &S,
    tables: usize,
    config: GroupCommitConfig,
    duration: Duration,
) -> Result<Throughput, StoreError> {
    let games = set_up(store, tables.max(1)).await?;
    let (group, writers) = GroupCommit::spawn(store.clone(), config);
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for game in games {
        let group = group.clone();
        tasks.push(tokio::spawn(async move {
            let mut ply = 0;
            while Instant::now() < deadline {
                group.commit(vec![Write::Move(move_record(&game, ply))]).await?;
                ply += 1;
            }
            Ok::<u64, StoreError>(u64::try_from(ply).unwrap_or(0))
        }));
    }
    let mut moves = 0;
    for task in tasks {
        moves += task
            .await
            .map_err(|error| StoreError::Database(Box::new(error)))??;
    }
    let elapsed = start.elapsed();
    let transactions = group.transactions();
    drop(group);
    let _ = writers.await;
    Ok(Throughput {
        moves,
        transactions,
        elapsed,
    })
}

/// A table and `games` live games with fresh ids; returns the game ids.
async fn set_up<S: Store>(store: &S, games: usize) -> Result<Vec<String>, StoreError> {
    static RUN: AtomicU64 = AtomicU64::new(0);
    let now = now_ms();
    let run = format!("bench-{now}-{}", RUN.fetch_add(1, Ordering::Relaxed));
    let table = TableRecord {
        id: run.clone(),
        code: None,
        kind: "chess".to_owned(),
        settings: "{}".to_owned(),
        status: table_status::PLAYING.to_owned(),
        owner: "bench".to_owned(),
        created_ms: now,
        updated_ms: now,
    };
    let ids: Vec<String> = (0..games).map(|i| format!("{run}-{i}")).collect();
    let mut batch = vec![Write::CreateTable(table)];
    batch.extend(ids.iter().map(|id| {
        Write::CreateGame(GameRecord {
            id: id.clone(),
            table_id: run.clone(),
            kind: "chess".to_owned(),
            setup: r#"{"variant":"standard"}"#.to_owned(),
            seats: r#"["bench-a","bench-b"]"#.to_owned(),
            rated: false,
            status: game_status::LIVE.to_owned(),
            result: None,
            clocks: Some("[300000,300000]".to_owned()),
            created_ms: now,
            ended_ms: None,
        })
    }));
    for chunk in batch.chunks(1_000) {
        store.commit(chunk).await?;
    }
    Ok(ids)
}

fn move_record(game_id: &str, ply: i32) -> MoveRecord {
    MoveRecord {
        game_id: game_id.to_owned(),
        ply,
        seat: ply % 2,
        wire: "e2e4".to_owned(),
        clocks: "[298765,300000]".to_owned(),
        at_ms: now_ms(),
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

//! Durable moves per second on SQLite (a temp file) and PostgreSQL (`PARLOR_TEST_POSTGRES`, in a scratch schema):
//! open loop by moves per transaction, and closed loop through group commit. Prints the median of the runs.
//!
//! `cargo bench -p parlor-store --bench commit` (env: `PARLOR_BENCH_SECONDS`, default 2; `PARLOR_BENCH_RUNS`,
//! default 3; `PARLOR_TEST_POSTGRES` to include PostgreSQL).
#![allow(clippy::unwrap_used, missing_docs)]

use std::time::Duration;

use parlor_store::bench::{Throughput, batch_commits, closed_loop};
use parlor_store::{AnyStore, GroupCommitConfig, SqliteDurability, Store};
use sqlx::Connection;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `measure` `runs` times and prints the median moves/s with the transactions it took.
async fn report<F, Fut>(label: &str, runs: u64, mut measure: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Throughput>,
{
    let mut all = Vec::new();
    for _ in 0..runs {
        all.push(measure().await);
    }
    all.sort_by(|a, b| a.moves_per_second().total_cmp(&b.moves_per_second()));
    let median = all[all.len() / 2];
    let rates: Vec<String> = all
        .iter()
        .map(|t| format!("{:.0}", t.moves_per_second()))
        .collect();
    println!(
        "{label:<70} {:>9.0} moves/s  {:>7.1} moves/tx  (runs: {})",
        median.moves_per_second(),
        median.moves as f64 / median.transactions.max(1) as f64,
        rates.join(", ")
    );
}

async fn suite<S: Store + Clone>(
    name: &str,
    store: &S,
    seconds: Duration,
    runs: u64,
    writer_counts: &[usize],
) {
    let default = GroupCommitConfig::for_backend(store.backend());
    for &writers in writer_counts {
        for batch in [1, 10, 100] {
            report(
                &format!("{name} open loop {writers} writer(s) x {batch} moves/tx"),
                runs,
                || async { batch_commits(store, writers, batch, seconds).await.unwrap() },
            )
            .await;
        }
    }
    for &writers in writer_counts {
        let config = GroupCommitConfig { writers, ..default };
        let mark = if writers == default.writers {
            " (default)"
        } else {
            ""
        };
        for tables in [100, 1_000] {
            let label = format!("{name} closed loop {tables} tables, group commit {writers} writer(s){mark}");
            report(&label, runs, || async {
                closed_loop(store, tables, config, seconds).await.unwrap()
            })
            .await;
        }
    }
}

fn remove_sqlite(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.to_path_buf().into_os_string();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // `cargo bench` passes `--bench`; a filter-less harness-free bench ignores its arguments.
    let seconds = Duration::from_secs(env_number("PARLOR_BENCH_SECONDS", 2));
    let runs = env_number("PARLOR_BENCH_RUNS", 3).max(1);
    println!("durable moves per second, median of {runs} runs of {seconds:?}");

    for (name, durability) in [
        ("sqlite NORMAL", SqliteDurability::ProcessCrash),
        ("sqlite FULL", SqliteDurability::PowerLoss),
    ] {
        let path = std::env::temp_dir().join(format!("parlor-bench-{}.db", uuid::Uuid::new_v4()));
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let store = AnyStore::open_sqlite(&url, durability).await.unwrap();
        suite(name, &store, seconds, runs, &[1]).await;
        store.close().await;
        remove_sqlite(&path);
    }

    match std::env::var("PARLOR_TEST_POSTGRES") {
        Err(_) => println!("postgres: skipped (PARLOR_TEST_POSTGRES is unset)"),
        Ok(admin_url) => {
            sqlx::any::install_default_drivers();
            let schema = format!("parlor_bench_{}", uuid::Uuid::new_v4().simple());
            let mut admin = sqlx::AnyConnection::connect(&admin_url).await.unwrap();
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                .execute(&mut admin)
                .await
                .unwrap();
            let separator = if admin_url.contains('?') { '&' } else { '?' };
            let url = format!("{admin_url}{separator}options=-c%20search_path%3D{schema}");
            let store = AnyStore::open(&url).await.unwrap();
            suite("postgres", &store, seconds, runs, &[1, 4]).await;
            store.close().await;
            sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                .execute(&mut admin)
                .await
                .unwrap();
        }
    }
}

//! `parlor loadtest` against a real server: its clients play, every move they count was acknowledged by the
//! server, and the report reads the server's own CPU and memory.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Server, http_get};
use parlor_server::loadtest::{Plan, run};
use std::time::Duration;

/// A counter from the server's `/metrics`.
async fn metric(server: &Server, name: &str) -> f64 {
    let (_, body) = http_get(server.addr, "/metrics", None).await;
    body.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_plays_real_games_in_both_loops() {
    let server = Server::start().await;
    let url = format!("ws://{}", server.addr);
    // Open loop at 60 moves/s over 12 sockets stays under the server's 20 messages/s per socket: nothing is
    // refused. A closed loop of six games runs into that limit: the refused moves are counted and tried again.
    for rate in [Some(60.0), None] {
        let before = metric(&server, "parlor_moves_total").await;
        let report = run(&Plan {
            urls: vec![url.clone()],
            games: 6,
            duration: Duration::from_secs(1),
            rate,
            connect_parallel: 4,
        })
        .await
        .unwrap();
        let after = metric(&server, "parlor_moves_total").await;
        assert_eq!(report.failed_games, 0);
        if rate.is_some() {
            assert_eq!(report.errors, 0, "random legal moves are never refused");
        }
        assert!(report.moves > 20, "{report}");
        assert!(
            after - before >= report.moves as f64,
            "the server stored {} moves, the generator counted {}",
            after - before,
            report.moves
        );
        let [p50, p99, _, max] = report.latency_ms;
        assert!(p50 > 0.0 && p50 <= p99 && p99 <= max, "{report}");
        assert!(report.cpu_ms_per_move.is_some_and(|cpu| cpu > 0.0), "{report}");
        assert!(report.server_mib.is_some_and(|mib| mib > 1.0), "{report}");
        if let Some(rate) = rate {
            let per_second = report.moves as f64 / report.seconds;
            assert!(
                per_second > rate * 0.5 && per_second < rate * 1.5,
                "open loop held near {rate}/s: {report}"
            );
        }
    }
    server.stop().await;
}

//! Crash test: a real `parlor serve` process with many live games is killed with SIGKILL mid-play and started
//! again on the same storage. Every acknowledged move is there, and play goes on. On a temporary SQLite file, and
//! on PostgreSQL (a schema of its own; `PARLOR_TEST_POSTGRES` holds a URL), ignored unless asked for
//! (`-- --ignored`, as .ci/run does).
#![allow(clippy::unwrap_used)]

#[path = "../crates/server/tests/common/mod.rs"]
mod common;
mod spawned;

use common::Client;
use serde_json::json;
use spawned::{serve, wires};
use std::process::Command;

/// Games played at once.
const GAMES: usize = 16;
/// Plies each game plays before the kill (random legal moves).
const PLIES: usize = 12;

struct Game {
    table: String,
    cookies: [String; 2],
    acked: Vec<String>,
}

/// Plays `plies` random legal moves at a table; returns the acknowledged moves.
async fn play(mut players: [Client; 2], table: String, mut legal: Vec<String>, plies: usize) -> Vec<String> {
    let mut acked = Vec::new();
    let mut turn = 0;
    for ply in 0..plies {
        if legal.is_empty() {
            break;
        }
        let wire = legal[rand::random_range(0..legal.len())].clone();
        let reply = players[turn].play(&table, ply as u32, &wire).await;
        assert_eq!(reply["t"], "ack", "{reply}");
        acked.push(wire);
        let want = ply as u64 + 1;
        let moved = players[1 - turn]
            .until("moved", move |v| {
                v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == want
            })
            .await;
        legal = wires(&moved["event"]["legal"]);
        turn = 1 - turn;
    }
    acked
}

async fn crash_and_resume(database: &str) {
    let first = serve(database);
    let mut games = Vec::new();
    let mut running = Vec::new();
    for _ in 0..GAMES {
        let cookies = [common::cookie(first.addr).await, common::cookie(first.addr).await];
        let mut a = Client::connect(first.addr, Some(&cookies[0])).await;
        let mut b = Client::connect(first.addr, Some(&cookies[1])).await;
        let table = common::two_player_game(
            &mut a,
            &mut b,
            json!({"game": "chess", "seats": [{"kind": "me"}]}),
        )
        .await;
        a.send(json!({"t": "open", "table": table})).await;
        let state = a.expect("table").await;
        let legal = state["state"]["game"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["wire"].as_str().unwrap().to_owned())
            .collect();
        running.push(tokio::spawn(play([a, b], table.clone(), legal, PLIES)));
        games.push(Game {
            table,
            cookies,
            acked: Vec::new(),
        });
    }
    for (game, task) in games.iter_mut().zip(running) {
        game.acked = task.await.unwrap();
    }
    // More moves in flight when the kill comes: send one move per game without waiting.
    let mut in_flight = Vec::new();
    for game in &games {
        let mover = game.acked.len() % 2;
        let mut c = Client::connect(first.addr, Some(&game.cookies[mover])).await;
        c.send(json!({"t": "open", "table": game.table})).await;
        let state = c.expect("table").await;
        if let Some(m) = state["state"]["game"]["legal"].as_array().and_then(|l| l.first()) {
            let ply = game.acked.len();
            c.send(json!({"t": "move", "table": game.table, "ack": 1, "ply": ply, "wire": m["wire"]}))
                .await;
        }
        in_flight.push(c);
    }
    let mut first = first;
    first.child.kill().unwrap(); // SIGKILL
    first.child.wait().unwrap();

    let second = serve(database);
    for game in &games {
        let mut c = Client::connect(second.addr, Some(&game.cookies[0])).await;
        c.send(json!({"t": "open", "table": game.table})).await;
        let state = c.expect("table").await;
        let moves: Vec<String> = state["state"]["game"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["wire"].as_str().unwrap().to_owned())
            .collect();
        // Every acknowledged move is there (the unacknowledged one may or may not be).
        assert!(
            moves.len() >= game.acked.len() && moves.len() <= game.acked.len() + 1,
            "{} vs {}",
            moves.len(),
            game.acked.len()
        );
        assert_eq!(&moves[..game.acked.len()], &game.acked[..]);
        // Play goes on.
        if let Some(m) = state["state"]["game"]["legal"]
            .as_array()
            .and_then(|l| l.first())
            .cloned()
        {
            let mover = state["state"]["game"]["turn"].as_u64().unwrap() as usize;
            let mut p = Client::connect(second.addr, Some(&game.cookies[mover])).await;
            let reply = p
                .play(&game.table, moves.len() as u32, m["wire"].as_str().unwrap())
                .await;
            assert_eq!(reply["t"], "ack", "{reply}");
        }
    }
    let mut second = second;
    second.child.kill().unwrap();
    second.child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move_on_sqlite() {
    let dir = common::tempdir::Dir::new();
    crash_and_resume(&format!("sqlite://{}/crash.db?mode=rwc", dir.0.display())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set PARLOR_TEST_POSTGRES and run with --ignored (.ci/run does)"]
async fn sigkill_loses_no_acknowledged_move_on_postgres() {
    let url = std::env::var("PARLOR_TEST_POSTGRES").expect("PARLOR_TEST_POSTGRES must hold a PostgreSQL URL");
    let schema = format!("parlor_crash_{}", std::process::id());
    let psql = |sql: &str| {
        let status = Command::new("psql")
            .args([url.as_str(), "-q", "-c", sql])
            .status()
            .unwrap();
        assert!(status.success(), "psql {sql}");
    };
    psql(&format!(
        "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
    ));
    let separator = if url.contains('?') { '&' } else { '?' };
    crash_and_resume(&format!("{url}{separator}options=-c%20search_path%3D{schema}")).await;
    psql(&format!("DROP SCHEMA {schema} CASCADE"));
}

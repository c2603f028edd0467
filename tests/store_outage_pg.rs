//! PostgreSQL fails under a running `parlor serve`: every server connection is killed mid-game, then the tables the
//! writer needs are locked for seconds (a stalled database). No move is acknowledged that is not stored: after a
//! SIGKILL and a restart exactly the acknowledged moves are there; a stalled commit answers the player
//! `unavailable` instead of hanging, and is broadcast once it lands; `/healthz` says 503 while the store cannot
//! write. Needs PostgreSQL, so it is ignored by default: `PARLOR_TEST_POSTGRES=postgres://... cargo test --test
//! store_outage_pg -- --ignored` (`.ci/run` does).
#![allow(clippy::unwrap_used)]

#[path = "../crates/server/tests/common/mod.rs"]
mod common;
#[path = "spawned/mod.rs"]
mod spawned;

use common::Client;
use serde_json::{Value, json};
use spawned::{serve, wires};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the database is stalled: longer than the server's patience with a commit (5 s) and a health probe
/// (2 s) together, with room for a busy machine.
const STALL_SECS: u64 = 12;

fn psql(url: &str, sql: &str) {
    let status = Command::new("psql")
        .args([url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .env("PGOPTIONS", "--client-min-messages=warning")
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "psql {sql}");
}

/// Waits until another session holds the exclusive lock on the schema's `moves` table.
async fn wait_for_lock(url: &str, schema: &str) {
    let sql = format!(
        "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation \
         JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = '{schema}' AND c.relname = 'moves' AND l.mode = 'AccessExclusiveLock' AND l.granted"
    );
    let since = Instant::now();
    loop {
        let out = Command::new("psql")
            .args([url, "-tA", "-c", &sql])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&out.stdout).trim() == "1" {
            return;
        }
        assert!(
            since.elapsed() < Duration::from_secs(10),
            "the stalling session never took its lock"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn healthz(addr: SocketAddr) -> (u16, String) {
    let (head, body) = common::http_get(addr, "/healthz", None).await;
    (head.split_whitespace().nth(1).unwrap().parse().unwrap(), body)
}

struct Game {
    table: String,
    players: [Client; 2],
    cookies: [String; 2],
    legal: Vec<String>,
    acked: Vec<String>,
}

impl Game {
    async fn start(addr: SocketAddr) -> Game {
        let cookies = [common::cookie(addr).await, common::cookie(addr).await];
        let mut a = Client::connect(addr, Some(&cookies[0])).await;
        let mut b = Client::connect(addr, Some(&cookies[1])).await;
        let table = common::two_player_game(
            &mut a,
            &mut b,
            json!({"game": "chess", "seats": [{"kind": "me"}]}),
        )
        .await;
        a.send(json!({"t": "open", "table": table})).await;
        let legal = wires(&a.expect("table").await["state"]["game"]["legal"]);
        Game {
            table,
            players: [a, b],
            cookies,
            legal,
            acked: Vec::new(),
        }
    }

    /// Sends one move; returns the first answer to it (ack or error).
    async fn send_move(&mut self) -> (String, Value) {
        let turn = self.acked.len() % 2;
        let wire = self.legal[rand::random_range(0..self.legal.len())].clone();
        let reply = self.players[turn]
            .play(&self.table, self.acked.len() as u32, &wire)
            .await;
        (wire, reply)
    }

    /// The move is stored: note it and wait until the other side sees it.
    async fn stored(&mut self, wire: String) {
        let turn = self.acked.len() % 2;
        self.acked.push(wire);
        let want = self.acked.len() as u64;
        let moved = self.players[1 - turn]
            .until("moved", move |v| {
                v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == want
            })
            .await;
        self.legal = wires(&moved["event"]["legal"]);
    }

    /// Plays `plies` moves, trying again (for a while) when the server refuses one as unavailable.
    async fn play(&mut self, plies: usize) {
        for _ in 0..plies {
            let since = Instant::now();
            loop {
                if self.legal.is_empty() {
                    return;
                }
                let (wire, reply) = self.send_move().await;
                if reply["t"] == "ack" {
                    self.stored(wire).await;
                    break;
                }
                assert_eq!(reply["code"], "unavailable", "{reply}");
                assert!(
                    since.elapsed() < Duration::from_secs(20),
                    "refused for 20 s: {reply}"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set PARLOR_TEST_POSTGRES and run with --ignored (.ci/run does)"]
async fn killed_and_stalled_postgres_loses_no_acknowledged_move() {
    let url = std::env::var("PARLOR_TEST_POSTGRES").expect("PARLOR_TEST_POSTGRES must hold a URL");
    let schema = format!("parlor_outage_{}", std::process::id());
    let app = format!("parlor-outage-{}", std::process::id());
    psql(
        &url,
        &format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"),
    );
    let separator = if url.contains('?') { '&' } else { '?' };
    let database = format!("{url}{separator}options=-c%20search_path%3D{schema}&application_name={app}");
    let first = serve(&database);
    let addr = first.addr;
    let mut games = vec![Game::start(addr).await, Game::start(addr).await];
    for game in &mut games {
        game.play(4).await;
    }

    // Every connection of the server is killed: moves are refused or stored, and play resumes.
    psql(
        &url,
        &format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '{app}'"),
    );
    for game in &mut games {
        game.play(6).await;
    }
    assert_eq!(healthz(addr).await.0, 200);

    // The database stalls: the writer's tables are locked for longer than the server's patience.
    let mut stall = Command::new("psql")
        .args([url.as_str(), "-q", "-c"])
        .arg(format!(
            "BEGIN; LOCK TABLE {schema}.moves, {schema}.settings IN ACCESS EXCLUSIVE MODE; \
             SELECT pg_sleep({STALL_SECS}); COMMIT;"
        ))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lock(&url, &schema).await;
    let game = &mut games[0];
    let sent = Instant::now();
    let (wire, reply) = game.send_move().await;
    let waited = sent.elapsed();
    assert_eq!(reply["code"], "unavailable", "{reply}");
    assert!(
        waited >= Duration::from_secs(4) && waited < Duration::from_secs(7),
        "answered after {waited:?}"
    );
    let (code, body) = healthz(addr).await;
    assert_eq!(code, 503, "/healthz while the database is stalled: {body}");
    // The stall ends: the move was stored after all, and is acknowledged and broadcast.
    let turn = game.acked.len() % 2;
    let ack = game.players[turn].until("ack", |v| v["t"] == "ack").await;
    assert!(ack["ack"].is_u64());
    game.stored(wire).await;
    assert!(stall.wait().unwrap().success());
    for game in &mut games {
        game.play(2).await;
    }
    assert_eq!(healthz(addr).await.0, 200);

    // SIGKILL and a new server on the same schema: exactly the acknowledged moves are there.
    let kept: Vec<_> = games
        .iter()
        .map(|g| (g.table.clone(), g.cookies.clone(), g.acked.clone()))
        .collect();
    drop(games);
    drop(first);
    let second = serve(&database);
    for (table, cookies, acked) in kept {
        let mut c = Client::connect(second.addr, Some(&cookies[0])).await;
        c.send(json!({"t": "open", "table": table})).await;
        let state = c.expect("table").await;
        assert_eq!(wires(&state["state"]["game"]["moves"]), acked, "table {table}");
    }
    drop(second);
    psql(&url, &format!("DROP SCHEMA {schema} CASCADE"));
}

//! Connection flood: a real `parlor serve` process under a small open-file limit gets more silent and half-sent
//! connections than it has files, while two players play a game on it; `/healthz` and every move must answer
//! within a second throughout. Prints the worst latencies (run with `--nocapture`).
//!
//! `PARLOR_FLOOD_FILES` sets the server's file limit (default 1024), `PARLOR_FLOOD` the connections opened
//! (default: the file limit plus 256), `PARLOR_BIN` another `parlor` binary (a release build, say).
#![allow(clippy::unwrap_used)]

#[path = "../crates/server/tests/common/mod.rs"]
mod common;
mod spawned;

use common::{Client, http_get, two_player_game};
use serde_json::json;
use spawned::{Serve, spawn, wires};
use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// What a visitor may wait for an answer during the flood.
const SNAPPY: Duration = Duration::from_secs(1);
/// Connections opened between two looks at the site.
const BATCH: usize = 256;
/// How long the full flood is held while the site is watched.
const HOLD: Duration = Duration::from_secs(3);

fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn serve(files: usize, database: &str) -> Serve {
    let bin = std::env::var("PARLOR_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_parlor").to_owned());
    let mut command = Command::new("sh");
    command.args([
        "-c",
        r#"ulimit -n "$1" && exec "$2" serve --listen 127.0.0.1:0 --database "$3""#,
        "sh",
        &files.to_string(),
        &bin,
        database,
    ]);
    spawn(command)
}

/// This process's own open-file limit.
fn own_file_limit() -> usize {
    let out = Command::new("sh").args(["-c", "ulimit -n"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(1024)
}

struct Watch {
    players: [Client; 2],
    table: String,
    legal: Vec<String>,
    ply: usize,
    worst_health: Duration,
    worst_move: Duration,
    looks: usize,
}

impl Watch {
    /// A new game between the two players.
    async fn new_game(&mut self) {
        let [a, b] = &mut self.players;
        self.table = two_player_game(a, b, json!({"game": "chess", "seats": [{"kind": "me"}]})).await;
        a.send(json!({"t": "open", "table": self.table})).await;
        self.legal = wires(&a.expect("table").await["state"]["game"]["legal"]);
        self.ply = 0;
    }

    /// `/healthz` on a new connection and one move of the game (a new game when it ended), timed.
    async fn look(&mut self, addr: SocketAddr) {
        let start = Instant::now();
        let (head, body) = tokio::time::timeout(common::WAIT, http_get(addr, "/healthz", None))
            .await
            .expect("/healthz answered");
        assert!(head.contains("200 OK") && body == "ok", "{head} {body}");
        self.worst_health = self.worst_health.max(start.elapsed());
        if self.legal.is_empty() {
            self.new_game().await;
        }
        let mover = self.ply % 2;
        let wire = self.legal[(self.ply * 7) % self.legal.len()].clone();
        let start = Instant::now();
        let ack = self.players[mover]
            .play(&self.table, self.ply as u32, &wire)
            .await;
        assert_eq!(ack["t"], "ack", "{ack}");
        let want = self.ply as u64 + 1;
        let moved = self.players[1 - mover]
            .until("moved", move |v| {
                v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == want
            })
            .await;
        self.worst_move = self.worst_move.max(start.elapsed());
        self.legal = wires(&moved["event"]["legal"]);
        self.ply += 1;
        self.looks += 1;
    }
}

#[tokio::test]
async fn a_connection_flood_past_the_file_limit_leaves_the_site_answering() {
    let files = env_number("PARLOR_FLOOD_FILES").unwrap_or(1024);
    let flood_size = env_number("PARLOR_FLOOD").unwrap_or(files + 256);
    // The test's own sockets must fit under its own limit.
    let flood_size = flood_size.min(own_file_limit().saturating_sub(256));
    let dir = common::tempdir::Dir::new();
    let database = format!("sqlite://{}/parlor.db?mode=rwc", dir.0.display());
    let server = serve(files, &database);
    let addr = server.addr;
    let cookies = [common::cookie(addr).await, common::cookie(addr).await];
    let a = Client::connect(addr, Some(&cookies[0])).await;
    let b = Client::connect(addr, Some(&cookies[1])).await;
    let mut watch = Watch {
        players: [a, b],
        table: String::new(),
        legal: Vec::new(),
        ply: 0,
        worst_health: Duration::ZERO,
        worst_move: Duration::ZERO,
        looks: 0,
    };
    let started = Instant::now();
    let mut flood = Vec::with_capacity(flood_size);
    let mut refused = 0usize;
    while flood.len() + refused < flood_size {
        for i in 0..BATCH.min(flood_size - flood.len() - refused) {
            match TcpStream::connect(addr).await {
                Ok(mut s) => {
                    if i % 2 == 0 {
                        let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: parlor\r\n").await;
                    }
                    flood.push(s);
                }
                Err(_) => refused += 1,
            }
        }
        watch.look(addr).await;
    }
    let hold = Instant::now();
    while hold.elapsed() < HOLD {
        watch.look(addr).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, metrics) = http_get(addr, "/metrics", None).await;
    let value = |name: &str| {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .unwrap_or("?")
            .to_owned()
    };
    let rss = std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .map(|l| l[6..].trim().to_owned())
        })
        .unwrap_or_default();
    println!(
        "server memory {rss}; file limit {files}, flood {} connections in {:?} ({refused} failed to connect): cap {}, open {}, \
         evicted {}, refused {}; {} looks, worst /healthz {:?}, worst move {:?}",
        flood.len(),
        started.elapsed(),
        value("parlor_tcp_connections_max"),
        value("parlor_tcp_connections"),
        value("parlor_tcp_evicted_total"),
        value("parlor_tcp_refused_full_total"),
        watch.looks,
        watch.worst_health,
        watch.worst_move,
    );
    assert!(
        watch.worst_health < SNAPPY,
        "worst /healthz {:?}",
        watch.worst_health
    );
    assert!(watch.worst_move < SNAPPY, "worst move {:?}", watch.worst_move);
    drop(flood);
    drop(server);
}

//! Full-disk test: a real `parlor serve` process keeps its SQLite file on a 3 MB tmpfs that the test fills while
//! games go on, frees, and then kills the server with SIGKILL and starts it again. No move the server acknowledged
//! may be missing after the restart, no move it refused may be there, `/healthz` says the store cannot write while
//! the disk is full, every failed commit is counted, and play goes on once the space is back.
//!
//! Mounting a tmpfs needs root, so the test is ignored by default; `.ci/run` runs it with `--ignored`.
#![allow(clippy::unwrap_used)]

#[path = "../crates/server/tests/common/mod.rs"]
mod common;
#[path = "spawned/mod.rs"]
mod spawned;

use common::Client;
use serde_json::{Value, json};
use spawned::{serve, wires};
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Games played at once.
const GAMES: usize = 4;
/// Plies each game plays before the disk fills, and again after it is freed.
const PLIES: usize = 6;
/// Most move attempts, over all games, while waiting for the full disk to refuse one.
const MAX_ATTEMPTS_FULL: usize = 2_000;
/// How long play may take to come back once the space is free.
const RECOVERY: Duration = Duration::from_secs(15);

/// A tmpfs mounted for the test, unmounted on drop.
struct Mount(PathBuf);

impl Mount {
    fn new(size: &str) -> Mount {
        let dir = std::env::temp_dir().join(format!("parlor-full-disk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .status()
            .unwrap();
        assert!(
            status.success(),
            "could not mount a tmpfs at {} (the test needs root)",
            dir.display()
        );
        Mount(dir)
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Fills the file system under `dir` with `filler`, or tops it up with whatever space was freed since; returns the file.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap();
    let chunk = vec![0xA5u8; 16 * 1024];
    loop {
        if file.write_all(&chunk).and_then(|()| file.flush()).is_err() {
            break;
        }
    }
    // Whatever is left is smaller than a chunk: take it byte by byte.
    while file.write_all(&[0]).and_then(|()| file.flush()).is_ok() {}
    path
}

/// One game: its table, both players' connections and what the server acknowledged.
struct Game {
    table: String,
    players: [Client; 2],
    cookies: [String; 2],
    legal: Vec<String>,
    acked: Vec<String>,
}

enum Reply {
    Acked,
    Refused(Value),
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
        let state = a.expect("table").await;
        let legal = wires(&state["state"]["game"]["legal"]);
        Game {
            table,
            players: [a, b],
            cookies,
            legal,
            acked: Vec::new(),
        }
    }

    /// Tries one random legal move for the side to move.
    async fn try_move(&mut self) -> Reply {
        let turn = self.acked.len() % 2;
        let wire = self.legal[rand::random_range(0..self.legal.len())].clone();
        let ply = self.acked.len();
        let reply = self.players[turn].play(&self.table, ply as u32, &wire).await;
        if reply["t"] != "ack" {
            return Reply::Refused(reply);
        }
        self.acked.push(wire);
        let want = ply as u64 + 1;
        let moved = self.players[1 - turn]
            .until("moved", move |v| {
                v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == want
            })
            .await;
        self.legal = wires(&moved["event"]["legal"]);
        Reply::Acked
    }

    fn over(&self) -> bool {
        self.legal.is_empty()
    }
}

async fn status(addr: SocketAddr, path: &str) -> (u16, String) {
    let (head, body) = common::http_get(addr, path, None).await;
    let code = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (code, body)
}

/// A counter's value from `/metrics`.
async fn metric(addr: SocketAddr, name: &str) -> u64 {
    let (_, body) = status(addr, "/metrics").await;
    body.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("{name} missing from /metrics"))
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs root to mount a 3 MB tmpfs; .ci/run runs it with --ignored"]
async fn a_full_disk_loses_no_acknowledged_move_and_refuses_what_it_cannot_store() {
    let mount = Mount::new("3m");
    let database = format!("sqlite://{}/parlor.db?mode=rwc", mount.0.display());
    let first = serve(&database);
    let addr = first.addr;

    let mut games = Vec::new();
    for _ in 0..GAMES {
        games.push(Game::start(addr).await);
    }
    for game in &mut games {
        for _ in 0..PLIES {
            assert!(
                matches!(game.try_move().await, Reply::Acked),
                "before the disk filled"
            );
        }
    }
    assert_eq!(status(addr, "/healthz").await.0, 200);
    assert_eq!(metric(addr, "parlor_store_commit_errors_total").await, 0);

    // The disk fills: play until the server refuses a move it cannot store.
    let filler = fill(&mount.0);
    let mut refused = 0;
    let mut attempts = 0;
    while refused == 0 {
        assert!(
            attempts < MAX_ATTEMPTS_FULL,
            "{attempts} moves were all acknowledged on a full disk"
        );
        for game in games.iter_mut().filter(|g| !g.over()) {
            attempts += 1;
            if let Reply::Refused(reply) = game.try_move().await {
                assert_eq!(reply["t"], "error", "{reply}");
                refused += 1;
            }
        }
    }
    // SQLite frees some space when it rolls back, so a later commit may still fit: take that space too. Then
    // /healthz says so within its probe's reuse time (a second).
    fill(&mount.0);
    let asked = Instant::now();
    let (code, body) = loop {
        let (code, body) = status(addr, "/healthz").await;
        if code == 503 || asked.elapsed() > Duration::from_secs(5) {
            break (code, body);
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert_eq!(code, 503, "/healthz on a full disk: {body}");
    assert!(metric(addr, "parlor_store_commit_errors_total").await >= 1);
    // A few more tries on the full disk: each is refused or (if SQLite found room) stored, never lost.
    for game in games.iter_mut().filter(|g| !g.over()) {
        let _ = game.try_move().await;
    }

    // The space comes back: play resumes by itself, without a restart.
    std::fs::remove_file(&filler).unwrap();
    let since = Instant::now();
    for game in games.iter_mut() {
        let mut played = 0;
        while played < PLIES && !game.over() {
            match game.try_move().await {
                Reply::Acked => played += 1,
                Reply::Refused(reply) => {
                    assert!(
                        since.elapsed() < RECOVERY,
                        "still refused after the space came back: {reply}"
                    );
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }
    let (code, body) = status(addr, "/healthz").await;
    assert_eq!(code, 200, "/healthz once the space is back: {body}");

    // SIGKILL, and a new server on the same file: exactly the acknowledged moves are there.
    let cookies: Vec<_> = games
        .iter()
        .map(|g| (g.table.clone(), g.cookies.clone(), g.acked.clone()))
        .collect();
    drop(games);
    drop(first);
    let second = serve(&database);
    for (table, cookies, acked) in cookies {
        let mut c = Client::connect(second.addr, Some(&cookies[0])).await;
        c.send(json!({"t": "open", "table": table})).await;
        let state = c.expect("table").await;
        let moves = wires(&state["state"]["game"]["moves"]);
        assert_eq!(
            moves, acked,
            "table {table}: stored moves against acknowledged ones"
        );
    }
}

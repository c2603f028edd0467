//! Cluster tests: three real `parlor serve` processes sharing one PostgreSQL schema and one Redis prefix play as
//! one site. Players on different nodes finish games; a challenge, presence and the lobby cross nodes; the node
//! that owns a game is killed (SIGKILL), stopped (SIGTERM) or cut off from Redis mid-game, and play goes on at
//! another node with every acknowledged move, never with two move lists. They need PostgreSQL and Redis
//! (`PARLOR_TEST_POSTGRES` and `PARLOR_TEST_REDIS` hold URLs), so they are ignored unless asked for
//! (`cargo test --test cluster -- --ignored`, as .ci/run does); asked for without the URLs, they fail.
//! Run with `-- --nocapture --test-threads=1` to see the measured times and each node's log lines.
#![allow(clippy::unwrap_used)]

#[path = "../crates/server/tests/common/mod.rs"]
mod common;

use common::Client;
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// The nodes of every test site, by index: A, B, C.
const NODES: [&str; 3] = ["a", "b", "c"];
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
/// How long a site may take to start and see all three nodes.
const FORM: Duration = Duration::from_secs(30);
/// Bound asserted on the time from a SIGKILL to the next acknowledged move (the target is 5 s).
const RESUME_BOUND: Duration = Duration::from_secs(10);
/// Bound asserted on the longest pause between acknowledged moves across a graceful stop.
const HANDOVER_BOUND: Duration = Duration::from_secs(1);
/// Bound asserted on the time from cutting a node off Redis to another node owning its table (lease + 0.5 s
/// is expected).
const TAKEOVER_BOUND: Duration = Duration::from_secs(10);
/// Slack for clocks read from messages (rounding, the time a message takes).
const CLOCK_SLACK_MS: i64 = 500;

/// One site at a time: `cargo test` runs a binary's tests in parallel, and three nodes per test already share the
/// machine's cores; the timings asserted here are for one site.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

// ---------------------------------------------------------------------------------------------------------------
// The site: three `parlor serve` processes, a schema and a Redis prefix of their own.

/// The PostgreSQL and Redis URLs. The tests are ignored unless asked for (`-- --ignored`, as .ci/run does); asked
/// for without both URLs, a test fails and says why.
fn urls(test: &str) -> (String, String) {
    let get = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match (get("PARLOR_TEST_POSTGRES"), get("PARLOR_TEST_REDIS")) {
        (Some(pg), Some(redis)) => (pg, redis),
        _ => panic!("{test}: the cluster tests need both PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS (URLs)"),
    }
}

/// One `parlor serve` process, SIGKILLed on drop unless it has already exited.
struct Node {
    name: String,
    addr: SocketAddr,
    child: Child,
}

impl Node {
    fn start(name: &str, database: &str, redis: &str, prefix: &str) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
            .args(["serve", "--listen", "127.0.0.1:0", "--database", database])
            .args(["--redis", redis, "--redis-prefix", prefix, "--node", name])
            .env(
                "PARLOR_LOG",
                std::env::var("PARLOR_TEST_LOG").unwrap_or_else(|_| "warn".to_owned()),
            )
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Anything the node says on stderr, named by node (captured like the test's own output unless --nocapture).
        let stderr = child.stderr.take().unwrap();
        let tag = name.to_owned();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[{tag}] {line}");
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        // The log (tracing writes to stdout) goes on, named by node; reading also keeps the pipe from filling.
        let tag = name.to_owned();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                eprintln!("[{tag}] {line}");
            }
        });
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("node {name} did not start; its first line: {line:?}"));
        Node {
            name: name.to_owned(),
            addr,
            child,
        }
    }

    /// SIGKILL, as a crash: the node gets no chance to hand anything over.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM: the node stops gracefully (returns at once).
    fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -TERM {}", self.child.id());
    }

    /// Waits up to `within` for the process to exit; its status.
    async fn exited(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let end = Instant::now() + within;
        while Instant::now() < end {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        None
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Three nodes forming one site. On drop the nodes are killed, the schema dropped and the Redis keys removed.
struct Site {
    nodes: Vec<Node>,
    postgres: String,
    redis: String,
    schema: String,
    prefix: String,
    /// Held while the site lives (dropped after the nodes are killed).
    _serial: tokio::sync::MutexGuard<'static, ()>,
}

fn psql(url: &str, sql: &str) -> bool {
    Command::new("psql")
        .args([url, "-q", "-c", sql])
        .env("PGOPTIONS", "--client-min-messages=warning")
        .status()
        .is_ok_and(|s| s.success())
}

impl Site {
    /// Starts nodes A, B and C on a fresh schema and prefix named after `test`; node `i` reaches Redis at
    /// `redis_of(i)` (a proxy, for one of them). Returns once every node sees all three.
    async fn start(test: &str, postgres: &str, redis: &str, redis_of: impl Fn(usize) -> String) -> Site {
        let serial = SERIAL.lock().await;
        let tag = format!("{test}_{}", std::process::id());
        let schema = format!("parlor_cluster_{tag}");
        assert!(
            psql(
                postgres,
                &format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
            ),
            "psql could not create schema {schema}"
        );
        let separator = if postgres.contains('?') { '&' } else { '?' };
        let database = format!("{postgres}{separator}options=-c%20search_path%3D{schema}");
        let prefix = format!("parlor-test-{tag}");
        let mut site = Site {
            nodes: Vec::new(),
            postgres: postgres.to_owned(),
            redis: redis.to_owned(),
            schema,
            prefix,
            _serial: serial,
        };
        for (i, name) in NODES.iter().enumerate() {
            let node = Node::start(name, &database, &redis_of(i), &site.prefix);
            let addr = node.addr;
            // The first node runs the migrations; the others start once it answers.
            wait_for(
                FORM,
                &format!("node {name} to answer /healthz"),
                move || async move { http(addr, "/healthz").await.is_some_and(|(s, _)| s == 200) },
            )
            .await;
            site.nodes.push(node);
        }
        let addrs: Vec<SocketAddr> = site.nodes.iter().map(|n| n.addr).collect();
        wait_for(FORM, "every node to see all three", || {
            let addrs = addrs.clone();
            async move {
                for addr in addrs {
                    match get_json(addr, "/api/cluster").await {
                        Some(v) if v["nodes"].as_array().is_some_and(|n| n.len() == NODES.len()) => {}
                        _ => return false,
                    }
                }
                true
            }
        })
        .await;
        site
    }

    /// A site key's value read with redis-cli (for failure messages).
    fn redis_get(&self, key: &str) -> Option<String> {
        let out = Command::new("redis-cli")
            .args(["-u", &self.redis, "GET", &format!("{}:{key}", self.prefix)])
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    fn addr(&self, i: usize) -> SocketAddr {
        self.nodes[i].addr
    }

    fn name(&self, i: usize) -> &str {
        &self.nodes[i].name
    }

    /// A new browser (identity cookie) from node `i`.
    async fn cookie(&self, i: usize) -> String {
        common::cookie(self.addr(i)).await
    }

    /// A new player connected to node `i`.
    async fn client(&self, i: usize) -> Client {
        let cookie = self.cookie(i).await;
        Client::connect(self.addr(i), Some(&cookie)).await
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        self.nodes.clear();
        psql(
            &self.postgres,
            &format!("DROP SCHEMA IF EXISTS {} CASCADE", self.schema),
        );
        // Best effort: leases expire by themselves, but sets and hashes would stay.
        if let Ok(out) = Command::new("redis-cli")
            .args(["-u", &self.redis, "--scan", "--pattern"])
            .arg(format!("{}:*", self.prefix))
            .output()
        {
            let keys: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_owned)
                .collect();
            for chunk in keys.chunks(500) {
                let _ = Command::new("redis-cli")
                    .args(["-u", &self.redis, "DEL"])
                    .args(chunk)
                    .stdout(Stdio::null())
                    .status();
            }
        }
    }
}

/// Polls `check` every 100 ms until it holds; panics after `within`. Returns the time it took.
async fn wait_for<F, Fut>(within: Duration, what: &str, mut check: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    loop {
        if check().await {
            return start.elapsed();
        }
        assert!(start.elapsed() < within, "waited {within:?} for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A plain HTTP GET that never panics: (status, body), or `None` if the node did not answer within 3 s.
async fn http(addr: SocketAddr, path: &str) -> Option<(u16, String)> {
    let request = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        stream.write_all(head.as_bytes()).await.ok()?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.ok()?;
        let text = String::from_utf8_lossy(&response).into_owned();
        let (head, body) = text.split_once("\r\n\r\n")?;
        let status = head.split_whitespace().nth(1)?.parse().ok()?;
        Some((status, body.to_owned()))
    };
    tokio::time::timeout(Duration::from_secs(3), request)
        .await
        .ok()
        .flatten()
}

/// `GET path` as JSON, when the node answers 200.
async fn get_json(addr: SocketAddr, path: &str) -> Option<Value> {
    match http(addr, path).await {
        Some((200, body)) => serde_json::from_str(&body).ok(),
        _ => None,
    }
}

/// The owner of a table as node `addr` sees it.
async fn owner(addr: SocketAddr, table: &str) -> Option<String> {
    let v = get_json(addr, &format!("/api/table/{table}/owner")).await?;
    v["node"].as_str().map(str::to_owned)
}

/// The stored moves of a game (`GET /api/game/{id}`, which reads the store) as node `addr` serves them.
async fn stored_moves(addr: SocketAddr, game: &str) -> Option<Vec<String>> {
    let v = get_json(addr, &format!("/api/game/{game}")).await?;
    Some(
        v["moves"]
            .as_array()?
            .iter()
            .filter_map(|m| m["wire"].as_str().map(str::to_owned))
            .collect(),
    )
}

fn wires(legal: &Value) -> Vec<String> {
    legal.as_array().map_or_else(Vec::new, |l| {
        l.iter()
            .filter_map(|m| m["wire"].as_str().map(str::to_owned))
            .collect()
    })
}

// ---------------------------------------------------------------------------------------------------------------
// Players that follow a table through resyncs, takeovers and reconnects.

/// What a socket gave.
enum Recv {
    Msg(Value),
    /// The socket closed; the close code if a close frame came.
    Closed(Option<u16>),
    Quiet,
}

async fn recv(c: &mut Client, until: Instant) -> Recv {
    loop {
        match tokio::time::timeout_at(until, c.ws.next()).await {
            Err(_) => return Recv::Quiet,
            Ok(Some(Ok(Message::Text(t)))) => return Recv::Msg(serde_json::from_str(&t).unwrap()),
            Ok(Some(Ok(Message::Close(frame)))) => return Recv::Closed(frame.map(|f| u16::from(f.code))),
            Ok(None) | Ok(Some(Err(_))) => return Recv::Closed(None),
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// What [`Player::pump`] gave.
enum Pumped {
    Got(Value),
    /// The node closed the socket and the player reconnected to its fallback node and resynced.
    Reconnected,
    Quiet,
}

/// A player watching one table, keeping what it knows of the game up to date from every message it reads.
struct Player {
    c: Client,
    table: String,
    /// Where to reconnect when the node closes the socket; `None` makes a close fail the test.
    fallback: Option<SocketAddr>,
    version: u64,
    game: String,
    moves: Vec<String>,
    legal: Vec<String>,
    turn: Option<u64>,
    outcome: Option<Value>,
    /// The clocks as first seen after each ply (from its `moved` event, or from a full state), with when they came.
    clocks: BTreeMap<usize, (Value, Instant)>,
    /// Full `table` states received.
    states: usize,
    /// Close codes of the sockets the server closed (`None`: no close frame).
    closes: Vec<Option<u16>>,
    next_ack: u64,
}

impl Player {
    /// Opens `table` on an already greeted socket and takes the full state.
    async fn open(c: Client, table: &str) -> Player {
        let mut p = Player {
            c,
            table: table.to_owned(),
            fallback: None,
            version: 0,
            game: String::new(),
            moves: Vec::new(),
            legal: Vec::new(),
            turn: None,
            outcome: None,
            clocks: BTreeMap::new(),
            states: 0,
            closes: Vec::new(),
            next_ack: 100,
        };
        p.c.send(json!({"t": "open", "table": table})).await;
        let until = Instant::now() + common::WAIT;
        while p.states == 0 {
            match p.pump(until).await {
                Pumped::Got(_) | Pumped::Reconnected => {}
                Pumped::Quiet => panic!("{} got no state of table {table}", p.c.name),
            }
        }
        p
    }

    fn set_game(&mut self, g: &Value) {
        if g.is_null() {
            return;
        }
        self.game = g["id"].as_str().unwrap_or_default().to_owned();
        self.moves = g["moves"]
            .as_array()
            .map(|m| {
                m.iter()
                    .filter_map(|m| m["wire"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        self.legal = wires(&g["legal"]);
        self.turn = g["turn"].as_u64();
        self.outcome = Some(g["outcome"].clone()).filter(|o| !o.is_null());
        self.clocks
            .entry(self.moves.len())
            .or_insert_with(|| (g["clocks"].clone(), Instant::now()));
    }

    /// Applies a message; true when an event skipped versions (the caller resyncs).
    fn apply(&mut self, v: &Value) -> bool {
        match v["t"].as_str() {
            Some("table") if v["state"]["id"] == self.table.as_str() => {
                self.version = v["state"]["version"].as_u64().unwrap();
                self.states += 1;
                self.set_game(&v["state"]["game"]);
                false
            }
            Some("event") if v["table"] == self.table.as_str() => {
                let version = v["v"].as_u64().unwrap();
                if version <= self.version {
                    eprintln!(
                        "{}: event v{version} at or below v{} ignored: {v}",
                        self.c.name, self.version
                    );
                    return false;
                }
                if version > self.version + 1 {
                    return true;
                }
                self.version = version;
                let e = &v["event"];
                match e["e"].as_str() {
                    Some("moved") => {
                        let ply = e["ply"].as_u64().unwrap() as usize;
                        self.moves.truncate(ply - 1);
                        self.moves.push(e["wire"].as_str().unwrap().to_owned());
                        self.legal = wires(&e["legal"]);
                        self.turn = e["turn"].as_u64();
                        self.clocks
                            .entry(ply)
                            .or_insert_with(|| (e["clocks"].clone(), Instant::now()));
                    }
                    Some("started") => self.set_game(&e["game"]),
                    Some("eliminated") => {
                        self.legal = wires(&e["legal"]);
                        self.turn = e["turn"].as_u64();
                    }
                    Some("ended") => {
                        self.outcome = Some(e["outcome"].clone());
                        self.legal.clear();
                        self.turn = None;
                    }
                    _ => {}
                }
                false
            }
            _ => false,
        }
    }

    async fn resync(&mut self) {
        let since = self.version;
        self.c
            .send(json!({"t": "open", "table": self.table, "since": since}))
            .await;
    }

    /// Reads one message until `until`: applies it, resyncs over a gap, and reconnects to the fallback node (with
    /// `open` + `since`) when the node closes the socket.
    async fn pump(&mut self, until: Instant) -> Pumped {
        let got = recv(&mut self.c, until).await;
        if std::env::var_os("PARLOR_TEST_TRACE").is_some() {
            let text = match &got {
                Recv::Msg(v) => v.to_string(),
                Recv::Closed(code) => format!("closed {code:?}"),
                Recv::Quiet => "quiet".to_owned(),
            };
            eprintln!(
                "{} at {}: {}",
                self.c.name,
                self.c.addr,
                text.chars().take(300).collect::<String>()
            );
        }
        match got {
            Recv::Msg(v) => {
                if self.apply(&v) {
                    self.resync().await;
                }
                Pumped::Got(v)
            }
            Recv::Closed(code) => {
                self.closes.push(code);
                let Some(addr) = self.fallback else {
                    panic!(
                        "{}'s socket to {} closed (code {code:?})",
                        self.c.name, self.c.addr
                    );
                };
                self.c = Client::connect(addr, self.c.cookie.as_deref()).await;
                self.resync().await;
                Pumped::Reconnected
            }
            Recv::Quiet => Pumped::Quiet,
        }
    }

    /// Reads until the player has seen `plies` moves (or the end of the game).
    async fn sync_to(&mut self, plies: usize, within: Duration) {
        let until = Instant::now() + within;
        while self.moves.len() < plies && self.outcome.is_none() {
            if let Pumped::Quiet = self.pump(until).await {
                panic!(
                    "{} saw {} of {plies} moves after {within:?}: {:?}",
                    self.c.name,
                    self.moves.len(),
                    self.moves
                );
            }
        }
    }

    async fn send_move(&mut self, ack: u64, ply: usize, wire: &str) {
        self.c
            .send(json!({"t": "move", "table": self.table, "ack": ack, "ply": ply, "wire": wire}))
            .await;
    }

    /// Sends one move and reads until its `ack` or `error`; `None` if neither came within `within` (or the socket
    /// closed).
    async fn try_move(&mut self, ack: u64, ply: usize, wire: &str, within: Duration) -> Option<Value> {
        self.send_move(ack, ply, wire).await;
        let until = Instant::now() + within;
        loop {
            match self.pump(until).await {
                Pumped::Got(v) if (v["t"] == "ack" || v["t"] == "error") && v["ack"] == ack => {
                    return Some(v);
                }
                Pumped::Got(_) => {}
                Pumped::Reconnected | Pumped::Quiet => return None,
            }
        }
    }

    /// Plays `wire` at `ply`, trying again every `retry` (new ack id) while it is neither acknowledged nor refused
    /// for good, and resending it with the same ack id after a reconnect. Returns when an `ack` for any of its
    /// tries came or the player saw it played; panics at `deadline`, or if another move was played at `ply`.
    async fn play(&mut self, ply: usize, wire: &str, retry: Duration, deadline: Instant) -> Played {
        let mut acks = Vec::new();
        let mut refusals = Vec::new();
        loop {
            if self.moves.len() > ply {
                assert_eq!(
                    self.moves[ply], wire,
                    "{} played {wire} at ply {ply} but {} was played there",
                    self.c.name, self.moves[ply]
                );
                return Played {
                    at: Instant::now(),
                    tries: acks.len(),
                    refusals,
                };
            }
            assert!(
                Instant::now() < deadline,
                "{}'s {wire} at ply {ply} was not acknowledged in time ({} tries, refusals {refusals:?})",
                self.c.name,
                acks.len()
            );
            self.next_ack += 1;
            let ack = self.next_ack;
            acks.push(ack);
            self.send_move(ack, ply, wire).await;
            let until = (Instant::now() + retry).min(deadline);
            loop {
                match self.pump(until).await {
                    Pumped::Got(v) => {
                        let ours = v["ack"].as_u64().is_some_and(|a| acks.contains(&a));
                        if v["t"] == "ack" && ours {
                            return Played {
                                at: Instant::now(),
                                tries: acks.len(),
                                refusals,
                            };
                        }
                        if v["t"] == "error" && ours {
                            let code = v["code"].as_str().unwrap_or_default().to_owned();
                            refusals.push(code.clone());
                            if code == "stale_move" {
                                // Played by an earlier try, or not: the resync tells.
                                self.resync().await;
                                continue;
                            }
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            break;
                        }
                        if self.moves.len() > ply {
                            break;
                        }
                    }
                    // The move may have been lost with the old socket: the same ack and ply again.
                    Pumped::Reconnected => self.send_move(ack, ply, wire).await,
                    Pumped::Quiet => break,
                }
            }
        }
    }

    /// The moves a fresh socket of `cookie` at node `addr` gets when it opens `table`.
    async fn fresh_moves(addr: SocketAddr, cookie: &str, table: &str) -> Vec<String> {
        let c = Client::connect(addr, Some(cookie)).await;
        Player::open(c, table).await.moves
    }

    /// Reads until the game has started.
    async fn started(&mut self) {
        let until = Instant::now() + common::WAIT;
        while self.game.is_empty() {
            if let Pumped::Quiet = self.pump(until).await {
                panic!("{} never saw the game start", self.c.name);
            }
        }
    }
}

/// A move acknowledged after `tries` sends.
struct Played {
    at: Instant,
    tries: usize,
    refusals: Vec<String>,
}

impl Played {
    /// The refusals counted by code: `unavailable ×24`.
    fn refused(&self) -> String {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for code in &self.refusals {
            *counts.entry(code).or_default() += 1;
        }
        let parts: Vec<String> = counts.iter().map(|(c, n)| format!("{c} ×{n}")).collect();
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

/// A chess game between two players connected to nodes `nodes`, created at node `owner` by the first player
/// (who then moves to its own node). Returns the players, seat 0 first, and their cookies.
async fn chess_game(site: &Site, owner: usize, nodes: [usize; 2]) -> ([Player; 2], [String; 2]) {
    let cookies = [site.cookie(nodes[0]).await, site.cookie(nodes[1]).await];
    let mut creator = Client::connect(site.addr(owner), Some(&cookies[0])).await;
    let (table, _, _) = creator
        .create(json!({"game": "chess", "seats": [{"kind": "me"}]}))
        .await;
    let second = Client::connect(site.addr(nodes[1]), Some(&cookies[1])).await;
    let mut second = Player::open(second, &table).await;
    second.c.send(json!({"t": "sit", "table": table})).await;
    creator.event("started").await;
    let first = if nodes[0] == owner {
        creator
    } else {
        drop(creator);
        Client::connect(site.addr(nodes[0]), Some(&cookies[0])).await
    };
    let first = Player::open(first, &table).await;
    second.started().await;
    assert!(
        !first.game.is_empty() && first.turn == Some(0),
        "the game started"
    );
    assert_eq!(
        owner_of(site, &table).await.as_deref(),
        Some(site.name(owner)),
        "the table is owned where it was created"
    );
    ([first, second], cookies)
}

/// The owner as every live node sees it (they must agree).
async fn owner_of(site: &Site, table: &str) -> Option<String> {
    owner(site.addr(B), table).await
}

// ---------------------------------------------------------------------------------------------------------------
// a. Games across nodes.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and Redis: set PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS and run with --ignored (.ci/run does)"]
async fn players_on_different_nodes_finish_a_chess_game_and_a_four_player_game() {
    let (pg, redis) = urls("games");
    let site = Site::start("games", &pg, &redis, |_| redis.clone()).await;

    // Fool's mate, White on A, Black on B.
    let mut white = site.client(A).await;
    let mut black = site.client(B).await;
    let table = common::two_player_game(
        &mut white,
        &mut black,
        json!({"game": "chess", "seats": [{"kind": "me"}]}),
    )
    .await;
    for (ply, wire) in ["f2f3", "e7e5", "g2g4", "d8h4"].into_iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        let reply = mover.play(&table, ply as u32, wire).await;
        assert_eq!(reply["t"], "ack", "{wire}: {reply}");
        let want = ply as u64 + 1;
        let moved = other
            .until("moved", move |v| {
                v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == want
            })
            .await;
        assert_eq!(moved["event"]["wire"], wire);
    }
    for c in [&mut white, &mut black] {
        let ended = c.event("ended").await;
        let outcome = &ended["event"]["outcome"];
        assert_eq!(outcome["reason"], "checkmate", "{ended}");
        assert_eq!(outcome["winner"], 1, "{ended}");
        assert_eq!(outcome["score"], "0-1", "{ended}");
    }

    // Four players on A, B, C and A: one round of moves, then three resign one after another.
    let mut four = Vec::new();
    for node in [A, B, C, A] {
        four.push(site.client(node).await);
    }
    let (table, _, _) = four[0]
        .create(json!({"game": "chess4", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]}))
        .await;
    for (seat, c) in four.iter_mut().enumerate().skip(1) {
        c.send(json!({"t": "open", "table": table})).await;
        c.expect("table").await;
        c.send(json!({"t": "sit", "table": table, "seat": seat})).await;
    }
    let mut legal = Vec::new();
    for c in four.iter_mut() {
        let started = c.event("started").await;
        legal = wires(&started["event"]["game"]["legal"]);
    }
    for seat in 0..4 {
        let reply = four[seat].play(&table, seat as u32, &legal[0]).await;
        assert_eq!(reply["t"], "ack", "seat {seat}: {reply}");
        let want = seat as u64 + 1;
        for c in four.iter_mut() {
            let moved = c
                .until("moved", move |v| {
                    v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == want
                })
                .await;
            legal = wires(&moved["event"]["legal"]);
        }
    }
    let mut ended: Vec<Option<Value>> = vec![None; 4];
    for seat in [3, 2, 1] {
        four[seat].send(json!({"t": "resign", "table": table})).await;
        for (i, c) in four.iter_mut().enumerate() {
            if ended[i].is_some() {
                continue;
            }
            let v = c
                .until("eliminated or ended", move |v| {
                    v["t"] == "event"
                        && ((v["event"]["e"] == "eliminated" && v["event"]["seat"] == seat)
                            || v["event"]["e"] == "ended")
                })
                .await;
            if v["event"]["e"] == "ended" {
                ended[i] = Some(v["event"]["outcome"].clone());
            }
        }
    }
    let outcomes: Vec<Value> = ended
        .into_iter()
        .enumerate()
        .map(|(i, o)| o.unwrap_or_else(|| panic!("seat {i} did not see the game end")))
        .collect();
    assert!(outcomes.iter().all(|o| *o == outcomes[0]), "{outcomes:?}");
    assert_eq!(
        outcomes[0]["places"].as_array().unwrap().len(),
        4,
        "{:?}",
        outcomes[0]
    );
    assert_eq!(outcomes[0]["result"], "decided", "{:?}", outcomes[0]);
    eprintln!("four-player game ended on all nodes: {}", outcomes[0]);
}

// ---------------------------------------------------------------------------------------------------------------
// b. A challenge from A accepted on B.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and Redis: set PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS and run with --ignored (.ci/run does)"]
async fn a_challenge_sent_on_one_node_is_accepted_on_another() {
    let (pg, redis) = urls("challenge");
    let site = Site::start("challenge", &pg, &redis, |_| redis.clone()).await;
    let mut a = site.client(A).await;
    let mut b = site.client(B).await;
    // B's presence reaches A through Redis: try until A's node knows B is online.
    let start = Instant::now();
    let pending = loop {
        a.send(json!({"t": "challenge", "to": b.id, "spec": {"game": "chess", "seats": [{"kind": "me"}]}}))
            .await;
        let v = a
            .until("challenge or error", |v| {
                v["t"] == "challenge" || v["t"] == "error"
            })
            .await;
        if v["t"] == "challenge" {
            break v;
        }
        assert_eq!(v["code"], "player_offline", "{v}");
        assert!(start.elapsed() < Duration::from_secs(5), "A never saw B online");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(pending["state"], "pending");
    let incoming = b.expect("challenge").await;
    assert_eq!(incoming["from"]["id"], a.id.as_str());
    assert_eq!(incoming["state"], "pending");
    b.send(json!({"t": "challenge_answer", "id": incoming["id"], "answer": "accept"}))
        .await;
    let accepted = a
        .until("accepted", |v| v["t"] == "challenge" && v["state"] == "accepted")
        .await;
    let table = accepted["table"].as_str().unwrap().to_owned();
    let b_accepted = b
        .until("accepted", |v| v["t"] == "challenge" && v["state"] == "accepted")
        .await;
    assert_eq!(b_accepted["table"], table.as_str());
    assert_eq!(
        owner_of(&site, &table).await.as_deref(),
        Some(site.name(B)),
        "the node that took the acceptance owns the table"
    );
    for (c, seat) in [(&mut a, 0), (&mut b, 1)] {
        c.send(json!({"t": "open", "table": table})).await;
        let state = c.expect("table").await;
        assert_eq!(state["state"]["you"], seat, "{state}");
        assert_eq!(state["state"]["game"]["turn"], 0, "{state}");
    }
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    b.until("moved", |v| v["t"] == "event" && v["event"]["e"] == "moved")
        .await;
    assert_eq!(b.play(&table, 1, "e7e5").await["t"], "ack");
}

// ---------------------------------------------------------------------------------------------------------------
// c. Presence and lobby agree on all nodes.

/// A lobby snapshot: online players (with the subscriber itself) and public tables.
/// A subscribed connection asks again by stopping and starting (a second start alone sends nothing).
async fn lobby(c: &mut Client) -> (BTreeSet<String>, BTreeSet<String>) {
    c.send(json!({"t": "lobby", "on": false})).await;
    c.send(json!({"t": "lobby", "on": true})).await;
    let v = c.expect("lobby").await;
    let ids = |list: &Value| -> BTreeSet<String> {
        list.as_array()
            .unwrap()
            .iter()
            .filter_map(|x| x["id"].as_str().map(str::to_owned))
            .collect()
    };
    let mut players = ids(&v["players"]);
    players.insert(c.id.clone());
    (players, ids(&v["tables"]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and Redis: set PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS and run with --ignored (.ci/run does)"]
async fn presence_and_lobby_agree_on_all_nodes() {
    let (pg, redis) = urls("lobby");
    let site = Site::start("lobby", &pg, &redis, |_| redis.clone()).await;
    let mut watchers = Vec::new();
    for node in [A, B, C] {
        let mut w = site.client(node).await;
        lobby(&mut w).await;
        watchers.push(w);
    }
    let mut players = Vec::new();
    let mut tables = BTreeSet::new();
    for (node, game) in [(A, "chess"), (B, "draughts/english"), (C, "chess")] {
        let mut p = site.client(node).await;
        let (table, _, _) = p.create(json!({"game": game, "seats": [{"kind": "me"}]})).await;
        tables.insert(table);
        players.push(p);
    }
    let everyone: BTreeSet<String> = watchers.iter().chain(&players).map(|c| c.id.clone()).collect();
    let took = wait_until_lobbies(&mut watchers, |p, t| p == &everyone && t == &tables).await;
    eprintln!("all three lobbies agreed after {took:?}");

    // One player appears offline, another disconnects: both leave every node's list.
    let hidden = players[1].id.clone();
    players[1].send(json!({"t": "presence", "online": false})).await;
    for w in watchers.iter_mut() {
        let id = hidden.clone();
        w.until("player_offline", move |v| {
            v["t"] == "player_offline" && v["id"] == id.as_str()
        })
        .await;
    }
    let gone = players.pop().unwrap();
    let gone_id = gone.id.clone();
    drop(gone);
    for w in watchers.iter_mut() {
        let id = gone_id.clone();
        w.until("player_offline", move |v| {
            v["t"] == "player_offline" && v["id"] == id.as_str()
        })
        .await;
    }
    let mut online = everyone.clone();
    online.remove(&hidden);
    online.remove(&gone_id);
    wait_until_lobbies(&mut watchers, |p, _| p == &online).await;
}

/// Takes a lobby snapshot from every watcher until `agree` holds for each and all three are the same.
async fn wait_until_lobbies(
    watchers: &mut [Client],
    agree: impl Fn(&BTreeSet<String>, &BTreeSet<String>) -> bool,
) -> Duration {
    let start = Instant::now();
    loop {
        let mut seen = Vec::new();
        for w in watchers.iter_mut() {
            seen.push(lobby(w).await);
        }
        if seen.iter().all(|(p, t)| agree(p, t)) && seen.iter().all(|s| *s == seen[0]) {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the lobbies of A, B and C still differ: {seen:#?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// d. SIGKILL of the owner mid-game.

/// Plays `moves` (chess, from the start) with the players alternating, each move acknowledged and seen by the
/// opponent; returns the acknowledged moves.
async fn play_line(players: &mut [Player; 2], moves: &[&str]) -> Vec<String> {
    let mut acked = Vec::new();
    for (ply, wire) in moves.iter().enumerate() {
        let (mover, other) = players.split_at_mut(1);
        let (mover, other) = if ply % 2 == 0 {
            (&mut mover[0], &mut other[0])
        } else {
            (&mut other[0], &mut mover[0])
        };
        mover.sync_to(ply, common::WAIT).await;
        let deadline = Instant::now() + common::WAIT;
        mover.play(ply, wire, common::WAIT, deadline).await;
        acked.push((*wire).to_owned());
        other.sync_to(ply + 1, common::WAIT).await;
    }
    acked
}

/// Remaining ms of `seat` in a clocks value.
fn remaining(clocks: &Value, seat: usize) -> i64 {
    clocks["remaining_ms"][seat].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and Redis: set PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS and run with --ignored (.ci/run does)"]
async fn sigkill_of_the_owner_mid_game_resumes_on_another_node() {
    let (pg, redis) = urls("sigkill");
    let mut site = Site::start("sigkill", &pg, &redis, |_| redis.clone()).await;
    let (mut players, cookies) = chess_game(&site, A, [B, C]).await;
    let table = players[0].table.clone();
    let game = players[0].game.clone();
    let mut acked = play_line(&mut players, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]).await;
    let ply = acked.len();
    // White thinks; its clock runs. Then A dies.
    let (before, turn_began) = players[0].clocks[&ply].clone();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let killed = Instant::now();
    site.nodes[A].kill();

    let deadline = killed + Duration::from_secs(30);
    let played = players[0]
        .play(ply, "d2d3", Duration::from_millis(500), deadline)
        .await;
    let resume = played.at - killed;
    eprintln!(
        "SIGKILL of the owner: the next move was acknowledged {:.2} s later ({} tries; refused: {})",
        resume.as_secs_f64(),
        played.tries,
        played.refused()
    );
    acked.push("d2d3".to_owned());
    assert!(resume < RESUME_BOUND, "resuming took {resume:?}");
    let now_owner = owner_of(&site, &table).await;
    assert!(
        now_owner.as_deref() == Some(site.name(B)) || now_owner.as_deref() == Some(site.name(C)),
        "owner after the kill: {now_owner:?}"
    );

    // Every acknowledged move is there, in the live state and in the store.
    players[1].sync_to(ply + 1, common::WAIT).await;
    players[0].sync_to(ply + 1, common::WAIT).await;
    for p in &players {
        assert_eq!(p.moves, acked, "{}'s moves", p.c.name);
    }
    let moves = Player::fresh_moves(site.addr(C), &cookies[1], &table).await;
    assert_eq!(moves, acked, "a fresh open on C");
    assert_eq!(
        stored_moves(site.addr(B), &game).await,
        Some(acked.clone()),
        "the store"
    );

    // Clocks: Black's stood still; White lost no more than the time its turn really lasted.
    let (after, moved_at) = players[1]
        .clocks
        .get(&(ply + 1))
        .or_else(|| players[0].clocks.get(&(ply + 1)))
        .cloned()
        .expect("the clocks after the resumed move");
    let thinking = (moved_at - turn_began).as_millis() as i64;
    let (white_before, white_after) = (remaining(&before, 0), remaining(&after, 0));
    let (black_before, black_after) = (remaining(&before, 1), remaining(&after, 1));
    eprintln!(
        "clocks before the kill {before}, after the resumed move {after}: White lost {} ms over a turn of {thinking} ms",
        white_before - white_after
    );
    assert!(
        white_after <= white_before + CLOCK_SLACK_MS
            && white_after >= white_before - thinking - CLOCK_SLACK_MS,
        "White's clock went from {white_before} to {white_after} over a turn of {thinking} ms"
    );
    assert!(
        (black_after - black_before).abs() <= CLOCK_SLACK_MS,
        "Black's clock went from {black_before} to {black_after} while it was not running"
    );

    // And the game goes on.
    let deadline = Instant::now() + common::WAIT;
    players[1]
        .play(ply + 1, "f8c5", Duration::from_secs(2), deadline)
        .await;
}

// ---------------------------------------------------------------------------------------------------------------
// e. Graceful stop of the owner mid-game.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and Redis: set PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS and run with --ignored (.ci/run does)"]
async fn a_graceful_stop_hands_the_game_over_without_a_visible_pause() {
    let (pg, redis) = urls("handover");
    let mut site = Site::start("handover", &pg, &redis, |_| redis.clone()).await;
    // White on A (the owner, which stops), Black on B; White comes back through C.
    let (mut players, cookies) = chess_game(&site, A, [A, B]).await;
    players[0].fallback = Some(site.addr(C));
    let table = players[0].table.clone();
    /// Plies before the stop.
    const STOP_AT: usize = 8;
    /// Plies played after White is back on another node.
    const AFTER: usize = 6;
    /// Each side "thinks" this long before moving, so moves keep coming while the node stops.
    const THINK: Duration = Duration::from_millis(40);
    let mut acked: Vec<String> = Vec::new();
    let mut acked_at: Vec<Instant> = Vec::new();
    let mut stopped: Option<Instant> = None;
    // The ply at which White's socket was seen closed.
    let mut closed_at: Option<usize> = None;
    loop {
        let ply = acked.len();
        if closed_at.is_none() && !players[0].closes.is_empty() {
            closed_at = Some(ply);
        }
        let done = closed_at.is_some_and(|c| ply >= c + AFTER && ply >= STOP_AT + AFTER);
        let too_long = stopped.is_some_and(|s| s.elapsed() > Duration::from_secs(10));
        if done || too_long {
            break;
        }
        let mover = &mut players[ply % 2];
        mover.sync_to(ply, Duration::from_secs(5)).await;
        if mover.outcome.is_some() || mover.legal.is_empty() {
            break;
        }
        tokio::time::sleep(THINK).await;
        let wire = mover.legal[rand::random_range(0..mover.legal.len())].clone();
        let deadline = Instant::now() + Duration::from_secs(10);
        let played = mover.play(ply, &wire, Duration::from_secs(2), deadline).await;
        acked.push(wire);
        acked_at.push(played.at);
        if ply + 1 == STOP_AT {
            site.nodes[A].terminate();
            stopped = Some(Instant::now());
        }
    }
    let stopped = stopped.expect("the game reached the stop");
    if closed_at.is_none() && !players[0].closes.is_empty() {
        closed_at = Some(acked.len());
    }
    let closed_at = closed_at.expect("the stopping node closed White's socket within 10 s");
    assert!(
        acked.len() >= closed_at + AFTER,
        "the random game ended after {} plies, too early to show the handover",
        acked.len()
    );
    let (gap, at) = acked_at
        .windows(2)
        .enumerate()
        .map(|(i, w)| (w[1] - w[0], i + 1))
        .max()
        .unwrap();
    let around: Vec<u128> = acked_at[STOP_AT.saturating_sub(2)..(STOP_AT + 6).min(acked_at.len())]
        .windows(2)
        .map(|w| (w[1] - w[0]).as_millis())
        .collect();
    eprintln!(
        "graceful stop: longest gap between acknowledged moves {} ms (before ply {at}, stop after ply {STOP_AT}); \
         gaps around the stop (ms) {around:?}; White's socket closed with {:?}",
        gap.as_millis(),
        players[0].closes
    );
    assert!(gap < HANDOVER_BOUND, "a pause of {gap:?} between moves");
    for code in players[0].closes.iter().flatten() {
        assert_eq!(
            *code, 1012,
            "the stopping node closes sockets with 1012 (service restart)"
        );
    }
    let status = site.nodes[A].exited(Duration::from_secs(20)).await;
    eprintln!(
        "node A exited {:?} after SIGTERM",
        status.map(|_| stopped.elapsed())
    );
    assert!(status.is_some(), "node A did not exit after SIGTERM");
    // Every acknowledged move is there.
    players[1].sync_to(acked.len(), common::WAIT).await;
    assert_eq!(players[1].moves, acked);
    let moves = Player::fresh_moves(site.addr(C), &cookies[0], &table).await;
    assert_eq!(moves, acked, "a fresh open on C");
    let now_owner = owner_of(&site, &table).await;
    assert!(
        now_owner.as_deref() == Some(site.name(B)) || now_owner.as_deref() == Some(site.name(C)),
        "owner after the stop: {now_owner:?}"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// f. Split ownership: node A cut off from Redis.

/// A TCP proxy with a switch: paused, it stops copying both ways but keeps every socket open.
struct Proxy {
    addr: SocketAddr,
    paused: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (paused, _) = watch::channel(false);
        let switch = paused.clone();
        let task = tokio::spawn(async move {
            while let Ok((down, _)) = listener.accept().await {
                let Ok(up) = TcpStream::connect(&upstream).await else {
                    continue;
                };
                let _ = down.set_nodelay(true);
                let _ = up.set_nodelay(true);
                let (down_read, down_write) = down.into_split();
                let (up_read, up_write) = up.into_split();
                tokio::spawn(pipe(down_read, up_write, switch.subscribe()));
                tokio::spawn(pipe(up_read, down_write, switch.subscribe()));
            }
        });
        Proxy { addr, paused, task }
    }

    fn pause(&self) {
        self.paused.send_replace(true);
    }

    fn resume(&self) {
        self.paused.send_replace(false);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Copies one direction, holding data while the switch says paused.
async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut paused: watch::Receiver<bool>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        while *paused.borrow_and_update() {
            if paused.changed().await.is_err() {
                return;
            }
        }
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // Read before the pause began: held until it ends.
        while *paused.borrow_and_update() {
            if paused.changed().await.is_err() {
                return;
            }
        }
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// `redis://[user@]HOST:PORT[/db]` split into (before the host, host:port, after it).
fn redis_parts(url: &str) -> (String, String, String) {
    let rest = url.strip_prefix("redis://").expect("a redis:// URL");
    let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
    let (user, host) = authority
        .rsplit_once('@')
        .map_or((String::new(), authority), |(u, h)| (format!("{u}@"), h));
    let path = if path.is_empty() {
        String::new()
    } else {
        format!("/{path}")
    };
    (format!("redis://{user}"), host.to_owned(), path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and Redis: set PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS and run with --ignored (.ci/run does)"]
async fn a_node_cut_off_from_redis_refuses_moves_while_another_owns_its_table() {
    let (pg, redis) = urls("split");
    let (scheme, upstream, path) = redis_parts(&redis);
    let proxy = Proxy::start(upstream).await;
    let through_proxy = format!("{scheme}{}{path}", proxy.addr);
    let site = Site::start("split", &pg, &redis, |i| {
        if i == A {
            through_proxy.clone()
        } else {
            redis.clone()
        }
    })
    .await;
    // Created on A; White plays through B, Black through C; White also has a socket on A.
    let (mut players, cookies) = chess_game(&site, A, [B, C]).await;
    let table = players[0].table.clone();
    let game = players[0].game.clone();
    let mut white_on_a = Player::open(Client::connect(site.addr(A), Some(&cookies[0])).await, &table).await;
    white_on_a.fallback = Some(site.addr(A));
    let mut acked = play_line(&mut players, &["e2e4", "e7e5", "g1f3", "b8c6"]).await;
    white_on_a.sync_to(acked.len(), common::WAIT).await;

    proxy.pause();
    let paused = Instant::now();
    // Another node takes the table over by itself, without any client asking. If it does not, the test goes on
    // (the first move asked for the table makes a node take it) to show the rest, and fails at the end.
    let mut takeover_failure = None;
    let mut new_owner = None;
    while paused.elapsed() < TAKEOVER_BOUND {
        new_owner = owner(site.addr(B), &table).await.filter(|o| o != site.name(A));
        if new_owner.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    match &new_owner {
        Some(o) => eprintln!(
            "A cut off from Redis: {o} owned the table {:.2} s later",
            paused.elapsed().as_secs_f64()
        ),
        None => {
            let b = get_json(site.addr(B), "/api/cluster").await;
            let c = get_json(site.addr(C), "/api/cluster").await;
            let owners = (
                owner(site.addr(B), &table).await,
                owner(site.addr(C), &table).await,
            );
            let lease = site.redis_get(&format!("lease:{table}"));
            let failure = format!(
                "nobody took the table over from A within {TAKEOVER_BOUND:?} of the cut; /api/cluster on B: {b:?}, \
                 on C: {c:?}; /api/table/{{id}}/owner on B and C: {owners:?}; the lease in Redis: {lease:?}"
            );
            eprintln!("FAILURE (the test goes on, then fails): {failure}");
            takeover_failure = Some(failure);
        }
    }

    // Moves through B and C are acknowledged.
    for (ply, wire) in [(4, "f1c4"), (5, "g8f6")] {
        let p = &mut players[ply % 2];
        p.sync_to(ply, common::WAIT).await;
        let played = p
            .play(
                ply,
                wire,
                Duration::from_secs(1),
                Instant::now() + Duration::from_secs(15),
            )
            .await;
        eprintln!(
            "{wire} at ply {ply} acknowledged {:.2} s after the cut ({} tries; refused: {})",
            (played.at - paused).as_secs_f64(),
            played.tries,
            played.refused()
        );
        acked.push(wire.to_owned());
    }

    let new_owner = owner(site.addr(B), &table)
        .await
        .expect("an owner once moves were acknowledged");
    eprintln!("the table's owner after moves through B and C: {new_owner}");
    assert!(new_owner == site.name(B) || new_owner == site.name(C));
    assert_eq!(
        owner(site.addr(C), &table).await.as_deref(),
        Some(new_owner.as_str())
    );

    // White's socket on A sees the game as A last knew it and tries a different move at ply 4: never acknowledged.
    let stale_ply = white_on_a.moves.len();
    let answer = white_on_a
        .try_move(9001, stale_ply, "d2d4", Duration::from_secs(3))
        .await;
    eprintln!("a move sent to A (ply {stale_ply}, d2d4) while it is cut off got {answer:?}");
    if let Some(answer) = &answer {
        assert_eq!(
            answer["t"], "error",
            "A acknowledged a move while cut off: {answer}"
        );
    }

    // Play goes on through B and C while A is cut off.
    for (ply, wire) in [(6, "d2d3"), (7, "f8c5")] {
        let p = &mut players[ply % 2];
        p.sync_to(ply, common::WAIT).await;
        p.play(
            ply,
            wire,
            Duration::from_secs(1),
            Instant::now() + Duration::from_secs(15),
        )
        .await;
        acked.push(wire.to_owned());
    }
    for node in [B, C] {
        assert_eq!(
            stored_moves(site.addr(node), &game).await,
            Some(acked.clone()),
            "the stored moves read through node {}",
            site.name(node)
        );
    }

    // The link returns. At once, a move for the position A last knew is still refused (A's copy of the table
    // must not take it); then A forwards White's real next move to the new owner.
    proxy.resume();
    let resumed = Instant::now();
    let answer = white_on_a
        .try_move(9002, stale_ply, "d2d4", Duration::from_secs(1))
        .await;
    eprintln!("the same stale move sent to A just after the link returned got {answer:?}");
    if let Some(answer) = &answer {
        assert_eq!(answer["t"], "error", "A acknowledged a stale move: {answer}");
    }
    let ply = acked.len();
    let played = white_on_a
        .play(
            ply,
            "e1g1",
            Duration::from_secs(1),
            resumed + Duration::from_secs(10),
        )
        .await;
    acked.push("e1g1".to_owned());
    eprintln!(
        "after the link returned, a move through A was acknowledged {:.2} s later ({} tries; refused: {})",
        (played.at - resumed).as_secs_f64(),
        played.tries,
        played.refused()
    );

    // All three nodes agree: the live state a fresh socket gets, the store, the owner.
    for node in [A, B, C] {
        let addr = site.addr(node);
        let mut last = Vec::new();
        let agreed = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let cookie = site.cookie(node).await;
                last = Player::fresh_moves(addr, &cookie, &table).await;
                if last == acked {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
        .await;
        assert!(
            agreed.is_ok(),
            "node {} shows {last:?}, acknowledged {acked:?}",
            site.name(node)
        );
        assert_eq!(stored_moves(addr, &game).await, Some(acked.clone()));
        assert_eq!(owner(addr, &table).await.as_deref(), Some(new_owner.as_str()));
    }
    if let Some(failure) = takeover_failure {
        panic!("{failure}");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// g. Chat, mute and block across nodes.

/// Reads chat lines at the table until one says `text`; returns them all (author id, text), that one last.
async fn chat_until(c: &mut Client, text: &str) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    loop {
        let v = c
            .until("chat", |v| v["t"] == "event" && v["event"]["e"] == "chat")
            .await;
        let line = (
            v["event"]["from"]["id"].as_str().unwrap_or_default().to_owned(),
            v["event"]["text"].as_str().unwrap_or_default().to_owned(),
        );
        let done = line.1 == text;
        lines.push(line);
        if done {
            return lines;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and Redis: set PARLOR_TEST_POSTGRES and PARLOR_TEST_REDIS and run with --ignored (.ci/run does)"]
async fn chat_mute_and_block_work_across_nodes() {
    let (pg, redis) = urls("marks");
    let site = Site::start("marks", &pg, &redis, |_| redis.clone()).await;
    // A table owned by C; X watches through A, Y through B, Z sits at C.
    let mut z = site.client(C).await;
    let (table, _, _) = z
        .create(json!({"game": "chess", "seats": [{"kind": "me"}, {"kind": "open"}]}))
        .await;
    let mut x = site.client(A).await;
    let mut y = site.client(B).await;
    for c in [&mut x, &mut y] {
        c.send(json!({"t": "open", "table": table})).await;
        c.expect("table").await;
    }
    // Chat crosses nodes both ways.
    let (xid, yid) = (x.id.clone(), y.id.clone());
    y.send(json!({"t": "chat", "table": table, "text": "hello from B"}))
        .await;
    for c in [&mut x, &mut y, &mut z] {
        assert_eq!(
            chat_until(c, "hello from B").await,
            [(yid.clone(), "hello from B".to_owned())]
        );
    }
    x.send(json!({"t": "chat", "table": table, "text": "hello from A"}))
        .await;
    for c in [&mut x, &mut y, &mut z] {
        assert_eq!(
            chat_until(c, "hello from A").await,
            [(xid.clone(), "hello from A".to_owned())]
        );
    }

    // X mutes Y on node A: the owner (C) stops sending Y's lines to X; Z still gets them.
    x.send(json!({"t": "relation", "player": y.id, "relation": "mute", "on": true}))
        .await;
    x.expect("relations").await;
    let muted = Instant::now();
    for round in 0.. {
        let (line, marker) = (format!("muted? {round}"), format!("marker {round}"));
        y.send(json!({"t": "chat", "table": table, "text": line})).await;
        chat_until(&mut y, &line).await;
        chat_until(&mut z, &line).await;
        z.send(json!({"t": "chat", "table": table, "text": marker})).await;
        chat_until(&mut y, &marker).await;
        chat_until(&mut z, &marker).await;
        // X sees the marker; Y's line before it only if the mute has not reached C yet.
        let seen = chat_until(&mut x, &marker).await;
        if seen.iter().all(|(author, _)| *author != y.id) {
            break;
        }
        assert!(
            muted.elapsed() < Duration::from_secs(5),
            "the mute never reached the owner: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "a mute set on node A filtered chat on the owner C after {:?}",
        muted.elapsed()
    );
    // Z leaves the seat and X (through A) takes it; then X blocks Y on node A. Y (through B) can no longer sit
    // with X at C's table, nor challenge X.
    z.send(json!({"t": "stand", "table": table})).await;
    z.until("stood", |v| {
        v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["seat"] == 0
    })
    .await;
    x.send(json!({"t": "sit", "table": table, "seat": 0})).await;
    x.until("seated", |v| {
        v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["info"]["player"]["id"] == xid.as_str()
    })
    .await;
    x.send(json!({"t": "relation", "player": yid, "relation": "block", "on": true}))
        .await;
    x.expect("relations").await;
    // A line from X through A reaches C after the news of the block (one publisher per node, in order).
    x.send(json!({"t": "chat", "table": table, "text": "barrier"}))
        .await;
    chat_until(&mut y, "barrier").await;
    y.send(json!({"t": "sit", "table": table, "seat": 1})).await;
    let refused = y
        .until("seat or error", |v| {
            v["t"] == "error" || (v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["seat"] == 1)
        })
        .await;
    assert_eq!(refused["code"], "blocked", "{refused}");
    y.send(json!({"t": "challenge", "to": x.id, "spec": {"game": "chess", "seats": [{"kind": "me"}]}}))
        .await;
    let refused = y.until("error", |v| v["t"] == "error").await;
    assert_eq!(refused["code"], "blocked", "{refused}");
}

//! `parlor loadtest`: real websocket clients playing real games (random legal moves) against a running server,
//! measuring moves per second, the move-to-opponent latency, and the server's CPU per move and memory (read
//! from its `/metrics`).
//!
//! Each game is one task holding both players' sockets. The player to move picks a random legal move from the
//! last event, sends it and notes the time; the latency is the time until the opponent's socket delivers the
//! `moved` event, which the server sends only after the move is stored. In a closed loop the answer goes out at
//! once; with a target rate each game waits its turn so the whole run averages that many moves per second. A
//! finished game is followed by a rematch at the same table.
//!
//! Against several nodes of one site (several URLs) game `i` seats its players on nodes `i` and `i + 1` (modulo the
//! number of nodes), so every game has its two players on different nodes and every move crosses nodes; the
//! server CPU and memory are the sums over the nodes.

use crate::metrics::{Stage, process_usage};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// `ws://HOST:PORT` of the server, or of each node of one site.
    pub urls: Vec<String>,
    /// Concurrent two-player games (twice as many sockets).
    pub games: usize,
    /// How long to measure.
    pub duration: Duration,
    /// Target moves per second over all games; `None` for a closed loop.
    pub rate: Option<f64>,
    /// Sockets opened at once while connecting.
    pub connect_parallel: usize,
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// Moves acknowledged during the measured time.
    pub moves: u64,
    /// Seconds measured.
    pub seconds: f64,
    /// Move-to-opponent latency percentiles in milliseconds: p50, p99, p99.9, max.
    pub latency_ms: [f64; 4],
    /// Server CPU seconds per move (from `/metrics`), if the server reports it.
    pub cpu_ms_per_move: Option<f64>,
    /// The load generator's own CPU seconds per move (this process), if /proc tells.
    pub generator_cpu_ms_per_move: Option<f64>,
    /// Server resident memory at the end, MiB.
    pub server_mib: Option<f64>,
    /// The stages of a move on the server (`/metrics`), in the order of [`Stage::ALL`], if it reports them.
    pub stages: Option<[StageFigure; Stage::ALL.len()]>,
    /// Games that could not be set up.
    pub failed_games: usize,
    /// Errors the server sent during the run.
    pub errors: u64,
    /// Nodes the games were spread over.
    pub nodes: usize,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.nodes > 1 {
            writeln!(
                f,
                "nodes           {} (each game's two players on different nodes)",
                self.nodes
            )?;
        }
        writeln!(f, "moves           {}", self.moves)?;
        writeln!(f, "moves/s         {:.0}", self.moves as f64 / self.seconds)?;
        let [p50, p99, p999, max] = self.latency_ms;
        writeln!(
            f,
            "latency ms      p50 {p50:.2}  p99 {p99:.2}  p99.9 {p999:.2}  max {max:.1}"
        )?;
        match self.cpu_ms_per_move {
            Some(cpu) if self.nodes > 1 => {
                writeln!(f, "server CPU      {:.1} µs per move (all nodes)", cpu * 1000.0)?
            }
            Some(cpu) => writeln!(f, "server CPU      {:.1} µs per move", cpu * 1000.0)?,
            None => writeln!(f, "server CPU      (not reported)")?,
        }
        if let Some(cpu) = self.generator_cpu_ms_per_move {
            writeln!(
                f,
                "generator CPU   {:.1} µs per move (this process, on the same machine)",
                cpu * 1000.0
            )?;
        }
        if let Some(stages) = &self.stages {
            writeln!(f, "stages          mean µs per pass (passes), µs per move")?;
            for (stage, figure) in Stage::ALL.iter().zip(stages) {
                writeln!(
                    f,
                    "  {:<10}    {:>8.1} ({:>8})  {:>8.1}",
                    stage.label(),
                    figure.mean_us,
                    figure.count,
                    figure.per_move_us
                )?;
            }
        }
        match self.server_mib {
            Some(m) if self.nodes > 1 => writeln!(f, "server memory   {m:.0} MiB resident (all nodes)")?,
            Some(m) => writeln!(f, "server memory   {m:.0} MiB resident")?,
            None => writeln!(f, "server memory   (not reported)")?,
        }
        writeln!(f, "failed games    {}", self.failed_games)?;
        write!(f, "server errors   {}", self.errors)
    }
}

/// One stage of a move, over the measured time.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageFigure {
    /// Times the stage was passed (moves; socket writes for [`Stage::Write`]).
    pub count: u64,
    /// Mean time per pass, microseconds.
    pub mean_us: f64,
    /// Time per measured move, microseconds (for writes: all writes' time over the moves).
    pub per_move_us: f64,
}

/// A load test that could not run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A URL is not `ws://host:port`, or there is none.
    #[error("each URL must look like ws://127.0.0.1:8080")]
    Url,
    /// A connection failed.
    #[error("connect: {0}")]
    Connect(String),
}

struct Shared {
    moves: AtomicU64,
    errors: AtomicU64,
    latencies: std::sync::Mutex<Vec<u32>>,
    measuring: std::sync::atomic::AtomicBool,
}

fn host_of(url: &str) -> Result<String, LoadError> {
    let host = url
        .strip_prefix("ws://")
        .ok_or(LoadError::Url)?
        .trim_end_matches('/');
    if host.contains('/') || !host.contains(':') {
        return Err(LoadError::Url);
    }
    Ok(host.to_owned())
}

async fn http_get(host: &str, path: &str) -> Result<(String, String), LoadError> {
    let err = |e: std::io::Error| LoadError::Connect(e.to_string());
    let mut stream = TcpStream::connect(host).await.map_err(err)?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.map_err(err)?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.map_err(err)?;
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    Ok((head.to_owned(), body.to_owned()))
}

/// What the servers' `/metrics` say at one moment, summed over the nodes; `None` for a figure any node does not
/// report.
#[derive(Clone, Copy, Debug)]
struct ServerFigures {
    /// `process_cpu_seconds_total`.
    cpu: Option<f64>,
    /// `process_resident_memory_bytes`.
    memory: Option<f64>,
    /// `parlor_move_stage_seconds` per stage: seconds and count.
    stages: Option<[(f64, f64); Stage::ALL.len()]>,
}

async fn server_figures(hosts: &[String]) -> ServerFigures {
    let mut sum = ServerFigures {
        cpu: Some(0.0),
        memory: Some(0.0),
        stages: Some([(0.0, 0.0); Stage::ALL.len()]),
    };
    for host in hosts {
        let node = server_figures_of(host).await;
        sum.cpu = sum.cpu.zip(node.cpu).map(|(a, b)| a + b);
        sum.memory = sum.memory.zip(node.memory).map(|(a, b)| a + b);
        sum.stages = sum.stages.zip(node.stages).map(|(mut a, b)| {
            for (a, b) in a.iter_mut().zip(b) {
                a.0 += b.0;
                a.1 += b.1;
            }
            a
        });
    }
    sum
}

/// Reads one node's `/metrics`.
async fn server_figures_of(host: &str) -> ServerFigures {
    let Ok((_, body)) = http_get(host, "/metrics").await else {
        return ServerFigures {
            cpu: None,
            memory: None,
            stages: None,
        };
    };
    let value = |name: &str| {
        body.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|v| v.trim().parse::<f64>().ok()))
    };
    let mut stages = [(0.0, 0.0); Stage::ALL.len()];
    let mut reported = true;
    for (i, stage) in Stage::ALL.into_iter().enumerate() {
        let label = stage.label();
        let sum = value(&format!("parlor_move_stage_seconds_sum{{stage=\"{label}\"}} "));
        let count = value(&format!("parlor_move_stage_seconds_count{{stage=\"{label}\"}} "));
        match sum.zip(count) {
            Some(figures) => stages[i] = figures,
            None => reported = false,
        }
    }
    ServerFigures {
        cpu: value("process_cpu_seconds_total "),
        memory: value("process_resident_memory_bytes "),
        stages: reported.then_some(stages),
    }
}

async fn client(host: &str) -> Result<Ws, LoadError> {
    let (head, _) = http_get(host, "/").await?;
    let cookie = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .and_then(|l| l.split_once(':'))
        .and_then(|(_, v)| v.trim().split(';').next())
        .ok_or_else(|| LoadError::Connect("no cookie from GET /".into()))?
        .to_owned();
    let mut request = format!("ws://{host}/ws")
        .into_client_request()
        .map_err(|e| LoadError::Connect(e.to_string()))?;
    let value = HeaderValue::from_str(&cookie).map_err(|e| LoadError::Connect(e.to_string()))?;
    request.headers_mut().insert("Cookie", value);
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
        .await
        .map_err(|e| LoadError::Connect(e.to_string()))?;
    send(
        &mut ws,
        json!({"t": "hello", "protocol": parlor_protocol::PROTOCOL_VERSION}),
    )
    .await?;
    expect(&mut ws, |v| v["t"] == "welcome").await?;
    Ok(ws)
}

async fn send(ws: &mut Ws, v: Value) -> Result<(), LoadError> {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .map_err(|e| LoadError::Connect(e.to_string()))
}

/// The next text frame.
async fn next_text(ws: &mut Ws) -> Result<tokio_tungstenite::tungstenite::Utf8Bytes, LoadError> {
    loop {
        match timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return Ok(t),
            Ok(Some(Ok(_))) => continue,
            _ => return Err(LoadError::Connect("socket closed or quiet for 30 s".into())),
        }
    }
}

/// The next frame as JSON (setting up a game, not in the measured loop).
async fn next(ws: &mut Ws) -> Result<Value, LoadError> {
    let text = next_text(ws).await?;
    serde_json::from_str(&text).map_err(|e| LoadError::Connect(e.to_string()))
}

async fn expect(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Result<Value, LoadError> {
    loop {
        let v = next(ws).await?;
        if pred(&v) {
            return Ok(v);
        }
    }
}

/// What the generator reads of a frame during play. Fields it does not name are skipped by the parser without
/// being built, and the strings borrow from the frame: the generator shares the server's two cores, so its
/// parsing is kept to what it needs (parsing every frame into a `serde_json::Value` took most of its CPU).
#[derive(Deserialize)]
struct Frame<'a> {
    #[serde(borrow)]
    t: Cow<'a, str>,
    #[serde(borrow, default)]
    event: Option<FrameEvent<'a>>,
}

/// The part of an `event` frame the generator reads.
#[derive(Deserialize)]
struct FrameEvent<'a> {
    #[serde(borrow)]
    e: Cow<'a, str>,
    #[serde(default)]
    ply: Option<u64>,
    #[serde(default)]
    turn: Option<u64>,
    #[serde(borrow, default)]
    legal: Option<Vec<Wire<'a>>>,
    #[serde(borrow, default)]
    game: Option<FrameGame<'a>>,
}

/// The part of a started game the generator reads.
#[derive(Deserialize)]
struct FrameGame<'a> {
    #[serde(default)]
    turn: Option<u64>,
    #[serde(borrow, default)]
    legal: Vec<Wire<'a>>,
    #[serde(default)]
    moves: Vec<IgnoredAny>,
}

/// A legal move: only its wire notation.
#[derive(Deserialize)]
struct Wire<'a> {
    #[serde(borrow)]
    wire: Cow<'a, str>,
}

impl Frame<'_> {
    /// The event's kind, if this is an event frame.
    fn event_kind(&self) -> Option<&str> {
        (self.t == "event")
            .then(|| self.event.as_ref().map(|e| e.e.as_ref()))
            .flatten()
    }
}

/// Reads a frame; one the generator cannot read is `None` (it only waits for the frames it knows).
fn frame(text: &str) -> Option<Frame<'_>> {
    serde_json::from_str(text).ok()
}

fn to_wires(legal: &[Wire<'_>]) -> Vec<String> {
    legal.iter().map(|m| m.wire.clone().into_owned()).collect()
}

/// Sets up one game: two sockets (the first on `hosts.0`, the second on `hosts.1`) at a private table created by
/// the first, game started. Returns the sockets and the started state.
async fn setup(hosts: (&str, &str)) -> Result<(Ws, Ws, String, Value), LoadError> {
    let mut a = client(hosts.0).await?;
    let mut b = client(hosts.1).await?;
    send(
        &mut a,
        json!({"t": "create", "spec": {"game": "chess", "private": true, "seats": [{"kind": "me"}]}}),
    )
    .await?;
    let created = expect(&mut a, |v| v["t"] == "created").await?;
    let table = created["table"].as_str().unwrap_or_default().to_owned();
    send(&mut b, json!({"t": "sit", "table": table})).await?;
    let started = expect(&mut b, |v| v["t"] == "event" && v["event"]["e"] == "started").await?;
    expect(&mut a, |v| v["t"] == "event" && v["event"]["e"] == "started").await?;
    Ok((a, b, table, started["event"]["game"].clone()))
}

/// Plays games at one table until `end`.
async fn play(
    mut socks: [Ws; 2],
    table: String,
    start: Value,
    shared: Arc<Shared>,
    interval: Option<Duration>,
    end: Instant,
) {
    let mut turn = start["turn"].as_u64().unwrap_or(0) as usize;
    let mut legal: Vec<String> = wires(&start["legal"]);
    let mut ply = start["moves"].as_array().map_or(0, Vec::len) as u64;
    let mut next_at = Instant::now() + interval.map_or(Duration::ZERO, |i| i.mul_f64(rand::random::<f64>()));
    let mut ack = 0u64;
    while Instant::now() < end {
        if legal.is_empty() {
            // Game over: rematch (both ask), wait for the new game.
            for s in socks.iter_mut() {
                if send(s, json!({"t": "rematch", "table": table})).await.is_err() {
                    return;
                }
            }
            let started = loop {
                let Ok(text) = next_text(&mut socks[0]).await else {
                    return;
                };
                let Some(game) = frame(&text)
                    .filter(|f| f.event_kind() == Some("started"))
                    .and_then(|f| f.event.and_then(|e| e.game))
                else {
                    continue;
                };
                break (
                    game.turn.unwrap_or(0) as usize,
                    to_wires(&game.legal),
                    game.moves.len() as u64,
                );
            };
            (turn, legal, ply) = started;
            continue;
        }
        if let Some(i) = interval {
            sleep_until(next_at).await;
            next_at += i;
        }
        let wire = &legal[rand::random_range(0..legal.len())];
        ack += 1;
        let sent = Instant::now();
        let text = format!(
            r#"{{"t":"move","table":{},"ack":{ack},"ply":{ply},"wire":{}}}"#,
            Value::from(table.as_str()),
            Value::from(wire.as_str())
        );
        if socks[turn].send(Message::Text(text.into())).await.is_err() {
            return;
        }
        // Wait for the opponent's copy of the move (that is the latency) and, on the mover's socket, for its ack
        // and own copy, so that neither socket backs up. A refusal (the server's rate limit, say) comes to the mover
        // alone: it is counted, and the move is tried again after a pause.
        let [first, second] = &mut socks;
        let (mover, opponent) = if turn == 0 {
            (first, second)
        } else {
            (second, first)
        };
        let mut moved = None;
        let mut got_ack = false;
        let mut got_event = false;
        let mut refused = false;
        while !refused && (moved.is_none() || !(got_ack && got_event)) {
            tokio::select! {
                text = next_text(opponent), if moved.is_none() => {
                    let Ok(text) = text else { return };
                    match frame(&text) {
                        Some(Frame { t, event: Some(event) }) if t == "event" && event.e == "moved" => {
                            let latency = sent.elapsed();
                            if shared.measuring.load(Ordering::Relaxed) {
                                shared.moves.fetch_add(1, Ordering::Relaxed);
                                if let Ok(mut latencies) = shared.latencies.lock() {
                                    latencies.push(latency.as_micros().min(u128::from(u32::MAX)) as u32);
                                }
                            }
                            let legal = event.legal.as_deref().map(to_wires).unwrap_or_default();
                            moved = Some((event.ply, event.turn, legal));
                        }
                        Some(f) if f.t == "error" => {
                            shared.errors.fetch_add(1, Ordering::Relaxed);
                        }
                        _ => {}
                    }
                }
                text = next_text(mover), if !(got_ack && got_event) => {
                    let Ok(text) = text else { return };
                    match frame(&text) {
                        Some(f) if f.t == "ack" => got_ack = true,
                        Some(f) if f.event_kind() == Some("moved") => got_event = true,
                        Some(f) if f.t == "error" => {
                            shared.errors.fetch_add(1, Ordering::Relaxed);
                            refused = true;
                        }
                        _ => {}
                    }
                }
            }
        }
        let Some(moved) = moved else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let (moved_ply, moved_turn, moved_legal) = moved;
        ply = moved_ply.unwrap_or(ply + 1);
        legal = moved_legal;
        match moved_turn {
            Some(t) => turn = t as usize,
            // The game ended. Both sockets get `ended`; the next loop reads past it on the opponent's socket.
            None => legal.clear(),
        }
    }
}

fn wires(legal: &Value) -> Vec<String> {
    legal.as_array().map_or_else(Vec::new, |l| {
        l.iter()
            .filter_map(|m| m["wire"].as_str().map(str::to_owned))
            .collect()
    })
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i.min(sorted.len() - 1)]) / 1000.0
}

/// Runs the plan and reports.
///
/// # Errors
/// [`LoadError`] when a URL is wrong or missing, or no game at all could be set up.
pub async fn run(plan: &Plan) -> Result<Report, LoadError> {
    let hosts = plan
        .urls
        .iter()
        .map(|u| host_of(u))
        .collect::<Result<Vec<_>, _>>()?;
    if hosts.is_empty() {
        return Err(LoadError::Url);
    }
    let shared = Arc::new(Shared {
        moves: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        latencies: std::sync::Mutex::new(Vec::new()),
        measuring: std::sync::atomic::AtomicBool::new(false),
    });
    // Connect every game first, a bounded number at a time.
    let semaphore = Arc::new(tokio::sync::Semaphore::new(plan.connect_parallel.max(1)));
    let mut setups = tokio::task::JoinSet::new();
    for i in 0..plan.games {
        let first = hosts[i % hosts.len()].clone();
        let second = hosts[(i + 1) % hosts.len()].clone();
        let semaphore = semaphore.clone();
        setups.spawn(async move {
            let _permit = semaphore.acquire_owned().await;
            setup((&first, &second)).await
        });
    }
    let mut ready = Vec::new();
    let mut failed = 0;
    while let Some(result) = setups.join_next().await {
        match result {
            Ok(Ok(game)) => ready.push(game),
            _ => failed += 1,
        }
    }
    if ready.is_empty() {
        return Err(LoadError::Connect(format!(
            "no game could be set up ({failed} failed)"
        )));
    }
    eprintln!(
        "{} games ready ({} sockets); playing for {:?}",
        ready.len(),
        ready.len() * 2,
        plan.duration
    );
    let interval = plan
        .rate
        .map(|r| Duration::from_secs_f64(ready.len() as f64 / r.max(0.001)));
    let warmup = Duration::from_secs(2);
    let end = Instant::now() + warmup + plan.duration;
    let mut players = tokio::task::JoinSet::new();
    for (a, b, table, start) in ready {
        players.spawn(play([a, b], table, start, shared.clone(), interval, end));
    }
    tokio::time::sleep(warmup).await;
    let before = server_figures(&hosts).await;
    let generator_before = process_usage().map(|(cpu, _)| cpu);
    let moves_before = shared.moves.load(Ordering::Relaxed);
    shared.measuring.store(true, Ordering::Relaxed);
    let started = Instant::now();
    tokio::time::sleep_until(end).await;
    shared.measuring.store(false, Ordering::Relaxed);
    let seconds = started.elapsed().as_secs_f64();
    let generator_after = process_usage().map(|(cpu, _)| cpu);
    let after = server_figures(&hosts).await;
    players.abort_all();
    let moves = shared.moves.load(Ordering::Relaxed) - moves_before;
    let mut latencies = shared
        .latencies
        .lock()
        .map(|mut l| std::mem::take(&mut *l))
        .unwrap_or_default();
    latencies.sort_unstable();
    let per_move = |before: Option<f64>, after: Option<f64>| match (before, after) {
        (Some(b), Some(a)) if moves > 0 => Some((a - b) / moves as f64 * 1000.0),
        _ => None,
    };
    let stages = before.stages.zip(after.stages).map(|(b, a)| {
        let mut stages = [StageFigure::default(); Stage::ALL.len()];
        for (i, figure) in stages.iter_mut().enumerate() {
            let (seconds, count) = (a[i].0 - b[i].0, a[i].1 - b[i].1);
            figure.count = count as u64;
            if count > 0.0 {
                figure.mean_us = seconds / count * 1e6;
            }
            if moves > 0 {
                figure.per_move_us = seconds / moves as f64 * 1e6;
            }
        }
        stages
    });
    Ok(Report {
        moves,
        seconds,
        latency_ms: [
            percentile(&latencies, 0.50),
            percentile(&latencies, 0.99),
            percentile(&latencies, 0.999),
            percentile(&latencies, 1.0),
        ],
        cpu_ms_per_move: per_move(before.cpu, after.cpu),
        generator_cpu_ms_per_move: per_move(generator_before, generator_after),
        server_mib: after.memory.map(|m| m / (1024.0 * 1024.0)),
        stages,
        failed_games: failed,
        errors: shared.errors.load(Ordering::Relaxed),
        nodes: hosts.len(),
    })
}

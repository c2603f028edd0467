//! The `parlor` command: parses flags and calls into the crates. No game logic lives here.

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use parlor_game::bench::{Sample, compare};
use parlor_game::{DraughtsVariant, GameKind, perft, perft_divide};
use std::time::Instant;

mod logging;

/// The allocator: a move allocates and frees many small buffers (messages, legal moves, rows) on several threads;
/// with glibc's malloc a busy server spent about 11% of its CPU in the allocator, and with mimalloc it uses 15% less
/// CPU per move. Its `no_thp` feature leaves transparent huge pages off, which keeps the resident memory of 10,000
/// sockets near glibc's (244 against 222 MiB). Figures: docs/results/2026-12-05-server-core.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Environment variables every subcommand reads, shown under `--help` (each flag's own variable is shown beside
/// it).
const ENVIRONMENT: &str = "Environment:
  PARLOR_CPU_THREADS  most threads one CPU search uses (a whole number from 1; default: the machine's cores)
  NO_COLOR            set (not empty): no colour in the log, even on a terminal
  Each flag of `parlor serve` may also come from the variable named beside it in `parlor serve --help`.";

/// Parlor: chess, draughts and four-player chess in the browser, self-hosted.
#[derive(Parser, Debug)]
#[command(version, about, after_help = ENVIRONMENT)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the site (the default when no subcommand is given).
    #[command(after_help = ENVIRONMENT)]
    Serve(ServeArgs),
    /// Count the leaf nodes of the legal move tree (checks a move generator).
    Perft(PerftArgs),
    /// Our chess engine over UCI (for chess GUIs and match tools).
    Uci,
    /// Our International draughts engine over the Hub protocol (Scan's; for the Hub GUI and match tools).
    Hub,
    /// Play games between engines or levels and estimate the Elo difference.
    Match(MatchArgs),
    /// Load a running server with real websocket clients playing random legal moves.
    Loadtest(LoadtestArgs),
    /// Measure speed.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Draw a position as a PNG or SVG picture (as the server's /image/ routes do).
    Image(ImageArgs),
}

#[derive(Args, Debug)]
struct ImageArgs {
    /// chess, draughts or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// The position: FEN (chess) or PDN FEN (draughts); the start position if absent.
    #[arg(long)]
    fen: Option<String>,
    /// Four-player position (FEN4); the start position if absent.
    #[arg(long)]
    fen4: Option<String>,
    /// Draughts variant: english, international, russian or pool.
    #[arg(long)]
    variant: Option<String>,
    /// Seat at the bottom: white/black, or red/blue/yellow/green.
    #[arg(long)]
    orientation: Option<String>,
    /// Last move to shade: e2e4, h2-h4, 32-28.
    #[arg(long)]
    lastmove: Option<String>,
    /// Kings to ring: auto, off, or squares (e1).
    #[arg(long)]
    check: Option<String>,
    /// Side in pixels (64 to 2048, default 512).
    #[arg(long)]
    size: Option<String>,
    /// Coordinates: on or off.
    #[arg(long)]
    coords: Option<String>,
    /// light or dark.
    #[arg(long)]
    theme: Option<String>,
    /// Output file: `.svg` writes SVG, anything else PNG.
    #[arg(short, long)]
    output: std::path::PathBuf,
}

#[derive(Args, Debug)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "PARLOR_LISTEN", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Storage: `sqlite://FILE?mode=rwc` (the default, a file next to you) or `postgres://USER@HOST/DB`.
    #[arg(
        long,
        env = "PARLOR_DATABASE_URL",
        default_value = "sqlite://parlor.db?mode=rwc"
    )]
    database: String,
    /// Seconds a seated player may stay away before losing (two-player) or handing the seat to a CPU (four-player).
    #[arg(long, env = "PARLOR_GRACE_SECONDS", default_value_t = 60)]
    grace_seconds: u64,
    /// Join a site of several nodes: Redis carries routing, presence and messages between them (needs a
    /// PostgreSQL --database shared by every node). Without it the node runs alone.
    #[arg(long, env = "PARLOR_REDIS_URL")]
    redis: Option<String>,
    /// Prefix of the site's Redis keys and channels (two sites may share one Redis with different prefixes).
    #[arg(long, env = "PARLOR_REDIS_PREFIX", default_value = "parlor")]
    redis_prefix: String,
    /// This node's name in the site, unique (default: the host name, process id and start time).
    #[arg(long, env = "PARLOR_NODE")]
    node: Option<String>,
    /// Milliseconds a table's lease lives without renewal: a dead node's tables move after about this long.
    #[arg(long, env = "PARLOR_LEASE_MS", default_value_t = 3000)]
    lease_ms: u64,
    /// Seconds a client has to send a request's headers; also how long an idle keep-alive connection stays.
    #[arg(long, env = "PARLOR_HEADER_TIMEOUT_SECONDS", default_value_t = 10)]
    header_timeout_seconds: u64,
    /// Connections at once (HTTP and websocket); default 32768, and always below the open-file limit.
    #[arg(long, env = "PARLOR_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// Connections at once from one client address (an IPv6 /64); trusted proxies are not capped.
    #[arg(long, env = "PARLOR_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    max_connections_per_address: usize,
    /// What to log, in tracing's filter syntax: `info`, `debug`, `warn,parlor_server=debug`.
    #[arg(long, env = "PARLOR_LOG", default_value = "info")]
    log: String,
    /// How log lines are written to stderr: `text` (coloured only on a terminal) or `json` (one object a line).
    #[arg(long, env = "PARLOR_LOG_FORMAT", default_value = "text", value_parser = ["text", "json"])]
    log_format: String,
    /// The site's address as players reach it (`https://play.example.org`), for links in exported games;
    /// without it each request's Host (and the scheme a trusted proxy reports) is used.
    #[arg(long, env = "PARLOR_PUBLIC_URL")]
    public_url: Option<String>,
    /// Another origin whose pages may open the websocket (`https://play.example.org`), besides the site's own
    /// (the request's Host); repeatable or comma separated.
    #[arg(long = "origin", env = "PARLOR_ORIGINS", value_delimiter = ',')]
    origins: Vec<String>,
    /// A reverse proxy (IP or CIDR block) whose X-Forwarded-For and X-Forwarded-Proto are believed; repeatable
    /// or comma separated; `none` for no proxy.
    #[arg(
        long = "trusted-proxy",
        env = "PARLOR_TRUSTED_PROXIES",
        value_delimiter = ',',
        default_value = "127.0.0.0/8,::1"
    )]
    trusted_proxies: Vec<String>,
    /// Engine searches at once for the analysis board and game reviews, one thread each (default: one fewer than
    /// the machine's cores, at least one, so live games keep a core).
    #[arg(long, env = "PARLOR_ANALYSIS_SLOTS", value_parser = clap::value_parser!(u64).range(1..=256))]
    analysis_slots: Option<u64>,
    /// Milliseconds the engine thinks on each position of a game review.
    #[arg(long, env = "PARLOR_REVIEW_MS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(10..=10_000))]
    review_ms: u64,
}

#[derive(Args, Debug)]
struct MatchArgs {
    /// chess, draughts/<variant> or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// First player: a level (1 to 8, or easy, medium, hard), random, an external UCI engine's command (chess),
    /// or `hub:` and a Hub engine's command (draughts; the program starts in its own folder).
    #[arg(long)]
    a: String,
    /// Second player, as --a.
    #[arg(long)]
    b: String,
    /// Options for --a, `Name=value` (repeatable): an external engine's (UCI `setoption`, Hub `set` /
    /// `set-param`), or for a level changes of its search parameters (`threats=0`, `network=false`, `max_depth=6`;
    /// the fields of `LevelParams`), to weigh a change against the level as it stands.
    #[arg(long = "a-option")]
    a_options: Vec<String>,
    /// Options for --b, as --a-option.
    #[arg(long = "b-option")]
    b_options: Vec<String>,
    /// Games to play (colours alternate).
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// A game clock for each player instead of --movetime, `<seconds>+<increment seconds>` (60+1): a player whose
    /// time runs out loses. Chess and draughts.
    #[arg(long)]
    clock: Option<String>,
    /// Games at once (default: the number of cores divided by the threads of the busier player).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Seed of the players' randomness (a level's noise, the random mover) and, for chess, of where the
    /// openings start: seed n starts where a match of as many games with seed n - 1 stopped.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game that reaches this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Print each game's moves.
    #[arg(long)]
    show_moves: bool,
}

#[derive(Args, Debug)]
struct BenchSearchArgs {
    /// chess, draughts/<variant> or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Fixed depth.
    #[arg(long, default_value_t = parlor_ai::bench::CHESS_BENCH_DEPTH)]
    depth: u32,
}

#[derive(Args, Debug)]
struct BenchClockArgs {
    /// Timed searches with random clocks.
    #[arg(long, default_value_t = 200)]
    searches: usize,
    /// Searches stopped by the stop flag.
    #[arg(long, default_value_t = 20)]
    stops: usize,
    /// Seed.
    #[arg(long, default_value_t = 7)]
    seed: u64,
}

#[derive(Args, Debug)]
struct LoadtestArgs {
    /// The server, `ws://HOST:PORT`; for a site of several nodes, each node's URL separated by commas (each
    /// game then has its two players on different nodes).
    #[arg(long, value_delimiter = ',', required = true)]
    url: Vec<String>,
    /// Concurrent two-player games (two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seconds to measure (after a 2 s warm-up).
    #[arg(long, default_value_t = 10)]
    duration: u64,
    /// Target moves per second over all games; without it, a closed loop (each side answers at once).
    #[arg(long)]
    rate: Option<f64>,
    /// Sockets connecting at once.
    #[arg(long, default_value_t = 64)]
    connect_parallel: usize,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// chess, draughts or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Draughts variant: english, international, russian or pool.
    #[arg(long, default_value = "english")]
    variant: DraughtsVariant,
    /// Start position (FEN, or PDN FEN for draughts); the standard start if absent.
    #[arg(long)]
    fen: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Four-player start position (FEN4); the standard start if absent.
    #[arg(long)]
    fen4: Option<String>,
    /// Four-player: Teams legality (as the team-mode reference numbers) instead of free-for-all.
    #[arg(long)]
    teams: bool,
    /// Four-player: count where free-for-all and Teams legality differ inside the tree.
    #[arg(long)]
    compare_teams: bool,
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// Perft speed: nodes per second through our traits (and, for chess, through shakmaty directly).
    Perft(BenchPerftArgs),
    /// Nodes searched at a fixed depth on a fixed position set.
    Search(BenchSearchArgs),
    /// Search timing: budgets kept and stop flags obeyed.
    Clock(BenchClockArgs),
    /// PNG renders per second for each game, and the time of a cache hit.
    Image(BenchImageArgs),
    /// The time to review a game (every position searched, as the server's reviews do) on one engine place.
    Review(BenchReviewArgs),
}

#[derive(Args, Debug)]
struct BenchReviewArgs {
    /// chess, draughts/<variant> or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Plies of the reviewed game (made by the engine playing itself).
    #[arg(long, default_value_t = 120)]
    plies: usize,
    /// Milliseconds per position (the server's --review-ms).
    #[arg(long, default_value_t = 100)]
    review_ms: u64,
    /// Games reviewed; the median is reported.
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

#[derive(Args, Debug)]
struct BenchImageArgs {
    /// Image side in pixels.
    #[arg(long, default_value_t = 512)]
    size: u32,
    /// Timed runs per game; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Renders per run.
    #[arg(long, default_value_t = 100)]
    renders: u64,
}

#[derive(Args, Debug)]
struct BenchPerftArgs {
    /// chess, draughts or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Timed runs per workload; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Four-player: start position (FEN4) and depth to time.
    #[arg(long)]
    fen4: Option<String>,
    /// Four-player: depth to time.
    #[arg(long, default_value_t = 6)]
    depth: u32,
}

fn main() -> Result<()> {
    // Every CPU search reads this cap; a mistyped value would otherwise be ignored without a word.
    parlor_ai::chess::cpu_threads_setting()?;
    // No subcommand means `serve` with its flags' defaults and environment variables.
    let command = Cli::parse()
        .command
        .or_else(|| Cli::parse_from(["parlor", "serve"]).command);
    let Some(command) = command else {
        bail!("no command")
    };
    match command {
        Command::Serve(args) => serve(args),
        Command::Loadtest(args) => loadtest(args),
        Command::Uci => Ok(parlor_ai::uci::run(std::io::stdin().lock(), std::io::stdout())?),
        Command::Hub => Ok(parlor_ai::draughts::hub::run(
            std::io::BufReader::new(std::io::stdin()),
            std::io::stdout(),
        )?),
        Command::Match(args) => run_match(&args),
        Command::Bench(BenchCommand::Search(args)) => {
            parlor_ai::bench::print_search(game_kind(&args.game)?, args.depth)?;
            Ok(())
        }
        Command::Bench(BenchCommand::Review(args)) => {
            let runtime = tokio::runtime::Runtime::new()?;
            let think = std::time::Duration::from_millis(args.review_ms);
            runtime.block_on(parlor_server::review::bench(
                &args.game,
                args.plies,
                think,
                args.runs.max(1),
            ))?;
            Ok(())
        }
        Command::Bench(BenchCommand::Clock(args)) => {
            parlor_ai::bench::print_timing(args.searches, args.stops, args.seed);
            Ok(())
        }
        Command::Perft(args) => run_perft(&args),
        Command::Bench(BenchCommand::Perft(args)) => bench_perft(&args),
        Command::Bench(BenchCommand::Image(args)) => {
            parlor_image::bench::bench(args.runs, args.renders, args.size, |line| println!("{line}"))?;
            Ok(())
        }
        Command::Image(args) => image(&args),
    }
}

fn image(args: &ImageArgs) -> Result<()> {
    let given = [
        ("fen", &args.fen),
        ("fen4", &args.fen4),
        ("variant", &args.variant),
        ("orientation", &args.orientation),
        ("lastmove", &args.lastmove),
        ("check", &args.check),
        ("size", &args.size),
        ("coords", &args.coords),
        ("theme", &args.theme),
    ];
    let pairs = given
        .iter()
        .filter_map(|(name, value)| Some((*name, value.as_deref()?)));
    let request = parlor_image::Request::from_pairs(&args.game, pairs)?;
    let bytes = if args.output.extension().is_some_and(|e| e == "svg") {
        request.svg().into_bytes()
    } else {
        parlor_image::Renderer::new().png(&request)?
    };
    std::fs::write(&args.output, bytes).with_context(|| format!("writing {}", args.output.display()))
}

fn serve(args: ServeArgs) -> Result<()> {
    use std::io::Write as _;
    logging::init(&args.log, args.log_format == "json")?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        // On stdout for scripts and tests; a closed stdout must not stop the server.
        let _ = writeln!(
            std::io::stdout(),
            "Parlor is running at http://{}",
            listener.local_addr()?
        );
        let cluster = args.redis.map(|redis| parlor_server::cluster::ClusterConfig {
            redis,
            prefix: args.redis_prefix,
            node: args.node.unwrap_or_else(default_node_name),
            lease: std::time::Duration::from_millis(args.lease_ms.max(400)),
        });
        let trusted_proxies = args
            .trusted_proxies
            .iter()
            .filter(|p| !p.trim().is_empty() && p.trim() != "none")
            .map(|p| p.parse())
            .collect::<Result<Vec<parlor_server::proxy::IpNet>, _>>()?;
        let public_url = match args
            .public_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
        {
            Some(url) if url.starts_with("http://") || url.starts_with("https://") => Some(url.to_owned()),
            Some(url) => bail!("--public-url must start with http:// or https:// (it is {url:?})"),
            None => None,
        };
        let config = parlor_server::Config {
            database: args.database,
            grace: std::time::Duration::from_secs(args.grace_seconds),
            cluster,
            header_timeout: std::time::Duration::from_secs(args.header_timeout_seconds.max(1)),
            max_connections: args.max_connections,
            max_connections_per_address: args.max_connections_per_address,
            origins: args
                .origins
                .into_iter()
                .filter(|o| !o.trim().is_empty())
                .collect(),
            trusted_proxies,
            public_url,
            analysis_slots: args.analysis_slots.map(|n| n as usize),
            review_think: std::time::Duration::from_millis(args.review_ms),
            ..parlor_server::Config::default()
        };
        let shutdown = tokio_util::sync::CancellationToken::new();
        let on_signal = shutdown.clone();
        tokio::spawn(async move {
            let ctrl_c = tokio::signal::ctrl_c();
            #[cfg(unix)]
            {
                match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                    Ok(mut term) => tokio::select! { _ = ctrl_c => {}, _ = term.recv() => {} },
                    Err(e) => {
                        tracing::error!("no SIGTERM handler ({e}): only Ctrl-C stops the server gracefully");
                        let _ = ctrl_c.await;
                    }
                }
            }
            #[cfg(not(unix))]
            let _ = ctrl_c.await;
            // Cancel before logging: nothing that happens to the log may keep the server from stopping.
            on_signal.cancel();
            tracing::info!("shutting down: finishing every table");
        });
        parlor_server::run(listener, config, shutdown).await?;
        Ok(())
    })
}

/// A node name that differs between machines and between runs: the host name, the process id and the time.
fn default_node_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "node".to_owned());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{host}-{}-{:05x}", std::process::id(), nanos >> 12)
}

fn loadtest(args: LoadtestArgs) -> Result<()> {
    let plan = parlor_server::loadtest::Plan {
        urls: args.url,
        games: args.games,
        duration: std::time::Duration::from_secs(args.duration),
        rate: args.rate,
        connect_parallel: args.connect_parallel,
    };
    let report = tokio::runtime::Runtime::new()?.block_on(parlor_server::loadtest::run(&plan))?;
    println!("{report}");
    Ok(())
}

fn run_match(args: &MatchArgs) -> Result<()> {
    use parlor_ai::arena::{MatchConfig, PlayerSpec};
    use parlor_ai::matches::print_match;
    let (game, a, b) = (
        game_kind(&args.game)?,
        PlayerSpec::parse(&args.a, &args.a_options)?,
        PlayerSpec::parse(&args.b, &args.b_options)?,
    );
    let cfg = MatchConfig {
        games: args.games,
        movetime: std::time::Duration::from_millis(args.movetime),
        clock: args
            .clock
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|e: String| anyhow::anyhow!("--clock {e}"))?,
        concurrency: args.concurrency.unwrap_or_else(|| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            (cores / a.threads(game).max(b.threads(game))).max(1)
        }),
        game,
        a,
        b,
        seed: args.seed,
        max_plies: args.max_plies,
    };
    print_match(&cfg, args.show_moves)?;
    Ok(())
}

fn game_kind(name: &str) -> Result<GameKind> {
    name.parse().with_context(|| format!("--game {name}"))
}

fn print_perft<P: parlor_game::Position>(pos: &P, args: &PerftArgs) {
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = perft_divide(pos, args.depth);
        for (name, count) in &rows {
            println!("{name}: {count}");
        }
        println!();
        rows.iter().map(|(_, c)| c).sum()
    } else {
        perft(pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "{:.3} s, {:.1} M nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}

fn run_perft(args: &PerftArgs) -> Result<()> {
    let kind = match game_kind(&args.game)? {
        GameKind::Draughts(_) => GameKind::Draughts(args.variant),
        other => other,
    };
    match kind {
        GameKind::Draughts(variant) => {
            let report =
                parlor_draughts::bench::perft_report(variant, args.fen.as_deref(), args.depth, args.divide)?;
            print!("{report}");
        }
        GameKind::Chess4 => {
            let pos =
                parlor_chess4::perft::cli_position(args.fen4.as_deref().or(args.fen.as_deref()), args.teams)?;
            if args.compare_teams {
                println!("{:?}", parlor_chess4::perft::compare_rules(&pos, args.depth));
            } else {
                print!(
                    "{}",
                    parlor_chess4::perft::perft_report(&pos, args.depth, args.divide)
                );
            }
        }
        GameKind::Chess => {
            let pos = match &args.fen {
                Some(fen) => parlor_chess::Position::from_fen(fen)?,
                None => parlor_chess::Position::start(),
            };
            print_perft(&pos, args);
        }
    }
    Ok(())
}

fn report(label: &str, sample: &Sample) {
    println!(
        "{label:<34} {:>12} nodes  {:>8.3} s  {:>7.1} M nodes/s",
        sample.count,
        sample.median.as_secs_f64(),
        sample.per_second() / 1e6
    );
}

fn bench_perft(args: &BenchPerftArgs) -> Result<()> {
    match game_kind(&args.game)? {
        GameKind::Chess => {
            println!(
                "chess perft, median of {} runs, our trait vs shakmaty direct (interleaved)",
                args.runs
            );
            let positions = [
                (
                    "start",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    6,
                ),
                (
                    "kiwipete",
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                    5,
                ),
            ];
            let mut ratios = Vec::new();
            for (name, fen, depth) in positions {
                let ours = parlor_chess::Position::from_fen(fen)?;
                let direct = ours.inner().clone();
                let samples = compare(
                    args.runs,
                    &mut [&mut || perft(&ours, depth), &mut || {
                        parlor_chess::shakmaty::perft(&direct, depth)
                    }],
                );
                report(&format!("{name} d{depth} parlor_game::Position"), &samples[0]);
                report(&format!("{name} d{depth} shakmaty direct"), &samples[1]);
                let ratio = samples[0].per_second() / samples[1].per_second();
                println!("{name} d{depth} ratio trait/direct: {ratio:.3}");
                ratios.push(ratio);
            }
            let worst = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            println!("worst ratio: {worst:.3} (target >= 0.90)");
        }
        GameKind::Draughts(_) => {
            println!("draughts perft, median of {} runs", args.runs);
            parlor_draughts::bench::bench_perft(args.runs, |r| println!("{r}"))?;
        }
        GameKind::Chess4 => {
            let pos = parlor_chess4::perft::cli_position(args.fen4.as_deref(), false)?;
            print!(
                "{}",
                parlor_chess4::perft::bench_report(&pos, args.depth, args.runs, args.fen4.is_none())?
            );
        }
    }
    Ok(())
}

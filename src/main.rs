//! The `parlor` command: parses flags and calls into the crates. No game logic lives here.

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use parlor_game::bench::{Sample, compare};
use parlor_game::{GameKind, perft, perft_divide};
use std::time::Instant;

/// Parlor: chess, draughts and four-player chess in the browser, self-hosted.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree (checks a move generator).
    Perft(PerftArgs),
    /// Measure speed.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Speak UCI on stdin/stdout: our chess engine for GUIs and match tools.
    Uci,
    /// Play a match between two players and print W/D/L and an Elo estimate.
    Match(MatchArgs),
}

#[derive(Args, Debug)]
struct MatchArgs {
    /// chess (draughts and chess4 follow).
    #[arg(long, default_value = "chess")]
    game: String,
    /// Player A (reported): easy, medium, hard, random, or a UCI engine command such as /usr/games/stockfish.
    #[arg(long)]
    a: String,
    /// Player B.
    #[arg(long)]
    b: String,
    /// An option for an engine A as `Name=value` (repeatable), e.g. "Skill Level=10".
    #[arg(long = "a-option")]
    a_options: Vec<String>,
    /// An option for an engine B as `Name=value` (repeatable).
    #[arg(long = "b-option")]
    b_options: Vec<String>,
    /// Number of games (each opening twice, colours swapped).
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Games at once (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Seed of the levels' and the random mover's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games longer than this many plies are drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Print each game's moves.
    #[arg(long)]
    show_moves: bool,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// chess, draughts or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Start position (FEN); the standard start if absent.
    #[arg(long)]
    fen: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// Perft speed: nodes per second through our traits (and, for chess, through shakmaty directly).
    Perft(BenchPerftArgs),
    /// Nodes searched at a fixed depth on a fixed position set (a change of search behaviour changes them).
    Search(BenchSearchArgs),
    /// Timed searches with random clocks and stop-flag searches: how late any returned.
    Clock(BenchClockArgs),
}

#[derive(Args, Debug)]
struct BenchSearchArgs {
    /// chess (draughts and chess4 follow).
    #[arg(long, default_value = "chess")]
    game: String,
    /// Depth in plies.
    #[arg(long, default_value_t = parlor_ai::bench::CHESS_BENCH_DEPTH)]
    depth: u32,
}

#[derive(Args, Debug)]
struct BenchClockArgs {
    /// Searches with random clocks.
    #[arg(long, default_value_t = 200)]
    searches: usize,
    /// Searches ended by the stop flag.
    #[arg(long, default_value_t = 20)]
    stops: usize,
    /// Seed of the random clocks.
    #[arg(long, default_value_t = 7)]
    seed: u64,
}

#[derive(Args, Debug)]
struct BenchPerftArgs {
    /// chess, draughts or chess4.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Timed runs per workload; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Perft(args) => run_perft(&args),
        Command::Bench(BenchCommand::Perft(args)) => bench_perft(&args),
        Command::Bench(BenchCommand::Search(args)) => {
            parlor_ai::bench::print_search(game_kind(&args.game)?, args.depth)?;
            Ok(())
        }
        Command::Bench(BenchCommand::Clock(args)) => {
            parlor_ai::bench::print_timing(args.searches, args.stops, args.seed);
            Ok(())
        }
        Command::Uci => Ok(parlor_ai::uci::run(std::io::stdin().lock(), std::io::stdout())?),
        Command::Match(args) => run_match(&args),
    }
}

fn run_match(args: &MatchArgs) -> Result<()> {
    use parlor_ai::arena::{MatchConfig, PlayerSpec, print_match};
    let cfg = MatchConfig {
        game: game_kind(&args.game)?,
        a: PlayerSpec::parse(&args.a, &args.a_options)?,
        b: PlayerSpec::parse(&args.b, &args.b_options)?,
        games: args.games,
        movetime: std::time::Duration::from_millis(args.movetime),
        concurrency: args
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
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
    match game_kind(&args.game)? {
        GameKind::Chess => {
            let pos = match &args.fen {
                Some(fen) => parlor_chess::Position::from_fen(fen)?,
                None => parlor_chess::Position::start(),
            };
            print_perft(&pos, args);
        }
        other => bail!("perft for {other} is not available yet"),
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
        other => bail!("bench perft for {other} is not available yet"),
    }
    Ok(())
}

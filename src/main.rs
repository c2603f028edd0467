//! The `parlor` binary: parses flags and calls into the crates; no logic of its own.

use anyhow::bail;
use clap::{Args, Parser, Subcommand};
use parlor_game::DraughtsVariant;

#[derive(Parser)]
#[command(name = "parlor", version, about = "Parlor: a self-hostable board-game site")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (checks a move generator).
    Perft(PerftArgs),
    /// Measure speed.
    Bench {
        #[command(subcommand)]
        what: Bench,
    },
}

#[derive(Subcommand)]
enum Bench {
    /// Perft speed (nodes/s) per variant, the median of several runs.
    Perft(BenchPerftArgs),
}

#[derive(Args)]
struct PerftArgs {
    /// The game: draughts.
    #[arg(long)]
    game: String,
    /// Draughts variant: english, international, russian or pool.
    #[arg(long, default_value = "english")]
    variant: DraughtsVariant,
    /// Start from this position (PDN FEN) instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Plies to search.
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
}

#[derive(Args)]
struct BenchPerftArgs {
    /// The game: draughts.
    #[arg(long)]
    game: String,
    /// Runs per variant; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Perft(args) => match args.game.as_str() {
            "draughts" | "checkers" => {
                let report = parlor_draughts::bench::perft_report(
                    args.variant,
                    args.fen.as_deref(),
                    args.depth,
                    args.divide,
                )?;
                print!("{report}");
            }
            other => bail!("perft is not available for game `{other}`"),
        },
        Command::Bench {
            what: Bench::Perft(args),
        } => match args.game.as_str() {
            "draughts" | "checkers" => {
                parlor_draughts::bench::bench_perft(args.runs, |r| println!("{r}"))?;
            }
            other => bail!("bench perft is not available for game `{other}`"),
        },
    }
    Ok(())
}

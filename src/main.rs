//! The `parlor` binary: parses flags and calls into the crates; no logic of its own.

use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand};
use parlor_game::GameKind;

#[derive(Parser)]
#[command(name = "parlor", version, about = "Parlor: a self-hostable board-game site")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (a move generator check).
    Perft(PerftArgs),
    /// Measure speed.
    Bench {
        #[command(subcommand)]
        what: Bench,
    },
}

#[derive(Args)]
struct PerftArgs {
    /// The game: chess4 (more to come).
    #[arg(long)]
    game: GameKind,
    /// Start from this FEN4 position (chess4) instead of the standard start.
    #[arg(long)]
    fen4: Option<String>,
    /// Plies to count.
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// chess4: Teams legality (as the team-mode reference numbers) instead of free-for-all.
    #[arg(long)]
    teams: bool,
    /// chess4: count where free-for-all and Teams legality differ inside the tree.
    #[arg(long)]
    compare_teams: bool,
}

#[derive(Subcommand)]
enum Bench {
    /// Perft speed: nodes per second, the median of several runs.
    Perft(BenchPerftArgs),
}

#[derive(Args)]
struct BenchPerftArgs {
    /// The game: chess4 (more to come).
    #[arg(long)]
    game: GameKind,
    /// Start from this FEN4 position (chess4) instead of the standard start.
    #[arg(long)]
    fen4: Option<String>,
    /// Plies to count.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Number of runs; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Perft(a) => match a.game {
            GameKind::Chess4 => {
                let pos = parlor_chess4::perft::cli_position(a.fen4.as_deref(), a.teams)?;
                if a.compare_teams {
                    println!("{:?}", parlor_chess4::perft::compare_rules(&pos, a.depth));
                } else {
                    print!("{}", parlor_chess4::perft::perft_report(&pos, a.depth, a.divide));
                }
            }
            other => bail!("perft for {other} is not in this build"),
        },
        Command::Bench {
            what: Bench::Perft(a),
        } => match a.game {
            GameKind::Chess4 => {
                let pos = parlor_chess4::perft::cli_position(a.fen4.as_deref(), false)?;
                print!(
                    "{}",
                    parlor_chess4::perft::bench_report(&pos, a.depth, a.runs, a.fen4.is_none())?
                );
            }
            other => bail!("bench perft for {other} is not in this build"),
        },
    }
    Ok(())
}

//! Perft for four-player chess: bulk counting at the last ply, with one move buffer per ply and no allocation.
//!
//! The tree follows the free-for-all rules of [`Position::play_unchecked`]: a mate or a stalemate eliminates a
//! player inside the tree and the turn skips that player; a king left attacked may be captured; a finished game
//! (three out, or two left 21 points apart) has no moves. Draw rules are ignored, as in every perft.

use crate::chess_move::MoveList;
use crate::position::Position;
use std::time::{Duration, Instant};

fn count(pos: &Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    let Some((list, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    pos.generate_into(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += count(&child, depth - 1, rest);
    }
    nodes
}

/// The number of leaf positions exactly `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<MoveList> = (0..depth).map(|_| MoveList::default()).collect();
    count(pos, depth, &mut buffers)
}

/// Perft split by first move: each move's wire notation with its count, in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (pos.move_notation(m), perft(&child, depth - 1))
        })
        .collect()
}

/// One benchmark run's result.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRun {
    /// Leaf nodes counted.
    pub nodes: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl BenchRun {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs perft `runs` times (at least once) and returns every run, for the caller to take the median.
pub fn bench(pos: &Position, depth: u32, runs: usize) -> Vec<BenchRun> {
    (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            let nodes = perft(pos, depth);
            BenchRun {
                nodes,
                elapsed: start.elapsed(),
            }
        })
        .collect()
}

/// The run with the median wall time (the upper median for an even count); `None` for no runs.
pub fn median(runs: &[BenchRun]) -> Option<BenchRun> {
    let mut sorted = runs.to_vec();
    sorted.sort_by_key(|r| r.elapsed);
    sorted.get(sorted.len() / 2).cloned()
}

/// Perft of the standard start at depths 0-6, free-for-all (equal to the Teams numbers of the shared test data
/// up to depth 6). The benchmark checks its count against these.
pub const START_COUNTS: [u64; 7] = [1, 20, 395, 7800, 152_050, 3_452_310, 77_430_383];

/// The position a command line names: the standard start, or a FEN4; with Teams legality if asked.
///
/// # Errors
/// [`crate::Fen4Error`] if the FEN4 is invalid.
pub fn cli_position(fen4: Option<&str>, teams: bool) -> Result<Position, crate::Fen4Error> {
    let mut pos = match fen4 {
        Some(text) => Position::from_fen4(text)?,
        None => Position::start(),
    };
    pos.set_teams_legality(teams);
    Ok(pos)
}

/// The text `parlor perft --game chess4` prints: with `divide`, one `move: count` line per first move, then the
/// total; and the time taken.
pub fn perft_report(pos: &Position, depth: u32, divide: bool) -> String {
    let start = Instant::now();
    let mut out = String::new();
    let total = if divide {
        let split = perft_divide(pos, depth);
        for (m, n) in &split {
            out.push_str(&format!("{m}: {n}\n"));
        }
        out.push('\n');
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(pos, depth)
    };
    let elapsed = start.elapsed();
    out.push_str(&format!("perft({depth}) = {total}\n"));
    out.push_str(&format!(
        "time {:.3} s, {:.2} Mnodes/s\n",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    ));
    out
}

/// A benchmark whose count differs from the known one (the rules or the generator changed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("perft({depth}) from the start counted {got} nodes, expected {expected}")]
pub struct BenchMismatch {
    /// The depth.
    pub depth: u32,
    /// Nodes counted.
    pub got: u64,
    /// Nodes expected.
    pub expected: u64,
}

/// The text `parlor bench perft --game chess4` prints: every run, then the median run's time and speed.
///
/// # Errors
/// [`BenchMismatch`] if a run from the standard start counts other than [`START_COUNTS`].
pub fn bench_report(
    pos: &Position,
    depth: u32,
    runs: usize,
    from_start: bool,
) -> Result<String, BenchMismatch> {
    let results = bench(pos, depth, runs);
    let mut out = String::new();
    for (i, r) in results.iter().enumerate() {
        if let Some(&expected) = START_COUNTS.get(depth as usize).filter(|_| from_start)
            && r.nodes != expected
        {
            return Err(BenchMismatch {
                depth,
                got: r.nodes,
                expected,
            });
        }
        out.push_str(&format!(
            "run {}: {} nodes in {:.3} s ({:.2} Mnodes/s)\n",
            i + 1,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes_per_second() / 1e6
        ));
    }
    if let Some(m) = median(&results) {
        out.push_str(&format!(
            "median of {}: perft({depth}) = {} in {:.3} s, {:.2} Mnodes/s (one thread)\n",
            results.len(),
            m.nodes,
            m.elapsed.as_secs_f64(),
            m.nodes_per_second() / 1e6
        ));
    }
    Ok(out)
}

/// Where the free-for-all rules and the Teams legality part ways inside a perft tree (see
/// [`compare_rules`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleComparison {
    /// Positions whose moves the perft counts (every node above the leaves).
    pub nodes: u64,
    /// Of those, positions where the side to move has a different list of legal moves under Teams legality
    /// (a king attacked by its partner, a partner's piece that could be taken).
    pub legality_differs: u64,
    /// Moves above the last ply after which some seat is eliminated (mate, stalemate or king capture): these
    /// change the turn order below them.
    pub eliminating_moves: u64,
    /// Moves of the last ply (the counted leaves) that eliminate a seat: they are counted alike by both rules.
    pub eliminating_leaves: u64,
    /// Moves that score points (captures, check bonuses, mates).
    pub scoring_moves: u64,
    /// Free-for-all perft at the same depth.
    pub leaves: u64,
    /// Over the positions whose moves are the counted leaves, reached by no elimination on the move before: the
    /// sum of (free-for-all moves - Teams moves) in the same position.
    pub leaf_difference_same_position: i64,
    /// Over the positions reached by a move that eliminated a seat (in free-for-all the turn skips that seat; in
    /// Teams nothing is eliminated): the sum of (free-for-all moves after it - Teams moves after the same move).
    pub leaf_difference_after_elimination: i64,
}

fn compare(pos: &Position, depth: u32, out: &mut RuleComparison, after_elimination: bool) {
    let ffa = pos.legal_moves();
    out.nodes += 1;
    let mut teams = pos.clone();
    teams.set_teams_legality(true);
    let teams_moves = teams.legal_moves();
    if *teams_moves != *ffa {
        out.legality_differs += 1;
    }
    if depth == 1 {
        out.leaves += ffa.len() as u64;
        if !after_elimination {
            out.leaf_difference_same_position += ffa.len() as i64 - teams_moves.len() as i64;
        }
    }
    for &m in ffa.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let eliminating = child.dead != pos.dead;
        if eliminating {
            if depth > 1 {
                out.eliminating_moves += 1;
            } else {
                out.eliminating_leaves += 1;
            }
            if depth == 2 {
                let mut teams_child = pos.clone();
                teams_child.set_teams_legality(true);
                teams_child.play_unchecked(m);
                out.leaf_difference_after_elimination +=
                    child.legal_moves().len() as i64 - teams_child.legal_moves().len() as i64;
            }
        }
        if child.points != pos.points {
            out.scoring_moves += 1;
        }
        if depth > 1 {
            compare(&child, depth - 1, out, eliminating);
        }
    }
}

/// Walks the free-for-all perft tree of `depth` plies and counts where the two rule sets could give different
/// counts. If no node has a different move list and no move eliminates a seat, the free-for-all and the Teams
/// perft are equal at this depth (scoring alone changes no move: only the 21-point end, which needs two
/// eliminations, does).
pub fn compare_rules(pos: &Position, depth: u32) -> RuleComparison {
    let mut out = RuleComparison::default();
    if depth > 0 {
        compare(pos, depth, &mut out, false);
    }
    out
}

//! Perft through our `parlor_game::Position` trait against the suites in tests/data (sources named in the files).
#![allow(clippy::unwrap_used, clippy::result_large_err)]

use parlor_chess::Position;
use parlor_game::perft;
use shakmaty::CastlingMode;
use shakmaty::fen::Fen;

struct Case {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let (mut id, mut fen) = (String::new(), String::new());
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            fen = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, nodes) = rest.split_once(' ').unwrap();
            out.push(Case {
                id: id.clone(),
                fen: fen.clone(),
                depth: depth.parse().unwrap(),
                nodes: nodes.parse().unwrap(),
            });
        }
    }
    out
}

fn run(text: &str, min_nodes: u64, max_nodes: u64) -> usize {
    let mut ran = 0;
    for case in cases(text)
        .into_iter()
        .filter(|c| c.nodes >= min_nodes && c.nodes <= max_nodes)
    {
        // Some tricky positions are Chess960 set-ups (castling rights on unusual rook files), which standard chess
        // refuses, and a few have checks no legal game reaches; read those as shakmaty's own runner does, so the
        // generator is still checked on them.
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|_| {
            let fen: Fen = case.fen.parse().unwrap();
            Position(
                fen.into_position(CastlingMode::Chess960)
                    .or_else(|e| e.ignore_impossible_check())
                    .or_else(|e| e.ignore_too_much_material())
                    .unwrap(),
            )
        });
        assert_eq!(
            perft(&pos, case.depth),
            case.nodes,
            "{} depth {}",
            case.id,
            case.depth
        );
        ran += 1;
    }
    ran
}

/// Counts up to this many nodes run in every `cargo test` (debug builds are slow; release runs more).
const LIMIT: u64 = if cfg!(debug_assertions) {
    200_000
} else {
    5_000_000
};

#[test]
fn standard_suite_matches_published_counts() {
    assert!(run(include_str!("data/standard.perft"), 0, LIMIT) >= 20);
}

#[test]
fn shakmaty_tricky_suite_matches() {
    assert!(run(include_str!("data/shakmaty-tricky.perft"), 0, LIMIT) >= 15);
}

/// The deep counts (start position depth 6 = 119,060,324; Kiwipete depth 5 = 193,690,690):
/// `cargo test --release -p parlor-chess --test perft -- --ignored`.
#[test]
#[ignore = "deep perft: run in release"]
fn deep_counts_match() {
    assert!(run(include_str!("data/standard.perft"), LIMIT + 1, 200_000_000) >= 5);
}

//! The chess evaluation's speed (divan): every position two plies from the `parlor bench search` positions,
//! evaluated once per sample. The sum of the scores is checked so the evaluation cannot be optimised away and a
//! change of what it computes shows. `cargo bench -p parlor-ai --bench eval`.

use parlor_ai::bench::CHESS_POSITIONS;
use parlor_ai::chess::eval::{PawnCache, evaluate};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

fn main() {
    divan::main();
}

/// The bench positions, their children and grandchildren.
fn positions() -> Vec<Chess> {
    let mut out = Vec::new();
    for fen in CHESS_POSITIONS {
        let root: Chess = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_default();
        for m in root.legal_moves() {
            let child = root.clone().play(m).unwrap_or_default();
            for m in child.legal_moves() {
                out.push(child.clone().play(m).unwrap_or_default());
            }
            out.push(child);
        }
        out.push(root);
    }
    out
}

#[divan::bench]
fn two_plies_from_the_bench_positions(bencher: divan::Bencher) {
    let positions = positions();
    let expected: i64 = positions.iter().map(|p| i64::from(evaluate(p))).sum();
    bencher.bench_local(|| {
        let sum: i64 = divan::black_box(&positions)
            .iter()
            .map(|p| i64::from(evaluate(p)))
            .sum();
        assert_eq!(sum, expected);
    });
}

/// The same through a [`PawnCache`] (as the search evaluates), warm from the first sample on.
#[divan::bench]
fn two_plies_from_the_bench_positions_with_the_pawn_cache(bencher: divan::Bencher) {
    let positions = positions();
    let expected: i64 = positions.iter().map(|p| i64::from(evaluate(p))).sum();
    let mut cache = PawnCache::default();
    bencher.bench_local(|| {
        let sum: i64 = divan::black_box(&positions)
            .iter()
            .map(|p| i64::from(cache.evaluate(p)))
            .sum();
        assert_eq!(sum, expected);
    });
}

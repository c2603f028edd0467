//! Fast perft: leaf counts of the legal move tree with bulk counting at the last ply, one buffer per ply.
//!
//! Capture is always mandatory here, as in the published counts. [`Duplicates`] chooses how capture chains that
//! reach the same result by different paths are counted.

use crate::board::Board;
use crate::generator;
use crate::moves::Move;
use crate::position::Position;
use crate::rule::{Rule, with_rule};

/// How perft counts capture chains with the same result (from, to, taken pieces) but a different path.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Duplicates {
    /// Once: each distinct move once, as [`Position::legal_moves`] lists them ("dups drop" in the perft data).
    #[default]
    Drop,
    /// Once per path ("dups keep"): a different capture order, or a turn made from a different landing square,
    /// is another path; a flying king going on straight ahead is one path whichever square it passes.
    Keep,
}

/// The number of leaf positions exactly `depth` plies below `pos`, each distinct move counted once.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with(pos, depth, Duplicates::Drop)
}

/// The number of leaf positions exactly `depth` plies below `pos`, counting duplicate capture paths as `dups` says.
pub fn perft_with(pos: &Position, depth: u32, dups: Duplicates) -> u64 {
    let keep = dups == Duplicates::Keep;
    with_rule!(pos.variant, R => {
        let mut buffers = vec![Vec::with_capacity(64); depth as usize + 1];
        count::<R>(&pos.board, depth, keep, &mut buffers)
    })
}

/// Perft split by first move: each legal move's PDN with its leaf count, in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let pos = pos.with_mandatory_capture(true);
    let legal = pos.legal_moves();
    legal
        .iter()
        .map(|&m| {
            let mut child = pos;
            child.play_unchecked(m);
            (crate::notation::write(&pos, m, &legal), perft(&child, depth - 1))
        })
        .collect()
}

fn count<R: Rule>(b: &Board, depth: u32, keep: bool, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    match depth {
        0 => 1,
        1 => generator::count_legal::<R>(b, keep, moves),
        _ => {
            moves.clear();
            generator::generate::<R>(b, true, keep, moves);
            let mut total = 0;
            if depth == 2 {
                let Some(scratch) = rest.first_mut() else {
                    return 0;
                };
                for &m in moves.iter() {
                    let mut child = *b;
                    child.play(m);
                    total += generator::count_legal::<R>(&child, keep, scratch);
                }
            } else {
                for &m in moves.iter() {
                    let mut child = *b;
                    child.play(m);
                    total += count::<R>(&child, depth - 1, keep, rest);
                }
            }
            total
        }
    }
}

//! Perft: count the leaf nodes of the legal move tree, the standard check of a move generator.

use crate::rules::Position;

/// The number of leaf positions exactly `depth` plies below `pos` (bulk counting at the last ply).
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by first move: each move's wire notation with its count, in generation order.
pub fn perft_divide<P: Position>(pos: &P, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            (pos.move_notation(*m), perft(&child, depth - 1))
        })
        .collect()
}

//! What a move changes on the board, piece by piece: the one walk over a move that the incremental hash
//! (`search::hash_after`) and the network's sums (`nn::Net::update`) both follow.

use shakmaty::{CastlingSide, Chess, Move, Piece, Position as _, Role, Square};

/// Calls `f(piece, square, put)` for each piece `m` (legal in `pos`) takes off a square (`put` false) or puts on
/// one (`put` true): two to four calls. Returns false, calling nothing, for a drop (`Move::Put`, which chess never
/// has), so the caller computes from scratch.
#[inline]
pub(crate) fn for_each_change(pos: &Chess, m: Move, mut f: impl FnMut(Piece, Square, bool)) -> bool {
    let us = pos.turn();
    let ours = |role| Piece { color: us, role };
    let theirs = |role| Piece { color: !us, role };
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            if let Some(taken) = capture {
                f(theirs(taken), to, false);
            }
            f(ours(role), from, false);
            f(ours(promotion.unwrap_or(role)), to, true);
        }
        Move::EnPassant { from, to } => {
            f(
                theirs(Role::Pawn),
                Square::from_coords(to.file(), from.rank()),
                false,
            );
            f(ours(Role::Pawn), from, false);
            f(ours(Role::Pawn), to, true);
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            f(ours(Role::King), king, false);
            f(ours(Role::Rook), rook, false);
            f(ours(Role::King), side.king_to(us), true);
            f(ours(Role::Rook), side.rook_to(us), true);
        }
        Move::Put { .. } => return false,
    }
    true
}

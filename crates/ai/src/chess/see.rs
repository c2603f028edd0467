//! Static exchange evaluation: what a capture wins once every piece that attacks its square has taken part, least
//! valuable first (the swap-list method described on the Chess Programming Wiki, "SEE - The Swap Algorithm").
//! Pins are ignored, as usual.

use crate::params::SEE_VALUE;
use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position as _, Role, Square};

#[inline]
fn value(role: Role) -> i32 {
    SEE_VALUE[role as usize - 1]
}

/// The material the mover wins (negative: loses) by playing `m` and letting both sides recapture on its
/// square for as long as it pays, in centipawns.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let (role, from, to, capture, promotion) = match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => (role, from, to, capture, promotion),
        Move::EnPassant { .. } => return value(Role::Pawn),
        _ => return 0,
    };
    let board = pos.board();
    let mut occupied = board.occupied();
    occupied.discard(from);
    let mut gain = [0i32; 34];
    gain[0] = capture.map_or(0, value) + promotion.map_or(0, |p| value(p) - value(Role::Pawn));
    // The piece now standing on `to`, which the next capture removes.
    let mut on_square = promotion.map_or(value(role), value);
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let Some((sq, r)) = Role::ALL
            .into_iter()
            .find_map(|r| (attackers & board.by_role(r)).first().map(|sq| (sq, r)))
        else {
            break;
        };
        if r == Role::King {
            let mut after = occupied;
            after.discard(sq);
            if (board.attacks_to(to, !side, after) & after).any() {
                break; // the king may not take a defended piece
            }
        }
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if d + 1 >= gain.len() {
            break;
        }
        on_square = value(r);
        occupied.discard(sq);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Every piece of either colour that attacks `to` through `occupied`.
#[inline]
fn attackers(board: &Board, to: Square, occupied: Bitboard) -> Bitboard {
    (pawn_attacks(Color::White, to) & board.pawns() & board.black())
        | (pawn_attacks(Color::Black, to) & board.pawns() & board.white())
        | (knight_attacks(to) & board.knights())
        | (king_attacks(to) & board.kings())
        | (bishop_attacks(to, occupied) & board.bishops_and_queens())
        | (rook_attacks(to, occupied) & board.rooks_and_queens())
}

/// Whether [`see`] of `m` is at least `threshold`, found with early exits: the exchange stops as soon as its
/// outcome relative to the threshold is settled (the threshold form of the swap algorithm, which most engines
/// use for pruning because it rarely walks the whole exchange).
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (role, from, to, capture, promotion) = match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => (role, from, to, capture, promotion),
        Move::EnPassant { .. } => return value(Role::Pawn) >= threshold,
        _ => return 0 >= threshold,
    };
    // Below the threshold even if the piece is never taken back: no.
    let mut swap =
        capture.map_or(0, value) + promotion.map_or(0, |p| value(p) - value(Role::Pawn)) - threshold;
    if swap < 0 {
        return false;
    }
    // `swap` becomes what the side to capture next stands to reach by taking the piece on `to`; at or under
    // zero for the opponent the mover keeps the threshold whatever follows: yes.
    swap = promotion.map_or(value(role), value) - swap;
    if swap <= 0 {
        return true;
    }
    let board = pos.board();
    let mut occupied = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let mut attacking = attackers(board, to, occupied) & occupied;
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();
    let mut side = pos.turn();
    // 1 while the mover reaches the threshold if the exchange stops here. Ties go to the mover, so the
    // opponent needs a strictly positive result: the comparison `swap < wins` below.
    let mut wins = 1;
    loop {
        side = !side;
        attacking &= occupied;
        let ours = attacking & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        wins ^= 1;
        let Some((sq, r)) = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .find_map(|r| (ours & board.by_role(r)).first().map(|sq| (sq, r))) else {
            break;
        };
        if r == Role::King {
            // The king may take only an undefended piece.
            let mut after = occupied;
            after.discard(sq);
            return if (attackers(board, to, after) & after & board.by_color(!side)).any() {
                wins ^ 1 == 1
            } else {
                wins == 1
            };
        }
        swap = value(r) - swap;
        if swap < wins {
            break;
        }
        occupied.discard(sq);
        if matches!(r, Role::Pawn | Role::Bishop | Role::Queen) {
            attacking |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(r, Role::Rook | Role::Queen) {
            attacking |= rook_attacks(to, occupied) & straight;
        }
    }
    wins == 1
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use shakmaty::uci::UciMove;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = parlor_chess::Position::from_fen(fen).unwrap().0;
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see(&pos, m)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight takes a pawn defended by a pawn: loses knight for pawn.
        assert_eq!(
            see_of("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"),
            100 - 320
        );
        // Pawn takes a defended knight.
        assert_eq!(see_of("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"), 320 - 100);
        // A quiet move to an attacked square is not a capture: 0 by definition of the capture gain chain.
        assert!(see_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8") >= 0);
    }

    #[test]
    fn the_threshold_form_agrees_with_the_swap_list() {
        let mut rng = crate::rng::Rng::new(5);
        let mut compared = 0;
        for _ in 0..40 {
            let mut pos = Chess::default();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let s = see(&pos, m);
                    for t in [-500, -200, -100, -1, 0, 1, 100, 200, 500] {
                        assert_eq!(
                            see_ge(&pos, m, t),
                            s >= t,
                            "{} {m:?} >= {t} (see {s})",
                            shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                        );
                        compared += 1;
                    }
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(compared > 10_000);
    }
}

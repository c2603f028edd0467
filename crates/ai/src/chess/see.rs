//! Static exchange evaluation: what a capture wins once every piece that attacks its square has taken part, least
//! valuable first (the swap-list method described on the Chess Programming Wiki, "SEE - The Swap Algorithm").
//! Pins are ignored, as usual.

use crate::params::SEE_VALUE;
use shakmaty::{Chess, Move, Position as _, Role};

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
}

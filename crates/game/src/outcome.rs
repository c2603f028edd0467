//! How a game ends: who placed where, and why.

use crate::seat::{BySeat, Seat};
use std::fmt;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is checkmated (four-player: the last opponent was mated).
    Checkmate,
    /// The side to move has no legal move and is not in check (chess: a draw).
    Stalemate,
    /// The same position for the third time.
    Threefold,
    /// Chess: fifty moves by each side without a capture or pawn move. Four-player: fifty moves by every live player.
    FiftyMove,
    /// Draughts: the variant's no-progress count ran out (English: 40 plies without capture or man move; Russian:
    /// 15 king moves each; International: 25 king moves each).
    NoProgress,
    /// International draughts: an FMJD endgame limit (16 or 5 moves each) ran out.
    EndgameLimit,
    /// Neither side can checkmate (chess: K v K, K+minor v K, K+B v K+B on one colour).
    InsufficientMaterial,
    /// Draughts: the side to move has no pieces left.
    NoPieces,
    /// Draughts: the side to move has pieces but no legal move.
    Blocked,
    /// A player resigned.
    Resignation,
    /// A player's clock ran out.
    Timeout,
    /// A clock ran out but the opponent had no way to checkmate (FIDE 6.9): a draw.
    TimeoutVsInsufficientMaterial,
    /// The players agreed a draw.
    Agreement,
    /// A player left and did not come back within the grace period.
    Abandoned,
    /// Four-player: two players remain and their points differ by 21 or more.
    PointsGap,
    /// Four-player: three players were eliminated.
    LastPlayerStanding,
    /// Four-player: the table's move limit was reached.
    MoveLimit,
}

impl EndReason {
    /// The lower-case name used on the wire and in logs.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Threefold => "threefold",
            EndReason::FiftyMove => "fifty_move",
            EndReason::NoProgress => "no_progress",
            EndReason::EndgameLimit => "endgame_limit",
            EndReason::InsufficientMaterial => "insufficient_material",
            EndReason::NoPieces => "no_pieces",
            EndReason::Blocked => "blocked",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "timeout",
            EndReason::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            EndReason::Agreement => "agreement",
            EndReason::Abandoned => "abandoned",
            EndReason::PointsGap => "points_gap",
            EndReason::LastPlayerStanding => "last_player_standing",
            EndReason::MoveLimit => "move_limit",
        }
    }

    /// The PGN `Termination` tag value for this reason ("normal", "time forfeit", "abandoned", ...).
    pub const fn pgn_termination(self) -> &'static str {
        match self {
            EndReason::Timeout | EndReason::TimeoutVsInsufficientMaterial => "time forfeit",
            EndReason::Abandoned => "abandoned",
            _ => "normal",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decided game: the place of every seat (1 is best; seats with equal results share a place).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// Place of each seat, 1 = first.
    pub places: BySeat<u8>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Decision {
    /// A two-player win for `winner`.
    pub fn win(winner: Seat, reason: EndReason) -> Decision {
        let mut places = BySeat::filled(2, 2);
        places[winner] = 1;
        Decision { places, reason }
    }

    /// The single seat in first place, if there is exactly one.
    pub fn winner(&self) -> Option<Seat> {
        let mut firsts = self.places.iter().filter(|(_, p)| **p == 1).map(|(s, _)| s);
        match (firsts.next(), firsts.next()) {
            (Some(seat), None) => Some(seat),
            _ => None,
        }
    }
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Outcome {
    /// Still being played.
    #[default]
    Running,
    /// Decided: every seat has a place. Four-player games always end this way, even by repetition
    /// (then places go by points).
    Decided(Decision),
    /// A two-player game drawn.
    Drawn(EndReason),
}

impl Outcome {
    /// True while the game goes on.
    pub fn is_running(&self) -> bool {
        matches!(self, Outcome::Running)
    }

    /// The reason the game ended, if it did.
    pub fn reason(&self) -> Option<EndReason> {
        match self {
            Outcome::Running => None,
            Outcome::Decided(d) => Some(d.reason),
            Outcome::Drawn(reason) => Some(*reason),
        }
    }

    /// The winning seat, if one seat alone is first.
    pub fn winner(&self) -> Option<Seat> {
        match self {
            Outcome::Decided(d) => d.winner(),
            _ => None,
        }
    }

    /// The two-player result string used by PGN and PDN: `1-0`, `0-1`, `1/2-1/2` or `*`.
    /// `First` is written on the left.
    pub fn result_str(&self) -> &'static str {
        match self {
            Outcome::Running => "*",
            Outcome::Drawn(_) => "1/2-1/2",
            Outcome::Decided(d) => match d.winner() {
                Some(Seat::First) => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_player_win_places_winner_first() {
        let d = Decision::win(Seat::Second, EndReason::Checkmate);
        assert_eq!(d.places.as_slice(), &[2, 1]);
        assert_eq!(d.winner(), Some(Seat::Second));
        assert_eq!(Outcome::Decided(d).result_str(), "0-1");
    }

    #[test]
    fn shared_first_place_has_no_winner() {
        let d = Decision { places: BySeat::from_slice(&[1, 1, 3, 4]), reason: EndReason::MoveLimit };
        assert_eq!(d.winner(), None);
    }
}

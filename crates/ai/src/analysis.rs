//! The engine's view for players: the evaluation of one position (per seat, with the best move and line) and how
//! much a played move lost against the best one, marked as an inaccuracy, a mistake or a blunder.
//!
//! Two-player games judge a move by the drop of the mover's winning chances between the position before it and the
//! position after it, both searched with the same budget: the curve `2 / (1 + e^(-0.00368 x)) - 1` of an
//! evaluation `x` in hundredths of a pawn (chess) or of a man (draughts) is the one lichess draws, so a pawn lost in
//! an even position counts and a pawn lost in a won one does not. Four-player chess has no winning chances of two
//! sides: a move is judged by the points it lost against the best move, both searched to the same depth from the
//! position before it.

use crate::request::{AiError, Limit, Request, Score};
use crate::{chess4, choose, params};
use parlor_game::GameKind;

/// The largest evaluation shown, in hundredths: a forced win (a mate found) shows as this.
pub const DECIDED: i32 = 10_000;

/// A drop of winning chances (on the scale from -1 to +1) from which a move is an inaccuracy, a mistake, a blunder.
pub const CHANCE_DROPS: [f64; 3] = [0.10, 0.20, 0.30];

/// Four-player chess: the points lost (in hundredths) from which a move is an inaccuracy, a mistake, a blunder.
/// A pawn is one point, a knight or bishop three (captured: its value in points to the captor).
pub const POINT_LOSSES: [i32; 3] = [200, 400, 800];

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// A small slip.
    Inaccuracy,
    /// A clear error.
    Mistake,
    /// An error that changes the game.
    Blunder,
}

impl Mark {
    /// The mark's name as the protocol writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark for a measure against three rising thresholds.
    fn from_thresholds<T: PartialOrd>(measure: T, thresholds: [T; 3]) -> Option<Mark> {
        let [inaccuracy, mistake, blunder] = thresholds;
        if measure >= blunder {
            Some(Mark::Blunder)
        } else if measure >= mistake {
            Some(Mark::Mistake)
        } else if measure >= inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// The engine's view of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Per seat, in hundredths of the game's unit: two-player games `[x, -x]` for the first seat's view (within
    /// ±[`DECIDED`]); four-player chess each army's points and what its pieces and position are worth.
    pub values: Vec<i32>,
    /// Two-player games: a forced mate in this many moves for the first seat (negative: for the second).
    pub mate: Option<i32>,
    /// The search's own score for the mover (four-player chess compares moves with it).
    pub score: Score,
    /// The best move (wire notation); `None` for a finished game.
    pub best: Option<String>,
    /// The best line, starting with `best`.
    pub pv: Vec<String>,
    /// The deepest completed iteration.
    pub depth: u32,
}

impl Evaluation {
    /// The view of a finished game: decided for the winner, even for a draw. `winner` is a seat index.
    pub fn finished(seats: usize, winner: Option<usize>) -> Evaluation {
        let values = (0..seats)
            .map(|s| match winner {
                Some(w) if w == s => DECIDED,
                Some(_) => -DECIDED,
                None => 0,
            })
            .collect();
        Evaluation {
            values,
            mate: None,
            score: Score::Cp(0),
            best: None,
            pv: Vec::new(),
            depth: 0,
        }
    }

    /// The view of a finished four-player game: each army's value as [`evaluate`] gives it (an eliminated army
    /// keeps its points).
    ///
    /// # Errors
    /// [`AiError::BadPosition`] or [`AiError::BadMove`] when the request's game does not replay.
    pub fn finished_four_player(req: &Request) -> Result<Evaluation, AiError> {
        Ok(Evaluation {
            values: army_values(req)?,
            ..Evaluation::finished(4, None)
        })
    }
}

/// Searches the position of `req` (its start and moves) with its limit. `mover` is the seat index to move.
///
/// # Errors
/// As [`crate::choose`]: a bad position or move, or a finished game.
pub fn evaluate(req: &Request, mover: usize) -> Result<Evaluation, AiError> {
    let choice = choose(req)?;
    let (values, mate) = match req.kind {
        GameKind::Chess4 => (army_values(req)?, None),
        GameKind::Chess | GameKind::Draughts(_) => {
            let (for_mover, mate) = match choice.score {
                Score::Cp(cp) => (cp.clamp(-DECIDED, DECIDED), None),
                Score::Mate(n) => (if n > 0 { DECIDED } else { -DECIDED }, Some(n)),
            };
            let sign = if mover == 0 { 1 } else { -1 };
            (vec![sign * for_mover, -sign * for_mover], mate.map(|n| sign * n))
        }
    };
    Ok(Evaluation {
        values,
        mate,
        score: choice.score,
        best: Some(choice.wire.clone()).filter(|w| !w.is_empty()),
        pv: choice.pv,
        depth: choice.depth,
    })
}

/// Four-player chess: each army's value in hundredths of a point (an eliminated army keeps its points).
fn army_values(req: &Request) -> Result<Vec<i32>, AiError> {
    let pos = chess4::position_at(&req.start, &req.moves)?;
    let values = chess4::eval::values(&pos);
    Ok(values
        .iter()
        .enumerate()
        .map(|(s, &v)| {
            let seat = parlor_game::Seat::from_index(s).unwrap_or(parlor_game::Seat::First);
            if pos.is_live(seat) {
                v
            } else {
                pos.points()[seat] * params::CHESS4_POINT
            }
        })
        .collect())
}

/// Four-player chess: the played move's score for the mover, searched no deeper than the best move's search
/// (`best.depth`) within `limit`, so the two compare. `req` is the position's request.
///
/// # Errors
/// As [`crate::choose`], and [`AiError::BadMove`] when `played` is not legal there.
pub fn score_of_move(req: &Request, played: &str, best: &Evaluation) -> Result<Score, AiError> {
    let mut only = req.clone();
    only.search_moves = vec![played.to_owned()];
    only.limit = Limit::FirstOf(crate::Bounds {
        time: match req.limit {
            Limit::MoveTime(t) => Some(t),
            _ => None,
        },
        depth: Some(best.depth.max(1)),
        ..crate::Bounds::default()
    });
    Ok(choose(&only)?.score)
}

/// Winning chances from an evaluation in hundredths: from -1 (lost) to +1 (won).
pub fn winning_chances(hundredths: i32) -> f64 {
    2.0 / (1.0 + (-0.003_682_08 * f64::from(hundredths)).exp()) - 1.0
}

/// A two-player move's loss (hundredths, at least 0) and its mark: `before` and `after` are the mover's
/// evaluations of the positions before and after the move.
pub fn judge_two_player(before: i32, after: i32) -> (i32, Option<Mark>) {
    let loss = (before - after).max(0);
    let drop = winning_chances(before) - winning_chances(after);
    (loss, Mark::from_thresholds(drop, CHANCE_DROPS))
}

/// A four-player move's loss and mark: `best` and `played` are the mover's search scores of the best and of the
/// played move (hundredths of a point; a mate or an elimination counts as decided).
pub fn judge_four_player(best: Score, played: Score) -> (i32, Option<Mark>) {
    let cp = |s: Score| match s {
        Score::Cp(c) => c.clamp(-DECIDED, DECIDED),
        Score::Mate(n) if n > 0 => DECIDED,
        Score::Mate(_) => -DECIDED,
    };
    let loss = (cp(best) - cp(played)).max(0);
    (loss, Mark::from_thresholds(loss, POINT_LOSSES))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;
    use std::time::Duration;

    #[test]
    fn winning_chances_are_even_at_zero_and_near_one_when_decided() {
        assert!(winning_chances(0).abs() < 1e-9);
        assert!(winning_chances(DECIDED) > 0.99);
        assert!((winning_chances(-300) + winning_chances(300)).abs() < 1e-9);
    }

    #[test]
    fn a_pawn_lost_counts_when_even_and_not_when_won() {
        assert_eq!(judge_two_player(0, -100), (100, Some(Mark::Inaccuracy)));
        assert_eq!(judge_two_player(0, -300).1, Some(Mark::Blunder));
        assert_eq!(judge_two_player(1500, 1400), (100, None));
        assert_eq!(judge_two_player(50, 80), (0, None));
        assert_eq!(judge_two_player(DECIDED, -DECIDED).1, Some(Mark::Blunder));
    }

    #[test]
    fn four_player_marks_by_points() {
        assert_eq!(judge_four_player(Score::Cp(300), Score::Cp(250)), (50, None));
        assert_eq!(
            judge_four_player(Score::Cp(300), Score::Cp(0)).1,
            Some(Mark::Inaccuracy)
        );
        assert_eq!(
            judge_four_player(Score::Cp(300), Score::Cp(-600)).1,
            Some(Mark::Blunder)
        );
    }

    /// White mates in one (Qh5xf7#): the evaluation says so for White, with the mating move first.
    #[test]
    fn a_mate_in_one_is_found_and_shown_for_the_first_seat() {
        let mut req = Request::new(
            GameKind::Chess,
            Level::HARD,
            Limit::MoveTime(Duration::from_millis(100)),
        );
        req.start = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4".to_owned();
        req.threads = Some(1);
        let e = evaluate(&req, 0).unwrap();
        assert_eq!(e.best.as_deref(), Some("h5f7"));
        assert_eq!(e.mate, Some(1));
        assert_eq!(e.values, [DECIDED, -DECIDED]);
        // The same position with Black to move after White's blunder 4. Qh5-e2: Black's view is even-ish.
        let mut black = Request::new(
            GameKind::Chess,
            Level::HARD,
            Limit::MoveTime(Duration::from_millis(50)),
        );
        black.start = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4".to_owned();
        black.moves = vec!["h5e2".to_owned()];
        black.threads = Some(1);
        let after = evaluate(&black, 1).unwrap();
        assert!(after.mate.is_none(), "{after:?}");
        let (loss, mark) = judge_two_player(e.values[0], after.values[0]);
        assert!(loss > 5000, "{loss}");
        assert_eq!(mark, Some(Mark::Blunder));
    }

    /// Four-player chess: four values, and the played move's score is never above the best move's by much.
    #[test]
    fn four_player_values_and_a_played_move() {
        let mut req = Request::new(
            GameKind::Chess4,
            Level::HARD,
            Limit::MoveTime(Duration::from_millis(60)),
        );
        req.threads = Some(1);
        let best = evaluate(&req, 0).unwrap();
        assert_eq!(best.values.len(), 4);
        assert!(best.best.is_some());
        let played = score_of_move(&req, "h2-h3", &best).unwrap();
        let (loss, _) = judge_four_player(best.score, played);
        assert!(loss >= 0);
        assert!(matches!(
            score_of_move(&req, "a1-a2", &best),
            Err(AiError::BadMove { .. })
        ));
    }
}

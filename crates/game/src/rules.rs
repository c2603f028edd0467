//! The two traits every game implements.
//!
//! [`Position`] is the pure, fast rules of one position: generate legal moves, play one, name one. Perft and the
//! search engines use it; it knows nothing of history, clocks or resignations.
//!
//! [`Rules`] is a whole game as a table runs it: whose turn, the legal moves as the UI shows them, play a move
//! given in wire notation (refused with a reason, the game unchanged), game events that are not moves, the outcome
//! with every draw rule, notation and export. It is object safe: the server holds an [`AnyGame`] and has no
//! per-game special cases.
//!
//! # How each game fits
//!
//! **Chess** (2 seats, White = [`Seat::First`]): wire notation is UCI (`e2e4`, `e7e8q`; castling `e1g1`). A
//! promotion without a piece letter is refused, never silently queened. [`Rules::points`] is all zeros.
//!
//! **Draughts** (2 seats, the variant's first mover = [`Seat::First`]): a move is a whole turn, including a whole
//! capture chain. Each distinct move (from, to, set of captured pieces) is listed once as a [`MoveView`] with its
//! `path` of landing squares and its `captures`. Several moves may share `from` and `to` (10x10 and flying kings make
//! this common); their wire notation then spells the full path (`11x18x25`) so each is distinct, and a bare
//! `from-to` or `fromxto` is accepted only when it names exactly one legal move (else [`MoveErrorKind::Ambiguous`]).
//! Table options such as `mandatory_capture` are fixed when the game is created.
//!
//! **Four-player chess** (4 seats, Red/Blue/Yellow/Green = `First`..`Fourth`): turn passes clockwise among live
//! seats only. [`Rules::points`] holds each seat's score; [`Rules::eliminated`] tells which armies are out (their
//! pieces stay on the board grey, never move, give no check and are worth 0). Checkmate and stalemate eliminate a
//! seat immediately after the move that causes them. [`GameEvent::Resign`] and [`GameEvent::Timeout`] eliminate that
//! seat and the game goes on; the outcome becomes [`Outcome::Decided`] with places by points when three seats are out,
//! when two remain 21 or more points apart, on a draw rule (every live seat +10 points) or on the move limit.

use crate::error::{EventError, MoveError};
use crate::kind::GameKind;
use crate::outcome::Outcome;
use crate::seat::{BySeat, Seat};
use crate::view::{Coord, MoveView, Played};
use std::fmt;
use std::hash::Hash;
use std::ops::Deref;

/// The pure rules of one position: cheap to clone, fast, no history.
pub trait Position: Clone + Send + Sync + 'static {
    /// A move in this game (a whole turn, including a draughts capture chain).
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// A list of moves, on the stack where the game allows.
    type MoveList: Default + Deref<Target = [Self::Move]>;

    /// Whose turn it is.
    fn turn(&self) -> Seat;
    /// Every legal move, each distinct move once.
    fn legal_moves(&self) -> Self::MoveList;
    /// Plays a move from [`Position::legal_moves`]. Playing any other move may corrupt the position.
    fn play_unchecked(&mut self, m: Self::Move);
    /// The move in the game's wire notation (what [`Rules::play`] accepts).
    fn move_notation(&self, m: Self::Move) -> String;
    /// A hash of everything that makes two positions the same for repetition (pieces, side to move, rights).
    fn repetition_key(&self) -> u64;
}

/// An event of a game that is not a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameEvent {
    /// The seat resigns (four-player: it is eliminated and the game goes on).
    Resign(Seat),
    /// The seat's clock ran out. Chess draws instead when the opponent cannot mate (FIDE 6.9).
    Timeout(Seat),
    /// The seat left and did not come back in time: it loses (two-player games).
    Abandon(Seat),
    /// Both players agreed a draw (two-player games).
    DrawAgreed,
}

/// What an export (PGN, PDN, PGN4) says about the game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportInfo {
    /// The event name (`Event` tag); "Parlor game" if empty.
    pub event: String,
    /// Where it was played (`Site` tag), for example the table's URL.
    pub site: String,
    /// Start date as `YYYY.MM.DD`; `????.??.??` if empty.
    pub date: String,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// The time control in the game's tag format (PGN: `900+0`); `-` if none.
    pub time_control: String,
    /// Further tags to write, in order.
    pub extra: Vec<(String, String)>,
    /// A comment after each move (`comments[i]` after the move of ply `i + 1`), written `{...}`; an empty or
    /// missing one writes nothing. A `}` in it is written as `)`.
    pub comments: Vec<String>,
}

impl ExportInfo {
    /// The comment after the move at `index` (0-based), braced, if there is one.
    pub fn comment(&self, index: usize) -> Option<String> {
        let text = self.comments.get(index)?.trim();
        (!text.is_empty()).then(|| format!("{{{}}}", text.replace('}', ")")))
    }
}

/// A whole game as a table runs it. Object safe: the server holds `Box<dyn Rules>` ([`AnyGame`]).
pub trait Rules: Send + Sync + fmt::Debug {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// Number of seats (2 or 4).
    fn seat_count(&self) -> usize {
        self.kind().seat_count()
    }
    /// Whose turn it is, or `None` once the game is over.
    fn turn(&self) -> Option<Seat>;
    /// The legal moves for the seat to move, as a UI shows them (empty once the game is over).
    fn legal_moves(&self) -> Vec<MoveView>;
    /// Plays a move given in wire notation.
    ///
    /// # Errors
    /// A [`MoveError`] saying why the move is malformed, illegal, ambiguous or too late; the game is unchanged.
    fn play(&mut self, wire: &str) -> Result<Played, MoveError>;
    /// Applies an event that is not a move.
    ///
    /// # Errors
    /// [`EventError`] when the game is over, the seat is not playing or the game has no such event; the game is
    /// unchanged.
    fn apply(&mut self, event: GameEvent) -> Result<(), EventError>;
    /// Where the game stands.
    fn outcome(&self) -> &Outcome;
    /// Points per seat (four-player chess; zeros elsewhere, as this default gives).
    fn points(&self) -> BySeat<i32> {
        BySeat::new(self.seat_count())
    }
    /// Seats that are out of the game (four-player chess; a two-player game never eliminates, as this default
    /// says).
    fn eliminated(&self) -> BySeat<bool> {
        BySeat::new(self.seat_count())
    }
    /// The current position as text (FEN, PDN FEN, FEN4).
    fn position_text(&self) -> String;
    /// The start position as text, in the same notation.
    fn start_text(&self) -> String;
    /// The moves played so far.
    fn history(&self) -> &[Played];
    /// A hash of the current position for repetition (pieces, side to move, rights).
    fn repetition_key(&self) -> u64;
    /// Squares of kings in check now (for highlighting).
    fn checked_kings(&self) -> Vec<Coord>;
    /// The game in its exchange format (PGN, PDN or PGN4), with the result and termination when it has ended.
    fn export(&self, info: &ExportInfo) -> String;
    /// A boxed copy (so [`AnyGame`] is `Clone`).
    fn clone_box(&self) -> AnyGame;
    /// The state before a move or event, to take it back exactly with [`Rules::restore`] (the server does so
    /// when the store did not take the move). Its cost does not grow with the game: what only grows (the move
    /// lists) is kept as lengths.
    fn snapshot(&self) -> Snapshot;
    /// Puts the game back as it was when `snapshot` was taken from it.
    ///
    /// # Errors
    /// [`SnapshotError`] when the snapshot is of another kind of game or from a later point of this one; the game
    /// is unchanged.
    fn restore(&mut self, snapshot: Snapshot) -> Result<(), SnapshotError>;
}

/// A game's state at one point, from [`Rules::snapshot`]; only [`Rules::restore`] of the same game reads it.
pub struct Snapshot(Box<dyn std::any::Any + Send + Sync>);

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Snapshot")
    }
}

impl Snapshot {
    /// Wraps a game's own record of its state.
    pub fn new<T: std::any::Any + Send + Sync>(state: T) -> Snapshot {
        Snapshot(Box::new(state))
    }

    /// The record, if it is a `T`.
    ///
    /// # Errors
    /// [`SnapshotError`] when it is not.
    pub fn take<T: std::any::Any>(self) -> Result<T, SnapshotError> {
        self.0.downcast::<T>().map(|b| *b).map_err(|_| SnapshotError)
    }
}

/// Checks [`Rules::snapshot`] and [`Rules::restore`] of a game, for the rules crates' tests: plays up to `plies`
/// pseudo-random legal moves from `game` (chosen by `seed`); before each, takes a snapshot, plays the move, then
/// resigns for the seat to move (which ends a game or, with four players, eliminates a seat) and restores, and
/// checks that everything the game shows (position, moves, outcome, points, legal moves, repetition key, export)
/// is as before; then plays the move for good, and checks the game against the same moves played without any
/// taking back. Also checks that a snapshot of a later point is refused.
///
/// # Errors
/// What differed, and at which ply.
pub fn check_snapshots(game: &mut dyn Rules, plies: usize, seed: u64) -> Result<(), String> {
    fn shown(game: &dyn Rules) -> String {
        format!(
            "{} | {:?} | {:?} | {:?} | {:?} | {:?} | {} | {:?} | {}",
            game.position_text(),
            game.history(),
            game.outcome(),
            game.turn(),
            game.points(),
            game.eliminated(),
            game.repetition_key(),
            game.legal_moves()
                .iter()
                .map(|m| m.wire.clone())
                .collect::<Vec<_>>(),
            game.export(&ExportInfo::default()),
        )
    }
    // The same moves played without any taking back: the game must stay identical to it at every ply.
    let mut shadow = game.clone_box();
    let mut state = seed | 1;
    for ply in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        // xorshift64: enough to vary the games without a dependency.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let wire = legal[(state % legal.len() as u64) as usize].wire.clone();
        let before = shown(game);
        let snapshot = game.snapshot();
        game.play(&wire)
            .map_err(|e| format!("ply {ply}: {wire} refused: {}", e.reason))?;
        if let Some(seat) = game.turn() {
            game.apply(GameEvent::Resign(seat))
                .map_err(|e| format!("ply {ply}: resignation refused: {e}"))?;
        }
        game.restore(snapshot)
            .map_err(|e| format!("ply {ply}: restore refused: {e}"))?;
        let after = shown(game);
        if before != after {
            return Err(format!(
                "ply {ply}: {wire} taken back, but\nbefore {before}\nafter  {after}"
            ));
        }
        let stale = game.snapshot();
        game.play(&wire)
            .map_err(|e| format!("ply {ply}: {wire} refused the second time: {}", e.reason))?;
        // A snapshot of this point still restores; one of a point not yet reached must not.
        let later = game.snapshot();
        game.restore(stale)
            .map_err(|e| format!("ply {ply}: restore refused: {e}"))?;
        if game.restore(later).is_ok() {
            return Err(format!("ply {ply}: a snapshot of a later point was restored"));
        }
        game.play(&wire)
            .map_err(|e| format!("ply {ply}: {wire} refused the third time: {}", e.reason))?;
        shadow.play(&wire).map_err(|e| {
            format!(
                "ply {ply}: {wire} refused by the game without snapshots: {}",
                e.reason
            )
        })?;
        if shown(game) != shown(shadow.as_ref()) {
            return Err(format!(
                "ply {ply}: after {wire} the game differs from the same moves played without taking back\n\
                 game   {}\nshadow {}",
                shown(game),
                shown(shadow.as_ref())
            ));
        }
    }
    if shown(game) != shown(shadow.as_ref()) {
        return Err("the games differ at the end".to_owned());
    }
    Ok(())
}

/// A snapshot that is not of this game (another kind of game, or a point the game has not reached).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the snapshot is not of this game")]
pub struct SnapshotError;

/// Shortens an append-only list back to a snapshot's length.
///
/// # Errors
/// [`SnapshotError`] when the list is shorter than that.
pub fn rewind<T>(list: &mut Vec<T>, len: usize) -> Result<(), SnapshotError> {
    if list.len() < len {
        return Err(SnapshotError);
    }
    list.truncate(len);
    Ok(())
}

/// Any game, for code that handles them all alike (the server, the protocol).
pub type AnyGame = Box<dyn Rules>;

impl Clone for AnyGame {
    fn clone(&self) -> AnyGame {
        self.clone_box()
    }
}

/// Counts how often each position occurred since the last irreversible move, for repetition draws.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetitions {
    keys: Vec<u64>,
}

impl Repetitions {
    /// Records a position reached and returns how many times it has now occurred (1 the first time).
    /// `irreversible` says the move that reached it can never be undone (capture, pawn or man move, lost right):
    /// earlier positions can no longer repeat and are forgotten.
    pub fn record(&mut self, key: u64, irreversible: bool) -> usize {
        if irreversible {
            self.keys.clear();
        }
        self.keys.push(key);
        self.keys.iter().filter(|k| **k == key).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_count_and_reset_on_irreversible_moves() {
        let mut reps = Repetitions::default();
        assert_eq!(reps.record(1, false), 1);
        assert_eq!(reps.record(2, false), 1);
        assert_eq!(reps.record(1, false), 2);
        assert_eq!(reps.record(1, true), 1);
    }
}

//! A whole chess game as a table runs it: FIDE Laws articles 3 (moves), 5 (end of the game), 6.9 (flag fall) and
//! 9 (draws), with every draw that simple table sites apply automatically.

use crate::export;
use crate::position::{FenError, Position, color_of, coord, seat_of, uci};
use parlor_game::rules::rewind;
use parlor_game::{
    AnyGame, Coord, Decision, EndReason, EventError, ExportInfo, GameEvent, GameKind, MoveError,
    MoveErrorKind, MoveView, Outcome, Played, Position as _, Repetitions, Rules, Seat, Snapshot,
    SnapshotError,
};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Color, Move, Position as _, Role};

/// A chess game: its start, its moves and where it stands.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    history: Vec<Played>,
    moves: Vec<Move>,
    reps: Repetitions,
    outcome: Outcome,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from a FEN.
    ///
    /// # Errors
    /// [`FenError`] when the FEN is unreadable or not a legal position.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Position::from_fen(fen).map(Game::from_position)
    }

    /// A game from a position (already decided if the position is mate, stalemate or dead).
    pub fn from_position(start: Position) -> Game {
        let mut reps = Repetitions::default();
        reps.record(start.repetition_key(), true);
        let mut game = Game {
            pos: start.clone(),
            start,
            history: Vec::new(),
            moves: Vec::new(),
            reps,
            outcome: Outcome::Running,
        };
        game.outcome = game.outcome_after(1);
        game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played, in shakmaty's form.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move (from [`Position::legal_moves`](parlor_game::Position::legal_moves)) and updates the
    /// outcome.
    ///
    /// # Errors
    /// [`MoveError`] if the game is over or the move is not legal now.
    pub fn play_move(&mut self, m: Move) -> Result<Played, MoveError> {
        if !self.outcome.is_running() {
            return Err(MoveError::game_over());
        }
        if !self.pos.0.is_legal(m) {
            return Err(MoveError::new(
                MoveErrorKind::Illegal,
                format!("{} is not legal here", uci(m)),
            ));
        }
        let seat = seat_of(self.pos.0.turn());
        let irreversible = self.pos.0.is_irreversible(m);
        let display = SanPlus::from_move_and_play_unchecked(&mut self.pos.0, m).to_string();
        let count = self.reps.record(self.pos.repetition_key(), irreversible);
        let played = Played {
            seat,
            wire: uci(m).to_string(),
            display,
        };
        self.history.push(played.clone());
        self.moves.push(m);
        self.outcome = self.outcome_after(count);
        Ok(played)
    }

    /// The outcome of the current position, the rules applied in FIDE's order of precedence: checkmate and
    /// stalemate first (a mate on the 100th half-move still wins), then dead position, repetition, fifty moves.
    fn outcome_after(&self, repetitions: usize) -> Outcome {
        let chess = &self.pos.0;
        if chess.legal_moves().is_empty() {
            return if chess.is_check() {
                Outcome::Decided(Decision::win(seat_of(!chess.turn()), EndReason::Checkmate))
            } else {
                Outcome::Drawn(EndReason::Stalemate)
            };
        }
        if chess.is_insufficient_material() {
            Outcome::Drawn(EndReason::InsufficientMaterial)
        } else if repetitions >= 3 {
            Outcome::Drawn(EndReason::Threefold)
        } else if chess.halfmoves() >= 100 {
            Outcome::Drawn(EndReason::FiftyMove)
        } else {
            Outcome::Running
        }
    }

    /// Why `wire` (well-formed UCI) is not legal here, in words a player can read.
    fn refusal(&self, wire: &str, parsed: UciMove) -> MoveError {
        let chess = &self.pos.0;
        let illegal = |reason: String| MoveError::new(MoveErrorKind::Illegal, reason);
        let UciMove::Normal { from, to, promotion } = parsed else {
            return illegal("chess has no piece drops".to_owned());
        };
        let Some(piece) = chess.board().piece_at(from) else {
            return illegal(format!("there is no piece on {from}"));
        };
        if piece.color != chess.turn() {
            return illegal(format!(
                "the piece on {from} is {}'s, and it is {}'s turn",
                name(piece.color),
                name(chess.turn())
            ));
        }
        let same_squares: Vec<Move> = chess
            .legal_moves()
            .into_iter()
            .filter(|m| {
                let u = uci(*m);
                matches!(u, UciMove::Normal { from: f, to: t, .. } if f == from && t == to)
            })
            .collect();
        if promotion.is_none() && same_squares.iter().any(|m| m.is_promotion()) {
            return illegal(format!(
                "choose the promotion piece: {wire}q, {wire}r, {wire}b or {wire}n"
            ));
        }
        if promotion.is_some() && !same_squares.is_empty() {
            return illegal(format!(
                "{wire}: a pawn promotes to a queen, rook, bishop or knight only"
            ));
        }
        if chess.is_check() {
            return illegal(format!("{wire} does not answer the check on your king"));
        }
        illegal(format!("{wire} is not a legal move here"))
    }
}

fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn view(m: Move) -> MoveView {
    let UciMove::Normal { from, to, .. } = uci(m) else {
        unreachable!("standard chess has no drops");
    };
    let captures = match m {
        Move::EnPassant { from, to } => vec![coord(shakmaty::Square::from_coords(to.file(), from.rank()))],
        Move::Normal {
            capture: Some(_), to, ..
        } => vec![coord(to)],
        _ => Vec::new(),
    };
    MoveView {
        wire: uci(m).to_string(),
        from: coord(from),
        to: coord(to),
        path: Vec::new(),
        captures,
        promotion: m.promotion().map(Role::char),
    }
}

impl Rules for Game {
    fn kind(&self) -> GameKind {
        GameKind::Chess
    }

    fn turn(&self) -> Option<Seat> {
        self.outcome.is_running().then(|| seat_of(self.pos.0.turn()))
    }

    fn legal_moves(&self) -> Vec<MoveView> {
        if !self.outcome.is_running() {
            return Vec::new();
        }
        self.pos.0.legal_moves().into_iter().map(view).collect()
    }

    fn play(&mut self, wire: &str) -> Result<Played, MoveError> {
        if !self.outcome.is_running() {
            return Err(MoveError::game_over());
        }
        let text = wire.trim();
        let parsed: UciMove = text.parse().map_err(|_| {
            MoveError::new(
                MoveErrorKind::Malformed,
                format!("`{text}` is not a move in UCI notation (like e2e4 or e7e8q)"),
            )
        })?;
        match self.pos.0.legal_moves().into_iter().find(|m| uci(*m) == parsed) {
            Some(m) => self.play_move(m),
            None => Err(self.refusal(text, parsed)),
        }
    }

    fn apply(&mut self, event: GameEvent) -> Result<(), EventError> {
        if !self.outcome.is_running() {
            return Err(EventError::GameOver);
        }
        let opponent = |seat: Seat| {
            color_of(seat)
                .map(|c| seat_of(!c))
                .ok_or(EventError::NotPlaying(seat))
        };
        self.outcome = match event {
            GameEvent::Resign(seat) => {
                Outcome::Decided(Decision::win(opponent(seat)?, EndReason::Resignation))
            }
            GameEvent::Abandon(seat) => {
                Outcome::Decided(Decision::win(opponent(seat)?, EndReason::Abandoned))
            }
            GameEvent::Timeout(seat) => {
                let winner = opponent(seat)?;
                let winner_color = color_of(winner).ok_or(EventError::NotPlaying(winner))?;
                // FIDE 6.9: the game is drawn if the opponent cannot checkmate by any series of legal moves.
                if self.pos.0.has_insufficient_material(winner_color) {
                    Outcome::Drawn(EndReason::TimeoutVsInsufficientMaterial)
                } else {
                    Outcome::Decided(Decision::win(winner, EndReason::Timeout))
                }
            }
            GameEvent::DrawAgreed => Outcome::Drawn(EndReason::Agreement),
        };
        Ok(())
    }

    fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    fn position_text(&self) -> String {
        self.pos.to_fen()
    }

    fn start_text(&self) -> String {
        self.start.to_fen()
    }

    fn history(&self) -> &[Played] {
        &self.history
    }

    fn repetition_key(&self) -> u64 {
        self.pos.repetition_key()
    }

    fn checked_kings(&self) -> Vec<Coord> {
        let chess = &self.pos.0;
        match chess.board().king_of(chess.turn()) {
            Some(king) if chess.is_check() => vec![coord(king)],
            _ => Vec::new(),
        }
    }

    fn export(&self, info: &ExportInfo) -> String {
        export::write(&self.start, self, info)
    }

    fn clone_box(&self) -> AnyGame {
        Box::new(self.clone())
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot::new(Before {
            pos: self.pos.clone(),
            history: self.history.len(),
            moves: self.moves.len(),
            reps: self.reps.clone(),
            outcome: self.outcome,
        })
    }

    fn restore(&mut self, snapshot: Snapshot) -> Result<(), SnapshotError> {
        let before: Before = snapshot.take()?;
        if self.history.len() < before.history || self.moves.len() < before.moves {
            return Err(SnapshotError);
        }
        rewind(&mut self.history, before.history)?;
        rewind(&mut self.moves, before.moves)?;
        self.pos = before.pos;
        self.reps = before.reps;
        self.outcome = before.outcome;
        Ok(())
    }
}

/// What a move or event can change, for [`Rules::snapshot`]: every field but the start (fixed) and the move
/// lists (which only grow, kept as lengths).
struct Before {
    pos: Position,
    history: usize,
    moves: usize,
    reps: Repetitions,
    outcome: Outcome,
}

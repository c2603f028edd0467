//! A whole draughts game as a table runs it: history, draw rules, resignations and flags, PDN export.

use crate::board::Color;
use crate::fen::FenError;
use crate::moves::Move;
use crate::notation::{self, PdnMove};
use crate::position::{Position, square_coord};
use parlor_game::rules::rewind;
use parlor_game::{
    AnyGame, Coord, Decision, DraughtsVariant, EndReason, EventError, ExportInfo, GameEvent, GameKind,
    MoveError, MoveErrorKind, MoveView, Outcome, Played, Repetitions, Rules, Seat, Snapshot, SnapshotError,
};

/// Table settings fixed when the game is created.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// A capture, when available, must be made (on by default). When off, a player may make a quiet move instead;
    /// a capture once started is still completed, and no piece is ever "huffed".
    pub mandatory_capture: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            mandatory_capture: true,
        }
    }
}

/// The draw limits of each variant, in plies. All tunable numbers of the draw rules are here.
mod limit {
    use parlor_game::DraughtsVariant;

    /// Plies without a capture and with only kings moving after which the game is drawn: English 40 (40 moves
    /// in total, no man moved), International 50 (25 moves each), Russian 30 (15 moves each); Pool has none.
    pub(super) const fn no_progress(variant: DraughtsVariant) -> Option<u32> {
        match variant {
            DraughtsVariant::English => Some(40),
            DraughtsVariant::International => Some(50),
            DraughtsVariant::Russian => Some(30),
            DraughtsVariant::Pool => None,
        }
    }

    /// International endgame limit for 3 kings, 2 kings + 1 man or 1 king + 2 men against a lone king: 16 moves each.
    pub(super) const ENDGAME_LONG: u32 = 32;
    /// International endgame limit for 2 kings, king + man or a king against a lone king: 5 moves each.
    pub(super) const ENDGAME_SHORT: u32 = 10;
    /// How many times a position must occur for the repetition draw.
    pub(super) const REPETITIONS: usize = 3;
}

/// Plies without a capture and with only kings moving after which a game of `variant` is drawn
/// (`EndReason::NoProgress`), or `None` where the variant has no such rule (Pool).
pub const fn no_progress_plies(variant: DraughtsVariant) -> Option<u32> {
    limit::no_progress(variant)
}

/// Which FMJD endgame limit applies to the material on the board (International draughts only).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Endgame {
    /// 16 moves each.
    Long,
    /// 5 moves each.
    Short,
}

impl Endgame {
    fn of(pos: &Position) -> Option<Endgame> {
        if pos.variant() != DraughtsVariant::International {
            return None;
        }
        let white = pos.count(Color::White);
        let black = pos.count(Color::Black);
        let class = |strong: (u32, u32)| match strong {
            (0, 3) | (1, 2) | (2, 1) => Some(Endgame::Long),
            (0, 2) | (1, 1) | (0, 1) => Some(Endgame::Short),
            _ => None,
        };
        let lone_king = (0, 1);
        [(white, black), (black, white)]
            .into_iter()
            .filter(|(_, weak)| *weak == lone_king)
            .filter_map(|(strong, _)| class(strong))
            .min_by_key(|c| match c {
                Endgame::Short => 0,
                Endgame::Long => 1,
            })
    }

    fn plies(self) -> u32 {
        match self {
            Endgame::Long => limit::ENDGAME_LONG,
            Endgame::Short => limit::ENDGAME_SHORT,
        }
    }
}

/// A draughts game: the position, the moves played, the draw counters and the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    options: Options,
    start: Position,
    position: Position,
    history: Vec<Played>,
    moves: Vec<Move>,
    outcome: Outcome,
    repetitions: Repetitions,
    /// Plies since the last capture or man move.
    quiet_plies: u32,
    /// The endgame limit in force and the plies played under it.
    endgame: Option<(Endgame, u32)>,
}

impl Game {
    /// A new game from the variant's start position.
    pub fn new(variant: DraughtsVariant, options: Options) -> Game {
        Game::from_position(Position::start(variant), options)
    }

    /// A new game from a PDN FEN position.
    ///
    /// # Errors
    /// A [`FenError`] if the FEN is not a valid position of the variant.
    pub fn from_fen(variant: DraughtsVariant, options: Options, fen: &str) -> Result<Game, FenError> {
        Ok(Game::from_position(Position::from_fen(variant, fen)?, options))
    }

    /// A new game from a position (its capture setting is replaced by `options`).
    pub fn from_position(position: Position, options: Options) -> Game {
        let position = position.with_mandatory_capture(options.mandatory_capture);
        let mut repetitions = Repetitions::default();
        repetitions.record(position.hash(), true);
        let mut game = Game {
            options,
            start: position,
            position,
            history: Vec::new(),
            moves: Vec::new(),
            outcome: Outcome::Running,
            repetitions,
            quiet_plies: 0,
            endgame: Endgame::of(&position).map(|e| (e, 0)),
        };
        game.settle(1);
        game
    }

    /// The variant.
    pub fn variant(&self) -> DraughtsVariant {
        self.position.variant()
    }

    /// The table options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a move of the current position.
    ///
    /// # Errors
    /// [`MoveErrorKind::GameOver`] once the game has ended, [`MoveErrorKind::Illegal`] for a move that is not
    /// legal now; the game is unchanged.
    pub fn play_move(&mut self, m: Move) -> Result<Played, MoveError> {
        if !self.outcome.is_running() {
            return Err(MoveError::game_over());
        }
        let legal = self.position.legal_moves();
        if !legal.contains(&m) {
            return Err(MoveError::new(
                MoveErrorKind::Illegal,
                "the move is not legal in this position",
            ));
        }
        let seat = Position::seat_of(self.variant(), self.position.side_to_move());
        let wire = notation::write(&self.position, m, &legal);
        let irreversible = m.is_capture() || self.position.is_man_move(m);
        self.position.play_unchecked(m);
        self.quiet_plies = if irreversible { 0 } else { self.quiet_plies + 1 };
        self.endgame = match (self.endgame, Endgame::of(&self.position)) {
            (Some((was, plies)), Some(now)) if was == now => Some((now, plies + 1)),
            (_, now) => now.map(|e| (e, 0)),
        };
        let seen = self.repetitions.record(self.position.hash(), irreversible);
        let played = Played {
            seat,
            display: wire.clone(),
            wire,
        };
        self.history.push(played.clone());
        self.moves.push(m);
        self.settle(seen);
        Ok(played)
    }

    /// Decides the outcome after a move (or at the start): loss with no pieces or no move, then the draw rules.
    fn settle(&mut self, seen: usize) {
        let variant = self.variant();
        let side = self.position.side_to_move();
        let winner = Position::seat_of(variant, side.other());
        let (men, kings) = self.position.count(side);
        self.outcome = if men + kings == 0 {
            Outcome::Decided(Decision::win(winner, EndReason::NoPieces))
        } else if self.position.legal_moves().is_empty() {
            Outcome::Decided(Decision::win(winner, EndReason::Blocked))
        } else if seen >= limit::REPETITIONS {
            Outcome::Drawn(EndReason::Threefold)
        } else if limit::no_progress(variant).is_some_and(|n| self.quiet_plies >= n) {
            Outcome::Drawn(EndReason::NoProgress)
        } else if self.endgame.is_some_and(|(class, plies)| plies >= class.plies()) {
            Outcome::Drawn(EndReason::EndgameLimit)
        } else {
            Outcome::Running
        };
    }

    /// The view of one legal move for a board UI.
    fn view(&self, m: Move, legal: &[Move]) -> MoveView {
        let variant = self.variant();
        let path = self.position.move_path(m);
        MoveView {
            wire: notation::write(&self.position, m, legal),
            from: square_coord(variant, self.position.from_square(m)),
            to: square_coord(variant, self.position.to_square(m)),
            path: path.iter().skip(1).map(|&s| square_coord(variant, s)).collect(),
            captures: self
                .position
                .captured_squares(m)
                .into_iter()
                .map(|s| square_coord(variant, s))
                .collect(),
            promotion: None,
        }
    }

    /// The PDN result: International scores 2-0 / 1-1 / 0-2, the others 1-0 / 1/2-1/2 / 0-1, always from the
    /// first mover's side (FMJD PDN).
    fn result(&self) -> &'static str {
        let default = self.outcome.result_str();
        if self.variant() != DraughtsVariant::International {
            return default;
        }
        match default {
            "1-0" => "2-0",
            "0-1" => "0-2",
            "1/2-1/2" => "1-1",
            other => other,
        }
    }
}

/// The PDN `GameType` tag of a variant: the FMJD number (with board details where they match our numbering).
pub(crate) const fn game_type(variant: DraughtsVariant) -> &'static str {
    match variant {
        DraughtsVariant::English => "21,B,8,8,N1,0",
        DraughtsVariant::International => "20,W,10,10,N2,0",
        DraughtsVariant::Russian => "25,W,8,8,A0,0",
        DraughtsVariant::Pool => "23,B,8,8,N1,0",
    }
}

fn seat_error(seat: Seat) -> Result<(), EventError> {
    if seat.index() < 2 {
        Ok(())
    } else {
        Err(EventError::NotPlaying(seat))
    }
}

fn tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{value}\"]\n"));
}

impl Rules for Game {
    fn kind(&self) -> GameKind {
        GameKind::Draughts(self.variant())
    }

    fn turn(&self) -> Option<Seat> {
        self.outcome
            .is_running()
            .then(|| Position::seat_of(self.variant(), self.position.side_to_move()))
    }

    fn legal_moves(&self) -> Vec<MoveView> {
        if !self.outcome.is_running() {
            return Vec::new();
        }
        let legal = self.position.legal_moves();
        legal.iter().map(|&m| self.view(m, &legal)).collect()
    }

    fn play(&mut self, wire: &str) -> Result<Played, MoveError> {
        if !self.outcome.is_running() {
            return Err(MoveError::game_over());
        }
        let pdn: PdnMove = wire.parse()?;
        let m = pdn.to_move(&self.position)?;
        self.play_move(m)
    }

    fn apply(&mut self, event: GameEvent) -> Result<(), EventError> {
        if !self.outcome.is_running() {
            return Err(EventError::GameOver);
        }
        let lose = |seat: Seat, reason: EndReason| -> Result<Outcome, EventError> {
            seat_error(seat)?;
            Ok(Outcome::Decided(Decision::win(seat.next(2), reason)))
        };
        self.outcome = match event {
            GameEvent::Resign(seat) => lose(seat, EndReason::Resignation)?,
            GameEvent::Timeout(seat) => lose(seat, EndReason::Timeout)?,
            GameEvent::Abandon(seat) => lose(seat, EndReason::Abandoned)?,
            GameEvent::DrawAgreed => Outcome::Drawn(EndReason::Agreement),
        };
        Ok(())
    }

    fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    fn position_text(&self) -> String {
        self.position.to_fen()
    }

    fn start_text(&self) -> String {
        self.start.to_fen()
    }

    fn history(&self) -> &[Played] {
        &self.history
    }

    fn repetition_key(&self) -> u64 {
        self.position.hash()
    }

    fn checked_kings(&self) -> Vec<Coord> {
        Vec::new()
    }

    fn export(&self, info: &ExportInfo) -> String {
        let variant = self.variant();
        let mut out = String::new();
        let or = |s: &str, default: &str| {
            if s.is_empty() {
                default.to_owned()
            } else {
                s.to_owned()
            }
        };
        let player = |color: Color| {
            let seat = Position::seat_of(variant, color);
            info.players
                .get(seat.index())
                .filter(|p| !p.is_empty())
                .cloned()
                .unwrap_or_else(|| "?".to_owned())
        };
        tag(&mut out, "GameType", game_type(variant));
        tag(&mut out, "Event", &or(&info.event, "Parlor game"));
        tag(&mut out, "Site", &or(&info.site, "?"));
        tag(&mut out, "Date", &or(&info.date, "????.??.??"));
        tag(&mut out, "Round", "?");
        tag(&mut out, "White", &player(Color::White));
        tag(&mut out, "Black", &player(Color::Black));
        tag(&mut out, "Result", self.result());
        if self.start != Position::start(variant).with_mandatory_capture(self.options.mandatory_capture) {
            tag(&mut out, "SetUp", "1");
            tag(&mut out, "FEN", &self.start.to_fen());
        }
        if !info.time_control.is_empty() {
            tag(&mut out, "TimeControl", &info.time_control);
        }
        if !self.options.mandatory_capture {
            tag(&mut out, "MandatoryCapture", "no");
        }
        if let Some(reason) = self.outcome.reason() {
            tag(&mut out, "Termination", reason.name());
        }
        for (name, value) in &info.extra {
            tag(&mut out, name, value);
        }
        out.push('\n');
        let mut text = Vec::new();
        let first = Position::seat_of(variant, self.start.side_to_move()) == Seat::First;
        // Russian PDN names squares algebraically (`c3-d4`, `c3xe5`), as Russian draughts programs read.
        let written = |display: &str| match variant {
            DraughtsVariant::Russian => display
                .parse::<PdnMove>()
                .ok()
                .and_then(|m| m.to_algebraic())
                .unwrap_or_else(|| display.to_owned()),
            _ => display.to_owned(),
        };
        for (i, played) in self.history.iter().enumerate() {
            let ply = i + usize::from(!first);
            let shown = written(&played.display);
            if ply % 2 == 0 {
                text.push(format!("{}. {shown}", ply / 2 + 1));
            } else if i == 0 {
                text.push(format!("1... {shown}"));
            } else {
                text.push(shown);
            }
            text.extend(info.comment(i));
        }
        text.push(self.result().to_owned());
        // Wrap movetext at 80 columns, as PGN and PDN readers expect.
        let mut line = String::new();
        for word in text {
            if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    fn clone_box(&self) -> AnyGame {
        Box::new(self.clone())
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot::new(Before {
            options: self.options,
            position: self.position,
            history: self.history.len(),
            moves: self.moves.len(),
            outcome: self.outcome,
            repetitions: self.repetitions.clone(),
            quiet_plies: self.quiet_plies,
            endgame: self.endgame,
        })
    }

    fn restore(&mut self, snapshot: Snapshot) -> Result<(), SnapshotError> {
        let before: Before = snapshot.take()?;
        if self.history.len() < before.history || self.moves.len() < before.moves {
            return Err(SnapshotError);
        }
        rewind(&mut self.history, before.history)?;
        rewind(&mut self.moves, before.moves)?;
        self.options = before.options;
        self.position = before.position;
        self.outcome = before.outcome;
        self.repetitions = before.repetitions;
        self.quiet_plies = before.quiet_plies;
        self.endgame = before.endgame;
        Ok(())
    }
}

/// What a move or event can change, for [`Rules::snapshot`]: every field but the start (fixed) and the move
/// lists (which only grow, kept as lengths).
struct Before {
    options: Options,
    position: Position,
    history: usize,
    moves: usize,
    outcome: Outcome,
    repetitions: Repetitions,
    quiet_plies: u32,
    endgame: Option<(Endgame, u32)>,
}

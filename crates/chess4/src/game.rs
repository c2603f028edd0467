//! A whole four-player game as a table runs it: wire moves with typed refusals, resignations and timeouts, the
//! draw rules (+10 points to each live player), the table's move limit, places by points, and PGN4 export.

use crate::chess_move::{Move, MoveKind};
use crate::fen4::Fen4Error;
use crate::piece::{Role, seat_name};
use crate::position::Position;
use crate::square::Square;
use parlor_game::rules::rewind;
use parlor_game::{
    AnyGame, BySeat, Coord, Decision, EndReason, EventError, ExportInfo, GameEvent, GameKind, MoveError,
    MoveErrorKind, MoveView, Outcome, Played, Repetitions, Rules, Seat, Snapshot, SnapshotError,
};

/// Table options of a four-player game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The table rule "move limit": when the players' moves together reach this number, the game ends and
    /// places go by points. `None`: no limit.
    pub move_limit: Option<u32>,
    /// Who moves first (the server rotates it between games at tables that ask for it).
    pub first: Seat,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            move_limit: None,
            first: Seat::First,
        }
    }
}

/// Points each live player gets when the game is drawn by repetition or by the fifty-move rule.
pub const DRAW_POINTS: i32 = 10;
/// Moves without a capture or pawn move that each player still in must have made for the game to end drawn.
pub const FIFTY_MOVES: u32 = 50;

/// A move in wire notation, before it is matched against the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Wire {
    Castle {
        king_side: bool,
    },
    Step {
        role: Option<Role>,
        from: Square,
        to: Square,
        promotion: bool,
    },
}

/// True when the text is spelled as a move (legal or not).
pub(crate) fn is_wire(text: &str) -> bool {
    parse_wire(text).is_some()
}

fn parse_wire(text: &str) -> Option<Wire> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t {
        "O-O" | "0-0" => return Some(Wire::Castle { king_side: true }),
        "O-O-O" | "0-0-0" => return Some(Wire::Castle { king_side: false }),
        _ => {}
    }
    let (t, promotion) = match t.strip_suffix("=Q").or_else(|| t.strip_suffix("=D")) {
        Some(rest) => (rest, true),
        None => (t, false),
    };
    let (role, t) = match t.chars().next() {
        Some(c) if c.is_ascii_uppercase() => (Some(Role::from_letter(c)?), &t[1..]),
        _ => (None, t),
    };
    let sep = t.find(['-', 'x'])?;
    let from = Square::parse(&t[..sep])?;
    let to = Square::parse(&t[sep + 1..])?;
    Some(Wire::Step {
        role,
        from,
        to,
        promotion,
    })
}

/// A four-player free-for-all game.
#[derive(Clone, Debug)]
pub struct Game {
    options: Options,
    start: Position,
    pos: Position,
    history: Vec<Played>,
    /// PGN4 tokens in order: moves as displayed, `R` for a resignation, `T` for a timeout (followed by the seat's
    /// name in a comment, `R {Blue}`, when that seat was not the one to move).
    record: Vec<(Seat, String)>,
    repetitions: Repetitions,
    outcome: Outcome,
    /// When each seat went out (a counter; seats out on the same move share it). `None` while live.
    out_at: [Option<u32>; 4],
    out_count: u32,
    /// Each seat's own moves since the last capture or pawn move: the fifty-move rule wants fifty from every
    /// player still in.
    quiet: [u32; 4],
}

impl Game {
    /// A new game from the standard start.
    pub fn new(options: Options) -> Game {
        Game::from_position(Position::start_with_first(options.first), options)
    }

    /// A game from a FEN4 position; the side to move comes from the text, `move_limit` from the table.
    ///
    /// # Errors
    /// [`Fen4Error`] if the text is not a valid FEN4 position.
    pub fn from_fen4(text: &str, move_limit: Option<u32>) -> Result<Game, Fen4Error> {
        let pos = Position::from_fen4(text)?;
        Ok(Game::from_position(
            pos.clone(),
            Options {
                move_limit,
                first: pos.turn(),
            },
        ))
    }

    fn from_position(start: Position, options: Options) -> Game {
        let mut pos = start.clone();
        pos.settle();
        let mut game = Game {
            options,
            start,
            pos,
            history: Vec::new(),
            record: Vec::new(),
            repetitions: Repetitions::default(),
            outcome: Outcome::Running,
            out_at: [None; 4],
            out_count: 0,
            quiet: [0; 4],
        };
        for s in 0..4 {
            if game.pos.dead & (1 << s) != 0 {
                game.out_at[s] = Some(0);
            }
        }
        game.out_count = 1;
        game.quiet = quiet_from_clock(&game.pos);
        game.repetitions.record(game.pos.repetition_key(), true);
        game.conclude(false, None);
        game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The table options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Finds the legal move that wire notation names.
    ///
    /// # Errors
    /// [`MoveErrorKind::Malformed`] if the text is not a move, [`MoveErrorKind::Illegal`] if no legal move fits,
    /// [`MoveErrorKind::GameOver`] once the game has ended.
    pub fn parse_move(&self, wire: &str) -> Result<Move, MoveError> {
        if !self.outcome.is_running() {
            return Err(MoveError::game_over());
        }
        let parsed = parse_wire(wire).ok_or_else(|| {
            MoveError::new(
                MoveErrorKind::Malformed,
                format!(
                    "`{wire}` is not a move (expected long algebraic such as h2-h4, Nj1-i3, Qg1xm7, O-O)"
                ),
            )
        })?;
        let legal = self.pos.legal_moves();
        let found = legal.iter().copied().find(|m| match parsed {
            Wire::Castle { king_side } => {
                m.kind
                    == if king_side {
                        MoveKind::CastleKingSide
                    } else {
                        MoveKind::CastleQueenSide
                    }
            }
            Wire::Step {
                role,
                from,
                to,
                promotion,
            } => {
                let piece = self.pos.piece_at(from).map(|p| p.role);
                let role_fits = match role {
                    None => piece == Some(Role::Pawn),
                    Some(Role::Queen | Role::PromotedQueen) => {
                        matches!(piece, Some(Role::Queen | Role::PromotedQueen))
                    }
                    Some(r) => piece == Some(r),
                };
                m.from == from && m.to == to && role_fits && (!promotion || m.kind == MoveKind::Promotion)
            }
        });
        found.ok_or_else(|| {
            MoveError::new(
                MoveErrorKind::Illegal,
                format!("`{wire}` is not a legal move for {}", self.turn_name()),
            )
        })
    }

    fn turn_name(&self) -> &'static str {
        seat_name(self.pos.turn())
    }

    /// Plays a legal move (from [`Position::legal_moves`] of [`Game::position`]) and returns how it was recorded.
    pub fn play_move(&mut self, m: Move) -> Played {
        let seat = self.pos.turn();
        let wire = self.pos.move_notation(m);
        let capture = self.pos.piece_at(m.to).is_some() || m.kind == MoveKind::EnPassant;
        let pawn = self.pos.piece_at(m.from).map(|p| p.role) == Some(Role::Pawn);
        let (dead, castling) = (self.pos.dead, self.pos.castling);
        self.pos.play_unchecked(m);
        if self.pos.halfmove == 0 {
            self.quiet = [0; 4];
        } else {
            self.quiet[seat.index()] += 1;
        }
        let eliminated = self.pos.dead != dead;
        let mut display = wire.clone();
        if eliminated {
            display.push('#');
        } else {
            for _ in self.pos.kings_attacked_by(seat) {
                display.push('+');
            }
        }
        let irreversible = capture || pawn || eliminated || castling != self.pos.castling;
        let count = self.repetitions.record(self.pos.repetition_key(), irreversible);
        let played = Played {
            seat,
            wire,
            display: display.clone(),
        };
        self.history.push(played.clone());
        self.record.push((seat, display));
        self.conclude(count >= 3, None);
        played
    }

    /// Marks newly eliminated seats and ends the game when a rule says so. `threefold`: the position has just
    /// occurred for the third time. `event`: the resignation or timeout that caused this change, if any.
    fn conclude(&mut self, threefold: bool, event: Option<EndReason>) {
        let mut any = false;
        for s in 0..4 {
            if self.pos.dead & (1 << s) != 0 && self.out_at[s].is_none() {
                self.out_at[s] = Some(self.out_count);
                any = true;
            }
        }
        if any {
            self.out_count += 1;
        }
        let reason = if self.pos.is_over() {
            Some(match event {
                Some(reason) => reason,
                None if self.pos.live_count() <= 1 => EndReason::LastPlayerStanding,
                None => EndReason::PointsGap,
            })
        } else if threefold {
            Some(EndReason::Threefold)
        } else if event.is_none()
            && (0..4).all(|u| self.pos.dead & (1 << u) != 0 || self.quiet[u] >= FIFTY_MOVES)
        {
            // Only a move makes the fifty: a resignation or timeout is recorded as what it is.
            Some(EndReason::FiftyMove)
        } else if self
            .options
            .move_limit
            .is_some_and(|n| self.history.len() as u64 >= u64::from(n))
        {
            Some(EndReason::MoveLimit)
        } else {
            None
        };
        let Some(reason) = reason else { return };
        // The draw scores when play reaches it. A start position already past the fifty-move rule is a game
        // over as written, its points as the text says: the FEN4 of a drawn game already counts the draw, and
        // reading it back must not count it again.
        if matches!(reason, EndReason::Threefold | EndReason::FiftyMove) && !self.history.is_empty() {
            for s in 0..4 {
                if self.pos.dead & (1 << s) == 0 {
                    self.pos.points[s] += DRAW_POINTS;
                }
            }
        }
        self.outcome = Outcome::Decided(Decision {
            places: self.places(),
            reason,
        });
    }

    /// Places by points; on equal points a seat still playing ranks above an eliminated one and a later
    /// elimination above an earlier one; seats equal on all three share the place.
    fn places(&self) -> BySeat<u8> {
        let key = |s: usize| (self.pos.points[s], self.out_at[s].unwrap_or(u32::MAX));
        let mut places = BySeat::filled(4, 1u8);
        for s in 0..4 {
            let better = (0..4).filter(|&u| key(u) > key(s)).count();
            places[crate::position::seat(s)] = 1 + better as u8;
        }
        places
    }

    fn result_tag(&self) -> String {
        match self.outcome {
            Outcome::Running => "*".to_owned(),
            _ => self
                .pos
                .points
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join("-"),
        }
    }

    fn termination_tag(&self) -> String {
        match self.outcome {
            Outcome::Decided(d) => {
                let firsts: Vec<&str> = d
                    .places
                    .iter()
                    .filter(|(_, p)| **p == 1)
                    .map(|(s, _)| seat_name(s))
                    .collect();
                let places: Vec<String> = d
                    .places
                    .iter()
                    .map(|(s, p)| format!("{} {p}", seat_name(s)))
                    .collect();
                let verb = if firsts.len() == 1 {
                    "won"
                } else {
                    "shared first place"
                };
                format!(
                    "{} {verb} ({}); places: {}",
                    firsts.join(" and "),
                    d.reason.name(),
                    places.join(", ")
                )
            }
            _ => "unterminated".to_owned(),
        }
    }
}

fn view(pos: &Position, m: Move) -> MoveView {
    let captures = match m.kind {
        MoveKind::EnPassant => (0..4)
            .filter_map(Seat::from_index)
            .filter(|&u| pos.en_passant(u) == Some(m.to))
            .map(|u| {
                let victim = m.to.index().wrapping_add_signed(crate::position::FWD[u.index()]);
                Square::from_index_unchecked(victim).to_coord()
            })
            .collect(),
        _ if pos.piece_at(m.to).is_some() => vec![m.to.to_coord()],
        _ => Vec::new(),
    };
    MoveView {
        wire: pos.move_notation(m),
        from: m.from.to_coord(),
        to: m.to.to_coord(),
        path: Vec::new(),
        captures,
        promotion: (m.kind == MoveKind::Promotion).then_some('q'),
    }
}

impl Rules for Game {
    fn kind(&self) -> GameKind {
        GameKind::Chess4
    }

    fn turn(&self) -> Option<Seat> {
        self.outcome.is_running().then(|| self.pos.turn())
    }

    fn legal_moves(&self) -> Vec<MoveView> {
        if !self.outcome.is_running() {
            return Vec::new();
        }
        self.pos
            .legal_moves()
            .iter()
            .map(|&m| view(&self.pos, m))
            .collect()
    }

    fn play(&mut self, wire: &str) -> Result<Played, MoveError> {
        let m = self.parse_move(wire)?;
        Ok(self.play_move(m))
    }

    fn apply(&mut self, event: GameEvent) -> Result<(), EventError> {
        if !self.outcome.is_running() {
            return Err(EventError::GameOver);
        }
        let (seat, token, reason) = match event {
            GameEvent::Resign(seat) => (seat, "R", EndReason::Resignation),
            GameEvent::Timeout(seat) => (seat, "T", EndReason::Timeout),
            GameEvent::Abandon(_) => {
                return Err(EventError::NotAllowed(
                    "in four-player chess a CPU takes over an abandoned seat; it is not an elimination",
                ));
            }
            GameEvent::DrawAgreed => {
                return Err(EventError::NotAllowed(
                    "four-player chess has no draw by agreement",
                ));
            }
        };
        let to_move = self.pos.turn();
        if !self.pos.resign(seat) {
            return Err(EventError::NotPlaying(seat));
        }
        self.repetitions.record(self.pos.repetition_key(), true);
        // A seat that was not to move is named in a comment, so a reader knows who left.
        let token = if seat == to_move {
            token.to_owned()
        } else {
            format!("{token} {{{}}}", seat_name(seat))
        };
        self.record.push((seat, token));
        self.conclude(false, Some(reason));
        Ok(())
    }

    fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    fn points(&self) -> BySeat<i32> {
        self.pos.points()
    }

    fn eliminated(&self) -> BySeat<bool> {
        self.pos.eliminated()
    }

    fn position_text(&self) -> String {
        self.pos.to_fen4()
    }

    fn start_text(&self) -> String {
        self.start.to_fen4()
    }

    fn history(&self) -> &[Played] {
        &self.history
    }

    fn repetition_key(&self) -> u64 {
        self.pos.repetition_key()
    }

    fn checked_kings(&self) -> Vec<Coord> {
        Seat::ALL
            .into_iter()
            .filter(|&s| self.pos.is_check(s))
            .filter_map(|s| self.pos.king(s))
            .map(Square::to_coord)
            .collect()
    }

    /// PGN4 as chess.com writes it: tags, then rounds `1. h2-h3 .. b7-c7 .. g13-g12 .. m8-l8`, with `R` and `T`
    /// for resignations and timeouts (`R {Blue}` for a seat that was not to move). `Result` holds the final points
    /// in seat order (`*` while running). [`crate::pgn4::read`] reads it back.
    fn export(&self, info: &ExportInfo) -> String {
        let or = |s: &str, default: &str| {
            if s.is_empty() {
                default.to_owned()
            } else {
                s.to_owned()
            }
        };
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), or(&info.event, "Parlor game")),
            ("Site".into(), or(&info.site, "?")),
            ("Date".into(), or(&info.date, "????.??.??")),
            ("Variant".into(), "FFA".into()),
            ("RuleVariants".into(), "EnPassant PromoteTo=D".into()),
            ("StartFen4".into(), self.start.to_fen4()),
        ];
        for s in Seat::ALL {
            let name = info
                .players
                .get(s.index())
                .cloned()
                .unwrap_or_else(|| "?".to_owned());
            tags.push((seat_name(s).to_owned(), name));
        }
        tags.push(("TimeControl".into(), or(&info.time_control, "-")));
        if let Some(limit) = self.options.move_limit {
            tags.push(("MoveLimit".into(), limit.to_string()));
        }
        tags.push(("Result".into(), self.result_tag()));
        tags.push(("Termination".into(), self.termination_tag()));
        tags.extend(info.extra.iter().cloned());

        let mut out = String::new();
        for (k, v) in &tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        out.push('\n');
        let first = self.start.turn().index();
        let mut round = 0;
        let mut last_rel = usize::MAX;
        let mut moves = 0;
        for (seat, token) in &self.record {
            // Comments follow moves; the record also holds resignations and timeouts (`R`, `T`, with the seat in
            // a comment when it was not to move).
            let event = ["R", "T"]
                .iter()
                .any(|e| token == e || token.starts_with(&format!("{e} {{")));
            let comment = if !event {
                moves += 1;
                info.comment(moves - 1).map(|c| format!(" {c}"))
            } else {
                None
            };
            let token = format!("{token}{}", comment.unwrap_or_default());
            let rel = (seat.index() + 4 - first) % 4;
            if last_rel == usize::MAX || rel <= last_rel {
                round += 1;
                if round > 1 {
                    out.push('\n');
                }
                out.push_str(&format!("{round}. {token}"));
            } else {
                out.push_str(&format!(" .. {token}"));
            }
            last_rel = rel;
        }
        if !self.record.is_empty() {
            out.push('\n');
        }
        out
    }

    fn clone_box(&self) -> AnyGame {
        Box::new(self.clone())
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot::new(Before {
            options: self.options,
            pos: self.pos.clone(),
            history: self.history.len(),
            record: self.record.len(),
            repetitions: self.repetitions.clone(),
            outcome: self.outcome,
            out_at: self.out_at,
            out_count: self.out_count,
            quiet: self.quiet,
        })
    }

    fn restore(&mut self, snapshot: Snapshot) -> Result<(), SnapshotError> {
        let before: Before = snapshot.take()?;
        if self.history.len() < before.history || self.record.len() < before.record {
            return Err(SnapshotError);
        }
        rewind(&mut self.history, before.history)?;
        rewind(&mut self.record, before.record)?;
        self.options = before.options;
        self.pos = before.pos;
        self.repetitions = before.repetitions;
        self.outcome = before.outcome;
        self.out_at = before.out_at;
        self.out_count = before.out_count;
        self.quiet = before.quiet;
        Ok(())
    }
}

/// What a move or event can change, for [`Rules::snapshot`]: every field but the start (fixed) and the move
/// lists (which only grow, kept as lengths).
struct Before {
    options: Options,
    pos: Position,
    history: usize,
    record: usize,
    repetitions: Repetitions,
    outcome: Outcome,
    out_at: [Option<u32>; 4],
    out_count: u32,
    quiet: [u32; 4],
}

/// Each seat's quiet moves as a FEN4's one halfmove clock implies: the clock's plies shared out among the seats
/// still in, in turn order, the last ones by the seats just before the one to move.
fn quiet_from_clock(pos: &Position) -> [u32; 4] {
    let live: Vec<usize> = (0..4).filter(|u| pos.dead & (1 << u) == 0).collect();
    let mut quiet = [0; 4];
    let Some(n) = u32::try_from(live.len()).ok().filter(|&n| n > 0) else {
        return quiet;
    };
    let (full, rest) = (pos.halfmove / n, pos.halfmove % n);
    for &u in &live {
        quiet[u] = full;
    }
    // The `rest` seats before the one to move (going back round the table) made one more.
    let mut u = pos.turn;
    for _ in 0..rest {
        u = (1..=4)
            .map(|i| (u + 4 - i) % 4)
            .find(|v| pos.dead & (1 << v) == 0)
            .unwrap_or(u);
        quiet[u] += 1;
    }
    quiet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_notation_parses() {
        let sq = |s: &str| Square::parse(s);
        assert_eq!(
            parse_wire("h2-h4"),
            sq("h2").zip(sq("h4")).map(|(from, to)| Wire::Step {
                role: None,
                from,
                to,
                promotion: false
            })
        );
        assert!(matches!(
            parse_wire("Qg1xm7+"),
            Some(Wire::Step {
                role: Some(Role::Queen),
                ..
            })
        ));
        assert!(matches!(
            parse_wire("h7-h8=Q"),
            Some(Wire::Step { promotion: true, .. })
        ));
        assert_eq!(parse_wire("O-O-O"), Some(Wire::Castle { king_side: false }));
        assert_eq!(parse_wire("e2e4"), None);
        assert_eq!(parse_wire("Zh2-h4"), None);
        assert_eq!(parse_wire("a1-a2"), None);
        assert_eq!(parse_wire(""), None);
    }

    /// Found by the `chess4` fuzz target: reading a FEN4 whose halfmove clock is past the fifty-move rule
    /// scored the draw again on every read, so a drawn game's FEN4 did not read back to itself.
    #[test]
    fn a_fen4_past_the_fifty_move_rule_reads_back_with_its_own_points() {
        let mut start = Position::start();
        start.halfmove = FIFTY_MOVES * 4 + 1;
        let text = start.to_fen4();
        let game = Game::from_fen4(&text, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            game.outcome(),
            Outcome::Decided(Decision {
                reason: EndReason::FiftyMove,
                ..
            })
        ));
        assert_eq!(game.position_text(), text);
        let again = Game::from_fen4(&game.position_text(), None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.position_text(), text);
        assert_eq!(again.points(), game.points());
    }

    #[test]
    fn the_fifty_move_draw_reached_in_play_scores_once() {
        let mut start = Position::start();
        start.halfmove = FIFTY_MOVES * 4 - 1;
        let mut game = Game::from_fen4(&start.to_fen4(), None).unwrap_or_else(|e| panic!("{e}"));
        game.play("Nj1-i3").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.points(), BySeat::filled(4, DRAW_POINTS));
        let again = Game::from_fen4(&game.position_text(), None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.points(), game.points());
        assert_eq!(again.position_text(), game.position_text());
    }

    /// From the review of the rules: 149 quiet plies with four players is about 37 moves each, so a quiet mate
    /// that takes one player out must not end the game as a fifty-move draw.
    #[test]
    fn the_fifty_move_rule_wants_fifty_moves_from_each_player_still_in() {
        let text = "R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-149-7,yK,6/6,yP,yP,yP,5/14/14/14/14/13,gK/bK,13/14/3,rR,10/14/14/14/7,rK,6";
        let mut game = Game::from_fen4(text, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(game.outcome(), Outcome::Running));
        game.play("Rd5-d14").unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !matches!(
                game.outcome(),
                Outcome::Decided(Decision {
                    reason: EndReason::FiftyMove,
                    ..
                })
            ),
            "{:?}",
            game.outcome()
        );
    }

    #[test]
    fn a_quiet_clock_is_shared_out_among_the_players_still_in() {
        let mut pos = Position::start();
        pos.halfmove = 7;
        pos.turn = 2;
        // Seven plies before Yellow's turn, going back: Blue, Red, Green, Yellow, Blue, Red, Green: two each but Yellow.
        assert_eq!(quiet_from_clock(&pos), [2, 2, 1, 2]);
        pos.dead = 1 << 3;
        // Green out: six plies before Yellow among Red, Blue, Yellow: 2 each, and one more for Blue.
        assert_eq!(quiet_from_clock(&pos), [2, 3, 2, 0]);
    }

    /// From the review of the rules: Black's king is already in Red's check; the rook's move checks Yellow's
    /// king only, so it puts one king in check and earns no double-check bonus.
    #[test]
    fn a_check_bonus_counts_only_the_kings_the_move_puts_in_check() {
        let text = "R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-6,yK,7/14/14/14/14/1,bK,1,rR,10/13,gK/14/14/9,rR,4/14/14/14/7,rK,6";
        let mut game = Game::from_fen4(text, None).unwrap_or_else(|e| panic!("{e}"));
        game.play("Rj5-j14").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.points()[Seat::First], 0, "{}", game.position_text());
    }
}

//! A draughts position of any variant: the pure rules (legal moves, play, notation) that perft and search use.

use crate::board::{Board, Color};
use crate::fen::{self, FenError};
use crate::generator;
use crate::moves::{Move, MoveList};
use crate::rule::{bit_of, half_width, square_of, with_rule};
use parlor_game::{Coord, DraughtsVariant, Seat};

/// A piece: a man or a king of one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// True for a king.
    pub king: bool,
}

/// A move was not legal in the position it was played in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the move is not legal in this position")]
pub struct IllegalMove;

/// A position: the pieces, the side to move, the variant, and whether capturing is mandatory.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) variant: DraughtsVariant,
    pub(crate) board: Board,
    pub(crate) mandatory_capture: bool,
}

impl Position {
    /// The variant's start position (English and Pool: Black to move; International and Russian: White).
    pub fn start(variant: DraughtsVariant) -> Position {
        let h = half_width(variant);
        let squares = 2 * h * h;
        let rows = if h == 5 { 4 } else { 3 };
        let mut board = Board {
            pieces: [0, 0],
            kings: 0,
            turn: first_mover(variant),
        };
        for s in 0..rows * h {
            board.pieces[Color::Black.index()] |= 1 << bit_of(s, h);
            board.pieces[Color::White.index()] |= 1 << bit_of(squares - 1 - s, h);
        }
        Position {
            variant,
            board,
            mandatory_capture: true,
        }
    }

    /// Reads a position from PDN FEN, for example `B:W21,22,23:B1,2,K3` (ranges such as `B1-12` are accepted).
    ///
    /// # Errors
    /// A [`FenError`] saying what is wrong: the side to move, a piece list, a square out of range or occupied twice,
    /// or a man standing on its own crowning row.
    pub fn from_fen(variant: DraughtsVariant, text: &str) -> Result<Position, FenError> {
        let h = half_width(variant);
        let squares = 2 * h * h;
        let setup = fen::parse(text, squares)?;
        let mut board = Board {
            pieces: [0, 0],
            kings: 0,
            turn: setup.turn,
        };
        for color in [Color::White, Color::Black] {
            for &(sq, king) in &setup.pieces[color.index()] {
                let on_crown_row = match color {
                    Color::White => sq <= h,
                    Color::Black => sq > squares - h,
                };
                if on_crown_row && !king {
                    return Err(FenError::ManOnCrownRow(sq));
                }
                let bit = 1u64 << bit_of(sq - 1, h);
                board.pieces[color.index()] |= bit;
                if king {
                    board.kings |= bit;
                }
            }
        }
        Ok(Position {
            variant,
            board,
            mandatory_capture: true,
        })
    }

    /// The position in PDN FEN: side to move, then White's and Black's pieces in square order, kings with `K`.
    pub fn to_fen(&self) -> String {
        let pieces = [Color::White, Color::Black].map(|color| {
            (1..=self.square_count())
                .filter_map(|sq| match self.piece_at(sq) {
                    Some(p) if p.color == color => Some((sq, p.king)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        });
        fen::write(self.board.turn, &pieces)
    }

    /// The same position with capturing mandatory or not (a table option; mandatory by default).
    pub fn with_mandatory_capture(mut self, mandatory: bool) -> Position {
        self.mandatory_capture = mandatory;
        self
    }

    /// Whether a capture, when available, must be made.
    pub fn is_capture_mandatory(&self) -> bool {
        self.mandatory_capture
    }

    /// The variant.
    pub fn variant(&self) -> DraughtsVariant {
        self.variant
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.board.turn
    }

    /// The seat of a colour: the variant's first mover is [`Seat::First`].
    pub fn seat_of(variant: DraughtsVariant, color: Color) -> Seat {
        if color == first_mover(variant) {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The colour that sits in `seat` (only `First` and `Second` play draughts).
    pub fn color_of(variant: DraughtsVariant, seat: Seat) -> Color {
        if seat == Seat::First {
            first_mover(variant)
        } else {
            first_mover(variant).other()
        }
    }

    /// Number of playable squares: 32 or 50.
    pub fn square_count(&self) -> u32 {
        let h = half_width(self.variant);
        2 * h * h
    }

    /// The piece on PDN square `square` (1-based), if any.
    pub fn piece_at(&self, square: u32) -> Option<Piece> {
        if square == 0 || square > self.square_count() {
            return None;
        }
        let bit = 1u64 << bit_of(square - 1, half_width(self.variant));
        let king = self.board.kings & bit != 0;
        [Color::White, Color::Black]
            .into_iter()
            .find(|c| self.board.pieces[c.index()] & bit != 0)
            .map(|color| Piece { color, king })
    }

    /// How many pieces `color` has: (men, kings).
    pub fn count(&self, color: Color) -> (u32, u32) {
        let own = self.board.pieces[color.index()];
        (
            (own & !self.board.kings).count_ones(),
            (own & self.board.kings).count_ones(),
        )
    }

    /// The bitboards for an engine's evaluation: White's pieces, Black's pieces, and the kings of both. 0-based
    /// square `s` (PDN square `s + 1`) is bit `s + s / (2h)`, `h` the dark squares per row (4 or 5): after every
    /// second row one bit is left empty (see the layout in `rule.rs`).
    pub fn bitboards(&self) -> [u64; 3] {
        [
            self.board.pieces[Color::White.index()],
            self.board.pieces[Color::Black.index()],
            self.board.kings,
        ]
    }

    /// Every legal move, each distinct move (from, to, set of taken pieces) once.
    pub fn legal_moves(&self) -> MoveList {
        let mut out = Vec::with_capacity(32);
        with_rule!(self.variant, R => generator::legal_moves::<R>(&self.board, self.mandatory_capture, &mut out));
        MoveList(out)
    }

    /// Appends the legal moves to `out` without allocating when it has room (the fast path for a search).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        with_rule!(self.variant, R => generator::legal_moves::<R>(&self.board, self.mandatory_capture, out));
    }

    /// True if `m` is one of the legal moves.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`IllegalMove`] if `m` is not legal here; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove);
        }
        self.board.play(m);
        Ok(())
    }

    /// Plays a move from [`Position::legal_moves`] without checking it.
    pub fn play_unchecked(&mut self, m: Move) {
        self.board.play(m);
    }

    /// PDN square (1-based) of a board bit.
    pub(crate) fn square_of_bit(&self, bit: u8) -> u32 {
        square_of(u32::from(bit), half_width(self.variant)) + 1
    }

    /// The square a move starts on (PDN number).
    pub fn from_square(&self, m: Move) -> u32 {
        self.square_of_bit(m.from)
    }

    /// The square a move ends on (PDN number).
    pub fn to_square(&self, m: Move) -> u32 {
        self.square_of_bit(m.to)
    }

    /// The squares of the pieces a move takes (PDN numbers, ascending).
    pub fn captured_squares(&self, m: Move) -> Vec<u32> {
        let mut bb = m.captured;
        let mut out = Vec::new();
        while bb != 0 {
            out.push(self.square_of_bit(bb.trailing_zeros() as u8));
            bb &= bb - 1;
        }
        out
    }

    /// The grid coordinate of PDN square `square` (White's side at the bottom).
    pub fn coord(&self, square: u32) -> Coord {
        square_coord(self.variant, square)
    }

    /// A hash of the pieces and the side to move.
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// True if the side to move can take a piece.
    pub fn has_capture(&self) -> bool {
        with_rule!(self.variant, R => generator::has_capture::<R>(&self.board))
    }

    /// True if the side not to move could take a piece were it its turn: a threat, for an engine's capture search.
    pub fn opponent_has_capture(&self) -> bool {
        let mut board = self.board;
        board.turn = board.turn.other();
        with_rule!(self.variant, R => generator::has_capture::<R>(&board))
    }

    /// The move is a man move (not a king's), for draw counters.
    pub fn is_man_move(&self, m: Move) -> bool {
        self.board.kings & (1 << m.from) == 0
    }
}

/// The side that moves first in `variant`.
pub const fn first_mover(variant: DraughtsVariant) -> Color {
    match variant {
        DraughtsVariant::English | DraughtsVariant::Pool => Color::Black,
        DraughtsVariant::International | DraughtsVariant::Russian => Color::White,
    }
}

/// The grid coordinate of PDN square `square` of `variant` (White's side at the bottom, square 1 on the top row).
pub fn square_coord(variant: DraughtsVariant, square: u32) -> Coord {
    let h = half_width(variant);
    let s = square.saturating_sub(1);
    let row = s / h;
    let col = 2 * (s % h) + u32::from(row.is_multiple_of(2));
    Coord::new(col as u8, (2 * h - 1 - row) as u8)
}

impl parlor_game::Position for Position {
    type Move = Move;
    type MoveList = MoveList;

    fn turn(&self) -> Seat {
        Position::seat_of(self.variant, self.board.turn)
    }

    fn legal_moves(&self) -> MoveList {
        Position::legal_moves(self)
    }

    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m);
    }

    fn move_notation(&self, m: Move) -> String {
        Position::move_notation(self, m)
    }

    fn repetition_key(&self) -> u64 {
        self.board.hash()
    }
}

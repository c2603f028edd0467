//! Moves as a board UI shows them, and moves as they were played.

use crate::seat::Seat;

/// A square on the game's grid as its standard diagram draws it: `file` 0 is the left column, `rank` 0 the bottom
/// row. A UI turns the grid so the viewer's seat is at the bottom.
///
/// Chess: a1 = (0, 0), h8 = (7, 7). Draughts: the 8x8 or 10x10 grid with White's side at the bottom, so PDN square 1
/// is on the top row and the last square (32 or 50) on the bottom row; only dark squares are used. Four-player
/// chess: the 14x14 grid, a1 = (0, 0) on Red's side, the 3x3 corners unused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// Column from the left, 0-based.
    pub file: u8,
    /// Row from the bottom, 0-based.
    pub rank: u8,
}

impl Coord {
    /// A coordinate.
    pub const fn new(file: u8, rank: u8) -> Coord {
        Coord { file, rank }
    }
}

/// A legal move in the form a board shows it. The server sends these; the board knows no rules.
///
/// Chess: `from`, `to`, and `promotion` for each promotion choice (four moves share from and to).
/// Castling is shown as the king's move (e1 to g1). Draughts: `path` lists every landing square of a capture
/// chain after `from` (the last one is `to`), and `captures` the squares of the pieces taken; several moves may
/// share `from` and `to` and differ in path or captures, and the UI asks which. Four-player chess: as chess.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveView {
    /// The move in the game's wire notation (UCI, PDN, or four-player long algebraic); send this to play it.
    pub wire: String,
    /// Square the piece leaves.
    pub from: Coord,
    /// Square the piece ends on.
    pub to: Coord,
    /// Landing squares in order, ending with `to`, for a move that lands more than once (a draughts capture
    /// chain); a move of one step may leave it empty (`[to]` means the same). Legal moves are listed after every
    /// move, so a chess move does not allocate one.
    pub path: Vec<Coord>,
    /// Squares of captured pieces (chess en passant: the passed pawn's square).
    pub captures: Vec<Coord>,
    /// Promotion piece letter (`q`, `r`, `b`, `n`), chess only.
    pub promotion: Option<char>,
}

/// A move that was played, as the move list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// Who played it.
    pub seat: Seat,
    /// Wire notation, canonical (what the game would itself list), so a replay gives the same game.
    pub wire: String,
    /// Display notation (SAN for chess; PDN for draughts; long algebraic with check marks for four-player).
    pub display: String,
}

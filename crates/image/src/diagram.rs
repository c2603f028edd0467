//! A position as something to draw: which board, which piece stands where (as a sprite of `pieces.svg`), and
//! which kings are in check. Made from the rules crates' own parsers, so a picture accepts exactly the
//! positions the game accepts.

use crate::error::ImageError;
use parlor_chess::shakmaty::{Color, Position as _, Role, Square};
use parlor_chess4::{Role as Role4, Square as Square4};
use parlor_game::{Coord, DraughtsVariant, GameKind, Seat};

/// A four-player army as drawn: the four seats' colours and the grey of eliminated armies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Army {
    /// Red (seat 1, bottom).
    Red,
    /// Blue (seat 2, left).
    Blue,
    /// Yellow (seat 3, top).
    Yellow,
    /// Green (seat 4, right).
    Green,
    /// An eliminated army's pieces (FEN4 `d`).
    Grey,
}

impl Army {
    /// The army of a seat (`None`: grey).
    pub fn of(owner: Option<Seat>) -> Army {
        match owner {
            Some(Seat::First) => Army::Red,
            Some(Seat::Second) => Army::Blue,
            Some(Seat::Third) => Army::Yellow,
            Some(Seat::Fourth) => Army::Green,
            None => Army::Grey,
        }
    }

    /// The fill colour, as listed in the header of `pieces.svg` and in `web/js/board/render.js`.
    pub const fn colour(self) -> &'static str {
        match self {
            Army::Red => "#d8473d",
            Army::Blue => "#3f7fd9",
            Army::Yellow => "#e3b91f",
            Army::Green => "#3f9e4a",
            Army::Grey => "#9a9a9a",
        }
    }

    /// The name used in ids and options (`red` ... `grey`).
    pub const fn name(self) -> &'static str {
        match self {
            Army::Red => "red",
            Army::Blue => "blue",
            Army::Yellow => "yellow",
            Army::Green => "green",
            Army::Grey => "grey",
        }
    }

    /// The seat mark drawn on the army's pieces (`mark-red` ...), none for grey pieces.
    pub const fn mark(self) -> Option<&'static str> {
        match self {
            Army::Red => Some("mark-red"),
            Army::Blue => Some("mark-blue"),
            Army::Yellow => Some("mark-yellow"),
            Army::Green => Some("mark-green"),
            Army::Grey => None,
        }
    }
}

/// A piece on the diagram.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    /// Its square, in the game's standard diagram coordinates (a1 = (0, 0) bottom left).
    pub at: Coord,
    /// The symbol id in `pieces.svg` (`wK`, `man-black`, `army-Q` ...).
    pub sprite: &'static str,
    /// Four-player only: whose colour it is drawn in.
    pub army: Option<Army>,
}

/// A position ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    kind: GameKind,
    pieces: Vec<Placed>,
    checks: Vec<Coord>,
}

impl Diagram {
    /// A chess position from FEN (the full six fields, or fewer: shakmaty fills in the rest).
    ///
    /// # Errors
    /// [`ImageError::Fen`] with the parser's reason.
    pub fn chess(fen: &str) -> Result<Diagram, ImageError> {
        let pos = parlor_chess::Position::from_fen(fen)?;
        let chess = pos.inner();
        let board = chess.board();
        let mut pieces = Vec::new();
        for sq in Square::ALL {
            if let Some(p) = board.piece_at(sq) {
                pieces.push(Placed {
                    at: parlor_chess::position::coord(sq),
                    sprite: chess_sprite(p.color, p.role),
                    army: None,
                });
            }
        }
        let checks = match board.king_of(chess.turn()) {
            Some(king) if chess.is_check() => vec![parlor_chess::position::coord(king)],
            _ => Vec::new(),
        };
        Ok(Diagram {
            kind: GameKind::Chess,
            pieces,
            checks,
        })
    }

    /// A draughts position of `variant` from PDN FEN (`W:W21-32:B1-12`).
    ///
    /// # Errors
    /// [`ImageError::PdnFen`] with the parser's reason.
    pub fn draughts(variant: DraughtsVariant, fen: &str) -> Result<Diagram, ImageError> {
        let pos = parlor_draughts::Position::from_fen(variant, fen)?;
        let pieces = (1..=pos.square_count())
            .filter_map(|sq| {
                let p = pos.piece_at(sq)?;
                let sprite = match (p.color, p.king) {
                    (parlor_draughts::Color::White, false) => "man-white",
                    (parlor_draughts::Color::White, true) => "king-white",
                    (parlor_draughts::Color::Black, false) => "man-black",
                    (parlor_draughts::Color::Black, true) => "king-black",
                };
                Some(Placed {
                    at: parlor_draughts::square_coord(variant, sq),
                    sprite,
                    army: None,
                })
            })
            .collect();
        Ok(Diagram {
            kind: GameKind::Draughts(variant),
            pieces,
            checks: Vec::new(),
        })
    }

    /// A four-player position from FEN4. Pieces of eliminated armies (and `d` pieces) are grey; promoted
    /// queens are drawn as queens.
    ///
    /// # Errors
    /// [`ImageError::Fen4`] with the parser's reason.
    pub fn chess4(fen4: &str) -> Result<Diagram, ImageError> {
        let pos = parlor_chess4::Position::from_fen4(fen4)?;
        let pieces = Square4::all()
            .filter_map(|sq| {
                let p = pos.piece_at(sq)?;
                let sprite = match p.role {
                    Role4::King => "army-K",
                    Role4::Queen | Role4::PromotedQueen => "army-Q",
                    Role4::Rook => "army-R",
                    Role4::Bishop => "army-B",
                    Role4::Knight => "army-N",
                    Role4::Pawn => "army-P",
                };
                Some(Placed {
                    at: sq.to_coord(),
                    sprite,
                    army: Some(Army::of(p.owner)),
                })
            })
            .collect();
        let checks = Seat::ALL
            .into_iter()
            .filter(|&s| pos.is_check(s))
            .filter_map(|s| pos.king(s))
            .map(Square4::to_coord)
            .collect();
        Ok(Diagram {
            kind: GameKind::Chess4,
            pieces,
            checks,
        })
    }

    /// The start position of a game.
    pub fn start(kind: GameKind) -> Diagram {
        let made = match kind {
            GameKind::Chess => Diagram::chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            GameKind::Draughts(v) => Diagram::draughts(v, &parlor_draughts::Position::start(v).to_fen()),
            GameKind::Chess4 => Diagram::chess4(&parlor_chess4::Position::start().to_fen4()),
        };
        made.unwrap_or(Diagram {
            kind,
            pieces: Vec::new(),
            checks: Vec::new(),
        })
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Squares per side: 8, 10 (International draughts) or 14.
    pub fn size(&self) -> u8 {
        board_size(self.kind)
    }

    /// The pieces.
    pub fn pieces(&self) -> &[Placed] {
        &self.pieces
    }

    /// The squares of kings in check in this position.
    pub fn checks(&self) -> &[Coord] {
        &self.checks
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, at: Coord) -> Option<&Placed> {
        self.pieces.iter().find(|p| p.at == at)
    }
}

/// Squares per side of a game's board.
pub fn board_size(kind: GameKind) -> u8 {
    match kind {
        GameKind::Chess => 8,
        GameKind::Draughts(DraughtsVariant::International) => 10,
        GameKind::Draughts(_) => 8,
        GameKind::Chess4 => 14,
    }
}

/// Whether a square exists on the game's board and can hold a piece (the dark squares in draughts; the cross
/// in four-player chess).
pub fn is_playable(kind: GameKind, at: Coord) -> bool {
    let n = board_size(kind);
    if at.file >= n || at.rank >= n {
        return false;
    }
    match kind {
        GameKind::Chess => true,
        GameKind::Draughts(_) => (at.file + at.rank).is_multiple_of(2),
        GameKind::Chess4 => parlor_chess4::square::is_playing(at.file, at.rank),
    }
}

fn chess_sprite(color: Color, role: Role) -> &'static str {
    match (color, role) {
        (Color::White, Role::King) => "wK",
        (Color::White, Role::Queen) => "wQ",
        (Color::White, Role::Rook) => "wR",
        (Color::White, Role::Bishop) => "wB",
        (Color::White, Role::Knight) => "wN",
        (Color::White, Role::Pawn) => "wP",
        (Color::Black, Role::King) => "bK",
        (Color::Black, Role::Queen) => "bQ",
        (Color::Black, Role::Rook) => "bR",
        (Color::Black, Role::Bishop) => "bB",
        (Color::Black, Role::Knight) => "bN",
        (Color::Black, Role::Pawn) => "bP",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn start_positions_have_their_pieces() {
        let chess = Diagram::start(GameKind::Chess);
        assert_eq!(chess.pieces().len(), 32);
        assert_eq!(chess.piece_at(Coord::new(4, 0)).map(|p| p.sprite), Some("wK"));
        assert_eq!(chess.piece_at(Coord::new(3, 7)).map(|p| p.sprite), Some("bQ"));
        let intl = Diagram::start(GameKind::Draughts(DraughtsVariant::International));
        assert_eq!(intl.pieces().len(), 40);
        assert_eq!(intl.size(), 10);
        assert!(intl.pieces().iter().all(|p| is_playable(intl.kind(), p.at)));
        let four = Diagram::start(GameKind::Chess4);
        assert_eq!(four.pieces().len(), 64);
        assert_eq!(
            four.piece_at(Coord::new(7, 0)).map(|p| (p.sprite, p.army)),
            Some(("army-K", Some(Army::Red)))
        );
    }

    #[test]
    fn check_is_found() {
        let d = Diagram::chess("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
        assert_eq!(d.checks(), &[Coord::new(4, 0)]);
    }

    #[test]
    fn bad_text_is_an_error_not_a_panic() {
        assert!(Diagram::chess("nonsense").is_err());
        assert!(Diagram::chess("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(Diagram::draughts(DraughtsVariant::English, "W:W99").is_err());
        assert!(Diagram::chess4("R-0,0,0,0").is_err());
        assert!(Diagram::chess4("").is_err());
    }
}

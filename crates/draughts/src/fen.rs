//! PDN FEN: reading and writing positions as `B:W21,22,...:B1,2,...,K10`.

use crate::board::Color;
use thiserror::Error;

/// Why a FEN string was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// The text is empty.
    #[error("empty FEN")]
    Empty,
    /// The side to move is not `W` or `B`.
    #[error("side to move must be W or B, not `{0}`")]
    BadTurn(String),
    /// A piece list does not start with `W` or `B`.
    #[error("piece list must start with W or B: `{0}`")]
    BadColor(String),
    /// The same colour has two piece lists.
    #[error("two piece lists for {0}")]
    RepeatedColor(char),
    /// More than two piece lists.
    #[error("too many fields (expected turn:W...:B...)")]
    TooManyFields,
    /// A square is not a number (or a range `a-b`).
    #[error("`{0}` is not a square")]
    BadSquare(String),
    /// A square number outside 1..=32 (8x8) or 1..=50 (10x10).
    #[error("no square {square} on a board of {squares} squares")]
    OutOfRange {
        /// The number given.
        square: u32,
        /// The squares on this board.
        squares: u32,
    },
    /// Two pieces on one square.
    #[error("two pieces on square {0}")]
    Occupied(u32),
    /// A man already stands on the row where it would be crowned.
    #[error("a man on square {0} stands on its own crowning row")]
    ManOnCrownRow(u32),
}

/// A parsed FEN, before it is placed on a board: side to move and each side's (square, is_king) list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FenSetup {
    pub(crate) turn: Color,
    pub(crate) pieces: [Vec<(u32, bool)>; 2],
}

fn color_of(c: &str) -> Option<Color> {
    match c {
        "W" | "w" => Some(Color::White),
        "B" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// Parses a FEN into a setup; checks squares against `squares` (32 or 50) but not the crowning rows.
pub(crate) fn parse(text: &str, squares: u32) -> Result<FenSetup, FenError> {
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = text.split(':');
    let turn_field = fields.next().unwrap_or_default().trim();
    let turn = color_of(turn_field).ok_or_else(|| FenError::BadTurn(turn_field.to_owned()))?;
    let mut setup = FenSetup {
        turn,
        pieces: [Vec::new(), Vec::new()],
    };
    let mut seen = [false; 2];
    let mut occupied = vec![false; squares as usize + 1];
    for (n, field) in fields.enumerate() {
        if n >= 2 {
            return Err(FenError::TooManyFields);
        }
        let field = field.trim();
        let (head, list) = field.split_at(field.char_indices().nth(1).map_or(field.len(), |(i, _)| i));
        let color = color_of(head).ok_or_else(|| FenError::BadColor(field.to_owned()))?;
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(FenError::RepeatedColor(color.letter()));
        }
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, body) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let number = |s: &str| -> Result<u32, FenError> {
                let s = s.trim();
                if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) || s.len() > 3 {
                    return Err(FenError::BadSquare(item.to_owned()));
                }
                let v: u32 = s.parse().map_err(|_| FenError::BadSquare(item.to_owned()))?;
                if v == 0 || v > squares {
                    return Err(FenError::OutOfRange { square: v, squares });
                }
                Ok(v)
            };
            let (lo, hi) = match body.split_once('-') {
                Some((a, b)) => (number(a)?, number(b)?),
                None => {
                    let v = number(body)?;
                    (v, v)
                }
            };
            if lo > hi {
                return Err(FenError::BadSquare(item.to_owned()));
            }
            for sq in lo..=hi {
                if std::mem::replace(&mut occupied[sq as usize], true) {
                    return Err(FenError::Occupied(sq));
                }
                setup.pieces[color.index()].push((sq, king));
            }
        }
    }
    Ok(setup)
}

/// Writes a FEN: side to move, White's pieces, Black's pieces, each in square order with `K` for kings.
pub(crate) fn write(turn: Color, pieces: &[Vec<(u32, bool)>; 2]) -> String {
    let mut out = String::new();
    out.push(turn.letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let mut list = pieces[color.index()].clone();
        list.sort_unstable();
        let items: Vec<String> = list
            .iter()
            .map(|&(sq, king)| if king { format!("K{sq}") } else { sq.to_string() })
            .collect();
        out.push_str(&items.join(","));
    }
    out
}

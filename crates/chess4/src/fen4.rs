//! FEN4, the chess.com-style position text: reading (with typed errors, never a panic) and writing.
//!
//! `R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-{'enPassant':('d3:d4','','','')}-<board>`: side to move (`R B Y G`),
//! eliminated flags, king-side and queen-side castling flags, points and the half-move clock (each list in seat
//! order Red, Blue, Yellow, Green), an optional `{...}` block of which only `'enPassant'` is read (per seat the
//! square passed and the pawn's square, `''` for none), then 14 rows from rank 14 down to rank 1. A row lists
//! cells left to right separated by commas: a number of empty cells (the corners count as cells), `x` for one
//! corner cell, or a piece: colour `r b y g`, or `d` for grey (optionally followed by the original colour, as in
//! `drP`), then the role `P N B R Q K`, or `D` for a promoted queen.

use crate::Position;
use crate::piece::{Role, seat_from_letter, seat_letter, seat_name};
use crate::position::{EMPTY, FWD, GREY, KING, KING_HOME, PAWN, RIGHT, ROOK, code, line, seat};
use crate::square::{Square, is_playing};

/// Why a FEN4 text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Fen4Error {
    /// Not 7 fields (8 with the `{...}` block) separated by `-`.
    #[error("FEN4 has {0} fields separated by '-', expected 7 or 8")]
    FieldCount(usize),
    /// The side to move is not `R`, `B`, `Y` or `G`.
    #[error("side to move must be R, B, Y or G, not `{0}`")]
    SideToMove(String),
    /// A per-seat list does not hold four values of the right kind.
    #[error("the {field} field must be four comma-separated values, not `{text}`")]
    SeatList {
        /// Which field.
        field: &'static str,
        /// What it said.
        text: String,
    },
    /// The half-move clock is not a number.
    #[error("bad half-move clock `{0}`")]
    HalfmoveClock(String),
    /// The board does not have 14 rows.
    #[error("the board has {0} rows, expected 14")]
    RowCount(usize),
    /// A row does not cover 14 cells.
    #[error("rank {rank} covers {cells} cells, expected 14")]
    RowWidth {
        /// The rank (1-14).
        rank: u8,
        /// How many cells the row covered.
        cells: usize,
    },
    /// A cell token is neither a count, `x` nor a piece.
    #[error("unknown cell `{0}`")]
    Cell(String),
    /// A piece stands in one of the four cut-off corners.
    #[error("a piece stands in a corner, at file {file} rank {rank} (0-based)")]
    PieceInCorner {
        /// File, 0-based.
        file: u8,
        /// Rank, 0-based.
        rank: u8,
    },
    /// A live army has no king or more than one.
    #[error("{0} must have exactly one king")]
    KingCount(&'static str),
    /// An eliminated army still has coloured (not grey) pieces.
    #[error("{0} is eliminated but still has coloured pieces (write them grey, `d`)")]
    EliminatedArmy(&'static str),
    /// A live pawn stands on or beyond its promotion line, where it cannot be.
    #[error("the {colour} pawn on {square} is on or beyond its promotion line")]
    PawnBeyondPromotion {
        /// The army.
        colour: &'static str,
        /// The square.
        square: String,
    },
    /// The side to move is eliminated.
    #[error("the side to move is eliminated")]
    SideToMoveEliminated,
    /// Every army is eliminated.
    #[error("every army is eliminated")]
    NoLiveArmy,
    /// The en-passant block is malformed or names a square no pawn of that seat just passed.
    #[error("bad en-passant entry: {0}")]
    EnPassant(String),
}

fn seat_list<T: std::str::FromStr>(text: &str, field: &'static str) -> Result<[T; 4], Fen4Error> {
    let err = || Fen4Error::SeatList {
        field,
        text: text.to_owned(),
    };
    let values: Vec<T> = text
        .split(',')
        .map(|v| v.trim().parse().map_err(|_| err()))
        .collect::<Result<_, _>>()?;
    <[T; 4]>::try_from(values).map_err(|_| err())
}

fn flags(text: &str, field: &'static str) -> Result<u32, Fen4Error> {
    let values: [u8; 4] = seat_list(text, field)?;
    let mut bits = 0;
    for (s, v) in values.iter().enumerate() {
        match v {
            0 => {}
            1 => bits |= 1 << s,
            _ => {
                return Err(Fen4Error::SeatList {
                    field,
                    text: text.to_owned(),
                });
            }
        }
    }
    Ok(bits)
}

/// One cell token of a board row: `Some((colour, kind))` for a piece, `None` for an `x` corner cell.
fn piece_token(token: &str) -> Result<Option<(u8, u8)>, Fen4Error> {
    if token == "x" || token == "X" {
        return Ok(None);
    }
    let err = || Fen4Error::Cell(token.to_owned());
    let chars: Vec<char> = token.chars().collect();
    let (colour, role) = match chars.as_slice() {
        ['d', c, r] if seat_from_letter(*c).is_some() && c.is_ascii_lowercase() => (GREY, *r),
        ['d', r] => (GREY, *r),
        [c, r] if c.is_ascii_lowercase() => (seat_from_letter(*c).ok_or_else(err)?.index() as u8, *r),
        _ => return Err(err()),
    };
    let role = Role::from_letter(role).ok_or_else(err)?;
    Ok(Some((colour, role as u8)))
}

impl Position {
    /// Reads a FEN4 text (see the module docs for the format).
    ///
    /// Castling flags whose king or rook is not on its home square are dropped. The en-passant windows are
    /// assumed to be as open as the turn order allows: a window of seat S is open for the seats that come from
    /// the side to move up to S.
    ///
    /// # Errors
    /// A [`Fen4Error`] for any malformed field or impossible position (no king, a piece in a corner, a pawn past
    /// its promotion line, an eliminated side to move, a bad en-passant square).
    pub fn from_fen4(text: &str) -> Result<Position, Fen4Error> {
        let fields: Vec<&str> = text.trim().split('-').collect();
        let (head, extra, board) = match fields.as_slice() {
            [a, b, c, d, e, f, board] => ([*a, *b, *c, *d, *e, *f], None, *board),
            [a, b, c, d, e, f, x, board] if x.starts_with('{') => {
                ([*a, *b, *c, *d, *e, *f], Some(*x), *board)
            }
            _ => return Err(Fen4Error::FieldCount(fields.len())),
        };
        let mut pos = Position::empty();
        pos.turn = match head[0].trim() {
            "R" => 0,
            "B" => 1,
            "Y" => 2,
            "G" => 3,
            other => return Err(Fen4Error::SideToMove(other.to_owned())),
        };
        pos.dead = flags(head[1], "eliminated")?;
        let king_side = flags(head[2], "king-side castling")?;
        let queen_side = flags(head[3], "queen-side castling")?;
        pos.points = seat_list(head[4], "points")?;
        pos.halfmove = head[5]
            .trim()
            .parse()
            .map_err(|_| Fen4Error::HalfmoveClock(head[5].to_owned()))?;

        let rows: Vec<&str> = board.trim().split('/').collect();
        if rows.len() != 14 {
            return Err(Fen4Error::RowCount(rows.len()));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 13 - i as u8;
            let mut file = 0usize;
            for token in row.split(',').map(str::trim) {
                if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
                    let n: usize = token.parse().map_err(|_| Fen4Error::Cell(token.to_owned()))?;
                    if n == 0 {
                        return Err(Fen4Error::Cell(token.to_owned()));
                    }
                    file = file.saturating_add(n);
                    continue;
                }
                let piece = piece_token(token)?;
                if let Some((colour, kind)) = piece {
                    let f = u8::try_from(file).unwrap_or(u8::MAX);
                    match Square::from_coords(f, rank) {
                        Some(sq) => pos.board[sq.index()] = code(colour, kind),
                        None if f < 14 && !is_playing(f, rank) => {
                            return Err(Fen4Error::PieceInCorner { file: f, rank });
                        }
                        None => {}
                    }
                }
                file = file.saturating_add(1);
            }
            if file != 14 {
                return Err(Fen4Error::RowWidth {
                    rank: rank + 1,
                    cells: file,
                });
            }
        }

        if pos.dead == 0xF {
            return Err(Fen4Error::NoLiveArmy);
        }
        if pos.dead & (1 << pos.turn) != 0 {
            return Err(Fen4Error::SideToMoveEliminated);
        }
        for s in 0..4 {
            let name = seat_name(seat(s));
            let mine: Vec<Square> = Square::all()
                .filter(|sq| pos.board[sq.index()] != EMPTY && usize::from(pos.board[sq.index()] >> 3) == s)
                .collect();
            if pos.dead & (1 << s) != 0 {
                if !mine.is_empty() {
                    return Err(Fen4Error::EliminatedArmy(name));
                }
                continue;
            }
            let kings: Vec<&Square> = mine
                .iter()
                .filter(|sq| pos.board[sq.index()] & 7 == KING)
                .collect();
            match kings.as_slice() {
                [k] => pos.kings[s] = k.index(),
                _ => return Err(Fen4Error::KingCount(name)),
            }
            if let Some(sq) = mine
                .iter()
                .find(|sq| pos.board[sq.index()] & 7 == PAWN && line(s, sq.index()) >= 7)
            {
                return Err(Fen4Error::PawnBeyondPromotion {
                    colour: name,
                    square: sq.to_string(),
                });
            }
            let home = KING_HOME[s];
            let rook = code(s as u8, ROOK);
            if pos.kings[s] == home {
                let r = RIGHT[s];
                if king_side & (1 << s) != 0 && pos.board[home.wrapping_add_signed(3 * r)] == rook {
                    pos.castling |= 1 << (2 * s);
                }
                if queen_side & (1 << s) != 0 && pos.board[home.wrapping_add_signed(-4 * r)] == rook {
                    pos.castling |= 1 << (2 * s + 1);
                }
            }
        }
        if let Some(extra) = extra {
            pos.read_en_passant(extra)?;
        }
        pos.rebuild_occupancy();
        Ok(pos)
    }

    fn read_en_passant(&mut self, extra: &str) -> Result<(), Fen4Error> {
        const KEY: &str = "'enPassant':(";
        let Some(start) = extra.find(KEY) else {
            return Ok(());
        };
        let rest = &extra[start + KEY.len()..];
        let Some(end) = rest.find(')') else {
            return Err(Fen4Error::EnPassant(extra.to_owned()));
        };
        let entries: Vec<&str> = rest[..end]
            .split(',')
            .map(|e| e.trim().trim_matches('\'').trim())
            .collect();
        if entries.len() != 4 {
            return Err(Fen4Error::EnPassant(rest[..end].to_owned()));
        }
        for (u, entry) in entries.iter().enumerate() {
            if entry.is_empty() {
                continue;
            }
            let err = || Fen4Error::EnPassant((*entry).to_owned());
            let mut parts = entry.split(':');
            let target = parts.next().and_then(Square::parse).ok_or_else(err)?;
            let t = target.index();
            let pawn = t.wrapping_add_signed(FWD[u]);
            if let Some(named) = parts.next().filter(|p| !p.is_empty())
                && Square::parse(named).map(Square::index) != Some(pawn)
            {
                return Err(err());
            }
            if self.dead & (1 << u) != 0
                || line(u, t) != 2
                || self.board[t] != EMPTY
                || self.board[pawn] != code(u as u8, PAWN)
            {
                return Err(err());
            }
            self.ep[u] = t;
            // Seats that have not moved since seat u's step: from the side to move up to u.
            let mut ok = 0;
            let mut x = self.turn;
            while x != u {
                ok |= 1 << x;
                x = (x + 1) % 4;
            }
            self.ep_ok[u] = ok & !self.dead;
        }
        Ok(())
    }

    /// The position as FEN4 (the en-passant block only when a window is open).
    pub fn to_fen4(&self) -> String {
        let list = |f: &dyn Fn(usize) -> String| (0..4).map(f).collect::<Vec<_>>().join(",");
        let bit = |mask: u32, b: usize| if mask & (1 << b) != 0 { "1" } else { "0" }.to_owned();
        let mut out = String::with_capacity(400);
        out.push(['R', 'B', 'Y', 'G'][self.turn]);
        out.push('-');
        out.push_str(&list(&|s| bit(self.dead, s)));
        out.push('-');
        out.push_str(&list(&|s| bit(self.castling, 2 * s)));
        out.push('-');
        out.push_str(&list(&|s| bit(self.castling, 2 * s + 1)));
        out.push('-');
        out.push_str(&list(&|s| self.points[s].to_string()));
        out.push('-');
        out.push_str(&self.halfmove.to_string());
        out.push('-');
        if self.ep.iter().any(|&e| e != 0) {
            let entry = |u: usize| {
                let t = self.ep[u];
                if t == 0 {
                    "''".to_owned()
                } else {
                    let target = Square::from_index_unchecked(t);
                    let pawn = Square::from_index_unchecked(t.wrapping_add_signed(FWD[u]));
                    format!("'{target}:{pawn}'")
                }
            };
            out.push_str("{'enPassant':(");
            out.push_str(&list(&entry));
            out.push_str(")}-");
        }
        for rank in (0..14u8).rev() {
            let mut tokens: Vec<String> = Vec::with_capacity(14);
            let mut empties = 0;
            for file in 0..14u8 {
                let piece = Square::from_coords(file, rank)
                    .map(|sq| self.board[sq.index()])
                    .unwrap_or(EMPTY);
                if piece == EMPTY {
                    empties += 1;
                    continue;
                }
                if empties > 0 {
                    tokens.push(empties.to_string());
                    empties = 0;
                }
                let colour = usize::from(piece >> 3);
                let c = if colour < 4 {
                    seat_letter(seat(colour))
                } else {
                    'd'
                };
                let r = Role::from_code(piece & 7).map_or('?', Role::letter);
                tokens.push(format!("{c}{r}"));
            }
            if empties > 0 {
                tokens.push(empties.to_string());
            }
            out.push_str(&tokens.join(","));
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEAMS_START: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";

    #[test]
    fn the_start_reads_and_writes_as_the_testdata_fen4() {
        let pos = Position::from_fen4(TEAMS_START);
        assert_eq!(pos.as_ref().ok(), Some(&Position::start()));
        assert_eq!(Position::start().to_fen4(), TEAMS_START);
    }

    #[test]
    fn corner_cells_may_be_written_as_x() {
        let with_x = TEAMS_START
            .replace("3,yR", "x,x,x,yR")
            .replace("yR,3/", "yR,x,x,x/");
        assert_eq!(Position::from_fen4(&with_x).ok(), Some(Position::start()));
    }

    #[test]
    fn bad_fen4_gives_typed_errors() {
        assert_eq!(Position::from_fen4(""), Err(Fen4Error::FieldCount(1)));
        assert!(matches!(
            Position::from_fen4(&TEAMS_START.replacen('R', "W", 1)),
            Err(Fen4Error::SideToMove(_))
        ));
        assert!(matches!(
            Position::from_fen4(&TEAMS_START.replace("yK", "yQ")),
            Err(Fen4Error::KingCount("Yellow"))
        ));
        assert!(matches!(
            Position::from_fen4(&TEAMS_START.replace("3,yR", "yR,2,yR")),
            Err(Fen4Error::PieceInCorner { .. })
        ));
        assert!(matches!(
            Position::from_fen4(&TEAMS_START.replace("/14/", "/13/")),
            Err(Fen4Error::RowWidth { .. })
        ));
        assert!(matches!(
            Position::from_fen4(&TEAMS_START.replace("rP", "zP")),
            Err(Fen4Error::Cell(_))
        ));
        assert!(matches!(
            Position::from_fen4(&TEAMS_START.replacen("0,0,0,0", "1,0,0,0", 1)),
            Err(Fen4Error::SideToMoveEliminated)
        ));
    }
}

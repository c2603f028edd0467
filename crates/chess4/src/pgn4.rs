//! PGN4 reader: replays a four-player game (the export [`Game`] writes, or chess.com's) through our rules,
//! resignations and timeouts included, so an export reads back to the same game.

use crate::fen4::Fen4Error;
use crate::game::{Game, Options, is_wire};
use crate::piece::seat_name;
use parlor_game::tags::{split_tags, tag_value};
use parlor_game::{EventError, GameEvent, MoveError, Rules, Seat};

/// A PGN4 game that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Pgn4Error {
    /// A tag line is not `[Name "value"]`.
    #[error("line {line}: bad tag pair")]
    Tag {
        /// 1-based line number.
        line: usize,
    },
    /// The `Variant` tag names another game than free-for-all.
    #[error("Variant `{0}` is not FFA")]
    Variant(String),
    /// The `MoveLimit` tag is not a number of moves.
    #[error("MoveLimit `{0}` is not a number")]
    MoveLimit(String),
    /// The `StartFen4` tag is not a position.
    #[error("StartFen4 tag: {0}")]
    Fen4(#[from] Fen4Error),
    /// A word of the movetext is neither a move, `R`, `T`, a move number nor a result.
    #[error("`{token}` is not a move, R, T, move number or result")]
    Token {
        /// The word as written.
        token: String,
    },
    /// A move does not play in its position.
    #[error("move {ply} `{token}`: {error}")]
    Move {
        /// 1-based ply.
        ply: usize,
        /// The move as written.
        token: String,
        /// Why the rules refused it (illegal, for another seat, game over).
        #[source]
        error: MoveError,
    },
    /// A resignation (`R`) or timeout (`T`) the game refuses.
    #[error("`{token}` after move {plies}: {error}")]
    Event {
        /// `R` or `T`.
        token: String,
        /// Moves played before it.
        plies: usize,
        /// Why the rules refused it (the game is over, the seat is already out).
        #[source]
        error: EventError,
    },
    /// A comment or variation is not closed.
    #[error("unclosed comment or variation")]
    Unclosed,
}

/// A game read from PGN4.
#[derive(Debug, Clone)]
pub struct Pgn4Game {
    /// The tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The game replayed through our rules.
    pub game: Game,
}

impl Pgn4Game {
    /// The value of a tag (the first one of that name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }
}

/// Splits a text into its tag pairs and its movetext.
fn split(text: &str) -> Result<(Vec<(String, String)>, String), Pgn4Error> {
    split_tags(text).map_err(|line| Pgn4Error::Tag { line })
}

/// A piece of movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Lexeme {
    /// A word, without its move number.
    Word(String),
    /// The text inside `{...}`.
    Comment(String),
}

/// The movetext as words and comments; `;` line comments, variations `(...)`, NAGs `$n`, move numbers (`12.`,
/// also stuck to the move as `12.h2-h3`) and the `..` between the moves of a round are dropped.
fn lex(text: &str) -> Result<Vec<Lexeme>, Pgn4Error> {
    fn flush(word: &mut String, out: &mut Vec<Lexeme>) {
        let digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = if digits.len() < word.len() && digits.starts_with('.') {
            digits.trim_start_matches('.')
        } else {
            word.as_str()
        };
        if !rest.is_empty() && !rest.starts_with('$') && !rest.chars().all(|c| c == '.') {
            out.push(Lexeme::Word(rest.to_owned()));
        }
        word.clear();
    }
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut out);
                let mut comment = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => comment.push(c),
                        None => return Err(Pgn4Error::Unclosed),
                    }
                }
                out.push(Lexeme::Comment(comment));
            }
            ';' => {
                flush(&mut word, &mut out);
                let _ = chars.by_ref().any(|c| c == '\n');
            }
            '(' => {
                flush(&mut word, &mut out);
                let mut depth = 1;
                while depth > 0 {
                    match chars.next() {
                        Some('(') => depth += 1,
                        Some(')') => depth -= 1,
                        Some('{') => {
                            if !chars.by_ref().any(|c| c == '}') {
                                return Err(Pgn4Error::Unclosed);
                            }
                        }
                        Some(_) => {}
                        None => return Err(Pgn4Error::Unclosed),
                    }
                }
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    Ok(out)
}

/// A result token: `*`, or four points joined by `-`.
fn is_result(word: &str) -> bool {
    word == "*" || {
        let parts: Vec<&str> = word.split('-').collect();
        parts.len() == 4 && parts.iter().all(|p| p.parse::<u32>().is_ok())
    }
}

/// The seat a comment names (`Red`, `Blue`, `Yellow`, `Green`), if that is all it says.
fn seat_named(comment: &str) -> Option<Seat> {
    let name = comment.trim();
    Seat::ALL
        .into_iter()
        .find(|&s| seat_name(s).eq_ignore_ascii_case(name))
}

/// Reads one PGN4 game and replays it.
///
/// Tags: `Variant` (when present it must be `FFA`), `StartFen4` (the start position; the standard start with Red
/// to move without it) and `MoveLimit` (the table's move limit). Movetext: moves in the wire notation (`h2-h4`,
/// `Nj1-i3`, `Qg1xm7+`, `h7-h8=Q`, `O-O`, with the `+`/`#` marks), `R` and `T` for a resignation or timeout of the
/// seat to move, or of the seat named in a comment just after (`R {Blue}`), move numbers and `..`; other
/// comments, variations and NAGs are skipped, and a result token (`*` or four points) ends the movetext. `Result`
/// and `Termination` are not needed: the tokens explain every ending.
///
/// # Errors
/// [`Pgn4Error`] for a bad tag or tag value, an unknown word, or a move, resignation or timeout the game refuses.
pub fn read(text: &str) -> Result<Pgn4Game, Pgn4Error> {
    let (tags, movetext) = split(text)?;
    if let Some(variant) = tag_value(&tags, "Variant")
        && !variant.eq_ignore_ascii_case("FFA")
    {
        return Err(Pgn4Error::Variant(variant.to_owned()));
    }
    let move_limit = match tag_value(&tags, "MoveLimit") {
        Some(v) => Some(
            v.trim()
                .parse::<u32>()
                .map_err(|_| Pgn4Error::MoveLimit(v.to_owned()))?,
        ),
        None => None,
    };
    let mut game = match tag_value(&tags, "StartFen4") {
        Some(fen4) => Game::from_fen4(fen4, move_limit)?,
        None => Game::new(Options {
            move_limit,
            first: Seat::First,
        }),
    };
    let lexemes = lex(&movetext)?;
    let mut rest = lexemes.iter().peekable();
    while let Some(lexeme) = rest.next() {
        let Lexeme::Word(word) = lexeme else {
            continue;
        };
        if is_result(word) {
            break;
        }
        let plies = game.history().len();
        if word == "R" || word == "T" {
            let named = match rest.peek() {
                Some(Lexeme::Comment(comment)) => seat_named(comment),
                _ => None,
            };
            if named.is_some() {
                rest.next();
            }
            let refused = |error: EventError| Pgn4Error::Event {
                token: word.clone(),
                plies,
                error,
            };
            let seat = named
                .or_else(|| game.turn())
                .ok_or_else(|| refused(EventError::GameOver))?;
            let event = if word == "R" {
                GameEvent::Resign(seat)
            } else {
                GameEvent::Timeout(seat)
            };
            game.apply(event).map_err(refused)?;
            continue;
        }
        if !is_wire(word) {
            return Err(Pgn4Error::Token { token: word.clone() });
        }
        game.play(word).map_err(|error| Pgn4Error::Move {
            ply: plies + 1,
            token: word.clone(),
            error,
        })?;
    }
    Ok(Pgn4Game { tags, game })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexemes_keep_comments_and_drop_numbers_separators_and_variations() {
        let words = |list: &[&str]| {
            list.iter()
                .map(|w| Lexeme::Word((*w).to_owned()))
                .collect::<Vec<_>>()
        };
        let mut want = words(&["h2-h3", "b7-c7", "R"]);
        want.push(Lexeme::Comment("Green".into()));
        want.extend(words(&["Nj1-i3", "T"]));
        assert_eq!(
            lex("1. h2-h3 .. b7-c7 $3 (1... b7-b8 {x}) .. R {Green}\n2.Nj1-i3 .. T ; the end"),
            Ok(want)
        );
        assert_eq!(lex("1. h2-h3 {open"), Err(Pgn4Error::Unclosed));
        assert_eq!(lex("1. h2-h3 (b7-c7"), Err(Pgn4Error::Unclosed));
    }

    #[test]
    fn results_and_seat_names_are_recognised() {
        assert!(is_result("*") && is_result("31-20-0-12"));
        assert!(!is_result("1-0") && !is_result("h2-h4") && !is_result("1-2-3-x"));
        assert_eq!(seat_named(" blue "), Some(Seat::Second));
        assert_eq!(seat_named("Blue resigned"), None);
    }
}

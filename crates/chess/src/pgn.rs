//! The PGN reader: replays a PGN game's moves through our rules, so an export (`export.rs`) can be read back and
//! checked.

use crate::game::Game;
use crate::position::{FenError, Position, color_of};
use parlor_game::{GameEvent, Rules, Seat};
use shakmaty::san::SanPlus;

/// A PGN game that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// A tag line is not `[Name "value"]`.
    #[error("line {line}: bad tag pair")]
    Tag {
        /// 1-based line number.
        line: usize,
    },
    /// The FEN tag is not a legal position.
    #[error("FEN tag: {0}")]
    Fen(#[from] FenError),
    /// A move is not legal SAN in its position.
    #[error("move {ply} `{san}` is not legal here")]
    Move {
        /// 1-based half-move number.
        ply: usize,
        /// The move as written.
        san: String,
    },
    /// A comment or variation is not closed.
    #[error("unclosed comment or variation")]
    Unclosed,
}

/// A game read from PGN.
#[derive(Debug, Clone)]
pub struct PgnGame {
    /// The tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The game replayed through our rules.
    pub game: Game,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_owned(), value))
}

/// Splits movetext into tokens, dropping comments, variations, NAGs and move numbers.
fn movetext_tokens(text: &str) -> Result<Vec<String>, PgnError> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, tokens: &mut Vec<String>| {
        let w = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let w = if word.starts_with(|c: char| c.is_ascii_digit()) && word.contains('.') {
            w
        } else {
            word.as_str()
        };
        if !w.is_empty() && !w.starts_with('$') {
            tokens.push(w.to_owned());
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut tokens);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(PgnError::Unclosed);
                }
            }
            ';' => {
                flush(&mut word, &mut tokens);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, &mut tokens);
                let mut depth = 1;
                while depth > 0 {
                    match chars.next() {
                        Some('(') => depth += 1,
                        Some(')') => depth -= 1,
                        Some(_) => {}
                        None => return Err(PgnError::Unclosed),
                    }
                }
            }
            c if c.is_whitespace() => flush(&mut word, &mut tokens),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut tokens);
    Ok(tokens)
}

/// Reads one PGN game and replays it. A decisive or drawn result that the moves alone do not explain is applied
/// as the event the Termination tag names (time forfeit, abandoned), else as a resignation or a draw agreement.
///
/// # Errors
/// [`PgnError`] for a bad tag, FEN or move.
pub fn read(text: &str) -> Result<PgnGame, PgnError> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && movetext.trim().is_empty() {
            tags.push(parse_tag(trimmed).ok_or(PgnError::Tag { line: i + 1 })?);
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    let fen = tags.iter().find(|(n, _)| n == "FEN").map(|(_, v)| v.clone());
    let mut game = match fen {
        Some(fen) => Game::from_fen(&fen)?,
        None => Game::from_position(Position::start()),
    };
    let mut result = None;
    for token in movetext_tokens(&movetext)? {
        if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(token);
            break;
        }
        let ply = game.history().len() + 1;
        let bad = || PgnError::Move {
            ply,
            san: token.clone(),
        };
        let san = SanPlus::from_ascii(token.trim_end_matches(['!', '?']).as_bytes()).map_err(|_| bad())?;
        let m = san.san.to_move(game.position().inner()).map_err(|_| bad())?;
        game.play_move(m).map_err(|_| bad())?;
    }
    let termination = tags
        .iter()
        .find(|(n, _)| n == "Termination")
        .map(|(_, v)| v.to_ascii_lowercase());
    if game.outcome().is_running() {
        let loser = match result.as_deref() {
            Some("1-0") => Some(Seat::Second),
            Some("0-1") => Some(Seat::First),
            _ => None,
        };
        let event = match (loser, result.as_deref(), termination.as_deref()) {
            (Some(seat), _, Some("time forfeit")) => Some(GameEvent::Timeout(seat)),
            (Some(seat), _, Some("abandoned")) => Some(GameEvent::Abandon(seat)),
            (Some(seat), _, _) => Some(GameEvent::Resign(seat)),
            (None, Some("1/2-1/2"), Some("time forfeit")) => {
                // A flag fell against a side that could not be mated: the side to move ran out (our best guess).
                let mover = game.turn().unwrap_or(Seat::First);
                color_of(mover).map(|_| GameEvent::Timeout(mover))
            }
            (None, Some("1/2-1/2"), _) => Some(GameEvent::DrawAgreed),
            _ => None,
        };
        if let Some(event) = event {
            let _ = game.apply(event);
        }
    }
    Ok(PgnGame { tags, game })
}

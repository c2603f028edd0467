//! PDN reader: replays a PDN game (the export [`Game`] writes, or another program's) through our rules, so an
//! export reads back to the same game.

use crate::fen::FenError;
use crate::game::{Game, Options, game_type};
use crate::notation::PdnMove;
use parlor_game::tags::{split_tags, tag_value};
use parlor_game::{DraughtsVariant, GameEvent, MoveError, Outcome, Rules, Seat};

/// The variant a `GameType` tag names: its first field is the FMJD game number; the details are not checked.
pub fn variant_of_game_type(value: &str) -> Option<DraughtsVariant> {
    let number = value.split(',').next()?.trim();
    DraughtsVariant::ALL
        .into_iter()
        .find(|v| game_type(*v).split(',').next() == Some(number))
}

/// Who a PDN result says won, on either scale (International writes 2-0 / 1-1 / 0-2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Score {
    First,
    Second,
    Draw,
    Unknown,
}

impl Score {
    fn parse(text: &str) -> Option<Score> {
        match text {
            "1-0" | "2-0" => Some(Score::First),
            "0-1" | "0-2" => Some(Score::Second),
            "1/2-1/2" | "1-1" => Some(Score::Draw),
            "*" => Some(Score::Unknown),
            _ => None,
        }
    }

    fn of(outcome: &Outcome) -> Score {
        match outcome {
            Outcome::Running => Score::Unknown,
            Outcome::Drawn(_) => Score::Draw,
            Outcome::Decided(d) => match d.winner() {
                Some(Seat::First) => Score::First,
                Some(_) => Score::Second,
                None => Score::Draw,
            },
        }
    }
}

/// A PDN game that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdnError {
    /// A tag line is not `[Name "value"]`.
    #[error("line {line}: bad tag pair")]
    Tag {
        /// 1-based line number.
        line: usize,
    },
    /// The `GameType` tag names another game or variant than the one asked for.
    #[error("GameType `{value}` is not {expected} draughts")]
    GameType {
        /// The tag's value.
        value: String,
        /// The variant the text was read as.
        expected: DraughtsVariant,
    },
    /// The `MandatoryCapture` tag is neither `yes` nor `no`.
    #[error("MandatoryCapture `{0}` is not yes or no")]
    MandatoryCapture(String),
    /// The `Result` tag is not a PDN result.
    #[error("Result `{0}` is not a PDN result (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1 or *)")]
    Result(String),
    /// The FEN tag is not a position of the variant.
    #[error("FEN tag: {0}")]
    Fen(#[from] FenError),
    /// A word of the movetext is neither a move, a move number nor a result.
    #[error("`{token}` is not a move, move number or result")]
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
        /// Why the rules refused it (malformed square, illegal, ambiguous, game over).
        #[source]
        error: MoveError,
    },
    /// The result after the moves and the `Result` tag disagree.
    #[error("the movetext ends `{movetext}` but the Result tag is `{tag}`")]
    ResultConflict {
        /// The `Result` tag.
        tag: String,
        /// The result token after the moves.
        movetext: String,
    },
    /// The moves end the game with another result than the one written.
    #[error("the result is `{written}` but the moves end the game {played}")]
    ResultContradicts {
        /// The result as written.
        written: String,
        /// The result the moves give.
        played: &'static str,
    },
    /// A comment or variation is not closed.
    #[error("unclosed comment or variation")]
    Unclosed,
}

/// A game read from PDN.
#[derive(Debug, Clone)]
pub struct PdnGame {
    /// The tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The game replayed through our rules.
    pub game: Game,
}

impl PdnGame {
    /// The value of a tag (the first one of that name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }
}

/// Splits a text into its tag pairs and its movetext.
fn split(text: &str) -> Result<(Vec<(String, String)>, String), PdnError> {
    split_tags(text).map_err(|line| PdnError::Tag { line })
}

/// The words of movetext: comments `{...}`, `;` line comments, variations `(...)`, NAGs `$n` and move numbers
/// (`12.`, `12...`, also stuck to the move as `12.32-28`) are dropped.
fn words(text: &str) -> Result<Vec<String>, PdnError> {
    fn flush(word: &mut String, out: &mut Vec<String>) {
        let digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = if digits.len() < word.len() && digits.starts_with('.') {
            digits.trim_start_matches('.')
        } else {
            word.as_str()
        };
        if !rest.is_empty() && !rest.starts_with('$') && !rest.chars().all(|c| c == '.') {
            out.push(rest.to_owned());
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
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(PdnError::Unclosed);
                }
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
                                return Err(PdnError::Unclosed);
                            }
                        }
                        Some(_) => {}
                        None => return Err(PdnError::Unclosed),
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

/// Reads one PDN game of `variant` and replays its moves.
///
/// Tags: `GameType` (when present it must name `variant`), `FEN` (the start position; the start of the variant
/// without it), `MandatoryCapture` (`no` makes capturing optional), `Result` and `Termination`. Movetext: moves
/// as the writer spells them (`11-15`, `11x18`, full paths, `:` as capture separator; trailing `!`/`?` dropped),
/// move numbers, comments, variations and NAGs; it ends at the first result token. A decisive or drawn result
/// that the moves do not explain is applied as the event the `Termination` tag names (`timeout`, `abandoned`),
/// else as a resignation of the losing side or a draw agreement.
///
/// # Errors
/// [`PdnError`] for a bad tag or tag value, an unknown word, a move that does not play, or a result that
/// disagrees with the `Result` tag or with the moves.
pub fn read(variant: DraughtsVariant, text: &str) -> Result<PdnGame, PdnError> {
    let (tags, movetext) = split(text)?;
    if let Some(value) = tag_value(&tags, "GameType")
        && variant_of_game_type(value) != Some(variant)
    {
        return Err(PdnError::GameType {
            value: value.to_owned(),
            expected: variant,
        });
    }
    let mandatory_capture = match tag_value(&tags, "MandatoryCapture") {
        None => true,
        Some(v) if v.eq_ignore_ascii_case("yes") => true,
        Some(v) if v.eq_ignore_ascii_case("no") => false,
        Some(v) => return Err(PdnError::MandatoryCapture(v.to_owned())),
    };
    let written = match tag_value(&tags, "Result") {
        Some(v) => Some((v, Score::parse(v).ok_or_else(|| PdnError::Result(v.to_owned()))?)),
        None => None,
    };
    let options = Options { mandatory_capture };
    let mut game = match tag_value(&tags, "FEN") {
        Some(fen) => Game::from_fen(variant, options, fen)?,
        None => Game::new(variant, options),
    };
    let mut ending = None;
    for word in words(&movetext)? {
        if let Some(score) = Score::parse(&word) {
            ending = Some((word, score));
            break;
        }
        let text = word.trim_end_matches(['!', '?']);
        // Russian PDN writes squares algebraically (`c3-d4`); numbered squares are read in every variant.
        let algebraic =
            variant != DraughtsVariant::International && text.starts_with(|c: char| c.is_ascii_alphabetic());
        let pdn = if algebraic {
            PdnMove::from_algebraic(text)
        } else {
            text.parse::<PdnMove>()
        }
        .map_err(|_| PdnError::Token { token: word.clone() })?;
        let ply = game.history().len() + 1;
        let refused = |error: MoveError| PdnError::Move {
            ply,
            token: word.clone(),
            error,
        };
        if !game.outcome().is_running() {
            return Err(refused(MoveError::game_over()));
        }
        let m = pdn.to_move(game.position()).map_err(refused)?;
        game.play_move(m).map_err(refused)?;
    }
    let result = match (written, &ending) {
        (Some((tag, a)), Some((movetext, b))) if a != *b => {
            return Err(PdnError::ResultConflict {
                tag: tag.to_owned(),
                movetext: movetext.clone(),
            });
        }
        (_, Some((text, score))) => Some((text.as_str(), *score)),
        (Some(tagged), None) => Some(tagged),
        (None, None) => None,
    };
    if let Some((text, score)) = result {
        apply_result(&mut game, text, score, tag_value(&tags, "Termination"))?;
    }
    Ok(PdnGame { tags, game })
}

/// Applies a written result to a replayed game: on a running game as the event it stands for; on a finished
/// one it must be the result the moves gave.
fn apply_result(
    game: &mut Game,
    text: &str,
    score: Score,
    termination: Option<&str>,
) -> Result<(), PdnError> {
    if !game.outcome().is_running() {
        if score != Score::Unknown && score != Score::of(game.outcome()) {
            return Err(PdnError::ResultContradicts {
                written: text.to_owned(),
                played: game.outcome().result_str(),
            });
        }
        return Ok(());
    }
    let loser = match score {
        Score::First => Seat::Second,
        Score::Second => Seat::First,
        Score::Draw => {
            // A running game can always agree a draw.
            let _ = game.apply(GameEvent::DrawAgreed);
            return Ok(());
        }
        Score::Unknown => return Ok(()),
    };
    let termination = termination.map(str::to_ascii_lowercase);
    let event = match termination.as_deref() {
        Some("timeout" | "time forfeit") => GameEvent::Timeout(loser),
        Some("abandoned") => GameEvent::Abandon(loser),
        _ => GameEvent::Resign(loser),
    };
    // Both seats play a running two-player game, so the event is accepted.
    let _ = game.apply(event);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_type_names_its_variant() {
        for variant in DraughtsVariant::ALL {
            assert_eq!(variant_of_game_type(game_type(variant)), Some(variant));
        }
        assert_eq!(variant_of_game_type(" 25 "), Some(DraughtsVariant::Russian));
        assert_eq!(variant_of_game_type("22,W,8,8,A0,0"), None);
        assert_eq!(variant_of_game_type(""), None);
    }

    #[test]
    fn words_drop_numbers_comments_variations_and_nags() {
        let text =
            "1. 11-15 {a comment (with) parens} 23-19 $1 2.8-11 (2. 9-13 {x} 22-18) 22-17; rest\n3... 9x18 *";
        assert_eq!(
            words(text),
            Ok(["11-15", "23-19", "8-11", "22-17", "9x18", "*"]
                .map(String::from)
                .to_vec())
        );
        assert_eq!(words("1. 11-15 {open"), Err(PdnError::Unclosed));
        assert_eq!(words("1. 11-15 (23-19"), Err(PdnError::Unclosed));
        assert_eq!(words("12... .. 1-0"), Ok(vec!["1-0".to_owned()]));
    }
}

//! What a picture shows besides the position (orientation, last move, check, size, coordinates, theme) and a
//! request read from a URL query or from command-line pairs, with every value checked.

use crate::diagram::{Diagram, board_size, is_playable};
use crate::error::ImageError;
use parlor_game::{Coord, DraughtsVariant, GameKind};
use std::fmt::Write as _;

/// The longest query string accepted, in bytes (a FEN4 with its en-passant block, percent-encoded, fits).
pub const MAX_QUERY_BYTES: usize = 2048;
/// The smallest image side in pixels.
pub const MIN_SIZE: u32 = 64;
/// The largest image side in pixels (a 2048x2048 render takes about 30 ms and 16 MB while it runs).
pub const MAX_SIZE: u32 = 2048;
/// The image side when `size` is not given.
pub const DEFAULT_SIZE: u32 = 512;

/// Colours of the board, as the web client's light and dark themes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// The light theme (the default).
    #[default]
    Light,
    /// The dark theme.
    Dark,
}

/// Which kings are ringed as in check.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Check {
    /// The kings in check in the position (the default).
    #[default]
    Auto,
    /// None.
    Off,
    /// These squares.
    Squares(Vec<Coord>),
}

/// How to draw a diagram.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Quarter turns (counter-clockwise) of the standard diagram that bring the chosen seat to the bottom, as
    /// `web/js/board/geometry.js` `quarterTurns`: 0 White / Red, 1 Blue, 2 Black / Yellow, 3 Green.
    pub quarter_turns: u8,
    /// The last move's from and to squares, shaded.
    pub last_move: Option<[Coord; 2]>,
    /// Kings ringed as in check.
    pub check: Check,
    /// Image side in pixels ([`MIN_SIZE`] to [`MAX_SIZE`]).
    pub size: u32,
    /// Coordinates on the edge (chess, four-player) or square numbers (draughts).
    pub coords: bool,
    /// Colours.
    pub theme: Theme,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            quarter_turns: 0,
            last_move: None,
            check: Check::Auto,
            size: DEFAULT_SIZE,
            coords: true,
            theme: Theme::Light,
        }
    }
}

/// A picture to make: a position and how to draw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The position.
    pub diagram: Diagram,
    /// How to draw it.
    pub options: Options,
}

impl Request {
    /// Reads a request from a URL query string (`fen=...&orientation=black&size=400`), for the game named by
    /// the path: `chess` (parameter `fen`), `draughts` (`variant`, default english, and `fen`, PDN FEN) or
    /// `chess4` (`fen4`). Without a position the game's start position is drawn. Other parameters:
    /// `orientation`, `lastmove`, `check`, `size`, `coords`, `theme` (see [`Request::from_pairs`]).
    ///
    /// # Errors
    /// [`ImageError`] for a query that is too long or not valid percent-encoding, an unknown or repeated
    /// parameter, a bad value, or a position the game's parser refuses (with its reason).
    pub fn from_query(game: &str, query: &str) -> Result<Request, ImageError> {
        if query.len() > MAX_QUERY_BYTES {
            return Err(ImageError::TooLong(query.len()));
        }
        let mut pairs = Vec::new();
        for part in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            pairs.push((decode(name)?, decode(value)?));
        }
        Request::from_pairs(game, pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())))
    }

    /// Reads a request from decoded name/value pairs (what [`Request::from_query`] and the command line give).
    ///
    /// - `orientation`: the seat at the bottom: `white` or `black` (chess, draughts), `red`, `blue`, `yellow`
    ///   or `green` (four-player). Default White / Red.
    /// - `lastmove`: two squares: `e2e4` (chess, UCI; a promotion letter is ignored), `h2-h4` or `h2h4`
    ///   (four-player), `32-28` or `23x14x5` (draughts, PDN: first and last square).
    /// - `check`: `auto` (kings in check in the position, the default), `off`, or squares (`e1`, `h1,g14`).
    /// - `size`: pixels, [`MIN_SIZE`] to [`MAX_SIZE`], default [`DEFAULT_SIZE`].
    /// - `coords`: `on` (default) or `off`. `theme`: `light` (default) or `dark`.
    ///
    /// # Errors
    /// As [`Request::from_query`].
    pub fn from_pairs<'a>(
        game: &str,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Request, ImageError> {
        let family = match game {
            "chess" => Family::Chess,
            "draughts" => Family::Draughts,
            "chess4" => Family::Chess4,
            other => return Err(ImageError::Game(other.chars().take(40).collect())),
        };
        let mut seen: Vec<&'a str> = Vec::new();
        let mut position: Option<&'a str> = None;
        let mut variant = DraughtsVariant::English;
        let mut raw: Vec<(&'static str, &'a str)> = Vec::new();
        for (name, value) in pairs {
            if seen.contains(&name) {
                return Err(ImageError::Repeated(name.chars().take(40).collect()));
            }
            seen.push(name);
            match (family, name) {
                (Family::Chess | Family::Draughts, "fen") | (Family::Chess4, "fen4") => {
                    position = Some(value)
                }
                (Family::Draughts, "variant") => {
                    variant = value.parse().map_err(|_| ImageError::BadOption {
                        name: "variant",
                        reason: format!("`{}` is not english, international, russian or pool", clip(value)),
                    })?;
                }
                (_, "orientation") => raw.push(("orientation", value)),
                (_, "lastmove") => raw.push(("lastmove", value)),
                (_, "check") => raw.push(("check", value)),
                (_, "size") => raw.push(("size", value)),
                (_, "coords") => raw.push(("coords", value)),
                (_, "theme") => raw.push(("theme", value)),
                _ => return Err(ImageError::Unknown(name.chars().take(40).collect())),
            }
        }
        let kind = match family {
            Family::Chess => GameKind::Chess,
            Family::Draughts => GameKind::Draughts(variant),
            Family::Chess4 => GameKind::Chess4,
        };
        let diagram = match (kind, position) {
            (_, None) => Diagram::start(kind),
            (GameKind::Chess, Some(fen)) => Diagram::chess(fen)?,
            (GameKind::Draughts(v), Some(fen)) => Diagram::draughts(v, fen)?,
            (GameKind::Chess4, Some(fen4)) => Diagram::chess4(fen4)?,
        };
        let mut options = Options::default();
        for (name, value) in raw {
            let bad = |reason: String| ImageError::BadOption { name, reason };
            match name {
                "orientation" => {
                    options.quarter_turns =
                        orientation(kind, value).ok_or_else(|| bad(orientation_help(kind, value)))?
                }
                "lastmove" => options.last_move = Some(last_move(kind, value).map_err(bad)?),
                "check" => options.check = check(kind, value).map_err(bad)?,
                "size" => {
                    options.size = value
                        .parse()
                        .ok()
                        .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
                        .ok_or_else(|| {
                            bad(format!(
                                "`{}` is not a number from {MIN_SIZE} to {MAX_SIZE}",
                                clip(value)
                            ))
                        })?;
                }
                "coords" => {
                    options.coords =
                        switch(value).ok_or_else(|| bad(format!("`{}` is not on or off", clip(value))))?;
                }
                _ => {
                    options.theme = match value {
                        "light" => Theme::Light,
                        "dark" => Theme::Dark,
                        _ => return Err(bad(format!("`{}` is not light or dark", clip(value)))),
                    };
                }
            }
        }
        Ok(Request { diagram, options })
    }
}

/// The path and query of the picture of a position (`/image/chess.png?fen=...`, `/image/draughts.png?variant=
/// international&fen=...`, `/image/chess4.png?fen4=...`), for export tags and links. `ext` is `png` or `svg`.
pub fn url(kind: GameKind, position: &str, ext: &str) -> String {
    match kind {
        GameKind::Chess => format!("/image/chess.{ext}?fen={}", encode(position)),
        GameKind::Draughts(v) => format!("/image/draughts.{ext}?variant={v}&fen={}", encode(position)),
        GameKind::Chess4 => format!("/image/chess4.{ext}?fen4={}", encode(position)),
    }
}

/// Percent-encoding of a query value: letters, digits, `-._~/,:` stay, a space becomes `+`.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b',' | b':' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Family {
    Chess,
    Draughts,
    Chess4,
}

/// The first characters of a value, for an error message.
fn clip(value: &str) -> String {
    let mut out: String = value.chars().take(40).collect();
    if value.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

/// Percent-decoding of a query component (`+` is a space).
fn decode(text: &str) -> Result<String, ImageError> {
    let bad = || ImageError::BadOption {
        name: "query",
        reason: "not valid percent-encoded UTF-8".into(),
    };
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or_else(bad)?;
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| bad())
}

fn switch(value: &str) -> Option<bool> {
    match value {
        "on" | "true" | "1" | "yes" => Some(true),
        "off" | "false" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// Quarter turns that bring a seat to the bottom (the web board's `quarterTurns`).
fn orientation(kind: GameKind, value: &str) -> Option<u8> {
    match (kind, value) {
        (GameKind::Chess | GameKind::Draughts(_), "white") => Some(0),
        (GameKind::Chess | GameKind::Draughts(_), "black") => Some(2),
        (GameKind::Chess4, "red") => Some(0),
        (GameKind::Chess4, "blue") => Some(1),
        (GameKind::Chess4, "yellow") => Some(2),
        (GameKind::Chess4, "green") => Some(3),
        _ => None,
    }
}

fn orientation_help(kind: GameKind, value: &str) -> String {
    let allowed = match kind {
        GameKind::Chess4 => "red, blue, yellow or green",
        _ => "white or black",
    };
    format!("`{}` is not {allowed}", clip(value))
}

/// Square names (`e2`, `n11`) in a text, in order, each checked against the board.
fn square_names(kind: GameKind, text: &str) -> Result<Vec<Coord>, String> {
    let n = board_size(kind);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_lowercase() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let mut j = i + 1;
            while j < bytes.len() && j < i + 3 && bytes[j].is_ascii_digit() {
                j += 1;
            }
            let rank: u8 = text[i + 1..j]
                .parse()
                .map_err(|_| format!("bad square in `{}`", clip(text)))?;
            let file = c - b'a';
            let at = Coord::new(file, rank.wrapping_sub(1));
            if file >= n || rank == 0 || !is_playable(kind, at) {
                return Err(format!("`{}` is not a square of this board", &text[i..j]));
            }
            out.push(at);
            i = j;
        } else {
            i += 1;
        }
    }
    Ok(out)
}

fn last_move(kind: GameKind, value: &str) -> Result<[Coord; 2], String> {
    let squares = match kind {
        GameKind::Draughts(v) => {
            let count = u32::from(board_size(kind)) * u32::from(board_size(kind)) / 2;
            let mut out = Vec::new();
            for part in value.split(['-', 'x', 'X']) {
                let num: u32 = part
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| (1..=count).contains(n))
                    .ok_or_else(|| format!("`{}` is not a square from 1 to {count}", clip(part)))?;
                out.push(parlor_draughts::square_coord(v, num));
            }
            out
        }
        _ => square_names(kind, value)?,
    };
    match (squares.first(), squares.last()) {
        (Some(&from), Some(&to))
            if squares.len() >= 2
                && (kind != GameKind::Chess && kind != GameKind::Chess4 || squares.len() == 2) =>
        {
            Ok([from, to])
        }
        _ => Err(format!("`{}` does not name two squares", clip(value))),
    }
}

fn check(kind: GameKind, value: &str) -> Result<Check, String> {
    match value {
        "auto" | "on" => Ok(Check::Auto),
        "off" | "none" => Ok(Check::Off),
        _ if matches!(kind, GameKind::Draughts(_)) => Err(format!("`{}` is not auto or off", clip(value))),
        _ => {
            let squares = square_names(kind, value)?;
            if squares.is_empty() || squares.len() > 4 {
                return Err(format!(
                    "`{}` is not auto, off or one to four squares",
                    clip(value)
                ));
            }
            Ok(Check::Squares(squares))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_query_is_decoded_and_checked() {
        let r = Request::from_query(
            "chess",
            "fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F4P3%2F8%2FPPPP1PPP%2FRNBQKBNR+b+KQkq+-+0+1&orientation=black&lastmove=e2e4&size=300&coords=off&theme=dark&check=off",
        )
        .unwrap();
        assert_eq!(r.options.quarter_turns, 2);
        assert_eq!(r.options.last_move, Some([Coord::new(4, 1), Coord::new(4, 3)]));
        assert_eq!(r.options.size, 300);
        assert!(!r.options.coords);
        assert_eq!(r.options.theme, Theme::Dark);
        assert_eq!(r.options.check, Check::Off);
        assert_eq!(r.diagram.piece_at(Coord::new(4, 3)).map(|p| p.sprite), Some("wP"));
    }

    #[test]
    fn urls_read_back_to_the_same_position() {
        let fen4 = parlor_chess4::Position::start().to_fen4();
        for (kind, text) in [
            (
                GameKind::Chess,
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_owned(),
            ),
            (
                GameKind::Draughts(DraughtsVariant::Russian),
                "W:W21,22,K30:B1,2".to_owned(),
            ),
            (GameKind::Chess4, fen4),
        ] {
            let url = url(kind, &text, "png");
            let (path, query) = url.split_once('?').unwrap();
            let game = path.trim_start_matches("/image/").trim_end_matches(".png");
            let from_url = Request::from_query(game, query).unwrap();
            let direct = match kind {
                GameKind::Chess => Diagram::chess(&text),
                GameKind::Draughts(v) => Diagram::draughts(v, &text),
                GameKind::Chess4 => Diagram::chess4(&text),
            };
            assert_eq!(from_url.diagram, direct.unwrap());
            assert!(!query.contains(' ') && !query.contains('\''));
        }
    }

    #[test]
    fn draughts_and_chess4_options() {
        let r = Request::from_query("draughts", "variant=international&lastmove=32x23x14").unwrap();
        assert_eq!(r.diagram.size(), 10);
        assert_eq!(
            r.options.last_move,
            Some([
                parlor_draughts::square_coord(DraughtsVariant::International, 32),
                parlor_draughts::square_coord(DraughtsVariant::International, 14)
            ])
        );
        let r = Request::from_query("chess4", "orientation=green&lastmove=h2-h4&check=h1").unwrap();
        assert_eq!(r.options.quarter_turns, 3);
        assert_eq!(r.options.last_move, Some([Coord::new(7, 1), Coord::new(7, 3)]));
        assert_eq!(r.options.check, Check::Squares(vec![Coord::new(7, 0)]));
    }

    #[test]
    fn bad_values_are_errors_with_reasons() {
        let err = |game: &str, q: &str| Request::from_query(game, q).unwrap_err().to_string();
        assert!(err("chess", "fen=xyz").starts_with("bad FEN"));
        assert!(err("chess", "size=10").contains("64 to 2048"));
        assert!(err("chess", "size=99999999999999999999").contains("size"));
        assert!(err("chess", "orientation=red").contains("white or black"));
        assert!(err("chess4", "orientation=white").contains("red, blue"));
        assert!(err("chess", "lastmove=e2").contains("two squares"));
        assert!(err("chess", "lastmove=e2i9").contains("not a square"));
        assert!(err("chess4", "lastmove=a1b1").contains("not a square"));
        assert!(err("draughts", "lastmove=0-5").contains("1 to 32"));
        assert!(err("draughts", "check=e1").contains("auto or off"));
        assert!(err("draughts", "variant=chinese").contains("variant"));
        assert!(err("chess", "theme=blue").contains("light or dark"));
        assert!(err("chess", "coords=maybe").contains("on or off"));
        assert!(err("chess", "foo=1").contains("unknown parameter"));
        assert!(err("chess", "size=100&size=200").contains("twice"));
        assert!(err("chess", "fen=%ZZ").contains("percent"));
        assert!(err("chess", "fen=%FF").contains("percent"));
        assert!(err("go", "").contains("unknown game"));
        assert!(err("chess", &"a".repeat(MAX_QUERY_BYTES + 1)).contains("too long"));
        assert!(err("draughts", "fen=W:W1").starts_with("bad PDN FEN"));
        assert!(err("chess4", "fen4=R-0").starts_with("bad FEN4"));
    }
}

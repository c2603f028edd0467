//! Which game a table plays.

use std::fmt;
use std::str::FromStr;

/// A draughts variant. Each is a value of one rules type in `parlor-draughts`, not a copy of its generator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum DraughtsVariant {
    /// English draughts / checkers: 8x8, short kings, Black first, free choice of capture.
    #[default]
    English,
    /// International draughts: 10x10, flying kings, majority capture, White first.
    International,
    /// Russian draughts: 8x8, flying kings, promotion during a capture, White first.
    Russian,
    /// Pool checkers: 8x8, flying kings, no promotion when passing the last row, Black first.
    Pool,
}

impl DraughtsVariant {
    /// All variants.
    pub const ALL: [DraughtsVariant; 4] = [
        DraughtsVariant::English,
        DraughtsVariant::International,
        DraughtsVariant::Russian,
        DraughtsVariant::Pool,
    ];

    /// The lower-case name used on the wire and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            DraughtsVariant::English => "english",
            DraughtsVariant::International => "international",
            DraughtsVariant::Russian => "russian",
            DraughtsVariant::Pool => "pool",
        }
    }
}

impl fmt::Display for DraughtsVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown game or variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game or variant `{0}` (expected chess, chess4, or draughts/english|international|russian|pool)")]
pub struct ParseKindError(pub String);

impl FromStr for DraughtsVariant {
    type Err = ParseKindError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DraughtsVariant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseKindError(s.to_owned()))
    }
}

/// The game a table plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Chess, FIDE rules.
    Chess,
    /// Draughts in one of its variants.
    Draughts(DraughtsVariant),
    /// Four-player chess, free-for-all.
    Chess4,
}

impl GameKind {
    /// Number of seats: 2, or 4 for four-player chess.
    pub const fn seat_count(self) -> usize {
        match self {
            GameKind::Chess | GameKind::Draughts(_) => 2,
            GameKind::Chess4 => 4,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameKind::Chess => f.write_str("chess"),
            GameKind::Draughts(v) => write!(f, "draughts/{v}"),
            GameKind::Chess4 => f.write_str("chess4"),
        }
    }
}

impl FromStr for GameKind {
    type Err = ParseKindError;
    /// `chess`, `chess4`, `draughts` (English) or `draughts/<variant>`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "chess" => Ok(GameKind::Chess),
            "chess4" => Ok(GameKind::Chess4),
            "draughts" | "checkers" => Ok(GameKind::Draughts(DraughtsVariant::English)),
            _ => match s.strip_prefix("draughts/") {
                Some(v) => Ok(GameKind::Draughts(v.parse()?)),
                None => Err(ParseKindError(s.to_owned())),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_round_trip() {
        for kind in [GameKind::Chess, GameKind::Chess4]
            .into_iter()
            .chain(DraughtsVariant::ALL.map(GameKind::Draughts))
        {
            assert_eq!(kind.to_string().parse::<GameKind>(), Ok(kind));
        }
        assert!("go".parse::<GameKind>().is_err());
    }
}

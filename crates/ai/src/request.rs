//! What a caller asks of a CPU player ([`Request`]) and what it gets back ([`Choice`], [`AiError`]).

pub use crate::level::{Level, ParseLevelError};
use crate::params;
use parlor_game::GameKind;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The mover's clock at a table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Added to the mover's clock after each move.
    pub increment: Duration,
    /// The table's maximum thinking time for one move, if it has one.
    pub per_move_cap: Option<Duration>,
    /// Moves until the next time control, if the control has one (UCI `movestogo`).
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// A chess table's default clock: 15 minutes, no increment, at most 60 s per move.
    pub const fn chess_default() -> Clock {
        Clock {
            remaining: params::CHESS_DEFAULT_CLOCK,
            increment: Duration::ZERO,
            per_move_cap: Some(params::CHESS_DEFAULT_CAP),
            moves_to_go: None,
        }
    }
}

/// How long the search may run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Budget the time from the mover's clock.
    Clock(Clock),
    /// Think this long (minus a small overhead), then answer.
    MoveTime(Duration),
    /// Search to this depth (plies), however long it takes, unless stopped.
    Depth(u32),
    /// Search until the stop flag is raised.
    Infinite,
    /// Whichever comes first of several limits (UCI `go` with more than one: `movetime 100 depth 8`,
    /// `nodes 20000`, a clock and a depth). A limit of none is [`Limit::Infinite`].
    FirstOf(Bounds),
}

/// The limits of [`Limit::FirstOf`]: the search ends at the first one it reaches.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// Budget the time from this clock.
    pub clock: Option<Clock>,
    /// Think at most this long (minus a small overhead).
    pub time: Option<Duration>,
    /// Search no deeper than this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every few hundred nodes, so a search may pass it by as many).
    pub nodes: Option<u64>,
}

impl Bounds {
    /// The simplest limit saying the same: one bound alone is its own [`Limit`] (a clock, a time, a depth); two or
    /// more, or a node count, are [`Limit::FirstOf`]; `None` when there is none.
    pub fn limit(self) -> Option<Limit> {
        let limit = match self {
            Bounds {
                clock: None,
                time: None,
                depth: None,
                nodes: None,
            } => return None,
            Bounds {
                clock: Some(c),
                time: None,
                depth: None,
                nodes: None,
            } => Limit::Clock(c),
            Bounds {
                clock: None,
                time: Some(t),
                depth: None,
                nodes: None,
            } => Limit::MoveTime(t),
            Bounds {
                clock: None,
                time: None,
                depth: Some(d),
                nodes: None,
            } => Limit::Depth(d),
            _ => Limit::FirstOf(self),
        };
        Some(limit)
    }
}

impl Limit {
    /// Whether the limit is a fixed amount of work, whatever the machine: then a search runs on one thread, so
    /// that its result and node count are the same every time.
    pub fn is_fixed_work(&self) -> bool {
        match self {
            Limit::Depth(_) => true,
            Limit::FirstOf(b) => b.clock.is_none() && b.time.is_none(),
            _ => false,
        }
    }
}

/// A request for a move: which game, where it stands, how strong and how long.
#[derive(Clone, Debug)]
pub struct Request {
    /// The game (and variant).
    pub kind: GameKind,
    /// The start position in the game's notation (FEN, PDN FEN or FEN4); empty for the standard start. It may
    /// also be the current position with `moves` empty: that is how a four-player game with an elimination that
    /// is not a move (resignation, timeout) is sent, since FEN4 carries the eliminations, points and turn.
    pub start: String,
    /// The moves played since `start`, in wire notation (so the engine knows the repetition history).
    pub moves: Vec<String>,
    /// The strength.
    pub level: Level,
    /// The time allowed.
    pub limit: Limit,
    /// Raised by the caller to end the search early; the best move found so far is returned.
    pub stop: Arc<AtomicBool>,
    /// Seed of the random choices of the easy and medium levels; `None` seeds from the clock.
    pub seed: Option<u64>,
    /// Draughts: whether a capture, when there is one, must be made (the table's option; `true` by default). When
    /// it is `false` the moves may decline captures and the engine weighs declining them. Other games ignore it.
    pub mandatory_capture: bool,
    /// Chess and four-player chess: search only these moves of the root (wire notation; UCI `go searchmoves`);
    /// empty for all. A move that is not legal there is refused ([`AiError::BadMove`]).
    pub search_moves: Vec<String>,
    /// At most this many search threads (the level's own number, within the machine's cores, when `None`): the
    /// server's game reviews search on one thread so the other cores stay with the live games.
    pub threads: Option<usize>,
    /// The search's parameters in place of the level's (`None`: the level's own): a match that weighs a change of
    /// them plays it against the level as it stands (`parlor match --a hard --a-option threats=0`).
    pub params: Option<crate::params::LevelParams>,
}

impl Request {
    /// A request from the standard start with no moves, a fresh stop flag and a random seed.
    pub fn new(kind: GameKind, level: Level, limit: Limit) -> Request {
        Request {
            kind,
            start: String::new(),
            moves: Vec::new(),
            level,
            limit,
            stop: Arc::new(AtomicBool::new(false)),
            seed: None,
            mandatory_capture: true,
            search_moves: Vec::new(),
            threads: None,
            params: None,
        }
    }
}

/// A score from the mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (chess) or the game's own unit; positive is good for the mover.
    Cp(i32),
    /// Mate in this many moves (negative: the mover is mated).
    Mate(i32),
}

/// A root move's score with its level's random bonus (easy and medium): the bonus moves ordinary scores only, so a
/// mate keeps its distance, and [`Score::from_internal`] its sign.
pub(crate) fn with_bonus(raw: i32, bonus: i32) -> i32 {
    if raw.abs() > params::MATE_BOUND {
        raw
    } else {
        raw + bonus
    }
}

impl Score {
    /// Converts a search score (mates near [`params::MATE`]) into a [`Score`].
    pub fn from_internal(score: i32) -> Score {
        if score > params::MATE_BOUND {
            Score::Mate((params::MATE - score + 1) / 2)
        } else if score < -params::MATE_BOUND {
            Score::Mate(-(params::MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

impl fmt::Display for Score {
    /// UCI style: `cp 23` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// The move a CPU player chose, and how it got there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move in wire notation; [`parlor_game::Rules::play`] accepts it.
    pub wire: String,
    /// The score of the position after the best line, for the mover.
    pub score: Score,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The principal variation, in wire notation, starting with `wire`.
    pub pv: Vec<String>,
}

impl Choice {
    /// The answer of a search: its line in wire notation (empty when no move of it was legal), the depth of the
    /// iteration that found it (a negative depth counts as 0), its score, the nodes and the time it took.
    pub fn from_line(pv: Vec<String>, depth: i32, score: Score, nodes: u64, elapsed: Duration) -> Choice {
        Choice {
            wire: pv.first().cloned().unwrap_or_default(),
            score,
            depth: depth.max(0) as u32,
            nodes,
            elapsed,
            pv,
        }
    }
}

/// Why no move could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// The start position is not readable or not legal.
    #[error("bad start position: {0}")]
    BadPosition(String),
    /// A move of the history is not legal where it was played.
    #[error("move {index} `{wire}` of the history: {reason}")]
    BadMove {
        /// Its index in [`Request::moves`].
        index: usize,
        /// The move as given.
        wire: String,
        /// Why the rules refused it.
        reason: String,
    },
    /// The game is over: there is no move to choose.
    #[error("the game is over: no move to choose")]
    GameOver,
    /// There is no engine for this game yet.
    #[error("no CPU player for {0} yet")]
    Unsupported(GameKind),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse() {
        assert_eq!("easy".parse::<Level>(), Ok(Level::EASY));
        assert_eq!("Medium".parse::<Level>(), Ok(Level::MEDIUM));
        assert_eq!("hard".parse::<Level>(), Ok(Level::HARD));
        assert!("expert".parse::<Level>().is_err());
    }

    #[test]
    fn mate_scores_read_in_moves() {
        assert_eq!(Score::from_internal(params::MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(params::MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-params::MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
    }
}

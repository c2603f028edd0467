//! Tables, seats, clocks and games as the protocol describes them.

use parlor_game::{Coord, MoveView, Outcome};
use serde::{Deserialize, Serialize};

/// A player as others see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Stable id (from the signed cookie).
    pub id: String,
    /// Chosen nickname.
    pub name: String,
}

/// How a table's clocks run. All times in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TimeControl {
    /// Time each player starts with; `None` for no overall clock (four-player per-turn limits).
    pub base_ms: Option<u64>,
    /// Time added after each move.
    #[serde(default)]
    pub increment_ms: u64,
    /// Longest a single move may take; `None` for no cap.
    pub per_move_ms: Option<u64>,
}

impl TimeControl {
    /// Chess and draughts default: 15 minutes each, at most 60 s per move.
    pub const STANDARD: TimeControl = TimeControl {
        base_ms: Some(15 * 60 * 1000),
        increment_ms: 0,
        per_move_ms: Some(60 * 1000),
    };
    /// No clock at all (four-player default).
    pub const NONE: TimeControl = TimeControl {
        base_ms: None,
        increment_ms: 0,
        per_move_ms: None,
    };

    /// True if no clock runs.
    pub fn is_untimed(&self) -> bool {
        self.base_ms.is_none() && self.per_move_ms.is_none()
    }

    /// The `TimeControl` tag in the PGN standard's syntax (PDN uses the same): `900+0` for a base and an
    /// increment in seconds, `1/30` for 30 s a move with nothing carried over, `-` when untimed. A cap per move
    /// beside a base has no PGN form: it is [`TimeControl::cap_tag`].
    pub fn to_tag(&self) -> String {
        match (self.base_ms, self.per_move_ms) {
            (None, None) => "-".to_owned(),
            (None, Some(cap)) => format!("1/{}", cap / 1000),
            (Some(base), _) => format!("{}+{}", base / 1000, self.increment_ms / 1000),
        }
    }

    /// The seconds of the per-move cap beside a base, for its own tag ([`TimeControl::CAP_TAG`]); `None` when
    /// there is no cap or the cap is the whole control (`1/30`).
    pub fn cap_tag(&self) -> Option<String> {
        match (self.base_ms, self.per_move_ms) {
            (Some(_), Some(cap)) => Some((cap / 1000).to_string()),
            _ => None,
        }
    }

    /// The name of the tag that holds the per-move cap, in seconds.
    pub const CAP_TAG: &'static str = "MaxMoveTime";
}

/// House rules of a table. Unknown fields are ignored; missing ones take their defaults.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HouseRules {
    /// Show legal destinations on the board (default on).
    pub show_legal: bool,
    /// Each new game at the table starts one seat further clockwise (default on).
    pub rotate_first: bool,
    /// Draughts: capturing is compulsory (default on).
    pub mandatory_capture: bool,
    /// Four-player: the game ends when the players' total moves reach this (default none).
    pub move_limit: Option<u32>,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            show_legal: true,
            rotate_first: true,
            mandatory_capture: true,
            move_limit: None,
        }
    }
}

/// Who sits in a seat when a table is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatSpec {
    /// Free for anyone.
    Open,
    /// The creator sits here.
    Me,
    /// A CPU player at this level (`1` to `8`; `easy`, `medium`, `hard` are 2, 5 and 8).
    Cpu {
        /// The level.
        level: String,
    },
}

/// Everything needed to create a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSpec {
    /// `chess`, `draughts/<variant>` (english, international, russian, pool) or `chess4`.
    pub game: String,
    /// Clocks; the game's default when absent.
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// Rated games change ratings.
    #[serde(default)]
    pub rated: bool,
    /// Private tables stay out of the lobby and are joined by code or link.
    #[serde(default)]
    pub private: bool,
    /// House rules.
    #[serde(default)]
    pub rules: HouseRules,
    /// One entry per seat; missing entries are open. The creator sits in the first `me` seat, or the first open
    /// seat if none says `me`.
    #[serde(default)]
    pub seats: Vec<SeatSpec>,
}

/// A legal move as the board shows it (see `parlor_game::MoveView`). Coordinates are `[file, rank]`, 0-based from
/// the bottom-left of the game's standard diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMove {
    /// Wire notation: send this back to play the move.
    pub wire: String,
    /// From square.
    pub from: [u8; 2],
    /// To square.
    pub to: [u8; 2],
    /// Landing squares in order (draughts chains), ending with `to`; omitted when it is just `[to]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<[u8; 2]>,
    /// Squares of captured pieces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captures: Vec<[u8; 2]>,
    /// Promotion piece letter (chess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promotion: Option<char>,
}

/// A coordinate as `[file, rank]`.
pub fn coord(c: Coord) -> [u8; 2] {
    [c.file, c.rank]
}

impl From<MoveView> for LegalMove {
    /// Takes the move's own wire text (no copy): a position's legal moves are converted after every move.
    fn from(m: MoveView) -> LegalMove {
        let path = if m.path.len() <= 1 && m.path.iter().all(|&p| p == m.to) {
            Vec::new()
        } else {
            m.path.into_iter().map(coord).collect()
        };
        LegalMove {
            from: coord(m.from),
            to: coord(m.to),
            path,
            captures: m.captures.into_iter().map(coord).collect(),
            promotion: m.promotion,
            wire: m.wire,
        }
    }
}

impl From<&MoveView> for LegalMove {
    fn from(m: &MoveView) -> LegalMove {
        let path = if m.path.len() <= 1 && m.path.iter().all(|&p| p == m.to) {
            Vec::new()
        } else {
            m.path.iter().copied().map(coord).collect()
        };
        LegalMove {
            wire: m.wire.clone(),
            from: coord(m.from),
            to: coord(m.to),
            path,
            captures: m.captures.iter().copied().map(coord).collect(),
            promotion: m.promotion,
        }
    }
}

/// A move in the move list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The seat that moved (0-based).
    pub seat: u8,
    /// Wire notation.
    pub wire: String,
    /// Display notation (SAN, PDN, long algebraic).
    pub display: String,
}

/// The clocks at the moment a message was made. The client counts the running clock down itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Milliseconds left per seat (`None` for seats without an overall clock).
    pub remaining_ms: Vec<Option<u64>>,
    /// The seat whose clock runs, if any.
    pub running: Option<u8>,
    /// Milliseconds left for the current move under the per-move cap, if there is one.
    pub move_left_ms: Option<u64>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeInfo {
    /// `decided` or `drawn`.
    pub result: String,
    /// Place per seat (1 = first; equal places share).
    pub places: Vec<u8>,
    /// The winner's seat, if one seat alone is first.
    pub winner: Option<u8>,
    /// Why it ended (`checkmate`, `timeout`, `threefold`, ...).
    pub reason: String,
    /// Result text as PGN/PDN write it (`1-0`, `0-1`, `1/2-1/2`), empty for four players.
    pub score: String,
}

impl OutcomeInfo {
    /// The protocol form of a finished outcome; `None` while running.
    pub fn from_outcome(outcome: &Outcome, seats: usize) -> Option<OutcomeInfo> {
        let reason = outcome.reason()?.name().to_owned();
        let score = if seats == 2 {
            outcome.result_str().to_owned()
        } else {
            String::new()
        };
        Some(match outcome {
            Outcome::Running => return None,
            Outcome::Decided(d) => OutcomeInfo {
                result: "decided".into(),
                places: d.places.as_slice().to_vec(),
                winner: d.winner().map(|s| s.index() as u8),
                reason,
                score,
            },
            Outcome::Drawn(_) => OutcomeInfo {
                result: "drawn".into(),
                places: vec![1; seats],
                winner: None,
                reason,
                score,
            },
        })
    }
}

/// A game as a client needs it to draw the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// Game id (for history and export).
    pub id: String,
    /// Start position (FEN, PDN FEN, FEN4).
    pub start: String,
    /// Current position.
    pub position: String,
    /// Moves so far.
    pub moves: Vec<MoveRecord>,
    /// Seat to move, `None` when over.
    pub turn: Option<u8>,
    /// Legal moves of the seat to move.
    pub legal: Vec<LegalMove>,
    /// Clocks, absent for untimed games.
    pub clocks: Option<Clocks>,
    /// Points per seat (four-player).
    pub points: Vec<i32>,
    /// Eliminated seats (four-player).
    pub eliminated: Vec<bool>,
    /// Squares of kings in check.
    pub check: Vec<[u8; 2]>,
    /// Set when the game is over.
    pub outcome: Option<OutcomeInfo>,
    /// A pending draw offer: the seat that offered.
    pub draw_offer: Option<u8>,
    /// A pending takeback request between people: the seat that asked to take back its last move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback_offer: Option<u8>,
}

/// One seat of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The player sitting, if a person.
    pub player: Option<PlayerInfo>,
    /// The CPU level, if a CPU plays this seat (also when it took over from an away player).
    pub cpu: Option<String>,
    /// The player's connection is gone (still within the grace period, or replaced by a CPU).
    pub away: bool,
}

/// A whole table: what a client gets when it opens the table or resyncs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// Table id.
    pub id: String,
    /// Private code (private tables only, and only to their players and watchers).
    pub code: Option<String>,
    /// The spec the table was created with.
    pub spec: TableSpec,
    /// Version of the last event included.
    pub version: u64,
    /// Seats in turn order.
    pub seats: Vec<SeatInfo>,
    /// The game being played or just finished.
    pub game: Option<GameState>,
    /// Number of watchers who do not sit.
    pub spectators: u32,
    /// Seats that asked for a rematch.
    pub rematch: Vec<u8>,
    /// Your own seat at this table, if you sit.
    pub you: Option<u8>,
    /// The latest chat lines, oldest first (without the lines of players you muted).
    #[serde(default)]
    pub chat: Vec<ChatLine>,
}

/// A chat line as the table's history keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Who said it.
    pub from: PlayerInfo,
    /// The text (escape it when showing it).
    pub text: String,
    /// When, unix ms.
    pub at_ms: i64,
}

/// A table as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyTable {
    /// Table id.
    pub id: String,
    /// Game (`chess`, `draughts/english`, `chess4` ...).
    pub game: String,
    /// Clocks.
    pub time: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// Seats: player names, CPU levels or free.
    pub seats: Vec<SeatInfo>,
    /// Whether a game is being played.
    pub playing: bool,
    /// Who made the table, while they sit there; else the first person seated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<PlayerInfo>,
    /// When the table was made (ms since the Unix epoch).
    #[serde(default)]
    pub created_ms: i64,
}

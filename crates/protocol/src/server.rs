//! Messages the server sends.

use crate::client::Relation;
use crate::table::{
    Clocks, GameState, LegalMove, LobbyTable, OutcomeInfo, PlayerInfo, SeatInfo, TableSpec, TableState,
};
use serde::{Deserialize, Serialize};

/// Why something was refused. Stable names a client can translate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The socket came without the identity cookie: multiplayer needs cookies. The socket closes.
    CookiesRequired,
    /// The client speaks an older (or newer) protocol: reload the page. The socket closes.
    ClientOutdated,
    /// No such table, or it is closed.
    TableNotFound,
    /// The message is not valid JSON or not a known message.
    BadMessage,
    /// A frame over the size limit. The socket closes.
    TooLarge,
    /// Too many messages or lookups; slow down.
    RateLimited,
    /// It is not your turn.
    NotYourTurn,
    /// You do not sit at this table (spectators never move).
    NotSeated,
    /// The move is illegal; `message` says why.
    IllegalMove,
    /// The move was chosen for an older position (another move was played since).
    StaleMove,
    /// The game is over or has not started.
    GameOver,
    /// That seat is taken.
    SeatTaken,
    /// No free seat.
    TableFull,
    /// Not allowed now (abort after both moved, draw in four-player ...).
    NotAllowed,
    /// A player here has blocked you, or you them.
    Blocked,
    /// A player you blocked sits here: send `sit` again with `confirm: true` to join anyway.
    ConfirmBlocked,
    /// The player is offline or not accepting challenges.
    PlayerOffline,
    /// No such challenge.
    ChallengeNotFound,
    /// The name is empty, too long, has control, invisible or direction-changing characters, or copies the
    /// pattern of the names given to new players (`Guest-XXXX`).
    NameInvalid,
    /// The chat text is empty or too long.
    ChatInvalid,
    /// The table spec is invalid (unknown game, bad clock ...).
    BadSpec,
    /// The server failed; the game is safe; try again.
    Internal,
    /// The table cannot take moves for a moment (its store cannot save, or it is moving to another server);
    /// try again.
    Unavailable,
    /// You host as many open tables as a player may: close one first.
    TooManyTables,
    /// You already challenged this player; wait for the answer or withdraw it.
    ChallengeExists,
    /// You have as many challenges waiting for an answer as a player may.
    TooManyChallenges,
    /// You neither sit at this table nor have it open (chat goes to those at the table).
    NotAtTable,
}

/// The state of a challenge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeState {
    /// Waiting for an answer.
    Pending,
    /// Accepted: `table` is where both sit.
    Accepted,
    /// Declined.
    Declined,
    /// Withdrawn by the challenger.
    Cancelled,
    /// Ended because one side went offline or disconnected.
    Gone,
}

/// A rating change after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// Seat index.
    pub seat: u8,
    /// Rating before.
    pub before: f64,
    /// Rating after.
    pub after: f64,
    /// Still provisional (high deviation).
    pub provisional: bool,
}

/// A player in the lobby's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlinePlayer {
    /// Id and name.
    #[serde(flatten)]
    pub player: PlayerInfo,
    /// You marked them as a favourite.
    pub favourite: bool,
}

/// A finished game in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryGame {
    /// Game id (open `/game/<id>` to replay, `/game/<id>/export` to download).
    pub id: String,
    /// Game kind.
    pub game: String,
    /// Players in seat order (CPU seats as `CPU (level)`).
    pub players: Vec<String>,
    /// The player's seat.
    pub seat: u8,
    /// How it ended.
    pub outcome: Option<OutcomeInfo>,
    /// The player's rating change, if rated.
    pub rating: Option<RatingChange>,
    /// End time, unix ms.
    pub ended_ms: i64,
}

/// What happened at a table. Each event has a version one higher than the last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "snake_case")]
pub enum Event {
    /// A move was played (already stored).
    Moved {
        /// Number of moves played now.
        ply: u32,
        /// Who moved.
        seat: u8,
        /// Wire notation.
        wire: String,
        /// Display notation.
        display: String,
        /// Position after the move.
        position: String,
        /// Seat to move next, `None` if the game ended.
        turn: Option<u8>,
        /// Legal moves for the seat to move.
        legal: Vec<LegalMove>,
        /// Clocks after the move.
        clocks: Option<Clocks>,
        /// Points per seat.
        points: Vec<i32>,
        /// Eliminated seats.
        eliminated: Vec<bool>,
        /// Kings in check.
        check: Vec<[u8; 2]>,
    },
    /// A seat changed: someone sat, stood, went away, came back, or a CPU took over.
    Seat {
        /// Seat index.
        seat: u8,
        /// The seat now.
        info: SeatInfo,
    },
    /// A game started.
    Started {
        /// The new game.
        game: GameState,
    },
    /// Moves were taken back: the game as it is now (its moves, position, turn and clocks).
    TookBack {
        /// The game after the takeback.
        game: GameState,
    },
    /// The game ended.
    Ended {
        /// How.
        outcome: OutcomeInfo,
        /// Final clocks.
        clocks: Option<Clocks>,
        /// Points per seat (four-player).
        points: Vec<i32>,
        /// Eliminated seats.
        eliminated: Vec<bool>,
        /// Rating changes of a rated game.
        ratings: Vec<RatingChange>,
    },
    /// A four-player seat was eliminated by resignation or time, and play goes on.
    Eliminated {
        /// Seat.
        seat: u8,
        /// `resignation` or `timeout`.
        reason: String,
        /// Seat to move next.
        turn: Option<u8>,
        /// Legal moves for it.
        legal: Vec<LegalMove>,
        /// Clocks now.
        clocks: Option<Clocks>,
        /// Points now.
        points: Vec<i32>,
        /// Eliminated seats now.
        eliminated: Vec<bool>,
    },
    /// A draw was offered.
    DrawOffered {
        /// By whom.
        seat: u8,
    },
    /// The offer was declined (or lapsed with a move).
    DrawDeclined {
        /// By whom.
        seat: u8,
    },
    /// A player asked to take back their last move (between people).
    TakebackOffered {
        /// Who asked.
        seat: u8,
    },
    /// The request was declined (or lapsed with a move).
    TakebackDeclined {
        /// By whom.
        seat: u8,
    },
    /// Seats that asked for a rematch so far.
    Rematch {
        /// Seats.
        seats: Vec<u8>,
    },
    /// Spectator count changed.
    Spectators {
        /// Watchers who do not sit.
        count: u32,
    },
    /// A chat line.
    Chat {
        /// Who said it.
        from: PlayerInfo,
        /// The text (escape it when showing it).
        text: String,
        /// When, unix ms.
        at_ms: i64,
    },
}

/// Everything the server may send. JSON: `{"t": "<name>", ...fields}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Answer to `hello`: who you are.
    Welcome {
        /// The server's protocol version.
        protocol: u32,
        /// Your identity.
        you: PlayerInfo,
        /// Whether others see you online.
        online: bool,
    },
    /// Answer to `ping`.
    Pong,
    /// Something was refused. The socket stays open unless the code says otherwise.
    Error {
        /// What kind.
        code: ErrorCode,
        /// Plain words (English; clients translate by code).
        message: String,
        /// The table concerned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<String>,
        /// The move's `ack` id, for a refused move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<u64>,
    },
    /// A move was stored and played.
    Ack {
        /// Table id.
        table: String,
        /// The client's id for the move.
        ack: u64,
        /// The event version of the move.
        version: u64,
    },
    /// Your name changed.
    Named {
        /// You, with the new name.
        you: PlayerInfo,
    },
    /// The whole lobby (after `lobby {on: true}`).
    Lobby {
        /// Public tables.
        tables: Vec<LobbyTable>,
        /// Online players, favourites first.
        players: Vec<OnlinePlayer>,
    },
    /// A lobby table appeared or changed.
    LobbyTable {
        /// The table.
        table: LobbyTable,
    },
    /// A lobby table is gone (closed, or went private).
    LobbyGone {
        /// Table id.
        id: String,
    },
    /// A player came online.
    PlayerOnline {
        /// The player.
        player: OnlinePlayer,
    },
    /// A player went offline.
    PlayerOffline {
        /// Player id.
        id: String,
    },
    /// A table was created for you.
    Created {
        /// Table id.
        table: String,
        /// Private code, for private tables.
        code: Option<String>,
    },
    /// A table's full state (on open, or to resync).
    Table {
        /// The state.
        state: Box<TableState>,
    },
    /// A table event.
    Event {
        /// Table id.
        table: String,
        /// Version of this event.
        v: u64,
        /// What happened.
        event: Box<Event>,
    },
    /// A challenge you sent or received, in its current state.
    Challenge {
        /// Challenge id.
        id: String,
        /// Challenger.
        from: PlayerInfo,
        /// Challenged player.
        to: PlayerInfo,
        /// The proposed game.
        spec: TableSpec,
        /// Current state.
        state: ChallengeState,
        /// The new table, once accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<String>,
    },
    /// Your marks on other players.
    Relations {
        /// Per player id, the marks set.
        marks: Vec<(String, Relation)>,
    },
    /// A page of finished games.
    History {
        /// Whose.
        player: String,
        /// Newest first.
        games: Vec<HistoryGame>,
    },
}

impl ServerMsg {
    /// An error message without table or ack.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            code,
            message: message.into(),
            table: None,
            ack: None,
        }
    }
}

//! The rows Parlor keeps: players, tables, games with their moves and events, chat, relations and ratings.

/// Values of [`TableRecord::status`].
pub mod table_status {
    /// Waiting for players.
    pub const OPEN: &str = "open";
    /// A game is being played.
    pub const PLAYING: &str = "playing";
    /// Gone from the lobby; kept for history.
    pub const CLOSED: &str = "closed";
}

/// Values of [`GameRecord::status`].
pub mod game_status {
    /// Being played: comes back after a restart.
    pub const LIVE: &str = "live";
    /// Ended with a result.
    pub const FINISHED: &str = "finished";
    /// Ended without a result (for example nobody moved).
    pub const ABORTED: &str = "aborted";
}

/// A visitor, known by the id in their signed cookie. No registration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// A uuid.
    pub id: String,
    /// The name shown to others.
    pub nickname: String,
    /// When the player was first seen (unix ms).
    pub created_ms: i64,
    /// When the player was last seen (unix ms).
    pub last_seen_ms: i64,
}

/// A table of the site: where one game after another is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRecord {
    /// A uuid.
    pub id: String,
    /// A private table's short code (unique); `None` for a public table.
    pub code: Option<String>,
    /// The game played, for example `chess`, `draughts/english` or `chess4`.
    pub kind: String,
    /// The table's settings as JSON (time control, rated, ...), as the server writes them.
    pub settings: String,
    /// One of [`table_status`].
    pub status: String,
    /// The id of the player who opened the table.
    pub owner: String,
    /// Creation time (unix ms).
    pub created_ms: i64,
    /// Time of the last change (unix ms).
    pub updated_ms: i64,
}

/// One game at a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// A uuid.
    pub id: String,
    /// The table the game is played at.
    pub table_id: String,
    /// The game played, as in [`TableRecord::kind`].
    pub kind: String,
    /// JSON: variant, options and start position text.
    pub setup: String,
    /// JSON array indexed by seat. An element that is a string, or an object with a string field `player` (or
    /// `player_id`), names a player; anything else (null, a CPU level object) does not. The named players are
    /// indexed for [`crate::Store::games_of_player`].
    pub seats: String,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// One of [`game_status`].
    pub status: String,
    /// The result as JSON once the game has ended.
    pub result: Option<String>,
    /// The last clock snapshot as JSON.
    pub clocks: Option<String>,
    /// Start time (unix ms).
    pub created_ms: i64,
    /// End time (unix ms) once ended.
    pub ended_ms: Option<i64>,
}

/// One move of a game. Unique per `(game_id, ply)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The game.
    pub game_id: String,
    /// 0 for the first move.
    pub ply: i32,
    /// The seat that moved.
    pub seat: i32,
    /// The move in the game's wire format (UCI for chess).
    pub wire: String,
    /// JSON: milliseconds left per seat after the move.
    pub clocks: String,
    /// When the move was received (unix ms).
    pub at_ms: i64,
}

/// One game event other than a move (draw offer, takeback, resignation, seat change, ...). Unique per
/// `(game_id, seq)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRecord {
    /// The game.
    pub game_id: String,
    /// The event's number in its game.
    pub seq: i32,
    /// What happened, for example `draw_offer`.
    pub kind: String,
    /// JSON details.
    pub data: String,
    /// When it happened (unix ms).
    pub at_ms: i64,
}

/// A game with everything needed to resume it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game row.
    pub game: GameRecord,
    /// Its moves in ply order.
    pub moves: Vec<MoveRecord>,
    /// Its events in seq order.
    pub events: Vec<EventRecord>,
}

/// One chat line at a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    /// Assigned by the store, increasing in the order lines were added.
    pub id: i64,
    /// The table.
    pub table_id: String,
    /// The author.
    pub player_id: String,
    /// The text as typed (escape it when showing it).
    pub text: String,
    /// When it was said (unix ms).
    pub at_ms: i64,
}

/// How one player regards another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// Never seat or challenge together.
    Block,
    /// Hide their chat.
    Mute,
    /// Show them first.
    Favourite,
}

impl Relation {
    /// The name kept in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Block => "block",
            Relation::Mute => "mute",
            Relation::Favourite => "favourite",
        }
    }

    /// The relation with this stored name.
    pub fn from_name(name: &str) -> Option<Relation> {
        match name {
            "block" => Some(Relation::Block),
            "mute" => Some(Relation::Mute),
            "favourite" => Some(Relation::Favourite),
            _ => None,
        }
    }
}

/// A player's rating in one pool (Glicko-2 numbers; the store does not compute them).
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The player.
    pub player_id: String,
    /// The pool, for example `chess`, `draughts/english` or `chess4`.
    pub pool: String,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: i32,
    /// When it last changed (unix ms).
    pub updated_ms: i64,
}

/// One player's rating change from one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub player_id: String,
    /// The pool.
    pub pool: String,
    /// The rating before the game.
    pub before: f64,
    /// The rating after the game.
    pub after: f64,
}

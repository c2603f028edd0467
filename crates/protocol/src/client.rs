//! Messages a client sends.

use crate::table::TableSpec;
use serde::{Deserialize, Serialize};

/// A player's private mark on another player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// They can neither challenge you nor join a table where you sit.
    Block,
    /// You no longer see their chat.
    Mute,
    /// Shown with a heart, listed first.
    Favourite,
}

/// An answer to a challenge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeAnswer {
    /// Play: both are seated at a new table.
    Accept,
    /// No thanks.
    Decline,
}

/// What a `takeback` message does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakebackAction {
    /// Take back one's last move (against the computer), or ask the other player to agree.
    #[default]
    Offer,
    /// Agree to the other player's request.
    Accept,
    /// Refuse it.
    Decline,
}

/// A draw offer action.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    /// Offer a draw (or accept, if the opponent already offered).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
}

/// Everything a client may send. JSON: `{"t": "<name>", ...fields}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMsg {
    /// First message on a socket: the protocol version the client speaks.
    Hello {
        /// [`crate::PROTOCOL_VERSION`] of the client's build.
        protocol: u32,
    },
    /// Keep-alive; answered with `pong`.
    Ping,
    /// Choose or change one's nickname (1-24 characters, no control characters).
    SetName {
        /// The new name.
        name: String,
    },
    /// Start (`on: true`) or stop receiving lobby updates.
    Lobby {
        /// Subscribe or not.
        on: bool,
    },
    /// Create a table; answered with `created`, then the table's state.
    Create {
        /// What to play and how.
        spec: TableSpec,
    },
    /// Open (watch) a table by id or by private code. With `since`, the client resumes from that event version
    /// and receives the events it missed, or the full state if the gap is too old.
    Open {
        /// Table id.
        #[serde(default)]
        table: Option<String>,
        /// Private code (instead of the id).
        #[serde(default)]
        code: Option<String>,
        /// Last event version the client has.
        #[serde(default)]
        since: Option<u64>,
    },
    /// Stop watching a table.
    Close {
        /// Table id.
        table: String,
    },
    /// Take a seat (the first free one if `seat` is absent). `confirm` says the player accepted sitting with
    /// someone they blocked.
    Sit {
        /// Table id.
        table: String,
        /// Seat index.
        #[serde(default)]
        seat: Option<u8>,
        /// Confirmed despite a blocked player at the table.
        #[serde(default)]
        confirm: bool,
    },
    /// Leave one's seat (before the game starts, or after it ended).
    Stand {
        /// Table id.
        table: String,
    },
    /// Play a move. `ack` is the client's id for this move (echoed in `ack` or `error`); `ply` is the number of
    /// moves already played in the game as the client saw it, so a stale move is refused, not misapplied.
    Move {
        /// Table id.
        table: String,
        /// Client-chosen id.
        ack: u64,
        /// Moves already played when the client chose this one.
        ply: u32,
        /// The move in wire notation (from the `legal` list).
        wire: String,
    },
    /// Resign the game.
    Resign {
        /// Table id.
        table: String,
    },
    /// Offer, accept or decline a draw (two-player games).
    Draw {
        /// Table id.
        table: String,
        /// What to do.
        action: DrawAction,
    },
    /// Abort the game before both sides have moved (no result, no rating change).
    Abort {
        /// Table id.
        table: String,
    },
    /// Ask for a rematch after the game; when every person at the table asked, a new game starts.
    Rematch {
        /// Table id.
        table: String,
    },
    /// Take back one's last move: against the computer (a casual table where every other seat is a computer) at
    /// once; between two people at a casual table by request (`offer`) and the other's `accept` (or `decline`).
    Takeback {
        /// Table id.
        table: String,
        /// What to do; `offer` when absent.
        #[serde(default)]
        action: TakebackAction,
    },
    /// Say something at a table (1-300 characters).
    Chat {
        /// Table id.
        table: String,
        /// The text; never interpreted as HTML.
        text: String,
    },
    /// Appear online or offline to others.
    Presence {
        /// Visible or not.
        online: bool,
    },
    /// Challenge an online player to a game.
    Challenge {
        /// The challenged player's id.
        to: String,
        /// What to play.
        spec: TableSpec,
    },
    /// Withdraw one's own challenge.
    ChallengeCancel {
        /// Challenge id.
        id: String,
    },
    /// Accept or decline a challenge.
    ChallengeAnswer {
        /// Challenge id.
        id: String,
        /// The answer.
        answer: ChallengeAnswer,
    },
    /// Set or clear a mark on a player.
    Relation {
        /// The other player's id.
        player: String,
        /// Which mark.
        relation: Relation,
        /// Set (true) or clear.
        on: bool,
    },
    /// A player's finished games, newest first.
    History {
        /// Whose games (one's own if absent).
        #[serde(default)]
        player: Option<String>,
        /// Only games ended before this time (unix ms), for paging.
        #[serde(default)]
        before: Option<i64>,
    },
}

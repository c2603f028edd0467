//! What a table's task is asked to do: its commands, and how a client's table message becomes one (on the node
//! the client is connected to, or on the table's owner for a forwarded message).

use crate::outbox::{ConnId, Outbox};
use parlor_protocol::{ClientMsg, DrawAction, PlayerInfo, TakebackAction};

/// Commands a table's task takes.
#[derive(Debug)]
pub enum Cmd {
    /// Watch the table (and resume from `since`).
    Open {
        /// Where to send.
        outbox: Outbox,
        /// Last version the client has.
        since: Option<u64>,
    },
    /// Stop watching (or the connection closed).
    Close {
        /// The connection.
        conn: ConnId,
    },
    /// Take a seat.
    Sit {
        /// Who.
        outbox: Outbox,
        /// Which seat.
        seat: Option<u8>,
        /// Confirmed despite a blocked player.
        confirm: bool,
    },
    /// Leave one's seat.
    Stand {
        /// Who.
        outbox: Outbox,
    },
    /// Play a move.
    Move {
        /// Who.
        outbox: Outbox,
        /// Client's id.
        ack: u64,
        /// Moves played when chosen.
        ply: u32,
        /// Wire notation.
        wire: String,
        /// When the connection handed the move on (the start of its queue stage).
        at: std::time::Instant,
    },
    /// Resign.
    Resign {
        /// Who.
        outbox: Outbox,
    },
    /// Draw offer, accept, decline.
    Draw {
        /// Who.
        outbox: Outbox,
        /// What.
        action: DrawAction,
    },
    /// Abort before both sides moved.
    Abort {
        /// Who.
        outbox: Outbox,
    },
    /// Ask for a rematch.
    Rematch {
        /// Who.
        outbox: Outbox,
    },
    /// Take back one's last move, ask for it, or answer the other's request.
    Takeback {
        /// Who.
        outbox: Outbox,
        /// What.
        action: TakebackAction,
    },
    /// A chat line.
    Chat {
        /// Who.
        outbox: Outbox,
        /// The text (already checked).
        text: String,
    },
    /// A player's name changed.
    Renamed {
        /// The player now.
        player: PlayerInfo,
    },
    /// Stop at once without writing: another node holds the table now (scale-out).
    Evict,
    /// A CPU finished thinking.
    CpuMoved {
        /// Game id it thought about.
        game_id: String,
        /// Moves played when it started.
        ply: u32,
        /// Its move, if it found one.
        wire: Option<String>,
    },
}

impl Cmd {
    /// The table command for a (checked) table message from a connection, here or on another node; `None` for
    /// a message that is not for a table.
    pub fn from_client(msg: ClientMsg, outbox: Outbox) -> Option<Cmd> {
        Some(match msg {
            ClientMsg::Open { since, .. } => Cmd::Open { outbox, since },
            ClientMsg::Close { .. } => Cmd::Close { conn: outbox.conn() },
            ClientMsg::Sit { seat, confirm, .. } => Cmd::Sit {
                outbox,
                seat,
                confirm,
            },
            ClientMsg::Stand { .. } => Cmd::Stand { outbox },
            ClientMsg::Move { ack, ply, wire, .. } => Cmd::Move {
                outbox,
                ack,
                ply,
                wire,
                at: std::time::Instant::now(),
            },
            ClientMsg::Resign { .. } => Cmd::Resign { outbox },
            ClientMsg::Draw { action, .. } => Cmd::Draw { outbox, action },
            ClientMsg::Abort { .. } => Cmd::Abort { outbox },
            ClientMsg::Rematch { .. } => Cmd::Rematch { outbox },
            ClientMsg::Takeback { action, .. } => Cmd::Takeback { outbox, action },
            ClientMsg::Chat { text, .. } => Cmd::Chat { outbox, text },
            _ => return None,
        })
    }
}

/// The table a table message is for; `None` for the others.
pub fn table_of(msg: &ClientMsg) -> Option<&str> {
    match msg {
        ClientMsg::Open { table, .. } => table.as_deref(),
        ClientMsg::Close { table }
        | ClientMsg::Sit { table, .. }
        | ClientMsg::Stand { table }
        | ClientMsg::Move { table, .. }
        | ClientMsg::Resign { table }
        | ClientMsg::Draw { table, .. }
        | ClientMsg::Abort { table }
        | ClientMsg::Rematch { table }
        | ClientMsg::Takeback { table, .. }
        | ClientMsg::Chat { table, .. } => Some(table),
        _ => None,
    }
}

//! Parlor's websocket protocol: JSON messages between the browser and the server. docs/protocol.md describes
//! every message; this crate is the single definition both sides' tests use.
//!
//! # Layout
//! - [`client`]: what a client sends ([`ClientMsg`]).
//! - [`server`]: what the server sends ([`ServerMsg`], table [`Event`]s, [`ErrorCode`]).
//! - [`table`]: tables, seats, time controls and house rules ([`TableSpec`], [`TableState`], [`GameState`]).
//!
//! Every message is a JSON object with a `t` field naming it. Table events carry a version; a client that comes
//! back sends its last version and receives what it missed, or the full state.

pub mod client;
pub mod server;
pub mod table;

pub use client::{ChallengeAnswer, ClientMsg, DrawAction, Relation, TakebackAction};
pub use server::{ChallengeState, ErrorCode, Event, HistoryGame, OnlinePlayer, RatingChange, ServerMsg};
pub use table::{
    ChatLine, Clocks, GameState, HouseRules, LegalMove, LobbyTable, MoveRecord, OutcomeInfo, PlayerInfo,
    SeatInfo, SeatSpec, TableSpec, TableState, TimeControl,
};

/// The protocol version this build speaks. A client announcing another version is told `client_outdated`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest text frame the server reads, in bytes; a larger one closes the socket.
pub const MAX_FRAME_BYTES: usize = 4096;

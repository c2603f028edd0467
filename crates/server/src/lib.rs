//! Parlor's game server: axum and tokio; one task per table owning its game and clocks; versioned events with
//! resync; every move stored before it is acknowledged.
//!
//! # Layout
//! See docs/architecture.md for the module graph and why it points the way it does.
//! - [`app`]: routes, game API, `run` (the single entry point; tests call it on port 0).
//! - [`ws`]: one websocket connection (reader and writer, rate limits, dispatch).
//! - [`hub`]: what a node's connections and tables share: the registry of tables and codes, presence,
//!   challenges, sessions. [`lobby`]: public tables and their watchers. [`marks`]: blocks and favourites.
//! - [`site`]: one interface for a node alone ([`site::Alone`]) or in a site of several ([`cluster`]: leases,
//!   forwarding, shared lobby and presence over PostgreSQL + Redis).
//! - [`table`]: one task per table: seats, game, clocks, CPU turns, events; its commands, context and specs.
//! - [`games`]: makes any game from its setup and replays stored games. [`record`]: the stored formats (seats,
//!   settings, typed game events). [`history`]: a player's finished games. [`loaded`]: a stored game replayed for
//!   the pages and the API.
//! - [`analysis`]: the engine for players on a few engine places (the analysis board, imports); [`review`]: the
//!   engine's review of a finished game, queued, run position by position and stored.
//! - [`clock`]: base, increment and per-move cap. [`cpu`]: CPU seats. [`rating`]: Glicko-2.
//! - [`persist`]: group commit to the store. [`outbox`]: a connection's outgoing queue. [`assets`]: the web client
//!   ([`chunks`]: its modules joined into a few files).
//! - [`limit`]: abuse limits (token buckets per connection, player and address). [`name`]: what a player's name may hold.
//! - [`image`]: `/image/{game}.{svg,png}`, pictures of positions with an LRU of PNGs.
//! - [`listen`]: the accept loop: header timeout, connection caps. [`proxy`]: trusted proxies, the client's
//!   address and scheme. [`origin`]: which pages may open the websocket. [`headers`]: security headers.
//! - [`identity`]: the identity cookie. [`metrics`]: `/metrics`. [`config`]: settings and defaults ([`ip_net`]: address blocks). [`loadtest`]:
//!   `parlor loadtest`, real clients for load.

pub mod analysis;
pub mod app;
pub mod assets;
pub mod chunks;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod cpu;
pub mod games;
pub mod headers;
pub mod history;
pub mod hub;
pub mod identity;
pub mod image;
pub mod ip_net;
pub mod limit;
pub mod listen;
pub mod loaded;
pub mod loadtest;
pub mod lobby;
pub mod marks;
pub mod metrics;
pub mod name;
pub mod origin;
pub mod outbox;
pub mod persist;
pub mod proxy;
pub mod rating;
pub mod record;
pub mod review;
pub mod site;
pub mod table;
pub mod ws;

pub use app::{ServerError, run};
pub use config::Config;

//! A stored game loaded for the pages and the API: replayed through its rules, with its players, its table's
//! settings and who may see it.

use crate::games::{GameSetup, SetupError, Step, replay_stored};
use crate::hub::Hub;
use crate::record::{Occupant, Settings};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use parlor_protocol::TableSpec;
use parlor_store::Store;

/// A stored game replayed through its rules, with what the pages and the API show of it.
pub struct Loaded {
    /// The stored rows.
    pub stored: parlor_store::StoredGame,
    /// How the game was set up.
    pub setup: GameSetup,
    /// The players' labels, in table-seat order.
    pub players: Vec<String>,
    /// Whether the game was played at a private table: shown only to those who sat.
    pub private: bool,
    /// The ids of the players who sat.
    pub seated: Vec<String>,
    /// The game as it stands.
    pub game: parlor_game::AnyGame,
    /// Its history: moves and the events that changed it, in order.
    pub steps: Vec<Step>,
    /// The table's settings (or the game's own when the table is gone).
    pub spec: TableSpec,
    /// The position after each move.
    pub positions: Vec<String>,
}

/// A stored game as `viewer` (a player id, from the identity cookie) may see it: a game at a private table is
/// "not found" for anyone who did not sit.
///
/// # Errors
/// The response to send: 404 for a game that is not there (or not to be seen), 503 when the store fails.
pub async fn load_visible_game(hub: &Hub, viewer: Option<&str>, id: &str) -> Result<Loaded, Response> {
    let loaded = load_game(hub, id).await?;
    if loaded.private && !viewer.is_some_and(|v| loaded.seated.iter().any(|s| s == v)) {
        return Err((StatusCode::NOT_FOUND, "no such game").into_response());
    }
    Ok(loaded)
}

/// A stored game, replayed.
///
/// # Errors
/// As [`load_visible_game`].
pub async fn load_game(hub: &Hub, id: &str) -> Result<Loaded, Response> {
    let not_found = || (StatusCode::NOT_FOUND, "no such game").into_response();
    let stored = match hub.store.game(id).await {
        Ok(Some(g)) => g,
        Ok(None) => return Err(not_found()),
        Err(e) => return Err((StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response()),
    };
    let setup: GameSetup = serde_json::from_str(&stored.game.setup).map_err(|_| not_found())?;
    let occupants: Vec<Occupant> = serde_json::from_str(&stored.game.seats).unwrap_or_default();
    let players = occupants.iter().map(Occupant::label).collect();
    // Replayed through the rules, keeping the position after every move for the replay view (a move played
    // after a takeback replaces the positions of the moves taken back).
    let mut positions = Vec::new();
    let replayed = match replay_stored(&setup, &stored, |game| {
        positions.truncate(game.history().len().saturating_sub(1));
        positions.push(game.position_text());
    }) {
        Ok(replayed) => replayed,
        Err(SetupError::Kind(_)) => return Err(not_found()),
        Err(e) => return Err((StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response()),
    };
    let table = hub.store.table(&stored.game.table_id).await.ok().flatten();
    let spec = table
        .and_then(|t| serde_json::from_str::<Settings>(&t.settings).ok())
        .map(|s| s.spec);
    let private = spec.as_ref().is_none_or(|s| s.private);
    let seated = occupants.iter().filter_map(|o| o.player_id.clone()).collect();
    let spec = spec.unwrap_or(TableSpec {
        game: setup.game.clone(),
        time: None,
        rated: stored.game.rated,
        private: false,
        rules: Default::default(),
        seats: Vec::new(),
    });
    Ok(Loaded {
        stored,
        setup,
        steps: replayed.steps,
        players,
        private,
        seated,
        game: replayed.game,
        spec,
        positions,
    })
}

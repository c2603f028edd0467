//! The server's own stored formats: the JSON it writes into the store's text columns (who sits in each seat, a
//! table's settings). Existing databases hold these exact shapes, so a change here is a migration.

use parlor_protocol::TableSpec;
use serde::{Deserialize, Serialize};

/// Who sits in a seat (stored with the table and the game).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupant {
    /// The person, if one sits.
    #[serde(default)]
    pub player_id: Option<String>,
    /// Their name when they sat.
    #[serde(default)]
    pub name: Option<String>,
    /// A CPU level, if a CPU plays the seat.
    #[serde(default)]
    pub cpu: Option<String>,
    /// The CPU took over from an away player, who may come back.
    #[serde(default)]
    pub took_over: bool,
}

impl Occupant {
    /// The name shown for this seat in history and exports: the player's name, or `CPU (level)`.
    pub fn label(&self) -> String {
        match (&self.name, &self.cpu) {
            (Some(name), _) => name.clone(),
            (None, Some(level)) => format!("CPU ({level})"),
            _ => "?".to_owned(),
        }
    }
}

/// What a table stores about itself (the `settings` column).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// The spec it was created with.
    pub spec: TableSpec,
    /// Seats now.
    pub seats: Vec<Occupant>,
    /// The table seat that moves first in the next game.
    #[serde(default)]
    pub next_first: u8,
}

//! The server's own stored formats: the JSON it writes into the store's text columns (who sits in each seat, a
//! table's settings, a game's events). Existing databases hold these exact shapes, so a change here is a
//! migration.

use parlor_game::{GameEvent, Seat};
use parlor_protocol::TableSpec;
use parlor_store::EventRecord;
use serde::de::IntoDeserializer;
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

/// What happened in a game besides its moves: the `kind` column of a stored event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The seat resigned.
    Resignation,
    /// The seat's clock ran out.
    Timeout,
    /// The seat's player stayed away past the grace period (two players).
    Abandoned,
    /// Both players agreed a draw.
    Agreement,
    /// The game was aborted before everyone moved.
    Aborted,
    /// The seat's player came back and took the seat back from the CPU.
    Reclaimed,
    /// A CPU took the seat over from its away player (four players).
    CpuTookOver,
    /// The seat's player took back moves against the computer: the last `undo` steps of the game are undone.
    Takeback,
}

impl EventKind {
    /// The name stored in the `kind` column (the same as its serde name), also the reason a four-player
    /// elimination is announced with.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Resignation => "resignation",
            EventKind::Timeout => "timeout",
            EventKind::Abandoned => "abandoned",
            EventKind::Agreement => "agreement",
            EventKind::Aborted => "aborted",
            EventKind::Reclaimed => "reclaimed",
            EventKind::CpuTookOver => "cpu_took_over",
            EventKind::Takeback => "takeback",
        }
    }

    /// The rules event this stands for, played by game seat `seat`; `None` for what changes only the seats.
    pub fn game_event(self, seat: Seat) -> Option<GameEvent> {
        match self {
            EventKind::Resignation => Some(GameEvent::Resign(seat)),
            EventKind::Timeout => Some(GameEvent::Timeout(seat)),
            EventKind::Abandoned => Some(GameEvent::Abandon(seat)),
            EventKind::Agreement => Some(GameEvent::DrawAgreed),
            EventKind::Aborted | EventKind::Reclaimed | EventKind::CpuTookOver | EventKind::Takeback => None,
        }
    }
}

/// Where in the game an event happened: the `data` column of a stored event (JSON, keys in this order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventData {
    /// Milliseconds left per table seat when it happened (`None` for an untimed seat); always written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<Option<u64>>>,
    /// Moves stored before it (moves taken back stay stored, so after a takeback this counts them too).
    #[serde(default)]
    pub ply: u32,
    /// The table seat it concerns (the one that offered or accepted, for an agreement).
    pub seat: usize,
    /// A takeback: how many steps (moves and the events between them) it undoes; absent for other events.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub undo: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A stored game event, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// What happened.
    pub kind: EventKind,
    /// Where in the game.
    pub data: EventData,
}

/// A stored event that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// A kind this server does not write.
    #[error("unknown event kind `{0}`")]
    Kind(String),
    /// The data column does not hold [`EventData`].
    #[error("event data: {0}")]
    Data(#[from] serde_json::Error),
}

impl StoredEvent {
    /// Reads a stored event.
    ///
    /// # Errors
    /// [`EventError`] for an unknown kind or unreadable data.
    pub fn read(record: &EventRecord) -> Result<StoredEvent, EventError> {
        let kind = EventKind::deserialize(record.kind.as_str().into_deserializer())
            .map_err(|_: serde::de::value::Error| EventError::Kind(record.kind.clone()))?;
        let data = serde_json::from_str(&record.data)?;
        Ok(StoredEvent { kind, data })
    }

    /// The row to store: the event as number `seq` of game `game_id`, at `at_ms`.
    pub fn to_record(&self, game_id: &str, seq: i32, at_ms: i64) -> EventRecord {
        EventRecord {
            game_id: game_id.to_owned(),
            seq,
            kind: self.kind.as_str().to_owned(),
            data: serde_json::to_string(&self.data).unwrap_or_default(),
            at_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const KINDS: [EventKind; 8] = [
        EventKind::Resignation,
        EventKind::Timeout,
        EventKind::Abandoned,
        EventKind::Agreement,
        EventKind::Aborted,
        EventKind::Reclaimed,
        EventKind::CpuTookOver,
        EventKind::Takeback,
    ];

    #[test]
    fn events_are_stored_as_before() {
        let event = StoredEvent {
            kind: EventKind::CpuTookOver,
            data: EventData {
                clocks: Some(vec![Some(59_000), None, Some(60_000), Some(1)]),
                ply: 7,
                seat: 2,
                undo: 0,
            },
        };
        let record = event.to_record("g", 3, 42);
        assert_eq!(record.kind, "cpu_took_over");
        // The bytes `serde_json::json!({"ply", "seat", "clocks"})` wrote: keys sorted.
        assert_eq!(record.data, r#"{"clocks":[59000,null,60000,1],"ply":7,"seat":2}"#);
        assert_eq!((record.game_id.as_str(), record.seq, record.at_ms), ("g", 3, 42));
        assert_eq!(StoredEvent::read(&record).unwrap(), event);
    }

    #[test]
    fn every_kind_reads_back_under_its_name() {
        for kind in KINDS {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
            let record = StoredEvent {
                kind,
                data: EventData {
                    clocks: None,
                    ply: 0,
                    seat: 1,
                    undo: 0,
                },
            }
            .to_record("g", 1, 0);
            assert_eq!(StoredEvent::read(&record).unwrap().kind, kind);
        }
    }

    #[test]
    fn unreadable_events_are_errors() {
        let record = |kind: &str, data: &str| EventRecord {
            game_id: "g".into(),
            seq: 1,
            kind: kind.into(),
            data: data.into(),
            at_ms: 0,
        };
        assert!(matches!(
            StoredEvent::read(&record("draw_offer", r#"{"ply":1,"seat":0}"#)),
            Err(EventError::Kind(k)) if k == "draw_offer"
        ));
        assert!(matches!(
            StoredEvent::read(&record("timeout", "{")),
            Err(EventError::Data(_))
        ));
        assert!(matches!(
            StoredEvent::read(&record("timeout", r#"{"ply":1}"#)),
            Err(EventError::Data(_))
        ));
        // Only the seat is required: a missing ply is 0 and missing clocks are none.
        let read = StoredEvent::read(&record("resignation", r#"{"seat":1}"#)).unwrap();
        assert_eq!((read.data.ply, read.data.clocks), (0, None));
        assert_eq!(
            read.kind.game_event(Seat::Second),
            Some(GameEvent::Resign(Seat::Second))
        );
        assert_eq!(EventKind::Reclaimed.game_event(Seat::First), None);
    }
}

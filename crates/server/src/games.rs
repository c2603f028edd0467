//! Makes any game from its stored setup: the one place that knows every rules crate, so the rest of the server
//! handles `AnyGame` alike.

use crate::record::{EventKind, StoredEvent};
use parlor_game::{AnyGame, GameEvent, GameKind, Rules, Seat};
use parlor_store::StoredGame;
use serde::{Deserialize, Serialize};

/// How a game was set up: enough to make it again and replay its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    /// `chess`, `draughts/<variant>` or `chess4`.
    pub game: String,
    /// Start position text; the standard start when absent.
    #[serde(default)]
    pub start: Option<String>,
    /// Table seat that plays the game's first seat (two-player) or moves first (four-player).
    #[serde(default)]
    pub first: u8,
    /// Draughts: compulsory capture.
    #[serde(default = "yes")]
    pub mandatory_capture: bool,
    /// Four-player: total move limit.
    #[serde(default)]
    pub move_limit: Option<u32>,
}

fn yes() -> bool {
    true
}

/// A setup that cannot make a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Unknown game name.
    #[error("{0}")]
    Kind(#[from] parlor_game::ParseKindError),
    /// The start position does not parse.
    #[error("start position: {0}")]
    Start(String),
    /// A PGN export does not read.
    #[error("PGN: {0}")]
    Pgn(#[from] parlor_chess::pgn::PgnError),
    /// A PDN export does not read.
    #[error("PDN: {0}")]
    Pdn(#[from] parlor_draughts::PdnError),
    /// A PGN4 export does not read.
    #[error("PGN4: {0}")]
    Pgn4(#[from] parlor_chess4::Pgn4Error),
    /// A stored move does not replay.
    #[error("move {ply} `{wire}` does not replay: {reason}")]
    Replay {
        /// 1-based ply.
        ply: usize,
        /// The move.
        wire: String,
        /// Why.
        reason: String,
    },
}

impl GameSetup {
    /// The game kind.
    ///
    /// # Errors
    /// [`SetupError::Kind`] for an unknown name.
    pub fn kind(&self) -> Result<GameKind, SetupError> {
        Ok(self.game.parse()?)
    }

    /// A new game from this setup.
    ///
    /// # Errors
    /// [`SetupError`] if the kind or start position is invalid.
    pub fn new_game(&self) -> Result<AnyGame, SetupError> {
        match self.kind()? {
            GameKind::Chess => Ok(Box::new(match &self.start {
                Some(fen) => {
                    parlor_chess::Game::from_fen(fen).map_err(|e| SetupError::Start(e.to_string()))?
                }
                None => parlor_chess::Game::new(),
            })),
            GameKind::Draughts(variant) => {
                let options = parlor_draughts::Options {
                    mandatory_capture: self.mandatory_capture,
                };
                Ok(Box::new(match &self.start {
                    Some(fen) => parlor_draughts::Game::from_fen(variant, options, fen)
                        .map_err(|e| SetupError::Start(e.to_string()))?,
                    None => parlor_draughts::Game::new(variant, options),
                }))
            }
            GameKind::Chess4 => Ok(Box::new(match &self.start {
                Some(fen4) => parlor_chess4::Game::from_fen4(fen4, self.move_limit)
                    .map_err(|e| SetupError::Start(e.to_string()))?,
                None => parlor_chess4::Game::new(parlor_chess4::Options {
                    move_limit: self.move_limit,
                    first: Seat::from_index(usize::from(self.first)).unwrap_or(Seat::First),
                }),
            })),
        }
    }
}

/// One step of a game's stored history: a move, or an event at a given ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A move in wire notation.
    Move(String),
    /// A game event.
    Event(GameEvent),
}

/// Makes the game and replays its history.
///
/// # Errors
/// [`SetupError`] if the setup is invalid or a step does not replay.
pub fn replay(setup: &GameSetup, steps: &[Step]) -> Result<AnyGame, SetupError> {
    let mut game = setup.new_game()?;
    for (i, step) in steps.iter().enumerate() {
        take_step(&mut game, i, step)?;
    }
    Ok(game)
}

/// Plays step number `i` (0-based) of a replay.
///
/// # Errors
/// [`SetupError::Replay`] when the move or the event does not apply.
pub fn take_step(game: &mut AnyGame, i: usize, step: &Step) -> Result<(), SetupError> {
    match step {
        Step::Move(wire) => {
            game.play(wire).map_err(|e| SetupError::Replay {
                ply: i + 1,
                wire: wire.clone(),
                reason: e.reason,
            })?;
        }
        Step::Event(event) => {
            game.apply(*event).map_err(|e| SetupError::Replay {
                ply: i + 1,
                wire: format!("{event:?}"),
                reason: e.to_string(),
            })?;
        }
    }
    Ok(())
}

/// A stored game replayed.
#[derive(Debug)]
pub struct Replayed {
    /// The game as it stands after everything stored.
    pub game: AnyGame,
    /// Its history: the moves, and the events that changed the game, in order.
    pub steps: Vec<Step>,
    /// The clocks last stored (with a move or an event), in table-seat order; `None` if nothing stored them.
    pub clocks: Option<Vec<Option<u64>>>,
}

/// Replays a stored game: its moves, and the events stored with them, in the order they happened (an event
/// stored at ply n happened after n moves). `after_move` sees the game after every move. An event that cannot
/// be read is left out (and logged); one that does not apply is an error.
///
/// # Errors
/// [`SetupError`] if the setup is invalid or a move or an event does not replay.
pub fn replay_stored(
    setup: &GameSetup,
    stored: &StoredGame,
    mut after_move: impl FnMut(&dyn Rules),
) -> Result<Replayed, SetupError> {
    let map = SeatMap::new(setup.kind()?, setup.first);
    let mut game = setup.new_game()?;
    let mut steps = Vec::with_capacity(stored.moves.len());
    let mut clocks = None;
    let mut events = stored
        .events
        .iter()
        .filter_map(|record| match StoredEvent::read(record) {
            Ok(event) => Some(event),
            Err(e) => {
                tracing::warn!(game = %stored.game.id, seq = record.seq, error = %e, "stored event left out");
                None
            }
        })
        .peekable();
    let mut played = 0;
    loop {
        let event_due = events
            .peek()
            .is_some_and(|e| e.data.ply as usize <= played || played == stored.moves.len());
        let step = if event_due {
            let Some(event) = events.next() else { break };
            if let Some(c) = event.data.clocks {
                clocks = Some(c);
            }
            if event.kind == EventKind::Takeback {
                // The game as it was before the last `undo` steps.
                steps.truncate(steps.len().saturating_sub(event.data.undo as usize));
                game = replay(setup, &steps)?;
                continue;
            }
            match event.kind.game_event(map.to_game(event.data.seat)) {
                Some(rules_event) => Step::Event(rules_event),
                None => continue,
            }
        } else if let Some(m) = stored.moves.get(played) {
            played += 1;
            clocks = serde_json::from_str(&m.clocks).ok();
            Step::Move(m.wire.clone())
        } else {
            break;
        };
        take_step(&mut game, steps.len(), &step)?;
        if matches!(step, Step::Move(_)) {
            after_move(game.as_ref());
        }
        steps.push(step);
    }
    Ok(Replayed { game, steps, clocks })
}

/// Maps table seats to game seats: two-player games rotate who plays first; four-player games keep seats and let
/// the rules start at another seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SeatMap {
    seats: usize,
    offset: usize,
}

impl SeatMap {
    /// The map for a game whose first mover sits at table seat `first`.
    pub fn new(kind: GameKind, first: u8) -> SeatMap {
        let seats = kind.seat_count();
        let offset = if seats == 2 { usize::from(first) % 2 } else { 0 };
        SeatMap { seats, offset }
    }

    /// The game seat of a table seat.
    pub fn to_game(&self, table_seat: usize) -> Seat {
        Seat::from_index((table_seat + self.seats - self.offset) % self.seats).unwrap_or(Seat::First)
    }

    /// The table seat of a game seat.
    pub fn to_table(&self, seat: Seat) -> usize {
        (seat.index() + self.offset) % self.seats
    }

    /// Reorders per-game-seat values into table-seat order.
    pub fn table_order<T: Clone>(&self, by_game_seat: &[T]) -> Vec<T> {
        (0..self.seats)
            .map(|t| by_game_seat[self.to_game(t).index()].clone())
            .collect()
    }
}

/// A game's current facts in table-seat order, for events.
pub fn table_view(game: &dyn Rules, map: &SeatMap) -> (Option<u8>, Vec<i32>, Vec<bool>) {
    let turn = game.turn().map(|s| map.to_table(s) as u8);
    (
        turn,
        map.table_order(game.points().as_slice()),
        map.table_order(game.eliminated().as_slice()),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn two_player_seats_rotate() {
        let map = SeatMap::new(GameKind::Chess, 1);
        assert_eq!(map.to_game(1), Seat::First);
        assert_eq!(map.to_table(Seat::First), 1);
        assert_eq!(map.table_order(&[10, 20]), vec![20, 10]);
        let map4 = SeatMap::new(GameKind::Chess4, 2);
        assert_eq!(map4.to_game(2), Seat::Third);
    }

    #[test]
    fn replay_rebuilds_a_game() {
        let setup = GameSetup {
            game: "chess".into(),
            start: None,
            first: 0,
            mandatory_capture: true,
            move_limit: None,
        };
        let game = replay(
            &setup,
            &[
                Step::Move("e2e4".into()),
                Step::Event(GameEvent::Resign(Seat::Second)),
            ],
        )
        .unwrap();
        assert_eq!(game.outcome().winner(), Some(Seat::First));
        assert!(replay(&setup, &[Step::Move("e2e5".into())]).is_err());
    }

    fn stored(moves: &[(&str, &str)], events: &[(&str, &str)]) -> StoredGame {
        use parlor_store::{EventRecord, GameRecord, MoveRecord};
        StoredGame {
            game: GameRecord {
                id: "g".into(),
                table_id: "t".into(),
                kind: "chess".into(),
                setup: String::new(),
                seats: "[]".into(),
                rated: false,
                status: "live".into(),
                result: None,
                clocks: None,
                created_ms: 0,
                ended_ms: None,
            },
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, (wire, clocks))| MoveRecord {
                    game_id: "g".into(),
                    ply: i as i32 + 1,
                    seat: 0,
                    wire: (*wire).into(),
                    clocks: (*clocks).into(),
                    at_ms: 0,
                })
                .collect(),
            events: events
                .iter()
                .enumerate()
                .map(|(i, (kind, data))| EventRecord {
                    game_id: "g".into(),
                    seq: i as i32 + 1,
                    kind: (*kind).into(),
                    data: (*data).into(),
                    at_ms: 0,
                })
                .collect(),
        }
    }

    #[test]
    fn a_stored_game_replays_moves_and_events_in_order() {
        // Table seat 1 plays first, so table seat 0 is the game's second seat.
        let setup = GameSetup {
            game: "chess".into(),
            start: None,
            first: 1,
            mandatory_capture: true,
            move_limit: None,
        };
        let game = stored(
            &[("e2e4", "[100,200]"), ("e7e5", "[100,190]")],
            &[
                ("reclaimed", r#"{"clocks":[95,200],"ply":1,"seat":0}"#),
                ("draw_offer", r#"{"ply":1,"seat":0}"#),
                ("resignation", r#"{"clocks":[80,190],"ply":2,"seat":0}"#),
            ],
        );
        let mut positions = Vec::new();
        let replayed = replay_stored(&setup, &game, |g| positions.push(g.position_text())).unwrap();
        assert_eq!(
            replayed.steps,
            vec![
                Step::Move("e2e4".into()),
                Step::Move("e7e5".into()),
                Step::Event(GameEvent::Resign(Seat::Second)),
            ]
        );
        assert_eq!(replayed.game.outcome().winner(), Some(Seat::First));
        assert_eq!(replayed.clocks, Some(vec![Some(80), Some(190)]));
        assert_eq!(positions.len(), 2);
        assert!(
            positions[1].starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/"),
            "{}",
            positions[1]
        );

        // An event stored before a move replays before it, and then the move finds the game over.
        let early = stored(&[("e2e4", "[1,1]")], &[("timeout", r#"{"ply":0,"seat":1}"#)]);
        assert!(matches!(
            replay_stored(&setup, &early, |_| {}),
            Err(SetupError::Replay { ply: 2, .. })
        ));
        // One stored after more moves than there are still happens, last.
        let late = stored(&[("e2e4", "[1,1]")], &[("abandoned", r#"{"ply":5,"seat":1}"#)]);
        let replayed = replay_stored(&setup, &late, |_| {}).unwrap();
        assert_eq!(
            replayed.steps.last(),
            Some(&Step::Event(GameEvent::Abandon(Seat::First)))
        );
        assert_eq!(replayed.clocks, Some(vec![Some(1), Some(1)]));
    }
}

#[cfg(test)]
mod every_game {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_kind_makes_a_game() {
        for game in [
            "chess",
            "draughts/english",
            "draughts/international",
            "draughts/russian",
            "draughts/pool",
            "chess4",
        ] {
            let setup = GameSetup {
                game: game.into(),
                start: None,
                first: 1,
                mandatory_capture: true,
                move_limit: Some(8),
            };
            let made = setup.new_game().unwrap_or_else(|e| panic!("{game}: {e}"));
            assert!(!made.legal_moves().is_empty(), "{game}");
        }
    }

    #[test]
    fn every_kind_reads_its_export_back() {
        for game in [
            "chess",
            "draughts/english",
            "draughts/international",
            "draughts/russian",
            "draughts/pool",
            "chess4",
        ] {
            let setup = GameSetup {
                game: game.into(),
                start: None,
                first: 0,
                mandatory_capture: true,
                move_limit: None,
            };
            let mut made = setup.new_game().unwrap();
            for _ in 0..6 {
                let wire = made.legal_moves()[0].wire.clone();
                made.play(&wire).unwrap();
            }
            // A seat that is not to move resigns (four-player: the game goes on without it).
            let mover = made.turn().unwrap();
            made.apply(GameEvent::Resign(mover.next(made.seat_count())))
                .unwrap();
            // Each move carries a comment (as a reviewed export does); a `}` in one cannot end it early.
            let info = parlor_game::ExportInfo {
                comments: (1..=6).map(|i| format!("[%eval 0.{i}] c}}{i}")).collect(),
                ..Default::default()
            };
            let text = made.export(&info);
            assert_eq!(text.matches("{[%eval 0.").count(), 6, "{game}: {text}");
            let back = read_export(game, &text).unwrap_or_else(|e| panic!("{game}: {e}\n{text}"));
            assert_eq!(back.history(), made.history(), "{game}");
            assert_eq!(back.outcome(), made.outcome(), "{game}");
            assert_eq!(back.position_text(), made.position_text(), "{game}");
        }
        assert!(matches!(
            read_export("draughts/english", "1. 11-17 *"),
            Err(SetupError::Pdn(parlor_draughts::PdnError::Move { ply: 1, .. }))
        ));
        assert!(matches!(
            read_export("chess4", "1. R .. R .. R .. R"),
            Err(SetupError::Pgn4(_))
        ));
        assert!(matches!(read_export("chess", "1. e5"), Err(SetupError::Pgn(_))));
        assert!(matches!(read_export("go", ""), Err(SetupError::Kind(_))));
    }
}

/// Reads a game back from its export (PGN, PDN or PGN4) with the reader of its rules crate, which replays the
/// moves and applies a result the moves do not explain (a resignation, `R` and `T` tokens of PGN4).
///
/// # Errors
/// [`SetupError::Kind`] for an unknown kind, else the reader's error ([`SetupError::Pgn`], [`SetupError::Pdn`],
/// [`SetupError::Pgn4`]).
pub fn read_export(game: &str, text: &str) -> Result<AnyGame, SetupError> {
    Ok(match game.parse()? {
        GameKind::Chess => Box::new(parlor_chess::pgn::read(text)?.game),
        GameKind::Draughts(variant) => Box::new(parlor_draughts::pdn::read(variant, text)?.game),
        GameKind::Chess4 => Box::new(parlor_chess4::pgn4::read(text)?.game),
    })
}

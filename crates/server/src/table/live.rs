//! The game being played at a table: the rules' game, its seat map and clock, its history for CPUs and
//! restarts, a pending draw offer, and how it looks to watchers.

use crate::clock::Clock;
use crate::games::{GameSetup, SeatMap, Step, table_view};
use parlor_game::{AnyGame, GameEvent, Played, Snapshot};
use parlor_protocol::{GameState, LegalMove, MoveRecord, OutcomeInfo, RatingChange};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use tokio::time::Instant;

pub(super) struct Live {
    pub(super) id: String,
    pub(super) setup: GameSetup,
    pub(super) map: SeatMap,
    pub(super) game: AnyGame,
    pub(super) clock: Clock,
    /// The events that are not moves (a four-player resignation, say), each with the number of moves played
    /// before it. The moves are the game's own history; kept apart so that a move costs no second copy of its text.
    pub(super) events: Vec<(usize, GameEvent)>,
    pub(super) draw_offer: Option<u8>,
    /// A pending takeback request between two people: the seat that asked.
    pub(super) takeback_offer: Option<u8>,
    pub(super) event_seq: i32,
    /// Moves stored for this game: the `ply` of the next stored move is one more, and a stored event counts them
    /// before it. Equal to the game's ply until a takeback (taken-back moves stay stored).
    pub(super) rows: u32,
    pub(super) aborted: bool,
    pub(super) thinking: Option<(u32, Arc<AtomicBool>)>,
    pub(super) ratings: Vec<RatingChange>,
    /// When the current turn began (for untimed games, which have no clock to end a turn).
    pub(super) turn_since: Instant,
}

impl Live {
    /// Takes back a move or event the store did not take: the game as `before` recorded it, and the clock as it
    /// was (an event's own entry in `events` is the caller's to remove).
    pub(super) fn take_back(&mut self, before: Snapshot, clock: Clock) {
        if let Err(error) = self.game.restore(before) {
            // Cannot happen: the snapshot was taken from this game just before the step.
            tracing::error!(game = %self.id, %error, "could not take back a step");
        }
        self.clock = clock;
    }

    /// The game's steps in order (its moves, with the events between them), as a replay takes them.
    pub(super) fn steps(&self) -> Vec<Step> {
        steps_of(self.game.history(), &self.events)
    }

    /// The events of `steps` with the number of moves before each (see `events`).
    pub(super) fn events_of(steps: &[Step]) -> Vec<(usize, GameEvent)> {
        let mut moves = 0;
        let mut events = Vec::new();
        for step in steps {
            match step {
                Step::Move(_) => moves += 1,
                Step::Event(event) => events.push((moves, *event)),
            }
        }
        events
    }

    pub(super) fn is_over(&self) -> bool {
        self.aborted || !self.game.outcome().is_running()
    }

    pub(super) fn turn(&self) -> Option<usize> {
        if self.aborted {
            None
        } else {
            self.game.turn().map(|s| self.map.to_table(s))
        }
    }

    pub(super) fn ply(&self) -> u32 {
        self.game.history().len() as u32
    }

    pub(super) fn legal(&self) -> Vec<LegalMove> {
        if self.is_over() {
            Vec::new()
        } else {
            self.game.legal_moves().into_iter().map(LegalMove::from).collect()
        }
    }

    pub(super) fn outcome_info(&self) -> Option<OutcomeInfo> {
        if self.aborted {
            return Some(OutcomeInfo {
                result: "aborted".into(),
                places: Vec::new(),
                winner: None,
                reason: "aborted".into(),
                score: "*".into(),
            });
        }
        let seats = self.map_seats();
        let mut info = OutcomeInfo::from_outcome(self.game.outcome(), seats)?;
        if !info.places.is_empty() {
            info.places = self.map.table_order(&info.places);
        }
        info.winner = info
            .winner
            .map(|w| parlor_game::Seat::from_index(usize::from(w)).map_or(w, |s| self.map.to_table(s) as u8));
        Some(info)
    }

    pub(super) fn map_seats(&self) -> usize {
        self.game.seat_count()
    }

    pub(super) fn check(&self) -> Vec<[u8; 2]> {
        self.game
            .checked_kings()
            .into_iter()
            .map(parlor_protocol::table::coord)
            .collect()
    }

    pub(super) fn state(&self, now: Instant) -> GameState {
        let (turn, points, eliminated) = table_view(self.game.as_ref(), &self.map);
        GameState {
            id: self.id.clone(),
            start: self.game.start_text(),
            position: self.game.position_text(),
            moves: self
                .game
                .history()
                .iter()
                .map(|p| MoveRecord {
                    seat: self.map.to_table(p.seat) as u8,
                    wire: p.wire.clone(),
                    display: p.display.clone(),
                })
                .collect(),
            turn: if self.aborted { None } else { turn },
            legal: self.legal(),
            clocks: self.clock.snapshot(now),
            points,
            eliminated,
            check: self.check(),
            outcome: self.outcome_info(),
            draw_offer: self.draw_offer,
            takeback_offer: self.takeback_offer,
        }
    }
}

/// Moves and the events between them, in order (see [`Live::events`]).
fn steps_of(history: &[Played], events: &[(usize, GameEvent)]) -> Vec<Step> {
    let mut steps = Vec::with_capacity(history.len() + events.len());
    let mut moves = history.iter();
    let mut played = 0;
    for (before, event) in events {
        while played < *before {
            let Some(m) = moves.next() else { break };
            steps.push(Step::Move(m.wire.clone()));
            played += 1;
        }
        steps.push(Step::Event(*event));
    }
    steps.extend(moves.map(|m| Step::Move(m.wire.clone())));
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_game::Seat;

    #[test]
    fn steps_come_back_in_their_order_from_the_history_and_events() {
        let step = |s: &str| match s {
            "R1" => Step::Event(GameEvent::Resign(Seat::Second)),
            "T3" => Step::Event(GameEvent::Timeout(Seat::Fourth)),
            wire => Step::Move(wire.to_owned()),
        };
        for order in [
            vec!["a", "b", "R1", "c", "T3", "d"],
            vec!["R1", "T3", "a"],
            vec!["a", "b", "R1", "T3"],
            vec!["a"],
            vec![],
        ] {
            let steps: Vec<Step> = order.iter().map(|s| step(s)).collect();
            let history: Vec<Played> = steps
                .iter()
                .filter_map(|s| match s {
                    Step::Move(w) => Some(Played {
                        seat: Seat::First,
                        wire: w.clone(),
                        display: w.clone(),
                    }),
                    Step::Event(_) => None,
                })
                .collect();
            let events = Live::events_of(&steps);
            assert_eq!(steps_of(&history, &events), steps, "{order:?}");
        }
    }
}

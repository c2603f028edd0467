//! The game being played at a table: the rules' game, its seat map and clock, its history for CPUs and
//! restarts, a pending draw offer, and how it looks to watchers.

use crate::clock::Clock;
use crate::games::{GameSetup, SeatMap, Step, table_view};
use parlor_game::{AnyGame, Snapshot};
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
    pub(super) steps: Vec<Step>,
    pub(super) draw_offer: Option<u8>,
    pub(super) event_seq: i32,
    pub(super) aborted: bool,
    pub(super) thinking: Option<(u32, Arc<AtomicBool>)>,
    pub(super) ratings: Vec<RatingChange>,
    /// When the current turn began (for untimed games, which have no clock to end a turn).
    pub(super) turn_since: Instant,
}

impl Live {
    /// Takes back the last step (a move or event the store did not take): the game as `before` recorded it, and
    /// the clock as it was.
    pub(super) fn take_back(&mut self, before: Snapshot, clock: Clock) {
        self.steps.pop();
        if let Err(error) = self.game.restore(before) {
            // Cannot happen: the snapshot was taken from this game just before the step.
            tracing::error!(game = %self.id, %error, "could not take back a step");
        }
        self.clock = clock;
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
        }
    }
}

//! Takeback against the computer: at a casual table where every other seat is a computer, a player may take back
//! their last move (with the computer's answer, if it came). The game is replayed without those steps; the moves
//! stay stored and a `takeback` event says how many steps it undid, so a restart replays the same game. Clocks
//! are not turned back: the time used stays used, and the player's turn starts again.

use super::{Live, Table, error};
use crate::games::{Step, replay};
use crate::outbox::Outbox;
use crate::record::EventKind;
use parlor_protocol::{ErrorCode, Event};
use std::sync::atomic::Ordering;
use tokio::time::Instant;

/// Why a takeback is refused; the words go to the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TakebackRefused {
    /// The player does not sit at the table.
    #[error("you do not sit at this table")]
    NotSeated,
    /// No game is being played.
    #[error("no game is being played")]
    NoGame,
    /// Ratings count only the moves a player stood by.
    #[error("moves cannot be taken back at a rated table")]
    Rated,
    /// Another person plays at the table.
    #[error("moves can be taken back only against the computer")]
    NotAgainstComputer,
    /// The player has not moved yet.
    #[error("you have no move to take back")]
    NothingToTakeBack,
}

impl TakebackRefused {
    /// The error code the client gets.
    pub fn code(self) -> ErrorCode {
        match self {
            TakebackRefused::NotSeated => ErrorCode::NotSeated,
            _ => ErrorCode::NotAllowed,
        }
    }
}

/// The number of steps to undo so that `seat` is back before its last move: its last move and everything after.
fn steps_to_undo(live: &Live, seat: usize) -> Option<usize> {
    let history = live.game.history();
    let steps = live.steps();
    let mut moves = 0;
    let mut last = None;
    for (i, step) in steps.iter().enumerate() {
        if matches!(step, Step::Move(_)) {
            if history
                .get(moves)
                .is_some_and(|p| live.map.to_table(p.seat) == seat)
            {
                last = Some(i);
            }
            moves += 1;
        }
    }
    last.map(|i| steps.len() - i)
}

impl Table {
    /// A player asks to take back their last move against the computer.
    pub(super) async fn takeback(&mut self, outbox: &Outbox) {
        if let Err(why) = self.take_back_moves(outbox).await {
            outbox.send(&error(why.code(), why.to_string(), &self.id));
        }
    }

    async fn take_back_moves(&mut self, outbox: &Outbox) -> Result<(), TakebackRefused> {
        let seat = self
            .seat_of(&outbox.session().id())
            .ok_or(TakebackRefused::NotSeated)?;
        if self.spec.rated {
            return Err(TakebackRefused::Rated);
        }
        let computers_only = self
            .seats
            .iter()
            .enumerate()
            .all(|(i, s)| i == seat || (s.occupant.cpu.is_some() && s.occupant.player_id.is_none()));
        if !computers_only {
            return Err(TakebackRefused::NotAgainstComputer);
        }
        let live = self
            .game
            .as_ref()
            .filter(|g| !g.is_over())
            .ok_or(TakebackRefused::NoGame)?;
        let undo = steps_to_undo(live, seat).ok_or(TakebackRefused::NothingToTakeBack)?;
        let steps = live.steps();
        let kept = &steps[..steps.len() - undo];
        let game = match replay(&live.setup, kept) {
            Ok(game) => game,
            Err(e) => {
                // Cannot happen: these steps were played by this game.
                tracing::error!(table = %self.id, error = %e, "could not replay a game for a takeback");
                return Err(TakebackRefused::NoGame);
            }
        };
        let events = Live::events_of(kept);
        if !self
            .record_event_undoing(EventKind::Takeback, seat, undo as u32)
            .await
        {
            outbox.send(&error(
                ErrorCode::Unavailable,
                "the server cannot store the takeback right now; try again in a moment",
                &self.id,
            ));
            return Ok(());
        }
        let now = Instant::now();
        let Some(live) = self.game.as_mut() else {
            return Ok(());
        };
        if let Some((_, stop)) = live.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        live.game = game;
        live.events = events;
        live.draw_offer = None;
        live.turn_since = now;
        live.clock.halt(now);
        if let Some(turn) = live.turn() {
            live.clock.start(turn, now);
        }
        let state = live.state(now);
        self.broadcast(Event::TookBack { game: state });
        self.maybe_cpu();
        Ok(())
    }
}

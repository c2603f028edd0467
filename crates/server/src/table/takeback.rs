//! Takeback of one's last move (with the answer to it, if it came) at a casual table: against the computer (every
//! other seat a computer) at once; between two people when the other agrees to the request. The game is replayed
//! without those steps; the moves stay stored and a `takeback` event says how many steps it undid, so a restart
//! replays the same game. Clocks are not turned back: the time used stays used, and the taker's turn starts again.

use super::{Live, Table, error};
use crate::games::{Step, replay};
use crate::outbox::Outbox;
use crate::record::EventKind;
use parlor_protocol::{ErrorCode, Event, TakebackAction};
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
    /// More than one other person, or a computer beside a person: only two people agree a takeback.
    #[error("moves can be taken back against the computer, or between two players who agree")]
    NotAgainstComputer,
    /// An answer with no request of the other player's to answer.
    #[error("there is no takeback request to answer")]
    NoRequest,
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
    /// A takeback message: take back at once against the computer, or ask, accept or decline between two people.
    pub(super) async fn takeback(&mut self, outbox: &Outbox, action: TakebackAction) {
        if let Err(why) = self.answer_takeback(outbox, action).await {
            outbox.send(&error(why.code(), why.to_string(), &self.id));
        }
    }

    async fn answer_takeback(
        &mut self,
        outbox: &Outbox,
        action: TakebackAction,
    ) -> Result<(), TakebackRefused> {
        let seat = self
            .seat_of(&outbox.session().id())
            .ok_or(TakebackRefused::NotSeated)?;
        if self.spec.rated {
            return Err(TakebackRefused::Rated);
        }
        let live = self
            .game
            .as_ref()
            .filter(|g| !g.is_over())
            .ok_or(TakebackRefused::NoGame)?;
        let computers_only = self
            .seats
            .iter()
            .enumerate()
            .all(|(i, s)| i == seat || (s.occupant.cpu.is_some() && s.occupant.player_id.is_none()));
        let two_people = self.seats.len() == 2
            && self
                .seats
                .iter()
                .all(|s| s.occupant.player_id.is_some() && s.occupant.cpu.is_none());
        let pending = live.takeback_offer.map(usize::from);
        match action {
            TakebackAction::Offer if computers_only => {
                steps_to_undo(live, seat).ok_or(TakebackRefused::NothingToTakeBack)?;
                self.take_back_moves(outbox, seat).await;
            }
            TakebackAction::Offer if two_people => {
                steps_to_undo(live, seat).ok_or(TakebackRefused::NothingToTakeBack)?;
                if pending != Some(seat) {
                    if let Some(live) = self.game.as_mut() {
                        live.takeback_offer = Some(seat as u8);
                    }
                    self.broadcast(Event::TakebackOffered { seat: seat as u8 });
                }
            }
            TakebackAction::Offer => return Err(TakebackRefused::NotAgainstComputer),
            TakebackAction::Accept | TakebackAction::Decline => {
                let asker = pending.filter(|s| *s != seat).ok_or(TakebackRefused::NoRequest)?;
                if let Some(live) = self.game.as_mut() {
                    live.takeback_offer = None;
                }
                if action == TakebackAction::Accept
                    && self
                        .game
                        .as_ref()
                        .is_some_and(|l| steps_to_undo(l, asker).is_some())
                {
                    self.take_back_moves(outbox, asker).await;
                } else {
                    self.broadcast(Event::TakebackDeclined { seat: seat as u8 });
                }
            }
        }
        Ok(())
    }

    /// Takes back `seat`'s last move and what followed it: stored as a `takeback` event, then the game replayed
    /// without those steps and announced.
    async fn take_back_moves(&mut self, outbox: &Outbox, seat: usize) {
        let Some(live) = self.game.as_ref() else { return };
        let Some(undo) = steps_to_undo(live, seat) else {
            return;
        };
        let steps = live.steps();
        let kept = &steps[..steps.len() - undo];
        let game = match replay(&live.setup, kept) {
            Ok(game) => game,
            Err(e) => {
                // Cannot happen: these steps were played by this game.
                tracing::error!(table = %self.id, error = %e, "could not replay a game for a takeback");
                return;
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
            return;
        }
        let now = Instant::now();
        let Some(live) = self.game.as_mut() else { return };
        if let Some((_, stop)) = live.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        live.game = game;
        live.events = events;
        live.draw_offer = None;
        live.takeback_offer = None;
        live.turn_since = now;
        live.clock.halt(now);
        if let Some(turn) = live.turn() {
            live.clock.start(turn, now);
        }
        let state = live.state(now);
        self.broadcast(Event::TookBack { game: state });
        self.maybe_cpu();
    }
}

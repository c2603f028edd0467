//! What happens with time: deadlines (a clock running out, a grace period ending, an untimed turn lasting too
//! long, an idle table closing), a CPU taking an away player's seat, and CPU turns.

use super::{SeatState, Table};
use crate::cpu;
use crate::record::EventKind;
use crate::table::Cmd;
use parlor_game::{GameEvent, GameKind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tokio::time::Instant;

/// A table with nobody watching, no live game and no person seated closes after this long.
const IDLE_CLOSE: Duration = Duration::from_secs(30);
/// How soon a timed action that could not be stored is tried again.
const TIMER_RETRY: Duration = Duration::from_millis(250);

/// The least time a computer takes over a move at a four-player table where a person plays.
pub const CPU_PACE: Duration = Duration::from_millis(700);

impl Table {
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        let mut consider = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if let Some(live) = self.game.as_ref().filter(|g| !g.is_over())
            && let Some((t, _)) = live.clock.deadline()
        {
            consider(t);
        }
        let grace = self.ctx.config.grace;
        for seat in &self.seats {
            if let Some(ends) = seat.grace_ends(grace) {
                consider(ends);
            }
        }
        if let Some((_, ends)) = self.untimed_turn_ends() {
            consider(ends);
        }
        if let Some(idle) = self.idle_since {
            consider(idle + IDLE_CLOSE);
        }
        match (next, self.retry_at) {
            (Some(n), Some(r)) => Some(n.max(r)),
            _ => next,
        }
    }

    /// In an untimed game where another person waits, the seat to move and when its turn has lasted too long
    /// ([`crate::config::UNTIMED_TURN`] unless configured otherwise); it then ends as if its player had left.
    pub(super) fn untimed_turn_ends(&self) -> Option<(usize, Instant)> {
        let live = self
            .game
            .as_ref()
            .filter(|g| !g.is_over() && g.clock.is_untimed())?;
        let seat = live.turn()?;
        let mover = &self.seats[seat].occupant;
        let someone_waits = self
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| i != seat && s.occupant.player_id.is_some() && s.occupant.cpu.is_none());
        (mover.cpu.is_none() && mover.player_id.is_some() && someone_waits)
            .then(|| (seat, live.turn_since + self.ctx.config.untimed_turn))
    }

    pub(super) fn should_close(&self) -> bool {
        self.idle_since.is_some_and(|t| Instant::now() >= t + IDLE_CLOSE)
    }

    /// Starts or stops the idle countdown: no watchers, no live game and no person seated.
    pub(super) fn update_idle(&mut self) {
        let live = self.game.as_ref().is_some_and(|g| !g.is_over());
        let person = self
            .seats
            .iter()
            .any(|s| s.occupant.player_id.is_some() && !s.occupant.took_over);
        if self.watchers.is_empty() && !live && !person {
            self.idle_since.get_or_insert_with(Instant::now);
        } else {
            self.idle_since = None;
        }
    }

    pub(super) async fn on_timer(&mut self) {
        let now = Instant::now();
        if let Some(live) = self.game.as_ref().filter(|g| !g.is_over())
            && let Some((deadline, _)) = live.clock.deadline()
            && now >= deadline
        {
            self.flag().await;
        }
        let grace = self.ctx.config.grace;
        let expired: Vec<usize> = (0..self.seats.len())
            .filter(|s| self.seats[*s].grace_ends(grace).is_some_and(|t| now >= t))
            .collect();
        for seat in expired {
            self.grace_expired(seat).await;
        }
        if let Some((seat, ends)) = self.untimed_turn_ends()
            && now >= ends
        {
            tracing::info!(table = %self.id, seat, "an untimed turn lasted too long: treated as an absence");
            self.grace_expired(seat).await;
        }
        // A flag or an abandonment that could not be stored (the store, or this node's hold on the table, is
        // away) is tried again a little later, not in a busy loop.
        self.retry_at = None;
        if self.next_deadline().is_some_and(|d| d <= now) {
            self.retry_at = Some(now + TIMER_RETRY);
        }
    }

    /// The running seat's clock ran out. In four-player chess a CPU takes the seat over (its player may come back)
    /// and the turn starts again for it; otherwise the seat loses on time.
    pub(super) async fn flag(&mut self) {
        let Some(live) = self.game.as_mut() else { return };
        let Some(seat) = live.turn() else { return };
        if live.game.seat_count() > 2 {
            live.clock.start(seat, Instant::now());
            if self.seats[seat].occupant.cpu.is_none() {
                self.take_over(seat).await;
            }
            self.maybe_cpu();
            return;
        }
        let event = GameEvent::Timeout(live.map.to_game(seat));
        if let Err(e) = self.game_event(event, EventKind::Timeout, seat).await {
            tracing::error!(table = %self.id, error = %e, "timeout not applied");
        }
    }

    /// A seated player stayed away past the grace period.
    pub(super) async fn grace_expired(&mut self, seat: usize) {
        let live = self.game.as_ref().filter(|g| !g.is_over());
        match live {
            None => {
                // No game running: free the seat.
                self.seats[seat] = SeatState::default();
                self.rematch.remove(&(seat as u8));
                self.save_seats().await;
                self.broadcast_seat(seat);
            }
            Some(live) if live.game.seat_count() == 2 => {
                let event = GameEvent::Abandon(live.map.to_game(seat));
                if let Err(e) = self.game_event(event, EventKind::Abandoned, seat).await {
                    tracing::error!(table = %self.id, error = %e, "abandon not applied");
                }
            }
            Some(_) => {
                self.take_over(seat).await;
                self.maybe_cpu();
            }
        }
    }

    /// Four players: a CPU plays the seat until its player comes back.
    pub(super) async fn take_over(&mut self, seat: usize) {
        let s = &mut self.seats[seat];
        s.occupant.took_over = true;
        s.occupant.cpu = Some(cpu::TAKEOVER.name().to_owned());
        self.save_seats().await;
        self.record_event(EventKind::CpuTookOver, seat).await;
        self.broadcast_seat(seat);
    }

    /// Starts a CPU search if a CPU is to move and none is thinking about this position.
    pub(super) fn maybe_cpu(&mut self) {
        let Some(live) = self.game.as_mut().filter(|g| !g.is_over()) else {
            return;
        };
        let Some(turn) = live.turn() else { return };
        let Some(level) = self.seats[turn]
            .occupant
            .cpu
            .as_deref()
            .and_then(|l| l.parse::<cpu::Level>().ok())
        else {
            return;
        };
        // A search is known by the moves stored before it, which a takeback never lowers: an answer to a position
        // that was taken back is never played.
        let ply = live.rows;
        if live.thinking.as_ref().is_some_and(|(p, _)| *p == ply) {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        live.thinking = Some((ply, stop.clone()));
        let budget = cpu::budget(&live.clock, turn, Instant::now(), level);
        let request = cpu::Request {
            kind: self.kind,
            steps: live.steps(),
            setup: live.setup.clone(),
            level,
            budget,
            stop,
        };
        let game_id = live.id.clone();
        let me = self.me.clone();
        // At a four-player table with a person, the computers move at a pace one can follow (a short clock
        // shortens it): three replies within milliseconds would show only the last of them.
        let person_seated = self
            .seats
            .iter()
            .any(|s| s.occupant.player_id.is_some() && !s.occupant.took_over);
        let pace = if self.kind == GameKind::Chess4 && person_seated {
            // A short clock shortens the pace: a tenth of the move's time left, or of a thirtieth of the seat's.
            let snapshot = live.clock.snapshot(Instant::now());
            let left = snapshot.as_ref().and_then(|s| {
                let total = s.remaining_ms.get(turn).copied().flatten().map(|ms| ms / 30);
                match (total, s.move_left_ms) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            });
            left.map_or(CPU_PACE, |ms| CPU_PACE.min(Duration::from_millis(ms / 10)))
        } else {
            Duration::ZERO
        };
        let not_before = Instant::now() + pace;
        tokio::spawn(async move {
            let Ok(wire) = tokio::task::spawn_blocking(move || cpu::choose(&request)).await else {
                return;
            };
            tokio::time::sleep_until(not_before).await;
            if let Some(tx) = me.upgrade() {
                let _ = tx.try_send(Box::new(Cmd::CpuMoved { game_id, ply, wire }));
            }
        });
    }

    pub(super) async fn cpu_moved(&mut self, game_id: &str, ply: u32, wire: Option<String>) {
        let Some(live) = self.game.as_mut() else { return };
        if live.id != game_id || live.rows != ply || live.is_over() {
            return;
        }
        live.thinking = None;
        let Some(turn) = live.turn() else { return };
        if self.seats[turn].occupant.cpu.is_none() {
            return;
        }
        match wire {
            Some(wire) => self.play(turn, &wire, None).await,
            None => tracing::error!(table = %self.id, "CPU found no move"),
        }
    }
}

pub(super) fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400)
}

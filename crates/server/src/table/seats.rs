//! Seats and watchers: who sits where, who is away and since when, who watches; opening and leaving the table,
//! sitting down, standing up, renames.

use super::{Table, error, now_ms};
use crate::outbox::{ConnId, Outbox};
use crate::record::{EventKind, Occupant};
use parlor_protocol::{ErrorCode, Event, PlayerInfo, SeatInfo};
use parlor_store::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::time::Instant;

#[derive(Clone, Debug, Default)]
pub(super) struct SeatState {
    pub(super) occupant: Occupant,
    pub(super) away_since: Option<Instant>,
    /// Time away before `away_since` since the seat last moved (or the game started): leaving and coming back
    /// every few seconds does not start the grace period again.
    pub(super) away_before: Duration,
}

impl SeatState {
    /// When the seat's grace period ends, if its player is away and no CPU plays for them.
    pub(super) fn grace_ends(&self, grace: Duration) -> Option<Instant> {
        let since = self.away_since.filter(|_| !self.occupant.took_over)?;
        Some(since + grace.saturating_sub(self.away_before))
    }

    /// The player is back: their time away counts toward the next absence in this turn.
    pub(super) fn back(&mut self) -> bool {
        match self.away_since.take() {
            Some(since) => {
                self.away_before += since.elapsed();
                true
            }
            None => false,
        }
    }

    pub(super) fn is_free(&self) -> bool {
        self.occupant.player_id.is_none() && self.occupant.cpu.is_none()
    }

    pub(super) fn info(&self) -> SeatInfo {
        SeatInfo {
            player: self.occupant.player_id.clone().map(|id| PlayerInfo {
                id,
                name: self.occupant.name.clone().unwrap_or_default(),
            }),
            cpu: self.occupant.cpu.clone(),
            away: self.away_since.is_some() || self.occupant.took_over,
        }
    }
}

impl Table {
    pub(super) fn seat_of(&self, player_id: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.occupant.player_id.as_deref() == Some(player_id))
    }

    pub(super) fn spectator_count(&self) -> u32 {
        let seated: Vec<&str> = self
            .seats
            .iter()
            .filter_map(|s| s.occupant.player_id.as_deref())
            .collect();
        let mut ids: Vec<String> = self
            .watchers
            .values()
            .map(|o| o.session().id())
            .filter(|id| !seated.contains(&id.as_str()))
            .collect();
        ids.sort();
        ids.dedup();
        ids.len() as u32
    }

    pub(super) fn broadcast_seat(&mut self, seat: usize) {
        let info = self.seats[seat].info();
        self.broadcast(Event::Seat {
            seat: seat as u8,
            info,
        });
        self.publish_lobby();
    }

    pub(super) async fn save_seats(&mut self) {
        let mut writes = vec![Write::UpdateTable {
            id: self.id.clone(),
            status: None,
            settings: Some(self.settings_json()),
            updated_ms: now_ms(),
        }];
        if let Some(live) = self.game.as_ref().filter(|g| !g.is_over()) {
            writes.push(Write::UpdateSeats {
                game_id: live.id.clone(),
                seats: self.seats_json(),
            });
        }
        if let Err(e) = self.commit(writes).await {
            tracing::warn!(table = %self.id, error = %e, "could not store seats");
        }
    }

    pub(super) async fn open(&mut self, outbox: Outbox, since: Option<u64>) {
        let player = outbox.session().info();
        let was_spectators = self.spectator_count();
        self.watchers.insert(outbox.conn(), outbox.clone());
        // Events the client missed, if all are still kept and none is a chat line the viewer muted (never sent
        // to them, so the events would leave a gap); else the full state.
        let muted_since = |v: u64| {
            self.log.iter().any(|(ver, author, _)| {
                *ver > v && author.as_ref().is_some_and(|a| outbox.session().has_muted(a))
            })
        };
        match since {
            Some(v) if v == self.version => {}
            Some(v)
                if v < self.version
                    && self.log.front().is_some_and(|(first, _, _)| *first <= v + 1)
                    && !muted_since(v) =>
            {
                for (_, author, text) in self.log.iter().filter(|(ver, _, _)| *ver > v) {
                    match author {
                        Some(a) => outbox.send_chat(a, text.clone()),
                        None => outbox.send_text(text.clone()),
                    };
                }
            }
            _ => self.send_state(&outbox),
        }
        if let Some(seat) = self.seat_of(&player.id) {
            let s = &mut self.seats[seat];
            // A rename reaches only the tables the player has open: a seat takes the new name on return.
            let renamed = s.occupant.name.as_deref() != Some(player.name.as_str());
            if renamed {
                s.occupant.name = Some(player.name.clone());
            }
            let changed = s.back() || s.occupant.took_over || renamed;
            if s.occupant.took_over {
                // The player is back from the same browser: the seat is theirs again.
                s.occupant.took_over = false;
                s.occupant.cpu = None;
                if let Some(live) = self.game.as_mut()
                    && let Some((_, stop)) = live.thinking.take()
                {
                    stop.store(true, Ordering::Relaxed);
                }
                self.save_seats().await;
                self.record_event(EventKind::Reclaimed, seat).await;
            }
            if changed {
                self.broadcast_seat(seat);
            }
        }
        let now = self.spectator_count();
        if now != was_spectators {
            self.broadcast(Event::Spectators { count: now });
        }
    }

    pub(super) fn leave(&mut self, conn: ConnId) {
        let Some(outbox) = self.watchers.remove(&conn) else {
            return;
        };
        let player = outbox.session().id();
        let still_here = self.watchers.values().any(|o| o.session().id() == player);
        if let Some(seat) = self.seat_of(&player).filter(|_| !still_here) {
            self.seats[seat].away_since = Some(Instant::now());
            self.broadcast_seat(seat);
        } else if !still_here && self.seat_of(&player).is_none() {
            let count = self.spectator_count();
            self.broadcast(Event::Spectators { count });
        }
    }

    pub(super) fn renamed(&mut self, player: PlayerInfo) {
        if let Some(seat) = self.seat_of(&player.id) {
            self.seats[seat].occupant.name = Some(player.name);
            self.broadcast_seat(seat);
        }
    }

    pub(super) async fn sit(&mut self, outbox: &Outbox, seat: Option<u8>, confirm: bool) {
        let player = outbox.session().info();
        if self.seat_of(&player.id).is_some() {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "you already sit at this table",
                &self.id,
            ));
            return;
        }
        if self.game.as_ref().is_some_and(|g| !g.is_over()) {
            outbox.send(&error(
                ErrorCode::TableFull,
                "a game is being played at this table",
                &self.id,
            ));
            return;
        }
        let target = match seat {
            Some(s) => usize::from(s),
            None => match self.seats.iter().position(SeatState::is_free) {
                Some(s) => s,
                None => {
                    outbox.send(&error(ErrorCode::TableFull, "no free seat", &self.id));
                    return;
                }
            },
        };
        if target >= self.seats.len() {
            outbox.send(&error(ErrorCode::NotAllowed, "no such seat", &self.id));
            return;
        }
        if !self.seats[target].is_free() {
            outbox.send(&error(ErrorCode::SeatTaken, "that seat is taken", &self.id));
            return;
        }
        let others: Vec<String> = self
            .seats
            .iter()
            .filter_map(|s| s.occupant.player_id.clone())
            .collect();
        for other in &others {
            if self.ctx.marks.has_blocked(other, &player.id) {
                outbox.send(&error(
                    ErrorCode::Blocked,
                    "a player at this table has blocked you",
                    &self.id,
                ));
                return;
            }
            if !confirm && self.ctx.marks.has_blocked(&player.id, other) {
                outbox.send(&error(
                    ErrorCode::ConfirmBlocked,
                    "a player you blocked sits at this table; join anyway?",
                    &self.id,
                ));
                return;
            }
        }
        let was_spectators = self.spectator_count();
        let s = &mut self.seats[target];
        s.occupant = Occupant {
            player_id: Some(player.id.clone()),
            name: Some(player.name),
            cpu: None,
            took_over: false,
        };
        s.away_since = if self.watchers.values().any(|o| o.session().id() == player.id) {
            None
        } else {
            Some(Instant::now())
        };
        self.rematch.clear();
        self.save_seats().await;
        self.broadcast_seat(target);
        self.spectators_changed(was_spectators);
        self.maybe_start().await;
    }

    pub(super) async fn stand(&mut self, outbox: &Outbox) {
        let Some(seat) = self.seat_of(&outbox.session().id()) else {
            outbox.send(&error(
                ErrorCode::NotSeated,
                "you do not sit at this table",
                &self.id,
            ));
            return;
        };
        if self.game.as_ref().is_some_and(|g| !g.is_over()) {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "the game is on: resign or abort first",
                &self.id,
            ));
            return;
        }
        let was_spectators = self.spectator_count();
        self.seats[seat] = SeatState::default();
        self.rematch.remove(&(seat as u8));
        self.save_seats().await;
        self.broadcast_seat(seat);
        self.spectators_changed(was_spectators);
    }

    /// A watcher who sits down is no longer a spectator, and one who stands up (still watching) is one again.
    pub(super) fn spectators_changed(&mut self, was: u32) {
        let count = self.spectator_count();
        if count != was {
            self.broadcast(Event::Spectators { count });
        }
    }
}

//! A game's life at a table: starting when every seat is filled, game events (resignation, draw agreement,
//! timeout, abandonment, abort) stored in place, the end with its result and ratings, and rematches.

use super::{Live, SeatState, Table, error, now_ms};
use crate::clock::Clock;
use crate::games::{GameSetup, SeatMap, table_view};
use crate::outbox::Outbox;
use crate::record::{EventData, EventKind, StoredEvent};
use parlor_game::{EndReason, GameEvent};
use parlor_protocol::{DrawAction, ErrorCode, Event};
use parlor_store::{GameRecord, Write, game_status, table_status};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::time::Instant;

/// A game event (resignation, draw agreement, ...) that was not applied; the words go back to the player.
#[derive(Debug, thiserror::Error)]
pub enum EventRefused {
    /// No game at the table.
    #[error("no game")]
    NoGame,
    /// The rules refuse it.
    #[error(transparent)]
    Rules(#[from] parlor_game::EventError),
    /// The store did not take it.
    #[error("could not be stored; try again")]
    NotStored,
}

impl Table {
    /// Starts a game when every seat is filled and none is being played.
    pub(super) async fn maybe_start(&mut self) {
        if self.game.as_ref().is_some_and(|g| !g.is_over()) || self.seats.iter().any(SeatState::is_free) {
            return;
        }
        let first = self.next_first;
        let setup = GameSetup {
            game: self.spec.game.clone(),
            start: None,
            first,
            mandatory_capture: self.spec.rules.mandatory_capture,
            move_limit: self.spec.rules.move_limit,
        };
        let game = match setup.new_game() {
            Ok(g) if g.outcome().is_running() => g,
            Ok(_) => {
                tracing::error!(table = %self.id, "the table's rules end the game before it starts: not started");
                return;
            }
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "cannot start game");
                return;
            }
        };
        if self.spec.rules.rotate_first {
            self.next_first = ((usize::from(first) + 1) % self.seats.len()) as u8;
        }
        let id = uuid::Uuid::now_v7().to_string();
        let record = GameRecord {
            id: id.clone(),
            table_id: self.id.clone(),
            kind: self.spec.game.clone(),
            setup: serde_json::to_string(&setup).unwrap_or_default(),
            seats: self.seats_json(),
            rated: self.spec.rated,
            status: game_status::LIVE.to_owned(),
            result: None,
            clocks: None,
            created_ms: now_ms(),
            ended_ms: None,
        };
        let writes = vec![
            Write::CreateGame(record),
            Write::UpdateTable {
                id: self.id.clone(),
                status: Some(table_status::PLAYING.to_owned()),
                settings: Some(self.settings_json()),
                updated_ms: now_ms(),
            },
        ];
        if let Err(e) = self.commit(writes).await {
            tracing::error!(table = %self.id, error = %e, "cannot store new game");
            self.next_first = first;
            return;
        }
        let map = SeatMap::new(self.kind, first);
        let mut live = Live {
            id,
            setup,
            map,
            game,
            clock: Clock::new(self.time, self.seats.len()),
            events: Vec::new(),
            draw_offer: None,
            takeback_offer: None,
            event_seq: 0,
            rows: 0,
            aborted: false,
            thinking: None,
            ratings: Vec::new(),
            turn_since: Instant::now(),
        };
        let now = Instant::now();
        if let Some(turn) = live.turn() {
            live.clock.start(turn, now);
        }
        let state = live.state(now);
        self.game = Some(live);
        self.rematch.clear();
        for seat in &mut self.seats {
            seat.away_before = Duration::ZERO;
        }
        self.ctx.metrics.games_started.fetch_add(1, Ordering::Relaxed);
        self.ctx.metrics.live_games.fetch_add(1, Ordering::Relaxed);
        self.broadcast(Event::Started { game: state });
        self.publish_lobby();
        self.maybe_cpu();
    }

    /// The writes that close a finished game (result, table back to open).
    /// The writes that close a finished game: its result, the ratings of a rated game, the table open again.
    pub(super) async fn finish_writes(&mut self) -> Vec<Write> {
        let mut writes = self.rating_writes().await;
        let Some(live) = &self.game else { return Vec::new() };
        let status = if live.aborted {
            game_status::ABORTED
        } else {
            game_status::FINISHED
        };
        let result = live.outcome_info().and_then(|o| serde_json::to_string(&o).ok());
        writes.push(Write::Finish {
            game_id: live.id.clone(),
            status: status.to_owned(),
            result,
            ended_ms: now_ms(),
        });
        writes.push(Write::UpdateTable {
            id: self.id.clone(),
            status: Some(table_status::OPEN.to_owned()),
            settings: Some(self.settings_json()),
            updated_ms: now_ms(),
        });
        writes
    }

    pub(super) fn announce_end(&mut self) {
        let Some(live) = &self.game else { return };
        let Some(outcome) = live.outcome_info() else {
            return;
        };
        let (_, points, eliminated) = table_view(live.game.as_ref(), &live.map);
        let clocks = live.clock.snapshot(Instant::now());
        let abandoned = live.game.outcome().reason() == Some(EndReason::Abandoned);
        self.ctx.metrics.games_finished.fetch_add(1, Ordering::Relaxed);
        self.ctx.metrics.live_games.fetch_sub(1, Ordering::Relaxed);
        self.broadcast(Event::Ended {
            outcome,
            clocks,
            points,
            eliminated,
            ratings: live.ratings.clone(),
        });
        // A player removed for abandoning frees the seat so the table can go on.
        if abandoned {
            let gone: Vec<usize> = (0..self.seats.len())
                .filter(|s| self.seats[*s].away_since.is_some() && !self.seats[*s].occupant.took_over)
                .collect();
            for seat in gone {
                self.seats[seat] = SeatState::default();
                self.broadcast_seat(seat);
            }
        }
        self.publish_lobby();
    }

    /// Stores a game event (seq, ply, seat, clocks) so a restart replays it in place.
    pub(super) async fn record_event(&mut self, kind: EventKind, seat: usize) -> bool {
        self.record_event_undoing(kind, seat, 0).await
    }

    /// Stores a game event that undoes the game's last `undo` steps (a takeback), or none.
    pub(super) async fn record_event_undoing(&mut self, kind: EventKind, seat: usize, undo: u32) -> bool {
        let Some(live) = self.game.as_mut() else {
            return false;
        };
        live.event_seq += 1;
        let event = StoredEvent {
            kind,
            data: EventData {
                clocks: Some(live.clock.stored_ms()),
                ply: live.rows,
                seat,
                undo,
            },
        };
        let writes = vec![Write::Event(event.to_record(&live.id, live.event_seq, now_ms()))];
        match self.commit(writes).await {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "could not store game event");
                false
            }
        }
    }

    /// Applies a game event (resign, timeout, abandon, draw agreed) for table seat `seat`: stores it, then
    /// announces the end, or (four-player) the elimination and the next turn.
    pub(super) async fn game_event(
        &mut self,
        event: GameEvent,
        kind: EventKind,
        seat: usize,
    ) -> Result<(), EventRefused> {
        let now = Instant::now();
        let Some(live) = self.game.as_mut() else {
            return Err(EventRefused::NoGame);
        };
        let before = live.clock.clone();
        let game_before = live.game.snapshot();
        let turn_before = live.turn();
        live.game.apply(event)?;
        live.events.push((live.game.history().len(), event));
        if let Some((_, stop)) = live.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let ended = live.is_over();
        if ended {
            live.clock.halt(now);
        } else if live.turn() != turn_before {
            // The eliminated seat was to move: its turn ends without charging a move.
            live.clock.halt(now);
        }
        let extra = if ended {
            self.finish_writes().await
        } else {
            Vec::new()
        };
        let mut ok = self.record_event(kind, seat).await;
        if ok && !extra.is_empty() {
            ok = self.commit(extra).await.is_ok();
        }
        let Some(live) = self.game.as_mut() else {
            return Err(EventRefused::NoGame);
        };
        if !ok {
            live.events.pop();
            live.take_back(game_before, before);
            return Err(EventRefused::NotStored);
        }
        if ended {
            self.announce_end();
            return Ok(());
        }
        let now = Instant::now();
        if live.clock.running().is_none()
            && let Some(turn) = live.turn()
        {
            live.clock.start(turn, now);
        }
        let (turn, points, eliminated) = table_view(live.game.as_ref(), &live.map);
        let event = Event::Eliminated {
            seat: seat as u8,
            reason: kind.as_str().to_owned(),
            turn,
            legal: live.legal(),
            clocks: live.clock.snapshot(now),
            points,
            eliminated,
        };
        self.broadcast(event);
        self.maybe_cpu();
        Ok(())
    }

    pub(super) async fn resign(&mut self, outbox: &Outbox) {
        let Some(seat) = self.playing_seat(outbox, None) else {
            return;
        };
        let Some(live) = &self.game else { return };
        let event = GameEvent::Resign(live.map.to_game(seat));
        if let Err(e) = self.game_event(event, EventKind::Resignation, seat).await {
            outbox.send(&error(ErrorCode::NotAllowed, e.to_string(), &self.id));
        }
    }

    pub(super) async fn draw(&mut self, outbox: &Outbox, action: DrawAction) {
        let Some(seat) = self.playing_seat(outbox, None) else {
            return;
        };
        let Some(live) = self.game.as_mut() else { return };
        if live.game.seat_count() != 2 {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "draw offers are for two-player games",
                &self.id,
            ));
            return;
        }
        let pending = live.draw_offer;
        match action {
            DrawAction::Offer | DrawAction::Accept if pending.is_some_and(|s| usize::from(s) != seat) => {
                live.draw_offer = None;
                if let Err(e) = self
                    .game_event(GameEvent::DrawAgreed, EventKind::Agreement, seat)
                    .await
                {
                    outbox.send(&error(ErrorCode::NotAllowed, e.to_string(), &self.id));
                }
            }
            DrawAction::Offer if pending.is_none() => {
                live.draw_offer = Some(seat as u8);
                self.broadcast(Event::DrawOffered { seat: seat as u8 });
            }
            DrawAction::Decline if pending.is_some_and(|s| usize::from(s) != seat) => {
                live.draw_offer = None;
                self.broadcast(Event::DrawDeclined { seat: seat as u8 });
            }
            _ => {
                outbox.send(&error(
                    ErrorCode::NotAllowed,
                    "there is no draw offer to answer",
                    &self.id,
                ));
            }
        }
    }

    pub(super) async fn abort(&mut self, outbox: &Outbox) {
        let Some(seat) = self.playing_seat(outbox, None) else {
            return;
        };
        let Some(live) = self.game.as_mut() else { return };
        if live.ply() as usize >= live.game.seat_count() {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "a game can be aborted only before everyone has moved",
                &self.id,
            ));
            return;
        }
        live.aborted = true;
        live.clock.halt(Instant::now());
        if let Some((_, stop)) = live.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let writes = self.finish_writes().await;
        if self.record_event(EventKind::Aborted, seat).await && self.commit(writes).await.is_ok() {
            self.announce_end();
        } else if let Some(live) = self.game.as_mut() {
            live.aborted = false;
            outbox.send(&error(
                ErrorCode::Internal,
                "could not abort; try again",
                &self.id,
            ));
        }
    }

    pub(super) async fn rematch(&mut self, outbox: &Outbox) {
        let Some(seat) = self.seat_of(&outbox.session().id()) else {
            outbox.send(&error(
                ErrorCode::NotSeated,
                "you do not sit at this table",
                &self.id,
            ));
            return;
        };
        if !self.game.as_ref().is_some_and(Live::is_over) {
            outbox.send(&error(ErrorCode::NotAllowed, "the game is not over", &self.id));
            return;
        }
        self.rematch.insert(seat as u8);
        let seats = self.rematch.iter().copied().collect();
        self.broadcast(Event::Rematch { seats });
        let people: Vec<usize> = (0..self.seats.len())
            .filter(|s| self.seats[*s].occupant.player_id.is_some())
            .collect();
        if people.iter().all(|s| self.rematch.contains(&(*s as u8))) {
            for seat in &mut self.seats {
                if seat.occupant.took_over {
                    seat.occupant.took_over = false;
                    seat.occupant.cpu = None;
                }
            }
            self.maybe_start().await;
        }
    }
}

//! A move, the hot path: checked against the seat, the ply and the clock, stored, then acknowledged and
//! broadcast; undone if the store does not take it.

use super::{Table, now_ms};
use crate::games::table_view;
use crate::metrics::Stage;
use crate::outbox::Outbox;
use crate::site::Hold;
use parlor_protocol::{ErrorCode, Event, ServerMsg};
use parlor_store::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::time::Instant;

impl Table {
    /// Checks that `outbox`'s player sits here and the game is running; returns the table seat.
    pub(super) fn playing_seat(&self, outbox: &Outbox, ack: Option<u64>) -> Option<usize> {
        let refuse = |code, message: &str| {
            outbox.send(&ServerMsg::Error {
                code,
                message: message.to_owned(),
                table: Some(self.id.clone()),
                ack,
            });
            None
        };
        let Some(seat) = self.seat_of(&outbox.session().id()) else {
            return refuse(ErrorCode::NotSeated, "spectators cannot play; take a seat first");
        };
        match &self.game {
            Some(live) if !live.is_over() => Some(seat),
            _ => refuse(ErrorCode::GameOver, "no game is being played"),
        }
    }

    pub(super) async fn client_move(&mut self, outbox: &Outbox, ack: u64, ply: u32, wire: &str) {
        let refuse = |code, message: String| {
            outbox.send(&ServerMsg::Error {
                code,
                message,
                table: Some(self.id.clone()),
                ack: Some(ack),
            });
        };
        if self.ctx.site.hold(&self.id) == Hold::Lost {
            // This copy may be stale (the table may be on another node now): answer nothing else.
            refuse(
                ErrorCode::Unavailable,
                "this table is moving to another server; try again in a moment".to_owned(),
            );
            return;
        }
        let Some(seat) = self.playing_seat(outbox, Some(ack)) else {
            return;
        };
        let Some(live) = &self.game else { return };
        if live.ply() != ply {
            self.ctx.metrics.moves_refused.fetch_add(1, Ordering::Relaxed);
            refuse(
                ErrorCode::StaleMove,
                format!(
                    "that move was chosen after {ply} moves; the game has {}",
                    live.ply()
                ),
            );
            return;
        }
        if live.turn() != Some(seat) || self.seats[seat].occupant.cpu.is_some() {
            self.ctx.metrics.moves_refused.fetch_add(1, Ordering::Relaxed);
            refuse(ErrorCode::NotYourTurn, "it is not your turn".to_owned());
            return;
        }
        self.play(seat, wire, Some((outbox, ack))).await;
    }

    /// Plays a move for `seat`: refuses it with a reason, or stores it, then acknowledges and broadcasts it.
    pub(super) async fn play(&mut self, seat: usize, wire: &str, reply: Option<(&Outbox, u64)>) {
        let table = self.id.clone();
        let refuse = |code, message: String| {
            if let Some((outbox, ack)) = reply {
                outbox.send(&ServerMsg::Error {
                    code,
                    message,
                    table: Some(table.clone()),
                    ack: Some(ack),
                });
            }
        };
        let now = Instant::now();
        let Some(live) = self.game.as_mut() else { return };
        // A CPU playing a four-player seat is never flagged: its turn starts again when it runs out (see `flag`),
        // and a search that finished late on a busy machine still plays.
        let cpu_of_four = reply.is_none() && live.game.seat_count() > 2;
        if let Some((deadline, _)) = live.clock.deadline()
            && now >= deadline
            && !cpu_of_four
        {
            refuse(ErrorCode::GameOver, "your time ran out".to_owned());
            self.flag().await;
            return;
        }
        let clock_before = live.clock.clone();
        // Taken before the move: a move the store does not take is undone by putting this back.
        let game_before = live.game.snapshot();
        let played = match live.game.play(wire) {
            Ok(p) => p,
            Err(e) => {
                self.ctx.metrics.moves_refused.fetch_add(1, Ordering::Relaxed);
                let code = if e.kind == parlor_game::MoveErrorKind::GameOver {
                    ErrorCode::GameOver
                } else {
                    ErrorCode::IllegalMove
                };
                refuse(code, e.reason);
                return;
            }
        };
        let _ = live.clock.finish_turn(now);
        let ended = live.is_over();
        if ended {
            live.clock.halt(now);
        }
        let ply = live.ply();
        live.rows += 1;
        let mut writes = vec![Write::Move(parlor_store::MoveRecord {
            game_id: live.id.clone(),
            ply: live.rows as i32,
            seat: seat as i32,
            wire: played.wire.clone(),
            clocks: serde_json::to_string(&live.clock.stored_ms()).unwrap_or_default(),
            at_ms: now_ms(),
        })];
        if ended {
            writes.extend(self.finish_writes().await);
        }
        let metrics = self.ctx.metrics.clone();
        let commit_start = Instant::now();
        let rules_before_commit = commit_start - now;
        let mut told_slow = false;
        let stored = {
            let commit = self.commit(writes);
            tokio::pin!(commit);
            tokio::select! {
                result = &mut commit => result,
                () = tokio::time::sleep(crate::persist::COMMIT_PATIENCE) => {
                    // The player hears at once that the store is slow; the table still waits for the outcome,
                    // since the move may yet be stored (then it is broadcast as usual).
                    refuse(
                        ErrorCode::Unavailable,
                        "the server cannot store moves right now; your move waits".to_owned(),
                    );
                    told_slow = true;
                    commit.await
                }
            }
        };
        if let Err(e) = stored {
            tracing::debug!(table = %self.id, error = %e, "could not store a move; refusing it");
            if let Some(live) = self.game.as_mut() {
                live.take_back(game_before, clock_before);
                live.rows -= 1;
            }
            match e {
                parlor_store::StoreError::Fenced(_) => refuse(
                    ErrorCode::Unavailable,
                    "this table is moving to another server; try again in a moment".to_owned(),
                ),
                _ if told_slow => {}
                _ => refuse(
                    ErrorCode::Unavailable,
                    "the server cannot store moves right now; try again in a moment".to_owned(),
                ),
            }
            return;
        }
        let now = Instant::now();
        metrics.observe_stage(Stage::Commit, now - commit_start);
        self.seats[seat].away_before = Duration::ZERO;
        let Some(live) = self.game.as_mut() else { return };
        live.turn_since = now;
        if let Some(turn) = live.turn() {
            live.clock.start(turn, now);
        }
        let declined = live.draw_offer.filter(|s| usize::from(*s) != seat);
        if declined.is_some() {
            live.draw_offer = None;
        }
        // A move answers a takeback request: the request lapses.
        let takeback_lapsed = live.takeback_offer.take().is_some();
        let (turn, points, eliminated) = table_view(live.game.as_ref(), &live.map);
        let event = Event::Moved {
            ply,
            seat: seat as u8,
            wire: played.wire,
            display: played.display,
            position: live.game.position_text(),
            turn: if ended { None } else { turn },
            legal: live.legal(),
            clocks: live.clock.snapshot(now),
            points,
            eliminated,
            check: live.check(),
        };
        self.ctx.metrics.moves.fetch_add(1, Ordering::Relaxed);
        let built = Instant::now();
        metrics.observe_stage(Stage::Rules, rules_before_commit + (built - now));
        if let Some((outbox, ack)) = reply {
            outbox.send(&ServerMsg::Ack {
                table: self.id.clone(),
                ack,
                version: self.version + 1,
            });
        }
        self.broadcast(event);
        if declined.is_some() {
            self.broadcast(Event::DrawDeclined { seat: seat as u8 });
        }
        if takeback_lapsed {
            self.broadcast(Event::TakebackDeclined { seat: seat as u8 });
        }
        metrics.observe_stage(Stage::Broadcast, built.elapsed());
        if ended {
            self.announce_end();
        } else {
            self.maybe_cpu();
        }
    }
}

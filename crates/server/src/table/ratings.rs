//! Ratings: the Glicko-2 updates of a finished rated game between people, written with its result.

use super::{Table, now_ms};
use crate::rating;
use parlor_protocol::RatingChange;
use parlor_store::{Rating, Store, Write};
use skillratings::glicko2::Glicko2Rating;

impl Table {
    /// Glicko-2 updates of a finished rated game between people (none for casual or aborted games), written in
    /// the same transaction as the result.
    pub(super) async fn rating_writes(&mut self) -> Vec<Write> {
        let Some(live) = &self.game else { return Vec::new() };
        if !self.spec.rated || live.aborted {
            return Vec::new();
        }
        let Some(outcome) = live.outcome_info() else {
            return Vec::new();
        };
        let players: Option<Vec<String>> = self
            .seats
            .iter()
            .map(|s| {
                if s.occupant.cpu.is_some() && !s.occupant.took_over {
                    None
                } else {
                    s.occupant.player_id.clone()
                }
            })
            .collect();
        let Some(players) = players else { return Vec::new() };
        let pool = self.spec.game.clone();
        let game_id = live.id.clone();
        let mut stored = Vec::new();
        for player in &players {
            stored.push(self.ctx.store.rating(player, &pool).await.ok().flatten());
        }
        let before: Vec<Glicko2Rating> = stored
            .iter()
            .map(|r| {
                r.as_ref().map_or(rating::START, |r| Glicko2Rating {
                    rating: r.rating,
                    deviation: r.deviation,
                    volatility: r.volatility,
                })
            })
            .collect();
        let after = rating::update(&before, &outcome.places);
        let mut writes = Vec::new();
        let mut changes = Vec::new();
        for (seat, player) in players.iter().enumerate() {
            writes.push(Write::Rating {
                rating: Rating {
                    player_id: player.clone(),
                    pool: pool.clone(),
                    rating: after[seat].rating,
                    deviation: after[seat].deviation,
                    volatility: after[seat].volatility,
                    games: stored[seat].as_ref().map_or(0, |r| r.games) + 1,
                    updated_ms: now_ms(),
                },
                game_id: game_id.clone(),
                before: before[seat].rating,
            });
            changes.push(RatingChange {
                seat: seat as u8,
                before: before[seat].rating,
                after: after[seat].rating,
                provisional: after[seat].deviation > rating::PROVISIONAL_DEVIATION,
            });
        }
        if let Some(live) = self.game.as_mut() {
            live.ratings = changes;
        }
        writes
    }
}

//! A player's finished games, newest first, with opponents, result and rating change.

use crate::record::{Occupant, Settings};
use parlor_protocol::{HistoryGame, OutcomeInfo, RatingChange};
use parlor_store::{AnyStore, Store, StoreError, game_status};
use std::collections::HashMap;

/// Games per page.
pub const PAGE: u32 = 20;

/// One page of `player`'s finished games ended before `before` (unix ms), newest first, as `viewer` may see them:
/// aborted games are left out, and so are games at private tables where `viewer` did not sit.
///
/// # Errors
/// The store's error.
pub async fn page(
    store: &AnyStore,
    viewer: &str,
    player: &str,
    before: Option<i64>,
) -> Result<Vec<HistoryGame>, StoreError> {
    let records = store.games_of_player(player, PAGE, before).await?;
    let mut games = Vec::new();
    let mut private: HashMap<String, bool> = HashMap::new();
    for game in records.into_iter().filter(|g| g.status == game_status::FINISHED) {
        let occupants: Vec<Occupant> = serde_json::from_str(&game.seats).unwrap_or_default();
        if viewer != player && !sat(&occupants, viewer) {
            let is_private = match private.get(&game.table_id) {
                Some(p) => *p,
                None => {
                    let p = table_is_private(store, &game.table_id).await?;
                    private.insert(game.table_id.clone(), p);
                    p
                }
            };
            if is_private {
                continue;
            }
        }
        let players = occupants.iter().map(Occupant::label).collect();
        let Some(seat) = occupants
            .iter()
            .position(|o| o.player_id.as_deref() == Some(player))
        else {
            continue;
        };
        let outcome: Option<OutcomeInfo> = game.result.as_deref().and_then(|r| serde_json::from_str(r).ok());
        let rating = if game.rated {
            store
                .rating_changes(&game.id)
                .await?
                .into_iter()
                .find(|c| c.player_id == player)
                .map(|c| RatingChange {
                    seat: seat as u8,
                    before: c.before,
                    after: c.after,
                    provisional: false,
                })
        } else {
            None
        };
        games.push(HistoryGame {
            id: game.id,
            game: game.kind,
            players,
            seat: seat as u8,
            outcome,
            rating,
            ended_ms: game.ended_ms.unwrap_or(game.created_ms),
        });
    }
    Ok(games)
}

/// Whether `player` sat at one of these seats.
pub fn sat(occupants: &[Occupant], player: &str) -> bool {
    occupants.iter().any(|o| o.player_id.as_deref() == Some(player))
}

/// Whether a table is private (joined by code or link): its games are shown only to those who sat. A table whose
/// settings cannot be read counts as private.
///
/// # Errors
/// The store's error.
pub async fn table_is_private(store: &AnyStore, table_id: &str) -> Result<bool, StoreError> {
    let table = store.table(table_id).await?;
    Ok(table
        .and_then(|t| serde_json::from_str::<Settings>(&t.settings).ok())
        .is_none_or(|s| s.spec.private))
}

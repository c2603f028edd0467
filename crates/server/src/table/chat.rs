//! A table's chat: the lines kept for watchers who open it (loaded from the store after a restart), and a new
//! line from someone at the table.

use super::{Table, error, now_ms};
use crate::outbox::Outbox;
use parlor_protocol::{ChatLine, ErrorCode, Event, PlayerInfo};
use parlor_store::Store;
use std::collections::HashMap;

/// Chat lines a table keeps for watchers who open it.
const CHAT_KEPT: usize = 50;

impl Table {
    /// Loads the latest stored chat lines (a restored table), with their authors' names.
    pub(super) async fn load_chat(&mut self) {
        let Ok(lines) = self.ctx.store.chat(&self.id, CHAT_KEPT as u32).await else {
            return;
        };
        let mut names: HashMap<String, String> = HashMap::new();
        for line in lines {
            if !names.contains_key(&line.player_id) {
                let name = self
                    .ctx
                    .store
                    .player(&line.player_id)
                    .await
                    .ok()
                    .flatten()
                    .map(|p| p.nickname);
                names.insert(line.player_id.clone(), name.unwrap_or_default());
            }
            let name = names.get(&line.player_id).cloned().unwrap_or_default();
            self.chat.push_back(ChatLine {
                from: PlayerInfo {
                    id: line.player_id,
                    name,
                },
                text: line.text,
                at_ms: line.at_ms,
            });
        }
    }

    pub(super) async fn chat(&mut self, outbox: &Outbox, text: String) {
        let from = outbox.session().info();
        // Chat is for those at the table: knowing a table's id is not enough to write to it.
        if !self.watchers.contains_key(&outbox.conn()) && self.seat_of(&from.id).is_none() {
            outbox.send(&error(
                ErrorCode::NotAtTable,
                "open the table to chat there",
                &self.id,
            ));
            return;
        }
        self.chat.push_back(ChatLine {
            from: from.clone(),
            text: text.clone(),
            at_ms: now_ms(),
        });
        while self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
        if let Err(e) = self.ctx.store.add_chat(&self.id, &from.id, &text, now_ms()).await {
            tracing::warn!(table = %self.id, error = %e, "could not store chat");
        }
        self.broadcast(Event::Chat {
            from,
            text,
            at_ms: now_ms(),
        });
    }
}

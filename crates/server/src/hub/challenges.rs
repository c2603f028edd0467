//! Challenges: one player asks another for a game; the answer seats both at a new table. Pending challenges are
//! kept here; in a site, one node claims each answer (see [`crate::site::Site::challenge_claim`]).

use super::{CreateError, Hub, lock};
use crate::limit;
use crate::site::ChallengeNews;
use crate::table::spec::{SpecError, validate_spec};
use parlor_protocol::{ChallengeState, ErrorCode, PlayerInfo, ServerMsg, TableSpec};
use parlor_store::{Relation, Store};
use std::sync::Arc;

/// A challenge waiting for an answer.
#[derive(Clone, Debug)]
pub(super) struct Challenge {
    id: String,
    from: PlayerInfo,
    to: PlayerInfo,
    spec: TableSpec,
}

/// Why a challenge, or its answer, was refused: sent back as an error with [`ChallengeError::code`].
#[derive(Debug, thiserror::Error)]
pub enum ChallengeError {
    /// A player challenged themselves.
    #[error("you cannot challenge yourself")]
    Yourself,
    /// One of the two blocked the other.
    #[error("you cannot challenge this player")]
    Blocked,
    /// The same challenge waits for an answer already.
    #[error("you already challenged this player: wait for the answer or withdraw it")]
    Exists,
    /// Too many challenges of the player wait for an answer.
    #[error(
        "{} challenges are waiting for an answer: withdraw one first",
        limit::MAX_PENDING_CHALLENGES
    )]
    TooMany,
    /// Too many challenges lately.
    #[error("too many challenges: wait a moment")]
    RateLimited,
    /// The challenged player is not online.
    #[error("that player is not online")]
    Offline,
    /// The table asked for cannot be made.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The other nodes could not be told.
    #[error("could not send the challenge; try again")]
    NotSent,
    /// No such pending challenge of this player's.
    #[error("no such challenge (it may have been answered or withdrawn)")]
    NotFound,
    /// The table of an accepted challenge could not be made.
    #[error(transparent)]
    Table(#[from] CreateError),
}

impl ChallengeError {
    /// The error code the client gets.
    pub fn code(&self) -> ErrorCode {
        match self {
            ChallengeError::Yourself => ErrorCode::NotAllowed,
            ChallengeError::Blocked => ErrorCode::Blocked,
            ChallengeError::Exists => ErrorCode::ChallengeExists,
            ChallengeError::TooMany => ErrorCode::TooManyChallenges,
            ChallengeError::RateLimited => ErrorCode::RateLimited,
            ChallengeError::Offline => ErrorCode::PlayerOffline,
            ChallengeError::Spec(_) | ChallengeError::Table(_) => ErrorCode::BadSpec,
            ChallengeError::NotSent => ErrorCode::Internal,
            ChallengeError::NotFound => ErrorCode::ChallengeNotFound,
        }
    }
}

fn challenge_msg(c: &Challenge, state: ChallengeState, table: Option<String>) -> ServerMsg {
    ServerMsg::Challenge {
        id: c.id.clone(),
        from: c.from.clone(),
        to: c.to.clone(),
        spec: c.spec.clone(),
        state,
        table,
    }
}

impl Hub {
    /// Tells both players of a challenge's news, on every node.
    fn tell_both(&self, c: &Challenge, state: ChallengeState, table: Option<String>) {
        self.site.challenge_news(ChallengeNews {
            id: &c.id,
            from: &c.from,
            to: &c.to,
            spec: &c.spec,
            state,
            table: table.as_deref(),
        });
        let msg = challenge_msg(c, state, table);
        self.to_player(&c.from.id, &msg);
        self.to_player(&c.to.id, &msg);
    }

    /// News of a challenge from another node: keep the list of pending ones, tell the players connected here.
    pub fn challenge_apply(
        &self,
        id: String,
        from: PlayerInfo,
        to: PlayerInfo,
        spec: TableSpec,
        state: ChallengeState,
        table: Option<String>,
    ) {
        let c = Challenge { id, from, to, spec };
        if state == ChallengeState::Pending {
            lock(&self.challenges).insert(c.id.clone(), c.clone());
        } else {
            lock(&self.challenges).remove(&c.id);
        }
        let msg = challenge_msg(&c, state, table);
        self.to_player(&c.from.id, &msg);
        self.to_player(&c.to.id, &msg);
    }

    /// Takes a pending challenge out of the list if `keep` says so; in a site, only one node can.
    async fn claim(&self, id: &str, keep: impl Fn(&Challenge) -> bool) -> Option<Challenge> {
        lock(&self.challenges).get(id).filter(|c| keep(c))?;
        if !self.site.challenge_claim(id).await {
            lock(&self.challenges).remove(id);
            return None;
        }
        lock(&self.challenges).remove(id)
    }

    /// `from` challenges player `to` to a game.
    ///
    /// # Errors
    /// [`ChallengeError`]: the player is offline, blocked, challenged already, or the spec is invalid.
    pub async fn challenge(&self, from: PlayerInfo, to: &str, spec: TableSpec) -> Result<(), ChallengeError> {
        if to == from.id {
            return Err(ChallengeError::Yourself);
        }
        let blocked_by_them = match self.marks.known_block(to, &from.id) {
            Some(b) => b,
            // Not connected here: ask the store.
            None => self
                .store
                .relations(to)
                .await
                .map(|marks| {
                    marks
                        .iter()
                        .any(|(other, r)| *other == from.id && *r == Relation::Block)
                })
                .unwrap_or(false),
        };
        if blocked_by_them || self.marks.has_blocked(&from.id, to) {
            return Err(ChallengeError::Blocked);
        }
        {
            let challenges = lock(&self.challenges);
            let mut pending = challenges.values().filter(|c| c.from.id == from.id);
            if pending.clone().any(|c| c.to.id == to) {
                return Err(ChallengeError::Exists);
            }
            if pending.by_ref().count() >= limit::MAX_PENDING_CHALLENGES {
                return Err(ChallengeError::TooMany);
            }
        }
        if !self.limits.challenge.try_take(&from.id) {
            return Err(ChallengeError::RateLimited);
        }
        let to = {
            let people = lock(&self.people);
            people.shown_here(to).or_else(|| people.seen_elsewhere(to))
        };
        let Some(to) = to else {
            return Err(ChallengeError::Offline);
        };
        validate_spec(&spec)?;
        let challenge = Challenge {
            id: uuid::Uuid::new_v4().simple().to_string(),
            from,
            to,
            spec,
        };
        if !self.site.challenge_stored(&challenge.id).await {
            return Err(ChallengeError::NotSent);
        }
        lock(&self.challenges).insert(challenge.id.clone(), challenge.clone());
        self.tell_both(&challenge, ChallengeState::Pending, None);
        Ok(())
    }

    /// The challenger withdraws.
    ///
    /// # Errors
    /// [`ChallengeError::NotFound`] if there is no such pending challenge of theirs.
    pub async fn cancel_challenge(&self, player: &str, id: &str) -> Result<(), ChallengeError> {
        let c = self
            .claim(id, |c| c.from.id == player)
            .await
            .ok_or(ChallengeError::NotFound)?;
        self.tell_both(&c, ChallengeState::Cancelled, None);
        Ok(())
    }

    /// The challenged player answers; an acceptance seats both at a new table at once.
    ///
    /// # Errors
    /// [`ChallengeError::NotFound`], or the table could not be made.
    pub async fn answer_challenge(
        self: &Arc<Self>,
        player: &str,
        id: &str,
        accept: bool,
    ) -> Result<(), ChallengeError> {
        let challenge = self
            .claim(id, |c| c.to.id == player)
            .await
            .ok_or(ChallengeError::NotFound)?;
        if !accept {
            self.tell_both(&challenge, ChallengeState::Declined, None);
            return Ok(());
        }
        let (table, _) = self
            .create_table(
                challenge.spec.clone(),
                challenge.from.clone(),
                Some(challenge.to.clone()),
            )
            .await?;
        self.tell_both(&challenge, ChallengeState::Accepted, Some(table));
        Ok(())
    }

    /// Every pending challenge from or to `player` lapses: the other side is told.
    pub(super) async fn challenges_gone(&self, player: &str) {
        let ids: Vec<String> = lock(&self.challenges)
            .values()
            .filter(|c| c.from.id == player || c.to.id == player)
            .map(|c| c.id.clone())
            .collect();
        for id in ids {
            if let Some(c) = self.claim(&id, |_| true).await {
                self.tell_both(&c, ChallengeState::Gone, None);
            }
        }
    }
}

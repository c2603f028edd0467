//! The SQLite store: one file, WAL, a single writer connection and a few readers.

use crate::checkpoint::CheckpointCounts;
use crate::error::StoreError;
use crate::sql::{Db, SqliteDurability};
use crate::store::delegate_store;

/// A [`crate::Store`] on an SQLite file, for a laptop or a small site.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    db: Db,
}

impl SqliteStore {
    /// Opens (`?mode=rwc` creates) the file named by an `sqlite:` URL, for example `sqlite://parlor.db?mode=rwc`,
    /// with the default durability ([`SqliteDurability::ProcessCrash`]), and applies the migrations.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the file cannot be opened, [`StoreError::Migrate`] if the schema cannot be
    /// brought up to date.
    ///
    /// Parlor's own parameter `synchronous=full` (or `synchronous=normal`, the default) chooses the durability:
    /// `sqlite://parlor.db?mode=rwc&synchronous=full` (see [`SqliteDurability`]).
    pub async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let (url, durability) = split_durability(url)?;
        SqliteStore::open_with(&url, durability).await
    }

    /// Like [`SqliteStore::open`], choosing what a commit survives.
    ///
    /// # Errors
    /// As [`SqliteStore::open`].
    pub async fn open_with(url: &str, durability: SqliteDurability) -> Result<SqliteStore, StoreError> {
        Ok(SqliteStore {
            db: Db::open_sqlite(url, durability).await?,
        })
    }

    /// What the background checkpointer has done (`None` for a database in memory, which has no WAL).
    pub fn checkpoints(&self) -> Option<CheckpointCounts> {
        self.db.checkpoint_counts()
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }
}

delegate_store!(SqliteStore);

/// Takes Parlor's `synchronous=normal|full` parameter out of an SQLite URL (sqlx refuses unknown parameters), and
/// adds `mode=rwc` when no mode is given, so `sqlite://parlor.db` creates the file as a self-hoster expects.
fn split_durability(url: &str) -> Result<(String, SqliteDurability), StoreError> {
    let in_memory = url.contains(":memory:") || url.contains("mode=memory");
    let url = if url.contains("mode=") || in_memory {
        url.to_owned()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    };
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.clone(), SqliteDurability::default()));
    };
    let mut durability = SqliteDurability::default();
    let mut kept = Vec::new();
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("synchronous", value)) => {
                durability = match value.to_ascii_lowercase().as_str() {
                    "normal" => SqliteDurability::ProcessCrash,
                    "full" => SqliteDurability::PowerLoss,
                    _ => {
                        return Err(StoreError::UnsupportedUrl(format!(
                            "synchronous={value} (use normal or full)"
                        )));
                    }
                }
            }
            _ => kept.push(pair),
        }
    }
    let url = if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((url, durability))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn synchronous_is_taken_out_of_the_url() {
        let split = |url| split_durability(url).unwrap();
        assert_eq!(
            split("sqlite://p.db?mode=rwc"),
            ("sqlite://p.db?mode=rwc".into(), SqliteDurability::ProcessCrash)
        );
        assert_eq!(
            split("sqlite://p.db?mode=rwc&synchronous=full"),
            ("sqlite://p.db?mode=rwc".into(), SqliteDurability::PowerLoss)
        );
        assert_eq!(
            split("sqlite://p.db?synchronous=NORMAL"),
            ("sqlite://p.db?mode=rwc".into(), SqliteDurability::ProcessCrash)
        );
        assert_eq!(
            split("sqlite://p.db"),
            ("sqlite://p.db?mode=rwc".into(), SqliteDurability::ProcessCrash)
        );
        assert_eq!(
            split("sqlite://p.db?mode=ro"),
            ("sqlite://p.db?mode=ro".into(), SqliteDurability::ProcessCrash)
        );
        assert_eq!(
            split("sqlite::memory:"),
            ("sqlite::memory:".into(), SqliteDurability::ProcessCrash)
        );
        assert!(matches!(
            split_durability("sqlite://p.db?synchronous=off"),
            Err(StoreError::UnsupportedUrl(_))
        ));
    }
}

//! The SQLite store: one file, WAL, a single writer connection and a few readers.

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
    pub async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(url, SqliteDurability::default()).await
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

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }
}

delegate_store!(SqliteStore);

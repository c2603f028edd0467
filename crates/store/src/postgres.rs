//! The PostgreSQL store: a pool of connections to a server that several Parlor nodes may share.

use crate::error::StoreError;
use crate::sql::Db;
use crate::store::delegate_store;

/// A [`crate::Store`] on PostgreSQL, for a large site.
#[derive(Clone, Debug)]
pub struct PostgresStore {
    db: Db,
}

impl PostgresStore {
    /// Connects to a `postgres://` URL and applies the migrations (concurrent nodes wait for each other on an
    /// advisory lock). `?options=-c%20search_path%3Dmyschema` selects a schema.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the server cannot be reached, [`StoreError::Migrate`] if the schema cannot be
    /// brought up to date.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        Ok(PostgresStore {
            db: Db::open_postgres(url).await?,
        })
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }
}

delegate_store!(PostgresStore);

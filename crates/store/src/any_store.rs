//! `AnyStore`: the backend chosen at run time from the database URL.

use crate::checkpoint::CheckpointCounts;
use crate::error::StoreError;
use crate::postgres::PostgresStore;
use crate::sql::Db;
use crate::sqlite::SqliteStore;
use crate::store::{Store, delegate_store};

/// The store the server runs on, chosen by [`AnyStore::open`] from the URL.
#[derive(Clone, Debug)]
pub enum AnyStore {
    /// `sqlite:` URLs.
    Sqlite(SqliteStore),
    /// `postgres:` and `postgresql:` URLs.
    Postgres(PostgresStore),
}

impl AnyStore {
    /// Opens the database a URL names, `sqlite://parlor.db?mode=rwc` or `postgres://user@host/db`, and applies
    /// the migrations.
    ///
    /// # Errors
    /// [`StoreError::UnsupportedUrl`] for any other scheme; otherwise as [`SqliteStore::open`] and
    /// [`PostgresStore::open`].
    pub async fn open(url: &str) -> Result<AnyStore, StoreError> {
        let scheme = url.split_once(':').map(|(scheme, _)| scheme.to_ascii_lowercase());
        match scheme.as_deref() {
            Some("sqlite") => Ok(AnyStore::Sqlite(SqliteStore::open(url).await?)),
            Some("postgres" | "postgresql") => Ok(AnyStore::Postgres(PostgresStore::open(url).await?)),
            _ => Err(StoreError::UnsupportedUrl(redact(url))),
        }
    }

    /// What the SQLite background checkpointer has done; `None` on PostgreSQL.
    pub fn sqlite_checkpoints(&self) -> Option<CheckpointCounts> {
        self.db().checkpoint_counts()
    }

    /// The SQLite file this store made when it opened because there was none: a new, empty database, with a new
    /// cookie key. `None` when the file was there already, in memory, and on PostgreSQL.
    pub fn created_file(&self) -> Option<&std::path::Path> {
        self.db().created_file()
    }

    fn db(&self) -> &Db {
        match self {
            AnyStore::Sqlite(store) => store.db(),
            AnyStore::Postgres(store) => store.db(),
        }
    }
}

/// The URL without a password, for error messages and logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(start), Some(at)) if at > start => format!("{}://***{}", &url[..start], &url[at..]),
        _ => url.to_owned(),
    }
}

delegate_store!(AnyStore);

// AnyStore is what the server holds; make sure it stays a Store.
const _: fn() = || {
    fn is_store<S: Store>() {}
    is_store::<AnyStore>();
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_hides_credentials() {
        assert_eq!(redact("mysql://u:secret@host/db"), "mysql://***@host/db");
        assert_eq!(redact("nonsense"), "nonsense");
    }
}

//! What can go wrong in the store.

/// An error of a store operation. The database's own error, if any, is the [`std::error::Error::source`].
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL names no backend Parlor supports (`sqlite:` or `postgres:`).
    #[error("unsupported database URL (use sqlite://FILE?mode=rwc or postgres://...): {0}")]
    UnsupportedUrl(String),
    /// A row with the same key already exists (a move's ply, an event's seq, an id, a private table's code).
    #[error("conflict: {0}")]
    Conflict(String),
    /// The row to change, or the game a row belongs to, does not exist.
    #[error("not found: {0}")]
    NotFound(String),
    /// A value the store must read (a game's seats JSON) is malformed.
    #[error("invalid input: {0}")]
    Invalid(String),
    /// A stored row could not be read (for example an unknown relation name).
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// Applying the migrations failed.
    #[error("migration failed")]
    Migrate(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A fencing token is stale: another node took the table over (see [`crate::Write::Fence`]).
    #[error("fenced: {0}")]
    Fenced(String),
    /// The database file was deleted, replaced or made read-only while the server ran: nothing is written.
    #[error("the store cannot write: {0}")]
    Unwritable(String),
    /// The store did not answer in time (a stalled disk or database); the write may still complete later.
    #[error("the store did not answer within {0:?}")]
    Timeout(std::time::Duration),
    /// The store, or its group-commit writer, has been shut down.
    #[error("the store is closed")]
    Closed,
    /// The database failed (connection lost, disk full, ...).
    #[error("database error: {0}")]
    Database(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        use sqlx::error::ErrorKind;
        if let sqlx::Error::PoolClosed = error {
            return StoreError::Closed;
        }
        if let sqlx::Error::Database(db) = &error {
            match db.kind() {
                ErrorKind::UniqueViolation => return StoreError::Conflict(db.message().to_owned()),
                ErrorKind::ForeignKeyViolation => return StoreError::NotFound(db.message().to_owned()),
                _ => {}
            }
        }
        StoreError::Database(Box::new(error))
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        StoreError::Migrate(Box::new(error))
    }
}

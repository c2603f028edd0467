//! Opening a store from its URL: `sqlite:` or `postgres:`, with Parlor's own SQLite durability parameter.

use crate::error::StoreError;
use crate::sql::{AnyStore, SqliteDurability};

impl AnyStore {
    /// Opens the database a URL names and applies the migrations:
    /// - `sqlite://parlor.db` (the file is made when missing, as `?mode=rwc`), with the default durability
    ///   ([`SqliteDurability::ProcessCrash`]); Parlor's own parameter `synchronous=full` (or `synchronous=normal`)
    ///   chooses it: `sqlite://parlor.db?synchronous=full`;
    /// - `postgres://user@host/db` for a large site, several nodes sharing it (they wait for each other's
    ///   migrations on an advisory lock); `?options=-c%20search_path%3Dmyschema` selects a schema.
    ///
    /// # Errors
    /// [`StoreError::UnsupportedUrl`] for any other scheme or parameter value; [`StoreError::Database`] if the
    /// database cannot be opened or reached, [`StoreError::Migrate`] if the schema cannot be brought up to date.
    pub async fn open(url: &str) -> Result<AnyStore, StoreError> {
        let scheme = url.split_once(':').map(|(scheme, _)| scheme.to_ascii_lowercase());
        match scheme.as_deref() {
            Some("sqlite") => {
                let (url, durability) = split_durability(url)?;
                AnyStore::open_sqlite(&url, durability).await
            }
            Some("postgres" | "postgresql") => AnyStore::open_postgres(url).await,
            _ => Err(StoreError::UnsupportedUrl(redact(url))),
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
    fn redact_hides_credentials() {
        assert_eq!(redact("mysql://u:secret@host/db"), "mysql://***@host/db");
        assert_eq!(redact("nonsense"), "nonsense");
    }

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

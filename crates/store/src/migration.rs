//! The schema's migrations, embedded without sqlx's `migrate!` macro (which would build sqlx-macros).

use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AssertSqlSafe, SqlSafeStr};

/// Every migration in `crates/store/migrations/`, in order. Append new files here; never edit an applied one
/// (its checksum is checked at start-up).
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../migrations/0001_init.sql")),
    (2, "fence", include_str!("../migrations/0002_fence.sql")),
    (3, "reviews", include_str!("../migrations/0003_reviews.sql")),
];

/// The migrator both backends run at start-up. Its checksums equal those of `sqlx::migrate!()`.
pub(crate) fn migrator() -> Migrator {
    let migrations: Vec<Migration> = MIGRATIONS
        .iter()
        .map(|&(version, description, sql)| {
            Migration::new(
                version,
                Cow::Borrowed(description),
                MigrationType::Simple,
                AssertSqlSafe(sql).into_sql_str(),
                false,
            )
        })
        .collect();
    Migrator {
        migrations: Cow::Owned(migrations),
        ..Migrator::DEFAULT
    }
}

//! The one SQL implementation both backends share, on sqlx's Any driver; only opening differs per backend.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use sqlx::AnyConnection;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

use crate::checkpoint::{CheckpointCounts, Checkpointer};
use crate::error::StoreError;
use crate::file_guard::FileGuard;
use crate::migration::migrator;
use crate::record::{
    ChatRecord, EventRecord, GameRecord, MoveRecord, Player, Rating, RatingChange, Relation, StoredGame,
    TableRecord,
};
use crate::store::{Backend, Store};
use crate::write::Write;

/// How an SQLite store trades commit speed against what a commit survives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SqliteDurability {
    /// WAL with `synchronous = NORMAL`: a commit survives the process being killed (SIGKILL, a panic, an OOM kill),
    /// but the last commits may be lost if the machine loses power or the OS crashes. The WAL is synced at each
    /// checkpoint, so the database itself never corrupts. The default.
    #[default]
    ProcessCrash,
    /// WAL with `synchronous = FULL`: every commit is fsynced, so it also survives a power cut.
    PowerLoss,
}

/// Pool sizes and timeouts. The numbers of the policy live here.
mod tuning {
    use std::time::Duration;

    /// SQLite allows one writer at a time; one connection serializes writes without `SQLITE_BUSY` upgrades.
    pub const SQLITE_WRITERS: u32 = 1;
    /// Readers of an SQLite file in WAL mode never block the writer or each other.
    pub const SQLITE_READERS: u32 = 4;
    /// PostgreSQL commits from several connections are flushed together by its own group commit.
    pub const POSTGRES_CONNECTIONS: u32 = 8;
    /// The writer copies the WAL back into the database (a checkpoint, with its fsyncs) whenever the WAL holds this
    /// many pages, and every commit waits while it does. The background checkpointer (`checkpoint.rs`) has copied
    /// nearly all of them by then, so the writer's checkpoint is short and lets the WAL start again.
    ///
    /// A group commit under full load writes a few hundred pages: with a limit of a few hundred, nearly every commit
    /// would run a checkpoint of its own (8% of the server's CPU in `perf`, with its fsync). At 4,000 pages (16 MiB
    /// of WAL) the store bench's closed loop of 1,000 tables carries 82k moves/s against 66k at 300 pages (100
    /// tables: 67-70k against 44-46k), and `parlor loadtest --games 5000 --rate 5000` has p99 3.6 ms (4.6 ms at 300
    /// pages in the same A/B). Figures: docs/results/2026-12-05-server-core.md.
    pub const SQLITE_AUTOCHECKPOINT: &str = "PRAGMA wal_autocheckpoint = 4000";
    /// Temporary tables and the statement journal in memory: a multi-row insert keeps a statement journal to undo
    /// itself alone, and on a file it spilled past 64 KiB, a 4 KiB write for every move of a large group commit.
    pub const SQLITE_TEMP_STORE: &str = "PRAGMA temp_store = MEMORY";
    /// The background checkpointer's pause between two passive checkpoints (every 2 ms cost 10% more CPU per move
    /// for no gain in p99).
    pub const SQLITE_CHECKPOINT_PAUSE: Duration = Duration::from_millis(5);
    /// How long an operation waits for a free connection before failing.
    pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);
    /// The PostgreSQL advisory lock every game write holds shared for its transaction, and a starting store takes
    /// alone once: see [`super::AnyStore::open_postgres`].
    pub const POSTGRES_WRITES_LOCK: i64 = 0x7061_726c_6f72; // "parlor"
    /// The start of a game write on PostgreSQL: the transaction, holding [`POSTGRES_WRITES_LOCK`] shared.
    pub const POSTGRES_BEGIN_WRITES: &str = "BEGIN; SELECT pg_advisory_xact_lock_shared(123563833847666)";
}

/// Whether a connection given back to the pool may be used again: only if it is outside any transaction.
///
/// A commit that fails with `SQLITE_FULL` or an I/O error may be rolled back by SQLite itself; sqlx's own rollback
/// then fails, and its count of open transactions stays one too high. On such a connection the next `BEGIN`
/// becomes a `SAVEPOINT` and its `COMMIT` a `RELEASE`, so later writes report success but are never made durable.
/// A connection in that state (or any other left inside a transaction) is closed here, and the pool opens a fresh
/// one for the next write. A transaction that committed, or whose rollback was awaited, has left it at zero; one
/// whose rollback is still queued from a drop (an error path) is closed too: in doubt, a fresh connection.
async fn still_clean(conn: &mut AnyConnection) -> Result<bool, sqlx::Error> {
    use sqlx::Connection as _;
    if conn.is_in_transaction() {
        tracing::warn!("a database connection was left inside a transaction: closing it");
        return Ok(false);
    }
    Ok(true)
}

/// The columns of `games`, in the order [`game_from_row`] reads them.
macro_rules! game_columns {
    () => {
        "g.id, g.table_id, g.kind, g.setup, g.seats, g.rated, g.status, g.result, g.clocks, g.created_ms, g.ended_ms"
    };
}

/// The columns of `game_tables`.
macro_rules! table_columns {
    () => {
        "id, code, kind, settings, status, owner, created_ms, updated_ms"
    };
}

/// The store Parlor runs on: a connected database with the schema applied, SQLite or PostgreSQL as its URL says
/// ([`AnyStore::open`]). Reads go to one pool and writes to another (the same pool on PostgreSQL; a single
/// connection on SQLite). It implements [`Store`] once for both backends; the SQL that differs asks `backend`.
#[derive(Clone, Debug)]
pub struct AnyStore {
    read: AnyPool,
    write: AnyPool,
    backend: Backend,
    /// SQLite files only: copies the WAL back into the database beside the writer.
    checkpointer: Option<Arc<Checkpointer>>,
    /// SQLite files only: refuses writes once the file is deleted, replaced or made read-only.
    file: Option<Arc<FileGuard>>,
}

impl AnyStore {
    /// Opens an SQLite database (`sqlite://path?mode=rwc`, or `sqlite::memory:`) with the durability given, in WAL
    /// mode, and applies the migrations. The URL is passed to SQLite as it is: [`AnyStore::open`] also reads
    /// Parlor's `synchronous=` parameter and adds `mode=rwc`.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the file cannot be opened, [`StoreError::Migrate`] if the schema cannot be
    /// brought up to date.
    pub async fn open_sqlite(url: &str, durability: SqliteDurability) -> Result<AnyStore, StoreError> {
        sqlx::any::install_default_drivers();
        let path = FileGuard::path_of(url);
        let existed = path.as_deref().is_some_and(FileGuard::exists);
        let synchronous: &'static str = match durability {
            SqliteDurability::ProcessCrash => "PRAGMA synchronous = NORMAL",
            SqliteDurability::PowerLoss => "PRAGMA synchronous = FULL",
        };
        let write = AnyPoolOptions::new()
            .max_connections(tuning::SQLITE_WRITERS)
            .acquire_timeout(tuning::ACQUIRE_TIMEOUT)
            // Keep the one writer for good: its statement cache stays warm, and `:memory:` lives in it.
            .idle_timeout(None)
            .max_lifetime(None)
            .after_release(|conn, _meta| Box::pin(still_clean(conn)))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    // journal_mode is kept in the file; set it before any reader connects.
                    sqlx::query("PRAGMA journal_mode = WAL")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query(synchronous).execute(&mut *conn).await?;
                    sqlx::query(tuning::SQLITE_AUTOCHECKPOINT)
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA foreign_keys = ON")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query(tuning::SQLITE_TEMP_STORE).execute(&mut *conn).await?;
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        migrator().run(&write).await?;
        // Each connection to `:memory:` is its own empty database: an in-memory store reads on its writer.
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        let read = if in_memory {
            write.clone()
        } else {
            AnyPoolOptions::new()
                .max_connections(tuning::SQLITE_READERS)
                .acquire_timeout(tuning::ACQUIRE_TIMEOUT)
                .connect(url)
                .await?
        };
        // A database in memory has no WAL to copy back.
        let checkpointer = if in_memory {
            None
        } else {
            let checkpointer = Checkpointer::start(url, synchronous, tuning::SQLITE_CHECKPOINT_PAUSE).await?;
            Some(Arc::new(checkpointer))
        };
        Ok(AnyStore {
            read,
            write,
            backend: Backend::Sqlite,
            checkpointer,
            file: path.map(|path| Arc::new(FileGuard::new(path, !existed))),
        })
    }

    /// Connects to PostgreSQL (`postgres://...`) and applies migrations.
    pub(crate) async fn open_postgres(url: &str) -> Result<AnyStore, StoreError> {
        sqlx::any::install_default_drivers();
        let pool = AnyPoolOptions::new()
            .max_connections(tuning::POSTGRES_CONNECTIONS)
            .acquire_timeout(tuning::ACQUIRE_TIMEOUT)
            .after_release(|conn, _meta| Box::pin(still_clean(conn)))
            .connect(url)
            .await?;
        migrator().run(&pool).await?;
        // A process killed while it committed leaves its transaction to end in the database after it died: a
        // restart that read the games before that would resume them one move short, and its next insert would
        // collide with the late one. Every game write holds this lock shared until its transaction ends, so
        // taking it alone once waits for all of them.
        let mut settle = pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(tuning::POSTGRES_WRITES_LOCK)
            .execute(&mut *settle)
            .await?;
        settle.commit().await?;
        Ok(AnyStore {
            read: pool.clone(),
            write: pool,
            backend: Backend::Postgres,
            checkpointer: None,
            file: None,
        })
    }

    /// What the SQLite background checkpointer has done; `None` on PostgreSQL and SQLite in memory.
    pub fn sqlite_checkpoints(&self) -> Option<CheckpointCounts> {
        self.checkpointer
            .as_ref()
            .map(|checkpointer| checkpointer.counts())
    }

    /// The SQLite file this store made when it opened because there was none: a new, empty database, with a new
    /// cookie key. `None` when the file was there already, in memory, and on PostgreSQL.
    pub fn created_file(&self) -> Option<&std::path::Path> {
        self.file.as_ref().filter(|f| f.created()).map(|f| f.path())
    }

    /// Refuses a write when the database file is gone, replaced or read-only (SQLite files only).
    fn writable(&self) -> Result<(), StoreError> {
        match &self.file {
            Some(file) => file.check(),
            None => Ok(()),
        }
    }

    /// Begins a read-only snapshot: several reads in it see one state of the database.
    async fn snapshot(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        let tx = match self.backend {
            Backend::Sqlite => self.read.begin().await?,
            Backend::Postgres => {
                self.read
                    .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    .await?
            }
        };
        Ok(tx)
    }
}

impl Store for AnyStore {
    fn backend(&self) -> Backend {
        self.backend
    }

    async fn close(&self) {
        if let Some(checkpointer) = &self.checkpointer {
            checkpointer.close().await;
        }
        self.read.close().await;
        self.write.close().await;
    }

    // ---- settings

    async fn secret(&self, name: &str, generate: impl FnOnce() -> String) -> Result<String, StoreError> {
        refuse_nul(&[name])?;
        let select = "SELECT value FROM settings WHERE name = $1";
        if let Some(row) = sqlx::query(select).bind(name).fetch_optional(&self.write).await? {
            return Ok(row.try_get("value")?);
        }
        let fresh = generate();
        refuse_nul(&[&fresh])?;
        sqlx::query("INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .bind(&fresh)
            .execute(&self.write)
            .await?;
        // Whoever inserted first won; everyone reads the winner's value.
        let row = sqlx::query(select).bind(name).fetch_one(&self.write).await?;
        Ok(row.try_get("value")?)
    }

    async fn setting(&self, name: &str) -> Result<Option<String>, StoreError> {
        if has_nul(&[name]) {
            return Ok(None);
        }
        let row = sqlx::query("SELECT value FROM settings WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.read)
            .await?;
        Ok(row.map(|row| row.try_get("value")).transpose()?)
    }

    // ---- players

    async fn upsert_player(&self, player: &Player) -> Result<(), StoreError> {
        self.commit(&[Write::UpsertPlayer(player.clone())]).await
    }

    async fn player(&self, id: &str) -> Result<Option<Player>, StoreError> {
        if has_nul(&[id]) {
            return Ok(None);
        }
        let row = sqlx::query("SELECT id, nickname, created_ms, last_seen_ms FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        row.map(|row| player_from_row(&row))
            .transpose()
            .map_err(StoreError::from)
    }

    async fn set_nickname(&self, id: &str, nickname: &str) -> Result<(), StoreError> {
        refuse_nul(&[id, nickname])?;
        self.writable()?;
        let done = sqlx::query("UPDATE players SET nickname = $2 WHERE id = $1")
            .bind(id)
            .bind(nickname)
            .execute(&self.write)
            .await?;
        expect_row(done.rows_affected(), || format!("player {id}"))
    }

    async fn touch_player(&self, id: &str, now_ms: i64) -> Result<(), StoreError> {
        if has_nul(&[id]) {
            return Err(StoreError::NotFound(format!("player {id:?}")));
        }
        self.commit(&[Write::TouchPlayer {
            id: id.to_owned(),
            now_ms,
        }])
        .await
    }

    // ---- tables

    async fn create_table(&self, table: &TableRecord) -> Result<(), StoreError> {
        self.commit(&[Write::CreateTable(table.clone())]).await
    }

    async fn update_table_status(&self, id: &str, status: &str, now_ms: i64) -> Result<(), StoreError> {
        let write = Write::UpdateTable {
            id: id.to_owned(),
            status: Some(status.to_owned()),
            settings: None,
            updated_ms: now_ms,
        };
        self.commit(&[write]).await
    }

    async fn update_table_settings(&self, id: &str, settings: &str, now_ms: i64) -> Result<(), StoreError> {
        let write = Write::UpdateTable {
            id: id.to_owned(),
            status: None,
            settings: Some(settings.to_owned()),
            updated_ms: now_ms,
        };
        self.commit(&[write]).await
    }

    async fn table(&self, id: &str) -> Result<Option<TableRecord>, StoreError> {
        if has_nul(&[id]) {
            return Ok(None);
        }
        let row = sqlx::query(concat!(
            "SELECT ",
            table_columns!(),
            " FROM game_tables WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| table_from_row(&row))
            .transpose()
            .map_err(StoreError::from)
    }

    async fn table_by_code(&self, code: &str) -> Result<Option<TableRecord>, StoreError> {
        if has_nul(&[code]) {
            return Ok(None);
        }
        let row = sqlx::query(concat!(
            "SELECT ",
            table_columns!(),
            " FROM game_tables WHERE code = $1"
        ))
        .bind(code)
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| table_from_row(&row))
            .transpose()
            .map_err(StoreError::from)
    }

    async fn open_tables(&self) -> Result<Vec<TableRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            table_columns!(),
            " FROM game_tables WHERE status <> 'closed' ORDER BY created_ms, id"
        ))
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(table_from_row)
            .collect::<Result<_, _>>()
            .map_err(StoreError::from)
    }

    // ---- games

    async fn commit(&self, batch: &[Write]) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        self.writable()?;
        let mut tx = match self.backend {
            Backend::Sqlite => self.write.begin().await?,
            // In the same round trip as the BEGIN.
            Backend::Postgres => self.write.begin_with(tuning::POSTGRES_BEGIN_WRITES).await?,
        };
        let mut rest = batch;
        while !rest.is_empty() {
            // A run of moves (what group commit gathers) goes in multi-row inserts: one round trip per chunk.
            let run = rest
                .iter()
                .take_while(|write| matches!(write, Write::Move(_)))
                .count();
            let (done, result) = if run > 1 {
                (run, insert_moves(&mut tx, self.backend, &rest[..run]).await)
            } else {
                (1, apply(&mut tx, &rest[0]).await)
            };
            if let Err(error) = result {
                // Dropping would roll back too; saying so returns the connection clean at once.
                let _ = tx.rollback().await;
                return Err(error);
            }
            rest = &rest[done..];
        }
        tx.commit().await?;
        Ok(())
    }

    async fn live_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let mut tx = self.snapshot().await?;
        let games = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games g WHERE g.status = 'live' ORDER BY g.created_ms, g.id"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let moves = sqlx::query(
            "SELECT m.game_id, m.ply, m.seat, m.wire, m.clocks, m.at_ms FROM games g \
             JOIN moves m ON m.game_id = g.id WHERE g.status = 'live'",
        )
        .fetch_all(&mut *tx)
        .await?;
        let events = sqlx::query(
            "SELECT e.game_id, e.seq, e.kind, e.data, e.at_ms FROM games g \
             JOIN events e ON e.game_id = g.id WHERE g.status = 'live'",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;

        let mut stored = Vec::with_capacity(games.len());
        let mut index = HashMap::with_capacity(games.len());
        for row in &games {
            let game = game_from_row(row)?;
            index.insert(game.id.clone(), stored.len());
            stored.push(StoredGame {
                game,
                moves: Vec::new(),
                events: Vec::new(),
            });
        }
        for row in &moves {
            let record = move_from_row(row)?;
            if let Some(&at) = index.get(&record.game_id) {
                stored[at].moves.push(record);
            }
        }
        for row in &events {
            let record = event_from_row(row)?;
            if let Some(&at) = index.get(&record.game_id) {
                stored[at].events.push(record);
            }
        }
        // No ORDER BY above, so that the planner may walk the live games' index and look their rows up.
        for game in &mut stored {
            game.moves.sort_unstable_by_key(|m| m.ply);
            game.events.sort_unstable_by_key(|e| e.seq);
        }
        Ok(stored)
    }

    async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        if has_nul(&[id]) {
            return Ok(None);
        }
        let mut tx = self.snapshot().await?;
        let Some(row) = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games g WHERE g.id = $1"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            tx.commit().await?;
            return Ok(None);
        };
        let moves = sqlx::query(
            "SELECT game_id, ply, seat, wire, clocks, at_ms FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let events =
            sqlx::query("SELECT game_id, seq, kind, data, at_ms FROM events WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(Some(StoredGame {
            game: game_from_row(&row)?,
            moves: moves.iter().map(move_from_row).collect::<Result<_, _>>()?,
            events: events.iter().map(event_from_row).collect::<Result<_, _>>()?,
        }))
    }

    async fn last_game_of_table(&self, table_id: &str) -> Result<Option<StoredGame>, StoreError> {
        if has_nul(&[table_id]) {
            return Ok(None);
        }
        let id: Option<String> = sqlx::query_scalar(
            "SELECT id FROM games WHERE table_id = $1 ORDER BY created_ms DESC, id DESC LIMIT 1",
        )
        .bind(table_id)
        .fetch_optional(&self.read)
        .await?;
        match id {
            Some(id) => self.game(&id).await,
            None => Ok(None),
        }
    }

    async fn games_of_player(
        &self,
        player_id: &str,
        limit: u32,
        before_ms: Option<i64>,
    ) -> Result<Vec<GameRecord>, StoreError> {
        if has_nul(&[player_id]) {
            return Ok(Vec::new());
        }
        // One row per player and game: the index on (player_id, created_ms, game_id) gives the page in order.
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM game_players p JOIN games g ON g.id = p.game_id \
             WHERE p.player_id = $1 AND p.created_ms < $2 \
             ORDER BY p.created_ms DESC, p.game_id DESC LIMIT $3"
        ))
        .bind(player_id)
        .bind(before_ms.unwrap_or(i64::MAX))
        .bind(i64::from(limit))
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(game_from_row)
            .collect::<Result<_, _>>()
            .map_err(StoreError::from)
    }

    // ---- chat

    async fn save_review(
        &self,
        game_id: &str,
        version: &str,
        review: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        refuse_nul(&[game_id, version, review])?;
        self.writable()?;
        let mut tx = self.write.begin().await?;
        let game = sqlx::query("SELECT id FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&mut *tx)
            .await?;
        if game.is_none() {
            return Err(StoreError::NotFound(format!("game {game_id}")));
        }
        sqlx::query(
            "INSERT INTO game_reviews (game_id, version, review, created_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, version) DO NOTHING",
        )
        .bind(game_id)
        .bind(version)
        .bind(review)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn review(&self, game_id: &str, version: &str) -> Result<Option<String>, StoreError> {
        if has_nul(&[game_id, version]) {
            return Ok(None);
        }
        let row = sqlx::query("SELECT review FROM game_reviews WHERE game_id = $1 AND version = $2")
            .bind(game_id)
            .bind(version)
            .fetch_optional(&self.read)
            .await?;
        Ok(row.map(|row| row.try_get("review")).transpose()?)
    }

    async fn add_chat(
        &self,
        table_id: &str,
        player_id: &str,
        text: &str,
        at_ms: i64,
    ) -> Result<ChatRecord, StoreError> {
        refuse_nul(&[table_id, player_id, text])?;
        self.writable()?;
        let mut tx = self.write.begin().await?;
        let row = sqlx::query("UPDATE counters SET value = value + 1 WHERE name = 'chat' RETURNING value")
            .fetch_one(&mut *tx)
            .await?;
        let id: i64 = row.try_get("value")?;
        sqlx::query("INSERT INTO chat (id, table_id, player_id, text, at_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(table_id)
            .bind(player_id)
            .bind(text)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ChatRecord {
            id,
            table_id: table_id.to_owned(),
            player_id: player_id.to_owned(),
            text: text.to_owned(),
            at_ms,
        })
    }

    async fn chat(&self, table_id: &str, limit: u32) -> Result<Vec<ChatRecord>, StoreError> {
        if has_nul(&[table_id]) {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT id, table_id, player_id, text, at_ms FROM chat WHERE table_id = $1 ORDER BY id DESC LIMIT $2",
        )
        .bind(table_id)
        .bind(i64::from(limit))
        .fetch_all(&self.read)
        .await?;
        let mut lines = rows
            .iter()
            .map(|row| {
                Ok(ChatRecord {
                    id: row.try_get("id")?,
                    table_id: row.try_get("table_id")?,
                    player_id: row.try_get("player_id")?,
                    text: row.try_get("text")?,
                    at_ms: row.try_get("at_ms")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        lines.reverse();
        Ok(lines)
    }

    // ---- social

    async fn set_relation(
        &self,
        owner: &str,
        other: &str,
        relation: Relation,
        on: bool,
    ) -> Result<(), StoreError> {
        refuse_nul(&[owner, other])?;
        self.writable()?;
        let sql = if on {
            "INSERT INTO relations (owner, other, relation) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM relations WHERE owner = $1 AND other = $2 AND relation = $3"
        };
        sqlx::query(sql)
            .bind(owner)
            .bind(other)
            .bind(relation.as_str())
            .execute(&self.write)
            .await?;
        Ok(())
    }

    async fn relations(&self, owner: &str) -> Result<Vec<(String, Relation)>, StoreError> {
        if has_nul(&[owner]) {
            return Ok(Vec::new());
        }
        let rows =
            sqlx::query("SELECT other, relation FROM relations WHERE owner = $1 ORDER BY other, relation")
                .bind(owner)
                .fetch_all(&self.read)
                .await?;
        rows.iter()
            .map(|row| {
                let other: String = row.try_get("other")?;
                let name: String = row.try_get("relation")?;
                let relation = Relation::from_name(&name)
                    .ok_or_else(|| StoreError::Corrupt(format!("relation {name:?}")))?;
                Ok((other, relation))
            })
            .collect()
    }

    // ---- ratings

    async fn rating(&self, player_id: &str, pool: &str) -> Result<Option<Rating>, StoreError> {
        if has_nul(&[player_id, pool]) {
            return Ok(None);
        }
        let row = sqlx::query(
            "SELECT player_id, pool, rating, deviation, volatility, games, updated_ms FROM ratings \
             WHERE player_id = $1 AND pool = $2",
        )
        .bind(player_id)
        .bind(pool)
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| rating_from_row(&row))
            .transpose()
            .map_err(StoreError::from)
    }

    async fn ratings(&self, player_id: &str) -> Result<Vec<Rating>, StoreError> {
        if has_nul(&[player_id]) {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT player_id, pool, rating, deviation, volatility, games, updated_ms FROM ratings \
             WHERE player_id = $1 ORDER BY pool",
        )
        .bind(player_id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(rating_from_row)
            .collect::<Result<_, _>>()
            .map_err(StoreError::from)
    }

    async fn rating_changes(&self, game_id: &str) -> Result<Vec<RatingChange>, StoreError> {
        if has_nul(&[game_id]) {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT player_id, pool, rating_before, rating_after FROM rating_history WHERE game_id = $1 \
             ORDER BY player_id, pool",
        )
        .bind(game_id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(RatingChange {
                    player_id: row.try_get("player_id")?,
                    pool: row.try_get("pool")?,
                    before: row.try_get("rating_before")?,
                    after: row.try_get("rating_after")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }
}

/// Applies one write inside the batch's transaction.
async fn apply(conn: &mut AnyConnection, write: &Write) -> Result<(), StoreError> {
    if write_has_nul(write) {
        return Err(StoreError::Invalid("text contains a NUL character".to_owned()));
    }
    match write {
        Write::SetSetting { name, value } => {
            sqlx::query(
                "INSERT INTO settings (name, value) VALUES ($1, $2) \
                 ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            )
            .bind(name)
            .bind(value)
            .execute(&mut *conn)
            .await?;
        }
        Write::UpsertPlayer(player) => {
            sqlx::query(
                "INSERT INTO players (id, nickname, created_ms, last_seen_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (id) DO UPDATE SET nickname = excluded.nickname, last_seen_ms = excluded.last_seen_ms",
            )
            .bind(&player.id)
            .bind(&player.nickname)
            .bind(player.created_ms)
            .bind(player.last_seen_ms)
            .execute(&mut *conn)
            .await?;
        }
        Write::TouchPlayer { id, now_ms } => {
            let done = sqlx::query("UPDATE players SET last_seen_ms = $2 WHERE id = $1")
                .bind(id)
                .bind(*now_ms)
                .execute(&mut *conn)
                .await?;
            expect_row(done.rows_affected(), || format!("player {id}"))?;
        }
        Write::CreateTable(table) => {
            sqlx::query(concat!(
                "INSERT INTO game_tables (",
                table_columns!(),
                ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            ))
            .bind(&table.id)
            .bind(table.code.as_deref())
            .bind(&table.kind)
            .bind(&table.settings)
            .bind(&table.status)
            .bind(&table.owner)
            .bind(table.created_ms)
            .bind(table.updated_ms)
            .execute(&mut *conn)
            .await
            .map_err(about(|| format!("table {}", table.id)))?;
        }
        Write::Fence { table_id, epoch } => {
            fence(
                conn,
                "UPDATE game_tables SET epoch = $2 WHERE id = $1 AND epoch < $2",
                table_id,
                *epoch,
                "has a token of that epoch or more",
            )
            .await?;
        }
        Write::Fenced { table_id, epoch } => {
            fence(
                conn,
                "UPDATE game_tables SET epoch = epoch WHERE id = $1 AND epoch = $2",
                table_id,
                *epoch,
                "is no longer held with that token",
            )
            .await?;
        }
        Write::UpdateTable {
            id,
            status,
            settings,
            updated_ms,
        } => {
            let done = sqlx::query(
                "UPDATE game_tables SET status = COALESCE($2, status), settings = COALESCE($3, settings), \
                 updated_ms = $4 WHERE id = $1",
            )
            .bind(id)
            .bind(status.as_deref())
            .bind(settings.as_deref())
            .bind(*updated_ms)
            .execute(&mut *conn)
            .await?;
            expect_row(done.rows_affected(), || format!("table {id}"))?;
        }
        Write::CreateGame(game) => {
            let players = seated_players(&game.seats)?;
            sqlx::query(
                "INSERT INTO games (id, table_id, kind, setup, seats, rated, status, result, clocks, created_ms, \
                 ended_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(&game.id)
            .bind(&game.table_id)
            .bind(&game.kind)
            .bind(&game.setup)
            .bind(&game.seats)
            .bind(i64::from(game.rated))
            .bind(&game.status)
            .bind(game.result.as_deref())
            .bind(game.clocks.as_deref())
            .bind(game.created_ms)
            .bind(game.ended_ms)
            .execute(&mut *conn)
            .await
            .map_err(about(|| format!("game {}", game.id)))?;
            index_players(conn, &game.id, &players).await?;
        }
        Write::Move(record) => {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, seat, wire, clocks, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&record.game_id)
            .bind(record.ply)
            .bind(record.seat)
            .bind(&record.wire)
            .bind(&record.clocks)
            .bind(record.at_ms)
            .execute(&mut *conn)
            .await
            .map_err(about(|| {
                format!("move {} of game {}", record.ply, record.game_id)
            }))?;
        }
        Write::Event(record) => {
            sqlx::query("INSERT INTO events (game_id, seq, kind, data, at_ms) VALUES ($1, $2, $3, $4, $5)")
                .bind(&record.game_id)
                .bind(record.seq)
                .bind(&record.kind)
                .bind(&record.data)
                .bind(record.at_ms)
                .execute(&mut *conn)
                .await
                .map_err(about(|| {
                    format!("event {} of game {}", record.seq, record.game_id)
                }))?;
        }
        Write::UpdateSeats { game_id, seats } => {
            let players = seated_players(seats)?;
            let done = sqlx::query("UPDATE games SET seats = $2 WHERE id = $1")
                .bind(game_id)
                .bind(seats)
                .execute(&mut *conn)
                .await?;
            expect_row(done.rows_affected(), || format!("game {game_id}"))?;
            sqlx::query("DELETE FROM game_players WHERE game_id = $1")
                .bind(game_id)
                .execute(&mut *conn)
                .await?;
            index_players(conn, game_id, &players).await?;
        }
        Write::UpdateClocks { game_id, clocks } => {
            let done = sqlx::query("UPDATE games SET clocks = $2 WHERE id = $1")
                .bind(game_id)
                .bind(clocks)
                .execute(&mut *conn)
                .await?;
            expect_row(done.rows_affected(), || format!("game {game_id}"))?;
        }
        Write::Finish {
            game_id,
            status,
            result,
            ended_ms,
        } => {
            let done = sqlx::query("UPDATE games SET status = $2, result = $3, ended_ms = $4 WHERE id = $1")
                .bind(game_id)
                .bind(status)
                .bind(result.as_deref())
                .bind(*ended_ms)
                .execute(&mut *conn)
                .await?;
            expect_row(done.rows_affected(), || format!("game {game_id}"))?;
        }
        Write::Rating {
            rating,
            game_id,
            before,
        } => {
            sqlx::query(
                "INSERT INTO rating_history (game_id, player_id, pool, rating_before, rating_after, at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(game_id)
            .bind(&rating.player_id)
            .bind(&rating.pool)
            .bind(*before)
            .bind(rating.rating)
            .bind(rating.updated_ms)
            .execute(&mut *conn)
            .await
            .map_err(about(|| {
                format!(
                    "rating of {} in {} from game {game_id}",
                    rating.player_id, rating.pool
                )
            }))?;
            sqlx::query(
                "INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, updated_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player_id, pool) DO UPDATE SET \
                 rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = excluded.games, updated_ms = excluded.updated_ms",
            )
            .bind(&rating.player_id)
            .bind(&rating.pool)
            .bind(rating.rating)
            .bind(rating.deviation)
            .bind(rating.volatility)
            .bind(rating.games)
            .bind(rating.updated_ms)
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(())
}

/// Runs a fencing-token update of one table; no row changed is [`StoreError::Fenced`].
async fn fence(
    conn: &mut AnyConnection,
    sql: &'static str,
    table_id: &str,
    epoch: i64,
    why: &str,
) -> Result<(), StoreError> {
    let done = sqlx::query(sql)
        .bind(table_id)
        .bind(epoch)
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() == 0 {
        return Err(StoreError::Fenced(format!("table {table_id} {why} ({epoch})")));
    }
    Ok(())
}

/// Whether any text of a write holds a NUL character, which PostgreSQL cannot store in TEXT and SQLite can:
/// refusing it on both keeps the backends alike.
fn write_has_nul(write: &Write) -> bool {
    let texts: &[&str] = match write {
        Write::SetSetting { name, value } => &[name, value],
        Write::UpsertPlayer(p) => &[&p.id, &p.nickname],
        Write::TouchPlayer { id, .. } => &[id],
        Write::Fence { table_id, .. } | Write::Fenced { table_id, .. } => &[table_id],
        Write::CreateTable(t) => &[
            &t.id,
            t.code.as_deref().unwrap_or(""),
            &t.kind,
            &t.settings,
            &t.status,
            &t.owner,
        ],
        Write::UpdateTable {
            id, status, settings, ..
        } => &[
            id,
            status.as_deref().unwrap_or(""),
            settings.as_deref().unwrap_or(""),
        ],
        Write::CreateGame(g) => &[
            &g.id,
            &g.table_id,
            &g.kind,
            &g.setup,
            &g.seats,
            &g.status,
            g.result.as_deref().unwrap_or(""),
            g.clocks.as_deref().unwrap_or(""),
        ],
        Write::Move(m) => &[&m.game_id, &m.wire, &m.clocks],
        Write::Event(e) => &[&e.game_id, &e.kind, &e.data],
        Write::UpdateSeats { game_id, seats } => &[game_id, seats],
        Write::UpdateClocks { game_id, clocks } => &[game_id, clocks],
        Write::Finish {
            game_id,
            status,
            result,
            ..
        } => &[game_id, status, result.as_deref().unwrap_or("")],
        Write::Rating { rating, game_id, .. } => &[&rating.player_id, &rating.pool, game_id],
    };
    has_nul(texts)
}

/// Whether any of the texts holds a NUL character.
pub(crate) fn has_nul(texts: &[&str]) -> bool {
    texts.iter().any(|text| text.contains('\0'))
}

/// Refuses texts with a NUL character (see [`write_has_nul`]).
fn refuse_nul(texts: &[&str]) -> Result<(), StoreError> {
    if has_nul(texts) {
        Err(StoreError::Invalid("text contains a NUL character".to_owned()))
    } else {
        Ok(())
    }
}

/// Rows per multi-row `INSERT INTO moves`: every size up to 16 (a batch of that many moves is one statement, one
/// round trip to the database), then 32 and 64 for bigger batches. Few sizes keep few prepared statements per
/// connection (sqlx caches 100).
const MOVE_CHUNKS: [usize; 18] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 32, 64];

/// The most rows of [`MOVE_CHUNKS`] to take from `left` moves, as an index into it.
fn move_chunk(left: usize) -> usize {
    MOVE_CHUNKS.iter().rposition(|&rows| rows <= left).unwrap_or(0)
}

/// `INSERT INTO moves ... VALUES (...), (...)` with `MOVE_CHUNKS[chunk]` rows, built once per size and backend.
/// SQLite gets anonymous `?` parameters: sqlx looks each numbered parameter's name up, and SQLite finds a name by
/// scanning the statement's list of names, so numbered parameters cost time quadratic in the rows.
fn insert_moves_sql(backend: Backend, chunk: usize) -> &'static str {
    static SQL: [[OnceLock<String>; MOVE_CHUNKS.len()]; 2] =
        [const { [const { OnceLock::new() }; MOVE_CHUNKS.len()] }; 2];
    let numbered = backend == Backend::Postgres;
    SQL[usize::from(numbered)][chunk].get_or_init(|| {
        let rows = MOVE_CHUNKS[chunk];
        let mut sql = String::from("INSERT INTO moves (game_id, ply, seat, wire, clocks, at_ms) VALUES ");
        for row in 0..rows {
            sql.push_str(if row == 0 { "(" } else { ", (" });
            for column in 0..6 {
                if column > 0 {
                    sql.push_str(", ");
                }
                if numbered {
                    sql.push_str(&format!("${}", row * 6 + column + 1));
                } else {
                    sql.push('?');
                }
            }
            sql.push(')');
        }
        sql
    })
}

/// Inserts a run of [`Write::Move`]s (other writes are skipped) in as few statements as [`MOVE_CHUNKS`] allows.
async fn insert_moves(
    conn: &mut AnyConnection,
    backend: Backend,
    writes: &[Write],
) -> Result<(), StoreError> {
    let moves: Vec<&MoveRecord> = writes
        .iter()
        .filter_map(|write| match write {
            Write::Move(record) => Some(record),
            _ => None,
        })
        .collect();
    if moves.iter().any(|m| has_nul(&[&m.game_id, &m.wire, &m.clocks])) {
        return Err(StoreError::Invalid("text contains a NUL character".to_owned()));
    }
    let mut rest = &moves[..];
    while !rest.is_empty() {
        let chunk = move_chunk(rest.len());
        let (these, others) = rest.split_at(MOVE_CHUNKS[chunk].min(rest.len()));
        let mut query = sqlx::query(insert_moves_sql(backend, chunk));
        for record in these {
            query = query
                .bind(&record.game_id)
                .bind(record.ply)
                .bind(record.seat)
                .bind(&record.wire)
                .bind(&record.clocks)
                .bind(record.at_ms);
        }
        query
            .execute(&mut *conn)
            .await
            .map_err(about(|| describe_moves(these)))?;
        rest = others;
    }
    Ok(())
}

/// Names the moves of a failed multi-row insert.
fn describe_moves(moves: &[&MoveRecord]) -> String {
    let named: Vec<String> = moves
        .iter()
        .take(4)
        .map(|m| format!("move {} of game {}", m.ply, m.game_id))
        .collect();
    let more = if moves.len() > named.len() {
        format!(" and {} more", moves.len() - named.len())
    } else {
        String::new()
    };
    format!("one of {}{more}", named.join(", "))
}

/// Writes `game_players` rows for a game that is already inserted (its `created_ms` is copied for the index).
async fn index_players(
    conn: &mut AnyConnection,
    game_id: &str,
    players: &[(i32, String)],
) -> Result<(), StoreError> {
    let mut seen: Vec<&str> = Vec::with_capacity(players.len());
    for (seat, player_id) in players {
        // A player in several seats (a game against oneself) is indexed once, at the first.
        if seen.contains(&player_id.as_str()) {
            continue;
        }
        seen.push(player_id);
        sqlx::query(
            "INSERT INTO game_players (game_id, seat, player_id, created_ms) \
             SELECT id, $2, $3, created_ms FROM games WHERE id = $1",
        )
        .bind(game_id)
        .bind(*seat)
        .bind(player_id)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The players named in a seats JSON array (see [`GameRecord::seats`]), with their seat numbers.
pub(crate) fn seated_players(seats: &str) -> Result<Vec<(i32, String)>, StoreError> {
    let value: serde_json::Value =
        serde_json::from_str(seats).map_err(|error| StoreError::Invalid(format!("seats JSON: {error}")))?;
    let serde_json::Value::Array(seats) = value else {
        return Err(StoreError::Invalid("seats JSON is not an array".to_owned()));
    };
    let mut players = Vec::new();
    for (seat, entry) in seats.iter().enumerate() {
        let player = match entry {
            serde_json::Value::String(id) => Some(id),
            serde_json::Value::Object(fields) => match (fields.get("player"), fields.get("player_id")) {
                (Some(serde_json::Value::String(id)), _) | (_, Some(serde_json::Value::String(id))) => {
                    Some(id)
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(id) = player {
            let seat = i32::try_from(seat).map_err(|_| StoreError::Invalid("too many seats".to_owned()))?;
            players.push((seat, id.clone()));
        }
    }
    Ok(players)
}

/// `NotFound` when an update touched no row.
fn expect_row(rows: u64, what: impl FnOnce() -> String) -> Result<(), StoreError> {
    if rows == 0 {
        Err(StoreError::NotFound(what()))
    } else {
        Ok(())
    }
}

/// Converts an insert's error, naming the row in a conflict or a missing parent.
fn about(what: impl FnOnce() -> String) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |error| match StoreError::from(error) {
        StoreError::Conflict(message) => StoreError::Conflict(format!("{} ({message})", what())),
        StoreError::NotFound(message) => StoreError::NotFound(format!("{} ({message})", what())),
        other => other,
    }
}

fn player_from_row(row: &AnyRow) -> Result<Player, sqlx::Error> {
    Ok(Player {
        id: row.try_get("id")?,
        nickname: row.try_get("nickname")?,
        created_ms: row.try_get("created_ms")?,
        last_seen_ms: row.try_get("last_seen_ms")?,
    })
}

fn table_from_row(row: &AnyRow) -> Result<TableRecord, sqlx::Error> {
    Ok(TableRecord {
        id: row.try_get("id")?,
        code: row.try_get("code")?,
        kind: row.try_get("kind")?,
        settings: row.try_get("settings")?,
        status: row.try_get("status")?,
        owner: row.try_get("owner")?,
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

fn game_from_row(row: &AnyRow) -> Result<GameRecord, sqlx::Error> {
    Ok(GameRecord {
        id: row.try_get("id")?,
        table_id: row.try_get("table_id")?,
        kind: row.try_get("kind")?,
        setup: row.try_get("setup")?,
        seats: row.try_get("seats")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        clocks: row.try_get("clocks")?,
        created_ms: row.try_get("created_ms")?,
        ended_ms: row.try_get("ended_ms")?,
    })
}

fn move_from_row(row: &AnyRow) -> Result<MoveRecord, sqlx::Error> {
    Ok(MoveRecord {
        game_id: row.try_get("game_id")?,
        ply: row.try_get("ply")?,
        seat: row.try_get("seat")?,
        wire: row.try_get("wire")?,
        clocks: row.try_get("clocks")?,
        at_ms: row.try_get("at_ms")?,
    })
}

fn event_from_row(row: &AnyRow) -> Result<EventRecord, sqlx::Error> {
    Ok(EventRecord {
        game_id: row.try_get("game_id")?,
        seq: row.try_get("seq")?,
        kind: row.try_get("kind")?,
        data: row.try_get("data")?,
        at_ms: row.try_get("at_ms")?,
    })
}

fn rating_from_row(row: &AnyRow) -> Result<Rating, sqlx::Error> {
    Ok(Rating {
        player_id: row.try_get("player_id")?,
        pool: row.try_get("pool")?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: row.try_get("games")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_game_write_on_postgres_holds_the_writes_lock() {
        let lock = format!("pg_advisory_xact_lock_shared({})", tuning::POSTGRES_WRITES_LOCK);
        assert!(tuning::POSTGRES_BEGIN_WRITES.ends_with(&lock));
    }

    #[test]
    fn seats_name_players_by_string_or_player_field() {
        let players =
            seated_players(r#"["a", null, {"cpu": 3}, {"player": "b"}, {"player_id": "c"}]"#).unwrap();
        assert_eq!(
            players,
            vec![(0, "a".to_owned()), (3, "b".to_owned()), (4, "c".to_owned())]
        );
    }

    #[tokio::test]
    async fn sqlite_durability_sets_synchronous_wal_and_checkpoints() {
        for (durability, expected) in [
            (SqliteDurability::ProcessCrash, 1),
            (SqliteDurability::PowerLoss, 2),
        ] {
            let path =
                std::env::temp_dir().join(format!("parlor-store-sync-{}-{expected}.db", std::process::id()));
            let db = AnyStore::open_sqlite(&format!("sqlite://{}?mode=rwc", path.display()), durability)
                .await
                .unwrap();
            let row = sqlx::query("PRAGMA synchronous")
                .fetch_one(&db.write)
                .await
                .unwrap();
            assert_eq!(row.try_get::<i64, _>(0).unwrap(), expected);
            let row = sqlx::query("PRAGMA journal_mode")
                .fetch_one(&db.read)
                .await
                .unwrap();
            assert_eq!(row.try_get::<String, _>(0).unwrap(), "wal");
            let row = sqlx::query("PRAGMA foreign_keys")
                .fetch_one(&db.write)
                .await
                .unwrap();
            assert_eq!(row.try_get::<i64, _>(0).unwrap(), 1);
            let row = sqlx::query("PRAGMA wal_autocheckpoint")
                .fetch_one(&db.write)
                .await
                .unwrap();
            assert_eq!(row.try_get::<i64, _>(0).unwrap(), 4000);
            let row = sqlx::query("PRAGMA temp_store")
                .fetch_one(&db.write)
                .await
                .unwrap();
            assert_eq!(row.try_get::<i64, _>(0).unwrap(), 2, "temp_store = MEMORY");
            db.close().await;
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
            }
        }
    }

    #[test]
    fn seats_must_be_a_json_array() {
        assert!(matches!(seated_players("{}"), Err(StoreError::Invalid(_))));
        assert!(matches!(seated_players("not json"), Err(StoreError::Invalid(_))));
    }
}

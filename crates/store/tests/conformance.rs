//! One conformance suite for every backend: SQLite (a real temp file), and PostgreSQL (`PARLOR_TEST_POSTGRES`
//! holds a URL; each test works in its own schema `parlor_test_<uuid>`, dropped at the end). The PostgreSQL cases
//! are ignored unless asked for (`-- --ignored`, as .ci/run does), so a run without PostgreSQL shows them as
//! ignored instead of passing them unrun.
#![allow(clippy::unwrap_used, missing_docs)]

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use parlor_store::{
    AnyStore, Backend, EventRecord, GameRecord, GroupCommit, GroupCommitConfig, MoveRecord, Player, Rating,
    RatingChange, Relation, Store, StoreError, TableRecord, Write, game_status, table_status,
};
use sqlx::Connection;

// ---- harness

/// A fresh, empty database for one test, and how to reopen and remove it.
pub struct TestDb {
    pub url: String,
    pub store: AnyStore,
    place: Place,
}

enum Place {
    File(PathBuf),
    Schema { admin_url: String, schema: String },
}

impl TestDb {
    pub async fn sqlite() -> TestDb {
        let path = std::env::temp_dir().join(format!("parlor-store-test-{}.db", uuid::Uuid::new_v4()));
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let store = AnyStore::open(&url).await.unwrap();
        assert_eq!(store.backend(), Backend::Sqlite);
        TestDb {
            url,
            store,
            place: Place::File(path),
        }
    }

    /// A fresh schema on the PostgreSQL of `PARLOR_TEST_POSTGRES`; a test asked to run without it fails.
    pub async fn postgres() -> TestDb {
        let admin_url = std::env::var("PARLOR_TEST_POSTGRES")
            .expect("PARLOR_TEST_POSTGRES must hold a PostgreSQL URL for the PostgreSQL cases");
        sqlx::any::install_default_drivers();
        let schema = format!("parlor_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = sqlx::AnyConnection::connect(&admin_url).await.unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .execute(&mut admin)
            .await
            .unwrap();
        admin.close().await.unwrap();
        let separator = if admin_url.contains('?') { '&' } else { '?' };
        let url = format!("{admin_url}{separator}options=-c%20search_path%3D{schema}");
        let store = AnyStore::open(&url).await.unwrap();
        assert_eq!(store.backend(), Backend::Postgres);
        TestDb {
            url,
            store,
            place: Place::Schema { admin_url, schema },
        }
    }

    /// Closes the store and opens the same database again, as a restarted server would.
    pub async fn reopen(&mut self) {
        self.store.close().await;
        self.store = AnyStore::open(&self.url).await.unwrap();
    }

    pub async fn remove(self) {
        self.store.close().await;
        match self.place {
            Place::File(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut name = path.clone().into_os_string();
                    name.push(suffix);
                    let _ = std::fs::remove_file(name);
                }
            }
            Place::Schema { admin_url, schema } => {
                let mut admin = sqlx::AnyConnection::connect(&admin_url).await.unwrap();
                sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                    .execute(&mut admin)
                    .await
                    .unwrap();
                admin.close().await.unwrap();
            }
        }
    }
}

/// Runs each listed `async fn name(db: &mut TestDb)` once per backend: `sqlite::name` and `postgres::name` (ignored
/// unless asked for).
macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let mut db = super::TestDb::sqlite().await;
                    super::$name(&mut db).await;
                    db.remove().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs PostgreSQL: set PARLOR_TEST_POSTGRES and run with --ignored (.ci/run does)"]
                async fn $name() {
                    let mut db = super::TestDb::postgres().await;
                    super::$name(&mut db).await;
                    db.remove().await;
                }
            )*
        }
    };
}

conformance!(
    secret_is_generated_once,
    players_are_upserted_renamed_and_touched,
    tables_are_created_found_and_updated,
    a_game_round_trips_with_moves_and_events,
    a_ply_stored_twice_is_a_conflict_and_rolls_back_the_batch,
    writes_to_a_missing_game_are_not_found_and_roll_back,
    bad_seats_and_nul_text_are_refused_alike,
    games_of_a_player_are_indexed_newest_first,
    live_games_come_back_after_a_restart,
    finished_games_are_not_live_but_stay_the_tables_last,
    ratings_change_atomically_with_the_finish,
    chat_keeps_the_newest_lines_in_order,
    relations_are_set_and_cleared,
    concurrent_commits_all_land,
    text_round_trips_exactly,
    group_commit_lands_every_table_and_isolates_a_conflict,
    long_runs_of_moves_are_all_or_nothing,
    one_group_commit_writer_keeps_submission_order,
    a_fence_refuses_the_former_owner,
    no_write_of_the_former_owner_lands_after_the_fence,
    a_review_is_kept_once_per_game_and_version,
);

// ---- fixtures

fn table(id: &str, code: Option<&str>) -> TableRecord {
    TableRecord {
        id: id.to_owned(),
        code: code.map(str::to_owned),
        kind: "chess".to_owned(),
        settings: r#"{"clock":[300000,2000]}"#.to_owned(),
        status: table_status::OPEN.to_owned(),
        owner: "p-owner".to_owned(),
        created_ms: 1_000,
        updated_ms: 1_000,
    }
}

fn game(id: &str, table_id: &str, seats: &str, created_ms: i64) -> GameRecord {
    GameRecord {
        id: id.to_owned(),
        table_id: table_id.to_owned(),
        kind: "chess".to_owned(),
        setup: r#"{"variant":"standard","fen":"startpos"}"#.to_owned(),
        seats: seats.to_owned(),
        rated: true,
        status: game_status::LIVE.to_owned(),
        result: None,
        clocks: Some(r#"[300000,300000]"#.to_owned()),
        created_ms,
        ended_ms: None,
    }
}

fn mv(game_id: &str, ply: i32) -> MoveRecord {
    MoveRecord {
        game_id: game_id.to_owned(),
        ply,
        seat: ply % 2,
        wire: format!("m{ply}"),
        clocks: format!("[{},{}]", 300_000 - ply, 300_000 - 2 * ply),
        at_ms: 10_000 + i64::from(ply),
    }
}

fn event(game_id: &str, seq: i32, kind: &str) -> EventRecord {
    EventRecord {
        game_id: game_id.to_owned(),
        seq,
        kind: kind.to_owned(),
        data: r#"{"by":0}"#.to_owned(),
        at_ms: 20_000 + i64::from(seq),
    }
}

/// A table with one live game `g` between players `a` and `b`.
async fn table_with_game(db: &TestDb, t: &str, g: &str) {
    db.store
        .commit(&[
            Write::CreateTable(table(t, None)),
            Write::CreateGame(game(g, t, r#"["a","b"]"#, 5_000)),
        ])
        .await
        .unwrap();
}

// ---- tests

async fn secret_is_generated_once(db: &mut TestDb) {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..8 {
        let store = db.store.clone();
        let calls = calls.clone();
        tasks.push(tokio::spawn(async move {
            store
                .secret("cookie_key", move || {
                    calls.fetch_add(1, Ordering::SeqCst);
                    format!("key-{i}")
                })
                .await
                .unwrap()
        }));
    }
    let mut values = HashSet::new();
    for task in tasks {
        values.insert(task.await.unwrap());
    }
    assert_eq!(values.len(), 1, "every caller gets the same key: {values:?}");
    assert!(calls.load(Ordering::SeqCst) >= 1);
    let first = values.into_iter().next().unwrap();

    db.reopen().await;
    let again = db
        .store
        .secret("cookie_key", || panic!("the key exists; nothing to generate"))
        .await
        .unwrap();
    assert_eq!(again, first);
    let other = db.store.secret("other", || "x".to_owned()).await.unwrap();
    assert_eq!(other, "x");

    // Plain settings, set in batches (a heartbeat) and read back.
    assert_eq!(db.store.setting("alive/node-1").await.unwrap(), None);
    assert_eq!(db.store.setting("cookie_key").await.unwrap(), Some(first));
    for now in [1_000, 2_000] {
        let write = Write::SetSetting {
            name: "alive/node-1".to_owned(),
            value: now.to_string(),
        };
        db.store.commit(&[write]).await.unwrap();
    }
    assert_eq!(
        db.store.setting("alive/node-1").await.unwrap().as_deref(),
        Some("2000")
    );
}

async fn players_are_upserted_renamed_and_touched(db: &mut TestDb) {
    let s = &db.store;
    assert_eq!(s.player("p1").await.unwrap(), None);
    let p = Player {
        id: "p1".to_owned(),
        nickname: "Ann".to_owned(),
        created_ms: 100,
        last_seen_ms: 100,
    };
    s.upsert_player(&p).await.unwrap();
    assert_eq!(s.player("p1").await.unwrap(), Some(p.clone()));

    let later = Player {
        id: "p1".to_owned(),
        nickname: "Anna".to_owned(),
        created_ms: 999,
        last_seen_ms: 200,
    };
    s.upsert_player(&later).await.unwrap();
    let got = s.player("p1").await.unwrap().unwrap();
    assert_eq!(
        (got.nickname.as_str(), got.created_ms, got.last_seen_ms),
        ("Anna", 100, 200),
        "created_ms is kept"
    );

    s.set_nickname("p1", "Annie").await.unwrap();
    s.touch_player("p1", 300).await.unwrap();
    let got = s.player("p1").await.unwrap().unwrap();
    assert_eq!((got.nickname.as_str(), got.last_seen_ms), ("Annie", 300));

    assert!(matches!(
        s.set_nickname("nobody", "x").await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        s.touch_player("nobody", 1).await,
        Err(StoreError::NotFound(_))
    ));

    // The same writes in a batch (group commit): all or nothing.
    let p2 = Player {
        id: "p2".to_owned(),
        nickname: "Bo".to_owned(),
        created_ms: 5,
        last_seen_ms: 5,
    };
    let batch = [
        Write::UpsertPlayer(p2.clone()),
        Write::TouchPlayer {
            id: "nobody".to_owned(),
            now_ms: 6,
        },
    ];
    assert!(matches!(s.commit(&batch).await, Err(StoreError::NotFound(_))));
    assert_eq!(s.player("p2").await.unwrap(), None);
    s.commit(&[
        Write::UpsertPlayer(p2.clone()),
        Write::TouchPlayer {
            id: "p2".to_owned(),
            now_ms: 7,
        },
    ])
    .await
    .unwrap();
    assert_eq!(
        s.player("p2").await.unwrap(),
        Some(Player {
            last_seen_ms: 7,
            ..p2
        })
    );
}

async fn tables_are_created_found_and_updated(db: &mut TestDb) {
    let s = &db.store;
    s.create_table(&table("t1", None)).await.unwrap();
    s.create_table(&table("t2", Some("ABCD"))).await.unwrap();
    s.create_table(&table("t3", None)).await.unwrap(); // several public tables: NULL codes don't collide
    assert_eq!(s.table("t1").await.unwrap(), Some(table("t1", None)));
    assert_eq!(s.table_by_code("ABCD").await.unwrap().unwrap().id, "t2");
    assert_eq!(s.table_by_code("abcd").await.unwrap(), None);
    assert_eq!(s.table("nope").await.unwrap(), None);

    assert!(matches!(
        s.create_table(&table("t4", Some("ABCD"))).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        s.create_table(&table("t1", None)).await,
        Err(StoreError::Conflict(_))
    ));

    s.update_table_status("t1", table_status::PLAYING, 2_000)
        .await
        .unwrap();
    s.update_table_settings("t1", r#"{"clock":[60000,0]}"#, 3_000)
        .await
        .unwrap();
    let t1 = s.table("t1").await.unwrap().unwrap();
    assert_eq!(t1.status, table_status::PLAYING);
    assert_eq!(t1.settings, r#"{"clock":[60000,0]}"#);
    assert_eq!((t1.created_ms, t1.updated_ms), (1_000, 3_000));

    s.update_table_status("t3", table_status::CLOSED, 2_000)
        .await
        .unwrap();
    let open: Vec<String> = s.open_tables().await.unwrap().into_iter().map(|t| t.id).collect();
    assert_eq!(open, ["t1", "t2"]);

    assert!(matches!(
        s.update_table_status("nope", "open", 1).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        s.update_table_settings("nope", "{}", 1).await,
        Err(StoreError::NotFound(_))
    ));
}

async fn a_game_round_trips_with_moves_and_events(db: &mut TestDb) {
    let s = &db.store;
    let g = game("g1", "t1", r#"["a",{"cpu":3}]"#, 5_000);
    let mut batch = vec![
        Write::CreateTable(table("t1", None)),
        Write::CreateGame(g.clone()),
    ];
    batch.extend((0..4).map(|ply| Write::Move(mv("g1", ply))));
    batch.push(Write::Event(event("g1", 0, "draw_offer")));
    s.commit(&batch).await.unwrap();
    s.commit(&[
        Write::Move(mv("g1", 4)),
        Write::Event(event("g1", 1, "draw_declined")),
    ])
    .await
    .unwrap();
    s.commit(&[]).await.unwrap();

    let stored = s.game("g1").await.unwrap().unwrap();
    assert_eq!(stored.game, g);
    assert_eq!(stored.moves, (0..5).map(|ply| mv("g1", ply)).collect::<Vec<_>>());
    assert_eq!(
        stored.events,
        vec![event("g1", 0, "draw_offer"), event("g1", 1, "draw_declined")]
    );
    assert_eq!(s.game("nope").await.unwrap(), None);

    // Plies need not arrive in order within or across batches; they are read back in order.
    s.commit(&[Write::Move(mv("g1", 6)), Write::Move(mv("g1", 5))])
        .await
        .unwrap();
    let plies: Vec<i32> = s
        .game("g1")
        .await
        .unwrap()
        .unwrap()
        .moves
        .iter()
        .map(|m| m.ply)
        .collect();
    assert_eq!(plies, [0, 1, 2, 3, 4, 5, 6]);
    s.commit(&[
        Write::Event(event("g1", 3, "late")),
        Write::Event(event("g1", 2, "early")),
    ])
    .await
    .unwrap();
    let live = s.live_games().await.unwrap();
    assert_eq!(
        live[0].moves.iter().map(|m| m.ply).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5, 6]
    );
    assert_eq!(
        live[0].events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    assert_eq!(live[0], s.game("g1").await.unwrap().unwrap());
}

async fn a_ply_stored_twice_is_a_conflict_and_rolls_back_the_batch(db: &mut TestDb) {
    let s = &db.store;
    table_with_game(db, "t1", "g1").await;
    s.commit(&[Write::CreateGame(game("g2", "t1", "[]", 6_000))])
        .await
        .unwrap();
    s.commit(&[Write::Move(mv("g1", 0)), Write::Move(mv("g1", 1))])
        .await
        .unwrap();

    // Another game's move and clocks share the batch (group commit): they are rolled back too.
    let batch = [
        Write::Move(mv("g2", 0)),
        Write::UpdateClocks {
            game_id: "g2".to_owned(),
            clocks: "[1,1]".to_owned(),
        },
        Write::Move(MoveRecord {
            wire: "other".to_owned(),
            ..mv("g1", 1)
        }),
    ];
    match s.commit(&batch).await {
        Err(StoreError::Conflict(message)) => assert!(message.contains("move 1 of game g1"), "{message}"),
        other => panic!("expected a conflict, got {other:?}"),
    }
    let g1 = s.game("g1").await.unwrap().unwrap();
    assert_eq!(
        g1.moves,
        vec![mv("g1", 0), mv("g1", 1)],
        "the stored ply 1 is unchanged"
    );
    let g2 = s.game("g2").await.unwrap().unwrap();
    assert!(g2.moves.is_empty(), "the rest of the batch was rolled back");
    assert_eq!(g2.game.clocks.as_deref(), Some("[300000,300000]"));

    // A batch of moves alone (one multi-row statement) is all or nothing too.
    let moves_only = [Write::Move(mv("g2", 0)), Write::Move(mv("g1", 1))];
    match s.commit(&moves_only).await {
        Err(StoreError::Conflict(message)) => assert!(message.contains("game g1"), "{message}"),
        other => panic!("expected a conflict, got {other:?}"),
    }
    let ghost = [Write::Move(mv("g2", 0)), Write::Move(mv("ghost", 0))];
    assert!(matches!(s.commit(&ghost).await, Err(StoreError::NotFound(_))));
    assert!(
        s.game("g2").await.unwrap().unwrap().moves.is_empty(),
        "no move of either batch landed"
    );

    // Same ply twice inside one batch, and a repeated event seq.
    let twice = [Write::Move(mv("g2", 0)), Write::Move(mv("g2", 0))];
    assert!(matches!(s.commit(&twice).await, Err(StoreError::Conflict(_))));
    s.commit(&[Write::Event(event("g2", 0, "x"))]).await.unwrap();
    assert!(matches!(
        s.commit(&[Write::Event(event("g2", 0, "y"))]).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        s.commit(&[Write::CreateGame(game("g2", "t1", "[]", 1))]).await,
        Err(StoreError::Conflict(_))
    ));

    // The store still works after the failures.
    s.commit(&[Write::Move(mv("g2", 0))]).await.unwrap();
    assert_eq!(s.game("g2").await.unwrap().unwrap().moves.len(), 1);
}

async fn writes_to_a_missing_game_are_not_found_and_roll_back(db: &mut TestDb) {
    let s = &db.store;
    table_with_game(db, "t1", "g1").await;
    let missing = [
        Write::Move(mv("ghost", 0)),
        Write::Event(event("ghost", 0, "x")),
        Write::UpdateSeats {
            game_id: "ghost".to_owned(),
            seats: "[]".to_owned(),
        },
        Write::UpdateClocks {
            game_id: "ghost".to_owned(),
            clocks: "[]".to_owned(),
        },
        Write::Finish {
            game_id: "ghost".to_owned(),
            status: "finished".to_owned(),
            result: None,
            ended_ms: 1,
        },
        Write::UpdateTable {
            id: "ghost".to_owned(),
            status: None,
            settings: None,
            updated_ms: 1,
        },
        Write::Rating {
            rating: rating("a", "chess", 1500.0, 1),
            game_id: "ghost".to_owned(),
            before: 1500.0,
        },
    ];
    for write in missing {
        let result = s.commit(&[Write::Move(mv("g1", 0)), write.clone()]).await;
        assert!(
            matches!(result, Err(StoreError::NotFound(_))),
            "{write:?}: {result:?}"
        );
    }
    assert!(
        s.game("g1").await.unwrap().unwrap().moves.is_empty(),
        "every batch was rolled back"
    );
    assert_eq!(s.rating("a", "chess").await.unwrap(), None);
}

async fn bad_seats_and_nul_text_are_refused_alike(db: &mut TestDb) {
    let s = &db.store;
    table_with_game(db, "t1", "g1").await;
    for seats in ["not json", "{}", "\"a\""] {
        let result = s.commit(&[Write::CreateGame(game("g2", "t1", seats, 1))]).await;
        assert!(
            matches!(result, Err(StoreError::Invalid(_))),
            "{seats}: {result:?}"
        );
        let result = s
            .commit(&[Write::UpdateSeats {
                game_id: "g1".to_owned(),
                seats: seats.to_owned(),
            }])
            .await;
        assert!(
            matches!(result, Err(StoreError::Invalid(_))),
            "{seats}: {result:?}"
        );
    }
    assert_eq!(s.game("g2").await.unwrap(), None);

    // PostgreSQL cannot keep NUL in text; both backends refuse it the same way and never fail on lookups.
    let nul = "a\0b";
    assert!(matches!(
        s.commit(&[Write::Move(MoveRecord {
            wire: nul.into(),
            ..mv("g1", 0)
        })])
        .await,
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        s.add_chat("t1", "a", nul, 1).await,
        Err(StoreError::Invalid(_))
    ));
    let p = Player {
        id: "p".into(),
        nickname: nul.into(),
        created_ms: 1,
        last_seen_ms: 1,
    };
    assert!(matches!(s.upsert_player(&p).await, Err(StoreError::Invalid(_))));
    assert!(matches!(
        s.secret(nul, || "x".into()).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        s.touch_player(nul, 1).await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(s.player(nul).await.unwrap(), None);
    assert_eq!(s.table(nul).await.unwrap(), None);
    assert_eq!(s.table_by_code(nul).await.unwrap(), None);
    assert_eq!(s.game(nul).await.unwrap(), None);
    assert!(s.games_of_player(nul, 10, None).await.unwrap().is_empty());
    assert!(s.chat(nul, 10).await.unwrap().is_empty());
    assert!(s.relations(nul).await.unwrap().is_empty());
    assert!(s.ratings(nul).await.unwrap().is_empty());
    assert!(s.rating_changes(nul).await.unwrap().is_empty());
    assert!(s.game("g1").await.unwrap().unwrap().moves.is_empty());
}

async fn games_of_a_player_are_indexed_newest_first(db: &mut TestDb) {
    let s = &db.store;
    s.create_table(&table("t1", None)).await.unwrap();
    let seats = [
        ("g1", r#"["a","b"]"#, 1_000),
        ("g2", r#"[{"player":"b"},{"cpu":5}]"#, 2_000),
        ("g3", r#"["a",null,{"player_id":"c"},"a"]"#, 3_000),
        ("g4", r#"[{"cpu":1},"a"]"#, 4_000),
    ];
    let batch: Vec<Write> = seats
        .iter()
        .map(|&(id, seats, at)| Write::CreateGame(game(id, "t1", seats, at)))
        .collect();
    s.commit(&batch).await.unwrap();

    let ids = |games: Vec<GameRecord>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.games_of_player("a", 10, None).await.unwrap()),
        ["g4", "g3", "g1"],
        "one row per game"
    );
    assert_eq!(ids(s.games_of_player("b", 10, None).await.unwrap()), ["g2", "g1"]);
    assert_eq!(ids(s.games_of_player("c", 10, None).await.unwrap()), ["g3"]);
    assert!(
        s.games_of_player("5", 10, None).await.unwrap().is_empty(),
        "CPU seats are not players"
    );
    assert_eq!(ids(s.games_of_player("a", 2, None).await.unwrap()), ["g4", "g3"]);
    assert_eq!(
        ids(s.games_of_player("a", 2, Some(3_000)).await.unwrap()),
        ["g1"],
        "the next page"
    );
    assert!(s.games_of_player("a", 0, None).await.unwrap().is_empty());

    // A player leaves and another sits down.
    s.commit(&[Write::UpdateSeats {
        game_id: "g1".to_owned(),
        seats: r#"["d","b"]"#.to_owned(),
    }])
    .await
    .unwrap();
    assert_eq!(ids(s.games_of_player("a", 10, None).await.unwrap()), ["g4", "g3"]);
    assert_eq!(ids(s.games_of_player("d", 10, None).await.unwrap()), ["g1"]);
    assert_eq!(s.game("g1").await.unwrap().unwrap().game.seats, r#"["d","b"]"#);
    let full = s.games_of_player("d", 10, None).await.unwrap().remove(0);
    assert_eq!(
        full,
        GameRecord {
            seats: r#"["d","b"]"#.to_owned(),
            ..game("g1", "t1", "", 1_000)
        }
    );
}

async fn live_games_come_back_after_a_restart(db: &mut TestDb) {
    table_with_game(db, "t1", "g1").await;
    let s = &db.store;
    s.commit(&[Write::CreateGame(game("g2", "t1", r#"["c","d"]"#, 6_000))])
        .await
        .unwrap();
    s.commit(&(0..3).map(|ply| Write::Move(mv("g1", ply))).collect::<Vec<_>>())
        .await
        .unwrap();
    s.commit(&[
        Write::Move(mv("g2", 0)),
        Write::Event(event("g2", 0, "takeback_offer")),
        Write::UpdateSeats {
            game_id: "g1".to_owned(),
            seats: r#"["a","e"]"#.to_owned(),
        },
        Write::UpdateClocks {
            game_id: "g1".to_owned(),
            clocks: "[299000,298000]".to_owned(),
        },
    ])
    .await
    .unwrap();

    db.reopen().await;
    let live = db.store.live_games().await.unwrap();
    assert_eq!(
        live.iter().map(|g| g.game.id.as_str()).collect::<Vec<_>>(),
        ["g1", "g2"]
    );
    let g1 = &live[0];
    assert_eq!(g1.game.seats, r#"["a","e"]"#);
    assert_eq!(g1.game.clocks.as_deref(), Some("[299000,298000]"));
    assert_eq!(g1.moves, (0..3).map(|ply| mv("g1", ply)).collect::<Vec<_>>());
    assert!(g1.events.is_empty());
    assert_eq!(live[1].moves, vec![mv("g2", 0)]);
    assert_eq!(live[1].events, vec![event("g2", 0, "takeback_offer")]);
    assert_eq!(live[1], db.store.game("g2").await.unwrap().unwrap());
}

async fn finished_games_are_not_live_but_stay_the_tables_last(db: &mut TestDb) {
    table_with_game(db, "t1", "g1").await;
    let s = &db.store;
    s.commit(&[Write::CreateGame(game("g2", "t1", "[]", 6_000))])
        .await
        .unwrap();
    s.commit(&[
        Write::Move(mv("g1", 0)),
        Write::Finish {
            game_id: "g1".to_owned(),
            status: game_status::FINISHED.to_owned(),
            result: Some(r#"{"winner":0,"reason":"resign"}"#.to_owned()),
            ended_ms: 9_000,
        },
        Write::Finish {
            game_id: "g2".to_owned(),
            status: game_status::ABORTED.to_owned(),
            result: None,
            ended_ms: 9_001,
        },
        Write::UpdateTable {
            id: "t1".to_owned(),
            status: Some(table_status::OPEN.to_owned()),
            settings: None,
            updated_ms: 9_000,
        },
    ])
    .await
    .unwrap();
    assert!(s.live_games().await.unwrap().is_empty());
    let g1 = s.game("g1").await.unwrap().unwrap();
    assert_eq!(g1.game.status, game_status::FINISHED);
    assert_eq!(
        g1.game.result.as_deref(),
        Some(r#"{"winner":0,"reason":"resign"}"#)
    );
    assert_eq!(g1.game.ended_ms, Some(9_000));
    assert_eq!(g1.moves.len(), 1);
    assert_eq!(
        s.game("g2").await.unwrap().unwrap().game.status,
        game_status::ABORTED
    );
    assert_eq!(s.table("t1").await.unwrap().unwrap().updated_ms, 9_000);
    // The table's last game is the newest, whatever its status, with its moves: a restart shows it over.
    let last = s.last_game_of_table("t1").await.unwrap().unwrap();
    assert_eq!(last.game.id, "g2");
    assert_eq!(last.game.status, game_status::ABORTED);
    s.commit(&[Write::CreateGame(game("g3", "t1", "[]", 10_000))])
        .await
        .unwrap();
    s.commit(&[Write::Move(mv("g3", 0)), Write::Move(mv("g3", 1))])
        .await
        .unwrap();
    let last = s.last_game_of_table("t1").await.unwrap().unwrap();
    assert_eq!(last.game.id, "g3");
    assert_eq!(last.game.status, game_status::LIVE);
    assert_eq!(last.moves.iter().map(|m| m.ply).collect::<Vec<_>>(), [0, 1]);
}

fn rating(player: &str, pool: &str, value: f64, games: i32) -> Rating {
    Rating {
        player_id: player.to_owned(),
        pool: pool.to_owned(),
        rating: value,
        deviation: 80.25,
        volatility: 0.06,
        games,
        updated_ms: 9_000 + i64::from(games),
    }
}

async fn ratings_change_atomically_with_the_finish(db: &mut TestDb) {
    table_with_game(db, "t1", "g1").await;
    let s = &db.store;
    assert_eq!(s.rating("a", "chess").await.unwrap(), None);
    let finish = |id: &str| Write::Finish {
        game_id: id.to_owned(),
        status: game_status::FINISHED.to_owned(),
        result: Some(r#"{"winner":0}"#.to_owned()),
        ended_ms: 9_000,
    };
    s.commit(&[
        finish("g1"),
        Write::Rating {
            rating: rating("a", "chess", 1_662.5, 1),
            game_id: "g1".to_owned(),
            before: 1_500.0,
        },
        Write::Rating {
            rating: rating("b", "chess", 1_337.5, 1),
            game_id: "g1".to_owned(),
            before: 1_500.0,
        },
    ])
    .await
    .unwrap();
    assert_eq!(
        s.rating("a", "chess").await.unwrap(),
        Some(rating("a", "chess", 1_662.5, 1))
    );
    assert_eq!(
        s.rating_changes("g1").await.unwrap(),
        vec![
            RatingChange {
                player_id: "a".into(),
                pool: "chess".into(),
                before: 1_500.0,
                after: 1_662.5
            },
            RatingChange {
                player_id: "b".into(),
                pool: "chess".into(),
                before: 1_500.0,
                after: 1_337.5
            },
        ]
    );

    // A second game in another pool; the first pool's rating is replaced, not duplicated.
    s.commit(&[Write::CreateGame(GameRecord {
        kind: "chess4".into(),
        ..game("g2", "t1", r#"["a"]"#, 7_000)
    })])
    .await
    .unwrap();
    s.commit(&[
        finish("g2"),
        Write::Rating {
            rating: rating("a", "chess4", 1_510.0, 1),
            game_id: "g2".to_owned(),
            before: 1_500.0,
        },
        Write::Rating {
            rating: rating("a", "chess", 1_670.0, 2),
            game_id: "g2".to_owned(),
            before: 1_662.5,
        },
    ])
    .await
    .unwrap();
    let pools: Vec<(String, f64, i32)> = s
        .ratings("a")
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.pool, r.rating, r.games))
        .collect();
    assert_eq!(
        pools,
        [
            ("chess".to_owned(), 1_670.0, 2),
            ("chess4".to_owned(), 1_510.0, 1)
        ]
    );

    // Rating the same game twice is refused, and the finish in its batch is rolled back with it.
    s.commit(&[Write::CreateGame(game("g3", "t1", r#"["a"]"#, 8_000))])
        .await
        .unwrap();
    let again = [
        finish("g3"),
        Write::Rating {
            rating: rating("a", "chess", 1_700.0, 3),
            game_id: "g3".to_owned(),
            before: 1_670.0,
        },
        Write::Rating {
            rating: rating("a", "chess", 1_800.0, 4),
            game_id: "g3".to_owned(),
            before: 1_700.0,
        },
    ];
    assert!(matches!(s.commit(&again).await, Err(StoreError::Conflict(_))));
    assert_eq!(s.rating("a", "chess").await.unwrap().unwrap().rating, 1_670.0);
    assert_eq!(
        s.game("g3").await.unwrap().unwrap().game.status,
        game_status::LIVE
    );
    assert!(s.rating_changes("g3").await.unwrap().is_empty());
}

async fn chat_keeps_the_newest_lines_in_order(db: &mut TestDb) {
    let s = &db.store;
    let mut ids = Vec::new();
    for i in 0..5 {
        let line = s
            .add_chat("t1", "a", &format!("line {i}"), 100 + i)
            .await
            .unwrap();
        assert_eq!(
            (line.table_id.as_str(), line.text.clone(), line.at_ms),
            ("t1", format!("line {i}"), 100 + i)
        );
        ids.push(line.id);
        s.add_chat("t2", "b", "elsewhere", 100).await.unwrap();
    }
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "ids increase: {ids:?}");
    let last3 = s.chat("t1", 3).await.unwrap();
    assert_eq!(
        last3.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
        ["line 2", "line 3", "line 4"]
    );
    assert_eq!(last3.iter().map(|l| l.id).collect::<Vec<_>>(), ids[2..]);
    assert_eq!(s.chat("t1", 100).await.unwrap().len(), 5);
    assert!(s.chat("t1", 0).await.unwrap().is_empty());
    assert!(s.chat("t3", 10).await.unwrap().is_empty());

    // Ids stay unique when lines arrive concurrently.
    let mut tasks = Vec::new();
    for i in 0..20 {
        let store = db.store.clone();
        tasks.push(tokio::spawn(async move {
            store.add_chat("t4", "c", "hi", i).await.unwrap().id
        }));
    }
    let mut seen = HashSet::new();
    for task in tasks {
        assert!(seen.insert(task.await.unwrap()));
    }
    assert_eq!(db.store.chat("t4", 100).await.unwrap().len(), 20);
}

async fn relations_are_set_and_cleared(db: &mut TestDb) {
    let s = &db.store;
    assert!(s.relations("a").await.unwrap().is_empty());
    s.set_relation("a", "c", Relation::Favourite, true).await.unwrap();
    s.set_relation("a", "b", Relation::Block, true).await.unwrap();
    s.set_relation("a", "b", Relation::Block, true).await.unwrap(); // idempotent
    s.set_relation("a", "b", Relation::Mute, true).await.unwrap();
    s.set_relation("b", "a", Relation::Mute, true).await.unwrap();
    assert_eq!(
        s.relations("a").await.unwrap(),
        vec![
            ("b".to_owned(), Relation::Block),
            ("b".to_owned(), Relation::Mute),
            ("c".to_owned(), Relation::Favourite)
        ]
    );
    s.set_relation("a", "b", Relation::Block, false).await.unwrap();
    s.set_relation("a", "x", Relation::Block, false).await.unwrap(); // clearing nothing is fine
    assert_eq!(
        s.relations("a").await.unwrap(),
        vec![
            ("b".to_owned(), Relation::Mute),
            ("c".to_owned(), Relation::Favourite)
        ]
    );
    assert_eq!(
        s.relations("b").await.unwrap(),
        vec![("a".to_owned(), Relation::Mute)]
    );
}

async fn concurrent_commits_all_land(db: &mut TestDb) {
    db.store.create_table(&table("t1", None)).await.unwrap();
    let games: Vec<String> = (0..16).map(|i| format!("g{i}")).collect();
    let batch: Vec<Write> = games
        .iter()
        .map(|id| Write::CreateGame(game(id, "t1", r#"["a"]"#, 1)))
        .collect();
    db.store.commit(&batch).await.unwrap();
    let mut tasks = Vec::new();
    for id in games.clone() {
        let store = db.store.clone();
        tasks.push(tokio::spawn(async move {
            for ply in 0..25 {
                store.commit(&[Write::Move(mv(&id, ply))]).await.unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let live = db.store.live_games().await.unwrap();
    assert_eq!(live.len(), 16);
    for stored in live {
        assert_eq!(
            stored.moves,
            (0..25).map(|ply| mv(&stored.game.id, ply)).collect::<Vec<_>>()
        );
    }
}

async fn text_round_trips_exactly(db: &mut TestDb) {
    let s = &db.store;
    let odd = "ñandú 💡 বাংলা मराठी 'quote' \"dq\" \\ back; DROP TABLE games; -- %_ \n\t";
    let p = Player {
        id: odd.to_owned(),
        nickname: odd.to_owned(),
        created_ms: i64::MIN,
        last_seen_ms: i64::MAX,
    };
    s.upsert_player(&p).await.unwrap();
    assert_eq!(s.player(odd).await.unwrap(), Some(p));
    let line = s.add_chat(odd, odd, odd, 0).await.unwrap();
    assert_eq!(s.chat(odd, 1).await.unwrap(), vec![line]);
    s.create_table(&TableRecord {
        code: Some(odd.to_owned()),
        ..table(odd, None)
    })
    .await
    .unwrap();
    assert_eq!(s.table_by_code(odd).await.unwrap().unwrap().id, odd);
    let g = GameRecord {
        rated: false,
        result: Some(odd.to_owned()),
        ended_ms: Some(-1),
        ..game(odd, odd, "[]", 0)
    };
    s.commit(&[
        Write::CreateGame(g.clone()),
        Write::Move(MoveRecord {
            wire: odd.to_owned(),
            ply: i32::MAX,
            seat: -1,
            ..mv(odd, 0)
        }),
    ])
    .await
    .unwrap();
    let stored = s.game(odd).await.unwrap().unwrap();
    assert_eq!(stored.game, g);
    assert_eq!(
        (stored.moves[0].wire.as_str(), stored.moves[0].ply),
        (odd, i32::MAX)
    );
    let r = Rating {
        rating: -0.5,
        deviation: 1e-300,
        volatility: 1e300,
        ..rating(odd, odd, 0.0, 0)
    };
    s.commit(&[Write::Rating {
        rating: r.clone(),
        game_id: odd.to_owned(),
        before: f64::MIN_POSITIVE,
    }])
    .await
    .unwrap();
    assert_eq!(s.rating(odd, odd).await.unwrap(), Some(r));
}

async fn group_commit_lands_every_table_and_isolates_a_conflict(db: &mut TestDb) {
    db.store.create_table(&table("t1", None)).await.unwrap();
    let games: Vec<String> = (0..40).map(|i| format!("g{i}")).collect();
    let mut batch: Vec<Write> = games
        .iter()
        .map(|id| Write::CreateGame(game(id, "t1", r#"["a"]"#, 1)))
        .collect();
    batch.push(Write::CreateGame(game("bad", "t1", "[]", 1)));
    batch.push(Write::Move(mv("bad", 0)));
    db.store.commit(&batch).await.unwrap();

    let config = GroupCommitConfig {
        max_writes: 16,
        ..GroupCommitConfig::for_backend(db.store.backend())
    };
    let (group, writers) = GroupCommit::spawn(db.store.clone(), config);
    let mut tasks = Vec::new();
    for id in games.clone() {
        let group = group.clone();
        tasks.push(tokio::spawn(async move {
            for ply in 0..10 {
                group
                    .commit(vec![
                        Write::Move(mv(&id, ply)),
                        Write::Event(event(&id, ply, "clock")),
                    ])
                    .await
                    .unwrap();
            }
        }));
    }
    // A table that keeps resending a stored ply: it alone is refused, every time.
    let bad = {
        let group = group.clone();
        tokio::spawn(async move {
            for _ in 0..10 {
                let result = group.commit(vec![Write::Move(mv("bad", 0))]).await;
                assert!(matches!(result, Err(StoreError::Conflict(_))), "{result:?}");
                tokio::task::yield_now().await;
            }
        })
    };
    for task in tasks {
        task.await.unwrap();
    }
    bad.await.unwrap();
    assert!(group.transactions() >= 1);
    assert!(
        group.transactions() <= 40 * 10 + 2 * 10,
        "{}",
        group.transactions()
    );

    for id in &games {
        let stored = db.store.game(id).await.unwrap().unwrap();
        assert_eq!(stored.moves, (0..10).map(|ply| mv(id, ply)).collect::<Vec<_>>());
        assert_eq!(stored.events.len(), 10);
    }
    assert_eq!(
        db.store.game("bad").await.unwrap().unwrap().moves,
        vec![mv("bad", 0)]
    );

    // The writers end once every handle is gone.
    let spare = group.clone();
    drop(group);
    db.store.close().await;
    assert!(matches!(
        spare.commit(vec![Write::Move(mv("g0", 10))]).await,
        Err(StoreError::Closed)
    ));
    drop(spare);
    tokio::time::timeout(std::time::Duration::from_secs(10), writers)
        .await
        .unwrap()
        .unwrap();
    db.reopen().await;
}

async fn long_runs_of_moves_are_all_or_nothing(db: &mut TestDb) {
    db.store.create_table(&table("t1", None)).await.unwrap();
    let games: Vec<String> = (0..30).map(|i| format!("g{i}")).collect();
    let batch: Vec<Write> = games
        .iter()
        .map(|id| Write::CreateGame(game(id, "t1", "[]", 1)))
        .collect();
    db.store.commit(&batch).await.unwrap();
    // 30 games x 5 plies = 150 moves in one run, plies of a game spread through the batch.
    let run: Vec<Write> = (0..5)
        .flat_map(|ply| games.iter().map(move |id| Write::Move(mv(id, ply))))
        .collect();

    // A repeated move deep in the run, then one for a missing game: the whole batch is refused each time.
    let mut spoiled = run.clone();
    spoiled.insert(133, Write::Move(mv("g7", 2)));
    match db.store.commit(&spoiled).await {
        Err(StoreError::Conflict(message)) => assert!(message.contains("game g"), "{message}"),
        other => panic!("expected a conflict, got {other:?}"),
    }
    let mut spoiled = run.clone();
    spoiled.push(Write::Move(mv("ghost", 0)));
    assert!(matches!(
        db.store.commit(&spoiled).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(
        db.store
            .live_games()
            .await
            .unwrap()
            .iter()
            .all(|g| g.moves.is_empty())
    );

    db.store.commit(&run).await.unwrap();
    for stored in db.store.live_games().await.unwrap() {
        assert_eq!(
            stored.moves,
            (0..5).map(|ply| mv(&stored.game.id, ply)).collect::<Vec<_>>()
        );
    }
}

async fn one_group_commit_writer_keeps_submission_order(db: &mut TestDb) {
    db.store.create_table(&table("t1", None)).await.unwrap();
    let config = GroupCommitConfig::for_backend(db.store.backend());
    assert_eq!(config.writers, 1);
    let (group, writers) = GroupCommit::spawn(db.store.clone(), config);
    // Each table pipelines: the game, then its moves, without waiting for an answer in between.
    let mut tasks = Vec::new();
    for i in 0..20 {
        let group = group.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("g{i}");
            let (created, first, second) = tokio::join!(
                group.commit(vec![Write::CreateGame(game(&id, "t1", r#"["a"]"#, i))]),
                group.commit(vec![Write::Move(mv(&id, 0))]),
                group.commit(vec![Write::Move(mv(&id, 1)), Write::Event(event(&id, 0, "x"))]),
            );
            created.unwrap();
            first.unwrap();
            second.unwrap();
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    drop(group);
    writers.await.unwrap();
    let live = db.store.live_games().await.unwrap();
    assert_eq!(live.len(), 20);
    assert!(live.iter().all(|g| g.moves.len() == 2 && g.events.len() == 1));
}

async fn a_fence_refuses_the_former_owner(db: &mut TestDb) {
    table_with_game(db, "t1", "g1").await;
    let fenced = |epoch| Write::Fenced {
        table_id: "t1".into(),
        epoch,
    };
    let fence = |epoch| Write::Fence {
        table_id: "t1".into(),
        epoch,
    };
    db.store.commit(&[fence(5)]).await.unwrap();
    db.store
        .commit(&[fenced(5), Write::Move(mv("g1", 0))])
        .await
        .unwrap();
    // The same token, or a lower one, cannot be taken twice.
    assert!(matches!(
        db.store.commit(&[fence(5)]).await,
        Err(StoreError::Fenced(_))
    ));
    assert!(matches!(
        db.store.commit(&[fence(3)]).await,
        Err(StoreError::Fenced(_))
    ));
    // Another node takes over with a higher token: the former owner's batch is refused whole.
    db.store.commit(&[fence(7)]).await.unwrap();
    let refused = db.store.commit(&[fenced(5), Write::Move(mv("g1", 1))]).await;
    assert!(matches!(refused, Err(StoreError::Fenced(_))), "{refused:?}");
    let live = db.store.last_game_of_table("t1").await.unwrap().unwrap();
    assert_eq!(live.game.id, "g1");
    assert_eq!(live.moves.len(), 1);
    db.store
        .commit(&[fenced(7), Write::Move(mv("g1", 1))])
        .await
        .unwrap();
    let live = db.store.last_game_of_table("t1").await.unwrap().unwrap();
    assert_eq!(live.moves.iter().map(|m| m.ply).collect::<Vec<_>>(), [0, 1]);
    // No such table: nothing to fence, and no live game.
    let missing = db
        .store
        .commit(&[Write::Fence {
            table_id: "nope".into(),
            epoch: 1,
        }])
        .await;
    assert!(matches!(missing, Err(StoreError::Fenced(_))));
    assert!(db.store.last_game_of_table("nope").await.unwrap().is_none());
}

/// The former owner keeps committing moves while a new owner fences the table and reads it: every commit the
/// former owner saw succeed is in what the new owner read, and none succeeds after the fence.
async fn no_write_of_the_former_owner_lands_after_the_fence(db: &mut TestDb) {
    table_with_game(db, "t1", "g1").await;
    db.store
        .commit(&[Write::Fence {
            table_id: "t1".into(),
            epoch: 1,
        }])
        .await
        .unwrap();
    let store = Arc::new(db.store.clone());
    let old = {
        let store = store.clone();
        tokio::spawn(async move {
            let mut acknowledged = 0;
            for ply in 0..10_000 {
                let batch = [
                    Write::Fenced {
                        table_id: "t1".into(),
                        epoch: 1,
                    },
                    Write::Move(mv("g1", ply)),
                ];
                match store.commit(&batch).await {
                    Ok(()) => acknowledged += 1,
                    Err(StoreError::Fenced(_)) => return acknowledged,
                    Err(e) => panic!("{e}"),
                }
            }
            acknowledged
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    store
        .commit(&[Write::Fence {
            table_id: "t1".into(),
            epoch: 2,
        }])
        .await
        .unwrap();
    let read = store.last_game_of_table("t1").await.unwrap().unwrap().moves.len();
    let acknowledged = old.await.unwrap();
    assert!(acknowledged > 0, "the former owner never wrote");
    assert_eq!(
        read, acknowledged,
        "the new owner read {read} moves, the former owner had {acknowledged} acknowledged"
    );
}

async fn a_review_is_kept_once_per_game_and_version(db: &mut TestDb) {
    table_with_game(db, "t1", "g1").await;
    assert_eq!(db.store.review("g1", "v1").await.unwrap(), None);
    db.store
        .save_review("g1", "v1", r#"{"moves":[]}"#, 10)
        .await
        .unwrap();
    // A second node finishing the same review keeps the first.
    db.store
        .save_review("g1", "v1", r#"{"moves":[1]}"#, 11)
        .await
        .unwrap();
    assert_eq!(
        db.store.review("g1", "v1").await.unwrap().as_deref(),
        Some(r#"{"moves":[]}"#)
    );
    // Another engine version is another review; another game has none.
    db.store.save_review("g1", "v2", "{}", 12).await.unwrap();
    assert_eq!(db.store.review("g1", "v2").await.unwrap().as_deref(), Some("{}"));
    assert_eq!(db.store.review("g2", "v1").await.unwrap(), None);
    assert!(matches!(
        db.store.save_review("g2", "v1", "{}", 13).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        db.store.save_review("g1", "v3", "a\0b", 13).await,
        Err(StoreError::Invalid(_))
    ));
}

//! The store fails under a running server: its SQLite file is made read-only, then deleted. Moves are refused as
//! `unavailable` (never acknowledged), `/healthz` says why with a 503, and play resumes once the file is writable
//! again. A page view stores nothing: players are stored when their socket says hello.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, http_get};
use serde_json::{Value, json};
use std::path::PathBuf;

fn db_path(server: &Server) -> PathBuf {
    server.dir.0.join("parlor.db")
}

async fn healthz(server: &Server) -> (u16, String) {
    let (head, body) = http_get(server.addr, "/healthz", None).await;
    (head.split_whitespace().nth(1).unwrap().parse().unwrap(), body)
}

fn legal(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["wire"].as_str().unwrap().to_owned())
        .collect()
}

fn set_readonly(path: &PathBuf, on: bool) {
    let mut perms = std::fs::metadata(path).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(on);
    std::fs::set_permissions(path, perms).unwrap();
}

#[tokio::test]
async fn a_read_only_or_deleted_database_refuses_moves_and_says_so() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = common::two_player_game(
        &mut a,
        &mut b,
        json!({"game": "chess", "seats": [{"kind": "me"}]}),
    )
    .await;
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    assert_eq!(healthz(&server).await.0, 200);

    // Read-only: refused, and /healthz says why.
    set_readonly(&db_path(&server), true);
    let reply = b.play(&table, 1, "e7e5").await;
    assert_eq!(reply["t"], "error", "{reply}");
    assert_eq!(reply["code"], "unavailable", "{reply}");
    let (code, body) = healthz(&server).await;
    assert_eq!(code, 503);
    assert!(body.contains("read-only"), "{body}");

    // Writable again: the same move is taken, and the store is healthy.
    set_readonly(&db_path(&server), false);
    assert_eq!(b.play(&table, 1, "e7e5").await["t"], "ack");
    let moved = a
        .until("moved", |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == 2
        })
        .await;
    assert!(legal(&moved["event"]["legal"]).contains(&"g1f3".to_owned()));
    // The probe's last outcome is reused for a second; a real commit just succeeded, so no probe is needed.
    let (code, body) = healthz(&server).await;
    assert_eq!(code, 200, "{body}");

    // Deleted: SQLite would go on writing into the unlinked file; every write is refused instead.
    let moved_away = server.dir.0.join("moved-away.db");
    std::fs::rename(db_path(&server), &moved_away).unwrap();
    let reply = a.play(&table, 2, "g1f3").await;
    assert_eq!(reply["code"], "unavailable", "{reply}");
    let (code, body) = healthz(&server).await;
    assert_eq!(code, 503);
    assert!(body.contains("deleted"), "{body}");
    // Back in place: play goes on.
    std::fs::rename(&moved_away, db_path(&server)).unwrap();
    assert_eq!(a.play(&table, 2, "g1f3").await["t"], "ack");
    server.stop().await;
}

#[tokio::test]
async fn a_page_view_stores_no_player_and_hello_does() {
    let server = Server::start().await;
    let (_, before) = http_get(server.addr, "/metrics", None).await;
    let commits = |text: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix("parlor_store_commit_seconds_count "))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let cookies: Vec<String> =
        futures_util::future::join_all((0..20).map(|_| common::cookie(server.addr))).await;
    let (_, after) = http_get(server.addr, "/metrics", None).await;
    assert_eq!(commits(&before), commits(&after), "page views wrote to the store");
    // The first socket of a cookie stores its player, with a guest name.
    let client = Client::connect(server.addr, Some(&cookies[0])).await;
    assert!(client.name.starts_with("Guest-"), "{}", client.name);
    let (_, stored) = http_get(server.addr, "/metrics", None).await;
    assert!(commits(&stored) > commits(&after));
    // The same browser again is the same player.
    let again = Client::connect(server.addr, Some(&cookies[0])).await;
    assert_eq!(again.id, client.id);
    server.stop().await;
}

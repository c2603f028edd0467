//! Games at private tables are shown only to those who sat: the game API, its export and a player's history
//! leave them out for everyone else, as if they did not exist. Public games stay open to all.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, fools_mate, http_get};
use serde_json::json;

fn status(head: &str) -> u16 {
    head.split_whitespace().nth(1).unwrap().parse().unwrap()
}

async fn history_ids(viewer: &mut Client, player: &str) -> Vec<String> {
    viewer.send(json!({"t": "history", "player": player})).await;
    let history = viewer.expect("history").await;
    history["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn private_games_are_shown_only_to_those_who_sat() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let mut c = server.client().await;
    let private = fools_mate(&mut a, &mut b, true).await;
    let public = fools_mate(&mut a, &mut b, false).await;

    for path in [
        format!("/api/game/{private}"),
        format!("/api/game/{private}/export"),
    ] {
        // A stranger, and no cookie at all: not found.
        assert_eq!(
            status(&http_get(server.addr, &path, c.cookie.as_deref()).await.0),
            404,
            "{path}"
        );
        assert_eq!(status(&http_get(server.addr, &path, None).await.0), 404, "{path}");
        // Both players: the game.
        for player in [&a, &b] {
            let (head, body) = http_get(server.addr, &path, player.cookie.as_deref()).await;
            assert_eq!(status(&head), 200, "{path}: {body}");
        }
    }
    for path in [
        format!("/api/game/{public}"),
        format!("/api/game/{public}/export"),
    ] {
        assert_eq!(status(&http_get(server.addr, &path, None).await.0), 200, "{path}");
    }

    let a_id = a.id.clone();
    let seen_by_c = history_ids(&mut c, &a_id).await;
    assert_eq!(seen_by_c, vec![public.clone()]);
    let seen_by_b = history_ids(&mut b, &a_id).await;
    assert_eq!(seen_by_b, vec![public.clone(), private.clone()]);
    let own = history_ids(&mut a, &a_id).await;
    assert_eq!(own, vec![public, private]);
    server.stop().await;
}

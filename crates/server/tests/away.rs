//! Absence is counted so that nobody can hold a game hostage: time away adds up within a turn (leaving and coming
//! back every few seconds does not start the grace period again), and a turn of an untimed game that lasts too
//! long while another person waits ends as an absence does.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, two_player_game};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn time_away_adds_up_across_reconnections() {
    let grace = Duration::from_millis(2000);
    let server = Server::start_with(|c| c.grace = grace).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(
        &mut a,
        &mut b,
        json!({"game": "chess", "seats": [{"kind": "me"}]}),
    )
    .await;
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    let cookie = b.cookie.clone();
    // Black is away 1.2 s, comes back, and leaves again.
    drop(b);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut b = Client::connect(server.addr, cookie.as_deref()).await;
    b.send(json!({"t": "open", "table": table})).await;
    b.expect("table").await;
    a.until("back", |v| {
        v["t"] == "event"
            && v["event"]["e"] == "seat"
            && v["event"]["seat"] == 1
            && v["event"]["info"]["away"] == false
    })
    .await;
    drop(b);
    let left = Instant::now();
    // Only the 0.8 s left of the grace period remain, not a new 2 s.
    let ended = a.event("ended").await;
    let took = left.elapsed();
    assert_eq!(ended["event"]["outcome"]["reason"], "abandoned");
    assert!(
        took < Duration::from_millis(1500),
        "the second absence lasted {took:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_untimed_turn_cannot_last_for_ever_while_someone_waits() {
    let server = Server::start_with(|c| c.untimed_turn = Duration::from_millis(1500)).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let none = json!({"base_ms": null, "increment_ms": 0, "per_move_ms": null});
    let table = two_player_game(
        &mut a,
        &mut b,
        json!({"game": "chess", "time": none, "seats": [{"kind": "me"}]}),
    )
    .await;
    let started = Instant::now();
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    // Black stays connected and never moves: the turn ends as an absence.
    let ended = a.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["reason"], "abandoned");
    assert_eq!(ended["event"]["outcome"]["winner"], 0);
    assert!(started.elapsed() >= Duration::from_millis(1400));
    server.stop().await;
}

#[tokio::test]
async fn an_untimed_game_against_the_computer_waits_for_the_player() {
    let server = Server::start_with(|c| c.untimed_turn = Duration::from_millis(500)).await;
    let mut a = server.client().await;
    let none = json!({"base_ms": null, "increment_ms": 0, "per_move_ms": null});
    let (table, _, _) = a
        .create(json!({"game": "chess", "time": none, "seats": [{"kind": "me"}, {"kind": "cpu", "level": "easy"}]}))
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // Nobody waits for the player: the game is still on.
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    server.stop().await;
}

//! Four-player tables cannot be stalled: the default clock is 60 s a turn, a seat that lets its turn run out is
//! played by a CPU (the game goes on, the player keeps the seat's place), and a move limit of 0 is refused.
#![allow(clippy::unwrap_used)]

mod common;

use common::Server;
use serde_json::json;

fn cpus() -> serde_json::Value {
    json!([{"kind": "me"}, {"kind": "cpu", "level": "easy"}, {"kind": "cpu", "level": "easy"}, {"kind": "cpu", "level": "easy"}])
}

#[tokio::test]
async fn a_four_player_table_has_a_turn_clock_by_default_and_refuses_a_zero_move_limit() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let (_, _, state) = a.create(json!({"game": "chess4", "seats": cpus()})).await;
    assert_eq!(state["state"]["spec"]["time"]["per_move_ms"], 60_000);
    assert_eq!(state["state"]["spec"]["time"]["base_ms"], serde_json::Value::Null);
    let clocks = &state["state"]["game"]["clocks"];
    assert_eq!(
        clocks["move_left_ms"].as_u64().map(|ms| ms > 59_000),
        Some(true),
        "{clocks}"
    );

    a.send(json!({"t": "create", "spec": {"game": "chess4", "rules": {"move_limit": 0}, "seats": cpus()}}))
        .await;
    let error = a.error("bad_spec").await;
    assert!(
        error["message"].as_str().unwrap().contains("move limit"),
        "{error}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_four_player_seat_that_runs_out_of_time_is_played_by_a_cpu() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let spec = json!({
        "game": "chess4",
        "time": {"base_ms": null, "increment_ms": 0, "per_move_ms": 1000},
        "seats": cpus(),
    });
    let (_table, _, state) = a.create(spec).await;
    assert_eq!(state["state"]["game"]["turn"], 0);
    // We never move: after a second a CPU takes our seat, moves for it, and the game goes on.
    let seat = a
        .until("a CPU in seat 0", |v| {
            v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["seat"] == 0
        })
        .await;
    assert!(seat["event"]["info"]["cpu"].is_string(), "{seat}");
    assert_eq!(seat["event"]["info"]["player"]["id"], a.id.as_str(), "{seat}");
    let moved = a
        .until("seat 0 moves", |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["seat"] == 0
        })
        .await;
    assert_eq!(moved["event"]["ply"], 1);
    // The game is not over: nobody was eliminated for the timeout.
    let next = a
        .until("the others move", |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == 4
        })
        .await;
    assert_eq!(
        next["event"]["eliminated"],
        json!([false, false, false, false]),
        "{next}"
    );
    server.stop().await;
}

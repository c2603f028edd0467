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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_seat_a_cpu_took_for_time_takes_it_back_by_opening_the_table_again() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let spec = json!({
        "game": "chess4",
        "time": {"base_ms": null, "increment_ms": 0, "per_move_ms": 1500},
        "seats": cpus(),
    });
    let (table, _, _) = a.create(spec).await;
    a.until("a CPU in seat 0", |v| {
        v["t"] == "event"
            && v["event"]["e"] == "seat"
            && v["event"]["seat"] == 0
            && v["event"]["info"]["cpu"].is_string()
    })
    .await;
    // Still connected, the player asks for the seat back (the web page's "I will play myself").
    a.send(json!({"t": "open", "table": table})).await;
    let state = a.expect("table").await;
    let back = a
        .until("seat 0 is ours again", |v| {
            v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["seat"] == 0
        })
        .await;
    assert!(back["event"]["info"]["cpu"].is_null(), "{back}");
    assert_eq!(back["event"]["info"]["player"]["id"], a.id.as_str(), "{back}");
    // On our turn nobody moves for us: our own move is taken.
    let game = &state["state"]["game"];
    let (ply, legal) = if game["turn"] == 0 {
        (game["moves"].as_array().unwrap().len(), game["legal"].clone())
    } else {
        let turn = a
            .until("our turn", |v| {
                v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["turn"] == 0
            })
            .await;
        (
            turn["event"]["ply"].as_u64().unwrap() as usize,
            turn["event"]["legal"].clone(),
        )
    };
    let wire = legal[0]["wire"].as_str().unwrap().to_owned();
    let answer = a.play(&table, ply as u32, &wire).await;
    assert_eq!(answer["t"], "ack", "{answer}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computers_at_a_four_player_table_with_a_person_move_at_a_pace_one_can_follow() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let spec = json!({
        "game": "chess4",
        "time": {"base_ms": null, "increment_ms": 0, "per_move_ms": null},
        "seats": cpus(),
    });
    let (table, _, state) = a.create(spec).await;
    let wire = state["state"]["game"]["legal"][0]["wire"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(a.play(&table, 0, &wire).await["t"], "ack");
    let mut last = std::time::Instant::now();
    for ply in 2..=4u64 {
        a.until("a computer's move", move |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == ply
        })
        .await;
        let gap = last.elapsed();
        assert!(
            gap >= std::time::Duration::from_millis(600),
            "move {ply} came {gap:?} after the one before"
        );
        last = std::time::Instant::now();
    }
    server.stop().await;
}

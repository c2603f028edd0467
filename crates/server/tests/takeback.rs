//! Takeback against the computer over a real websocket and a real SQLite file: the game goes back to before the
//! player's last move (with the computer's answer), a restarted server and the game API replay the same game;
//! between two people it needs the other's yes, and a move lets the request lapse; refused before the player's
//! first move and at a rated table.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, http_get, two_player_game};
use serde_json::{Value, json};

fn wires(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["wire"].as_str().unwrap().to_owned())
        .collect()
}

/// A server with two people at a table of `spec`, after White's 1. e4: (server, White, Black, table).
async fn white_opened(spec: Value) -> (Server, Client, Client, String) {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, spec).await;
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    (server, a, b, table)
}

/// Waits for the computer's answer at ply `ply` (1-based) and returns its event.
async fn cpu_answer(a: &mut Client, ply: u32) -> Value {
    a.until("cpu move", move |v| {
        v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == ply
    })
    .await
}

#[tokio::test]
async fn a_takeback_against_the_computer_is_stored_and_replayed_after_a_restart() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let spec = json!({"game": "chess", "seats": [{"kind": "me"}, {"kind": "cpu", "level": "easy"}],
        "time": {"base_ms": 600000, "increment_ms": 0, "per_move_ms": null}});
    let (table, _, _) = a.create(spec).await;
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    let reply = cpu_answer(&mut a, 2).await;
    let cpu_first = reply["event"]["wire"].as_str().unwrap().to_owned();
    assert_eq!(a.play(&table, 2, "d2d4").await["t"], "ack");
    cpu_answer(&mut a, 4).await;

    a.send(json!({"t": "takeback", "table": table})).await;
    let took = a.event("took_back").await;
    let game = &took["event"]["game"];
    assert_eq!(
        wires(game),
        ["e2e4", cpu_first.as_str()],
        "d2d4 and its answer are undone"
    );
    assert_eq!(game["turn"], 0, "the player's turn again");
    assert!(
        game["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["wire"] == "d2d4"),
        "d2d4 is legal again"
    );
    // The clock was not turned back: White's time used stays used.
    assert!(game["clocks"]["remaining_ms"][0].as_u64().unwrap() <= 600_000);

    // Play on from there: a different move at the same ply.
    assert_eq!(a.play(&table, 2, "g1f3").await["t"], "ack");
    let answer = cpu_answer(&mut a, 4).await;
    let cpu_second = answer["event"]["wire"].as_str().unwrap().to_owned();
    let expected = ["e2e4", cpu_first.as_str(), "g1f3", cpu_second.as_str()];

    // A restart resumes the game as it is, and the game API shows the same line with a position per move.
    let (dir, database) = server.stop().await;
    let server = Server::start_on(dir, database, |_| {}).await;
    let mut a = Client::connect(server.addr, a.cookie.as_deref()).await;
    a.send(json!({"t": "open", "table": table})).await;
    let state = a.expect("table").await;
    let game = &state["state"]["game"];
    assert_eq!(wires(game), expected);
    assert_eq!(game["turn"], 0);
    let id = game["id"].as_str().unwrap().to_owned();
    let (_, body) = http_get(server.addr, &format!("/api/game/{id}"), a.cookie.as_deref()).await;
    let api: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(wires(&api), expected);
    let positions: Vec<&str> = api["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["position"].as_str().unwrap())
        .collect();
    assert!(
        positions[2].contains("5N2"),
        "the position after g1f3, not after the move taken back: {}",
        positions[2]
    );
    assert_eq!(a.play(&table, 4, "b1c3").await["t"], "ack");
    server.stop().await;
}

#[tokio::test]
async fn a_takeback_is_refused_before_any_move() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let spec = json!({"game": "chess", "seats": [{"kind": "me"}, {"kind": "cpu", "level": "easy"}]});
    let (table, _, _) = a.create(spec).await;
    a.send(json!({"t": "takeback", "table": table})).await;
    let refused = a.error("not_allowed").await;
    assert!(
        refused["message"].as_str().unwrap().contains("no move"),
        "{refused}"
    );
    server.stop().await;
}

#[tokio::test]
async fn between_people_a_takeback_needs_the_others_yes_and_a_move_lets_the_request_lapse() {
    let (server, mut a, mut b, table) =
        white_opened(json!({"game": "chess", "seats": [{"kind": "me"}]})).await;
    // Asked, declined: nothing changes.
    a.send(json!({"t": "takeback", "table": table})).await;
    assert_eq!(b.event("takeback_offered").await["event"]["seat"], 0);
    b.send(json!({"t": "takeback", "table": table, "action": "decline"}))
        .await;
    assert_eq!(a.event("takeback_declined").await["event"]["seat"], 1);
    // Only the other player answers a request.
    a.send(json!({"t": "takeback", "table": table})).await;
    b.event("takeback_offered").await;
    a.send(json!({"t": "takeback", "table": table, "action": "accept"}))
        .await;
    a.error("not_allowed").await;
    // Accepted: White's move is gone, White to move again.
    b.send(json!({"t": "takeback", "table": table, "action": "accept"}))
        .await;
    let took = a.event("took_back").await;
    assert_eq!(wires(&took["event"]["game"]), Vec::<String>::new());
    assert_eq!(took["event"]["game"]["turn"], 0);
    assert_eq!(a.play(&table, 0, "d2d4").await["t"], "ack");
    // A request answered by a move lapses.
    a.send(json!({"t": "takeback", "table": table})).await;
    b.event("takeback_offered").await;
    assert_eq!(b.play(&table, 1, "d7d5").await["t"], "ack");
    assert_eq!(a.event("takeback_declined").await["event"]["seat"], 1);
    b.send(json!({"t": "takeback", "table": table, "action": "accept"}))
        .await;
    b.error("not_allowed").await;
    server.stop().await;
}

#[tokio::test]
async fn a_rated_table_refuses_takebacks() {
    let (server, mut a, _b, table) =
        white_opened(json!({"game": "chess", "rated": true, "seats": [{"kind": "me"}]})).await;
    a.send(json!({"t": "takeback", "table": table})).await;
    let refused = a.error("not_allowed").await;
    assert!(
        refused["message"].as_str().unwrap().contains("rated"),
        "{refused}"
    );
    server.stop().await;
}

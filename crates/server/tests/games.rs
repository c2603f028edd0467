//! Full games of draughts and four-player chess through the server, CPU seats, and a CPU taking over a
//! four-player seat whose player left, until the player comes back.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, two_player_game};
use serde_json::{Value, json};
use std::time::Duration;

fn wires(legal: &Value) -> Vec<String> {
    legal
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["wire"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn an_english_draughts_game_is_played_to_its_end() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let spec = json!({"game": "draughts/english", "seats": [{"kind": "me"}], "time": {"base_ms": 3600000, "per_move_ms": 600000}});
    let table = two_player_game(&mut a, &mut b, spec).await;
    a.send(json!({"t": "open", "table": table})).await;
    let state = a.expect("table").await;
    let game = &state["state"]["game"];
    assert_eq!(
        game["position"],
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let mut legal = wires(&game["legal"]);
    assert_eq!(legal.len(), 7);
    let mut turn = 0usize;
    let mut captures = 0;
    for ply in 0..1000u32 {
        let wire = legal[(ply as usize * 7 + 3) % legal.len()].clone();
        let mover = if turn == 0 { &mut a } else { &mut b };
        let ack = mover.play(&table, ply, &wire).await;
        assert_eq!(ack["t"], "ack", "{ack}");
        let want = u64::from(ply) + 1;
        let moved = a
            .until("moved", move |v| {
                v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == want
            })
            .await;
        if wire.contains('x') {
            captures += 1;
        }
        if moved["event"]["turn"].is_null() {
            let ended = a.event("ended").await;
            let reason = ended["event"]["outcome"]["reason"].as_str().unwrap().to_owned();
            assert!(
                ["no_pieces", "blocked", "threefold", "no_progress"].contains(&reason.as_str()),
                "{reason}"
            );
            assert!(captures > 0);
            server.stop().await;
            return;
        }
        legal = wires(&moved["event"]["legal"]);
        turn = moved["event"]["turn"].as_u64().unwrap() as usize;
    }
    panic!("the draughts game did not end in 1000 plies");
}

#[tokio::test]
async fn a_four_player_game_with_three_cpus_ends_with_places() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let spec = json!({
        "game": "chess4",
        "rules": {"move_limit": 24},
        "seats": [{"kind": "me"}, {"kind": "cpu", "level": "easy"}, {"kind": "cpu", "level": "easy"}, {"kind": "cpu", "level": "easy"}]
    });
    let (table, _, state) = a.create(spec).await;
    let game = &state["state"]["game"];
    assert_eq!(game["turn"], 0);
    assert_eq!(game["points"], json!([0, 0, 0, 0]));
    let mut legal = wires(&game["legal"]);
    assert_eq!(legal.len(), 20);
    let mut ply = 0u32;
    loop {
        let reply = a.play(&table, ply, &legal[0]).await;
        assert_eq!(reply["t"], "ack", "{reply}");
        // The three CPUs answer; wait until it is our turn again or the game ends.
        let next = a
            .until("our turn", |v| {
                v["t"] == "event"
                    && ((v["event"]["e"] == "moved" && v["event"]["turn"] == 0) || v["event"]["e"] == "ended")
            })
            .await;
        if next["event"]["e"] == "ended" {
            let places = next["event"]["outcome"]["places"].as_array().unwrap();
            assert_eq!(places.len(), 4);
            // The move limit ends it unless the CPUs' captures open a 21-point gap first (their play varies).
            let reason = next["event"]["outcome"]["reason"].as_str().unwrap();
            assert!(["move_limit", "points_gap"].contains(&reason), "{next}");
            break;
        }
        ply = next["event"]["ply"].as_u64().unwrap() as u32;
        legal = wires(&next["event"]["legal"]);
        if legal.is_empty() {
            break;
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_cpu_takes_over_a_four_player_seat_and_the_player_reclaims_it() {
    let server = Server::start_with(|c| c.grace = Duration::from_millis(1200)).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let spec = json!({
        "game": "chess4",
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "cpu", "level": "easy"}, {"kind": "cpu", "level": "easy"}]
    });
    let (table, _, _) = a.create(spec).await;
    b.send(json!({"t": "open", "table": table})).await;
    b.expect("table").await;
    b.send(json!({"t": "sit", "table": table, "seat": 1})).await;
    let started = a.event("started").await;
    let legal = wires(&started["event"]["game"]["legal"]);
    // b leaves; after the grace period a CPU plays Blue.
    let b_cookie = b.cookie.clone();
    drop(b);
    let took = a
        .until("takeover", |v| {
            v["t"] == "event"
                && v["event"]["e"] == "seat"
                && v["event"]["seat"] == 1
                && v["event"]["info"]["cpu"] == "medium"
        })
        .await;
    assert_eq!(took["event"]["info"]["away"], true);
    assert_eq!(a.play(&table, 0, &legal[0]).await["t"], "ack");
    let blue = a
        .until("blue moves", |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["seat"] == 1
        })
        .await;
    assert_eq!(blue["event"]["ply"], 2);
    let red_turn = a
        .until("red turn", |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["turn"] == 0
        })
        .await;
    // b comes back from the same browser and gets the seat back.
    let mut b = Client::connect(server.addr, b_cookie.as_deref()).await;
    b.send(json!({"t": "open", "table": table})).await;
    let state = b.expect("table").await;
    assert_eq!(state["state"]["you"], 1);
    let back = a
        .until("reclaimed", |v| {
            v["t"] == "event"
                && v["event"]["e"] == "seat"
                && v["event"]["seat"] == 1
                && v["event"]["info"]["cpu"].is_null()
        })
        .await;
    assert_eq!(back["event"]["info"]["away"], false);
    // Red moves again; then it is Blue's turn, and b plays it.
    let ply = red_turn["event"]["ply"].as_u64().unwrap() as u32;
    let legal = wires(&red_turn["event"]["legal"]);
    assert_eq!(a.play(&table, ply, &legal[0]).await["t"], "ack");
    let blue_turn = b
        .until("blue turn", move |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["turn"] == 1
        })
        .await;
    let ply = blue_turn["event"]["ply"].as_u64().unwrap() as u32;
    let legal = wires(&blue_turn["event"]["legal"]);
    assert_eq!(b.play(&table, ply, &legal[0]).await["t"], "ack");
    server.stop().await;
}

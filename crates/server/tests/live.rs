//! The game server over real websockets on 127.0.0.1:0 with a real SQLite file: joining, playing to the end,
//! clocks, reconnection, removal, and every kind of bad input.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, http_get, two_player_game};
use futures_util::SinkExt;
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

fn chess(extra: serde_json::Value) -> serde_json::Value {
    let mut spec = json!({"game": "chess", "seats": [{"kind": "me"}]});
    if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            s.insert(k.clone(), v.clone());
        }
    }
    spec
}

#[tokio::test]
async fn a_full_chess_game_to_checkmate() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    let moves = [("f2f3", 0), ("e7e5", 1), ("g2g4", 0), ("d8h4", 1)];
    for (ply, (wire, who)) in moves.iter().enumerate() {
        let mover = if *who == 0 { &mut a } else { &mut b };
        let ack = mover.play(&table, ply as u32, wire).await;
        assert_eq!(ack["t"], "ack", "{ack}");
        let moved = a.event("moved").await;
        assert_eq!(moved["event"]["wire"], *wire);
        assert_eq!(moved["v"], ack["version"]);
        b.event("moved").await;
    }
    let ended = a.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["reason"], "checkmate");
    assert_eq!(ended["event"]["outcome"]["winner"], 1);
    assert_eq!(ended["event"]["outcome"]["score"], "0-1");
    // The game is stored and exports as PGN.
    a.send(json!({"t": "open", "table": table})).await;
    let state = a.expect("table").await;
    let game_id = state["state"]["game"]["id"].as_str().unwrap().to_owned();
    let (head, pgn) = http_get(server.addr, &format!("/api/game/{game_id}/export"), None).await;
    assert!(head.contains("200 OK"), "{head}");
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("2. g4 Qh4#"),
        "{pgn}"
    );
    // The PGN standard's time control, the per-move cap in a tag of its own, and absolute links.
    assert!(pgn.contains("[TimeControl \"900+0\"]"), "{pgn}");
    assert!(pgn.contains("[MaxMoveTime \"60\"]"), "{pgn}");
    assert!(
        pgn.contains(&format!("[Site \"http://{}/game/{game_id}\"]", server.addr)),
        "{pgn}"
    );
    let (_, json) = http_get(server.addr, &format!("/api/game/{game_id}"), None).await;
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    // Each move carries the position after it, for an exact replay.
    assert_eq!(
        v["moves"][0]["position"],
        "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(
        v["moves"][3]["position"],
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    server.stop().await;
}

#[tokio::test]
async fn illegal_stale_and_out_of_turn_moves_are_refused_and_the_game_goes_on() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    let e = a.play(&table, 0, "e2e5").await;
    assert_eq!(e["code"], "illegal_move");
    assert!(e["message"].as_str().unwrap().contains("not a legal move"));
    let e = b.play(&table, 0, "e7e5").await;
    assert_eq!(e["code"], "not_your_turn");
    let e = a.play(&table, 3, "e2e4").await;
    assert_eq!(e["code"], "stale_move");
    let e = a.play(&table, 0, "e7e8q").await;
    assert_eq!(e["code"], "illegal_move");
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    // A spectator cannot move.
    let mut c = server.client().await;
    c.send(json!({"t": "open", "table": table})).await;
    let state = c.expect("table").await;
    assert_eq!(state["state"]["spectators"], 1);
    assert_eq!(state["state"]["you"], serde_json::Value::Null);
    assert_eq!(c.play(&table, 1, "e7e5").await["code"], "not_seated");
    assert_eq!(b.play(&table, 1, "e7e5").await["t"], "ack");
    server.stop().await;
}

#[tokio::test]
async fn sitting_down_and_standing_up_change_the_spectator_count() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let (table, _, _) = a.create(chess(json!({}))).await;
    b.send(json!({"t": "open", "table": table})).await;
    assert_eq!(b.expect("table").await["state"]["spectators"], 1);
    assert_eq!(a.event("spectators").await["event"]["count"], 1);
    // Bijoy sits: nobody watches any more, before the game starts.
    b.send(json!({"t": "sit", "table": table})).await;
    let seat = a.event("seat").await;
    let spectators = a.next().await.unwrap();
    assert_eq!(spectators["event"]["e"], "spectators", "{spectators}");
    assert_eq!(spectators["event"]["count"], 0);
    assert_eq!(spectators["v"], seat["v"].as_u64().unwrap() + 1);
    a.event("started").await;
    // After the game he stands up and stays to watch: a spectator again.
    a.send(json!({"t": "resign", "table": table})).await;
    b.event("ended").await;
    b.send(json!({"t": "stand", "table": table})).await;
    b.event("seat").await;
    assert_eq!(b.event("spectators").await["event"]["count"], 1);
    server.stop().await;
}

#[tokio::test]
async fn joining_a_private_table_by_code_and_by_link() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let (table, code, state) = a.create(chess(json!({"private": true}))).await;
    let code = code.unwrap();
    assert_eq!(code.len(), 6);
    assert!(
        code.chars()
            .all(|c| "ABCDEFGHJKMNPQRSTUVWXYZ23456789".contains(c))
    );
    assert_eq!(state["state"]["code"], code.as_str());
    // By code, lower case too.
    let mut b = server.client().await;
    b.send(json!({"t": "open", "code": code.to_lowercase()})).await;
    let state = b.expect("table").await;
    assert_eq!(state["state"]["id"], table.as_str());
    b.send(json!({"t": "sit", "table": table})).await;
    b.event("started").await;
    // By link: /t/CODE serves the page (the client then opens the code).
    let (head, _) = http_get(server.addr, &format!("/t/{code}"), None).await;
    assert!(head.contains("200 OK"));
    // The private table is not in the lobby.
    let mut c = server.client().await;
    c.send(json!({"t": "lobby", "on": true})).await;
    let lobby = c.expect("lobby").await;
    assert!(
        lobby["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["id"] != table.as_str())
    );
    // Wrong codes: not found, then rate limited.
    for _ in 0..10 {
        c.send(json!({"t": "open", "code": "ZZZZZZ"})).await;
        c.error("table_not_found").await;
    }
    c.send(json!({"t": "open", "code": code})).await;
    c.error("rate_limited").await;
    server.stop().await;
}

#[tokio::test]
async fn public_tables_appear_in_the_lobby_and_fill_up() {
    let server = Server::start().await;
    let mut watcher = server.client().await;
    watcher.send(json!({"t": "lobby", "on": true})).await;
    let lobby = watcher.expect("lobby").await;
    assert!(
        lobby["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == watcher.id.as_str())
    );
    let mut a = server.client().await;
    let (table, _, _) = a.create(chess(json!({}))).await;
    let entry = watcher.until("lobby_table", |v| v["t"] == "lobby_table").await;
    assert_eq!(entry["table"]["id"], table.as_str());
    assert_eq!(entry["table"]["playing"], false);
    let mut b = server.client().await;
    b.send(json!({"t": "sit", "table": table})).await;
    watcher
        .until("playing", |v| {
            v["t"] == "lobby_table" && v["table"]["playing"] == true
        })
        .await;
    server.stop().await;
}

#[tokio::test]
async fn unknown_table_is_table_not_found() {
    let server = Server::start().await;
    let mut a = server.client().await;
    a.send(json!({"t": "open", "table": "nope"})).await;
    a.error("table_not_found").await;
    a.send(json!({"t": "move", "table": "nope", "ack": 1, "ply": 0, "wire": "e2e4"}))
        .await;
    a.error("table_not_found").await;
    server.stop().await;
}

#[tokio::test]
async fn a_socket_without_the_cookie_is_told_cookies_required() {
    let server = Server::start().await;
    let mut raw = Client::raw(server.addr, None).await;
    let msg = futures_util::StreamExt::next(&mut raw).await.unwrap().unwrap();
    let v: serde_json::Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
    assert_eq!(v["code"], "cookies_required");
    // A forged cookie is no identity either.
    let mut forged = Client::raw(server.addr, Some("parlor_id=abc")).await;
    let msg = futures_util::StreamExt::next(&mut forged).await.unwrap().unwrap();
    assert!(msg.to_text().unwrap().contains("cookies_required"));
    server.stop().await;
}

#[tokio::test]
async fn an_outdated_client_is_told_to_reload() {
    let server = Server::start().await;
    let cookie = server.cookie().await;
    let mut raw = Client::raw(server.addr, Some(&cookie)).await;
    raw.send(Message::Text(
        json!({"t": "hello", "protocol": 0}).to_string().into(),
    ))
    .await
    .unwrap();
    let msg = futures_util::StreamExt::next(&mut raw).await.unwrap().unwrap();
    assert!(msg.to_text().unwrap().contains("client_outdated"));
    server.stop().await;
}

#[tokio::test]
async fn bad_input_gets_clear_errors_and_never_hurts_the_table() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    // Malformed JSON and unknown messages: an error, the socket stays open.
    a.ws.send(Message::Text("{not json".into())).await.unwrap();
    a.error("bad_message").await;
    a.send(json!({"t": "teleport", "table": table})).await;
    a.error("bad_message").await;
    a.ws.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    a.error("bad_message").await;
    // Moves for someone else's seat.
    assert_eq!(b.play(&table, 0, "e2e4").await["code"], "not_your_turn");
    // Bad names and chat.
    a.send(json!({"t": "set_name", "name": ""})).await;
    a.error("name_invalid").await;
    a.send(json!({"t": "chat", "table": table, "text": "x".repeat(301)}))
        .await;
    a.error("chat_invalid").await;
    // A bad spec.
    a.send(json!({"t": "create", "spec": {"game": "go"}})).await;
    a.error("bad_spec").await;
    // Still playable.
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    // An oversized frame closes that socket only.
    let mut c = server.client().await;
    c.ws.send(Message::Text("x".repeat(10_000).into())).await.ok();
    assert!(c.closes().await);
    // A flood: rate limited, then closed.
    let mut d = server.client().await;
    for _ in 0..200 {
        if d.ws
            .send(Message::Text(json!({"t": "ping"}).to_string().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    d.error("rate_limited").await;
    assert!(d.closes().await);
    // The game goes on.
    assert_eq!(b.play(&table, 1, "e7e5").await["t"], "ack");
    server.stop().await;
}

#[tokio::test]
async fn reconnecting_gets_the_missed_events_or_a_full_resync() {
    let server = Server::start_with(|c| c.event_log = 8).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    a.play(&table, 0, "e2e4").await;
    let seen = b.event("moved").await["v"].as_u64().unwrap();
    let b_again = b.reconnect().await;
    drop(b);
    let mut b = b_again;
    b.send(json!({"t": "open", "table": table, "since": seen})).await;
    // Missed events arrive as events (seat away/back), not as a full state.
    let first = b
        .until("event or state", |v| v["t"] == "event" || v["t"] == "table")
        .await;
    assert_eq!(first["t"], "event", "{first}");
    assert!(first["v"].as_u64().unwrap() > seen);
    assert_eq!(b.play(&table, 1, "e7e5").await["t"], "ack");
    // Many events later, an old `since` gets the full state.
    // Chat is limited to a burst of 5 lines per player: two players make the 10 events.
    for i in 0..5 {
        a.send(json!({"t": "chat", "table": table, "text": format!("a {i}")}))
            .await;
        b.send(json!({"t": "chat", "table": table, "text": format!("b {i}")}))
            .await;
    }
    for _ in 0..10 {
        b.event("chat").await;
    }
    let mut c = b.reconnect().await;
    c.send(json!({"t": "open", "table": table, "since": seen})).await;
    let state = c.expect("table").await;
    assert_eq!(state["state"]["game"]["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["state"]["you"], 1);
    server.stop().await;
}

#[tokio::test]
async fn a_player_away_past_the_grace_period_loses_and_is_removed() {
    let server = Server::start_with(|c| c.grace = Duration::from_millis(1500)).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    a.play(&table, 0, "e2e4").await;
    drop(b);
    let away = a
        .until("away", |v| {
            v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["info"]["away"] == true
        })
        .await;
    assert_eq!(away["event"]["seat"], 1);
    let ended = a.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["reason"], "abandoned");
    assert_eq!(ended["event"]["outcome"]["winner"], 0);
    let freed = a.event("seat").await;
    assert_eq!(freed["event"]["info"]["player"], serde_json::Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn coming_back_within_the_grace_period_keeps_the_game() {
    let server = Server::start_with(|c| c.grace = Duration::from_secs(3)).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    a.play(&table, 0, "e2e4").await;
    let mut b2 = b.reconnect().await;
    drop(b);
    a.until("away", |v| {
        v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["info"]["away"] == true
    })
    .await;
    b2.send(json!({"t": "open", "table": table})).await;
    let state = b2.expect("table").await;
    assert_eq!(state["state"]["you"], 1);
    a.until("back", |v| {
        v["t"] == "event" && v["event"]["e"] == "seat" && v["event"]["info"]["away"] == false
    })
    .await;
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(b2.play(&table, 1, "e7e5").await["t"], "ack");
    server.stop().await;
}

#[tokio::test]
async fn clock_running_out_loses_and_per_move_cap_loses() {
    let server = Server::start().await;
    // Base time: 1.5 s each, no cap. White moves at once; Black never does.
    let mut a = server.client().await;
    let mut b = server.client().await;
    let spec = chess(json!({"time": {"base_ms": 1500, "increment_ms": 0, "per_move_ms": null}}));
    let table = two_player_game(&mut a, &mut b, spec).await;
    a.play(&table, 0, "e2e4").await;
    let ended = a.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["reason"], "timeout");
    assert_eq!(ended["event"]["outcome"]["winner"], 0);
    assert_eq!(ended["event"]["clocks"]["remaining_ms"][1], 0);
    // A per-move cap of 1 s with plenty of base: the cap flags.
    let mut c = server.client().await;
    let mut d = server.client().await;
    let spec = chess(json!({"time": {"base_ms": 600000, "increment_ms": 0, "per_move_ms": 1000}}));
    let table = two_player_game(&mut c, &mut d, spec).await;
    let ended = c.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["reason"], "timeout");
    assert_eq!(ended["event"]["outcome"]["winner"], 1);
    let _ = table;
    server.stop().await;
}

#[tokio::test]
async fn increment_is_added_after_each_move() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let spec = chess(json!({"time": {"base_ms": 60000, "increment_ms": 5000, "per_move_ms": null}}));
    let table = two_player_game(&mut a, &mut b, spec).await;
    a.play(&table, 0, "e2e4").await;
    let moved = b.event("moved").await;
    let white = moved["event"]["clocks"]["remaining_ms"][0].as_u64().unwrap();
    assert!(white > 60_000 && white <= 65_000, "{white}");
    assert_eq!(moved["event"]["clocks"]["running"], 1);
    server.stop().await;
}

#[tokio::test]
async fn resign_draw_abort_and_rematch() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    // Abort before both moved.
    a.play(&table, 0, "e2e4").await;
    b.send(json!({"t": "abort", "table": table})).await;
    let ended = a.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["result"], "aborted");
    // Rematch: both ask; colours swap (rotate first player).
    a.send(json!({"t": "rematch", "table": table})).await;
    b.send(json!({"t": "rematch", "table": table})).await;
    let started = a.event("started").await;
    assert_eq!(started["event"]["game"]["turn"], 1);
    assert_eq!(b.play(&table, 0, "e2e4").await["t"], "ack");
    assert_eq!(a.play(&table, 1, "e7e5").await["t"], "ack");
    // Abort is too late now.
    a.send(json!({"t": "abort", "table": table})).await;
    a.error("not_allowed").await;
    // Draw offered, declined by a move, offered again and accepted.
    b.send(json!({"t": "draw", "table": table, "action": "offer"}))
        .await;
    a.event("draw_offered").await;
    a.send(json!({"t": "draw", "table": table, "action": "decline"}))
        .await;
    b.event("draw_declined").await;
    b.send(json!({"t": "draw", "table": table, "action": "offer"}))
        .await;
    a.event("draw_offered").await;
    a.send(json!({"t": "draw", "table": table, "action": "accept"}))
        .await;
    let ended = b.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["reason"], "agreement");
    // Third game: resignation.
    a.send(json!({"t": "rematch", "table": table})).await;
    b.send(json!({"t": "rematch", "table": table})).await;
    a.event("started").await;
    a.send(json!({"t": "resign", "table": table})).await;
    let ended = b.event("ended").await;
    assert_eq!(ended["event"]["outcome"]["reason"], "resignation");
    assert_eq!(ended["event"]["outcome"]["winner"], 1);
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_shows_a_finished_game_over_and_starts_none_by_itself() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    // One game ends on the board (fool's mate), one by an event (resignation).
    let mated = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    for (ply, wire) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut a } else { &mut b };
        assert_eq!(mover.play(&mated, ply as u32, wire).await["t"], "ack");
    }
    a.event("ended").await;
    let resigned = two_player_game(&mut a, &mut b, chess(json!({}))).await;
    assert_eq!(a.play(&resigned, 0, "e2e4").await["t"], "ack");
    b.send(json!({"t": "resign", "table": resigned})).await;
    a.until("resigned", |v| {
        v["t"] == "event" && v["event"]["e"] == "ended" && v["table"] == resigned
    })
    .await;
    let (dir, database) = server.stop().await;
    let server = Server::start_on(dir, database, |_| {}).await;
    let mut a = Client::connect(server.addr, a.cookie.as_deref()).await;
    let mut b = Client::connect(server.addr, b.cookie.as_deref()).await;
    for (table, moves, reason, winner) in [(&mated, 4, "checkmate", 1), (&resigned, 1, "resignation", 0)] {
        a.send(json!({"t": "open", "table": table})).await;
        let state = a.expect("table").await;
        let game = &state["state"]["game"];
        assert_eq!(game["moves"].as_array().unwrap().len(), moves, "{state}");
        assert_eq!(game["outcome"]["reason"], reason, "{state}");
        assert_eq!(game["outcome"]["winner"], winner, "{state}");
        assert!(game["turn"].is_null(), "{state}");
        assert!(game["legal"].as_array().unwrap().is_empty(), "{state}");
    }
    // The next game starts when both ask for it, as before the restart, with the colours swapped.
    b.send(json!({"t": "open", "table": mated})).await;
    b.expect("table").await;
    a.send(json!({"t": "rematch", "table": mated})).await;
    b.send(json!({"t": "rematch", "table": mated})).await;
    let started = a.event("started").await;
    assert_eq!(started["event"]["game"]["moves"].as_array().unwrap().len(), 0);
    assert_eq!(started["event"]["game"]["turn"], 1);
    assert_eq!(b.play(&mated, 0, "e2e4").await["t"], "ack");
    server.stop().await;
}

#[tokio::test]
async fn a_cpu_seat_plays_its_moves() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let spec = json!({"game": "chess", "seats": [{"kind": "me"}, {"kind": "cpu", "level": "easy"}]});
    let (table, _, state) = a.create(spec).await;
    // Every seat was filled at creation: the game is already on when the creator opens the table.
    assert_eq!(state["state"]["game"]["turn"], 0);
    a.play(&table, 0, "e2e4").await;
    let cpu = a
        .until("cpu move", |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["seat"] == 1
        })
        .await;
    assert_eq!(cpu["event"]["ply"], 2);
    server.stop().await;
}

#[tokio::test]
async fn healthz_and_metrics() {
    let server = Server::start().await;
    let (head, body) = http_get(server.addr, "/healthz", None).await;
    assert!(head.contains("200 OK") && body.contains("ok"));
    let _a = server.client().await;
    let (_, body) = http_get(server.addr, "/metrics", None).await;
    assert!(body.contains("parlor_connections 1"), "{body}");
    assert!(body.contains("parlor_store_commit_seconds_count"));
    // The server runs on an SQLite file: its background checkpointer reports.
    assert!(
        body.contains("# TYPE parlor_sqlite_checkpoints_total counter"),
        "{body}"
    );
    assert!(body.contains("parlor_sqlite_checkpoint_errors_total 0"), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_resumes_the_game_with_its_moves_and_clocks() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let spec = chess(json!({"time": {"base_ms": 300000, "increment_ms": 0, "per_move_ms": 60000}}));
    let table = two_player_game(&mut a, &mut b, spec).await;
    for (ply, wire) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut a } else { &mut b };
        assert_eq!(mover.play(&table, ply as u32, wire).await["t"], "ack");
    }
    let before = b
        .until("third move", |v| {
            v["t"] == "event" && v["event"]["e"] == "moved" && v["event"]["ply"] == 3
        })
        .await;
    let (dir, database) = server.stop().await;
    let server = Server::start_on(dir, database, |_| {}).await;
    let mut b = Client::connect(server.addr, b.cookie.as_deref()).await;
    b.send(json!({"t": "open", "table": table})).await;
    let state = b.expect("table").await;
    let game = &state["state"]["game"];
    assert_eq!(game["moves"].as_array().unwrap().len(), 3);
    assert_eq!(game["turn"], 1);
    // Black gets back the whole interrupted turn; White's clock is what it was after its move.
    let black = game["clocks"]["remaining_ms"][1].as_u64().unwrap();
    assert!(black > 299_000, "{black}");
    assert_eq!(
        game["clocks"]["remaining_ms"][0],
        before["event"]["clocks"]["remaining_ms"][0]
    );
    assert_eq!(b.play(&table, 3, "b8c6").await["t"], "ack");
    server.stop().await;
}

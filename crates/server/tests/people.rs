//! People over real websockets: presence, challenges, mute, block, favourites, chat limits, ratings and history.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, http_get, two_player_game};
use serde_json::{Value, json};

fn chess() -> Value {
    json!({"game": "chess", "seats": [{"kind": "me"}]})
}

async fn relation(c: &mut Client, player: &str, relation: &str, on: bool) {
    c.send(json!({"t": "relation", "player": player, "relation": relation, "on": on}))
        .await;
    let (player, relation) = (player.to_owned(), relation.to_owned());
    c.until("relations", move |v| {
        v["t"] == "relations"
            && v["marks"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m[0] == player.as_str() && m[1] == relation.as_str())
                == on
    })
    .await;
}

#[tokio::test]
async fn online_and_offline() {
    let server = Server::start().await;
    let mut a = server.client().await;
    a.send(json!({"t": "lobby", "on": true})).await;
    a.expect("lobby").await;
    let mut b = server.client().await;
    let b_id = b.id.clone();
    let online = a.expect("player_online").await;
    assert_eq!(online["player"]["id"], b_id.as_str());
    b.send(json!({"t": "presence", "online": false})).await;
    let off = a.expect("player_offline").await;
    assert_eq!(off["id"], b_id.as_str());
    // Nobody can challenge an offline player.
    a.send(json!({"t": "challenge", "to": b_id, "spec": chess()}))
        .await;
    a.error("player_offline").await;
    a.send(json!({"t": "lobby", "on": false})).await;
    a.send(json!({"t": "lobby", "on": true})).await;
    let lobby = a.expect("lobby").await;
    assert!(
        lobby["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["id"] != b_id.as_str())
    );
    // One action brings them back.
    b.send(json!({"t": "presence", "online": true})).await;
    a.until("online again", |v| {
        v["t"] == "player_online" && v["player"]["id"] == b_id.as_str()
    })
    .await;
    server.stop().await;
}

#[tokio::test]
async fn challenge_accepted_seats_both_at_a_new_table() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    a.send(json!({"t": "challenge", "to": b.id, "spec": chess()}))
        .await;
    let pending = a.expect("challenge").await;
    assert_eq!(pending["state"], "pending");
    let incoming = b.expect("challenge").await;
    assert_eq!(incoming["from"]["id"], a.id.as_str());
    assert_eq!(incoming["spec"]["game"], "chess");
    b.send(json!({"t": "challenge_answer", "id": incoming["id"], "answer": "accept"}))
        .await;
    let accepted = a
        .until("accepted", |v| v["t"] == "challenge" && v["state"] == "accepted")
        .await;
    let table = accepted["table"].as_str().unwrap().to_owned();
    let b_accepted = b
        .until("accepted", |v| v["t"] == "challenge" && v["state"] == "accepted")
        .await;
    assert_eq!(b_accepted["table"], table.as_str());
    for (c, seat) in [(&mut a, 0), (&mut b, 1)] {
        c.send(json!({"t": "open", "table": table})).await;
        let state = c.expect("table").await;
        assert_eq!(state["state"]["you"], seat);
        assert_eq!(state["state"]["game"]["turn"], 0);
    }
    assert_eq!(a.play(&table, 0, "e2e4").await["t"], "ack");
    server.stop().await;
}

#[tokio::test]
async fn challenge_declined_and_cancelled() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    a.send(json!({"t": "challenge", "to": b.id, "spec": chess()}))
        .await;
    let incoming = b.expect("challenge").await;
    b.send(json!({"t": "challenge_answer", "id": incoming["id"], "answer": "decline"}))
        .await;
    a.until("declined", |v| v["t"] == "challenge" && v["state"] == "declined")
        .await;
    b.until("declined", |v| v["t"] == "challenge" && v["state"] == "declined")
        .await;
    // Answering again: the challenge is gone.
    b.send(json!({"t": "challenge_answer", "id": incoming["id"], "answer": "accept"}))
        .await;
    b.error("challenge_not_found").await;
    // Cancelled by the challenger.
    a.send(json!({"t": "challenge", "to": b.id, "spec": chess()}))
        .await;
    let pending = a
        .until("pending", |v| v["t"] == "challenge" && v["state"] == "pending")
        .await;
    b.until("pending", |v| v["t"] == "challenge" && v["state"] == "pending")
        .await;
    // Only the challenger can cancel.
    b.send(json!({"t": "challenge_cancel", "id": pending["id"]}))
        .await;
    b.error("challenge_not_found").await;
    a.send(json!({"t": "challenge_cancel", "id": pending["id"]}))
        .await;
    b.until("cancelled", |v| {
        v["t"] == "challenge" && v["state"] == "cancelled"
    })
    .await;
    server.stop().await;
}

#[tokio::test]
async fn a_challenge_to_someone_who_goes_away_is_cancelled_with_a_message() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    a.send(json!({"t": "challenge", "to": b.id, "spec": chess()}))
        .await;
    b.expect("challenge").await;
    drop(b);
    let gone = a
        .until("gone", |v| v["t"] == "challenge" && v["state"] == "gone")
        .await;
    assert_eq!(gone["from"]["id"], a.id.as_str());
    // Going offline by choice does the same.
    let mut c = server.client().await;
    a.send(json!({"t": "challenge", "to": c.id, "spec": chess()}))
        .await;
    c.expect("challenge").await;
    c.send(json!({"t": "presence", "online": false})).await;
    a.until("gone", |v| v["t"] == "challenge" && v["state"] == "gone")
        .await;
    server.stop().await;
}

#[tokio::test]
async fn mute_hides_chat_and_unmute_shows_it_again() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let mut c = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess()).await;
    c.send(json!({"t": "open", "table": table})).await;
    c.expect("table").await;
    relation(&mut c, &a.id, "mute", true).await;
    a.send(json!({"t": "chat", "table": table, "text": "hello from a"}))
        .await;
    b.send(json!({"t": "chat", "table": table, "text": "hello from b"}))
        .await;
    assert_eq!(b.event("chat").await["event"]["text"], "hello from a");
    // c sees b's line but never a's.
    let seen = c.event("chat").await;
    assert_eq!(seen["event"]["text"], "hello from b");
    // The stored history a new watcher gets hides a's lines from c too.
    let mut c2 = c.reconnect().await;
    c2.send(json!({"t": "open", "table": table})).await;
    let state = c2.expect("table").await;
    let lines: Vec<&str> = state["state"]["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(lines, vec!["hello from b"]);
    relation(&mut c, &a.id, "mute", false).await;
    a.send(json!({"t": "chat", "table": table, "text": "again"}))
        .await;
    assert_eq!(c.event("chat").await["event"]["text"], "again");
    server.stop().await;
}

#[tokio::test]
async fn a_resync_over_a_muted_line_sends_the_full_state() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess()).await;
    relation(&mut b, &a.id, "mute", true).await;
    a.send(json!({"t": "chat", "table": table, "text": "muted line"}))
        .await;
    a.event("chat").await;
    b.send(json!({"t": "chat", "table": table, "text": "my line"}))
        .await;
    // b never gets a's line, so b's own line comes one version further: a gap b cannot fill with events.
    let mine = b.event("chat").await;
    assert_eq!(mine["event"]["text"], "my line");
    let last = mine["v"].as_u64().unwrap();
    b.send(json!({"t": "open", "table": table, "since": last - 2}))
        .await;
    let next = b.next().await.unwrap();
    assert_eq!(
        next["t"], "table",
        "a full state, not the events with the gap again: {next}"
    );
    assert_eq!(next["state"]["version"], last);
    let lines: Vec<&str> = next["state"]["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(lines, vec!["my line"]);
    // Without a muted line in between, a resync still sends just the missed events.
    a.send(json!({"t": "resign", "table": table})).await;
    let ended = b.event("ended").await;
    b.send(json!({"t": "open", "table": table, "since": last})).await;
    assert_eq!(b.next().await.unwrap(), ended);
    server.stop().await;
}

#[tokio::test]
async fn block_refuses_challenge_and_join() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    relation(&mut b, &a.id, "block", true).await;
    a.send(json!({"t": "challenge", "to": b.id, "spec": chess()}))
        .await;
    a.error("blocked").await;
    let (table, _, _) = b.create(chess()).await;
    a.send(json!({"t": "sit", "table": table})).await;
    a.error("blocked").await;
    // Reversible.
    relation(&mut b, &a.id, "block", false).await;
    a.send(json!({"t": "sit", "table": table})).await;
    a.event("started").await;
    server.stop().await;
}

#[tokio::test]
async fn joining_a_table_where_a_blocked_player_sits_asks_for_confirmation() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    relation(&mut a, &b.id, "block", true).await;
    let (table, _, _) = b.create(chess()).await;
    a.send(json!({"t": "sit", "table": table})).await;
    a.error("confirm_blocked").await;
    a.send(json!({"t": "sit", "table": table, "confirm": true})).await;
    a.event("started").await;
    server.stop().await;
}

#[tokio::test]
async fn favourites_are_listed_first() {
    let server = Server::start().await;
    let mut zed = server.client().await;
    zed.send(json!({"t": "set_name", "name": "Zed"})).await;
    zed.expect("named").await;
    let mut amy = server.client().await;
    amy.send(json!({"t": "set_name", "name": "Amy"})).await;
    amy.expect("named").await;
    let mut me = server.client().await;
    me.send(json!({"t": "set_name", "name": "Me"})).await;
    me.expect("named").await;
    relation(&mut me, &zed.id, "favourite", true).await;
    me.send(json!({"t": "lobby", "on": true})).await;
    let lobby = me.expect("lobby").await;
    let players = lobby["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "Zed");
    assert_eq!(players[0]["favourite"], true);
    assert!(players[1..].iter().all(|p| p["favourite"] == false));
    assert_eq!(players[1]["name"], "Amy");
    server.stop().await;
}

#[tokio::test]
async fn chat_limits_and_text_kept_as_text() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(&mut a, &mut b, chess()).await;
    a.send(json!({"t": "chat", "table": table, "text": "x".repeat(301)}))
        .await;
    a.error("chat_invalid").await;
    a.send(json!({"t": "chat", "table": table, "text": "   "})).await;
    a.error("chat_invalid").await;
    let html = "<img src=x onerror=alert(1)> & <b>bold</b>";
    a.send(json!({"t": "chat", "table": table, "text": html})).await;
    assert_eq!(b.event("chat").await["event"]["text"], html);
    for i in 0..8 {
        a.send(json!({"t": "chat", "table": table, "text": format!("line {i}")}))
            .await;
    }
    a.error("rate_limited").await;
    server.stop().await;
}

/// Plays a rated two-player game to a decisive end by resignation of seat 1 and returns the ended event.
async fn rated_game(server: &Server, a: &mut Client, b: &mut Client, game: &str) -> Value {
    let table = two_player_game(
        a,
        b,
        json!({"game": game, "rated": true, "seats": [{"kind": "me"}]}),
    )
    .await;
    b.send(json!({"t": "resign", "table": table})).await;
    let ended = a.event("ended").await;
    let _ = server;
    ended
}

#[tokio::test]
async fn rated_games_change_ratings_casual_and_aborted_do_not() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    for game in ["chess", "draughts/english", "draughts/international"] {
        let ended = rated_game(&server, &mut a, &mut b, game).await;
        let ratings = ended["event"]["ratings"].as_array().unwrap();
        assert_eq!(ratings.len(), 2, "{game}");
        assert!(ratings[0]["after"].as_f64().unwrap() > 1500.0, "{game}");
        assert!(ratings[1]["after"].as_f64().unwrap() < 1500.0, "{game}");
        assert_eq!(ratings[0]["provisional"], true);
    }
    // Four people at a rated four-player table; three resign, the last one standing wins.
    let mut c = server.client().await;
    let mut d = server.client().await;
    let (table, _, _) = a
        .create(json!({"game": "chess4", "rated": true, "seats": [{"kind": "me"}]}))
        .await;
    for p in [&mut b, &mut c, &mut d] {
        p.send(json!({"t": "sit", "table": table})).await;
    }
    a.event("started").await;
    for p in [&mut b, &mut c, &mut d] {
        p.send(json!({"t": "resign", "table": table})).await;
    }
    let ended = a.event("ended").await;
    let ratings = ended["event"]["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 4);
    assert_eq!(ended["event"]["outcome"]["winner"], 0);
    assert!(ratings[0]["after"].as_f64().unwrap() > 1500.0);
    // Casual: no change.
    let table = two_player_game(&mut a, &mut b, chess()).await;
    b.send(json!({"t": "resign", "table": table})).await;
    assert!(
        a.event("ended").await["event"]["ratings"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // Rated but aborted: no change.
    let table = two_player_game(
        &mut a,
        &mut b,
        json!({"game": "chess", "rated": true, "seats": [{"kind": "me"}]}),
    )
    .await;
    a.send(json!({"t": "abort", "table": table})).await;
    assert!(
        b.event("ended").await["event"]["ratings"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // A rated table cannot seat a CPU.
    a.send(json!({"t": "create", "spec": {"game": "chess", "rated": true, "seats": [{"kind": "me"}, {"kind": "cpu", "level": "easy"}]}})).await;
    a.error("bad_spec").await;
    // History: newest first, with the rating change, and every export reads back.
    a.send(json!({"t": "history"})).await;
    let history = a.expect("history").await;
    let games = history["games"].as_array().unwrap();
    assert_eq!(games.len(), 5, "{history}");
    assert_eq!(games[0]["game"], "chess");
    assert!(games[0]["rating"].is_null());
    assert_eq!(games[1]["game"], "chess4");
    assert!(games[1]["rating"]["after"].as_f64().unwrap() > games[1]["rating"]["before"].as_f64().unwrap());
    let ends: Vec<i64> = games.iter().map(|g| g["ended_ms"].as_i64().unwrap()).collect();
    assert!(ends.windows(2).all(|w| w[0] >= w[1]));
    for g in games {
        let id = g["id"].as_str().unwrap();
        let (_, text) = http_get(server.addr, &format!("/api/game/{id}/export"), None).await;
        let back = parlor_server::games::read_export(g["game"].as_str().unwrap(), &text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(!back.outcome().is_running(), "{text}");
    }
    server.stop().await;
}

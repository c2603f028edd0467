//! Hostile clients over real sockets: a socket that never reads, repeated lobby subscriptions, ping floods, code
//! guessing across reconnects and identities, chat, table, rename and challenge limits per player, chat from
//! outside a table, and names that hide or reorder text.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, http_get};
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;
use tokio_tungstenite::MaybeTlsStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// A greeted client with a new identity whose socket comes from the loopback address `src`.
async fn client_from(server: &Server, src: &str) -> Client {
    let cookie = server.cookie().await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{src}:0").parse().unwrap()).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let mut request = format!("ws://{}/ws", server.addr).into_client_request().unwrap();
    request
        .headers_mut()
        .insert("Cookie", HeaderValue::from_str(&cookie).unwrap());
    let (ws, _) = tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(stream))
        .await
        .unwrap();
    let mut c = Client {
        ws,
        cookie: Some(cookie),
        id: String::new(),
        name: String::new(),
        addr: server.addr,
    };
    c.send(json!({"t": "hello", "protocol": 1})).await;
    let welcome = c.expect("welcome").await;
    c.id = welcome["you"]["id"].as_str().unwrap().to_owned();
    c
}

fn public_chess() -> Value {
    json!({"game": "chess", "seats": [{"kind": "me"}, {"kind": "open"}]})
}

/// The server's count of open websocket connections, from `/metrics`.
async fn connections(server: &Server) -> i64 {
    let (_, body) = http_get(server.addr, "/metrics", None).await;
    body.lines()
        .find_map(|l| l.strip_prefix("parlor_connections "))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Sends a ping and waits for its pong; returns how long that took.
async fn round_trip(c: &mut Client) -> Duration {
    let start = Instant::now();
    c.send(json!({"t": "ping"})).await;
    c.expect("pong").await;
    start.elapsed()
}

#[tokio::test]
async fn a_socket_that_never_reads_is_dropped_while_others_are_served() {
    let server = Server::start().await;
    // 25 public tables from five players make the lobby about 8 KB.
    let mut hosts = Vec::new();
    for _ in 0..5 {
        let mut host = server.client().await;
        for _ in 0..5 {
            host.create(public_chess()).await;
        }
        hosts.push(host);
    }
    // A table whose state carries 50 long chat lines (about 45 KB): ten players write five lines each.
    let mut owner = server.client().await;
    let (table, _, _) = owner.create(public_chess()).await;
    let line = "দাবা ".repeat(60);
    let mut chatters = Vec::new();
    for i in 0..10 {
        let mut c = match i {
            0 => std::mem::replace(&mut owner, server.client().await),
            1..=5 => hosts.pop().unwrap(),
            _ => server.client().await,
        };
        if i > 0 {
            c.send(json!({"t": "open", "table": table})).await;
            c.expect("table").await;
        }
        for _ in 0..5 {
            c.send(json!({"t": "chat", "table": table, "text": line})).await;
            c.event("chat").await;
        }
        chatters.push(c);
    }
    let mut reader = server.client().await;
    reader.send(json!({"t": "lobby", "on": true})).await;
    reader.expect("lobby").await;

    // A client with a small receive buffer that asks for the lobby again and again and never reads.
    let cookie = server.cookie().await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let mut request = format!("ws://{}/ws", server.addr).into_client_request().unwrap();
    request
        .headers_mut()
        .insert("Cookie", HeaderValue::from_str(&cookie).unwrap());
    let (mut silent, _) = tokio_tungstenite::client_async(request, stream).await.unwrap();
    silent
        .send(Message::Text(
            json!({"t": "hello", "protocol": 1}).to_string().into(),
        ))
        .await
        .unwrap();
    let greeted = Instant::now();
    while connections(&server).await != 13 {
        assert!(
            greeted.elapsed() < Duration::from_secs(5),
            "the silent client was not greeted"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let start = Instant::now();
    let mut dropped = None;
    let mut slowest = Duration::ZERO;
    while start.elapsed() < Duration::from_secs(45) {
        // The table's whole state, and the lobby, over and over (under the message rate limit).
        for msg in [
            json!({"t": "open", "table": table}),
            json!({"t": "open", "table": table}),
            json!({"t": "lobby", "on": false}),
            json!({"t": "lobby", "on": true}),
        ] {
            let msg = Message::Text(msg.to_string().into());
            if tokio::time::timeout(Duration::from_millis(100), silent.send(msg))
                .await
                .is_err()
            {
                break;
            }
        }
        slowest = slowest.max(round_trip(&mut reader).await);
        if connections(&server).await == 12 {
            dropped = Some(start.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let dropped = dropped.expect("the server still holds the socket that never reads after 45 s");
    // It fills its socket buffers, then the writer gives up within the send timeout (10 s) or the byte cap.
    assert!(dropped < Duration::from_secs(40), "dropped after {dropped:?}");
    assert!(
        slowest < Duration::from_secs(1),
        "a reading client waited {slowest:?} for a pong"
    );
    // The others are still served: the lobby still streams to the reader.
    let mut late = server.client().await;
    late.create(public_chess()).await;
    reader.expect("lobby_table").await;
    drop((silent, chatters, owner));
}

#[tokio::test]
async fn a_second_lobby_on_sends_no_second_snapshot() {
    let server = Server::start().await;
    let mut host = server.client().await;
    host.create(public_chess()).await;
    let mut c = server.client().await;
    c.send(json!({"t": "lobby", "on": true})).await;
    let lobby = c.expect("lobby").await;
    assert_eq!(lobby["tables"].as_array().unwrap().len(), 1);
    for _ in 0..5 {
        c.send(json!({"t": "lobby", "on": true})).await;
    }
    c.send(json!({"t": "ping"})).await;
    loop {
        let msg = c.next().await.unwrap();
        assert_ne!(
            msg["t"], "lobby",
            "a repeated lobby on sent the whole lobby again"
        );
        if msg["t"] == "pong" {
            break;
        }
    }
    // One subscription, not six: a change comes once.
    host.create(public_chess()).await;
    c.expect("lobby_table").await;
    c.send(json!({"t": "ping"})).await;
    loop {
        let msg = c.next().await.unwrap();
        assert_ne!(msg["t"], "lobby_table", "a change came twice");
        if msg["t"] == "pong" {
            break;
        }
    }
    // Off then on again is a new subscription with a snapshot.
    c.send(json!({"t": "lobby", "on": false})).await;
    c.send(json!({"t": "lobby", "on": true})).await;
    let lobby = c.expect("lobby").await;
    assert_eq!(lobby["tables"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_ping_flood_closes_the_socket_like_a_message_flood() {
    let server = Server::start().await;
    let mut c = server.client().await;
    for _ in 0..300 {
        if c.ws.send(Message::Ping(vec![1, 2, 3].into())).await.is_err() {
            break;
        }
    }
    assert!(c.closes().await, "300 pings in a burst were all accepted");
}

#[tokio::test]
async fn wrong_codes_are_limited_per_player_and_per_address_across_reconnects() {
    let server = Server::start().await;
    let mut guesser = server.client().await;
    for i in 0..10 {
        guesser
            .send(json!({"t": "open", "code": format!("ZZZZ{i:02}")}))
            .await;
        guesser.error("table_not_found").await;
    }
    guesser.send(json!({"t": "open", "code": "ZZZZ99"})).await;
    guesser.error("rate_limited").await;
    // Reconnecting does not reset the limit.
    drop(guesser.ws);
    let mut again = Client::connect(server.addr, guesser.cookie.as_deref()).await;
    again.send(json!({"t": "open", "code": "ZZZZ98"})).await;
    again.error("rate_limited").await;
    // New identities from the same address (not the exempt 127.0.0.1) share the address's 30 wrong guesses.
    let mut refused = false;
    'ids: for _ in 0..4 {
        let mut c = client_from(&server, "127.0.0.2").await;
        for i in 0..10 {
            c.send(json!({"t": "open", "code": format!("YYYY{i:02}")})).await;
            let answer = c
                .until("answer", |v| {
                    v["t"] == "error" && (v["code"] == "table_not_found" || v["code"] == "rate_limited")
                })
                .await;
            if answer["code"] == "rate_limited" {
                refused = true;
                break 'ids;
            }
        }
    }
    assert!(refused, "40 wrong codes from one address were all looked up");
}

#[tokio::test]
async fn chat_is_limited_per_player_not_per_socket() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let (table, _, _) = a.create(public_chess()).await;
    let mut a2 = a.reconnect().await;
    a2.send(json!({"t": "open", "table": table})).await;
    a2.expect("table").await;
    for i in 0..5 {
        a.send(json!({"t": "chat", "table": table, "text": format!("line {i}")}))
            .await;
        a.event("chat").await;
    }
    a2.send(json!({"t": "chat", "table": table, "text": "one more"}))
        .await;
    a2.error("rate_limited").await;
}

#[tokio::test]
async fn chat_needs_a_seat_or_the_table_open() {
    let server = Server::start().await;
    let mut host = server.client().await;
    let (table, _, _) = host
        .create(json!({"game": "chess", "private": true, "seats": [{"kind": "me"}, {"kind": "open"}]}))
        .await;
    let mut outsider = server.client().await;
    outsider
        .send(json!({"t": "chat", "table": table, "text": "hello from outside"}))
        .await;
    outsider.error("not_at_table").await;
    host.send(json!({"t": "ping"})).await;
    let msg = host
        .until("pong or chat", |v| v["t"] == "pong" || v["t"] == "event")
        .await;
    assert_eq!(msg["t"], "pong", "the outsider's line reached the table: {msg}");
    // Once it has the table open, it may chat.
    outsider.send(json!({"t": "open", "table": table})).await;
    outsider.expect("table").await;
    outsider
        .send(json!({"t": "chat", "table": table, "text": "hello"}))
        .await;
    host.event("chat").await;
}

#[tokio::test]
async fn tables_challenges_and_renames_are_limited_per_player() {
    let server = Server::start().await;
    let mut x = server.client().await;
    // Ten open tables at once, then no more.
    for _ in 0..10 {
        x.create(public_chess()).await;
    }
    x.send(json!({"t": "create", "spec": public_chess()})).await;
    x.error("too_many_tables").await;

    // One pending challenge per pair: a second one to the same player is refused until the first is answered.
    let spec = json!({"game": "chess", "private": true});
    let mut w = server.client().await;
    let mut y = server.client().await;
    w.send(json!({"t": "challenge", "to": y.id, "spec": spec})).await;
    let incoming = y.expect("challenge").await;
    w.send(json!({"t": "challenge", "to": y.id, "spec": spec})).await;
    w.error("challenge_exists").await;
    y.send(json!({"t": "challenge_answer", "id": incoming["id"], "answer": "decline"}))
        .await;
    w.until("declined", |v| v["t"] == "challenge" && v["state"] == "declined")
        .await;
    w.send(json!({"t": "challenge", "to": y.id, "spec": spec})).await;
    w.until("pending", |v| v["t"] == "challenge" && v["state"] == "pending")
        .await;

    // At most five pending challenges.
    let mut others = Vec::new();
    for _ in 0..6 {
        others.push(server.client().await);
    }
    for o in &others[..5] {
        x.send(json!({"t": "challenge", "to": o.id, "spec": spec})).await;
        x.until("pending", |v| v["t"] == "challenge" && v["state"] == "pending")
            .await;
    }
    x.send(json!({"t": "challenge", "to": others[5].id, "spec": spec}))
        .await;
    x.error("too_many_challenges").await;

    // Renames: three, then the limit.
    for name in ["Asha", "Asha B", "Asha C"] {
        x.send(json!({"t": "set_name", "name": name})).await;
        x.expect("named").await;
    }
    x.send(json!({"t": "set_name", "name": "Asha D"})).await;
    x.error("rate_limited").await;
}

#[tokio::test]
async fn a_player_hosts_a_bounded_number_of_open_tables() {
    let server = Server::start().await;
    let mut x = server.client().await;
    for _ in 0..5 {
        x.create(public_chess()).await;
    }
    // Five more through accepted challenges (not limited by the creation rate, but hosted all the same).
    let spec = json!({"game": "chess", "private": true});
    for _ in 0..5 {
        let mut y = server.client().await;
        x.send(json!({"t": "challenge", "to": y.id, "spec": spec})).await;
        let incoming = y.expect("challenge").await;
        y.send(json!({"t": "challenge_answer", "id": incoming["id"], "answer": "accept"}))
            .await;
        x.until("accepted", |v| v["t"] == "challenge" && v["state"] == "accepted")
            .await;
    }
    x.send(json!({"t": "create", "spec": public_chess()})).await;
    x.error("too_many_tables").await;
}

#[tokio::test]
async fn names_that_hide_or_reorder_text_are_refused() {
    let server = Server::start().await;
    let mut c = server.client().await;
    let other_guest = {
        let other = server.client().await;
        other.name.clone()
    };
    for bad in [
        "\u{202E}gnp.exe".to_owned(),
        "ab\u{2066}cd\u{2069}".to_owned(),
        "Asha\u{200B}".to_owned(),
        "\u{200D}\u{200D}".to_owned(),
        "\u{3164}".to_owned(),
        "   ".to_owned(),
        other_guest.clone(),
    ] {
        c.send(json!({"t": "set_name", "name": bad})).await;
        let e = c.error("name_invalid").await;
        assert!(!e["message"].as_str().unwrap().is_empty());
    }
    // Bengali and Marathi names with joiners inside a word are kept as typed.
    for good in ["র\u{200D}্যাব", "अर्\u{200D}य"] {
        c.send(json!({"t": "set_name", "name": good})).await;
        let named = c.expect("named").await;
        assert_eq!(named["you"]["name"], good);
    }
}

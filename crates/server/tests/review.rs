//! Game reviews and the analysis board over real HTTP and a real SQLite file: a finished game is reviewed once and
//! stored (a restarted server answers from the store), its blunder is marked and its mate shown; a live game, a
//! foreign page and a full queue are refused; the analysis board answers positions, refuses bad ones with a reason,
//! and imports PGN and PDN with the rules crates' readers.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Server, fools_mate, two_player_game};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A plain HTTP/1.1 request: (status, JSON body). `origin` is sent as the `Origin` header.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    origin: Option<&str>,
) -> (u16, Value) {
    http_from(addr, method, path, body, origin, None).await
}

/// A same-site POST of a JSON body: (status, JSON body).
async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    http(addr, "POST", path, Some(&body), None).await
}

/// As [`http`], through the local proxy for the client `forwarded` (`X-Forwarded-For`) if given.
async fn http_from(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    origin: Option<&str>,
    forwarded: Option<&str>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    let forwarded = forwarded
        .map(|f| format!("X-Forwarded-For: {f}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{origin}{forwarded}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Asks for a game's review and waits until it is done: the review.
async fn reviewed(addr: SocketAddr, id: &str) -> Value {
    let path = format!("/api/game/{id}/review");
    let (status, state) = http(addr, "POST", &path, None, None).await;
    assert!(status == 202 || status == 200, "{status} {state}");
    for _ in 0..600 {
        let (status, state) = http(addr, "GET", &path, None, None).await;
        match state["state"].as_str().unwrap() {
            "done" => {
                assert_eq!(status, 200);
                return state["review"].clone();
            }
            "queued" | "running" => {
                assert_eq!(status, 202);
                assert!(state["done"].as_u64().unwrap() <= state["total"].as_u64().unwrap());
            }
            other => panic!("{other}: {state}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the review did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_once_with_its_blunder_marked() {
    let fast = |c: &mut parlor_server::Config| {
        c.review_think = Duration::from_millis(40);
        c.analysis_slots = Some(1);
    };
    let server = Server::start_with(fast).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let id = fools_mate(&mut a, &mut b, false).await;
    let path = format!("/api/game/{id}/review");
    assert_eq!(
        http(server.addr, "GET", &path, None, None).await.1["state"],
        "none"
    );
    // A page of another site may not start work with a player's cookie.
    let (status, body) = http(server.addr, "POST", &path, None, Some("http://evil.example")).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("origin")));
    let origin = format!("http://{}", server.addr);
    let (status, _) = http(server.addr, "POST", &path, None, Some(&origin)).await;
    assert!(status == 202 || status == 200, "{status}");
    let review = reviewed(server.addr, &id).await;

    assert_eq!(review["game"], "chess");
    assert_eq!(review["unit"], "pawn");
    let positions = review["positions"].as_array().unwrap();
    let moves = review["moves"].as_array().unwrap();
    assert_eq!((positions.len(), moves.len()), (5, 4));
    // 2. g4 allows mate in one: a blunder, and the engine shows the mate for Black before it is played.
    assert_eq!(moves[2]["display"], "g4");
    assert_eq!(moves[2]["mark"], "blunder", "{review}");
    assert!(moves[2]["loss"].as_i64().unwrap() > 1000);
    assert_eq!(positions[3]["mate"], -1, "{}", positions[3]);
    assert_eq!(positions[3]["best"], "d8h4");
    assert_eq!(positions[3]["best_display"], "Qh4#");
    assert_eq!(positions[3]["eval"], json!([-10000, 10000]));
    // Black's moves lose nothing that counts; the final position is Black's win.
    assert!(
        moves[1]["mark"].is_null() && moves[3]["mark"].is_null(),
        "{review}"
    );
    assert_eq!(positions[4]["eval"], json!([-10000, 10000]));
    assert!(positions[4]["best"].is_null());
    let players = review["players"].as_array().unwrap();
    assert_eq!(players[0]["blunder"], 1);
    assert_eq!(players[1]["blunder"], 0);
    assert_eq!(players[0]["moves"], 2);

    // The export carries the evaluations and marks as comments, and still reads back.
    let (_, pgn) = common::http_get(server.addr, &format!("/api/game/{id}/export?review=1"), None).await;
    let movetext = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(movetext.contains("2. g4 {[%eval #-1] Blunder. Best: "), "{pgn}");
    assert!(movetext.contains("1. f3 {[%eval "), "{pgn}");
    assert!(movetext.contains("Qh4# 0-1"), "{pgn}");
    let back = parlor_server::games::read_export("chess", &pgn).unwrap();
    assert_eq!(back.history().len(), 4);
    let (_, plain) = common::http_get(server.addr, &format!("/api/game/{id}/export"), None).await;
    assert!(!plain.contains("[%eval"), "{plain}");

    // Stored: a restarted server answers at once from the store.
    let (dir, database) = server.stop().await;
    let server = Server::start_on(dir, database, fast).await;
    let (status, state) = http(server.addr, "GET", &path, None, None).await;
    assert_eq!((status, state["state"].as_str()), (200, Some("done")));
    assert_eq!(state["review"], review);
    let (status, state) = http(server.addr, "POST", &path, None, None).await;
    assert_eq!((status, state["state"].as_str()), (200, Some("done")));
    // An unknown game.
    let (status, body) = http(server.addr, "POST", "/api/game/nope/review", None, None).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("no_game")));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_game_is_not_reviewed_and_a_draughts_game_is() {
    let server = Server::start_with(|c| c.review_think = Duration::from_millis(30)).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(
        &mut a,
        &mut b,
        json!({"game": "draughts/english", "seats": [{"kind": "me"}]}),
    )
    .await;
    assert_eq!(a.play(&table, 0, "11-15").await["t"], "ack");
    a.send(json!({"t": "open", "table": table})).await;
    let id = a.expect("table").await["state"]["game"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/game/{id}/review");
    let (status, body) = http(server.addr, "POST", &path, None, None).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("live")));
    assert_eq!(b.play(&table, 1, "22-18").await["t"], "ack");
    b.send(json!({"t": "resign", "table": table})).await;
    b.event("ended").await;
    let review = reviewed(server.addr, &id).await;
    assert_eq!(review["unit"], "man");
    assert_eq!(review["moves"].as_array().unwrap().len(), 2);
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    // The position after a resignation is still the engine's to judge: it has a best move.
    assert!(positions[2]["best"].is_string(), "{review}");
    assert!(positions[2]["best_display"].is_string(), "{review}");
    assert!(!positions[2]["pv"].as_array().unwrap().is_empty(), "{review}");
    assert!(positions.iter().all(|p| p["eval"].as_array().unwrap().len() == 2));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_answers_positions_and_refuses_bad_ones() {
    let server = Server::start().await;
    let addr = server.addr;
    // White mates in one.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let (status, body) = post(
        addr,
        "/api/analysis",
        json!({"game": "chess", "start": fen, "think_ms": 100}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["eval"]["mate"], 1);
    assert_eq!(body["eval"]["best"], "h5f7");
    assert_eq!(body["eval"]["best_display"], "Qxf7#");
    assert_eq!(body["turn"], 0);
    assert!(
        body["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["wire"] == "h5f7")
    );
    // The mate played: over, no evaluation, no legal move.
    let (status, body) = post(
        addr,
        "/api/analysis",
        json!({"game": "chess", "start": fen, "moves": ["h5f7"]}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["outcome"]["reason"], "checkmate");
    assert!(body["eval"].is_null() && body["turn"].is_null());
    assert_eq!(body["moves"][0]["display"], "Qxf7#");
    // Bad input gets a reason.
    let (status, body) = post(
        addr,
        "/api/analysis",
        json!({"game": "chess", "moves": ["e2e4", "e2e4"]}),
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str(), body["ply"].as_u64()),
        (400, Some("bad_move"), Some(2))
    );
    let (status, body) = post(
        addr,
        "/api/analysis",
        json!({"game": "chess", "start": "8/8/8 w"}),
    )
    .await;
    assert_eq!((status, body["error"].as_str()), (400, Some("bad_position")));
    let (status, body) = post(addr, "/api/analysis", json!({"game": "go"})).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("bad_game")));
    let (status, _) = http(
        addr,
        "POST",
        "/api/analysis",
        Some(&json!({"game": "chess"})),
        Some("http://evil.example"),
    )
    .await;
    assert_eq!(status, 403);
    // Four-player chess: four values.
    let (status, body) = post(addr, "/api/analysis", json!({"game": "chess4", "think_ms": 50})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["eval"]["eval"].as_array().unwrap().len(), 4);

    // Imports: PGN and PDN through the rules crates' readers.
    let pgn = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6) 3. Bb5 *";
    let (status, body) = post(addr, "/api/import", json!({"game": "chess", "text": pgn})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["moves"], json!(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]));
    let (status, body) = post(
        addr,
        "/api/import",
        json!({"game": "draughts/english", "text": "1. 11-15 23-19 2. 8-11 *"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["moves"].as_array().unwrap().len(), 3);
    let (status, body) = post(addr, "/api/import", json!({"game": "chess", "text": "1. e5"})).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("bad_import")));
    server.stop().await;
}

/// One client address may have only a few analyses in flight: the next is refused at once as busy, and another
/// address is served meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_engine_place() {
    let server = Server::start_with(|c| c.analysis_slots = Some(1)).await;
    let addr = server.addr;
    // Four searches of 0.8 s on one place: the last ends after about 3.2 s, well before the 5 s a request waits.
    let long = json!({"game": "chess", "think_ms": 800});
    let busy: Vec<_> = (0..parlor_server::analysis::PER_ADDRESS)
        .map(|_| {
            let long = long.clone();
            tokio::spawn(async move {
                http_from(
                    addr,
                    "POST",
                    "/api/analysis",
                    Some(&long),
                    None,
                    Some("203.0.113.7"),
                )
                .await
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    let (status, body) = http_from(
        addr,
        "POST",
        "/api/analysis",
        Some(&long),
        None,
        Some("203.0.113.7"),
    )
    .await;
    assert_eq!((status, body["error"].as_str()), (429, Some("busy")));
    assert!(started.elapsed() < Duration::from_millis(500), "refused at once");
    // Another address waits for the place (behind the four) and is served.
    let quick = json!({"game": "chess", "think_ms": 50});
    let other = tokio::spawn(async move {
        http_from(
            addr,
            "POST",
            "/api/analysis",
            Some(&quick),
            None,
            Some("198.51.100.9"),
        )
        .await
    });
    for b in busy {
        let (status, _) = b.await.unwrap();
        assert!(status == 200 || status == 429, "{status}");
    }
    assert_eq!(other.await.unwrap().0, 200);
    server.stop().await;
}

//! `/image/...` over real HTTP: PNG and SVG for each game, caching headers, the cache, every kind of bad
//! input (a 400 with the parser's reason, never a 500), and the `Image` tag of a game's export.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Server, http_get, two_player_game};
use serde_json::json;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A GET returning the head and the raw body (PNG is binary).
async fn get_bytes(addr: SocketAddr, path: &str) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&response[..split]).into_owned();
    (head, response[split + 4..].to_vec())
}

fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[tokio::test]
async fn pictures_of_each_game_with_caching_headers() {
    let server = Server::start().await;
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR+b+KQkq+-+0+1";
    for path in [
        format!("/image/chess.png?fen={fen}&lastmove=e2e4&size=300"),
        "/image/draughts.png?variant=international&fen=W:W31-50:B1-20&size=300&theme=dark".to_owned(),
        "/image/chess4.png?orientation=green&size=300".to_owned(),
    ] {
        let (head, body) = get_bytes(server.addr, &path).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
        let lower = head.to_ascii_lowercase();
        assert!(lower.contains("content-type: image/png"), "{head}");
        assert!(
            lower.contains("cache-control: public, max-age=31536000, immutable"),
            "{head}"
        );
        assert_eq!(png_size(&body), (300, 300));
        // The second answer comes from the cache and is the same picture.
        let (head2, body2) = get_bytes(server.addr, &path).await;
        assert!(head2.starts_with("HTTP/1.1 200"));
        assert_eq!(body, body2);
    }
    for path in [
        format!("/image/chess.svg?fen={fen}"),
        "/image/draughts.svg?fen=B:W21-32:B1-12".to_owned(),
        "/image/chess4.svg".to_owned(),
    ] {
        let (head, body) = http_get(server.addr, &path, None).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
        assert!(head.to_ascii_lowercase().contains("content-type: image/svg+xml"));
        assert!(body.starts_with("<svg") && body.contains("<use"), "{body}");
    }
    server.stop().await;
}

#[tokio::test]
async fn bad_input_is_a_400_with_the_reason() {
    let server = Server::start().await;
    let long = format!("/image/chess.png?fen={}", "p".repeat(3000));
    let cases: Vec<(String, &str)> = vec![
        ("/image/chess.png?fen=not+a+fen".into(), "bad FEN"),
        ("/image/chess.svg?fen=8/8/8/8/8/8/8/8+w+-+-+0+1".into(), "bad FEN"),
        ("/image/draughts.png?fen=W:W1".into(), "bad PDN FEN"),
        (
            "/image/draughts.svg?variant=english&fen=W:W33".into(),
            "bad PDN FEN",
        ),
        ("/image/draughts.png?variant=chinese".into(), "variant"),
        ("/image/chess4.png?fen4=R-0,0,0,0".into(), "bad FEN4"),
        ("/image/chess4.svg?fen4=".into(), "bad FEN4"),
        ("/image/chess.png?size=5000".into(), "64 to 2048"),
        ("/image/chess.png?size=-1".into(), "size"),
        ("/image/chess4.png?orientation=black".into(), "red, blue"),
        ("/image/chess.png?lastmove=e2".into(), "two squares"),
        ("/image/draughts.png?check=e1".into(), "auto or off"),
        ("/image/chess.png?theme=neon".into(), "light or dark"),
        ("/image/chess.png?coords=maybe".into(), "on or off"),
        ("/image/chess.png?colour=red".into(), "unknown parameter"),
        ("/image/chess.png?size=100&size=200".into(), "twice"),
        ("/image/chess.png?fen=%E0%A4".into(), "percent"),
        (long, "too long"),
    ];
    for (path, reason) in cases {
        let (head, body) = http_get(server.addr, &path, None).await;
        assert!(head.starts_with("HTTP/1.1 400"), "{path}: {head}");
        assert!(body.contains(reason), "{path}: {body}");
    }
    for path in ["/image/go.png", "/image/chess.gif", "/image/chess"] {
        let (head, _) = http_get(server.addr, path, None).await;
        assert!(head.starts_with("HTTP/1.1 404"), "{path}: {head}");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_export_names_the_picture_of_its_final_position() {
    let server = Server::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let table = two_player_game(
        &mut a,
        &mut b,
        json!({"game": "chess", "seats": [{"kind": "me"}]}),
    )
    .await;
    for (ply, wire) in ["e2e4", "e7e5"].into_iter().enumerate() {
        let mover = if ply == 0 { &mut a } else { &mut b };
        let ack = mover.play(&table, ply as u32, wire).await;
        assert_eq!(ack["t"], "ack", "{ack}");
    }
    a.send(json!({"t": "open", "table": table})).await;
    let state = a.expect("table").await;
    let game_id = state["state"]["game"]["id"].as_str().unwrap().to_owned();
    let (_, pgn) = http_get(server.addr, &format!("/api/game/{game_id}/export"), None).await;
    let line = pgn
        .lines()
        .find(|l| l.starts_with("[Image "))
        .unwrap_or_else(|| panic!("{pgn}"));
    // An absolute link, from the request's Host.
    let url = line.trim_start_matches("[Image \"").trim_end_matches("\"]");
    let url = url
        .strip_prefix(&format!("http://{}", server.addr))
        .unwrap_or_else(|| panic!("{url}"));
    assert!(
        url.starts_with("/image/chess.png?fen=rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR+w+KQkq"),
        "{url}"
    );
    let (head, body) = get_bytes(server.addr, url).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(png_size(&body), (512, 512));
    server.stop().await;
}

/// Many big uncached PNGs at once: the renderer takes what its pixel budget allows (four 2048 px pictures in
/// flight) and refuses the rest at once with a 503 and `Retry-After`, instead of rendering them all and holding
/// their memory; once the burst is served, a refused picture renders.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn big_renders_past_the_budget_are_refused_at_once() {
    let server = Server::start().await;
    let squares = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"];
    let paths: Vec<String> = (0..12)
        .map(|i| {
            let (from, to) = (squares[i % 8], squares[(i / 8 + i + 1) % 8]);
            format!(
                "/image/chess.png?size=2048&lastmove={from}{to}&theme={}",
                ["light", "dark"][i / 8]
            )
        })
        .collect();
    let answers = futures_util::future::join_all(paths.iter().map(|path| {
        let addr = server.addr;
        async move {
            let started = std::time::Instant::now();
            let (head, body) = get_bytes(addr, path).await;
            (head, body, started.elapsed())
        }
    }))
    .await;
    let mut rendered = 0;
    let mut refused = Vec::new();
    for ((head, body, took), path) in answers.iter().zip(&paths) {
        if head.starts_with("HTTP/1.1 200") {
            assert_eq!(png_size(body), (2048, 2048));
            rendered += 1;
        } else {
            assert!(head.starts_with("HTTP/1.1 503"), "{path}: {head}");
            assert!(head.to_ascii_lowercase().contains("retry-after: 1"), "{head}");
            assert!(String::from_utf8_lossy(body).contains("busy"));
            assert!(took.as_secs() < 2, "a refusal waited {took:?}");
            refused.push(path);
        }
    }
    assert!(rendered >= 4, "the budget admits four: {rendered} rendered");
    assert!(!refused.is_empty(), "all {rendered} rendered at once");
    let (head, body) = get_bytes(server.addr, refused[0]).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(png_size(&body), (2048, 2048));
    server.stop().await;
}

//! The network edge on a real server: header timeout, connection caps with a clear refusal, the websocket's
//! Origin check, security headers and the Secure cookie behind a trusted proxy.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Server, http_get, two_player_game};
use serde_json::json;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// What a visitor may wait for an answer during an attack.
const SNAPPY: Duration = Duration::from_secs(1);

/// Opening moves of a game that neither ends nor repeats.
const MOVES: [&str; 12] = [
    "g1f3", "g8f6", "b1c3", "b8c6", "e2e4", "e7e5", "d2d4", "d7d6", "f1c4", "f8e7", "c1g5", "c8g4",
];

/// A TCP connection to `server` from the local address `from` (any of 127.0.0.0/8).
async fn connect_from(from: IpAddr, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(server).await.unwrap()
}

/// Everything the server sends until it closes, or `None` if it does not close within `wait`.
async fn read_until_closed(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    let deadline = Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline.into(), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(String::from_utf8_lossy(&got).into_owned()),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => return None,
        }
    }
}

/// A GET on an open keep-alive connection; returns the response head.
async fn keep_alive_get(stream: &mut TcpStream, path: &str) -> String {
    let request = format!("GET {path} HTTP/1.1\r\nHost: parlor\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(common::WAIT, stream.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&got);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap())
                })
                .unwrap_or(0);
            if body.len() >= length {
                return head.to_owned();
            }
        }
    }
}

/// `/healthz` on a new connection, with the time it took.
async fn healthz(addr: SocketAddr) -> (String, Duration) {
    let start = Instant::now();
    let (head, body) = tokio::time::timeout(common::WAIT, http_get(addr, "/healthz", None))
        .await
        .unwrap();
    (format!("{head}\r\n\r\n{body}"), start.elapsed())
}

/// A value of `/metrics`.
async fn metric(addr: SocketAddr, name: &str) -> u64 {
    let (_, text) = http_get(addr, "/metrics", None).await;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no {name} in {text}"))
        .parse()
        .unwrap()
}

/// Plays the next move of the game and returns how long its ack and the opponent's event took.
async fn timed_move(players: &mut [Client; 2], table: &str, ply: usize) -> Duration {
    let start = Instant::now();
    let ack = players[ply % 2].play(table, ply as u32, MOVES[ply]).await;
    assert_eq!(ack["t"], "ack", "{ack}");
    players[1 - ply % 2].event("moved").await;
    start.elapsed()
}

#[tokio::test]
async fn slow_headers_and_idle_keep_alive_connections_are_closed_after_the_header_timeout() {
    let server = Server::start_with(|c| c.header_timeout = Duration::from_secs(1)).await;
    // Half a request, then nothing.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: parlor\r\n")
        .await
        .unwrap();
    // A connection that never says anything.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    // A keep-alive connection that asked once and then idles.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    assert!(keep_alive_get(&mut idle, "/healthz").await.contains("200 OK"));
    let start = Instant::now();
    for stream in [&mut slow, &mut silent, &mut idle] {
        assert!(
            read_until_closed(stream, Duration::from_secs(5)).await.is_some(),
            "a connection stayed open past the header timeout"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    assert!(metric(server.addr, "parlor_tcp_header_timeouts_total").await >= 2);
    server.stop().await;
}

#[tokio::test]
async fn a_request_head_past_the_limit_is_refused() {
    let server = Server::start().await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let big = "a".repeat(40 * 1024);
    let request = format!("GET /healthz HTTP/1.1\r\nHost: parlor\r\nX-Big: {big}\r\n\r\n");
    let _ = stream.write_all(request.as_bytes()).await;
    let answer = read_until_closed(&mut stream, Duration::from_secs(5))
        .await
        .expect("closed");
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:?}");
    // A head of ordinary size is fine.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let cookie = "b".repeat(4 * 1024);
    let request = format!("GET /healthz HTTP/1.1\r\nHost: parlor\r\nCookie: x={cookie}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = [0u8; 64];
    let n = stream.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    server.stop().await;
}

#[tokio::test]
async fn the_per_address_cap_refuses_one_address_extra_connections_and_no_one_else() {
    let server = Server::start_with(|c| {
        c.max_connections_per_address = 8;
        // Loopback is trusted as a proxy by default, and proxies are not capped.
        c.trusted_proxies = Vec::new();
    })
    .await;
    let attacker: IpAddr = [127, 0, 0, 2].into();
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(connect_from(attacker, server.addr).await);
    }
    for _ in 0..3 {
        let mut extra = connect_from(attacker, server.addr).await;
        let answer = read_until_closed(&mut extra, SNAPPY)
            .await
            .expect("refused at once");
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
        assert!(answer.contains("Retry-After: 5"), "{answer:?}");
    }
    // Others still get in, at once.
    let (health, took) = healthz(server.addr).await;
    assert!(health.contains("200 OK") && took < SNAPPY, "{health} {took:?}");
    let mut other = connect_from([127, 0, 0, 3].into(), server.addr).await;
    assert!(keep_alive_get(&mut other, "/healthz").await.contains("200 OK"));
    assert_eq!(metric(server.addr, "parlor_tcp_refused_address_total").await, 3);
    // A closed connection gives its place back.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from(attacker, server.addr).await;
    assert!(keep_alive_get(&mut again, "/healthz").await.contains("200 OK"));
    server.stop().await;
}

#[tokio::test]
async fn at_the_connection_cap_silent_connections_make_room_and_the_site_keeps_answering() {
    const CAP: usize = 40;
    let server = Server::start_with(|c| c.max_connections = Some(CAP)).await;
    let cookies = [server.cookie().await, server.cookie().await];
    let mut a = Client::connect(server.addr, Some(&cookies[0])).await;
    let mut b = Client::connect(server.addr, Some(&cookies[1])).await;
    let table = two_player_game(
        &mut a,
        &mut b,
        json!({"game": "chess", "seats": [{"kind": "me"}]}),
    )
    .await;
    let mut players = [a, b];
    let mut worst_health = Duration::ZERO;
    let mut worst_move = Duration::ZERO;
    // Ten times the cap of silent and half-sent connections, with the site used in between.
    let mut flood = Vec::new();
    for round in 0..10 {
        for i in 0..CAP {
            let mut s = TcpStream::connect(server.addr).await.unwrap();
            if i % 2 == 0 {
                let _ = s.write_all(b"GET / HTTP/1.1\r\n").await;
            }
            flood.push(s);
        }
        let (health, took) = healthz(server.addr).await;
        assert!(health.contains("200 OK"), "{health}");
        worst_health = worst_health.max(took);
        worst_move = worst_move.max(timed_move(&mut players, &table, round).await);
    }
    println!(
        "cap {CAP}, flood {}: worst /healthz {worst_health:?}, worst move {worst_move:?}",
        flood.len()
    );
    assert!(worst_health < SNAPPY && worst_move < SNAPPY);
    assert!(metric(server.addr, "parlor_tcp_connections").await <= CAP as u64);
    assert!(metric(server.addr, "parlor_tcp_evicted_total").await >= (9 * CAP) as u64);
    drop(flood);

    // When every connection has sent a request, a new one is refused clearly, and the game goes on.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut served = Vec::new();
    while served.len() < CAP - 2 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        assert!(keep_alive_get(&mut s, "/healthz").await.contains("200 OK"));
        served.push(s);
    }
    let mut extra = TcpStream::connect(server.addr).await.unwrap();
    let answer = read_until_closed(&mut extra, SNAPPY)
        .await
        .expect("refused at once");
    assert!(
        answer.starts_with("HTTP/1.1 503") && answer.contains("Retry-After"),
        "{answer:?}"
    );
    assert!(timed_move(&mut players, &table, 10).await < SNAPPY);
    // The refusal is counted.
    drop(served);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(metric(server.addr, "parlor_tcp_refused_full_total").await >= 1);
    server.stop().await;
}

/// A websocket upgrade to `/ws` with this cookie and Origin; the response status.
async fn upgrade_status(addr: SocketAddr, cookie: &str, origin: Option<&str>) -> (u16, Option<Client>) {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request
        .headers_mut()
        .insert("Cookie", HeaderValue::from_str(cookie).unwrap());
    if let Some(o) = origin {
        request
            .headers_mut()
            .insert("Origin", HeaderValue::from_str(o).unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, response)) => {
            let mut client = Client {
                ws,
                cookie: Some(cookie.to_owned()),
                id: String::new(),
                name: String::new(),
                addr,
            };
            client.send(json!({"t": "hello", "protocol": 1})).await;
            let welcome = client.expect("welcome").await;
            client.id = welcome["you"]["id"].as_str().unwrap().to_owned();
            client.name = welcome["you"]["name"].as_str().unwrap().to_owned();
            (response.status().as_u16(), Some(client))
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => (response.status().as_u16(), None),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn a_page_of_another_origin_cannot_use_the_players_cookie_on_the_websocket() {
    let server = Server::start_with(|c| c.origins = vec!["https://play.example.org".into()]).await;
    let cookie = server.cookie().await;
    let port = server.addr.port();
    let victim = Client::connect(server.addr, Some(&cookie)).await;
    let name = victim.name.clone();
    // Another port of the same host: same-site, so the browser sends the cookie along.
    for evil in [
        format!("http://127.0.0.1:{}", port + 1),
        "http://localhost".to_owned(),
        "null".to_owned(),
        format!("http://127.0.0.1:{port}.evil.example"),
    ] {
        let (status, client) = upgrade_status(server.addr, &cookie, Some(&evil)).await;
        assert_eq!(status, 403, "{evil}");
        assert!(client.is_none());
    }
    // The victim is not renamed: a fresh welcome still has the old name.
    let again = victim.reconnect().await;
    assert_eq!(again.name, name);
    // The site's own origin, a configured one, and no Origin at all (not a browser) are let in.
    for origin in [
        Some(format!("http://127.0.0.1:{port}")),
        Some("https://play.example.org".into()),
        None,
    ] {
        let (status, client) = upgrade_status(server.addr, &cookie, origin.as_deref()).await;
        assert_eq!(status, 101, "{origin:?}");
        let mut client = client.unwrap();
        assert_eq!(client.id, victim.id);
        client.send(json!({"t": "set_name", "name": "Renamed"})).await;
        client.expect("named").await;
    }
    assert_eq!(victim.reconnect().await.name, "Renamed");
    server.stop().await;
}

/// The response head of a GET with extra header lines.
async fn head_with(addr: SocketAddr, path: &str, extra: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let text = read_until_closed(&mut stream, common::WAIT).await.unwrap();
    text.split_once("\r\n\r\n")
        .map_or(text.clone(), |(h, _)| h.to_owned())
        .to_ascii_lowercase()
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let server = Server::start().await;
    let page = head_with(server.addr, "/", "").await;
    let (_, html) = http_get(server.addr, "/", None).await;
    let css = html
        .split("href=\"")
        .find_map(|s| s.split('"').next().filter(|p| p.ends_with("app.css")))
        .unwrap()
        .to_owned();
    for path in ["/", css.as_str(), "/healthz", "/no/such/page"] {
        let head = head_with(server.addr, path, "").await;
        for want in [
            "content-security-policy: default-src 'self'; script-src 'self' 'sha256-",
            "frame-ancestors 'none'",
            "referrer-policy: same-origin",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
        ] {
            assert!(head.contains(want), "{path}: no {want} in {head}");
        }
    }
    assert!(page.contains("200 ok"));
    server.stop().await;
}

fn cookie_line(head: &str) -> &str {
    head.lines().find(|l| l.starts_with("set-cookie:")).unwrap()
}

#[tokio::test]
async fn the_cookie_is_secure_only_behind_a_trusted_proxy_that_says_https() {
    // Loopback is a trusted proxy by default.
    let server = Server::start().await;
    let https = "X-Forwarded-Proto: https\r\n";
    assert!(cookie_line(&head_with(server.addr, "/", https).await).contains("; secure"));
    assert!(!cookie_line(&head_with(server.addr, "/", "").await).contains("secure"));
    assert!(
        !cookie_line(&head_with(server.addr, "/", "X-Forwarded-Proto: http\r\n").await).contains("secure")
    );
    server.stop().await;
    // No trusted proxy: the header is the client's own word and changes nothing.
    let server = Server::start_with(|c| c.trusted_proxies = Vec::new()).await;
    assert!(!cookie_line(&head_with(server.addr, "/", https).await).contains("secure"));
    server.stop().await;
}

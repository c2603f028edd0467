//! Test harness: a real server on 127.0.0.1:0 over a real SQLite file, and real websocket clients speaking JSON.
#![allow(dead_code, clippy::unwrap_used)]

use futures_util::{SinkExt, StreamExt};
use parlor_server::{Config, run};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Message, http::HeaderValue};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tokio_util::sync::CancellationToken;

/// How long a test waits for an expected message.
pub const WAIT: Duration = Duration::from_secs(10);

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    pub shutdown: CancellationToken,
    pub task: tokio::task::JoinHandle<()>,
    pub dir: tempdir::Dir,
    pub database: String,
}

pub mod tempdir {
    //! A temporary directory removed on drop.
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new() -> Dir {
            let path = std::env::temp_dir().join(format!("parlor-test-{}", uuid_like()));
            std::fs::create_dir_all(&path).unwrap();
            Dir(path)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    fn uuid_like() -> String {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        format!("{}-{nanos}", std::process::id())
    }
}

impl Server {
    pub async fn start() -> Server {
        Server::start_with(|_| {}).await
    }

    pub async fn start_with(tune: impl FnOnce(&mut Config)) -> Server {
        let dir = tempdir::Dir::new();
        let database = format!("sqlite://{}/parlor.db?mode=rwc", dir.0.display());
        Server::start_on(dir, database, tune).await
    }

    pub async fn start_on(dir: tempdir::Dir, database: String, tune: impl FnOnce(&mut Config)) -> Server {
        let mut config = Config {
            database: database.clone(),
            ..Config::default()
        };
        tune(&mut config);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let token = shutdown.clone();
        let task = tokio::spawn(async move {
            run(listener, config, token).await.unwrap();
        });
        Server {
            addr,
            shutdown,
            task,
            dir,
            database,
        }
    }

    /// Stops the server gracefully and waits for it.
    pub async fn stop(self) -> (tempdir::Dir, String) {
        self.shutdown.cancel();
        let _ = tokio::time::timeout(WAIT, self.task).await;
        (self.dir, self.database)
    }

    /// A new browser: gets its identity cookie from `GET /`.
    pub async fn cookie(&self) -> String {
        cookie(self.addr).await
    }

    /// A connected, greeted client with a new identity.
    pub async fn client(&self) -> Client {
        let cookie = self.cookie().await;
        Client::connect(self.addr, Some(&cookie)).await
    }
}

/// A new browser's identity cookie, from `GET /` on the server at `addr`.
pub async fn cookie(addr: SocketAddr) -> String {
    let (head, _) = http_get(addr, "/", None).await;
    let line = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap();
    line.split_once(':')
        .unwrap()
        .1
        .trim()
        .split(';')
        .next()
        .unwrap()
        .to_owned()
}

/// A plain HTTP/1.1 GET: (head, body).
pub async fn http_get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> (String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let cookie = cookie.map(|c| format!("Cookie: {c}\r\n")).unwrap_or_default();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (head.to_owned(), body.to_owned())
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A websocket client speaking the protocol.
pub struct Client {
    pub ws: Ws,
    pub cookie: Option<String>,
    pub id: String,
    pub name: String,
    pub addr: SocketAddr,
}

impl Client {
    /// Connects without saying hello.
    pub async fn raw(addr: SocketAddr, cookie: Option<&str>) -> Ws {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        if let Some(c) = cookie {
            request
                .headers_mut()
                .insert("Cookie", HeaderValue::from_str(c).unwrap());
        }
        tokio_tungstenite::connect_async(request).await.unwrap().0
    }

    /// Connects and says hello; returns after `welcome`.
    pub async fn connect(addr: SocketAddr, cookie: Option<&str>) -> Client {
        let ws = Client::raw(addr, cookie).await;
        let mut client = Client {
            ws,
            cookie: cookie.map(str::to_owned),
            id: String::new(),
            name: String::new(),
            addr,
        };
        client.send(json!({"t": "hello", "protocol": 1})).await;
        let welcome = client.expect("welcome").await;
        client.id = welcome["you"]["id"].as_str().unwrap().to_owned();
        client.name = welcome["you"]["name"].as_str().unwrap().to_owned();
        client
    }

    /// The same browser again (same cookie), after a disconnect.
    pub async fn reconnect(&self) -> Client {
        Client::connect(self.addr, self.cookie.as_deref()).await
    }

    pub async fn send(&mut self, msg: Value) {
        self.ws.send(Message::Text(msg.to_string().into())).await.unwrap();
    }

    /// The next JSON message, or None if the socket closed or nothing came within `WAIT`.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => return Some(serde_json::from_str(&t).unwrap()),
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => return None,
                Ok(Some(Ok(_))) => continue,
            }
        }
    }

    /// Skips messages until one matches.
    pub async fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            match self.next().await {
                Some(v) if pred(&v) => return v,
                Some(_) => continue,
                None => panic!(
                    "{} waited for {what} but the socket closed or went quiet",
                    self.name
                ),
            }
        }
    }

    /// The next message with this `t`.
    pub async fn expect(&mut self, t: &str) -> Value {
        let t = t.to_owned();
        self.until(&t.clone(), move |v| v["t"] == t.as_str()).await
    }

    /// The next table event with this `e`.
    pub async fn event(&mut self, e: &str) -> Value {
        let e = e.to_owned();
        self.until(&e.clone(), move |v| {
            v["t"] == "event" && v["event"]["e"] == e.as_str()
        })
        .await
    }

    /// The next error with this code.
    pub async fn error(&mut self, code: &str) -> Value {
        let code = code.to_owned();
        self.until(&code.clone(), move |v| {
            v["t"] == "error" && v["code"] == code.as_str()
        })
        .await
    }

    /// True if the socket closes (after any messages) within `WAIT`.
    pub async fn closes(&mut self) -> bool {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await {
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => return true,
                Ok(Some(Ok(_))) => continue,
                Err(_) => return false,
            }
        }
    }

    /// Creates a table; returns (table id, code, table state).
    pub async fn create(&mut self, spec: Value) -> (String, Option<String>, Value) {
        self.send(json!({"t": "create", "spec": spec})).await;
        let created = self.expect("created").await;
        let state = self.expect("table").await;
        (
            created["table"].as_str().unwrap().to_owned(),
            created["code"].as_str().map(str::to_owned),
            state,
        )
    }

    /// Plays a move and waits for its ack.
    pub async fn play(&mut self, table: &str, ply: u32, wire: &str) -> Value {
        let ack = u64::from(ply) + 1000;
        self.send(json!({"t": "move", "table": table, "ack": ack, "ply": ply, "wire": wire}))
            .await;
        self.until("ack", move |v| {
            (v["t"] == "ack" || v["t"] == "error") && v["ack"] == ack
        })
        .await
    }
}

/// Creates a two-player table with `a` seated and `b` seated too; returns the table id once the game started.
pub async fn two_player_game(a: &mut Client, b: &mut Client, spec: Value) -> String {
    let (table, _, _) = a.create(spec).await;
    b.send(json!({"t": "open", "table": table})).await;
    b.expect("table").await;
    b.send(json!({"t": "sit", "table": table})).await;
    a.event("started").await;
    b.event("started").await;
    table
}

/// Plays fool's mate at a new table; returns the game's id.
pub async fn fools_mate(a: &mut Client, b: &mut Client, private: bool) -> String {
    let table = two_player_game(
        a,
        b,
        json!({"game": "chess", "private": private, "seats": [{"kind": "me"}]}),
    )
    .await;
    for (ply, wire) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut *a } else { &mut *b };
        assert_eq!(mover.play(&table, ply as u32, wire).await["t"], "ack");
    }
    a.event("ended").await;
    a.send(json!({"t": "open", "table": table})).await;
    let state = a.expect("table").await;
    state["state"]["game"]["id"].as_str().unwrap().to_owned()
}

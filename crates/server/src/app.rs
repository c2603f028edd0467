//! The HTTP side: routes, the identity cookie, the game API, health and metrics, and `run`, the single entry point.

use crate::assets;
use crate::cluster::Cluster;
use crate::config::Config;
use crate::games::{GameSetup, Step};
use crate::hub::Hub;
use crate::listen::{self, Gate, Limits};
use crate::metrics::Metrics;
use crate::persist::Persist;
use crate::table::Occupant;
use crate::ws;
use crate::{headers, origin, proxy};
use axum::extract::{ConnectInfo, FromRef, Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use axum_extra::extract::cookie::{Cookie, Key, SameSite, SignedCookieJar};
use parlor_game::{ExportInfo, GameKind};
use parlor_protocol::{PlayerInfo, TableSpec};
use parlor_store::{AnyStore, Player, Store, StoreError};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// The identity cookie's name.
pub const COOKIE: &str = "parlor_id";

/// A server that could not start or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The store.
    #[error("store: {0}")]
    Store(#[from] StoreError),
    /// The listener.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// Joining the site (Redis, or a database that is not PostgreSQL).
    #[error("cluster: {0}")]
    Cluster(String),
    /// The stored cookie key is unusable.
    #[error("cookie key: {0}")]
    Key(String),
}

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    key: Key,
    gate: Arc<Gate>,
}

impl FromRef<AppState> for Key {
    fn from_ref(state: &AppState) -> Key {
        state.key.clone()
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| text.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

/// The cookie signing key: made once, stored, the same after a restart and on every node.
async fn cookie_key(store: &AnyStore) -> Result<Key, ServerError> {
    let text = store
        .secret("cookie_key", || {
            let bytes: [u8; 64] = rand::random();
            hex(&bytes)
        })
        .await?;
    let bytes = unhex(&text).ok_or_else(|| ServerError::Key("not hex".into()))?;
    Key::try_from(bytes.as_slice()).map_err(|e| ServerError::Key(e.to_string()))
}

/// Serves Parlor on `listener` until `shutdown` is cancelled, then stops accepting, lets every table finish its
/// current command and closes the store.
///
/// # Errors
/// [`ServerError`] when the store cannot be opened or the listener fails.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: CancellationToken,
) -> Result<(), ServerError> {
    let limits = Limits::new(&config, listen::file_limit());
    tracing::info!(?limits, "connection limits");
    let gate = Gate::new(limits);
    let store = Arc::new(AnyStore::open(&config.database).await?);
    let key = cookie_key(&store).await?;
    let metrics = Arc::new(Metrics::default());
    let (persist, writer) = Persist::start((*store).clone(), metrics.clone());
    let cluster = match &config.cluster {
        Some(c) => {
            if store.backend() != parlor_store::Backend::Postgres {
                return Err(ServerError::Cluster(
                    "several nodes need a shared PostgreSQL database (--database postgres://...)".into(),
                ));
            }
            Some(
                Cluster::connect(c)
                    .await
                    .map_err(|e| ServerError::Cluster(e.to_string()))?,
            )
        }
        None => None,
    };
    let hub = Arc::new(Hub::new(
        config,
        store.clone(),
        persist,
        metrics,
        shutdown.clone(),
        cluster.clone(),
    ));
    if let Some(cluster) = &cluster {
        cluster
            .start(&hub)
            .await
            .map_err(|e| ServerError::Cluster(e.to_string()))?;
    }
    let restored = hub.restore().await?;
    tracing::info!(restored, addr = ?listener.local_addr().ok(), "parlor serving");

    let state = AppState {
        hub: hub.clone(),
        key,
        gate: gate.clone(),
    };
    let app = Router::new()
        .route("/", get(page))
        .route("/t/{code}", get(page))
        .route("/table/{id}", get(page))
        .route("/game/{id}", get(page))
        .route("/history", get(page))
        .route("/history/{player}", get(page))
        .route("/rules/{game}", get(page))
        .route("/a/{hash}/{*path}", get(asset))
        .route("/ws", get(websocket))
        .route("/api/game/{id}", get(api_game))
        .route("/api/game/{id}/export", get(api_export))
        .route("/api/cluster", get(api_cluster))
        .route("/api/table/{id}/owner", get(api_owner))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_text))
        .merge(crate::image::routes())
        .layer(axum::middleware::map_response(headers::add))
        .with_state(state);

    listen::serve(listener, app, gate, &hub.config, shutdown.clone()).await;
    shutdown.cancel();
    hub.tracker.close();
    hub.tracker.wait().await;
    if let Some(cluster) = &cluster {
        // Every table task has ended: give the tables to the other nodes at once.
        cluster.leave(cluster.held_tables()).await;
    }
    drop(cluster);
    drop(hub);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), writer).await;
    store.close().await;
    Ok(())
}

/// The player behind a request's cookie, if it carries a valid one.
async fn player_of(hub: &Hub, jar: &SignedCookieJar) -> Option<PlayerInfo> {
    let id = jar.get(COOKIE)?.value().to_owned();
    match hub.store.player(&id).await {
        Ok(Some(p)) => Some(PlayerInfo {
            id: p.id,
            name: p.nickname,
        }),
        Ok(None) => {
            // A valid cookie whose player is unknown (a fresh database): make the player again.
            let player = new_player(id);
            hub.store.upsert_player(&player).await.ok()?;
            Some(PlayerInfo {
                id: player.id,
                name: player.nickname,
            })
        }
        Err(_) => None,
    }
}

fn new_player(id: String) -> Player {
    let now = now_ms();
    let nickname = format!("Guest-{}", &id.replace('-', "")[..4].to_ascii_uppercase());
    Player {
        id,
        nickname,
        created_ms: now,
        last_seen_ms: now,
    }
}

async fn page(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    jar: SignedCookieJar,
) -> Response {
    if jar.get(COOKIE).is_some() {
        return assets::index();
    }
    let player = new_player(uuid::Uuid::new_v4().to_string());
    if let Err(e) = state.hub.store.upsert_player(&player).await {
        tracing::error!(error = %e, "could not create player");
        return (StatusCode::SERVICE_UNAVAILABLE, "storage unavailable").into_response();
    }
    let cookie = Cookie::build((COOKIE, player.id))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        // Over HTTPS the cookie never travels in clear (a proxy ends TLS and says so).
        .secure(proxy::is_https(peer.ip(), &headers, &state.hub.config))
        .max_age(time::Duration::days(365))
        .build();
    (jar.add(cookie), assets::index()).into_response()
}

async fn asset(Path((hash, path)): Path<(String, String)>) -> Response {
    assets::asset(&hash, &path)
}

async fn websocket(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: SignedCookieJar,
    upgrade: WebSocketUpgrade,
) -> Response {
    // A page of another origin must not act with the player's cookie (cross-site websocket hijacking).
    if !origin::is_allowed(&headers, &state.hub.config.origins) {
        return (
            StatusCode::FORBIDDEN,
            "this page's origin may not open the websocket",
        )
            .into_response();
    }
    let player = player_of(&state.hub, &jar).await;
    let hub = state.hub.clone();
    upgrade
        .read_buffer_size(4096)
        .write_buffer_size(4096)
        .max_message_size(parlor_protocol::MAX_FRAME_BYTES)
        .max_frame_size(parlor_protocol::MAX_FRAME_BYTES)
        .on_upgrade(move |socket| ws::serve(socket, hub, player))
}

async fn healthz(State(state): State<AppState>) -> Response {
    match state.hub.store.player("healthz").await {
        Ok(_) => "ok".into_response(),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    }
}

async fn metrics_text(State(state): State<AppState>) -> Response {
    let mut text = state.hub.metrics.render();
    text.push_str(&state.gate.render_metrics());
    if let Some(counts) = state.hub.store.sqlite_checkpoints() {
        text.push_str(&crate::metrics::render_checkpoints(&counts));
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// A stored game replayed: its setup, players and the game itself.
/// A stored game replayed through its rules.
struct Loaded {
    stored: parlor_store::StoredGame,
    players: Vec<String>,
    game: parlor_game::AnyGame,
    spec: TableSpec,
    /// The position after each move.
    positions: Vec<String>,
}

async fn load_game(hub: &Hub, id: &str) -> Result<Loaded, Response> {
    let not_found = || (StatusCode::NOT_FOUND, "no such game").into_response();
    let stored = match hub.store.game(id).await {
        Ok(Some(g)) => g,
        Ok(None) => return Err(not_found()),
        Err(e) => return Err((StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response()),
    };
    let setup: GameSetup = serde_json::from_str(&stored.game.setup).map_err(|_| not_found())?;
    let occupants: Vec<Occupant> = serde_json::from_str(&stored.game.seats).unwrap_or_default();
    let players = occupants.iter().map(Occupant::label).collect();
    let mut steps: Vec<Step> = stored.moves.iter().map(|m| Step::Move(m.wire.clone())).collect();
    // Events that end the game or eliminate a seat are replayed in order after the moves they followed.
    let map = crate::games::SeatMap::new(setup.kind().map_err(|_| not_found())?, setup.first);
    let mut with_events = Vec::new();
    let mut events = stored.events.iter().peekable();
    for (i, step) in steps.drain(..).enumerate() {
        while let Some(e) =
            events.next_if(|e| crate::table::stored_step(e, &map).is_some_and(|(ply, _)| ply <= i))
        {
            if let Some((_, ev)) = crate::table::stored_step(e, &map) {
                with_events.push(Step::Event(ev));
            }
        }
        with_events.push(step);
    }
    for e in events {
        if let Some((_, ev)) = crate::table::stored_step(e, &map) {
            with_events.push(Step::Event(ev));
        }
    }
    // Replayed step by step so the replay view gets the exact position after every move.
    let broken = |e: String| (StatusCode::INTERNAL_SERVER_ERROR, e).into_response();
    let mut game = setup.new_game().map_err(|e| broken(e.to_string()))?;
    let mut positions = Vec::new();
    for step in &with_events {
        match step {
            Step::Move(wire) => {
                game.play(wire).map_err(|e| broken(e.reason))?;
                positions.push(game.position_text());
            }
            Step::Event(event) => {
                game.apply(*event).map_err(|e| broken(e.to_string()))?;
            }
        }
    }
    let table = hub.store.table(&stored.game.table_id).await.ok().flatten();
    let spec = table
        .and_then(|t| serde_json::from_str::<crate::table::Settings>(&t.settings).ok())
        .map(|s| s.spec)
        .unwrap_or(TableSpec {
            game: setup.game.clone(),
            time: None,
            rated: stored.game.rated,
            private: false,
            rules: Default::default(),
            seats: Vec::new(),
        });
    Ok(Loaded {
        stored,
        players,
        game,
        spec,
        positions,
    })
}

async fn api_game(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let Loaded {
        stored,
        players,
        game,
        positions,
        ..
    } = match load_game(&state.hub, &id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let moves: Vec<_> = game
        .history()
        .iter()
                .zip(&positions)
        .map(|(p, position)| {
            serde_json::json!({"seat": p.seat.index(), "wire": p.wire, "display": p.display, "position": position})
        })
        .collect();
    let outcome: Option<serde_json::Value> = stored
        .game
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok());
    Json(serde_json::json!({
        "id": stored.game.id,
        "game": stored.game.kind,
        "players": players,
        "start": game.start_text(),
        "moves": moves,
        "outcome": outcome,
        "status": stored.game.status,
    }))
    .into_response()
}

async fn api_export(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let Loaded {
        stored,
        players,
        game,
        spec,
        ..
    } = match load_game(&state.hub, &id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let date = time::OffsetDateTime::from_unix_timestamp(stored.game.created_ms / 1000)
        .map(|d| format!("{:04}.{:02}.{:02}", d.year(), u8::from(d.month()), d.day()))
        .unwrap_or_default();
    let info = ExportInfo {
        event: "Parlor game".into(),
        site: format!("/game/{}", stored.game.id),
        date,
        players,
        time_control: spec.time.map(|t| t.to_tag()).unwrap_or_else(|| "-".into()),
        // The final position's picture (a path on this site, like `Site`).
        extra: vec![(
            "Image".into(),
            parlor_image::url(game.kind(), &game.position_text(), "png"),
        )],
    };
    let ext = match game.kind() {
        GameKind::Chess => "pgn",
        GameKind::Draughts(_) => "pdn",
        GameKind::Chess4 => "pgn4",
    };
    let disposition = format!("attachment; filename=\"parlor-{}.{ext}\"", stored.game.id);
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        game.export(&info),
    )
        .into_response()
}

/// This node's view of the site: its name, the live nodes, how many tables it owns.
async fn api_cluster(State(state): State<AppState>) -> Response {
    let hub = &state.hub;
    let body = match &hub.cluster {
        Some(c) => serde_json::json!({"node": c.node, "nodes": c.nodes(), "owned": c.owned()}),
        None => serde_json::json!({"node": null, "nodes": [], "owned": hub.table_ids().len()}),
    };
    Json(body).into_response()
}

/// The node that owns a table.
async fn api_owner(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let hub = &state.hub;
    let node = match &hub.cluster {
        Some(c) if hub.table(&id).is_some() => Some(c.node.clone()),
        Some(c) => c.owner(&id).await.ok().flatten(),
        None => hub.table(&id).map(|_| "local".to_owned()),
    };
    match node {
        Some(node) => Json(serde_json::json!({ "node": node })).into_response(),
        None => (StatusCode::NOT_FOUND, "no node holds that table").into_response(),
    }
}

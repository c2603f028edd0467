//! The HTTP side: routes, the identity cookie, the game API, health and metrics, and `run`, the single entry point.

use crate::analysis::Analysts;
use crate::assets;
use crate::cluster::Cluster;
use crate::config::Config;
use crate::hub::Hub;
use crate::listen::{self, Gate, Limits};
use crate::loaded::{Loaded, load_visible_game};
use crate::metrics::Metrics;
use crate::persist::Persist;
use crate::review::Reviews;
use crate::site::{Alone, Site};
use crate::ws;
use crate::{headers, origin, proxy};
use axum::extract::{ConnectInfo, FromRef, Path, Query, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use axum_extra::extract::cookie::{Cookie, Key, SameSite, SignedCookieJar};
use parlor_game::{ExportInfo, GameKind};
use parlor_protocol::PlayerInfo;
use parlor_store::{AnyStore, Player, Store, StoreError, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use crate::identity::COOKIE;
use crate::identity::viewer;

/// A server that could not start or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The store.
    #[error("store: {0}")]
    Store(#[from] StoreError),
    /// The listener.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// Several nodes were asked for on a database that is not PostgreSQL.
    #[error("cluster: several nodes need a shared PostgreSQL database (--database postgres://...)")]
    ClusterNeedsPostgres,
    /// Joining the site (Redis).
    #[error("cluster: {0}")]
    Cluster(#[from] crate::cluster::ClusterError),
    /// The stored cookie key is not hex.
    #[error("cookie key: not hex")]
    KeyNotHex,
    /// The stored cookie key is unusable (too short).
    #[error("cookie key: {0}")]
    Key(#[source] Box<dyn std::error::Error + Send + Sync>),
}

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    /// Game reviews, for exports with evaluations.
    reviews: Arc<Reviews>,
    /// The site this node is part of, if any (for `/api/cluster` and `/api/table/{id}/owner`).
    cluster: Option<Arc<Cluster>>,
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
    let bytes = unhex(&text).ok_or(ServerError::KeyNotHex)?;
    Key::try_from(bytes.as_slice()).map_err(|e| ServerError::Key(Box::new(e)))
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
    if let Some(path) = store.created_file() {
        tracing::warn!(
            path = %path.display(),
            "NEW DATABASE: there was no database file here, so an empty one was made, with a new cookie key: \
             every player who visited before gets a new identity and no earlier game is here. If this is not a \
             first start, stop the server and check --database"
        );
    }
    let key = cookie_key(&store).await?;
    let metrics = Arc::new(Metrics::default());
    let (persist, writer) = Persist::start((*store).clone(), metrics.clone());
    let cluster = match &config.cluster {
        Some(c) => {
            if store.backend() != parlor_store::Backend::Postgres {
                return Err(ServerError::ClusterNeedsPostgres);
            }
            Some(Cluster::connect(c).await?)
        }
        None => None,
    };
    let site: Arc<dyn Site> = match &cluster {
        Some(cluster) => cluster.clone(),
        None => Arc::new(Alone),
    };
    let hub = Arc::new(Hub::new(
        config,
        store.clone(),
        persist,
        metrics,
        shutdown.clone(),
        site,
    ));
    if let Some(cluster) = &cluster {
        cluster.start(&hub).await?;
    }
    let restored = hub.restore().await?;
    tracing::info!(restored, addr = ?listener.local_addr().ok(), "parlor serving");

    let analysts = Arc::new(Analysts::new(hub.config.analysis_slots.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
    })));
    let reviews = Reviews::start(hub.clone(), analysts.clone(), hub.config.review_think);
    let review_routes = crate::review::routes(reviews.clone(), key.clone());
    let analysis_routes = crate::analysis::routes(analysts, Arc::new(hub.config.clone()));
    let state = AppState {
        reviews,
        hub: hub.clone(),
        cluster: cluster.clone(),
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
        .route("/analysis", get(page))
        .route("/a/{hash}/{*path}", get(asset))
        .route("/ws", get(websocket))
        .route("/api/game/{id}", get(api_game))
        .route("/api/game/{id}/export", get(api_export))
        .route("/api/cluster", get(api_cluster))
        .route("/api/table/{id}/owner", get(api_owner))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_text))
        .merge(crate::image::routes())
        .merge(review_routes)
        .merge(analysis_routes)
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

/// The player behind a request's cookie: `Ok(None)` without a valid cookie. A player is stored when it first
/// opens a socket (a page view stores nothing), so a valid cookie whose player is unknown makes the player.
///
/// # Errors
/// The store's error, or [`parlor_store::StoreError::Timeout`] when it does not answer in time.
async fn player_of(hub: &Hub, jar: &SignedCookieJar) -> Result<Option<PlayerInfo>, StoreError> {
    let Some(cookie) = jar.get(COOKIE) else {
        return Ok(None);
    };
    let id = cookie.value().to_owned();
    let patience = crate::persist::COMMIT_PATIENCE;
    let found = tokio::time::timeout(patience, hub.store.player(&id))
        .await
        .map_err(|_| StoreError::Timeout(patience))??;
    let player = match found {
        Some(p) => p,
        None => {
            let player = new_player(id);
            tokio::time::timeout(
                patience,
                hub.persist.commit(vec![Write::UpsertPlayer(player.clone())]),
            )
            .await
            .map_err(|_| StoreError::Timeout(patience))??;
            player
        }
    };
    Ok(Some(PlayerInfo {
        id: player.id,
        name: player.nickname,
    }))
}

fn new_player(id: String) -> Player {
    let now = now_ms();
    let nickname = crate::name::guest_name(&id);
    Player {
        id,
        nickname,
        created_ms: now,
        last_seen_ms: now,
    }
}

/// The web client; a first visit gets its identity cookie (the player is stored when its socket says hello).
async fn page(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    uri: Uri,
    headers: HeaderMap,
    jar: SignedCookieJar,
) -> Response {
    if jar.get(COOKIE).is_some() {
        return assets::index(uri.path(), &headers);
    }
    let cookie = Cookie::build((COOKIE, uuid::Uuid::new_v4().to_string()))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        // Over HTTPS the cookie never travels in clear (a proxy ends TLS and says so).
        .secure(proxy::is_https(peer.ip(), &headers, &state.hub.config))
        .max_age(time::Duration::days(365))
        .build();
    (jar.add(cookie), assets::index(uri.path(), &headers)).into_response()
}

async fn asset(Path((hash, path)): Path<(String, String)>, headers: HeaderMap) -> Response {
    assets::asset(&hash, &path, &headers)
}

async fn websocket(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
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
    let player = match player_of(&state.hub, &jar).await {
        Ok(player) => player,
        Err(e) => {
            tracing::warn!(error = %e, "could not read or store a player");
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                "storage unavailable; try again soon",
            )
                .into_response();
        }
    };
    // Per-address limits count the client, also behind a trusted proxy.
    let client = proxy::client_ip(peer.ip(), &headers, &state.hub.config);
    let hub = state.hub.clone();
    upgrade
        // Client messages are small (a move is about 100 bytes): each connection's read buffer is this size until a
        // larger message makes it grow; at 10,000 sockets every KiB here is 10 MB.
        .read_buffer_size(1024)
        .write_buffer_size(4096)
        .max_message_size(parlor_protocol::MAX_FRAME_BYTES)
        .max_frame_size(parlor_protocol::MAX_FRAME_BYTES)
        .on_upgrade(move |socket| ws::serve(socket, hub, player, client))
}

/// `200 ok` when the store can be read and written; `503` with the reason otherwise (a full disk, a deleted or
/// read-only database file, a database that does not answer).
async fn healthz(State(state): State<AppState>) -> Response {
    let read = tokio::time::timeout(crate::persist::PROBE_TIMEOUT, state.hub.store.player("healthz")).await;
    let unavailable = |reason: String| (StatusCode::SERVICE_UNAVAILABLE, reason).into_response();
    match read {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => return unavailable(format!("the store cannot read: {e}")),
        Err(_) => return unavailable("the store cannot read: it does not answer".to_owned()),
    }
    match state.hub.persist.probe().await {
        Ok(()) => "ok".into_response(),
        Err(reason) => unavailable(reason),
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

async fn api_game(State(state): State<AppState>, jar: SignedCookieJar, Path(id): Path<String>) -> Response {
    let Loaded {
        stored,
        players,
        game,
        positions,
        ..
    } = match load_visible_game(&state.hub, viewer(&jar).as_deref(), &id).await {
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

/// The site's address for links in exported files: the configured public URL, or the request's scheme and
/// `Host`; `None` when the request names no usable host (the links stay paths).
fn site_url(peer: SocketAddr, headers: &HeaderMap, config: &crate::config::Config) -> Option<String> {
    if let Some(url) = &config.public_url {
        return Some(url.trim_end_matches('/').to_owned());
    }
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if host.is_empty() || !host.chars().all(plain) {
        return None;
    }
    let scheme = if proxy::is_https(peer.ip(), headers, config) {
        "https"
    } else {
        "http"
    };
    Some(format!("{scheme}://{host}"))
}

/// The query of `/api/game/{id}/export`.
#[derive(Debug, serde::Deserialize)]
struct ExportQuery {
    /// `1`: with the review's evaluations and marks as comments.
    review: Option<String>,
}

async fn api_export(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    jar: SignedCookieJar,
    Path(id): Path<String>,
    Query(query): Query<ExportQuery>,
) -> Response {
    let Loaded {
        stored,
        players,
        game,
        spec,
        ..
    } = match load_visible_game(&state.hub, viewer(&jar).as_deref(), &id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    // With `?review=1`, the stored review's evaluations and marks as comments (none if it was not reviewed).
    let comments = if query.review.is_some_and(|r| r != "0") {
        match state.reviews.stored(&id).await {
            Ok(review) => review.map(|r| crate::review::comments(&r)).unwrap_or_default(),
            Err(e) => return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
        }
    } else {
        Vec::new()
    };
    let date = time::OffsetDateTime::from_unix_timestamp(stored.game.created_ms / 1000)
        .map(|d| format!("{:04}.{:02}.{:02}", d.year(), u8::from(d.month()), d.day()))
        .unwrap_or_default();
    let base = site_url(peer, &headers, &state.hub.config).unwrap_or_default();
    let mut extra = Vec::new();
    if let Some(cap) = spec.time.and_then(|t| t.cap_tag()) {
        extra.push((parlor_protocol::TimeControl::CAP_TAG.to_owned(), cap));
    }
    // The final position's picture.
    extra.push((
        "Image".into(),
        format!(
            "{base}{}",
            parlor_image::url(game.kind(), &game.position_text(), "png")
        ),
    ));
    let info = ExportInfo {
        event: "Parlor game".into(),
        site: format!("{base}/game/{}", stored.game.id),
        date,
        players,
        time_control: spec.time.map(|t| t.to_tag()).unwrap_or_else(|| "-".into()),
        extra,
        comments,
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
    let body = match &state.cluster {
        Some(c) => serde_json::json!({"node": c.node, "nodes": c.nodes(), "owned": c.owned()}),
        None => serde_json::json!({"node": null, "nodes": [], "owned": hub.table_ids().len()}),
    };
    Json(body).into_response()
}

/// The node that owns a table.
async fn api_owner(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let hub = &state.hub;
    let node = match &state.cluster {
        Some(c) if hub.table(&id).is_some() => Some(c.node.clone()),
        Some(c) => c.owner(&id).await.ok().flatten(),
        None => hub.table(&id).map(|_| "local".to_owned()),
    };
    match node {
        Some(node) => Json(serde_json::json!({ "node": node })).into_response(),
        None => (StatusCode::NOT_FOUND, "no node holds that table").into_response(),
    }
}

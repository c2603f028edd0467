//! `/image/{game}.{svg,png}`: pictures of positions from their FEN, PDN FEN or FEN4, drawn by `parlor-image`.
//! PNGs are rendered on the blocking pool (at most one per core at once) and kept in an LRU cache; every answer
//! is immutable for its URL. A bad position or option is a 400 with the parser's reason.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use parlor_image::{ImageError, Lru, MAX_QUERY_BYTES, Renderer, Request};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// PNGs kept in memory at most.
pub const CACHE_ENTRIES: usize = 1024;
/// Bytes of PNG kept in memory at most.
pub const CACHE_BYTES: usize = 64 << 20;
/// The answer's `Cache-Control`: a URL names one picture forever.
pub const CACHE_CONTROL: &str = "public, max-age=31536000, immutable";

/// The renderer, the cache of PNGs and the limit on renders running at once.
pub struct Images {
    renderer: Renderer,
    cache: Mutex<Lru<String, Bytes>>,
    renders: Semaphore,
}

impl Default for Images {
    fn default() -> Images {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Images {
            renderer: Renderer::new(),
            cache: Mutex::new(Lru::new(CACHE_ENTRIES, CACHE_BYTES)),
            renders: Semaphore::new(cores),
        }
    }
}

impl std::fmt::Debug for Images {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Images").finish_non_exhaustive()
    }
}

/// The image routes, with their own state; the app merges them into its router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/image/{file}", get(image))
        .with_state(Arc::new(Images::default()))
}

fn bad_request(e: &ImageError) -> Response {
    let status = if e.is_client_error() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::INTERNAL_SERVER_ERROR
    };
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        e.to_string(),
    )
        .into_response()
}

fn picture(content_type: &'static str, body: Bytes) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, CACHE_CONTROL),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

async fn image(
    State(images): State<Arc<Images>>,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let Some((game, ext)) = file.rsplit_once('.') else {
        return (StatusCode::NOT_FOUND, "no such image").into_response();
    };
    if !matches!(game, "chess" | "draughts" | "chess4") || !matches!(ext, "svg" | "png") {
        return (StatusCode::NOT_FOUND, "no such image").into_response();
    }
    let query = query.unwrap_or_default();
    if query.len() > MAX_QUERY_BYTES {
        return bad_request(&ImageError::TooLong(query.len()));
    }
    let key = format!("{file}?{query}");
    if ext == "png"
        && let Some(png) = images.cache.lock().ok().and_then(|mut c| c.get(&key))
    {
        return picture("image/png", png);
    }
    let request = match Request::from_query(game, &query) {
        Ok(r) => r,
        Err(e) => return bad_request(&e),
    };
    if ext == "svg" {
        return picture("image/svg+xml", Bytes::from(request.svg()));
    }
    let Ok(_permit) = images.renders.acquire().await else {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down").into_response();
    };
    let worker = images.clone();
    let rendered = tokio::task::spawn_blocking(move || worker.renderer.png(&request)).await;
    match rendered {
        Ok(Ok(png)) => {
            let png = Bytes::from(png);
            if let Ok(mut c) = images.cache.lock() {
                c.put(key, png.clone(), png.len());
            }
            picture("image/png", png)
        }
        Ok(Err(e)) => bad_request(&e),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

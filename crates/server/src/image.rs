//! `/image/{game}.{svg,png}`: pictures of positions from their FEN, PDN FEN or FEN4, drawn by `parlor-image`.
//! PNGs are rendered on a few dedicated render threads under a budget of pixels in flight, and kept in an LRU
//! cache bounded by bytes; every answer is immutable for its URL. A bad position or option is a 400 with the
//! parser's reason; a request past the render budget is a 503 with `Retry-After`.
//!
//! Memory: the cache holds at most [`CACHE_BYTES`]; the renders hold at most [`RENDER_THREADS`] pictures'
//! working sets (the allocator keeps each render thread's largest one for reuse). Renders on the shared
//! blocking pool left such a working set behind on every pool thread that ever rendered.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use parlor_image::{ImageError, Lru, MAX_QUERY_BYTES, Renderer, Request};
use std::sync::{Arc, Mutex, mpsc};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

/// Bytes of the PNG cache at most (PNGs, their keys and a per-entry overhead): about 130 pictures of
/// 2048 px (250 KB each) or 600 of 512 px.
pub const CACHE_BYTES: usize = 32 << 20;
/// Threads that render PNGs, so renders at once. A 2048 px render peaks near 20 MB (the 16 MB RGBA pixmap
/// and the PNG), which each thread's allocator keeps; two keep a two-core host busy.
pub const RENDER_THREADS: usize = 2;
/// Pixels of PNGs being rendered or waiting for a render thread, at most: four pictures of 2048 px, or 64 of
/// 512 px. A request past it is refused at once (503) instead of queueing without bound.
pub const RENDER_BUDGET_PIXELS: u64 = 4 * 2048 * 2048;
/// Pixels per unit of the budget (the smallest picture, 64 px square).
const PIXELS_PER_PERMIT: u64 = 64 * 64;
/// The `Retry-After` of a 503 from a busy renderer, in seconds: a few renders' time.
pub const RETRY_AFTER_SECONDS: &str = "1";
/// The answer's `Cache-Control`: a URL names one picture forever.
pub const CACHE_CONTROL: &str = "public, max-age=31536000, immutable";

/// A PNG to render, with its share of the budget (given back when the render is done or skipped).
struct Job {
    request: Request,
    reply: oneshot::Sender<Result<Vec<u8>, ImageError>>,
    _budget: OwnedSemaphorePermit,
}

/// The render threads, the cache of PNGs and the budget of pixels in flight.
pub struct Images {
    cache: Mutex<Lru<String, Bytes>>,
    budget: Arc<Semaphore>,
    /// `None` when no render thread could be started: PNGs are then refused with a 503.
    jobs: Option<mpsc::Sender<Job>>,
}

impl Default for Images {
    fn default() -> Images {
        Images {
            cache: Mutex::new(Lru::new(CACHE_BYTES)),
            budget: Arc::new(Semaphore::new(
                (RENDER_BUDGET_PIXELS / PIXELS_PER_PERMIT) as usize,
            )),
            jobs: start_render_threads(),
        }
    }
}

impl std::fmt::Debug for Images {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Images").finish_non_exhaustive()
    }
}

/// Starts [`RENDER_THREADS`] threads sharing one renderer (its font and piece sprites) and one job queue; they
/// end when the queue's sender is dropped with the routes.
fn start_render_threads() -> Option<mpsc::Sender<Job>> {
    let (sender, receiver) = mpsc::channel::<Job>();
    let receiver = Arc::new(Mutex::new(receiver));
    let renderer = Arc::new(Renderer::new());
    let mut started = 0;
    for i in 0..RENDER_THREADS {
        let (receiver, renderer) = (receiver.clone(), renderer.clone());
        match std::thread::Builder::new()
            .name(format!("parlor-render-{i}"))
            .spawn(move || render_loop(&renderer, &receiver))
        {
            Ok(_) => started += 1,
            Err(e) => tracing::error!("cannot start an image render thread: {e}"),
        }
    }
    (started > 0).then_some(sender)
}

fn render_loop(renderer: &Renderer, jobs: &Mutex<mpsc::Receiver<Job>>) {
    loop {
        let next = match jobs.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        let Ok(job) = next else {
            return;
        };
        if job.reply.is_closed() {
            continue; // The client left while the job waited.
        }
        let png = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| renderer.png(&job.request)))
            .unwrap_or_else(|_| Err(ImageError::Render("the renderer panicked".into())));
        let _ = job.reply.send(png);
    }
}

/// The image routes, with their own state; the app merges them into its router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/image/{file}", get(image))
        .with_state(Arc::new(Images::default()))
}

fn busy(reason: &'static str) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::RETRY_AFTER, RETRY_AFTER_SECONDS),
        ],
        reason,
    )
        .into_response()
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
    let pixels = u64::from(request.options.size).pow(2);
    let permits = u32::try_from(pixels.div_ceil(PIXELS_PER_PERMIT)).unwrap_or(u32::MAX);
    let Ok(budget) = images.budget.clone().try_acquire_many_owned(permits) else {
        return busy("the image renderer is busy: retry in a moment");
    };
    let (reply, answer) = oneshot::channel();
    let job = Job {
        request,
        reply,
        _budget: budget,
    };
    if images.jobs.as_ref().is_none_or(|jobs| jobs.send(job).is_err()) {
        return busy("the image renderer is not running");
    }
    match answer.await {
        Ok(Ok(png)) => {
            let png = Bytes::from(png);
            if let Ok(mut c) = images.cache.lock() {
                c.put(key.clone(), png.clone(), png.len() + key.len());
            }
            picture("image/png", png)
        }
        Ok(Err(e)) => bad_request(&e),
        Err(_) => busy("the image renderer stopped"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_biggest_picture_fits_the_budget() {
        let biggest = u64::from(parlor_image::MAX_SIZE)
            .pow(2)
            .div_ceil(PIXELS_PER_PERMIT);
        assert!(biggest <= RENDER_BUDGET_PIXELS / PIXELS_PER_PERMIT);
        assert!(biggest <= u64::from(u32::MAX));
    }
}

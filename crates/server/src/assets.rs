//! The web client, embedded in release builds (read from disk in debug builds), served under a prefix that
//! carries a hash of the whole bundle so a new release is never mixed with a cached old one.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use std::sync::OnceLock;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[allow_missing = true]
#[exclude = "test/*"]
struct Web;

/// Shown when the binary was built without the web client.
const FALLBACK: &str = "<!doctype html><meta charset=utf-8><title>Parlor</title>\
<p>Parlor is running, but this build has no web client (the <code>web/</code> folder was missing).";

/// A hash of every embedded file (FNV-1a, 64 bits), as 12 hex digits.
pub fn bundle_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let mut names: Vec<_> = Web::iter().collect();
        names.sort();
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                hash ^= u64::from(*b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for name in names {
            eat(name.as_bytes());
            if let Some(file) = Web::get(&name) {
                eat(&file.data);
            }
        }
        format!("{:012x}", hash & 0xffff_ffff_ffff)
    })
}

/// The page for every client route, with the asset prefix filled in; never cached.
pub fn index() -> Response {
    let body = match Web::get("index.html") {
        Some(file) => String::from_utf8_lossy(&file.data).replace("__ASSETS__", bundle_hash()),
        None => FALLBACK.to_owned(),
    };
    let mut response = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// A file of the bundle. A request for another bundle's hash is not found (a stale page reloads).
pub fn asset(hash: &str, path: &str) -> Response {
    if hash != bundle_hash() {
        return StatusCode::NOT_FOUND.into_response();
    }
    match Web::get(path) {
        Some(file) => {
            let mime = file.metadata.mimetype().to_owned();
            let mut response = ([(header::CONTENT_TYPE, mime)], file.data.into_owned()).into_response();
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            );
            response
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

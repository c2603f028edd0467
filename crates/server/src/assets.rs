//! The web client, embedded in release builds (read from disk in debug builds), served under a prefix that
//! carries a hash of the whole bundle so a new release is never mixed with a cached old one.
//!
//! Text files go out compressed (brotli, else gzip, as the browser accepts), each compressed once and kept. The
//! page loads the client's modules joined into chunks ([`crate::chunks`]): the root chunk, after the chunks of the
//! address's page and of the language the browser asks for first, all fetched at once, so a first visit needs one
//! round of requests; it carries the piece sprite inline.

use crate::chunks;
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

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

/// The languages of the web client, as their files under `js/i18n/` are named.
const LANGUAGES: [&str; 3] = ["en", "bn", "mr"];

/// Where the page says the chunks of its page and language go (before the root chunk, so they run first).
const CHUNKS: &str = "<!--CHUNKS-->";

/// Where the page says the piece sprite goes: inline, so the board needs no request of its own for it.
const SPRITE: &str = "<!--SPRITE-->";

/// The piece sprite as an element of the page: hidden, out of the accessibility tree, its symbols used by id.
fn inline_sprite() -> String {
    let Some(file) = Web::get("img/pieces.svg") else {
        return String::new();
    };
    let svg = String::from_utf8_lossy(&file.data);
    let start = svg.find("<svg").unwrap_or(0);
    svg[start..].replacen(
        "<svg",
        "<svg class=\"sprite\" aria-hidden=\"true\" width=\"0\" height=\"0\"",
        1,
    )
}

/// The first of our languages the browser asks for (`Accept-Language`), else English; the web client makes the
/// same choice from `navigator.languages` unless the player picked one.
fn first_language(headers: &HeaderMap) -> &'static str {
    let Some(accept) = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()) else {
        return "en";
    };
    for tag in accept.split(',') {
        let base = tag
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .split('-')
            .next()
            .unwrap_or("");
        if let Some(code) = LANGUAGES.iter().find(|c| c.eq_ignore_ascii_case(base)) {
            return code;
        }
    }
    "en"
}

/// The page module that shows an address (as the web client's routes have it).
fn page_for(path: &str) -> &'static str {
    if path.starts_with("/t/") || path.starts_with("/table/") {
        "table"
    } else if path.starts_with("/game/") || path.starts_with("/history") {
        "history"
    } else if path.starts_with("/rules") {
        "rules"
    } else if path.starts_with("/analysis") {
        "analysis"
    } else {
        "lobby"
    }
}

/// The scripts of a page's first chunks: the page's own module and the language's file, each with what it
/// imports beyond the root chunk (docs/web.md). They only define modules, and run before the root chunk, so the
/// app finds the page's modules there and shows the page without waiting for another frame.
fn first_chunks(language: &str, page: &str) -> String {
    let hash = bundle_hash();
    [format!("js/pages/{page}.js"), format!("js/i18n/{language}.js")]
        .iter()
        .map(|module| {
            format!(
                "<script type=\"module\" src=\"/a/{hash}/{}{module}\"></script>\n",
                chunks::DIR
            )
        })
        .collect()
}

/// The page's script: the root chunk instead of `js/app.js` alone.
const SCRIPT: &str = "src=\"/a/__ASSETS__/js/app.js\"";

/// The page for every client route (`path`), with the asset prefix, the preload links and the sprite filled in;
/// never cached, and compressed when the browser accepts it (once per language, page and coding).
pub fn index(path: &str, headers: &HeaderMap) -> Response {
    let (language, page) = (first_language(headers), page_for(path));
    let body = match Web::get("index.html") {
        Some(file) => String::from_utf8_lossy(&file.data)
            .replace(CHUNKS, &first_chunks(language, page))
            .replace(
                SCRIPT,
                &format!("src=\"/a/__ASSETS__/{}{}\"", chunks::DIR, chunks::ROOT),
            )
            .replace(SPRITE, &inline_sprite())
            .replace("__ASSETS__", bundle_hash()),
        None => FALLBACK.to_owned(),
    };
    let encoding = Encoding::accepted(headers);
    let body = match encoding {
        Some(encoding) => compressed(
            encoding,
            &format!("index.html#{language}#{page}"),
            body.as_bytes(),
        ),
        None => Bytes::from(body),
    };
    let mut response = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response();
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::VARY,
        HeaderValue::from_static("Accept-Encoding, Accept-Language"),
    );
    if let Some(encoding) = encoding {
        h.insert(header::CONTENT_ENCODING, encoding.header());
    }
    response
}

/// A content coding the server can send.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Encoding {
    Brotli,
    Gzip,
}

impl Encoding {
    /// The best coding the request accepts (brotli before gzip; `q=0` refuses one).
    fn accepted(headers: &HeaderMap) -> Option<Encoding> {
        let accept = headers.get(header::ACCEPT_ENCODING)?.to_str().ok()?;
        let takes = |want: &str| {
            accept.split(',').any(|item| {
                let mut parts = item.split(';');
                let name = parts.next().unwrap_or("").trim();
                let refused = parts.any(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.trim().parse::<f32>().ok())
                        .is_some_and(|q| q <= 0.0)
                });
                name.eq_ignore_ascii_case(want) && !refused
            })
        };
        if takes("br") {
            Some(Encoding::Brotli)
        } else if takes("gzip") {
            Some(Encoding::Gzip)
        } else {
            None
        }
    }

    fn header(self) -> HeaderValue {
        HeaderValue::from_static(match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        })
    }

    /// `data` compressed at the best ratio (each file is compressed once and kept).
    fn compress(self, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(data.len() / 3);
        match self {
            Encoding::Brotli => {
                let mut writer = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
                // Writing into a Vec cannot fail.
                let _ = writer.write_all(data);
                drop(writer);
            }
            Encoding::Gzip => {
                let mut writer = flate2::write::GzEncoder::new(&mut out, flate2::Compression::best());
                let _ = writer.write_all(data);
                let _ = writer.finish();
            }
        }
        out
    }
}

/// Whether a file of this type is worth compressing (text; images such as PNG are compressed already).
fn compressible(mime: &str) -> bool {
    mime.starts_with("text/") || mime.contains("javascript") || mime.contains("json") || mime.contains("svg")
}

/// The compressed copies made so far, by coding, path and the content's hash (debug builds read files from disk,
/// so an edited file gets a new entry). At most one entry per file and coding of the bundle in release builds
/// (the page: one per language, page module and coding).
fn compressed(encoding: Encoding, path: &str, data: &[u8]) -> Bytes {
    static CACHE: OnceLock<Mutex<Compressed>> = OnceLock::new();
    let key = (encoding, path.to_owned(), fnv(data));
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return hit.clone();
    }
    let made = Bytes::from(encoding.compress(data));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if cfg!(debug_assertions) {
        // Old versions of edited files go; a release bundle never changes.
        cache.retain(|(e, p, _), _| !(*e == encoding && p == path));
    }
    cache.insert(key, made.clone());
    made
}

/// Compressed copies by coding, path and the content's hash.
type Compressed = HashMap<(Encoding, String, u64), Bytes>;

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A file of the bundle, compressed when it is text and the browser accepts it. A request for another bundle's
/// hash is not found (a stale page reloads).
pub fn asset(hash: &str, path: &str, headers: &HeaderMap) -> Response {
    if hash != bundle_hash() {
        return StatusCode::NOT_FOUND.into_response();
    }
    if let Some(module) = path.strip_prefix(chunks::DIR) {
        return chunk(module, headers);
    }
    let Some(file) = Web::get(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let mime = file.metadata.mimetype().to_owned();
    let data = match file.data {
        Cow::Borrowed(bytes) => Bytes::from_static(bytes),
        Cow::Owned(bytes) => Bytes::from(bytes),
    };
    immutable(path, &mime, data, headers)
}

/// A chunk of the client's modules (crates/server/src/chunks.rs): not found when no such module is in the
/// bundle, a server error naming the line when a module is written in a form the chunks cannot hold.
fn chunk(module: &str, headers: &HeaderMap) -> Response {
    if !module.starts_with("js/") || !module.ends_with(".js") {
        return StatusCode::NOT_FOUND.into_response();
    }
    // Each chunk is made once. A debug build reads the files from disk, so there a kept chunk is checked against
    // the sources it was made from (reading them is cheap next to joining them again) and made afresh if one changed.
    static MADE: OnceLock<Mutex<HashMap<String, Made>>> = OnceLock::new();
    let made = MADE.get_or_init(Mutex::default);
    let kept = made
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(module)
        .filter(|kept| !cfg!(debug_assertions) || kept.sources_unchanged())
        .map(|kept| kept.text.clone());
    let text = match kept {
        Some(text) => text,
        None => {
            let read = std::cell::RefCell::new(Vec::new());
            let joined = chunks::chunk(module, |path| {
                let file = Web::get(path).map(|file| file.data);
                let hash = file.as_deref().map(fnv);
                read.borrow_mut().push((path.to_owned(), hash));
                file
            });
            match joined {
                Ok(text) => {
                    let text = Bytes::from(text);
                    let kept = Made {
                        text: text.clone(),
                        sources: read.into_inner(),
                    };
                    // Only modules of the bundle have chunks, so this holds one entry per module at most.
                    made.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(module.to_owned(), kept);
                    text
                }
                Err(chunks::ChunkError::Missing { module: missing, .. }) if missing == module => {
                    return StatusCode::NOT_FOUND.into_response();
                }
                Err(error) => {
                    tracing::error!(%error, "the web client's modules cannot be joined");
                    return (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response();
                }
            }
        }
    };
    immutable(
        &format!("{}{module}", chunks::DIR),
        "text/javascript",
        text,
        headers,
    )
}

/// A chunk as made, with the files it was made from and the hash of each as it was read (`None`: not there).
struct Made {
    text: Bytes,
    sources: Vec<(String, Option<u64>)>,
}

impl Made {
    fn sources_unchanged(&self) -> bool {
        self.sources
            .iter()
            .all(|(path, hash)| Web::get(path).map(|file| fnv(&file.data)) == *hash)
    }
}

/// `data` (the file at `path` of the bundle, of type `mime`) with a year's caching, compressed when it is text and
/// the browser accepts it.
fn immutable(path: &str, mime: &str, data: Bytes, headers: &HeaderMap) -> Response {
    let encoding = Encoding::accepted(headers).filter(|_| compressible(mime));
    let mime = mime.to_owned();
    let mut response = match encoding {
        Some(encoding) => {
            let body = compressed(encoding, path, &data);
            ([(header::CONTENT_TYPE, mime)], body).into_response()
        }
        None => ([(header::CONTENT_TYPE, mime)], data).into_response(),
    };
    let h = response.headers_mut();
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Some(encoding) = encoding {
        h.insert(header::CONTENT_ENCODING, encoding.header());
    }
    response
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Read;

    fn headers(pairs: &[(header::HeaderName, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.insert(name.clone(), HeaderValue::from_static(value));
        }
        h
    }

    #[test]
    fn the_best_accepted_coding_is_chosen_and_q0_refuses_one() {
        let accept = |v: &'static str| Encoding::accepted(&headers(&[(header::ACCEPT_ENCODING, v)]));
        assert_eq!(accept("gzip, deflate, br, zstd"), Some(Encoding::Brotli));
        assert_eq!(accept("gzip"), Some(Encoding::Gzip));
        assert_eq!(accept("br;q=0, gzip;q=0.5"), Some(Encoding::Gzip));
        assert_eq!(accept("identity"), None);
        assert_eq!(Encoding::accepted(&HeaderMap::new()), None);
    }

    #[test]
    fn compressed_files_come_back_whole() {
        let data = "export const x = 'পার্লার';\n".repeat(200);
        let mut out = String::new();
        brotli::Decompressor::new(&Encoding::Brotli.compress(data.as_bytes())[..], 4096)
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, data);
        out.clear();
        flate2::read::GzDecoder::new(&Encoding::Gzip.compress(data.as_bytes())[..])
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, data);
    }

    #[test]
    fn the_page_loads_its_own_page_and_language_chunks_only() {
        let lang = |v: &'static str| first_language(&headers(&[(header::ACCEPT_LANGUAGE, v)]));
        assert_eq!(lang("mr-IN,mr;q=0.9,en;q=0.8"), "mr");
        assert_eq!(lang("fr-FR, bn;q=0.5"), "bn");
        assert_eq!(lang("fr-FR"), "en");
        assert_eq!(page_for("/t/ABCD"), "table");
        assert_eq!(page_for("/game/x"), "history");
        assert_eq!(page_for("/"), "lobby");
        assert_eq!(page_for("/analysis"), "analysis");
        let scripts = first_chunks("bn", "table");
        assert!(scripts.contains("/c/js/pages/table.js\""), "{scripts}");
        assert!(scripts.contains("/c/js/i18n/bn.js\""), "{scripts}");
        assert_eq!(scripts.lines().count(), 2, "{scripts}");
        if Web::get("js/app.js").is_none() {
            return; // a build without the web client
        }
        assert!(inline_sprite().starts_with("<svg class=\"sprite\" aria-hidden=\"true\""));
    }

    #[test]
    fn every_page_and_language_has_a_chunk_and_the_page_loads_the_root_chunk() {
        let Some(page) = Web::get("index.html") else {
            return; // a build without the web client
        };
        let page = String::from_utf8_lossy(&page.data);
        assert_eq!(page.matches(SCRIPT).count(), 1);
        assert!(
            page.find(CHUNKS) < page.find(SCRIPT),
            "the page's chunks run before the root chunk"
        );
        let read = |path: &str| Web::get(path).map(|file| file.data);
        let root = chunks::chunk(chunks::ROOT, read).unwrap();
        for held in ["js/app.js", "js/dom.js", "js/net/socket.js", "js/i18n/index.js"] {
            assert!(root.contains(&format!("define({held:?}")), "{held}");
        }
        for page in ["lobby", "table", "history", "rules", "analysis"] {
            let module = format!("js/pages/{page}.js");
            let chunk = chunks::chunk(&module, read).unwrap();
            assert!(chunk.contains(&format!("define({module:?}")), "{page}");
            assert!(!chunk.contains("define(\"js/dom.js\""), "{page} repeats the root");
        }
        for language in LANGUAGES {
            let module = format!("js/i18n/{language}.js");
            assert!(
                chunks::chunk(&module, read)
                    .unwrap()
                    .contains("default: () => $default")
            );
        }
    }

    #[test]
    fn every_module_scans_and_only_its_comment_lines_are_emptied() {
        for name in Web::iter().filter(|n| n.starts_with("js/") && n.ends_with(".js")) {
            let source = String::from_utf8_lossy(&Web::get(&name).unwrap().data).into_owned();
            let out =
                chunks::without_comment_lines(&source).unwrap_or_else(|| panic!("{name} does not scan"));
            assert_eq!(out.lines().count(), source.lines().count(), "{name}");
            let mut emptied = 0;
            for (before, after) in source.lines().zip(out.lines()) {
                let trimmed = before.trim_start();
                let comment =
                    trimmed.starts_with("//") || trimmed.starts_with("/*") || trimmed.starts_with('*');
                assert!(
                    after == before || (after.is_empty() && comment),
                    "{name}: {before:?} became {after:?}"
                );
                emptied += usize::from(after != before);
            }
            // Template literals (the rules' texts) come through whole: their backticks are all outside comments.
            let ticks = |text: &str| {
                text.lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .map(|l| l.matches('`').count())
                    .sum::<usize>()
            };
            if LANGUAGES.iter().any(|l| name == format!("js/i18n/{l}.js")) {
                assert_eq!(ticks(&out), ticks(&source), "{name}");
            }
            assert!(
                emptied > 0 || name.starts_with("js/i18n/"),
                "{name}: no comment line found"
            );
        }
    }

    #[test]
    fn chunks_are_served_for_modules_only() {
        if Web::get("js/app.js").is_none() {
            return; // a build without the web client
        }
        let status = |path: &str| asset(bundle_hash(), path, &HeaderMap::new()).status();
        assert_eq!(status("c/js/app.js"), StatusCode::OK);
        assert_eq!(status("c/js/pages/table.js"), StatusCode::OK);
        assert_eq!(status("c/js/i18n/mr.js"), StatusCode::OK);
        assert_eq!(status("c/js/nothing.js"), StatusCode::NOT_FOUND);
        assert_eq!(status("c/css/app.css"), StatusCode::NOT_FOUND);
        assert_eq!(status("c/../index.html"), StatusCode::NOT_FOUND);
    }
}

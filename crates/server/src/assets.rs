//! The web client, embedded in release builds (read from disk in debug builds), served under a prefix that
//! carries a hash of the whole bundle so a new release is never mixed with a cached old one.
//!
//! Text files go out compressed (brotli, else gzip, as the browser accepts), each compressed once and kept. The
//! page names every script module up front (`modulepreload`), so a first visit fetches them at once instead of
//! along a chain of imports (of the language files only the one the browser asks for first), and carries the
//! piece sprite inline.

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
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

/// Where the page says the preload links go.
const PRELOAD: &str = "<!--PRELOAD-->";

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

/// The preload links: the modules a page needs before it shows anything, found by following the static imports
/// (`import ... from './x.js'`) of `js/app.js`, the page's own module and the language's file. A module that only
/// another page imports (the replay's positions on the history page) is left out: on a slow phone's connection
/// every request beyond six per round of the browser's connections costs a round trip. What loads later through
/// `import()` (other pages, other languages) is not preloaded either.
fn preload_links(language: &str, page: &str) -> String {
    let hash = bundle_hash();
    let mut wanted = std::collections::BTreeSet::new();
    let mut todo = vec![
        "js/app.js".to_owned(),
        format!("js/pages/{page}.js"),
        format!("js/i18n/{language}.js"),
    ];
    while let Some(name) = todo.pop() {
        let Some(file) = Web::get(&name) else { continue };
        if !wanted.insert(name.clone()) {
            continue;
        }
        let text = String::from_utf8_lossy(&file.data);
        todo.extend(static_imports(&text).filter_map(|target| resolve(&name, target)));
    }
    let mut links = String::new();
    for name in wanted {
        links.push_str(&format!(
            "<link rel=\"modulepreload\" href=\"/a/{hash}/{name}\">\n"
        ));
    }
    links
}

/// The specifiers of a module's static imports and re-exports, one statement per line as the client writes them:
/// `import { a } from './x.js';`, `import * as b from '../y.js';`, `export { c } from './z.js';`, `import './w.js';`.
fn static_imports(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| {
        let line = line.trim_start();
        let rest = if line.starts_with("import ") || line.starts_with("export ") {
            match line.rsplit_once(" from ") {
                Some((_, rest)) => rest,
                None => line.strip_prefix("import ")?,
            }
        } else {
            return None;
        };
        let rest = rest.trim_start();
        let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let inner = &rest[1..];
        inner.find(quote).map(|end| &inner[..end])
    })
}

/// The bundle path a relative specifier of the module `from` names (`../dom.js` from `js/pages/table.js` is
/// `js/dom.js`); `None` for a specifier that is not relative or leaves the bundle.
fn resolve(from: &str, target: &str) -> Option<String> {
    if !target.starts_with("./") && !target.starts_with("../") {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in target.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The page for every client route (`path`), with the asset prefix, the preload links and the sprite filled in;
/// never cached, and compressed when the browser accepts it (once per language, page and coding).
pub fn index(path: &str, headers: &HeaderMap) -> Response {
    let (language, page) = (first_language(headers), page_for(path));
    let body = match Web::get("index.html") {
        Some(file) => String::from_utf8_lossy(&file.data)
            .replace(PRELOAD, &preload_links(language, page))
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
    let Some(file) = Web::get(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let mime = file.metadata.mimetype().to_owned();
    let encoding = Encoding::accepted(headers).filter(|_| compressible(&mime));
    let mut response = match encoding {
        Some(encoding) => {
            let body = compressed(encoding, path, &file.data);
            ([(header::CONTENT_TYPE, mime)], body).into_response()
        }
        None => ([(header::CONTENT_TYPE, mime)], file.data.into_owned()).into_response(),
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
    fn static_imports_are_read_and_resolved_within_the_bundle() {
        let text = "import { a, b } from '../dom.js';\nimport * as s from './sound.js';\nexport { c } from \"./x.js\";\n\
                    import './side.js';\nconst later = import('./lazy.js');\n// import nothing from here\nexport function fromView() {}\n";
        let found: Vec<&str> = static_imports(text).collect();
        assert_eq!(found, ["../dom.js", "./sound.js", "./x.js", "./side.js"]);
        assert_eq!(
            resolve("js/pages/table.js", "../dom.js").as_deref(),
            Some("js/dom.js")
        );
        assert_eq!(
            resolve("js/app.js", "./net/socket.js").as_deref(),
            Some("js/net/socket.js")
        );
        assert_eq!(resolve("js/app.js", "../../etc/passwd"), None);
        assert_eq!(resolve("js/app.js", "https://example.com/x.js"), None);
    }

    #[test]
    fn the_page_preloads_its_own_page_module_and_language_only() {
        let lang = |v: &'static str| first_language(&headers(&[(header::ACCEPT_LANGUAGE, v)]));
        assert_eq!(lang("mr-IN,mr;q=0.9,en;q=0.8"), "mr");
        assert_eq!(lang("fr-FR, bn;q=0.5"), "bn");
        assert_eq!(lang("fr-FR"), "en");
        assert_eq!(page_for("/t/ABCD"), "table");
        assert_eq!(page_for("/game/x"), "history");
        assert_eq!(page_for("/"), "lobby");
        assert_eq!(page_for("/analysis"), "analysis");
        let links = preload_links("bn", "table");
        if Web::get("js/app.js").is_none() {
            return; // a build without the web client
        }
        assert!(links.contains("/js/app.js\""), "{links}");
        assert!(links.contains("/js/i18n/bn.js\""), "{links}");
        assert!(links.contains("/js/i18n/index.js\""), "{links}");
        assert!(links.contains("/js/pages/table.js\""), "{links}");
        assert!(
            !links.contains("/js/i18n/en.js\"") && !links.contains("/js/i18n/mr.js\""),
            "{links}"
        );
        assert!(!links.contains("/js/pages/lobby.js\""), "{links}");
        // What the table page imports, through its imports too, and nothing only the history page needs.
        for needed in [
            "table-model.js",
            "board/render.js",
            "board/geometry.js",
            "net/socket.js",
            "dom.js",
        ] {
            assert!(links.contains(&format!("/js/{needed}\"")), "{needed}: {links}");
        }
        assert!(!links.contains("/js/board/replay.js\""), "{links}");
        assert!(preload_links("en", "history").contains("/js/board/replay.js\""));
        assert!(inline_sprite().starts_with("<svg class=\"sprite\" aria-hidden=\"true\""));
    }
}

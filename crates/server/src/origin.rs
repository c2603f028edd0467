//! Which pages may open a websocket with a player's cookie: the site's own origin and the configured ones. A
//! browser always sends `Origin` on a websocket upgrade, so a page elsewhere (another port of the same host, a
//! sibling subdomain: same-site, so a `SameSite=Lax` cookie goes along) is told apart and refused.

use axum::http::{HeaderMap, header};

/// Whether a websocket upgrade with these headers may go on: without `Origin` (not a browser: no page can make
/// a browser leave it out, so no cookie is borrowed), or when `Origin` is the site itself (its scheme and the
/// request's `Host`; either scheme, since a proxy may end TLS) or one of `allowed` (`scheme://host[:port]`).
pub fn is_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/');
    if allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    ["http://", "https://"].iter().any(|scheme| {
        origin
            .get(..scheme.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
            && origin[scheme.len()..].eq_ignore_ascii_case(host.trim())
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn headers(origin: Option<&'static str>, host: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, host.parse().unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h
    }

    #[test]
    fn own_origin_configured_or_none() {
        let none: &[String] = &[];
        assert!(is_allowed(&headers(None, "127.0.0.1:8080"), none));
        assert!(is_allowed(
            &headers(Some("http://127.0.0.1:8080"), "127.0.0.1:8080"),
            none
        ));
        assert!(is_allowed(
            &headers(Some("https://Play.Example.org"), "play.example.org"),
            none
        ));
        assert!(!is_allowed(
            &headers(Some("http://127.0.0.1:9999"), "127.0.0.1:8080"),
            none
        ));
        assert!(!is_allowed(
            &headers(Some("http://evil.example.org"), "play.example.org"),
            none
        ));
        assert!(!is_allowed(&headers(Some("null"), "play.example.org"), none));
        assert!(!is_allowed(
            &headers(Some("http://play.example.org.evil.com"), "play.example.org"),
            none
        ));
        let listed = ["https://chess.example.org/".to_owned()];
        assert!(is_allowed(
            &headers(Some("https://chess.example.org"), "10.0.0.5:8080"),
            &listed
        ));
        assert!(!is_allowed(
            &headers(Some("http://chess.example.org:81"), "10.0.0.5:8080"),
            &listed
        ));
    }
}

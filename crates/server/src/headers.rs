//! The security headers every response carries: what the browser may load and run for our pages, that no other
//! site may frame them, that no URL leaks to other sites, and that no type is guessed.

use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;

/// Scripts, styles, fonts and connections only from the site itself, besides the page's two inline scripts (the
/// early websocket, and the fallback message when `app.js` does not start), allowed by their hashes (`web/test/bundle.test.js` checks it
/// matches `web/index.html`); no style attribute (the client sets styles through the CSSOM); images from the site and `data:` (the page's empty icon); the
/// websocket is `connect-src 'self'` (CSP 3: same host, `ws:`/`wss:` included); no plugins, no `<base>`, and no
/// framing by anyone (`frame-ancestors`, with `X-Frame-Options` for older browsers).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' \
'sha256-cltjL82thw74o0IdsdCCylyjQYjX9ekMqPgBYUb9SSQ=' 'sha256-7GuBTlBvMi9+8wkQwrRxQqd1+7KeWPwL6NcPVyDMCh0='; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// The headers, in the order they are added.
const HEADERS: [(HeaderName, &str); 4] = [
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_FRAME_OPTIONS, "DENY"),
    // Links to other sites get no path (a private table's code is in its URL).
    (header::REFERRER_POLICY, "same-origin"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
];

/// Adds the security headers to a response (a handler's own value of one of them stays).
pub async fn add(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

//! A player's identity: a signed cookie holding the player id (no registration).

use axum_extra::extract::cookie::SignedCookieJar;

/// The identity cookie's name.
pub const COOKIE: &str = "parlor_id";

/// The player id of a request's identity cookie, if it has a valid one.
pub fn viewer(jar: &SignedCookieJar) -> Option<String> {
    jar.get(COOKIE).map(|c| c.value().to_owned())
}

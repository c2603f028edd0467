//! Trusted reverse proxies: which peers may tell us the client's address (`X-Forwarded-For`) and scheme
//! (`X-Forwarded-Proto`), and the client address and scheme a request has once they are taken into account.

use crate::config::Config;
pub use crate::ip_net::{BadIpNet, IpNet};
use axum::http::HeaderMap;
use std::net::IpAddr;

/// Whether `peer` is one of the configured trusted proxies.
pub fn is_trusted(peer: IpAddr, config: &Config) -> bool {
    config.trusted_proxies.iter().any(|net| net.contains(peer))
}

/// The client behind a request: the TCP peer, or, when the peer is a trusted proxy, the last address of
/// `X-Forwarded-For` that is not a trusted proxy itself (each proxy appends the address it saw, so addresses
/// left of the first untrusted one could be written by the client and are ignored).
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, config: &Config) -> IpAddr {
    let mut client = peer;
    if !is_trusted(client, config) {
        return client;
    }
    let hops = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect::<Vec<_>>();
    for hop in hops.iter().rev() {
        let Ok(ip) = hop.trim().parse::<IpAddr>() else {
            break;
        };
        client = ip;
        if !is_trusted(ip, config) {
            break;
        }
    }
    client
}

/// Whether the browser reached the site over HTTPS: a trusted proxy says so with `X-Forwarded-Proto: https`
/// (the server itself speaks plain HTTP).
pub fn is_https(peer: IpAddr, headers: &HeaderMap, config: &Config) -> bool {
    is_trusted(peer, config)
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn config(proxies: &[&str]) -> Config {
        Config {
            trusted_proxies: proxies.iter().map(|p| p.parse().unwrap()).collect(),
            ..Config::default()
        }
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn blocks() {
        let net: IpNet = "10.1.0.0/16".parse().unwrap();
        assert!(net.contains("10.1.200.3".parse().unwrap()));
        assert!(!net.contains("10.2.0.1".parse().unwrap()));
        assert!(net.contains("::ffff:10.1.0.9".parse().unwrap()));
        let v6: IpNet = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains("2001:db8:1::5".parse().unwrap()));
        assert!(!v6.contains("2001:db9::5".parse().unwrap()));
        let all: IpNet = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains("8.8.8.8".parse().unwrap()));
        assert!("10.0.0.0/33".parse::<IpNet>().is_err());
        assert!("proxy".parse::<IpNet>().is_err());
    }

    #[test]
    fn forwarded_for_only_from_trusted_proxies() {
        let cfg = config(&["10.0.0.0/8"]);
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 1.2.3.4, 10.0.0.7")]);
        // From a trusted proxy: the last untrusted hop.
        assert_eq!(
            client_ip("10.0.0.2".parse().unwrap(), &h, &cfg),
            "1.2.3.4".parse::<IpAddr>().unwrap()
        );
        // From anyone else: the header is the client's own words.
        assert_eq!(
            client_ip("5.5.5.5".parse().unwrap(), &h, &cfg),
            "5.5.5.5".parse::<IpAddr>().unwrap()
        );
        // Garbage stops the walk at the last good hop.
        let h = headers(&[("x-forwarded-for", "1.2.3.4, junk")]);
        assert_eq!(
            client_ip("10.0.0.2".parse().unwrap(), &h, &cfg),
            "10.0.0.2".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn https_only_from_trusted_proxies() {
        let cfg = config(&["10.0.0.1"]);
        let h = headers(&[("x-forwarded-proto", "https")]);
        assert!(is_https("10.0.0.1".parse().unwrap(), &h, &cfg));
        assert!(!is_https("10.0.0.2".parse().unwrap(), &h, &cfg));
        assert!(!is_https("10.0.0.1".parse().unwrap(), &HeaderMap::new(), &cfg));
    }
}

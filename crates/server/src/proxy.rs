//! Trusted reverse proxies: which peers may tell us the client's address (`X-Forwarded-For`) and scheme
//! (`X-Forwarded-Proto`), and the client address and scheme a request has once they are taken into account.

use crate::config::Config;
use axum::http::HeaderMap;
use std::net::IpAddr;
use std::str::FromStr;

/// An address block: an IP address and a prefix length (`10.0.0.0/8`, `::1/128`; a bare address is a block of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpNet {
    addr: IpAddr,
    prefix: u8,
}

/// An address block that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("not an IP address or CIDR block: {0:?}")]
pub struct BadIpNet(String);

impl IpNet {
    /// The loopback blocks, `127.0.0.0/8` and `::1/128`: a peer on the same machine (a proxy next to the server).
    pub fn loopback() -> Vec<IpNet> {
        vec![
            IpNet {
                addr: IpAddr::from([127, 0, 0, 0]),
                prefix: 8,
            },
            IpNet {
                addr: IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1]),
                prefix: 128,
            },
        ]
    }

    /// Whether `ip` is in the block (an IPv4-mapped IPv6 address counts as its IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => prefix_eq(
                u128::from(u32::from(net)) << 96,
                u128::from(u32::from(ip)) << 96,
                self.prefix,
            ),
            (IpAddr::V6(net), IpAddr::V6(ip)) => prefix_eq(u128::from(net), u128::from(ip), self.prefix),
            _ => false,
        }
    }
}

fn prefix_eq(a: u128, b: u128, prefix: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
    a & mask == b & mask
}

impl FromStr for IpNet {
    type Err = BadIpNet;

    fn from_str(text: &str) -> Result<IpNet, BadIpNet> {
        let bad = || BadIpNet(text.to_owned());
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix.parse::<u8>().map_err(|_| bad())?)),
            None => (text.trim(), None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| bad())?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        if prefix > max {
            return Err(bad());
        }
        Ok(IpNet { addr, prefix })
    }
}

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

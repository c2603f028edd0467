//! Address blocks (`10.0.0.0/8`, `::1/128`): the type of the `--trusted-proxies` setting.

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

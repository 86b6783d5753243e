//! Behind a reverse proxy (TLS, an ingress), every request comes from the proxy's address. The
//! proxies the admin names (`--trusted-proxy`) are believed about who they forward: the client is
//! the right-most address of `X-Forwarded-For` that is not a trusted proxy. Anyone else's
//! `X-Forwarded-For` is ignored, so a client cannot choose the address its limits are kept under.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// An address or a network (`10.0.0.0/8`, `fd00::/8`) of trusted proxies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u8,
}

impl FromStr for Network {
    type Err = String;

    fn from_str(text: &str) -> Result<Network, String> {
        let (address, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let address: IpAddr = address
            .parse()
            .map_err(|_| format!("{text:?} is not an IP address or network (10.0.0.0/8)"))?;
        let bits = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|&p| p <= bits)
                .ok_or_else(|| format!("{text:?}: a prefix length is 0 to {bits}"))?,
        };
        Ok(Network { address, prefix })
    }
}

impl Network {
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.address, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                net.to_bits() & mask == ip.to_bits() & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                net.to_bits() & mask == ip.to_bits() & mask
            }
            _ => false,
        }
    }
}

/// The address the request really comes from: `peer`, or, when `peer` is a trusted proxy, the
/// right-most address in `X-Forwarded-For` that is not one (every proxy appends the address it
/// was reached from). A malformed entry ends the search at the last address believed.
pub fn real_address(peer: IpAddr, headers: &HeaderMap, trusted: &[Network]) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|n| n.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    let mut client = peer;
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect::<Vec<_>>();
    for entry in forwarded.iter().rev() {
        match entry.trim().parse::<IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !is_trusted(ip) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(forwarded: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", forwarded.parse().unwrap());
        h
    }

    #[test]
    fn only_trusted_proxies_are_believed() {
        let trusted: Vec<Network> = vec!["10.0.0.0/8".parse().unwrap(), "::1".parse().unwrap()];
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let h = headers("198.51.100.1, 203.0.113.7, 10.1.2.3");
        assert_eq!(
            real_address(ip("10.0.0.1"), &h, &trusted),
            ip("203.0.113.7")
        );
        assert_eq!(real_address(ip("192.0.2.9"), &h, &trusted), ip("192.0.2.9"));
        assert_eq!(
            real_address(ip("::1"), &headers("garbage"), &trusted),
            ip("::1")
        );
        assert_eq!(
            real_address(ip("10.0.0.1"), &HeaderMap::new(), &trusted),
            ip("10.0.0.1")
        );
        assert!("10.0.0.0/33".parse::<Network>().is_err());
        assert!("not-an-address".parse::<Network>().is_err());
        assert!(
            "0.0.0.0/0"
                .parse::<Network>()
                .unwrap()
                .contains(ip("8.8.8.8"))
        );
        assert!(
            !"10.0.0.0/8"
                .parse::<Network>()
                .unwrap()
                .contains(ip("11.0.0.1"))
        );
    }
}

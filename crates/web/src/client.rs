//! Who sent a request, for the per-client limit: the TCP peer's address, or, behind a reverse
//! proxy the operator trusts, the address the proxy saw (the last `X-Forwarded-For` hop, the
//! only one the proxy itself wrote; earlier hops are whatever the client claimed).

use axum::http::HeaderMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The client's address. `peer` is `None` when the server was not started with connection
/// info (then every request counts as one client). An IPv6 client is its /64 network, as a
/// host is given a whole /64 and picks addresses within it at will: counted one by one, each
/// of them would have its own limits.
pub fn identify(peer: Option<IpAddr>, headers: &HeaderMap, trust_forwarded_for: bool) -> IpAddr {
    let forwarded = trust_forwarded_for
        .then(|| last_forwarded_hop(headers))
        .flatten();
    let address = forwarded
        .or(peer)
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        },
        v4 => v4,
    }
}

fn last_forwarded_hop(headers: &HeaderMap) -> Option<IpAddr> {
    let last_header = headers.get_all("x-forwarded-for").iter().next_back()?;
    let hop = last_header.to_str().ok()?.rsplit(',').next()?.trim();
    hop.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_peer_address_unless_forwarding_is_trusted() {
        let peer: IpAddr = "192.0.2.1".parse().unwrap();
        let h = headers(&["203.0.113.9, 198.51.100.7"]);
        assert_eq!(identify(Some(peer), &h, false), peer);
        assert_eq!(
            identify(Some(peer), &h, true),
            "198.51.100.7".parse::<IpAddr>().unwrap(),
            "the last hop, written by the proxy"
        );
        let two = headers(&["203.0.113.9", "2001:db8::1"]);
        assert_eq!(
            identify(Some(peer), &two, true),
            "2001:db8::".parse::<IpAddr>().unwrap()
        );
    }

    /// One IPv6 host holds a /64: each address counted apart had its own limits.
    #[test]
    fn an_ipv6_client_is_its_64_network() {
        let id = |a: &str| identify(Some(a.parse().unwrap()), &HeaderMap::new(), false);
        assert_eq!(id("2001:db8:1:2:aaaa::1"), id("2001:db8:1:2::ffff"));
        assert_ne!(id("2001:db8:1:2::1"), id("2001:db8:1:3::1"));
        assert_eq!(
            id("::ffff:192.0.2.7"),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(id("192.0.2.7"), "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn an_unreadable_header_falls_back_to_the_peer() {
        let peer: IpAddr = "192.0.2.1".parse().unwrap();
        for bad in ["", "not-an-address", "1.2.3.4, "] {
            assert_eq!(
                identify(Some(peer), &headers(&[bad]), true),
                peer,
                "{bad:?}"
            );
        }
        assert_eq!(identify(Some(peer), &HeaderMap::new(), true), peer);
        assert!(identify(None, &HeaderMap::new(), false).is_unspecified());
    }
}

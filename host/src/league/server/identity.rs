//! Who a request comes from, decided once, before the rate limiter: the user of a valid API token
//! (`Authorization: Bearer`) or web session (cookie), or else the peer's address.
//!
//! The rate limiter's key follows from it: a valid credential counts against its user, anything
//! else (no credential, or one that does not check out) against the peer address, so a made-up
//! token buys no bucket of its own. A credential that does not check out is also a strike against
//! the address: past [`Strikes`]' allowance the address's credentials are refused with 429 before
//! any database lookup, so guessing costs the guesser, not the server. Credentials the server knows
//! to be valid (the hashes of the tokens and sessions in use, read from the database every few
//! seconds, and of every credential that checked out since) are still looked up, so a real user
//! behind the guesser's address keeps working.

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{ApiError, AppState};
use crate::league::store::{TOKEN_PREFIX, User, well_formed};

/// The address a client is known by: an IPv4 address, or an IPv6 address's /64 network (one
/// subscriber's share, which they can spread over 2^64 addresses), an IPv4-mapped one as IPv4.
pub fn client_address(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from_bits(
                v6.to_bits() & !((1u128 << 64) - 1),
            )),
        },
        v4 => v4,
    }
}

/// The address a request comes from, as [`client_address`] and a trusted proxy's
/// `X-Forwarded-For` ([`super::proxy`]) tell it: set by [`identify`] on every request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub IpAddr);

/// The session cookie's name.
pub const COOKIE: &str = "botbox_session";

/// What a session id starts with.
const SESSION_PREFIX: &str = "bbs_";

/// How a request said who it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential {
    /// `Authorization: Bearer <token>`: the API's.
    Token,
    /// The session cookie: the pages'.
    Session,
}

/// The request's credential and, when it checked out, its user (a request extension).
#[derive(Clone, Debug, Default)]
pub struct Identity {
    pub credential: Option<Credential>,
    pub user: Option<User>,
}

impl Identity {
    /// The user of a valid credential of `kind`.
    pub fn user_by(&self, kind: Credential) -> Option<&User> {
        self.user.as_ref().filter(|_| self.credential == Some(kind))
    }
}

/// The rate limiter's key for a request (a request extension).
#[derive(Clone, Debug)]
pub(super) struct RateKey(pub String);

/// The bearer token of a request, if it has one.
pub(super) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The session id a request's cookie carries.
pub fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    cookie_value(headers, COOKIE)
}

/// The value of the cookie `name`, if the request has one that is not empty.
fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix(name)?.strip_prefix('='))
        .filter(|t| !t.is_empty())
}

/// The cookie that carried the API token itself before sessions: a browser may still send it. It
/// is a credential that never checks out (a strike, as any other), and is cleared.
const LEGACY_COOKIE: &str = "botbox_token";

/// The `Set-Cookie` value of a session cookie (`max_age` 0 clears it). `Secure` unless the league
/// runs on plain HTTP (`--insecure-cookies`).
pub fn cookie(value: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .expect("a session id is ASCII")
}

/// Failed authentications per peer address: a token bucket of `per_minute` strikes that refills
/// at that rate. An address with no strike left has its credentials refused unread.
#[derive(Debug)]
pub struct Strikes {
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
    /// The hashes of the credentials in use: the database's at its last read, and those that
    /// checked out since.
    valid: Mutex<HashSet<String>>,
}

/// Addresses remembered at most; past it the full buckets are forgotten.
const MAX_ADDRESSES: usize = 65_536;

/// How often the credentials in use are read from the database.
pub const REFRESH: std::time::Duration = std::time::Duration::from_secs(5);

impl Strikes {
    pub fn new(per_minute: u32) -> Strikes {
        Strikes {
            per_minute: f64::from(per_minute.max(1)),
            buckets: Mutex::default(),
            valid: Mutex::default(),
        }
    }

    /// Strikes `ip` has left now.
    fn left(&self, buckets: &mut HashMap<IpAddr, (f64, Instant)>, ip: IpAddr) -> f64 {
        let now = Instant::now();
        let (left, since) = buckets.entry(ip).or_insert((self.per_minute, now));
        *left = (*left + now.duration_since(*since).as_secs_f64() * self.per_minute / 60.0)
            .min(self.per_minute);
        *since = now;
        *left
    }

    /// Whether `ip` may still try a credential.
    pub fn allowed(&self, ip: IpAddr) -> bool {
        let mut buckets = self.buckets.lock().expect("not poisoned");
        self.left(&mut buckets, ip) >= 1.0
    }

    /// Whether a credential from `ip` is looked up: while the address has strikes left, or when
    /// the credential (by its hash) is one in use.
    pub fn may_try(&self, ip: IpAddr, hash: &str) -> bool {
        self.allowed(ip) || self.valid.lock().expect("not poisoned").contains(hash)
    }

    /// Remembers how the lookup of the credential with `hash` went.
    fn checked(&self, hash: &str, valid: bool) {
        let mut set = self.valid.lock().expect("not poisoned");
        if valid {
            set.insert(hash.to_string());
        } else {
            set.remove(hash);
        }
    }

    /// The credentials in use, as the database has them now (their SHA-256 in hex).
    pub fn in_use(&self, hashes: HashSet<String>) {
        *self.valid.lock().expect("not poisoned") = hashes;
    }

    /// Counts a failed authentication from `ip`.
    pub fn strike(&self, ip: IpAddr) {
        let mut buckets = self.buckets.lock().expect("not poisoned");
        if buckets.len() >= MAX_ADDRESSES {
            let full = self.per_minute;
            buckets.retain(|_, (left, _)| *left < full);
            if buckets.len() >= MAX_ADDRESSES {
                buckets.clear();
            }
        }
        let left = self.left(&mut buckets, ip);
        buckets.insert(ip, ((left - 1.0).max(0.0), Instant::now()));
    }

    /// The answer to an address with no strike left.
    pub fn refusal() -> Response {
        let mut response = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many failed sign-ins from your address: wait a minute",
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        response
    }
}

/// The middleware: finds the request's [`Identity`] and [`RateKey`]. A session cookie that does
/// not check out is cleared in the response.
pub(super) async fn identify(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    let ip = client_address(super::proxy::real_address(
        peer.ip(),
        request.headers(),
        &state.trusted_proxies,
    ));
    request.extensions_mut().insert(ClientAddress(ip));
    let headers = request.headers();
    let legacy = cookie_value(headers, LEGACY_COOKIE).is_some();
    let session = session_cookie(headers).or(cookie_value(headers, LEGACY_COOKIE));
    let credential = match (bearer(headers), session) {
        (Some(token), _) => Some((Credential::Token, token.to_string())),
        (None, Some(session)) => Some((Credential::Session, session.to_string())),
        (None, None) => None,
    };
    let mut identity = Identity::default();
    if let Some((kind, secret)) = &credential {
        let hash = crate::runtime::source_hash(secret.as_bytes());
        if !state.strikes.may_try(ip, &hash) {
            return Strikes::refusal();
        }
        let user = match kind {
            Credential::Token if well_formed(secret, TOKEN_PREFIX) => {
                state.store.user_by_token(secret).await
            }
            Credential::Session if well_formed(secret, SESSION_PREFIX) => {
                state.store.user_by_session(secret).await
            }
            _ => Ok(None),
        };
        identity = Identity {
            credential: Some(*kind),
            user: match user {
                Ok(user) => user,
                Err(e) => return ApiError::from(e).into_response(),
            },
        };
        state.strikes.checked(&hash, identity.user.is_some());
        if identity.user.is_none() {
            state.strikes.strike(ip);
        }
    }
    let key = match &identity.user {
        Some(u) => format!("user:{}", u.id),
        None => format!("ip:{ip}"),
    };
    let stale_cookie = identity.credential == Some(Credential::Session) && identity.user.is_none();
    request.extensions_mut().insert(identity);
    request.extensions_mut().insert(RateKey(key));
    let mut response = next.run(request).await;
    if stale_cookie {
        response
            .headers_mut()
            .append(header::SET_COOKIE, cookie("", 0, state.secure_cookies));
    }
    if legacy {
        response.headers_mut().append(
            header::SET_COOKIE,
            HeaderValue::from_static("botbox_token=; Path=/; Max-Age=0"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An address gets its allowance of failures, then none until the bucket refills; another
    /// address is not touched.
    #[test]
    fn strikes_run_out_per_address() {
        let strikes = Strikes::new(5);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for _ in 0..5 {
            assert!(strikes.allowed(a));
            strikes.strike(a);
        }
        assert!(!strikes.allowed(a));
        assert!(strikes.allowed(b));
    }

    #[test]
    fn an_ipv6_client_is_its_64_network() {
        let at = |s: &str| client_address(s.parse().unwrap()).to_string();
        assert_eq!(at("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(at("::ffff:192.0.2.7"), "192.0.2.7");
        assert_eq!(at("192.0.2.7"), "192.0.2.7");
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; botbox_session=bbs_x; botbox_sessionx=2"),
        );
        assert_eq!(session_cookie(&headers), Some("bbs_x"));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("botbox_sessions=1"),
        );
        assert_eq!(session_cookie(&headers), None);
    }
}

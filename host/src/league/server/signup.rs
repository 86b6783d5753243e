//! Sign-up without an admin: with an invite (`botbox league invite create`), or on an open league
//! without one (a few sign-ups per address and hour), never on a closed one. The API's handler and
//! the web page share [`sign_up`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Extension;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::extract::{ApiError, ApiResult, Body};
use super::identity::ClientAddress;
use super::{AppState, ErrorBody};
use crate::league::store::User;

/// Who may sign up (`botbox league serve --signup`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Signup {
    /// With an invite only.
    #[default]
    Invite,
    /// Anyone, a few times per address and hour (an invite is still taken).
    Open,
    /// Nobody: the admin adds users (`botbox league user add`).
    Closed,
}

/// Sign-ups without an invite per address and hour, on an open league.
pub const OPEN_PER_HOUR: usize = 3;

/// The sign-ups without an invite each address made in the last hour.
#[derive(Debug, Default)]
pub struct OpenSignups(Mutex<HashMap<IpAddr, Vec<Instant>>>);

impl OpenSignups {
    /// Counts a sign-up from `ip` if the address has one left this hour.
    fn take(&self, ip: IpAddr) -> bool {
        let mut map = self.0.lock().expect("not poisoned");
        let hour = Duration::from_secs(3600);
        map.retain(|_, times| {
            times.retain(|t| t.elapsed() < hour);
            !times.is_empty()
        });
        let times = map.entry(ip).or_default();
        let left = times.len() < OPEN_PER_HOUR;
        if left {
            times.push(Instant::now());
        }
        left
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewUser {
    /// The name to sign up as: 1 to 40 letters, digits, `-` or `_`, starting with a letter or digit.
    pub name: String,
    /// The invite's code (the end of the invite link), unless the league is open.
    #[serde(default)]
    pub invite: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SignedUp {
    pub user: User,
    /// The new user's first token: shown once, stored hashed.
    pub token: String,
}

/// Why the sign-up `mode` refuses anyone who comes with `invite` (a code, or none), before the
/// code or the name is looked at: the words the API and the sign-up page both give.
pub(in crate::league) fn refusal(mode: Signup, invite: Option<&str>) -> Option<&'static str> {
    match (mode, invite) {
        (Signup::Closed, _) => {
            Some("sign-up is closed on this league: ask its admin for an account")
        }
        (Signup::Invite, None) => {
            Some("sign-up on this league takes an invite: open the invite link you were sent")
        }
        _ => None,
    }
}

/// Signs up `name` from the address `ip`, with an `invite` code or none, as the league's sign-up
/// mode allows.
pub(in crate::league) async fn sign_up(
    state: &AppState,
    ip: IpAddr,
    name: &str,
    invite: Option<&str>,
) -> Result<(User, String), ApiError> {
    let invite = invite.map(str::trim).filter(|code| !code.is_empty());
    if let Some(refused) = refusal(state.signup, invite) {
        return Err(ApiError::new(StatusCode::FORBIDDEN, refused));
    }
    match (state.signup, invite) {
        (Signup::Open, None) if !state.open_signups.take(ip) => {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{OPEN_PER_HOUR} sign-ups an hour from one address: wait, or use an invite"
                ),
            ));
        }
        _ => {}
    }
    // A code that does not check out is a strike against the address, as a bad token is.
    let hash = invite.map(|code| crate::runtime::source_hash(code.as_bytes()));
    if let Some(hash) = &hash
        && !state.strikes.may_try(ip, hash)
    {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many failed sign-ins from your address: wait a minute",
        ));
    }
    match state.store.sign_up(name, invite).await {
        Err(crate::league::store::StoreError::Forbidden(why)) => {
            state.strikes.strike(ip);
            Err(ApiError::new(StatusCode::FORBIDDEN, why))
        }
        other => Ok(other?),
    }
}

/// Signs up: a new user and their first token, with an invite (or without, on an open league).
#[utoipa::path(post, path = "/api/v1/signup", request_body = NewUser,
    responses((status = 201, body = SignedUp), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub(super) async fn signup(
    State(state): State<AppState>,
    Extension(ClientAddress(ip)): Extension<ClientAddress>,
    Body(new): Body<NewUser>,
) -> ApiResult<(StatusCode, Json<SignedUp>)> {
    let (user, token) = sign_up(&state, ip, &new.name, new.invite.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(SignedUp { user, token })))
}

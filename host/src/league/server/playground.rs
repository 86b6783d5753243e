//! The playground through the API (`POST /api/v1/play`): a Luau bot sent as text plays a few
//! unrated games on the server against the game's sparring bot, in the sandbox under the league's
//! limits, and comes back as viewer pages with its `print`s. Nothing is stored. Each client (a
//! signed-in user, else an address) has an allowance of games an hour, smaller without signing in.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Extension, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::AppState;
use super::extract::{ApiError, ApiResult, Body, ErrorBody};
use super::identity::RateKey;
use crate::league::games::{self, Opponent, PlaygroundGame};

/// Games a visitor who is not signed in may play an hour, per address.
pub const ANONYMOUS_GAMES_PER_HOUR: usize = 20;
/// Games a signed-in user may play an hour.
pub const USER_GAMES_PER_HOUR: usize = 100;
/// Games one request may ask for.
pub const MAX_GAMES: usize = 10;
/// The largest source the playground takes.
pub const MAX_SOURCE: usize = 64 << 10;
/// The time a request may spend starting games (the games started finish).
const BUDGET: Duration = Duration::from_secs(10);
/// Clients remembered at most; past it the oldest hour is forgotten.
const MAX_CLIENTS: usize = 65_536;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The game (`GET /api/v1/ladders` lists them).
    pub game: String,
    /// The bot: Luau source, a file returning a table of functions (at most 64 KiB).
    pub source: String,
    /// Games to play, the bot taking each seat in turn (1 to 10).
    #[serde(default = "three")]
    pub games: usize,
    /// A bot of the game's ladder to play against (its playing version), by name; the game's
    /// bundled sparring bot when none is given.
    #[serde(default)]
    pub opponent: Option<String>,
}

fn three() -> usize {
    3
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Played {
    /// The seed the games were dealt from.
    pub seed: u64,
    /// Games left to this client this hour.
    pub left: usize,
    pub games: Vec<PlaygroundGame>,
}

/// The games each client started in the last hour.
#[derive(Debug, Default)]
pub struct Allowance(Mutex<HashMap<String, Vec<Instant>>>);

impl Allowance {
    /// Takes `games` from `key`'s allowance of `per_hour`, if it has them; else says how many
    /// it has left.
    fn take(&self, key: &str, games: usize, per_hour: usize) -> Result<usize, usize> {
        let mut map = self.0.lock().expect("not poisoned");
        let hour = Duration::from_secs(3600);
        if map.len() >= MAX_CLIENTS {
            map.retain(|_, times| {
                times.retain(|t| t.elapsed() < hour);
                !times.is_empty()
            });
        }
        let times = map.entry(key.to_string()).or_default();
        times.retain(|t| t.elapsed() < hour);
        let left = per_hour.saturating_sub(times.len());
        if games > left {
            return Err(left);
        }
        times.extend(std::iter::repeat_n(Instant::now(), games));
        Ok(left - games)
    }
}

/// Plays a Luau bot written anywhere (the playground page sends it) against the game's sparring
/// bot: a few unrated games, nothing stored, each returned as the replay viewer's page.
#[utoipa::path(post, path = "/api/v1/play", request_body = PlayRequest,
    responses((status = 200, body = Played), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub(super) async fn play(
    State(state): State<AppState>,
    Extension(RateKey(key)): Extension<RateKey>,
    Body(request): Body<PlayRequest>,
) -> ApiResult<Json<Played>> {
    let PlayRequest {
        game,
        source,
        games,
        opponent,
    } = request;
    games::seats(&game).map_err(|e| ApiError::new(StatusCode::NOT_FOUND, e.to_string()))?;
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("games: 1 to {MAX_GAMES}, not {games}"),
        ));
    }
    if source.len() > MAX_SOURCE {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the bot is {} bytes; the playground takes at most {MAX_SOURCE}",
                source.len()
            ),
        ));
    }
    let signed_in = key.starts_with("user:");
    let per_hour = match signed_in {
        true => USER_GAMES_PER_HOUR,
        false => ANONYMOUS_GAMES_PER_HOUR,
    };
    let left = state
        .playground
        .take(&key, games, per_hour)
        .map_err(|left| {
            let more = match signed_in {
                true => String::new(),
                false => format!(" ({USER_GAMES_PER_HOUR} when signed in)"),
            };
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "the playground plays {per_hour} games an hour for you{more}; {left} are left \
                     this hour, and you asked for {games}"
                ),
            )
        })?;
    let opponent = match opponent {
        None => None,
        Some(name) => Some(ladder_bot(&state, &game, &name).await?),
    };
    // Played one request at a time with the upload checks, off the async threads.
    let permit = state
        .checks
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    let seed = games::random_u64();
    let (cache, limits) = (state.cache.clone(), state.limits.clone());
    let played = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        games::playground(
            &cache,
            &game,
            (source.as_bytes(), opponent.as_ref()),
            &limits,
            (games, seed, BUDGET),
        )
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")))?
    .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    Ok(Json(Played {
        seed,
        left,
        games: played,
    }))
}

/// The playing version of the bot `name` on `game`'s ladder, as an opponent.
async fn ladder_bot(state: &AppState, game: &str, name: &str) -> ApiResult<Opponent> {
    let ladder = state.store.ladder(game).await?;
    let version = ladder.iter().find(|v| v.bot == name).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no bot {name:?} plays on the {game} ladder"),
        )
    })?;
    let (kind, source, file_name) =
        state.store.source(version.id).await?.ok_or_else(|| {
            ApiError::new(StatusCode::NOT_FOUND, format!("{name}'s source is gone"))
        })?;
    Ok(Opponent {
        name: format!("{}@v{}", version.bot, version.number),
        file_name: games::file_name(file_name.as_deref(), &version.bot, &kind),
        kind,
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowance_is_counted_in_games_per_client() {
        let a = Allowance::default();
        assert_eq!(a.take("ip:1", 3, 5), Ok(2));
        assert_eq!(a.take("ip:1", 3, 5), Err(2));
        assert_eq!(a.take("ip:1", 2, 5), Ok(0));
        assert_eq!(a.take("ip:2", 5, 5), Ok(0), "another client has its own");
    }
}

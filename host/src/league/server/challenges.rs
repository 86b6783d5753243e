//! Challenges through the API: an owner asks for unrated games of their bot against another bot of
//! its ladder, and reads how they went.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;

use super::AppState;
use super::extract::{ApiError, ApiResult, Auth, Body, ErrorBody, Path};
use crate::league::store::{CHALLENGE_GAMES_PER_HOUR, ChallengeInfo, User};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// The bot to play against: any other bot on the ladder.
    pub opponent: String,
    /// Games to play, the seats alternating (1 to 20; 20 challenge games per user and hour).
    #[serde(default = "ten")]
    pub games: i64,
    /// The variant, by its index in `GET /api/v1/ladders/{game}/variants` (0 by default).
    #[serde(default)]
    pub variant: usize,
}

fn ten() -> i64 {
    10
}

/// Asks for unrated games of one of your bots against another bot of its ladder, played before
/// the ladder's games.
#[utoipa::path(post, path = "/api/v1/bots/{name}/challenges", security(("token" = [])),
    params(("name" = String, Path, description = "Your bot's name")), request_body = NewChallenge,
    responses((status = 201, body = ChallengeInfo), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub(super) async fn challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(name): Path<String>,
    Body(new): Body<NewChallenge>,
) -> ApiResult<(StatusCode, Json<ChallengeInfo>)> {
    let info = create(&state, &user, &name, &new).await?;
    Ok((StatusCode::CREATED, Json(info)))
}

/// Queues a challenge for `user` (the API and the bot page share it).
pub(in crate::league) async fn create(
    state: &AppState,
    user: &User,
    bot: &str,
    new: &NewChallenge,
) -> ApiResult<ChallengeInfo> {
    if new.games > CHALLENGE_GAMES_PER_HOUR {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "a challenge is at most {CHALLENGE_GAMES_PER_HOUR} games (and {CHALLENGE_GAMES_PER_HOUR} an hour per user)"
            ),
        ));
    }
    let limits = serde_json::to_string(&state.limits).expect("limits serialize");
    Ok(state
        .store
        .add_challenge(user, bot, &new.opponent, new.games, new.variant, &limits)
        .await?)
}

/// Your bot's challenges, newest first, with the games played so far (their owner only).
#[utoipa::path(get, path = "/api/v1/bots/{name}/challenges", security(("token" = [])),
    params(("name" = String, Path, description = "Your bot's name")),
    responses((status = 200, body = Vec<ChallengeInfo>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn challenges(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(name): Path<String>,
) -> ApiResult<Json<Vec<ChallengeInfo>>> {
    let bot = super::bots::find_bot(&state, &name).await?;
    if bot.owner_id != user.id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("{name}'s challenges are its owner's"),
        ));
    }
    Ok(Json(state.store.challenges(bot.id).await?))
}

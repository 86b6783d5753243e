//! The API's bot handlers: uploading a version (and the checks the upload form shares), a bot's
//! page, retiring it, and its games (with log lines and fault messages for its owner).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::{
    ApiError, ApiResult, AppState, Auth, ErrorBody, MaybeAuth, Path, Query, Upload, known_game,
    seat_logs,
};
use crate::league::games;
use crate::league::rating::Model;
use crate::league::store::{Bot, StoredGame, User, Version};

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct UploadQuery {
    /// The game the bot plays (only when the bot is new; a bot keeps its game).
    pub game: Option<String>,
    /// The file's name as you know it (`hunter.lua`): error messages about the version name it.
    /// The bot's name with the kind's extension by default.
    pub file: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Uploaded {
    /// False when these bytes were uploaded before (the same version again).
    pub created: bool,
    pub version: Version,
}

/// Uploads a new version of a bot (creating the bot): a `.wasm` module or `.lua` source as the
/// request body. The server compiles it, checks its imports, and plays a smoke game; the version
/// becomes active only if that passes. The same bytes again are the same version.
#[utoipa::path(post, path = "/api/v1/bots/{name}/versions", security(("token" = [])),
    params(("name" = String, Path, description = "The bot's name: 1 to 40 letters, digits, - and _"), UploadQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses((status = 201, body = Uploaded), (status = 200, body = Uploaded),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(super) async fn upload(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(name): Path<String>,
    Query(query): Query<UploadQuery>,
    Upload(body): Upload,
) -> ApiResult<(StatusCode, Json<Uploaded>)> {
    let (status, uploaded) = upload_version(&state, &user, &name, query, body).await?;
    Ok((status, Json(uploaded)))
}

/// An upload's checks and storage, for the API and the upload form alike.
pub(in crate::league) async fn upload_version(
    state: &AppState,
    user: &User,
    name: &str,
    query: UploadQuery,
    body: axum::body::Bytes,
) -> ApiResult<(StatusCode, Uploaded)> {
    let user = user.clone();
    let name = name.to_string();
    // What the upload is comes before whose name it takes: a program is refused as a program.
    games::refuse_programs(query.file.as_deref(), &body)
        .map_err(|reason| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, reason))?;
    crate::league::store::check_name("bot", &name)?;
    let existing = state.store.bot(&name).await?;
    let game = match (&existing, &query.game) {
        (Some(bot), _) if bot.owner_id != user.id => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("the bot {name} belongs to another user; choose another name"),
            ));
        }
        (Some(bot), Some(game)) if &bot.game != game => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("the bot {name} plays {}, not {game}", bot.game),
            ));
        }
        (Some(bot), _) => bot.game.clone(),
        (None, Some(game)) => game.clone(),
        (None, None) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "a new bot needs its game: ?game=worms (see /api/v1/ladders)",
            ));
        }
    };
    known_game(&game).map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.message))?;
    let permit = state
        .checks
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down"))?;
    let (cache, limits, game2) = (state.cache.clone(), state.limits.clone(), game.clone());
    let (bot, file) = (name.clone(), query.file);
    let checked = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        games::check(&cache, &game2, &body, &limits, (&bot, file.as_deref()))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    let checked = checked.map_err(|reason| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{name} refused: {reason}"),
        )
    })?;
    let model = Model::for_seats(games::seats(&game)?);
    let (version, created) = state
        .store
        .add_version(&user, &name, &game, &checked, model)
        .await?;
    tracing::info!(bot = %name, version = version.number, created, user = %user.name, "upload");
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Uploaded { created, version }))
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BotPage {
    pub bot: Bot,
    /// Newest first; the active one plays.
    pub versions: Vec<Version>,
    /// The most recent games.
    pub games: Vec<GameSummary>,
}

/// One game in a list.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GameSummary {
    pub id: i64,
    pub game: String,
    pub variant: String,
    pub seed: u64,
    /// `bot@vN` in seat order.
    pub players: Vec<String>,
    pub winner: Option<String>,
    pub reason: String,
    pub turns: u32,
    /// Each seat's fault: its kind for everyone, with the message for the seat's owner.
    pub faults: Vec<Option<String>>,
    pub finished: i64,
    /// Each of the viewer's own seats' log lines (empty for seats that are not theirs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<Vec<String>>,
    /// The command that downloads and shows this game's replay.
    pub replay: String,
    /// The command that re-plays this game from the league's database and compares the bytes.
    pub verify: String,
}

pub(in crate::league) fn summary(g: &StoredGame, viewer: Option<&User>) -> GameSummary {
    let owns =
        |seat: usize| viewer.is_some_and(|u| g.seats.get(seat).is_some_and(|s| s.owner_id == u.id));
    GameSummary {
        id: g.id,
        game: g.game.clone(),
        variant: g.variant.clone(),
        seed: g.seed,
        players: g.record.players.clone(),
        winner: g.record.winner.clone(),
        reason: g.record.reason.clone(),
        turns: g.record.turns,
        faults: g
            .record
            .faults
            .iter()
            .enumerate()
            .map(|(seat, f)| {
                f.as_ref().map(|f| {
                    if owns(seat) {
                        format!("{:?}: {}", f.kind, f.message)
                    } else {
                        format!("{:?}", f.kind)
                    }
                })
            })
            .collect(),
        finished: g.finished,
        logs: Vec::new(),
        replay: format!("botbox league replay {}", g.id),
        verify: format!("botbox league verify {}", g.id),
    }
}

/// A bot: its versions, its standing and its recent games.
#[utoipa::path(get, path = "/api/v1/bots/{name}",
    params(("name" = String, Path, description = "The bot's name")),
    responses((status = 401, body = ErrorBody), (status = 400, body = ErrorBody), (status = 200, body = BotPage), (status = 404, body = ErrorBody)))]
pub(super) async fn bot(
    State(state): State<AppState>,
    MaybeAuth(viewer): MaybeAuth,
    Path(name): Path<String>,
) -> ApiResult<Json<BotPage>> {
    let bot = find_bot(&state, &name).await?;
    let versions = state.store.versions(bot.id).await?;
    let games = state
        .store
        .results(Some(bot.id), false, 10)
        .await?
        .iter()
        .map(|g| summary(g, viewer.as_ref()))
        .collect();
    Ok(Json(BotPage {
        bot,
        versions,
        games,
    }))
}

/// The bot called `name`, or 404 with its name.
pub(super) async fn find_bot(state: &AppState, name: &str) -> ApiResult<Bot> {
    state
        .store
        .bot(name)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no bot called {name}")))
}

/// Retires a bot: it plays no more games (the owner only).
#[utoipa::path(post, path = "/api/v1/bots/{name}/retire", security(("token" = [])),
    params(("name" = String, Path, description = "The bot's name")),
    responses((status = 400, body = ErrorBody), (status = 200, body = Bot), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn retire(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(name): Path<String>,
) -> ApiResult<Json<Bot>> {
    state.store.retire(&user, &name).await?;
    Ok(Json(find_bot(&state, &name).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct GamesQuery {
    /// Only games where the bot faulted.
    #[serde(default)]
    pub faults: bool,
    /// At most this many, newest first (1 to 200; 20 by default).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// A bot's games, newest first; its owner also gets its log lines and fault messages.
#[utoipa::path(get, path = "/api/v1/bots/{name}/games",
    params(("name" = String, Path, description = "The bot's name"), GamesQuery),
    responses((status = 401, body = ErrorBody), (status = 200, body = Vec<GameSummary>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn bot_games(
    State(state): State<AppState>,
    MaybeAuth(viewer): MaybeAuth,
    Path(name): Path<String>,
    Query(query): Query<GamesQuery>,
) -> ApiResult<Json<Vec<GameSummary>>> {
    let limit = query.limit.unwrap_or(20);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "limit is 1 to 200"));
    }
    let bot = find_bot(&state, &name).await?;
    let owner = viewer.as_ref().is_some_and(|u| u.id == bot.owner_id);
    let mut out = Vec::new();
    for g in state
        .store
        .results(Some(bot.id), query.faults, limit)
        .await?
    {
        let mut s = summary(&g, viewer.as_ref());
        if owner {
            s.logs = seat_logs(&state, &g, viewer.as_ref()).await?;
        }
        out.push(s);
    }
    Ok(Json(out))
}

//! The league's HTTP API (axum), versioned under `/api/v1/`, and its OpenAPI document (utoipa,
//! generated from the handlers below and served at `/api/v1/openapi.json`).
//!
//! Reading is open to everyone: ladders, bots, games, replays (with other people's logs blanked).
//! Writing needs a token (`Authorization: Bearer bbx_...`): only a bot's owner uploads its versions,
//! retires it, or reads its logs and fault messages. Every client is rate limited, by its token or,
//! without one, by its IP address; request bodies are capped (uploads at the largest module the
//! league takes, everything else at 64 KiB).

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;
use utoipa::OpenApi;

mod extract;
mod openapi;
mod played;

pub use extract::{ApiError, Auth, Body, ErrorBody, MaybeAuth, Path, Query, Upload};
use extract::{ApiResult, ClientKey};
pub use openapi::ApiDoc;
pub(in crate::league) use played::seat_logs;
use played::{game, logs, replay};

use super::games::{self, Cache};
use super::rating::Model;
use super::store::{Bot, StoredGame, TokenInfo, User, Version};
use super::{ENGINE, Store};

/// What the handlers share.
#[derive(Clone, Debug)]
pub struct AppState {
    pub store: Store,
    pub cache: Cache,
    /// The limits games are played under, as JSON (a `LimitSpec`).
    pub limits: crate::runtime::LimitSpec,
    /// Upload checks (a compile and a smoke game each) run this many at a time.
    pub checks: Arc<tokio::sync::Semaphore>,
}

/// Requests per second each client (token or IP) may make, and the burst above it.
#[derive(Clone, Copy, Debug)]
pub struct RateLimit {
    pub per_second: u64,
    pub burst: u32,
}

/// The API's routes.
pub fn router(state: AppState, rate: RateLimit) -> Router {
    let governor = GovernorConfigBuilder::default()
        .per_nanosecond((1_000_000_000 / rate.per_second.max(1)).max(1))
        .burst_size(rate.burst.max(1))
        .key_extractor(ClientKey)
        .finish()
        .expect("a positive rate and burst");
    let uploads = Router::new()
        .route("/api/v1/bots/{name}/versions", post(upload))
        .layer(DefaultBodyLimit::max(games::MAX_WASM_BYTES));
    Router::new()
        .route("/api/v1/health", get(health))
        .route("/api/v1/openapi.json", get(openapi))
        .route("/api/v1/status", get(status))
        .route("/api/v1/me", get(me))
        .route("/api/v1/tokens", post(add_token))
        .route("/api/v1/tokens/{id}", delete(revoke_token))
        .route("/api/v1/ladders", get(ladders))
        .route("/api/v1/ladders/{game}", get(ladder))
        .route("/api/v1/ladders/{game}/variants", get(variant_ladders))
        .route("/api/v1/bots/{name}", get(bot))
        .route("/api/v1/bots/{name}/retire", post(retire))
        .route("/api/v1/bots/{name}/games", get(bot_games))
        .route("/api/v1/games/{id}", get(game))
        .route("/api/v1/games/{id}/replay", get(replay))
        .route("/api/v1/games/{id}/logs", get(logs))
        .layer(DefaultBodyLimit::max(64 << 10))
        .merge(uploads)
        .merge(
            super::pages::routes().layer(DefaultBodyLimit::max(games::MAX_WASM_BYTES + (64 << 10))),
        )
        .fallback(not_found)
        .layer(GovernorLayer::new(governor))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page: see /api/v1/openapi.json",
    )
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Health {
    pub ok: bool,
    /// The botbox version that plays the games.
    pub engine: String,
}

/// Whether the server is up, and which engine plays its games.
#[utoipa::path(get, path = "/api/v1/health", responses((status = 200, body = Health)))]
async fn health() -> Json<Health> {
    Json(Health {
        ok: true,
        engine: ENGINE.into(),
    })
}

/// This document.
#[utoipa::path(get, path = "/api/v1/openapi.json", responses((status = 200, description = "The OpenAPI document")))]
async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Status {
    /// Jobs by state: queued, leased, done, failed.
    pub jobs: Vec<JobCount>,
    /// Games recorded.
    pub games: i64,
    /// Jobs leased past their lease's end, not yet put back in the queue by the reaper.
    pub expired_leases: i64,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct JobCount {
    pub state: String,
    pub count: i64,
}

/// The queue: jobs by state, and games recorded.
#[utoipa::path(get, path = "/api/v1/status", responses((status = 200, body = Status)))]
async fn status(State(state): State<AppState>) -> ApiResult<Json<Status>> {
    let jobs = state
        .store
        .job_states()
        .await?
        .into_iter()
        .map(|(state, count)| JobCount { state, count })
        .collect();
    let games = state.store.result_count(None).await?;
    let expired_leases = state.store.expired_leases().await?;
    Ok(Json(Status {
        jobs,
        games,
        expired_leases,
    }))
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Me {
    pub user: User,
    pub tokens: Vec<TokenInfo>,
}

/// The signed-in user and their tokens.
#[utoipa::path(get, path = "/api/v1/me", security(("token" = [])),
    responses((status = 200, body = Me), (status = 401, body = ErrorBody)))]
async fn me(State(state): State<AppState>, Auth(user): Auth) -> ApiResult<Json<Me>> {
    let tokens = state.store.tokens(user.id).await?;
    Ok(Json(Me { user, tokens }))
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct NewToken {
    /// A name to tell the token by (`laptop`, `ci`); control characters become spaces.
    #[schema(min_length = 1, max_length = 60)]
    pub label: String,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct IssuedToken {
    pub id: i64,
    /// Shown once: only its hash is kept.
    pub token: String,
}

/// A new token for the signed-in user.
#[utoipa::path(post, path = "/api/v1/tokens", security(("token" = [])), request_body = NewToken,
    responses((status = 415, body = ErrorBody), (status = 422, body = ErrorBody), (status = 201, body = IssuedToken), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn add_token(
    State(state): State<AppState>,
    Auth(user): Auth,
    Body(new): Body<NewToken>,
) -> ApiResult<(StatusCode, Json<IssuedToken>)> {
    let count = new.label.chars().count();
    if !(1..=60).contains(&count) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "a token's label is 1 to 60 characters",
        ));
    }
    let label: String = new
        .label
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let (id, token) = state.store.add_token(user.id, &label).await?;
    Ok((StatusCode::CREATED, Json(IssuedToken { id, token })))
}

/// Revokes one of the signed-in user's tokens.
#[utoipa::path(delete, path = "/api/v1/tokens/{id}", security(("token" = [])),
    params(("id" = i64, Path, description = "The token's id")),
    responses((status = 400, body = ErrorBody), (status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn revoke_token(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    if state.store.revoke_token(user.id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("you have no token {id} in use"),
        ))
    }
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LadderInfo {
    pub game: String,
    pub seats: usize,
    #[schema(value_type = String)]
    pub model: Model,
    /// The rating formula, as the page names it.
    pub formula: String,
    /// Bots playing.
    pub bots: usize,
    /// Games recorded.
    pub games: i64,
}

/// Every game's ladder, in brief.
#[utoipa::path(get, path = "/api/v1/ladders", responses((status = 200, body = Vec<LadderInfo>)))]
async fn ladders(State(state): State<AppState>) -> ApiResult<Json<Vec<LadderInfo>>> {
    let mut out = Vec::new();
    for game in games::names() {
        let seats = games::seats(game)?;
        let model = Model::for_seats(seats);
        out.push(LadderInfo {
            game: game.into(),
            seats,
            model,
            formula: model.describe().into(),
            bots: state.store.ladder(game).await?.len(),
            games: state.store.result_count(Some(game)).await?,
        });
    }
    Ok(Json(out))
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Ladder {
    pub game: String,
    #[schema(value_type = String)]
    pub model: Model,
    pub formula: String,
    pub rows: Vec<LadderRow>,
}

/// One bot on a ladder.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LadderRow {
    pub rank: usize,
    pub bot: String,
    pub owner: String,
    /// The version that plays, from 1.
    pub version: i64,
    pub kind: String,
    /// Glicko-2 rating, Weng-Lin mu, or mean points.
    pub rating: f64,
    /// Glicko-2 deviation, Weng-Lin sigma, or the 95% margin of the mean points.
    pub uncertainty: f64,
    /// What the ladder sorts by (rating less its uncertainty; the mean for solo games).
    pub rank_value: f64,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub faults: i64,
}

pub(super) fn row(rank: usize, v: &Version) -> LadderRow {
    LadderRow {
        rank,
        bot: v.bot.clone(),
        owner: v.owner.clone(),
        version: v.number,
        kind: v.kind.clone(),
        rating: v.rating.value,
        uncertainty: match v.rating.model {
            Model::Points => v.rating.margin(),
            _ => v.rating.uncertainty,
        },
        rank_value: v.rating.conservative(),
        games: v.games,
        wins: v.wins,
        draws: v.draws,
        losses: v.losses,
        faults: v.faults,
    }
}

fn known_game(game: &str) -> ApiResult<()> {
    crate::games::registry::find(game)
        .map(|_| ())
        .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, e))
}

/// A game's ladder, best first.
#[utoipa::path(get, path = "/api/v1/ladders/{game}",
    params(("game" = String, Path, description = "A registered game: 2048, dice, bs, worms, connect4")),
    responses((status = 400, body = ErrorBody), (status = 200, body = Ladder), (status = 404, body = ErrorBody)))]
async fn ladder(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> ApiResult<Json<Ladder>> {
    known_game(&game)?;
    let model = Model::for_seats(games::seats(&game)?);
    let rows = state
        .store
        .ladder(&game)
        .await?
        .iter()
        .enumerate()
        .map(|(i, v)| row(i + 1, v))
        .collect();
    Ok(Json(Ladder {
        game,
        model,
        formula: model.describe().into(),
        rows,
    }))
}

/// One variant of a game's ladder: each playing bot's record on it, best score first.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct VariantLadder {
    pub variant: String,
    pub rows: Vec<crate::league::store::VariantRecord>,
}

/// A game's ladder per variant (a Wormworld map, a die of the dice ladder), in the order the
/// matchmaker cycles through them. Ratings are per game (on the ladder); this is each playing
/// version's record on each variant. 2048 is played alone: a game there counts as a win unless the
/// bot faulted (its points are on the ladder).
#[utoipa::path(get, path = "/api/v1/ladders/{game}/variants",
    params(("game" = String, Path, description = "A registered game: 2048, dice, bs, worms, connect4")),
    responses((status = 400, body = ErrorBody), (status = 200, body = Vec<VariantLadder>), (status = 404, body = ErrorBody)))]
async fn variant_ladders(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> ApiResult<Json<Vec<VariantLadder>>> {
    known_game(&game)?;
    Ok(Json(variant_ladders_of(&state, &game).await?))
}

/// Every variant of `game`'s ladder with its records (the API's and the ladder page's).
pub(super) async fn variant_ladders_of(
    state: &AppState,
    game: &str,
) -> ApiResult<Vec<VariantLadder>> {
    let mut records = state.store.variant_records(game).await?;
    Ok(games::variant_names(game)?
        .into_iter()
        .map(|variant| {
            let (rows, rest) = records.drain(..).partition(|r| r.variant == variant);
            records = rest;
            VariantLadder { variant, rows }
        })
        .collect())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct UploadQuery {
    /// The game the bot plays (only when the bot is new; a bot keeps its game).
    pub game: Option<String>,
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
async fn upload(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(name): Path<String>,
    Query(query): Query<UploadQuery>,
    Upload(body): Upload,
) -> ApiResult<(StatusCode, Json<Uploaded>)> {
    let (status, uploaded) = upload_version(&state, &user, &name, query.game, body).await?;
    Ok((status, Json(uploaded)))
}

/// An upload's checks and storage, for the API and the upload form alike.
pub(super) async fn upload_version(
    state: &AppState,
    user: &User,
    name: &str,
    game: Option<String>,
    body: axum::body::Bytes,
) -> ApiResult<(StatusCode, Uploaded)> {
    let query = UploadQuery { game };
    let user = user.clone();
    let name = name.to_string();
    super::store::check_name("bot", &name)?;
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
    let checked = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        games::check(&cache, &game2, &body, &limits)
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

pub(super) fn summary(g: &StoredGame, viewer: Option<&User>) -> GameSummary {
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

/// The stored game's record with other people's fault messages taken out.
fn redact(mut g: StoredGame, viewer: Option<&User>) -> StoredGame {
    for (seat, fault) in g.record.faults.iter_mut().enumerate() {
        let mine = viewer.is_some_and(|u| g.seats.get(seat).is_some_and(|s| s.owner_id == u.id));
        if let Some(f) = fault.as_mut().filter(|_| !mine) {
            f.message = "(shown to the bot's owner)".into();
        }
        if let Some(s) = g.seats.get_mut(seat).filter(|_| !mine) {
            s.fault = s
                .fault
                .as_ref()
                .map(|f| f.split(':').next().unwrap_or_default().to_string());
        }
    }
    g
}

/// A bot: its versions, its standing and its recent games.
#[utoipa::path(get, path = "/api/v1/bots/{name}",
    params(("name" = String, Path, description = "The bot's name")),
    responses((status = 401, body = ErrorBody), (status = 400, body = ErrorBody), (status = 200, body = BotPage), (status = 404, body = ErrorBody)))]
async fn bot(
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

async fn find_bot(state: &AppState, name: &str) -> ApiResult<Bot> {
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
async fn retire(
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
async fn bot_games(
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

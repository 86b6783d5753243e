//! The league's HTTP API (axum), versioned under `/api/v1/`, and its OpenAPI document (utoipa,
//! generated from the handlers below and served at `/api/v1/openapi.json`).
//!
//! Reading is open to everyone: ladders, bots, games, replays (with other people's logs blanked).
//! Writing needs a token (`Authorization: Bearer bbx_...`): only a bot's owner uploads its versions,
//! retires it, or reads its logs and fault messages. Every client is rate limited, by its user when
//! its credential checks out, else by its IP address ([`identity`]); request bodies are capped
//! (uploads at the largest module the league takes, everything else at 64 KiB) and every request
//! has a time limit (uploads a longer one). Connections are served by [`listen`].

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;
use utoipa::OpenApi;

mod bots;
pub(super) mod challenges;
mod extract;
pub mod identity;
pub mod listen;
mod openapi;
pub(crate) mod played;
pub mod playground;
pub mod proxy;
pub mod signup;

// The bot handlers with their utoipa path types, here so `openapi.rs` names them `super::upload`
// and so on: the OpenAPI document's tags come from those paths.
use bots::{
    __path_bot, __path_bot_games, __path_retire, __path_upload, bot, bot_games, retire, upload,
};
pub use bots::{BotPage, GameSummary, GamesQuery, UploadQuery, Uploaded};
pub(in crate::league) use bots::{summary, upload_version};

pub use extract::{ApiError, Auth, Body, ErrorBody, MaybeAuth, Path, Query, Upload};
use extract::{ApiResult, ClientKey};
pub use openapi::ApiDoc;
use played::{game, logs, replay};
pub(in crate::league) use played::{redact_replay, seat_logs};

use super::games::{self, Cache};
use super::rating::Model;
use super::store::{StoredGame, TokenInfo, User, Version};
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
    /// Failed authentications per address.
    pub strikes: Arc<identity::Strikes>,
    /// Whether session cookies are `Secure` (off only for plain HTTP on a LAN).
    pub secure_cookies: bool,
    /// Games each ladder may start per hour (0: no pace).
    pub games_per_hour: u32,
    /// The cap on the bytes replays take, if there is one.
    pub replay_cap: Option<i64>,
    /// Who may sign up.
    pub signup: signup::Signup,
    /// Sign-ups without an invite per address, on an open league.
    pub open_signups: Arc<signup::OpenSignups>,
    /// The reverse proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Arc<Vec<proxy::Network>>,
    /// The playground's games per client and hour.
    pub playground: Arc<playground::Allowance>,
}

/// Requests per second each client (user, or IP address without a valid credential) may make, and
/// the burst above it.
#[derive(Clone, Copy, Debug)]
pub struct RateLimit {
    pub per_second: u64,
    pub burst: u32,
}

/// How long a request may take, from its headers to its response: uploads (a compile and a smoke
/// game) and everything else.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    pub request: Duration,
    pub upload: Duration,
}

/// The largest body an upload request may have (the API's or the upload form's); `None` for a
/// request that is not an upload.
fn upload_cap(request: &Request) -> Option<usize> {
    let path = request.uri().path();
    if request.method() != Method::POST {
        None
    } else if path == "/upload" {
        Some(super::pages::FORM_BYTES)
    } else if path.starts_with("/api/v1/bots/") && path.ends_with("/versions") {
        Some(games::MAX_WASM_BYTES)
    } else {
        None
    }
}

/// Answers an upload whose `Content-Length` is over its cap with 413 before anything reads it,
/// and reads what the client still sends in the background (at most 10 s, as nginx's lingering
/// close does), so the client is not cut off mid-send and gets to read the answer.
async fn refuse_oversized(request: Request, next: Next) -> Response {
    let length = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|l| l.to_str().ok()?.parse::<u64>().ok());
    let Some(cap) = upload_cap(&request).filter(|&cap| length.is_some_and(|l| l > cap as u64))
    else {
        return next.run(request).await;
    };
    let page = request.uri().path() == "/upload";
    let mut body = request.into_body();
    tokio::spawn(async move {
        use http_body_util::BodyExt;
        let drain = async { while let Some(Ok(_)) = body.frame().await {} };
        let _ = tokio::time::timeout(Duration::from_secs(10), drain).await;
    });
    tracing::debug!("refused an upload of {length:?} bytes, over {cap}");
    if page {
        super::pages::too_large_page()
    } else {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, games::too_large()).into_response()
    }
}

/// Ends a request that takes longer than its time limit with 408.
async fn time_limit(State(limits): State<Timeouts>, request: Request, next: Next) -> Response {
    let limit = if upload_cap(&request).is_some() {
        limits.upload
    } else {
        limits.request
    };
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!("the request took longer than {} s", limit.as_secs_f64()),
        )
        .into_response(),
    }
}

/// The API's routes.
pub fn router(state: AppState, rate: RateLimit, timeouts: Timeouts) -> Router {
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
        .route("/api/v1/signup", post(signup::signup))
        .route("/api/v1/tokens", post(add_token))
        .route("/api/v1/tokens/{id}", delete(revoke_token))
        .route("/api/v1/ladders", get(ladders))
        .route("/api/v1/ladders/{game}", get(ladder))
        .route("/api/v1/ladders/{game}/variants", get(variant_ladders))
        .route("/api/v1/bots/{name}", get(bot))
        .route("/api/v1/bots/{name}/retire", post(retire))
        .route("/api/v1/bots/{name}/games", get(bot_games))
        .route(
            "/api/v1/bots/{name}/challenges",
            get(challenges::challenges).post(challenges::challenge),
        )
        .route("/api/v1/games/{id}", get(game))
        .route("/api/v1/games/{id}/replay", get(replay))
        .route("/api/v1/games/{id}/logs", get(logs))
        .route("/api/v1/play", post(playground::play))
        .layer(DefaultBodyLimit::max(64 << 10))
        .merge(uploads)
        .merge(super::pages::routes().layer(DefaultBodyLimit::max(super::pages::FORM_BYTES)))
        .fallback(not_found)
        .layer(axum::middleware::from_fn(refuse_oversized))
        .layer(GovernorLayer::new(governor))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identity::identify,
        ))
        .layer(axum::middleware::from_fn_with_state(timeouts, time_limit))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

/// An unknown path: JSON under `/api/`, a page (with the navigation) anywhere else.
async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no such page: see /api/v1/openapi.json",
        )
        .into_response()
    } else {
        super::pages::not_found_page()
    }
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
    /// Games each ladder may start per hour (`--games-per-hour`; 0: as fast as the workers go).
    pub games_per_hour: u32,
    /// What the league stores.
    pub storage: crate::league::store::Storage,
    /// The cap on replays in bytes (`--max-replay-mib`), if there is one.
    pub replay_cap_bytes: Option<i64>,
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
    let storage = state.store.storage(crate::league::store::now_ms()).await?;
    Ok(Json(Status {
        jobs,
        games,
        expired_leases,
        games_per_hour: state.games_per_hour,
        storage,
        replay_cap_bytes: state.replay_cap,
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
    /// Glicko-2 rating, Weng-Lin mu, or mean score (solo games).
    pub rating: f64,
    /// Glicko-2 deviation, Weng-Lin sigma, or the 95% margin of the mean score.
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
    params(("game" = String, Path, description = "A registered game, as GET /api/v1/ladders lists them")),
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
    params(("game" = String, Path, description = "A registered game, as GET /api/v1/ladders lists them")),
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

/// The stored game's record with other people's fault messages taken out.
fn redact(mut g: StoredGame, viewer: Option<&User>) -> StoredGame {
    for (seat, fault) in g.record.faults.iter_mut().enumerate() {
        let mine = viewer.is_some_and(|u| g.seats.get(seat).is_some_and(|s| s.owner_id == u.id));
        if let Some(f) = fault.as_mut().filter(|_| !mine) {
            f.message = played::HIDDEN.into();
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

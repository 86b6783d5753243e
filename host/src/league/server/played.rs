//! The API's played games: a stored game, its replay (other people's logs blanked) and the signed-in
//! owner's log lines and faults.

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::{ApiError, ApiResult, AppState, Auth, ErrorBody, MaybeAuth, Path, redact};
use crate::league::store::{StoredGame, User};

/// Each seat's log lines from the stored replay, blank for the seats `viewer` does not own.
pub(in crate::league) async fn seat_logs(
    state: &AppState,
    g: &StoredGame,
    viewer: Option<&User>,
) -> ApiResult<Vec<Vec<String>>> {
    let Some(bytes) = state.store.replay(g.id).await? else {
        return Ok(Vec::new());
    };
    let text = String::from_utf8_lossy(&bytes);
    let file = crate::replay::parse(&text)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(file
        .end
        .map(|end| end.logs)
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(seat, logs)| {
            let mine =
                viewer.is_some_and(|u| g.seats.get(seat).is_some_and(|s| s.owner_id == u.id));
            if mine { logs } else { Vec::new() }
        })
        .collect())
}

async fn find_game(state: &AppState, id: i64) -> ApiResult<StoredGame> {
    state
        .store
        .result(id)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no game {id}")))
}

/// A stored game: who played which version, the result, and what `verify` needs.
#[utoipa::path(get, path = "/api/v1/games/{id}",
    params(("id" = i64, Path, description = "The game's id")),
    responses((status = 401, body = ErrorBody), (status = 400, body = ErrorBody), (status = 200, body = StoredGame), (status = 404, body = ErrorBody)))]
pub(super) async fn game(
    State(state): State<AppState>,
    MaybeAuth(viewer): MaybeAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<StoredGame>> {
    let g = find_game(&state, id).await?;
    Ok(Json(redact(g, viewer.as_ref())))
}

/// A stored game's replay (JSON Lines, `docs/replay-format.md`), with the logs of seats that are
/// not the viewer's blanked.
#[utoipa::path(get, path = "/api/v1/games/{id}/replay",
    params(("id" = i64, Path, description = "The game's id")),
    responses((status = 401, body = ErrorBody), (status = 400, body = ErrorBody), (status = 200, content_type = "application/jsonl", body = String), (status = 404, body = ErrorBody), (status = 410, body = ErrorBody)))]
pub(super) async fn replay(
    State(state): State<AppState>,
    MaybeAuth(viewer): MaybeAuth,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let g = find_game(&state, id).await?;
    let Some(bytes) = state.store.replay(id).await? else {
        return Err(ApiError::new(
            StatusCode::GONE,
            format!("game {id}'s replay is past the league's retention"),
        ));
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(last) = lines.last_mut()
        && let Ok(mut end) = serde_json::from_str::<serde_json::Value>(last)
        && let Some(logs) = end.get_mut("logs").and_then(|l| l.as_array_mut())
    {
        for (seat, l) in logs.iter_mut().enumerate() {
            let mine = viewer
                .as_ref()
                .is_some_and(|u| g.seats.get(seat).is_some_and(|s| s.owner_id == u.id));
            if !mine {
                *l = serde_json::json!([]);
            }
        }
        *last = serde_json::to_string(&end).expect("JSON");
    }
    let mut body = lines.join("\n");
    body.push('\n');
    Ok(([(header::CONTENT_TYPE, "application/jsonl")], body).into_response())
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SeatLog {
    pub seat: usize,
    pub bot: String,
    pub fault: Option<String>,
    pub logs: Vec<String>,
}

/// The log lines and faults of the signed-in user's seats in a game (403 if they had none).
#[utoipa::path(get, path = "/api/v1/games/{id}/logs", security(("token" = [])),
    params(("id" = i64, Path, description = "The game's id")),
    responses((status = 400, body = ErrorBody), (status = 200, body = Vec<SeatLog>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn logs(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<SeatLog>>> {
    let g = find_game(&state, id).await?;
    if !g.seats.iter().any(|s| s.owner_id == user.id) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("none of game {id}'s bots is yours: only a bot's owner reads its logs"),
        ));
    }
    let logs = seat_logs(&state, &g, Some(&user)).await?;
    Ok(Json(
        g.seats
            .iter()
            .filter(|s| s.owner_id == user.id)
            .map(|s| SeatLog {
                seat: s.seat as usize,
                bot: s.bot.clone(),
                fault: s.fault.clone(),
                logs: logs.get(s.seat as usize).cloned().unwrap_or_default(),
            })
            .collect(),
    ))
}

//! The API's played games: a stored game, its replay (other people's logs and log counts blanked)
//! and the signed-in owner's log lines and faults.

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
            format!(
                "game {id}'s replay was dropped (past the league's retention, or over its cap \
                 on replays); its result stays"
            ),
        ));
    };
    let text = String::from_utf8_lossy(&bytes);
    let body = redact_replay(&text, |seat| {
        viewer
            .as_ref()
            .is_some_and(|u| g.seats.get(seat).is_some_and(|s| s.owner_id == u.id))
    });
    Ok(([(header::CONTENT_TYPE, "application/jsonl")], body).into_response())
}

/// A replay as a viewer may read it: the log lines of the seats that are not `mine` blanked in the
/// end line, and their counts in the turn lines' `logged` set to 0 (a turn keeps `logged` only
/// where a count it shows grew), so that nothing tells when or how much another user's bot logged.
/// Turn lines are edited in their text: the rest of each line stays byte for byte.
pub(in crate::league) fn redact_replay(text: &str, mine: impl Fn(usize) -> bool) -> String {
    const FIELD: &str = ",\"logged\":[";
    let lines: Vec<&str> = text.lines().collect();
    let mut shown: Vec<u64> = Vec::new();
    let mut body = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        if i + 1 == lines.len()
            && let Ok(was) = serde_json::from_str::<serde_json::Value>(line)
            && was.get("logs").is_some_and(|l| l.is_array())
        {
            let mut end = was.clone();
            if let Some(logs) = end.get_mut("logs").and_then(|l| l.as_array_mut()) {
                for (seat, l) in logs.iter_mut().enumerate() {
                    if !mine(seat) {
                        *l = serde_json::json!([]);
                    }
                }
            }
            hide_fault_messages(&mut end, &mine);
            // Unchanged (all the seats are the viewer's), the line stays byte for byte.
            if end == was {
                body.push_str(line);
            } else {
                body.push_str(&serde_json::to_string(&end).expect("JSON"));
            }
        } else if let Some(start) = line.find(FIELD)
            && let Some(len) = line[start + FIELD.len()..].find(']')
        {
            let inner = start + FIELD.len();
            let counts: Vec<u64> = line[inner..inner + len]
                .split(',')
                .enumerate()
                .map(|(seat, n)| {
                    if mine(seat) {
                        n.trim().parse().unwrap_or(0)
                    } else {
                        0
                    }
                })
                .collect();
            body.push_str(&line[..start]);
            if counts.iter().any(|&n| n > 0) && counts != shown {
                let listed: Vec<String> = counts.iter().map(u64::to_string).collect();
                body.push_str(FIELD);
                body.push_str(&listed.join(","));
                body.push(']');
                shown = counts;
            }
            body.push_str(&line[inner + len + 1..]);
        } else {
            body.push_str(line);
        }
        body.push('\n');
    }
    body
}

/// What a fault's message reads to anyone but its seat's owner.
pub(in crate::league) const HIDDEN: &str = "(shown to the bot's owner)";

/// Hides the messages of the faults of the seats that are not `mine` in a replay's end line:
/// `result.fault` (a solo game's seat 0), `result.faults` and `result.ending.faults` (by seat).
fn hide_fault_messages(end: &mut serde_json::Value, mine: impl Fn(usize) -> bool) {
    let Some(result) = end.get_mut("result") else {
        return;
    };
    let hide = |seat: usize, fault: &mut serde_json::Value| {
        if !mine(seat)
            && let Some(message) = fault.get_mut("message")
        {
            *message = HIDDEN.into();
        }
    };
    if let Some(fault) = result.get_mut("fault") {
        hide(0, fault);
    }
    let by_seat = |faults: Option<&mut serde_json::Value>| {
        for (seat, fault) in faults
            .and_then(|f| f.as_array_mut())
            .into_iter()
            .flatten()
            .enumerate()
        {
            hide(seat, fault);
        }
    };
    by_seat(result.get_mut("faults"));
    by_seat(result.get_mut("ending").and_then(|e| e.get_mut("faults")));
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

#[cfg(test)]
mod tests {
    use super::redact_replay;

    /// Another user's seat shows no log lines and no counts; the viewer's own seat keeps both, with
    /// `logged` only where its count grew.
    #[test]
    fn a_replay_hides_the_log_lines_and_counts_of_other_users_seats() {
        let replay = [
            r#"{"type":"header","game":"connect4"}"#,
            r#"{"type":"turn","action":3,"logged":[0,2],"n":1}"#,
            r#"{"type":"turn","action":4,"logged":[1,2],"n":2}"#,
            r#"{"type":"turn","action":3,"logged":[1,3],"n":3}"#,
            r#"{"type":"turn","action":1,"n":4}"#,
            r#"{"logs":[["mine"],["a","b","c"]],"result":{"faults":[{"kind":"error","message":"m0"},{"kind":"error","message":"m1"}],"ending":{"faults":[null,{"kind":"trap","message":"m1"}]}},"type":"end"}"#,
        ]
        .join("\n");
        let lines: Vec<serde_json::Value> = redact_replay(&replay, |seat| seat == 0)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["type"], "header");
        assert!(lines[1].get("logged").is_none(), "{}", lines[1]);
        assert_eq!(lines[2]["logged"], serde_json::json!([1, 0]));
        assert!(lines[3].get("logged").is_none(), "{}", lines[3]);
        assert_eq!(lines[3]["n"], 3);
        assert_eq!(lines[5]["logs"], serde_json::json!([["mine"], []]));
        let result = &lines[5]["result"];
        assert_eq!(result["faults"][0]["message"], "m0");
        assert_eq!(result["faults"][1]["message"], super::HIDDEN);
        assert_eq!(result["faults"][1]["kind"], "error");
        assert_eq!(result["ending"]["faults"][1]["message"], super::HIDDEN);
        assert!(result["ending"]["faults"][0].is_null());
        // Nobody's seat: no counts at all; everybody's: the replay as it was.
        let public = redact_replay(&replay, |_| false);
        assert!(
            !public.contains("logged") && !public.contains("mine") && !public.contains("m0"),
            "{public}"
        );
        let own = redact_replay(&replay, |_| true);
        assert_eq!(own.trim_end(), replay);
    }
}

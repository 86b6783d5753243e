//! The league's web pages, rendered on the server (maud) from the same store and checks as the API:
//! the ladders, a bot's page (its logs to its owner only), a game's page with the replay viewer, an
//! upload form, and an account page to make and revoke tokens. They work without JavaScript except
//! the viewer. Signing in with a token makes a server-side session ([`crate::league::store`]) whose
//! random id is the cookie (HttpOnly, SameSite=Strict, Secure); form posts from another origin are
//! refused.

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use maud::{DOCTYPE, Markup, PreEscaped, html};

mod account;
mod challenge;
mod ladder;
mod playground;
mod signup;

pub(super) use account::FORM_BYTES;
use account::{
    account, add_token, revoke_token, signin, signin_form, signout, upload, upload_form,
};

use super::rating::Model;
use super::server::identity::{Credential, Identity};
use super::server::{ApiError, AppState, Path, redact_replay, seat_logs, summary};
use super::store::{StoredGame, User};
use crate::view::frames::{Link, Site};

/// The pages' routes (outside `/api/`).
pub fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/", get(index))
        .route("/ladder/{game}", get(ladder::page))
        .route("/bot/{name}", get(bot))
        .route("/bot/{name}/challenge", post(challenge::post))
        .route("/game/{id}", get(game))
        .route("/signin", get(signin_form).post(signin))
        .route("/signup", get(signup::signup_form).post(signup::signup))
        .route("/signout", post(signout))
        .route("/upload", get(upload_form).post(upload))
        .route("/play", get(playground::page))
        .route("/account", get(account))
        .route("/account/tokens", post(add_token))
        .route("/account/tokens/{id}/revoke", post(revoke_token))
        .layer(axum::middleware::from_fn(same_origin))
}

/// Refuses a form post whose `Origin` is not this server's (a browser always sends one with a
/// post; a client without one, such as curl, is no cross-site request).
async fn same_origin(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if request.method() == axum::http::Method::POST
        && let Some(origin) = request.headers().get(header::ORIGIN)
        && !origin_is_host(request.headers(), origin.as_bytes())
    {
        return error_page(
            None,
            StatusCode::FORBIDDEN,
            "this form was posted from another site",
        );
    }
    next.run(request).await
}

/// Whether `origin` (`scheme://host[:port]`) names the host the request was sent to.
fn origin_is_host(headers: &HeaderMap, origin: &[u8]) -> bool {
    let Some(host) = headers.get(header::HOST).map(|h| h.as_bytes()) else {
        return false;
    };
    let authority = origin
        .strip_prefix(b"https://")
        .or_else(|| origin.strip_prefix(b"http://"));
    authority.is_some_and(|a| a.eq_ignore_ascii_case(host))
}

/// The signed-in user of a page, if any: the user of the request's session cookie (a stale
/// cookie is no user, and is cleared by [`crate::league::server::identity::identify`]).
#[derive(Debug)]
pub struct Viewer(pub Option<User>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Viewer, Response> {
        let identity = parts.extensions.get::<Identity>();
        Ok(Viewer(
            identity.and_then(|i| i.user_by(Credential::Session).cloned()),
        ))
    }
}

const CSS: &str = r#"
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: #1b1b1b; background: #fafafa; }
nav { display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; align-items: center; padding: 0.6rem 0.9rem; background: #1f3a5f; }
nav a, nav button { color: #fff; text-decoration: none; background: none; border: 0; font: inherit; cursor: pointer; padding: 0; }
nav .me { margin-left: auto; color: #cfe0f5; }
main { padding: 0.8rem; max-width: 70rem; margin: 0 auto; }
h1 { font-size: 1.35rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { padding: 0.3rem 0.6rem; border-bottom: 1px solid #ddd; text-align: left; white-space: nowrap; }
td.n { text-align: right; }
.error { border: 1px solid #c0392b; background: #fdecea; padding: 0.6rem; border-radius: 4px; }
.ok { border: 1px solid #1e8449; background: #e9f7ef; padding: 0.6rem; border-radius: 4px; word-break: break-all; }
form.stack { display: grid; gap: 0.6rem; max-width: 28rem; }
input, select, button.primary { font: inherit; padding: 0.4rem; }
pre.log { background: #fff; border: 1px solid #ddd; padding: 0.4rem; max-height: 12rem; overflow: auto; white-space: pre-wrap; }
.muted { color: #666; }
.chart svg { max-width: 100%; height: auto; }
"#;

fn layout(title: &str, user: Option<&User>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · botbox league" }
                link rel="icon" href="data:,";
                style { (PreEscaped(CSS)) }
            }
            body {
                nav {
                    a href="/" { "Ladders" }
                    a href="/upload" { "Upload" }
                    a href="/play" { "Playground" }
                    @if let Some(u) = user {
                        a href="/account" { "Account" }
                        span.me { "signed in as " strong { (u.name) } }
                        form method="post" action="/signout" { button type="submit" { "Sign out" } }
                    } @else {
                        a.me href="/signin" { "Sign in" }
                    }
                }
                main { (body) }
            }
        }
    }
}

fn error_page(user: Option<&User>, status: StatusCode, message: &str) -> Response {
    let body = html! {
        h1 { (status.canonical_reason().unwrap_or("Error")) }
        p.error { (message) }
    };
    (status, Html(layout("Error", user, body).into_string())).into_response()
}

/// The answer to a path the league has no page for.
pub(super) fn not_found_page() -> Response {
    error_page(
        None,
        StatusCode::NOT_FOUND,
        "there is no page here: the ladders are at /",
    )
}

/// The answer to an upload form over its cap (413).
pub(super) fn too_large_page() -> Response {
    error_page(
        None,
        StatusCode::PAYLOAD_TOO_LARGE,
        &super::games::too_large(),
    )
}

fn from_api(user: Option<&User>, e: ApiError) -> Response {
    error_page(user, e.status, &e.message)
}

async fn index(State(state): State<AppState>, Viewer(user): Viewer) -> Response {
    let mut rows = Vec::new();
    for game in super::games::names() {
        let seats = super::games::seats(game).unwrap_or(2);
        let bots = state.store.ladder(game).await.map(|l| l.len()).unwrap_or(0);
        let games = state.store.result_count(Some(game)).await.unwrap_or(0);
        rows.push((game, seats, bots, games));
    }
    let body = html! {
        h1 { "Ladders" }
        div.scroll { table {
            thead { tr { th { "game" } th { "seats" } th { "bots" } th { "games" } th { "rating" } } }
            tbody { @for (game, seats, bots, games) in &rows {
                tr {
                    td { a href={ "/ladder/" (game) } { (game) } }
                    td.n { (seats) } td.n { (bots) } td.n { (games) }
                    td { (Model::for_seats(*seats).describe()) }
                }
            } }
        } }
        p.muted { "The API behind these pages: " a href="/api/v1/openapi.json" { "/api/v1/openapi.json" } }
    };
    Html(layout("Ladders", user.as_ref(), body).into_string()).into_response()
}

async fn bot(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    Path(name): Path<String>,
) -> Response {
    let bot = match state.store.bot(&name).await {
        Ok(Some(b)) => b,
        Ok(None) => {
            return error_page(
                user.as_ref(),
                StatusCode::NOT_FOUND,
                &format!("no bot called {name}"),
            );
        }
        Err(e) => return from_api(user.as_ref(), e.into()),
    };
    let owner = user.as_ref().is_some_and(|u| u.id == bot.owner_id);
    let (versions, results) = match (
        state.store.versions(bot.id).await,
        state.store.results(Some(bot.id), false, 50).await,
    ) {
        (Ok(v), Ok(r)) => (v, r),
        (Err(e), _) | (_, Err(e)) => return from_api(user.as_ref(), e.into()),
    };
    // The table shows 20 games; the chart uses all 50 (their ratings are in the rows already).
    let mut games = Vec::new();
    for g in results.iter().take(20) {
        let logs = if owner {
            seat_logs(&state, g, user.as_ref())
                .await
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        games.push((summary(g, user.as_ref()), logs));
    }
    // The rating after each of its recent games, oldest first, per version.
    let mut by_version: std::collections::BTreeMap<i64, Vec<(f64, f64)>> = Default::default();
    for (i, g) in results.iter().rev().enumerate() {
        for s in g.seats.iter().filter(|s| s.bot == bot.name) {
            by_version
                .entry(s.version)
                .or_default()
                .push((i as f64 + 1.0, s.rating_after));
        }
    }
    let series: Vec<(String, Vec<(f64, f64)>)> = by_version
        .into_iter()
        .map(|(v, points)| (format!("v{v}"), points))
        .collect();
    let chart = if series.iter().any(|(_, p)| p.len() > 1) {
        crate::view::chart::line_chart(
            "rating after each recent game (what the ladder sorts by)",
            "recent games",
            "rating",
            &series,
            None,
        )
        .ok()
    } else {
        None
    };
    let challenges = if owner {
        Some(challenge::section(&state, &bot).await)
    } else {
        None
    };
    let solo = super::games::seats(&bot.game).is_ok_and(|n| n == 1);
    let body = html! {
        h1 { (bot.name) }
        p { (bot.game) " bot of " strong { (bot.owner) }
            @if bot.retired.is_some() { " · retired" } }
        h2 { "Versions" }
        div.scroll { table id="versions" {
            thead { tr { th { "version" } th { "kind" } th { "sha256" }
                th { @if solo { "mean score" } @else { "rating" } } th { "±" } th { "games" }
                // A game played alone has no wins, draws or losses.
                @if !solo { th { "W-D-L" } } th { "faults" } } }
            tbody { @for v in &versions { tr {
                td { "v" (v.number) @if v.active && bot.retired.is_none() { " (plays)" } }
                td { (v.kind) }
                td { code { (v.sha256[..12]) } }
                td.n { (format!("{:.1}", v.rating.value)) }
                td.n { (format!("{:.1}", v.rating.uncertainty)) }
                td.n { (v.games) }
                @if !solo { td { (v.wins) "-" (v.draws) "-" (v.losses) } }
                td.n { (v.faults) }
            } } }
        } }
        @if let Some(svg) = &chart { div.chart { (PreEscaped(svg)) } }
        h2 { "Recent games" }
        @if games.is_empty() { p.muted { "No games yet." } }
        div.scroll { table id="games" {
            thead { tr { th { "game" } th { "variant" } th { "players" } th { "winner" } th { "why" } th { "faults" } } }
            tbody { @for (g, _) in &games { tr {
                td { a href={ "/game/" (g.id) } { (g.id) } }
                td { (g.variant) }
                td { (g.players.join(", ")) }
                td { (g.winner.clone().unwrap_or_else(|| "-".into())) }
                td { (g.reason) }
                td { (g.faults.iter().flatten().cloned().collect::<Vec<_>>().join("; ")) }
            } } }
        } }
        @if let Some(section) = challenges { (section) }
        @if owner {
            h2 { "Your bot's logs" }
            @for (g, logs) in &games {
                @for (seat, lines) in logs.iter().enumerate() {
                    @if !lines.is_empty() {
                        p { "game " a href={ "/game/" (g.id) } { (g.id) } ", " (g.players[seat]) }
                        pre.log { (lines.join("\n")) }
                    }
                }
            }
        }
    };
    Html(layout(&bot.name, user.as_ref(), body).into_string()).into_response()
}

/// A game's page: the replay viewer, with the viewer's own seats' logs only.
async fn game(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    Path(id): Path<i64>,
) -> Response {
    let stored = match state.store.result(id).await {
        Ok(Some(g)) => g,
        Ok(None) => {
            return error_page(
                user.as_ref(),
                StatusCode::NOT_FOUND,
                &format!("no game {id}"),
            );
        }
        Err(e) => return from_api(user.as_ref(), e.into()),
    };
    let bytes = match state.store.replay(id).await {
        Ok(Some(b)) => b,
        Ok(None) => {
            return error_page(
                user.as_ref(),
                StatusCode::GONE,
                "this game's replay is past the league's retention",
            );
        }
        Err(e) => return from_api(user.as_ref(), e.into()),
    };
    // The viewer is drawn from the replay as this user may read it through the API: other
    // people's log lines, log counts and fault messages are not in the page's data at all.
    let text = redact_replay(&String::from_utf8_lossy(&bytes), |seat| {
        user.as_ref()
            .is_some_and(|u| stored.seats.get(seat).is_some_and(|s| s.owner_id == u.id))
    });
    // What a seat saw at each move only for its owner: an observation holds what only that seat
    // may see (a BS hand). The command to decide such a move again fetches the replay first.
    let owned: Vec<bool> = stored
        .seats
        .iter()
        .map(|s| user.as_ref().is_some_and(|u| u.id == s.owner_id))
        .collect();
    let viewer = tokio::task::spawn_blocking(move || {
        let file = crate::replay::parse(&text).map_err(|e| e.to_string())?;
        let mut viewer = crate::view::frames::frames(&file).map_err(|e| format!("{e:#}"))?;
        if owned.contains(&true) {
            let observed = crate::view::frames::Observed {
                replay: Some(format!("league-{id}.jsonl")),
                fetch: Some(format!("botbox league replay {id}")),
            };
            let visible = |s: usize| owned.get(s).copied().unwrap_or(false);
            crate::view::frames::observe(&mut viewer, &file, &visible, observed)
                .map_err(|e| format!("{e:#}"))?;
        }
        Ok::<_, String>(viewer)
    })
    .await;
    let mut viewer = match viewer {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            let message = format!("the stored replay cannot be drawn: {e}");
            return error_page(user.as_ref(), StatusCode::INTERNAL_SERVER_ERROR, &message);
        }
        Err(e) => {
            return error_page(
                user.as_ref(),
                StatusCode::INTERNAL_SERVER_ERROR,
                &e.to_string(),
            );
        }
    };
    viewer.title = format!("league game {id}: {}", stored.record.players.join(" vs "));
    let own = |owner: i64| user.as_ref().is_some_and(|u| u.id == owner);
    viewer.logs_hidden = stored.seats.iter().map(|s| !own(s.owner_id)).collect();
    viewer.site = Some(site_links(user.as_ref(), &stored));
    Html(crate::view::page::html(Some(&viewer))).into_response()
}

/// The league around a game's viewer: the navigation bar every page has, each seat's bot (by bot,
/// version and owner) linked to its page, and the game's ladder.
fn site_links(user: Option<&User>, stored: &StoredGame) -> Site {
    let link = |text: String, href: String| Link { text, href };
    let mut nav = vec![
        link("Ladders".into(), "/".into()),
        link("Upload".into(), "/upload".into()),
        link("Playground".into(), "/play".into()),
    ];
    match user {
        Some(u) => {
            nav.push(link("Account".into(), "/account".into()));
            nav.push(link(format!("signed in as {}", u.name), "/account".into()));
        }
        None => nav.push(link("Sign in".into(), "/signin".into())),
    }
    let players = stored
        .seats
        .iter()
        .map(|s| {
            link(
                format!("{} v{} by {}", s.bot, s.version, s.owner),
                format!("/bot/{}", s.bot),
            )
        })
        .collect();
    let around = vec![link(
        format!("the {} ladder", stored.game),
        format!("/ladder/{}", stored.game),
    )];
    Site {
        nav,
        players,
        around,
    }
}

//! The account and upload pages: signing in (a session whose id is an HttpOnly, SameSite=Strict,
//! Secure cookie) and out, the upload form, and the account page that makes and revokes tokens.

use axum::Extension;
use axum::extract::multipart::MultipartError;
use axum::extract::{Form, Multipart, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{PreEscaped, html};
use serde::Deserialize;

use super::{Viewer, error_page, from_api, layout};
use crate::league::games::MAX_WASM_BYTES;
use crate::league::server::identity::{ClientAddress, Strikes, cookie, session_cookie};
use crate::league::server::{AppState, Path, UploadQuery, upload_version};
use crate::league::store::{TOKEN_PREFIX, User, well_formed};

/// The largest upload form: the largest module and room for the other fields.
pub(in crate::league) const FORM_BYTES: usize = MAX_WASM_BYTES + (64 << 10);

/// How long a web session lasts.
const SESSION_SECONDS: i64 = 7 * 86_400;

pub(super) async fn signin_form(Viewer(user): Viewer) -> Response {
    let body = html! {
        h1 { "Sign in" }
        form.stack method="post" action="/signin" {
            label { "Token " input type="password" name="token" autocomplete="off" required; }
            button.primary type="submit" { "Sign in" }
        }
        p.muted { "A token comes from signing up (the invite link you were sent), from the league's admin (" code { "botbox league user add" } ") or from your account page." }
    };
    Html(layout("Sign in", user.as_ref(), body).into_string()).into_response()
}

#[derive(Debug, Deserialize)]
pub(super) struct SignIn {
    token: String,
}

/// Signs in with a token: a new session, its id in the cookie. A token that does not check out is
/// a strike against the address, as in the API.
pub(super) async fn signin(
    State(state): State<AppState>,
    Extension(ClientAddress(ip)): Extension<ClientAddress>,
    Form(form): Form<SignIn>,
) -> Response {
    let token = form.token.trim();
    if !state
        .strikes
        .may_try(ip, &crate::runtime::source_hash(token.as_bytes()))
    {
        return Strikes::refusal();
    }
    let session = if well_formed(token, TOKEN_PREFIX) {
        state.store.add_session(token, SESSION_SECONDS * 1000).await
    } else {
        Ok(None)
    };
    match session {
        Ok(Some((id, _))) => {
            let mut response = Redirect::to("/account").into_response();
            response.headers_mut().insert(
                header::SET_COOKIE,
                cookie(&id, SESSION_SECONDS, state.secure_cookies),
            );
            response
        }
        Ok(None) => {
            state.strikes.strike(ip);
            error_page(
                None,
                StatusCode::UNAUTHORIZED,
                "that token is not valid (revoked, or never issued)",
            )
        }
        Err(e) => from_api(None, e.into()),
    }
}

/// Ends the session on the server and clears the cookie.
pub(super) async fn signout(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(session) = session_cookie(&headers)
        && let Err(e) = state.store.end_session(session).await
    {
        return from_api(None, e.into());
    }
    let mut response = Redirect::to("/").into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie("", 0, state.secure_cookies));
    response
}

/// The upload page's script: takes the bot the playground left in this tab's session storage.
const FROM_PLAYGROUND: &str = r#"
(function () {
  const saved = sessionStorage.getItem("playground-bot");
  if (!saved) return;
  sessionStorage.removeItem("playground-bot");
  let bot;
  try { bot = JSON.parse(saved); } catch (e) { return; }
  const game = document.querySelector('select[name="game"]');
  if ([...game.options].some((o) => o.value === bot.game)) game.value = bot.game;
  const files = new DataTransfer();
  files.items.add(new File([bot.source], bot.game + "_bot.lua", { type: "text/plain" }));
  document.querySelector('input[name="file"]').files = files.files;
  document.getElementById("from-playground").hidden = false;
})();
"#;

pub(super) async fn upload_form(Viewer(user): Viewer) -> Response {
    if user.is_none() {
        return Redirect::to("/signin").into_response();
    }
    let body = html! {
        h1 { "Upload a bot" }
        form.stack method="post" action="/upload" enctype="multipart/form-data" {
            label { "Name " input name="name" required pattern="[A-Za-z0-9][A-Za-z0-9_-]{0,39}"; }
            label { "Game " select name="game" {
                @for g in crate::league::games::names() { option value=(g) { (g) } }
            } }
            label { "File (.wasm or .lua) " input type="file" name="file" required; }
            button.primary type="submit" { "Upload" }
        }
        p.muted { "The league compiles it and plays a smoke game against a bundled bot before it goes on the ladder. The same name again uploads a new version." }
        p.muted id="from-playground" hidden { "The bot from the playground is in the form: give it a name." }
        // A bot the playground hands over: its game chosen and its source as the form's file.
        script { (PreEscaped(FROM_PLAYGROUND)) }
    };
    Html(layout("Upload", user.as_ref(), body).into_string()).into_response()
}

pub(super) async fn upload(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    multipart: Multipart,
) -> Response {
    let Some(user) = user else {
        return error_page(None, StatusCode::UNAUTHORIZED, "sign in to upload");
    };
    let (name, query, bytes) = match read_form(multipart).await {
        Ok(form) => form,
        Err(e) => return error_page(Some(&user), e.status(), &e.body_text()),
    };
    let Some(bytes) = bytes else {
        return error_page(
            Some(&user),
            StatusCode::BAD_REQUEST,
            "choose a file to upload",
        );
    };
    if bytes.len() > MAX_WASM_BYTES {
        return error_page(
            Some(&user),
            StatusCode::PAYLOAD_TOO_LARGE,
            &crate::league::games::too_large(),
        );
    }
    match upload_version(&state, &user, name.trim(), query, bytes).await {
        Ok((_, up)) => Redirect::to(&format!("/bot/{}", up.version.bot)).into_response(),
        Err(e) => from_api(Some(&user), e),
    }
}

/// The upload form's fields: the bot's name, the game and file name, the file's bytes.
async fn read_form(
    mut multipart: Multipart,
) -> Result<(String, UploadQuery, Option<axum::body::Bytes>), MultipartError> {
    let (mut name, mut bytes) = (String::new(), None);
    let mut query = UploadQuery {
        game: None,
        file: None,
    };
    while let Some(field) = multipart.next_field().await? {
        match field.name() {
            Some("name") => name = field.text().await?,
            Some("game") => query.game = Some(field.text().await?),
            Some("file") => {
                query.file = field.file_name().map(str::to_string);
                bytes = Some(field.bytes().await?);
            }
            _ => {}
        }
    }
    Ok((name, query, bytes))
}

pub(super) async fn account(State(state): State<AppState>, Viewer(user): Viewer) -> Response {
    let Some(user) = user else {
        return Redirect::to("/signin").into_response();
    };
    account_page(&state, &user, None).await
}

async fn account_page(state: &AppState, user: &User, new_token: Option<String>) -> Response {
    let tokens = match state.store.tokens(user.id).await {
        Ok(t) => t,
        Err(e) => return from_api(Some(user), e.into()),
    };
    let body = html! {
        h1 { "Your account: " (user.name) }
        @if let Some(t) = &new_token {
            p.ok { "Your new token, shown this once: " code id="new-token" { (t) } }
        }
        h2 { "Tokens" }
        div.scroll { table id="tokens" {
            thead { tr { th { "id" } th { "label" } th { "made" } th { "last used" } th { "state" } th {} } }
            tbody { @for t in &tokens { tr {
                td.n { (t.id) } td { (t.label) }
                td { (utc(t.created)) }
                td { @match t.last_used { Some(ms) => (utc(ms)), None => "never" } }
                td { @if let Some(ms) = t.revoked { "revoked " (utc(ms)) } @else { "in use" } }
                td { @if t.revoked.is_none() {
                    form method="post" action={ "/account/tokens/" (t.id) "/revoke" } {
                        button type="submit" { "Revoke" }
                    }
                } }
            } } }
        } }
        form.stack method="post" action="/account/tokens" {
            label { "New token's label " input name="label" required maxlength="60"; }
            button.primary type="submit" { "Make a token" }
        }
    };
    Html(layout("Account", Some(user), body).into_string()).into_response()
}

#[derive(Debug, Deserialize)]
pub(super) struct NewTokenForm {
    label: String,
}

pub(super) async fn add_token(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    Form(form): Form<NewTokenForm>,
) -> Response {
    let Some(user) = user else {
        return Redirect::to("/signin").into_response();
    };
    let label: String = form
        .label
        .chars()
        .take(60)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if label.trim().is_empty() {
        return error_page(
            Some(&user),
            StatusCode::BAD_REQUEST,
            "give the token a label",
        );
    }
    match state.store.add_token(user.id, label.trim()).await {
        Ok((_, token)) => account_page(&state, &user, Some(token)).await,
        Err(e) => from_api(Some(&user), e.into()),
    }
}

pub(super) async fn revoke_token(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    Path(id): Path<i64>,
) -> Response {
    let Some(user) = user else {
        return Redirect::to("/signin").into_response();
    };
    match state.store.revoke_token(user.id, id).await {
        Ok(true) => Redirect::to("/account").into_response(),
        Ok(false) => error_page(
            Some(&user),
            StatusCode::NOT_FOUND,
            &format!("you have no token {id} in use"),
        ),
        Err(e) => from_api(Some(&user), e.into()),
    }
}

/// A moment in milliseconds since the epoch as a UTC date and time to the minute,
/// `2026-12-05 21:08 UTC`.
fn utc(ms: i64) -> String {
    let nanos = i128::from(ms) * 1_000_000;
    match time::OffsetDateTime::from_unix_timestamp_nanos(nanos) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02} {:02}:{:02} UTC",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute()
        ),
        Err(_) => "?".into(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn moments_show_as_utc_to_the_minute() {
        assert_eq!(super::utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::utc(1_796_504_880_000), "2026-12-05 21:08 UTC");
    }
}

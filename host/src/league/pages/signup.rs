//! The sign-up page: an invite link (`/signup?invite=CODE`) opens a form for a name; signing up
//! shows the new token once and signs the new user in.

use axum::Extension;
use axum::extract::{Form, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use super::{Viewer, error_page, from_api, layout};
use crate::league::server::AppState;
use crate::league::server::identity::{ClientAddress, cookie};
use crate::league::server::signup::{refusal, sign_up};

/// How long the session made at sign-up lasts, as a sign-in's.
const SESSION_SECONDS: i64 = 7 * 86_400;

#[derive(Debug, Deserialize)]
pub(super) struct InviteQuery {
    #[serde(default)]
    invite: Option<String>,
}

pub(super) async fn signup_form(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    Query(query): Query<InviteQuery>,
) -> Response {
    let invite = query.invite.unwrap_or_default();
    let code = Some(invite.trim()).filter(|code| !code.is_empty());
    if let Some(refused) = refusal(state.signup, code) {
        return error_page(user.as_ref(), StatusCode::FORBIDDEN, refused);
    }
    let body = html! {
        h1 { "Sign up" }
        form.stack method="post" action="/signup" {
            label { "Name " input name="name" required autocomplete="username"
                pattern="[A-Za-z0-9][A-Za-z0-9_-]{0,39}"; }
            input type="hidden" name="invite" value=(invite);
            button.primary type="submit" { "Sign up" }
        }
        p.muted { "Your name is shown beside your bots. You get a token for the command line and the API, shown once; this browser is signed in." }
    };
    Html(layout("Sign up", user.as_ref(), body).into_string()).into_response()
}

#[derive(Debug, Deserialize)]
pub(super) struct SignUpForm {
    name: String,
    #[serde(default)]
    invite: String,
}

pub(super) async fn signup(
    State(state): State<AppState>,
    Extension(ClientAddress(ip)): Extension<ClientAddress>,
    Form(form): Form<SignUpForm>,
) -> Response {
    let (user, token) = match sign_up(&state, ip, form.name.trim(), Some(&form.invite)).await {
        Ok(signed_up) => signed_up,
        Err(e) => return from_api(None, e),
    };
    let session = match state
        .store
        .add_session(&token, SESSION_SECONDS * 1000)
        .await
    {
        Ok(Some((id, _))) => id,
        Ok(None) => {
            return error_page(None, StatusCode::INTERNAL_SERVER_ERROR, "the new token");
        }
        Err(e) => return from_api(None, e.into()),
    };
    let body = html! {
        h1 { "Welcome, " (user.name) }
        p { "Your token, for " code { "botbox league" } " and the API (" code { "export BOTBOX_TOKEN=..." } "). It is shown this once: keep it." }
        p.ok { code id="token" { (token) } }
        p { a href="/upload" { "Upload your first bot" } " or read the " a href="/" { "ladders" } "." }
    };
    let mut response = (
        StatusCode::CREATED,
        Html(layout("Signed up", Some(&user), body).into_string()),
    )
        .into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        cookie(&session, SESSION_SECONDS, state.secure_cookies),
    );
    response
}

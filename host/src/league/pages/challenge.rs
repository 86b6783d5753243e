//! The owner's part of a bot page about challenges: the form that asks for unrated games against
//! another bot of the ladder, and how the challenges went, with links to their games.

use axum::extract::{Form, State};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

use super::{Viewer, from_api};
use crate::league::server::challenges::{NewChallenge, create};
use crate::league::server::{AppState, Path};
use crate::league::store::{Bot, CHALLENGE_GAMES_PER_HOUR};

/// The challenges section of `bot`'s page, for its owner.
pub(super) async fn section(state: &AppState, bot: &Bot) -> Markup {
    let challenges = state.store.challenges(bot.id).await.unwrap_or_default();
    let opponents: Vec<String> = state
        .store
        .ladder(&bot.game)
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|v| v.bot)
        .filter(|name| *name != bot.name)
        .collect();
    let variants = crate::league::games::variant_names(&bot.game).unwrap_or_default();
    html! {
        h2 { "Challenges" }
        p.muted { "Unrated games against a bot of your choice, played before the ladder's games; at most "
            (CHALLENGE_GAMES_PER_HOUR) " an hour." }
        @if opponents.is_empty() || bot.retired.is_some() {
            p.muted { "No other bot on the ladder to challenge." }
        } @else {
            form.stack method="post" action={ "/bot/" (bot.name) "/challenge" } {
                label { "Opponent " select name="opponent" {
                    @for o in &opponents { option value=(o) { (o) } }
                } }
                label { "Games " input type="number" name="games" value="10" min="1"
                    max=(CHALLENGE_GAMES_PER_HOUR); }
                label { "Variant " select name="variant" {
                    @for (i, v) in variants.iter().enumerate() { option value=(i) { (v) } }
                } }
                button.primary type="submit" { "Challenge" }
            }
        }
        @if !challenges.is_empty() {
            div.scroll { table id="challenges" {
                thead { tr { th { "challenge" } th { "opponent" } th { "variant" } th { "played" } th { "W-D-L" } th { "games" } } }
                tbody { @for c in &challenges { tr {
                    td { (c.id) }
                    td { a href={ "/bot/" (c.opponent) } { (c.opponent) } }
                    td { (variants.get(c.variant).cloned().unwrap_or_default()) }
                    td.n { (c.played) " of " (c.games) }
                    td { (c.wins) "-" (c.draws) "-" (c.losses) }
                    td { @for id in &c.game_ids { a href={ "/game/" (id) } { (id) } " " } }
                } } }
            } }
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct ChallengeForm {
    opponent: String,
    games: i64,
    #[serde(default)]
    variant: usize,
}

/// The form's post: queues the challenge and goes back to the bot's page.
pub(super) async fn post(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    Path(name): Path<String>,
    Form(form): Form<ChallengeForm>,
) -> Response {
    let Some(user) = user else {
        return Redirect::to("/signin").into_response();
    };
    let new = NewChallenge {
        opponent: form.opponent,
        games: form.games,
        variant: form.variant,
    };
    match create(&state, &user, &name, &new).await {
        Ok(_) => Redirect::to(&format!("/bot/{name}#challenges")).into_response(),
        Err(e) => from_api(Some(&user), e),
    }
}

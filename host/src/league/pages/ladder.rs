//! A game's ladder page: its bots by rating (on a solo ladder by mean score, with the game's own
//! benchmark beside it), and its ladder on each variant.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};
use serde::Deserialize;

use super::{Viewer, error_page, from_api, layout};
use crate::league::rating::Model;
use crate::league::server::{AppState, Path, Query, VariantLadder, row, variant_ladders_of};
use crate::league::store::{User, Version};

#[derive(Debug, Deserialize)]
pub(super) struct LadderQuery {
    /// Show the bots' records on this variant instead of the ratings.
    variant: Option<String>,
}

pub(super) async fn page(
    State(state): State<AppState>,
    Viewer(user): Viewer,
    Path(game): Path<String>,
    Query(query): Query<LadderQuery>,
) -> Response {
    if crate::games::registry::find(&game).is_err() {
        return error_page(
            user.as_ref(),
            StatusCode::NOT_FOUND,
            &format!("no game {game}"),
        );
    }
    let variants = match variant_ladders_of(&state, &game).await {
        Ok(v) => v,
        Err(e) => return from_api(user.as_ref(), e),
    };
    if let Some(name) = &query.variant {
        let Some(variant) = variants.iter().find(|v| &v.variant == name) else {
            let known: Vec<&str> = variants.iter().map(|v| v.variant.as_str()).collect();
            return error_page(
                user.as_ref(),
                StatusCode::NOT_FOUND,
                &format!(
                    "{game} has no variant {name:?}; its variants are {}",
                    known.join(", ")
                ),
            );
        };
        return variant_page(&game, &variants, variant, user.as_ref());
    }
    let versions = match state.store.ladder(&game).await {
        Ok(v) => v,
        Err(e) => return from_api(user.as_ref(), e.into()),
    };
    let model = Model::for_seats(crate::league::games::seats(&game).unwrap_or(2));
    let solo = model == Model::Points;
    let course = match solo {
        true => match benchmark(&state, &game, &versions).await {
            Ok(c) => c,
            Err(e) => return from_api(user.as_ref(), e.into()),
        },
        false => BTreeMap::new(),
    };
    let tiles: Vec<String> = course
        .values()
        .next()
        .and_then(|e| e["reached"].as_array())
        .map(|r| r.iter().map(|m| m["tile"].to_string()).collect())
        .unwrap_or_default();
    let body = html! {
        h1 { (game) " ladder" }
        p.muted { (model.describe()) }
        (variant_links(&game, &variants, None))
        @if versions.is_empty() { p { "No bots yet. " a href="/upload" { "Upload one." } } }
        div.scroll { table id="ladder" {
            thead { tr {
                th { "#" } th { "bot" } th { "owner" } th { "version" }
                th { @if solo { "mean score" } @else { "rating" } } th { "±" }
                // A game played alone has no wins, draws or losses.
                th { "games" } @if !solo { th { "W-D-L" } } th { "faults" }
                // A game with a benchmark of its own (2048): its points over each version's
                // newest games and the share of them reaching each milestone tile.
                @if !tiles.is_empty() {
                    th title="the sum over its newest 100 games of largest tile / 2048" { "points / 100" }
                    @for t in &tiles { th { (t) } }
                }
            } }
            tbody { @for (i, v) in versions.iter().enumerate() {
                @let r = row(i + 1, v);
                tr {
                    td.n { (r.rank) }
                    td { a href={ "/bot/" (r.bot) } { (r.bot) } }
                    td { (r.owner) }
                    td { "v" (r.version) " " (r.kind) }
                    td.n { (format!("{:.1}", r.rating)) }
                    td.n { (format!("{:.1}", r.uncertainty)) }
                    td.n { (r.games) }
                    @if !solo { td { (r.wins) "-" (r.draws) "-" (r.losses) } }
                    td.n { (r.faults) }
                    @if !tiles.is_empty() {
                        @match course.get(&v.id) {
                            Some(e) => {
                                td.n { (format!("{:.2}", e["points"].as_f64().unwrap_or(0.0))) }
                                @for m in e["reached"].as_array().into_iter().flatten() {
                                    td.n { (format!("{:.0}%", 100.0 * m["share"].as_f64().unwrap_or(0.0))) }
                                }
                            }
                            None => { td {} @for _ in &tiles { td {} } }
                        }
                    }
                }
            } }
        } }
        @if !tiles.is_empty() {
            p.muted { "Ranked by mean score. Points: the benchmark's, the sum over a version's newest 100 games of largest tile / 2048 (100 at most); each tile, the share of those games that reached it." }
        }
    };
    Html(layout(&format!("{game} ladder"), user.as_ref(), body).into_string()).into_response()
}

/// Games of each version a solo ladder's benchmark is computed over (the course's length).
const BENCHMARK_GAMES: usize = 100;

/// The game's own benchmark of each version on a solo ladder, by version id (2048: points and
/// milestone shares over its newest games); none for a game without one.
async fn benchmark(
    state: &AppState,
    game: &str,
    versions: &[Version],
) -> Result<BTreeMap<i64, serde_json::Value>, crate::league::store::StoreError> {
    let Ok(rules) = crate::games::registry::find(game) else {
        return Ok(BTreeMap::new());
    };
    let setup = crate::tournament::setup::of(rules);
    // One read of the newest games, enough for every version's course.
    let limit = (versions.len() * BENCHMARK_GAMES).clamp(1, 50_000) as i64;
    let mut by_version: BTreeMap<i64, Vec<crate::tournament::runner::GameRecord>> = BTreeMap::new();
    for (version, record) in state.store.solo_records(game, limit).await? {
        let games = by_version.entry(version).or_default();
        if games.len() < BENCHMARK_GAMES {
            games.push(record);
        }
    }
    let mut out = BTreeMap::new();
    for (version, records) in by_version {
        let Some(name) = records.first().and_then(|r| r.players.first()).cloned() else {
            continue;
        };
        if let Some(figures) = setup.benchmark(&[name.as_str()], &records)
            && let Some(entry) = figures["entries"].get(0)
        {
            out.insert(version, entry.clone());
        }
    }
    Ok(out)
}

/// Links between a game's rating ladder and its ladder on each variant (none for a game with one
/// variant).
fn variant_links(game: &str, variants: &[VariantLadder], current: Option<&str>) -> Markup {
    let link = |label: &str, href: String, here: bool| {
        html! { @if here { strong { (label) } } @else { a href=(href) { (label) } } }
    };
    html! {
        @if variants.len() > 1 {
            p.variants id="variants" {
                "By variant: "
                (link("all (rating)", format!("/ladder/{game}"), current.is_none()))
                @for v in variants {
                    " · "
                    (link(&v.variant, format!("/ladder/{game}?variant={}", crate::league::query_value(&v.variant)), current == Some(v.variant.as_str())))
                    " "
                    span.muted { "(" (v.rows.iter().map(|r| r.games).sum::<i64>()) ")" }
                }
            }
        }
    }
}

/// A game's ladder on one variant: each playing version's record there, best score first.
fn variant_page(
    game: &str,
    variants: &[VariantLadder],
    variant: &VariantLadder,
    user: Option<&User>,
) -> Response {
    let body = html! {
        h1 { (game) " ladder on " (variant.variant) }
        p.muted { "Each playing version's games on this variant, by score (a win 1, a draw ½). Ratings are per game: see the rating ladder." }
        (variant_links(game, variants, Some(&variant.variant)))
        @if variant.rows.is_empty() { p { "No games on this variant yet." } }
        @else {
            div.scroll { table id="variant-ladder" {
                thead { tr {
                    th { "#" } th { "bot" } th { "owner" } th { "version" } th { "games" }
                    th { "W-D-L" } th { "score" } th { "faults" }
                } }
                tbody { @for (i, r) in variant.rows.iter().enumerate() {
                    tr {
                        td.n { (i + 1) }
                        td { a href={ "/bot/" (r.bot) } { (r.bot) } }
                        td { (r.owner) }
                        td { "v" (r.version) " " (r.kind) }
                        td.n { (r.games) }
                        td { (r.wins) "-" (r.draws) "-" (r.losses) }
                        td.n { (format!("{:.1}%", 100.0 * r.score())) }
                        td.n { (r.faults) }
                    }
                } }
            } }
        }
    };
    let title = format!("{game} ladder on {}", variant.variant);
    Html(layout(&title, user, body).into_string()).into_response()
}

//! The playground's page (`/play`): write a Luau bot in the browser, starting from the game's
//! template, run a few unrated games against the game's sparring bot on the server
//! (`POST /api/v1/play`), and watch each in the replay viewer with the bot's `print`s. Nothing is
//! installed and nothing is stored.

use axum::response::{Html, IntoResponse, Response};
use maud::{PreEscaped, html};

use super::{Viewer, layout};
use crate::games::registry;
use crate::league::server::playground::{ANONYMOUS_GAMES_PER_HOUR, MAX_GAMES, USER_GAMES_PER_HOUR};

/// The page's script: the template of the chosen game, the run, the results and the viewer.
const SCRIPT: &str = r#"
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const templates = JSON.parse($("templates").textContent);
  const source = $("source"), gutter = $("gutter");
  function numbers() {
    const n = source.value.split("\n").length;
    gutter.textContent = Array.from({ length: n }, (_, i) => i + 1).join("\n");
    gutter.scrollTop = source.scrollTop;
  }
  function template() { source.value = templates[$("game").value] || ""; numbers(); opponents(); }
  // The opponents: the game's bundled bot, or any bot of its ladder (the public ladder's list).
  async function opponents() {
    const select = $("opponent"), game = $("game").value;
    select.textContent = "";
    const bundled = document.createElement("option");
    bundled.value = "";
    bundled.textContent = "the game's bundled bot";
    select.appendChild(bundled);
    try {
      const r = await fetch("/api/v1/ladders/" + encodeURIComponent(game));
      if (!r.ok || $("game").value !== game) return;
      const ladder = await r.json();
      for (const row of ladder.rows || []) {
        const o = document.createElement("option");
        o.value = row.bot;
        o.textContent = row.bot + " v" + row.version + " by " + row.owner + " (ladder)";
        select.appendChild(o);
      }
    } catch (e) { /* the bundled bot is still there */ }
  }
  source.addEventListener("input", numbers);
  source.addEventListener("scroll", () => { gutter.scrollTop = source.scrollTop; });
  $("game").addEventListener("change", template);
  template();
  // The upload page takes the bot from here (it fills its form with it).
  $("upload").addEventListener("click", () => {
    sessionStorage.setItem("playground-bot", JSON.stringify({ game: $("game").value, source: source.value }));
    location.href = "/upload";
  });
  $("download").addEventListener("click", () => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([source.value], { type: "text/plain" }));
    a.download = $("game").value + "_bot.lua";
    a.click();
  });
  $("run").addEventListener("click", async () => {
    const status = $("status"), results = $("results"), viewer = $("viewer");
    status.className = "";
    status.textContent = "playing…";
    results.textContent = "";
    viewer.hidden = true;
    $("run").disabled = true;
    try {
      const r = await fetch("/api/v1/play", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(Object.assign(
          { game: $("game").value, source: source.value, games: Number($("games").value) },
          $("opponent").value ? { opponent: $("opponent").value } : {})),
      });
      const body = await r.json().catch(() => ({ error: "the server's answer is not JSON (" + r.status + ")" }));
      if (!r.ok) { status.className = "error"; status.textContent = body.error || String(r.status); return; }
      status.textContent = body.games.length + " games played (seed " + body.seed + "); " + body.left + " left this hour";
      body.games.forEach((g, i) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = "watch";
        b.addEventListener("click", () => { viewer.srcdoc = g.page; viewer.hidden = false; });
        li.append(b, " game " + g.number + " (your bot in seat " + g.seat + "): " + g.end);
        if (g.fault) { const f = document.createElement("span"); f.className = "fault"; f.textContent = " · fault: " + g.fault; li.append(f); }
        results.appendChild(li);
        if (i === 0) { viewer.srcdoc = g.page; viewer.hidden = false; }
      });
    } catch (e) {
      status.className = "error";
      status.textContent = "the league did not answer: " + e;
    } finally {
      $("run").disabled = false;
    }
  });
})();
"#;

/// The page's own styles: the editor with its line numbers, the results and the viewer.
const STYLE: &str = r#"
.editor { display: flex; border: 1px solid #ccc; background: #fff; height: 24rem; }
.editor pre { margin: 0; padding: 0.4rem; background: #f3f3f3; color: #888; text-align: right; overflow: hidden; min-width: 2.6rem; user-select: none; }
.editor textarea { flex: 1; border: 0; padding: 0.4rem; resize: none; white-space: pre; overflow: auto; }
.editor pre, .editor textarea { font: 13px/1.45 ui-monospace, monospace; }
#status.error { color: #c0392b; font-weight: 600; white-space: pre-wrap; }
#viewer { width: 100%; height: 46rem; border: 1px solid #ccc; margin-top: 0.5rem; }
.fault { color: #c0392b; }
"#;

/// `GET /play`.
pub(super) async fn page(Viewer(user): Viewer) -> Response {
    let games: Vec<(&str, &str)> = registry::all()
        .into_iter()
        .filter_map(|r| r.info().templates.lua.map(|t| (r.name(), t)))
        .collect();
    let templates: serde_json::Map<String, serde_json::Value> = games
        .iter()
        .map(|(g, t)| (g.to_string(), serde_json::Value::from(*t)))
        .collect();
    let templates =
        crate::view::page::script_json(&serde_json::Value::Object(templates).to_string());
    let allowance = match user {
        Some(_) => format!("{USER_GAMES_PER_HOUR} games an hour"),
        None => format!(
            "{ANONYMOUS_GAMES_PER_HOUR} games an hour without signing in, {USER_GAMES_PER_HOUR} signed in"
        ),
    };
    let body = html! {
        h1 { "Playground" }
        p { "Write a bot in Luau, play it against the game's bundled bot on the server, in the same sandbox and under the same limits as the ladder, and watch the games with your bot's " code { "print" } " lines. Unrated, and nothing is kept. " (allowance) "." }
        div.stack {
            label { "Game " select id="game" {
                @for (g, _) in &games { option value=(g) { (g) } }
            } }
            div.editor {
                pre id="gutter" aria-hidden="true" {}
                textarea id="source" spellcheck="false" aria-label="your bot (Luau)" {}
            }
            p.muted { "The bot is a file returning a table of functions; each gets what its seat sees and answers with an action. "
                "The observation and answer of each game are in botbox's docs (docs/<game>.md) and in "
                a href="/api/v1/openapi.json" { "the API" } "'s schemas; " code { "print" } " writes to your bot's log." }
            label id="opponent-label" { "Against " select id="opponent" {} }
            label { "Games " input id="games" type="number" min="1" max=(MAX_GAMES) value="3"; }
            div {
                button.primary id="run" type="button" { "Run" }
                " "
                button id="upload" type="button" { "Upload to the ladder" }
                " "
                button id="download" type="button" { "Download bot.lua" }
            }
        }
        p id="status" role="status" {}
        ol id="results" {}
        iframe id="viewer" title="the game's replay" sandbox="allow-scripts" hidden {}
        script id="templates" type="application/json" { (PreEscaped(templates)) }
        style { (PreEscaped(STYLE)) }
        script { (PreEscaped(SCRIPT)) }
    };
    Html(layout("Playground", user.as_ref(), body).into_string()).into_response()
}

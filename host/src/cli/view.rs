//! `botbox view REPLAY`: the replay viewer in a browser, served from 127.0.0.1, or written as one
//! self-contained page with `--html`. The page (`host/web/`) is built into the binary: nothing is
//! fetched from the internet. Frames come from [`super::replay::frames`], which re-plays the file
//! through the game's engine first.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

use super::replay::frames::{Viewer, frames};

/// Show a replay or a report in the browser: a board per move with play, step, scrub and logs; or
/// a report's standings and charts
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox view replays/worms-0001.jsonl            # prints http://127.0.0.1:PORT/ to open
  botbox view replays/bs-0003.jsonl --listen 127.0.0.1:8081
  botbox view replays/2048-0001.jsonl --html game.html   # one self-contained page, no server
  botbox view standings.json                      # a report (from --json): standings and charts

Keys: space plays and pauses, the arrows step, Home and End jump. The page can also open other
replay files while `botbox view` runs.")]
pub struct Args {
    /// The replay file (JSON Lines, docs/replay-format.md), or a report (the JSON of --json)
    replay: PathBuf,
    /// Write the page here instead of serving it
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// The address to serve on (a free port by default)
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
}

const PAGE: &str = include_str!("../../web/viewer.html");
const CSS: &str = include_str!("../../web/viewer.css");
const JS: &str = include_str!("../../web/viewer.js");

/// The viewer page with `viewer`'s frames inside (or none: the page then asks for a file).
pub fn page(viewer: Option<&Viewer>) -> String {
    let data = match viewer {
        Some(v) => script_json(&serde_json::to_string(v).expect("frames serialize")),
        None => "null".into(),
    };
    PAGE.replacen("/*CSS*/", CSS, 1)
        .replacen("/*JS*/", JS, 1)
        .replacen("/*DATA*/", &data, 1)
}

/// JSON made safe to embed in a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 written as
/// `\u` escapes, so no text a bot chose (`</script>`, `<!--<script>`) can move the HTML parser out
/// of the element's data state. They only occur inside JSON strings, where the escapes mean the
/// same characters.
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let html = match report_of(&args.replay)? {
        // A report (one JSON document, not a replay's lines): its page, with its charts.
        Some(report) => super::report::page(&report, None)
            .map_err(|e| anyhow::anyhow!("{}: {e}", args.replay.display()))?
            .into_string(),
        None => {
            let file = crate::replay::read(&args.replay)?;
            let viewer =
                frames(&file).map_err(|e| anyhow::anyhow!("{}: {e:#}", args.replay.display()))?;
            page(Some(&viewer))
        }
    };
    if let Some(out) = &args.html {
        std::fs::write(out, html).with_context(|| format!("writing {}", out.display()))?;
        println!("wrote {}", out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let app = axum::Router::new()
            .route("/", get(move || async move { Html(html) }))
            .route("/frames", post(frames_of))
            .layer(axum::extract::DefaultBodyLimit::max(256 << 20));
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("listening on {}", args.listen))?;
        println!(
            "open http://{}/ to watch {} (Ctrl-C stops)",
            listener.local_addr()?,
            args.replay.display()
        );
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The file as a report, if it is one: a single JSON document whose first line is not a replay's
/// header.
fn report_of(path: &std::path::Path) -> anyhow::Result<Option<serde_json::Value>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let first = text.lines().next().unwrap_or_default();
    let replay = serde_json::from_str::<serde_json::Value>(first)
        .is_ok_and(|v| v.get("type").is_some_and(|t| t == "header"));
    if replay {
        return Ok(None);
    }
    Ok(serde_json::from_str(&text).ok())
}

/// The frames of a replay the page sends (a file opened in it).
async fn frames_of(body: String) -> Response {
    let result = tokio::task::spawn_blocking(move || {
        let file = crate::replay::parse(&body).map_err(|e| e.to_string())?;
        frames(&file).map_err(|e| format!("{e:#}"))
    })
    .await;
    match result {
        Ok(Ok(viewer)) => axum::Json(viewer).into_response(),
        Ok(Err(e)) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({ "error": e }).to_string(),
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

#[cfg(test)]
mod tests {
    /// Nothing in the embedded data can open or close an element or a comment, and it still parses
    /// to the same strings.
    #[test]
    fn embedded_json_holds_no_markup() {
        let text = "</script><!--<script>&amp;\u{2028}\u{2029}";
        let json = super::script_json(&serde_json::to_string(&text).unwrap());
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            assert!(!json.contains(bad), "{bad:?} in {json}");
        }
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }
}

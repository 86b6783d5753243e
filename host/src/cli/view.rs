//! `botbox view REPLAY`: the replay viewer in a browser, served from 127.0.0.1, or written as one
//! self-contained page with `--html`. The page (`host/web/`) is built into the binary: nothing is
//! fetched from the internet. Frames come from [`crate::view::frames`], which re-plays the file
//! through the game's engine first.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

use crate::view::frames::{Observed, frames, observe, shell_word};

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

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let html = match report_of(&args.replay)? {
        // A report (one JSON document, not a replay's lines): its page, with its charts.
        Some(report) => super::report::page(&report, &Default::default())
            .map_err(|e| anyhow::anyhow!("{}: {e}", args.replay.display()))?
            .into_string(),
        None => {
            let file = crate::replay::read(&args.replay)?;
            let viewer = frames(&file)
                .and_then(|mut v| {
                    // Every seat's observation: the file is the user's own.
                    let name = shell_word(&args.replay.display().to_string());
                    let observed = Observed {
                        replay: Some(name),
                        fetch: None,
                    };
                    observe(&mut v, &file, &|_| true, observed).map(|()| v)
                })
                .map_err(|e| anyhow::anyhow!("{}: {e:#}", args.replay.display()))?;
            crate::view::page::html(Some(&viewer))
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
        // The page names the file it opened in its command.
        frames(&file)
            .and_then(|mut v| observe(&mut v, &file, &|_| true, Observed::default()).map(|()| v))
            .map_err(|e| format!("{e:#}"))
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

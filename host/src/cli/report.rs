//! `botbox report REPORT.json --html DIR`: a run's report (any game's tournament, match or bench
//! JSON) as one self-contained web page: the standings with their intervals, the pairwise results as
//! a heat map, each entry's score over its games, and for solo games the spread of the points and of
//! the largest tile. Charts are SVG drawn by plotters; nothing is fetched when the page opens.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use plotters::prelude::*;
use serde_json::Value;

mod charts;
use crate::view::chart::{
    AXIS, CAPTION, SIZE, TICKS, category_labels, grouped_bars, legend, line_chart, split,
    svg_error, tick,
};
use charts::{rating_over_games, score_histogram, score_over_games, tile_bars};

/// Write a run's report (the JSON of tournament, match, bench or dice) as a web page with charts
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox tournament worms --players strategies/lua/worms/*.lua --maps examples/worms/ --json worms.json
  botbox report worms.json --html worms-report/            # then open worms-report/index.html
  botbox bench 2048 strategies/lua/g2048/*.lua --games 50 --json bench.json --replay-dir replays/
  botbox report bench.json --html bench-report/ --replays replays/
  botbox dice examples/dice/wuerfel0.txt --json dice.json && botbox report dice.json --html dice-report/")]
pub struct Args {
    /// The report (JSON, from --json)
    report: PathBuf,
    /// The directory to write index.html into
    #[arg(long, value_name = "DIR")]
    html: PathBuf,
    /// The run's --replay-dir: each game links to its replay in the viewer (a page per game,
    /// written into DIR's replays/ folder beside index.html, so the folder travels whole)
    #[arg(long, value_name = "DIR")]
    replays: Option<PathBuf>,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.report)
        .with_context(|| format!("reading {}", args.report.display()))?;
    let report: Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}:{}: {e}", args.report.display(), e.line()))?;
    std::fs::create_dir_all(&args.html)
        .with_context(|| format!("creating {}", args.html.display()))?;
    let viewers = match &args.replays {
        Some(dir) => viewer_pages(&report, dir, &args.html)?,
        None => BTreeMap::new(),
    };
    let page =
        page(&report, &viewers).map_err(|e| anyhow::anyhow!("{}: {e}", args.report.display()))?;
    let out = args.html.join("index.html");
    std::fs::write(&out, page.into_string())
        .with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The page of any report: a run's (tournament, match, bench) or the dice ranking's; `viewers`
/// links games (by number) to their replay's viewer page, relative to the report's page.
pub(super) fn page(report: &Value, viewers: &BTreeMap<u64, String>) -> anyhow::Result<Markup> {
    if report.get("matrix").is_some() && report.get("dice").is_some() {
        return render_dice(report);
    }
    anyhow::ensure!(
        report.get("standings").is_some() && report.get("games").is_some(),
        "not a report (no standings and games): give the JSON of tournament, match, bench or dice"
    );
    render(report, viewers)
}

/// The replay viewer's page of each game of the report whose replay is in `replays` (the first
/// 1,000 games, as the page lists), written to `html/replays/GAME-NNNN.html` with its frames inside,
/// so the report and its games open anywhere, from any copy of the folder. Returns each game's link,
/// relative to the report's page. A replay that is missing is left unlinked; one that does not
/// re-play too, with a note.
fn viewer_pages(
    report: &Value,
    replays: &std::path::Path,
    html: &std::path::Path,
) -> anyhow::Result<BTreeMap<u64, String>> {
    let game = report["game"].as_str().unwrap_or("?");
    let games = report["games"].as_array().cloned().unwrap_or_default();
    let out = html.join("replays");
    let mut links = BTreeMap::new();
    let mut unread = 0;
    for g in games.iter().take(1000) {
        let Some(number) = g["number"].as_u64() else {
            continue;
        };
        let name = format!("{game}-{number:04}");
        let file = replays.join(format!("{name}.jsonl"));
        if !file.exists() {
            continue;
        }
        let frames = crate::replay::read(&file)
            .map_err(anyhow::Error::from)
            .and_then(|r| {
                let mut viewer = crate::view::frames::frames(&r)?;
                let observed = crate::view::frames::Observed {
                    replay: Some(crate::view::frames::shell_word(&file.display().to_string())),
                    fetch: None,
                };
                crate::view::frames::observe(&mut viewer, &r, &|_| true, observed)?;
                Ok(viewer)
            });
        let Ok(viewer) = frames else {
            unread += 1;
            continue;
        };
        std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
        let page = out.join(format!("{name}.html"));
        std::fs::write(&page, crate::view::page::html(Some(&viewer)))
            .with_context(|| format!("writing {}", page.display()))?;
        links.insert(number, format!("replays/{name}.html"));
    }
    if unread > 0 {
        eprintln!(
            "note: {unread} replays in {} do not re-play (`botbox replay FILE` says why); their \
             games are not linked",
            replays.display()
        );
    }
    Ok(links)
}

const CSS: &str = r#"
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 0.8rem; max-width: 72rem; font: 15px/1.45 system-ui, sans-serif; color: #1b1b1b; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { padding: 0.3rem 0.55rem; border-bottom: 1px solid #ddd; text-align: left; white-space: nowrap; }
td.n { text-align: right; }
td.heat { text-align: center; min-width: 3.2rem; }
svg { max-width: 100%; height: auto; }
.muted { color: #666; }
"#;

fn render(report: &Value, viewers: &BTreeMap<u64, String>) -> anyhow::Result<Markup> {
    let game = report["game"].as_str().unwrap_or("?");
    let plan = &report["plan"];
    let standings = report["standings"].as_array().cloned().unwrap_or_default();
    let games = report["games"].as_array().cloned().unwrap_or_default();
    let seats = plan["seats"].as_u64().unwrap_or(2);
    let solo = seats == 1;
    let title = format!(
        "{game}: {} games, {} (seed {})",
        games.len(),
        plan["format"].as_str().unwrap_or("run"),
        plan["seed"]
    );
    let mut charts = Vec::new();
    if solo {
        charts.push(score_histogram(&games)?);
        charts.push(tile_bars(&games)?);
    } else {
        charts.push(rating_over_games(&games, seats as usize)?);
        charts.push(score_over_games(&games)?);
    }
    let names: Vec<String> = standings
        .iter()
        .filter_map(|s| s["name"].as_str().map(str::to_string))
        .collect();
    let pairs = report["pairs"].as_array().cloned().unwrap_or_default();
    let benchmark = report.get("benchmark").filter(|b| b["entries"].is_array());
    Ok(html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · botbox" }
                link rel="icon" href="data:,";
                style { (PreEscaped(CSS)) }
            }
            body {
                h1 { (title) }
                h2 { "Standings" }
                div.scroll { table id="standings" {
                    thead { tr {
                        th { "#" } th { "entry" } th { "games" }
                        @if solo { th { "mean score" } th { "± 95%" } th { "median" } }
                        @else { th { "W-D-L" } th { "score %" } th { "win rate" } th { "95% interval" } }
                        th { "faults" }
                    } }
                    tbody { @for (i, s) in standings.iter().enumerate() { tr {
                        td.n { (i + 1) }
                        td { (s["name"].as_str().unwrap_or("?")) }
                        td.n { (s["games"]) }
                        @if solo {
                            td.n { (fmt(&s["mean_score"], 1)) }
                            td.n { (fmt(&s["score_margin"], 1)) }
                            td.n { (fmt(&s["median_score"], 0)) }
                        } @else {
                            td { (s["wins"]) "-" (s["draws"]) "-" (s["losses"]) }
                            td.n { (fmt(&s["score"], 1)) }
                            td.n { (fmt(&s["win_rate"], 1)) "%" }
                            td { (fmt(&s["low"], 1)) "–" (fmt(&s["high"], 1)) "%" }
                        }
                        td { (faults(&s["faults"])) }
                    } } }
                } }
                @if let Some(course) = benchmark {
                    h2 { "The " (game) " benchmark" }
                    p.muted { "Points: the sum over games of largest tile / 2048, out of " (fmt(&course["points_cap"], 0))
                        "; each milestone, the share of games whose largest tile reached it." }
                    div.scroll { table id="benchmark" {
                        thead { tr {
                            th { "entry" } th { "games" } th { "points" }
                            @for m in milestones(course) { th { (m) } }
                            th { "largest" } th { "moves/game" }
                        } }
                        tbody { @for e in course["entries"].as_array().into_iter().flatten() { tr {
                            td { (e["entry"].as_str().unwrap_or("?")) }
                            td.n { (e["games"]) }
                            td.n { (fmt(&e["points"], 2)) " / " (fmt(&course["points_cap"], 0)) }
                            @for m in e["reached"].as_array().into_iter().flatten() {
                                td.n { (format!("{:.0}%", 100.0 * m["share"].as_f64().unwrap_or(0.0))) }
                            }
                            td.n { (e["largest"]) }
                            td.n { (fmt(&e["moves_per_game"], 1)) }
                        } } }
                    } }
                }
                @if !pairs.is_empty() {
                    h2 { "Pairs (the row's score % against the column)" }
                    div.scroll { table id="pairs" {
                        thead { tr { th {} @for n in &names { th { (n) } } } }
                        tbody { @for a in &names { tr {
                            th { (a) }
                            @for b in &names {
                                @let cell = pair_score(&pairs, a, b);
                                @match cell {
                                    Some(score) => td.heat style=(heat(score)) { (format!("{score:.0}")) },
                                    None => td.heat { "" },
                                }
                            }
                        } } }
                    } }
                }
                h2 { "Charts" }
                @for svg in &charts { div.chart { (PreEscaped(svg)) } }
                h2 { "Games" }
                div.scroll { table id="games" {
                    thead { tr { th { "game" } th { "variant" } th { "players" } th { "winner" } th { "why" } th { "turns" }
                        @if solo { th { "score" } } } }
                    tbody { @for g in games.iter().take(1000) { tr {
                        td.n {
                            @match g["number"].as_u64().and_then(|n| viewers.get(&n)) {
                                Some(link) => a href=(link) { (g["number"]) },
                                None => (g["number"]),
                            }
                        }
                        td { (g["variant"].as_str().unwrap_or("")) }
                        td { (g["players"].as_array().map(|p| p.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", ")).unwrap_or_default()) }
                        td { (g["winner"].as_str().unwrap_or("-")) }
                        td { (g["reason"].as_str().unwrap_or("")) }
                        td.n { (g["turns"]) }
                        @if solo { td.n { (g["score"]) } }
                    } } }
                } }
                @if games.len() > 1000 { p.muted { "The first 1,000 of " (games.len()) " games." } }
            }
        }
    })
}

/// The milestone tiles of a benchmark's entries (its first entry's, all alike).
fn milestones(course: &Value) -> Vec<String> {
    course["entries"][0]["reached"]
        .as_array()
        .map(|r| r.iter().map(|m| m["tile"].to_string()).collect())
        .unwrap_or_default()
}

fn fmt(v: &Value, digits: usize) -> String {
    v.as_f64()
        .map_or_else(|| "-".to_string(), |x| format!("{x:.digits$}"))
}

fn faults(v: &Value) -> String {
    let Some(map) = v.as_object() else {
        return "none".into();
    };
    if map.is_empty() {
        return "none".into();
    }
    let mut out = String::new();
    for (k, n) in map {
        let _ = write!(out, "{}{k} {n}", if out.is_empty() { "" } else { ", " });
    }
    out
}

/// The score % of `a` against `b` from the report's pairs.
fn pair_score(pairs: &[Value], a: &str, b: &str) -> Option<f64> {
    pairs.iter().find_map(|p| {
        let score = p["score"].as_f64()?;
        if p["a"] == a && p["b"] == b {
            Some(score)
        } else if p["a"] == b && p["b"] == a {
            Some(100.0 - score)
        } else {
            None
        }
    })
}

/// Red (0%) through white (50%) to green (100%).
fn heat(score: f64) -> String {
    let t = (score / 100.0).clamp(0.0, 1.0);
    let (r, g, b) = if t < 0.5 {
        let u = t * 2.0;
        (230.0, 120.0 + 135.0 * u, 110.0 + 145.0 * u)
    } else {
        let u = (t - 0.5) * 2.0;
        (255.0 - 155.0 * u, 255.0 - 55.0 * u, 255.0 - 135.0 * u)
    };
    format!("background: rgb({r:.0}, {g:.0}, {b:.0})")
}

/// The dice ranking (`botbox dice --json`): the standings, the head-to-head matrix as a heat map and
/// each die's mean win rate with its interval.
fn render_dice(report: &Value) -> anyhow::Result<Markup> {
    let dice = report["dice"].as_array().cloned().unwrap_or_default();
    let standings = report["standings"].as_array().cloned().unwrap_or_default();
    let matrix = report["matrix"].as_array().cloned().unwrap_or_default();
    let name = |d: u64| format!("D{}", d + 1);
    let title = format!(
        "dice ranking: {} dice, {} games (seed {})",
        dice.len(),
        report["games"],
        report["config"]["seed"]
    );
    let mut svg = String::new();
    {
        let rows: Vec<(String, f64, f64)> = standings
            .iter()
            .map(|s| {
                (
                    name(s["die"].as_u64().unwrap_or(0)),
                    100.0 * s["mean_win"].as_f64().unwrap_or(0.0),
                    100.0 * s["mean_win_half_width"].as_f64().unwrap_or(0.0),
                )
            })
            .collect();
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(svg_error)?;
        let k = rows.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption("mean win rate against the other dice (± 95%)", CAPTION)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..k, 0f64..100f64)
            .map_err(svg_error)?;
        chart
            .configure_mesh()
            // Every die's name under its bar.
            .x_labels(0)
            .y_desc("win %")
            .label_style(TICKS)
            .axis_desc_style(AXIS)
            .y_label_formatter(&tick)
            .draw()
            .map_err(svg_error)?;
        let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        category_labels(&mut chart, &names, 0.0)?;
        let color = Palette99::pick(0).to_rgba();
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                Rectangle::new(
                    [(i as f64 + 0.1, 0.0), (i as f64 + 0.9, r.1)],
                    color.filled(),
                )
            }))
            .map_err(svg_error)?;
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                ErrorBar::new_vertical(i as f64 + 0.5, r.1 - r.2, r.1, r.1 + r.2, BLACK, 8)
            }))
            .map_err(svg_error)?;
        root.present().map_err(svg_error)?;
    }
    Ok(html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · botbox" }
                link rel="icon" href="data:,";
                style { (PreEscaped(CSS)) }
            }
            body {
                h1 { (title) }
                h2 { "Standings" }
                div.scroll { table id="standings" {
                    thead { tr { th { "#" } th { "die" } th { "faces" } th { "mean win" } th { "± 95%" } th { "beats" } } }
                    tbody { @for (i, s) in standings.iter().enumerate() {
                        @let d = s["die"].as_u64().unwrap_or(0);
                        tr {
                            td.n { (i + 1) }
                            td { (name(d)) }
                            td { (dice.get(d as usize).map(Value::to_string).unwrap_or_default()) }
                            td.n { (format!("{:.1}%", 100.0 * s["mean_win"].as_f64().unwrap_or(0.0))) }
                            td.n { (format!("{:.1}", 100.0 * s["mean_win_half_width"].as_f64().unwrap_or(0.0))) }
                            td { (s["beats"].as_array().map(|b| b.iter().filter_map(Value::as_u64).map(name).collect::<Vec<_>>().join(" ")).unwrap_or_default()) }
                        }
                    } }
                } }
                h2 { "Head to head (the row's win % against the column)" }
                div.scroll { table id="matrix" {
                    thead { tr { th {} @for j in 0..matrix.len() { th { (name(j as u64)) } } } }
                    tbody { @for (i, row) in matrix.iter().enumerate() { tr {
                        th { (name(i as u64)) }
                        @for cell in row.as_array().cloned().unwrap_or_default() {
                            @match cell.as_f64() {
                                Some(share) => td.heat style=(heat(100.0 * share)) { (format!("{:.0}", 100.0 * share)) },
                                None => td.heat { "" },
                            }
                        }
                    } } }
                } }
                h2 { "Charts" }
                div.chart { (PreEscaped(svg)) }
            }
        }
    })
}

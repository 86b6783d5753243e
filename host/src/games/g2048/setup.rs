//! How 2048 is set up for a run (its [`SetUp`], named by the registry): one board size, given as
//! its variant (`4x4` or `4`); and its benchmark's own figures, which reports and `watch` show.

use std::sync::Arc;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::games::contract::{Rules, Variant};
use crate::tournament::runner::{Entry, GameRecord, Report};
use crate::tournament::setup::{self, Figures, Game, Options};
use crate::tournament::versus::Versus;

/// The tiles whose reach the benchmark reports.
pub const MILESTONES: [u64; 6] = [2048, 4096, 8192, 16384, 32768, 65536];
/// The course's points: the sum over games of largest tile / 2048, capped at this.
pub const POINTS_CAP: f64 = 100.0;

/// 2048's set-up.
#[derive(Debug)]
pub struct SetUp;

impl setup::SetUp for SetUp {
    fn reads(&self, _rules: &dyn Rules) -> Vec<&'static str> {
        vec!["--variant"]
    }

    fn build(
        &self,
        rules: &'static dyn Rules,
        options: &Options,
        strategies: Vec<Entry>,
    ) -> anyhow::Result<(Game, Vec<Entry>)> {
        let size = match options.variants.as_slice() {
            [] => 4,
            [one] => board_size(one)?,
            _ => anyhow::bail!("2048: one board size per run, not {:?}", options.variants),
        };
        super::check_size(size).context("2048 board size")?;
        let board = Variant::named(&format!("{size}x{size}"));
        let game = Versus::new(rules, vec![board], 0, options.seed);
        Ok((Arc::new(game.map_err(anyhow::Error::msg)?), strategies))
    }

    /// The benchmark's points: the largest tile / 2048.
    fn solo_figure(&self, record: &GameRecord) -> f64 {
        max_tile(record) as f64 / 2048.0
    }

    fn solo_unit(&self) -> &'static str {
        "points/game"
    }

    fn benchmark(&self, names: &[&str], records: &[GameRecord]) -> Option<serde_json::Value> {
        serde_json::to_value(course(names, records)).ok()
    }

    fn figures(&self, report: &Report) -> Option<Figures> {
        Some(figures(report))
    }
}

/// A 2048 board size written `4x4` or `4`.
fn board_size(text: &str) -> anyhow::Result<usize> {
    let side = text
        .split_once('x')
        .map_or(text, |(a, b)| if a == b { a } else { "" });
    side.trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("2048: {text:?} is not a board size such as 4x4"))
}

/// A game's largest tile, from its record's details.
pub fn max_tile(g: &GameRecord) -> u64 {
    g.figures
        .details
        .as_ref()
        .and_then(|d| d["max_tile"].as_u64())
        .unwrap_or(0)
}

/// One entry's figures on the benchmark's course.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CourseEntry {
    pub entry: String,
    pub games: usize,
    /// The sum over games of largest tile / 2048, capped at [`POINTS_CAP`].
    pub points: f64,
    /// The share of games whose largest tile reached each of [`MILESTONES`], smallest first.
    pub reached: Vec<Milestone>,
    /// The largest tile of all its games.
    pub largest: u64,
    pub moves_per_game: f64,
}

/// How many of an entry's games reached a tile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Milestone {
    pub tile: u64,
    /// From 0 to 1.
    pub share: f64,
}

/// The benchmark's figures of every entry (the report's `benchmark`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Course {
    /// What `points` are out of.
    pub points_cap: f64,
    pub entries: Vec<CourseEntry>,
}

/// The course's figures of the entries `names` from their games.
pub fn course(names: &[&str], records: &[GameRecord]) -> Course {
    let entries = names
        .iter()
        .map(|&name| {
            let games: Vec<_> = records.iter().filter(|g| g.players[0] == name).collect();
            let n = games.len().max(1);
            let points: f64 = games.iter().map(|g| max_tile(g) as f64 / 2048.0).sum();
            let reached = MILESTONES
                .iter()
                .map(|&tile| {
                    let count = games.iter().filter(|g| max_tile(g) >= tile).count();
                    Milestone {
                        tile,
                        share: count as f64 / n as f64,
                    }
                })
                .collect();
            let moves: u64 = games.iter().map(|g| u64::from(g.turns)).sum();
            CourseEntry {
                entry: name.to_string(),
                games: games.len(),
                points: points.min(POINTS_CAP),
                reached,
                largest: games.iter().map(|g| max_tile(g)).max().unwrap_or(0),
                moves_per_game: moves as f64 / n as f64,
            }
        })
        .collect();
    Course {
        points_cap: POINTS_CAP,
        entries,
    }
}

/// The benchmark's own figures for each entry in the standings' order: points (largest tile / 2048
/// per game, capped at 100), how often each milestone tile was reached, the largest tile, the moves
/// per game.
pub fn figures(r: &Report) -> Figures {
    let mut header = vec!["entry".to_string(), "points".into()];
    header.extend(MILESTONES.iter().map(|t| format!("{t}")));
    header.push("largest".into());
    header.push("moves/game".into());
    let names: Vec<&str> = r
        .summary
        .standings
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    let rows = course(&names, &r.games)
        .entries
        .into_iter()
        .map(|e| {
            let mut row = vec![e.entry, format!("{:.2} / {POINTS_CAP}", e.points)];
            row.extend(e.reached.iter().map(|m| format!("{:.0}%", 100.0 * m.share)));
            row.push(e.largest.to_string());
            row.push(format!("{:.1}", e.moves_per_game));
            row
        })
        .collect();
    Figures {
        title: "The 2048 benchmark (milestones: share of games reaching the tile):".into(),
        header,
        rows,
    }
}

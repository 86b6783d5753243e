//! The report's charts of a run's games (SVG drawn by plotters): each entry's score and rating over
//! its games, and for solo games the spread of the scores and of the largest tile.

use super::*;

/// Each entry's cumulative score % over its games (a win 1, a draw ½).
pub(super) fn score_over_games(games: &[Value]) -> anyhow::Result<String> {
    let mut series: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut totals: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for g in games {
        let players: Vec<&str> = g["players"]
            .as_array()
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let winner = g["winner"].as_str();
        for p in players {
            let points = match winner {
                Some(w) if w == p => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let t = totals.entry(p.to_string()).or_default();
            t.0 += points;
            t.1 += 1.0;
            series
                .entry(p.to_string())
                .or_default()
                .push((t.1, 100.0 * t.0 / t.1));
        }
    }
    let series: Vec<(String, Vec<(f64, f64)>)> = series.into_iter().collect();
    line_chart(
        "score % over each entry's games",
        "games played",
        "score %",
        &series,
        Some((0.0, 100.0)),
    )
}

/// Each entry's rating after each of its games, rated in the order the games were numbered with the
/// league's models (`league::rating`: Glicko-2 for two players, Weng-Lin for tables), every entry
/// starting at the model's default. The winner places first and the others second; a game without
/// a winner is a draw.
pub(super) fn rating_over_games(games: &[Value], seats: usize) -> anyhow::Result<String> {
    use crate::league::rating::{Model, Rating, rate};
    let model = Model::for_seats(seats);
    let mut ratings: BTreeMap<String, Rating> = BTreeMap::new();
    let mut series: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for g in games {
        let players: Vec<&str> = g["players"]
            .as_array()
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if players.len() != seats {
            continue;
        }
        let winner = g["winner"].as_str();
        let places: Vec<u32> = players
            .iter()
            .map(|p| u32::from(winner.is_some_and(|w| w != *p)))
            .collect();
        let before: Vec<Rating> = players
            .iter()
            .map(|p| {
                ratings
                    .entry(p.to_string())
                    .or_insert_with(|| Rating::new(model))
                    .clone()
            })
            .collect();
        let after = rate(&before, &places, None)?;
        for (p, r) in players.iter().zip(after) {
            series
                .entry(p.to_string())
                .or_default()
                .push((f64::from(r.games), r.value));
            ratings.insert(p.to_string(), r);
        }
    }
    let series: Vec<(String, Vec<(f64, f64)>)> = series.into_iter().collect();
    let caption = match model {
        Model::WengLin => "Weng-Lin rating (mu) over each entry's games",
        _ => "Glicko-2 rating over each entry's games",
    };
    line_chart(caption, "games played", "rating", &series, None)
}

/// Solo games: how the scores spread, per entry, in 20 bins.
pub(super) fn score_histogram(games: &[Value]) -> anyhow::Result<String> {
    let mut by: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for g in games {
        let name = g["players"][0].as_str().unwrap_or("?").to_string();
        if let Some(s) = g["score"].as_f64() {
            by.entry(name).or_default().push(s);
        }
    }
    let high = by.values().flatten().copied().fold(1.0, f64::max);
    let width = (high / 20.0).max(1.0);
    let mut svg = String::new();
    {
        let counts: Vec<(String, Vec<u32>)> = by
            .iter()
            .map(|(n, scores)| {
                let mut bins = vec![0u32; 21];
                for s in scores {
                    bins[((s / width) as usize).min(20)] += 1;
                }
                (n.clone(), bins)
            })
            .collect();
        let top = counts
            .iter()
            .flat_map(|(_, b)| b.iter().copied())
            .max()
            .unwrap_or(1)
            .max(1);
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(svg_error)?;
        let (plot, legend_area) = split(&root, counts.len());
        let mut chart = ChartBuilder::on(&plot)
            .caption("points per game", CAPTION)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..width * 21.0, 0u32..top + 1)
            .map_err(svg_error)?;
        chart
            .configure_mesh()
            .x_desc("points")
            .y_desc("games")
            .label_style(TICKS)
            .axis_desc_style(AXIS)
            .x_label_formatter(&tick)
            .draw()
            .map_err(svg_error)?;
        grouped_bars(&mut chart, &counts, width)?;
        if let Some(area) = legend_area {
            let names: Vec<String> = counts.iter().map(|(n, _)| n.clone()).collect();
            legend(&area, &names, true)?;
        }
        root.present().map_err(svg_error)?;
    }
    Ok(svg)
}

/// Solo games: how often each entry's largest tile was each value.
pub(super) fn tile_bars(games: &[Value]) -> anyhow::Result<String> {
    let mut by: BTreeMap<String, BTreeMap<u64, u32>> = BTreeMap::new();
    for g in games {
        let name = g["players"][0].as_str().unwrap_or("?").to_string();
        if let Some(t) = g["details"]["max_tile"].as_u64() {
            *by.entry(name).or_default().entry(t).or_default() += 1;
        }
    }
    let tiles: Vec<u64> = {
        let mut t: Vec<u64> = by.values().flat_map(|m| m.keys().copied()).collect();
        t.sort_unstable();
        t.dedup();
        t
    };
    let top = by
        .values()
        .flat_map(|m| m.values().copied())
        .max()
        .unwrap_or(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(svg_error)?;
        let (plot, legend_area) = split(&root, by.len());
        let k = tiles.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&plot)
            .caption("largest tile per game", CAPTION)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..k, 0u32..top + 1)
            .map_err(svg_error)?;
        chart
            .configure_mesh()
            // A label under the middle of each tile's bars.
            .x_labels(0)
            .x_desc("largest tile")
            .y_desc("games")
            .label_style(TICKS)
            .axis_desc_style(AXIS)
            .draw()
            .map_err(svg_error)?;
        let names: Vec<String> = tiles.iter().map(u64::to_string).collect();
        category_labels(&mut chart, &names, 0u32)?;
        let counts: Vec<(String, Vec<u32>)> = by
            .iter()
            .map(|(name, counts)| {
                let per_tile = tiles.iter().map(|t| counts.get(t).copied().unwrap_or(0));
                (name.clone(), per_tile.collect())
            })
            .collect();
        grouped_bars(&mut chart, &counts, 1.0)?;
        if let Some(area) = legend_area {
            let names: Vec<String> = counts.iter().map(|(n, _)| n.clone()).collect();
            legend(&area, &names, true)?;
        }
        root.present().map_err(svg_error)?;
    }
    Ok(svg)
}

//! Charts as SVG (plotters), drawn the same for the report page and the league's bot pages.

use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::prelude::*;

/// A drawing error as an `anyhow` error.
pub fn svg_error<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing a chart: {e:?}")
}

/// A line chart of named series as SVG (the league's bot pages draw ratings with it too).
pub fn line_chart(
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
    y_range: Option<(f64, f64)>,
) -> anyhow::Result<String> {
    let points = || series.iter().flat_map(|(_, p)| p.iter().copied());
    let x_max = points().map(|p| p.0).fold(1.0, f64::max).max(2.0);
    let x_min = points().map(|p| p.0).fold(x_max, f64::min).min(x_max - 1.0);
    let (y_min, y_max) = y_range.unwrap_or_else(|| {
        let lo = points().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let hi = points().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        if lo.is_finite() && hi.is_finite() {
            let pad = ((hi - lo) * 0.1).max(1.0);
            (lo - pad, hi + pad)
        } else {
            (0.0, 1.0)
        }
    });
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 380)).into_drawing_area();
        root.fill(&WHITE).map_err(svg_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(52)
            .build_cartesian_2d(x_min..x_max, y_min..y_max)
            .map_err(svg_error)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(svg_error)?;
        for (i, (name, points)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(svg_error)?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(svg_error)?;
        root.present().map_err(svg_error)?;
    }
    Ok(svg)
}

/// Bars side by side, one colour per entry: category `k` spans `k * width..(k + 1) * width` on the x
/// axis, and each entry's count there stands in its own slot; then the legend.
pub fn grouped_bars<'a>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordu32>>,
    series: &[(String, Vec<u32>)],
    width: f64,
) -> anyhow::Result<()> {
    let slot = width / series.len().max(1) as f64;
    for (i, (name, counts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(counts.iter().enumerate().map(|(k, &c)| {
                let x0 = k as f64 * width + i as f64 * slot;
                Rectangle::new([(x0, 0), (x0 + slot * 0.9, c)], color.filled())
            }))
            .map_err(svg_error)?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(svg_error)?;
    Ok(())
}

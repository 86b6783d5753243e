//! Charts as SVG (plotters), drawn the same for the report page and the league's bot pages: labels
//! large enough to read, counts without decimals, and the legend in a column of its own beside the
//! plot, never over the lines.

use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::prelude::*;

/// A drawing error as an `anyhow` error.
pub fn svg_error<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing a chart: {e:?}")
}

/// The size of every chart, and the width of its legend column.
pub const SIZE: (u32, u32) = (760, 380);
const LEGEND: u32 = 170;

/// The axes' tick labels and descriptions, one size for every chart.
pub const TICKS: (&str, u32) = ("sans-serif", 15);
pub const AXIS: (&str, u32) = ("sans-serif", 16);
pub const CAPTION: (&str, u32) = ("sans-serif", 19);

/// A tick value as text: whole numbers without decimals (game counts, percentages), others with one.
pub fn tick(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// The plot's area and, when there is more than one series, the legend's column at its right.
pub fn split<'a>(
    root: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
    entries: usize,
) -> (
    DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
    Option<DrawingArea<SVGBackend<'a>, plotters::coord::Shift>>,
) {
    if entries < 2 {
        return (root.clone(), None);
    }
    let (width, _) = root.dim_in_pixel();
    let (plot, legend) = root.split_horizontally(width.saturating_sub(LEGEND));
    (plot, Some(legend))
}

/// Draws the legend of `names` (series `i` in palette colour `i`) down its own column, as a line
/// (`bars` false) or a filled square.
pub fn legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    names: &[String],
    bars: bool,
) -> anyhow::Result<()> {
    let style = TextStyle::from(TICKS).color(&BLACK);
    for (i, name) in names.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let y = 48 + 24 * i as i32;
        if bars {
            area.draw(&Rectangle::new([(8, y - 6), (22, y + 6)], color.filled()))
                .map_err(svg_error)?;
        } else {
            area.draw(&PathElement::new(
                vec![(4, y), (26, y)],
                color.stroke_width(3),
            ))
            .map_err(svg_error)?;
        }
        let shown: String = name.chars().take(18).collect();
        area.draw(&Text::new(shown, (32, y - 8), style.clone()))
            .map_err(svg_error)?;
    }
    Ok(())
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
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(svg_error)?;
        let (plot, legend_area) = split(&root, series.len());
        let mut chart = ChartBuilder::on(&plot)
            .caption(caption, CAPTION)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(x_min..x_max, y_min..y_max)
            .map_err(svg_error)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .label_style(TICKS)
            .axis_desc_style(AXIS)
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .draw()
            .map_err(svg_error)?;
        for (i, (_, points)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(svg_error)?;
        }
        if let Some(area) = legend_area {
            let names: Vec<String> = series.iter().map(|(n, _)| n.clone()).collect();
            legend(&area, &names, false)?;
        }
        root.present().map_err(svg_error)?;
    }
    Ok(svg)
}

/// Names each category under the middle of its slot: category `k` spans `k..k + 1` on the x axis,
/// `bottom` is the y axis's lowest value. (Tick placement would label only some of them.)
pub fn category_labels<'a, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, Y>>,
    names: &[String],
    bottom: Y::ValueType,
) -> anyhow::Result<()>
where
    Y: plotters::coord::ranged1d::Ranged,
    Y::ValueType: Clone + 'a,
{
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let style = TextStyle::from(TICKS)
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    chart
        .draw_series(names.iter().enumerate().map(|(i, name)| {
            EmptyElement::at((i as f64 + 0.5, bottom.clone()))
                + Text::new(name.clone(), (0, 6), style.clone())
        }))
        .map_err(svg_error)?;
    Ok(())
}

/// Bars side by side, one colour per entry: category `k` spans `k * width..(k + 1) * width` on the x
/// axis, and each entry's count there stands in its own slot. The caller draws the legend
/// ([`legend`], in the column [`split`] left).
pub fn grouped_bars<'a>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordu32>>,
    series: &[(String, Vec<u32>)],
    width: f64,
) -> anyhow::Result<()> {
    let slot = width / series.len().max(1) as f64;
    for (i, (_, counts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(counts.iter().enumerate().map(|(k, &c)| {
                let x0 = k as f64 * width + i as f64 * slot;
                Rectangle::new([(x0, 0), (x0 + slot * 0.9, c)], color.filled())
            }))
            .map_err(svg_error)?;
    }
    Ok(())
}

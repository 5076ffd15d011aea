//! SVG plots of a sweep: LUT4 (top) and Fmax (bottom) against one varied key, one line per
//! combination of the other keys. plotters' SVG backend writes text as `<text>` elements,
//! so no font is needed at build or run time.
//!
//! A key whose values are all positive numbers spanning a factor of 8 or more is drawn on a
//! log2 axis (1, 2, 4, … 64 evenly spaced); other numbers on a linear axis; anything else
//! (a TOML list) as categories. Points that do not fit the device show their LUT4 (from
//! Yosys) as a cross and have no Fmax.

use crate::results::{Axis, Row};
use plotters::prelude::*;
use std::path::Path;

/// How x values map to the axis.
enum Scale {
    Log2,
    Linear,
    Category,
}

fn scale_of(values: &[String]) -> Scale {
    let nums: Option<Vec<f64>> = values.iter().map(|v| v.parse::<f64>().ok()).collect();
    match nums {
        Some(n) if !n.is_empty() => {
            let (lo, hi) = n.iter().fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(*x), b.max(*x)));
            if lo > 0.0 && hi / lo >= 8.0 {
                Scale::Log2
            } else {
                Scale::Linear
            }
        }
        _ => Scale::Category,
    }
}

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// One line: its label and its points (x position, LUT4, Fmax, fits).
type Series = (String, Vec<(f64, Option<f64>, Option<f64>, bool)>);

/// Writes the plot of `rows` against axis `which` to `path`. `device_cells` draws the
/// device's capacity on the LUT4 panel (0: none).
pub fn plot(path: &Path, block: &str, axes: &[Axis], which: usize, rows: &[Row], device_cells: u64) -> Result<(), String> {
    let axis = &axes[which];
    let scale = scale_of(&axis.values);
    let x_of = |v: &str| -> Option<f64> {
        match scale {
            Scale::Log2 => v.parse::<f64>().ok().map(f64::log2),
            Scale::Linear => v.parse::<f64>().ok(),
            Scale::Category => axis.values.iter().position(|x| x == v).map(|i| i as f64),
        }
    };
    let keys: Vec<f64> = axis.values.iter().filter_map(|v| x_of(v)).collect();
    let labels: Vec<(f64, String)> = axis.values.iter().filter_map(|v| x_of(v).map(|x| (x, v.clone()))).collect();
    let (mut x0, mut x1) = keys.iter().fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(*x), b.max(*x)));
    if keys.is_empty() {
        (x0, x1) = (0.0, 1.0);
    }
    let pad = ((x1 - x0) * 0.05).max(0.5);
    let (x0, x1) = (x0 - pad, x1 + pad);

    // One series per combination of the other keys' values.
    let mut series: Vec<Series> = Vec::new();
    for r in rows {
        let others: Vec<String> = axes
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != which)
            .map(|(i, a)| format!("{}={}", a.key.split('.').nth(1).unwrap_or(&a.key), r.values[i]))
            .collect();
        let name = others.join(" ");
        let Some(x) = x_of(&r.values[which]) else { continue };
        let point = (x, r.lut4.map(|v| v as f64), r.fmax_mhz, r.status == "ok");
        match series.iter_mut().find(|(n, _)| *n == name) {
            Some((_, pts)) => pts.push(point),
            None => series.push((name, vec![point])),
        }
    }
    for (_, pts) in &mut series {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let clock = rows.iter().map(|r| r.clock_mhz).fold(0.0, f64::max);
    let lut_data = series.iter().flat_map(|(_, p)| p.iter().filter_map(|q| q.1)).fold(0.0, f64::max);
    // The device's capacity only where it is in sight: it would flatten small designs.
    let device_cells = if lut_data * 4.0 >= device_cells as f64 { device_cells } else { 0 };
    let lut_max = lut_data.max(device_cells as f64);
    let fmax_max = series.iter().flat_map(|(_, p)| p.iter().filter_map(|q| q.2)).fold(clock, f64::max);

    let err = |e: &dyn std::fmt::Display| e.to_string();
    let root = SVGBackend::new(path, (820, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (top, bottom) = root.split_vertically(320);
    let key = axis.key.clone();
    // Ticks fall on whole numbers of the axis: log2 exponents, category indices, or the
    // values themselves; only those that are a swept value get a label.
    let fmt = |x: &f64| match scale {
        Scale::Linear => labels.iter().find(|(k, _)| (k - x).abs() < 1e-9).map_or(format!("{x}"), |(_, l)| l.clone()),
        _ => labels.iter().find(|(k, _)| (k - x).abs() < 1e-9).map_or(String::new(), |(_, l)| l.clone()),
    };
    let x_ticks = match scale {
        Scale::Linear => 10,
        _ => (x1 - x0).ceil() as usize + 1,
    };
    let panels: [(&DrawingArea<SVGBackend, plotters::coord::Shift>, String, &str, f64, f64, usize); 2] = [
        (&top, format!("{block}: LUT4 vs {key}"), "LUT4 (block)", lut_max * 1.1, device_cells as f64, 1),
        (&bottom, format!("{block}: Fmax vs {key}"), "Fmax (MHz)", fmax_max * 1.15, clock, 2),
    ];
    for (area, caption, ydesc, ymax, line, metric) in panels {
        let mut chart = ChartBuilder::on(area)
            .caption(caption, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, 0f64..ymax.max(1.0))
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_labels(x_ticks)
            .x_label_formatter(&fmt)
            .y_label_formatter(&|v: &f64| format!("{v:.0}"))
            .x_desc(key.as_str())
            .y_desc(ydesc)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| err(&e))?;
        if line > 0.0 {
            let what = if metric == 1 { format!("device: {} logic cells", line as u64) } else { format!("clock {} MHz", crate::fpga::mhz_text(line)) };
            chart
                .draw_series(LineSeries::new([(x0, line), (x1, line)], BLACK.mix(0.4).stroke_width(1)))
                .map_err(|e| err(&e))?
                .label(what)
                .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.4)));
        }
        for (i, (name, pts)) in series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let value = |p: &(f64, Option<f64>, Option<f64>, bool)| if metric == 1 { p.1 } else { p.2 };
            let line_pts: Vec<(f64, f64)> = pts.iter().filter_map(|p| value(p).map(|v| (p.0, v))).collect();
            let label = if name.is_empty() { ydesc.to_string() } else { name.clone() };
            chart
                .draw_series(LineSeries::new(line_pts, color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
            chart
                .draw_series(pts.iter().filter_map(|p| value(p).map(|v| (p.0, v, p.3))).map(|(x, v, fits)| {
                    if fits {
                        Circle::new((x, v), 4, color.filled()).into_dyn()
                    } else {
                        Cross::new((x, v), 6, color.stroke_width(2)).into_dyn()
                    }
                }))
                .map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .position(if metric == 1 { SeriesLabelPosition::UpperLeft } else { SeriesLabelPosition::LowerLeft })
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .draw()
            .map_err(|e| err(&e))?;
    }
    if rows.iter().any(|r| r.status == "does-not-fit") {
        root.draw(&Text::new(
            "x: does not fit the device (LUT4 from Yosys, no Fmax)",
            (12, 628),
            ("sans-serif", 13).into_font(),
        ))
        .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

//! The report's plots, drawn with plotters' SVG backend into strings for inlining in HTML.
//!
//! Every function takes already-computed numbers (see [`super::analysis`]) and draws; several
//! runs passed together are overlaid, one colour per run.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::analysis::{EngineEffort, LengthBin, RunningPoint, Wdl};

/// Size of one plot in SVG pixels; the HTML scales it to its column.
pub const PLOT_SIZE: (u32, u32) = (600, 320);

const FONT: &str = "sans-serif";
/// One colour per run or engine (the "tab10" palette, readable on white and by most colour-blind readers).
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(23, 190, 207),
];
const WIN: RGBColor = RGBColor(46, 125, 50);
const DRAW: RGBColor = RGBColor(176, 176, 176);
const LOSS: RGBColor = RGBColor(198, 40, 40);
const GRID: RGBColor = RGBColor(235, 235, 235);
const AXIS_TEXT: RGBColor = RGBColor(60, 60, 60);

/// The running statistics of one run, for the LLR and Elo plots.
pub struct RunLine<'a> {
    pub label: &'a str,
    pub points: &'a [RunningPoint],
}

fn plot_error<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing a plot: {e}")
}

/// Draws into a fresh SVG string of [`PLOT_SIZE`].
fn svg(
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()>,
) -> anyhow::Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, PLOT_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        draw(&root)?;
        root.present().map_err(plot_error)?;
    }
    Ok(out)
}

fn caption_style() -> TextStyle<'static> {
    (FONT, 19).into_font().color(&BLACK)
}

/// A plot with only a title and a message, for runs without the data a plot needs.
fn empty_plot(title: &str, message: &str) -> anyhow::Result<String> {
    svg(|root| {
        let area = root.titled(title, caption_style()).map_err(plot_error)?;
        let (w, h) = area.dim_in_pixel();
        area.draw(&Text::new(
            message.to_string(),
            (w as i32 / 2, h as i32 / 2),
            (FONT, 15).into_font().color(&AXIS_TEXT).pos(centre()),
        ))
        .map_err(plot_error)?;
        Ok(())
    })
}

fn max_games(runs: &[RunLine]) -> u64 {
    runs.iter()
        .flat_map(|r| r.points.iter().map(|p| p.games))
        .max()
        .unwrap_or(0)
}

/// The log-likelihood ratio against games, with the SPRT's two bounds.
pub fn llr_plot(runs: &[RunLine], bounds: Option<(f64, f64)>) -> anyhow::Result<String> {
    let title = "SPRT log-likelihood ratio";
    let values: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.points.iter().filter_map(|p| p.llr))
        .collect();
    if values.is_empty() {
        return empty_plot(title, "no SPRT in this run (or no completed pairs)");
    }
    let (mut lo, mut hi) = values
        .iter()
        .fold((0.0f64, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    if let Some((lower, upper)) = bounds {
        lo = lo.min(lower);
        hi = hi.max(upper);
    }
    let pad = 0.08 * (hi - lo).max(0.5);
    let x_max = max_games(runs).max(2) as f64;
    svg(|root| {
        let mut chart = titled_chart(
            root,
            title,
            0.0..x_max,
            (lo - pad)..(hi + pad),
            ("games", "LLR"),
        )?;
        if let Some((lower, upper)) = bounds {
            for (value, colour, name) in [(upper, WIN, "accept H1"), (lower, LOSS, "accept H0")] {
                chart
                    .draw_series(DashedLineSeries::new(
                        [(0.0, value), (x_max, value)],
                        6,
                        4,
                        colour.stroke_width(2),
                    ))
                    .map_err(plot_error)?
                    .label(format!("{name} ({value:.2})"))
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2))
                    });
            }
        }
        for (i, run) in runs.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let line: Vec<(f64, f64)> = run
                .points
                .iter()
                .filter_map(|p| p.llr.map(|llr| (p.games as f64, llr)))
                .collect();
            let series = chart
                .draw_series(LineSeries::new(line, colour.stroke_width(2)))
                .map_err(plot_error)?;
            if runs.len() > 1 {
                series.label(run.label.to_string()).legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2))
                });
            }
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// The Elo estimate against games, with its 95% interval as a band.
pub fn elo_plot(runs: &[RunLine]) -> anyhow::Result<String> {
    let title = "Elo estimate with 95% interval";
    let bands: Vec<Vec<(f64, f64, f64)>> = runs
        .iter()
        .map(|r| {
            r.points
                .iter()
                .filter_map(|p| {
                    let (elo, err) = (p.elo?, p.elo_err95?);
                    (elo.is_finite() && err.is_finite()).then_some((
                        p.games as f64,
                        elo - err,
                        elo + err,
                    ))
                })
                .collect()
        })
        .collect();
    let x_max = max_games(runs).max(2) as f64;
    // The first pairs have huge intervals; scale to the last 70% of the run so the
    // estimate stays readable (the band is clipped at the plot's edge).
    let settled: Vec<f64> = bands
        .iter()
        .flatten()
        .filter(|(g, _, _)| *g >= 0.3 * x_max)
        .flat_map(|(_, lo, hi)| [*lo, *hi])
        .collect();
    if settled.is_empty() {
        return empty_plot(title, "Elo cannot be computed yet (no completed pairs)");
    }
    let (lo, hi) = settled
        .iter()
        .fold((0.0f64, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let pad = 0.08 * (hi - lo).max(5.0);
    let (y_lo, y_hi) = (lo - pad, hi + pad);
    let clip = |v: f64| v.clamp(y_lo, y_hi);
    svg(|root| {
        let mut chart = titled_chart(root, title, 0.0..x_max, y_lo..y_hi, ("games", "Elo"))?;
        chart
            .draw_series(LineSeries::new(
                [(0.0, 0.0), (x_max, 0.0)],
                BLACK.stroke_width(1),
            ))
            .map_err(plot_error)?;
        for (i, (run, band)) in runs.iter().zip(&bands).enumerate() {
            if band.is_empty() {
                continue;
            }
            let colour = PALETTE[i % PALETTE.len()];
            let outline: Vec<(f64, f64)> = band
                .iter()
                .map(|(g, _, hi)| (*g, clip(*hi)))
                .chain(band.iter().rev().map(|(g, lo, _)| (*g, clip(*lo))))
                .collect();
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline,
                    colour.mix(0.18).filled(),
                )))
                .map_err(plot_error)?;
            let centre: Vec<(f64, f64)> = band
                .iter()
                .map(|(g, lo, hi)| (*g, clip((lo + hi) / 2.0)))
                .collect();
            let label = if runs.len() > 1 {
                run.label.to_string()
            } else {
                "Elo".to_string()
            };
            chart
                .draw_series(LineSeries::new(centre, colour.stroke_width(2)))
                .map_err(plot_error)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2))
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// Horizontal bars, one per row, split into the first engine's wins, draws and losses as
/// shares of the row's games (counts written on the bars).
pub fn wdl_bars(title: &str, rows: &[(String, Wdl)], first: &str) -> anyhow::Result<String> {
    if rows.is_empty() {
        return empty_plot(title, "no games");
    }
    let n = rows.len() as u32;
    let labels: Vec<String> = rows
        .iter()
        .map(|(name, wdl)| format!("{name} ({})", wdl.games()))
        .collect();
    let label_width = labels
        .iter()
        .map(|l| l.chars().count() as u32)
        .max()
        .unwrap_or(0)
        * 8
        + 12;
    svg(|root| {
        let area = root.titled(title, caption_style()).map_err(plot_error)?;
        let (legend_strip, plot_area) = area.split_vertically(26);
        wdl_legend(&legend_strip)?;
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(12)
            .margin_top(4)
            .x_label_area_size(36)
            .y_label_area_size(label_width.clamp(60, 260))
            .build_cartesian_2d(0.0..100.0, (0..n - 1).into_segmented())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(GRID)
            .bold_line_style(GRID)
            .y_labels(rows.len())
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .x_label_formatter(&|v| format!("{v:.0}"))
            .x_desc(format!("% of games ({first}'s view)"))
            .label_style((FONT, 15).into_font().color(&AXIS_TEXT))
            .axis_desc_style((FONT, 15).into_font().color(&AXIS_TEXT))
            .draw()
            .map_err(plot_error)?;
        for (part, colour) in [(0, WIN), (1, DRAW), (2, LOSS)] {
            let mut bars = Vec::new();
            let mut texts = Vec::new();
            for (i, (_, wdl)) in rows.iter().enumerate() {
                let total = wdl.games().max(1) as f64;
                let counts = [wdl.wins, wdl.draws, wdl.losses];
                let start: f64 = counts[..part].iter().sum::<u64>() as f64 / total * 100.0;
                let width = counts[part] as f64 / total * 100.0;
                let i = i as u32;
                let mut bar = Rectangle::new(
                    [
                        (start, SegmentValue::Exact(i)),
                        (start + width, SegmentValue::Exact(i + 1)),
                    ],
                    colour.filled(),
                );
                bar.set_margin(4, 4, 0, 0);
                bars.push(bar);
                if width >= 7.0 {
                    texts.push(Text::new(
                        counts[part].to_string(),
                        (start + width / 2.0, SegmentValue::CenterOf(i)),
                        (FONT, 15)
                            .into_font()
                            .color(if part == 1 { &BLACK } else { &WHITE })
                            .pos(centre()),
                    ));
                }
            }
            chart.draw_series(bars).map_err(plot_error)?;
            chart.draw_series(texts).map_err(plot_error)?;
        }
        Ok(())
    })
}

fn centre() -> plotters::style::text_anchor::Pos {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    Pos::new(HPos::Center, VPos::Center)
}

/// A one-line legend (win, draw, loss) centred in its strip, so it never covers a bar.
fn wdl_legend(strip: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
    let (w, h) = strip.dim_in_pixel();
    let entry_width = 70;
    let mut x = w as i32 / 2 - 3 * entry_width / 2;
    let y = h as i32 / 2;
    for (colour, name) in [(WIN, "win"), (DRAW, "draw"), (LOSS, "loss")] {
        strip
            .draw(&Rectangle::new(
                [(x, y - 6), (x + 12, y + 6)],
                colour.filled(),
            ))
            .map_err(plot_error)?;
        strip
            .draw(&Text::new(
                name,
                (x + 18, y),
                (FONT, 15).into_font().color(&AXIS_TEXT).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Left,
                        plotters::style::text_anchor::VPos::Center,
                    ),
                ),
            ))
            .map_err(plot_error)?;
        x += entry_width;
    }
    Ok(())
}

/// Game lengths in full moves, decisive games and draws stacked.
pub fn length_histogram(bins: &[LengthBin]) -> anyhow::Result<String> {
    let title = "Game length";
    if bins.is_empty() {
        return empty_plot(title, "no games");
    }
    let x_max = bins.last().map_or(1, |b| b.to_moves) as f64;
    let y_max = bins
        .iter()
        .map(|b| b.decisive + b.draws)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    svg(|root| {
        let mut chart = titled_chart(
            root,
            title,
            0.0..x_max,
            0.0..y_max * 1.08,
            ("moves", "games"),
        )?;
        for (which, colour, name) in [(0, PALETTE[0], "decisive"), (1, DRAW, "draw")] {
            let bars = bins.iter().map(|b| {
                let (bottom, top) = if which == 0 {
                    (0, b.decisive)
                } else {
                    (b.decisive, b.decisive + b.draws)
                };
                let mut bar = Rectangle::new(
                    [
                        (f64::from(b.from_moves), bottom as f64),
                        (f64::from(b.to_moves), top as f64),
                    ],
                    colour.filled(),
                );
                bar.set_margin(0, 0, 1, 1);
                bar
            });
            chart
                .draw_series(bars)
                .map_err(plot_error)?
                .label(name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// Game-length distributions of several runs as lines (share of each run's games per bin).
pub fn length_overlay(runs: &[(&str, &[LengthBin])]) -> anyhow::Result<String> {
    let title = "Game length (share of each run's games)";
    let lines: Vec<Vec<(f64, f64)>> = runs
        .iter()
        .map(|(_, bins)| {
            let total: u64 = bins.iter().map(|b| b.decisive + b.draws).sum();
            bins.iter()
                .map(|b| {
                    let mid = f64::from(b.from_moves + b.to_moves) / 2.0;
                    (
                        mid,
                        100.0 * (b.decisive + b.draws) as f64 / total.max(1) as f64,
                    )
                })
                .collect()
        })
        .collect();
    let x_max = lines.iter().flatten().map(|p| p.0).fold(0.0, f64::max);
    let y_max = lines.iter().flatten().map(|p| p.1).fold(0.0, f64::max);
    if x_max <= 0.0 {
        return empty_plot(title, "no games");
    }
    svg(|root| {
        let mut chart = titled_chart(
            root,
            title,
            0.0..x_max * 1.05,
            0.0..y_max * 1.1,
            ("moves", "% of games"),
        )?;
        for (i, ((label, _), line)) in runs.iter().zip(lines).enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            chart
                .draw_series(LineSeries::new(line, colour.stroke_width(2)))
                .map_err(plot_error)?
                .label(label.to_string())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2))
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// Which per-move measure an effort plot shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    Nodes,
    Milliseconds,
}

/// Distribution over games of each engine's average nodes (or time) per move, overlaid.
pub fn effort_histogram(engines: &[EngineEffort], measure: Effort) -> anyhow::Result<String> {
    let (title, unit) = match measure {
        Effort::Nodes => ("Nodes per move (average per game)", "nodes per move"),
        Effort::Milliseconds => ("Time per move (average per game)", "ms per move"),
    };
    let samples: Vec<&[f64]> = engines
        .iter()
        .map(|e| match measure {
            Effort::Nodes => e.nodes_per_move_by_game.as_slice(),
            Effort::Milliseconds => e.ms_per_move_by_game.as_slice(),
        })
        .collect();
    let all = || samples.iter().flat_map(|s| s.iter().copied());
    let (lo, hi) = all().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() || hi <= 0.0 {
        return empty_plot(title, "not recorded in this run");
    }
    const BINS: usize = 30;
    // A fixed node limit gives nearly equal values: widen the range so the spike shows.
    let (lo, hi) = if hi - lo < 1e-9 * hi.abs().max(1.0) || hi - lo < 0.02 * hi {
        (lo * 0.9, hi * 1.1)
    } else {
        (lo, hi)
    };
    let width = (hi - lo) / BINS as f64;
    let counts: Vec<Vec<u64>> = samples
        .iter()
        .map(|s| {
            let mut c = vec![0u64; BINS];
            for v in s.iter() {
                let bin = (((v - lo) / width) as usize).min(BINS - 1);
                c[bin] += 1;
            }
            c
        })
        .collect();
    let y_max = counts.iter().flatten().copied().max().unwrap_or(1).max(1) as f64;
    svg(|root| {
        let mut chart = titled_chart(root, title, lo..hi, 0.0..y_max * 1.08, (unit, "games"))?;
        for (i, (engine, c)) in engines.iter().zip(&counts).enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let bars = c.iter().enumerate().filter(|(_, n)| **n > 0).map(|(b, n)| {
                let x0 = lo + b as f64 * width;
                Rectangle::new(
                    [(x0, 0.0), (x0 + width, *n as f64)],
                    colour.mix(0.5).filled(),
                )
            });
            chart
                .draw_series(bars)
                .map_err(plot_error)?
                .label(engine.name.clone())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.mix(0.5).filled())
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// One SPSA parameter's path: its name, range and θ after each applied iteration (the
/// first point is the start, at iteration 0).
pub struct Trajectory<'a> {
    pub name: &'a str,
    pub min: f64,
    pub max: f64,
    pub points: Vec<(f64, f64)>,
}

/// θ of every tuned parameter against iterations, each normalised to its range (0 = min,
/// 1 = max), so parameters of different scales share one plot.
pub fn spsa_trajectories(params: &[Trajectory]) -> anyhow::Result<String> {
    let title = "SPSA: θ of each parameter, normalised to its range";
    let x_max = params
        .iter()
        .flat_map(|p| p.points.last().map(|&(x, _)| x))
        .fold(0.0f64, f64::max);
    if params.is_empty() || x_max <= 0.0 {
        return empty_plot(title, "no iteration applied yet");
    }
    svg(|root| {
        let mut chart = titled_chart(
            root,
            title,
            0.0..x_max,
            -0.02..1.02,
            ("iteration", "(θ − min) / (max − min)"),
        )?;
        for (i, param) in params.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let span = (param.max - param.min).max(f64::MIN_POSITIVE);
            let line = param
                .points
                .iter()
                .map(|&(x, theta)| (x, ((theta - param.min) / span).clamp(0.0, 1.0)));
            chart
                .draw_series(LineSeries::new(line, colour.stroke_width(2)))
                .map_err(plot_error)?
                .label(param.name.to_string())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2))
                });
        }
        // Tuned values mostly sit near the start or the middle of their range; the legend
        // goes where lines are rarest.
        legend(&mut chart, SeriesLabelPosition::MiddleRight)
    })
}

/// A chart of the common layout: the title, margins, axis areas and the mesh with the axes'
/// names (`x`, `y`).
fn titled_chart<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    title: &str,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    (x_name, y_name): (&str, &str),
) -> anyhow::Result<Chart<'a, 'b>> {
    let mut chart = ChartBuilder::on(root)
        .caption(title, caption_style())
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(x, y)
        .map_err(plot_error)?;
    mesh(&mut chart, x_name, y_name)?;
    Ok(chart)
}

fn mesh(chart: &mut Chart, x: &str, y: &str) -> anyhow::Result<()> {
    chart
        .configure_mesh()
        .light_line_style(GRID)
        .bold_line_style(GRID.mix(1.0))
        .x_desc(x)
        .y_desc(y)
        .x_labels(8)
        .y_labels(7)
        .x_label_formatter(&|v| short_number(*v))
        .y_label_formatter(&|v| short_number(*v))
        .label_style((FONT, 15).into_font().color(&AXIS_TEXT))
        .axis_desc_style((FONT, 15).into_font().color(&AXIS_TEXT))
        .draw()
        .map_err(plot_error)
}

fn legend<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    position: SeriesLabelPosition,
) -> anyhow::Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(GRID)
        .label_font((FONT, 15))
        .draw()
        .map_err(plot_error)
}

/// Axis numbers without trailing zeros: 1500 → "1500", 12000 → "12k", 0.25 → "0.25".
fn short_number(v: f64) -> String {
    let a = v.abs();
    if a >= 10_000.0 {
        format!("{}k", trim(v / 1000.0, 1))
    } else if a >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else if a >= 1.0 {
        trim(v, 1)
    } else {
        trim(v, 2)
    }
}

fn trim(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points() -> Vec<RunningPoint> {
        (1..=50)
            .map(|i| RunningPoint {
                games: 2 * i,
                llr: Some(i as f64 * 0.05),
                elo: Some(10.0),
                elo_err95: Some(200.0 / (i as f64).sqrt()),
            })
            .collect()
    }

    #[test]
    fn plots_are_svg_with_their_titles() {
        let p = points();
        let runs = [RunLine {
            label: "run",
            points: &p,
        }];
        let llr = llr_plot(&runs, Some((-2.94, 2.94))).unwrap();
        assert!(
            llr.starts_with("<svg") && llr.contains("log-likelihood"),
            "{llr}"
        );
        assert!(llr.contains("accept H1 (2.94)"));
        let elo = elo_plot(&runs).unwrap();
        assert!(
            elo.contains("<polygon") || elo.contains("<path"),
            "band missing"
        );
    }

    #[test]
    fn empty_data_draws_a_message_not_an_error() {
        let llr = llr_plot(
            &[RunLine {
                label: "x",
                points: &[],
            }],
            None,
        )
        .unwrap();
        assert!(llr.contains("no SPRT"));
        let effort = effort_histogram(&[], Effort::Nodes).unwrap();
        assert!(effort.contains("not recorded"));
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short_number(12000.0), "12k");
        assert_eq!(short_number(1500.0), "1500");
        assert_eq!(short_number(2.5), "2.5");
        assert_eq!(short_number(-0.25), "-0.25");
    }
}

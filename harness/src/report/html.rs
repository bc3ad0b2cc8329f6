//! `report.html`: one self-contained page (inline CSS and SVG, no scripts, no network).

use std::fmt::Write as _;

use super::analysis::{Analysis, Wdl, termination_label};
use super::load::SpsaRun;
use super::markdown::{GAMES_PER_OPENING, LOPSIDED_SHOWN};
use super::plots::{self, Effort, RunLine};
use super::text::{
    Tone, builtin_description, decision, grouped, interval, number, percent, sprt_settings,
    state_word, verdict, wdl_line, with_error,
};
use super::{Comparison, RunReport, tune};

const STYLE: &str = r#"
:root { --fg:#1d2430; --muted:#5b6575; --line:#e3e6eb; --bg:#f6f7f9; --good:#2e7d32; --bad:#c62828; --neutral:#8a6d00; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--fg); font:15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width:1240px; margin:0 auto; padding:24px 28px 40px; }
h1 { font-size:28px; margin:0 0 2px; }
h2 { font-size:19px; margin:30px 0 10px; padding-bottom:4px; border-bottom:2px solid var(--line); }
.run { color:var(--muted); margin:0 0 14px; font-size:14px; }
.verdict { padding:12px 16px; border-radius:8px; font-weight:600; font-size:16px; border-left:6px solid; background:#fff; }
.verdict.good { border-color:var(--good); color:var(--good); }
.verdict.bad { border-color:var(--bad); color:var(--bad); }
.verdict.neutral { border-color:var(--neutral); color:var(--neutral); }
.cards { display:grid; grid-template-columns:repeat(auto-fit, minmax(160px, 1fr)); gap:12px; margin:16px 0 6px; }
.card { background:#fff; border:1px solid var(--line); border-radius:8px; padding:10px 14px; }
.card .k { color:var(--muted); font-size:12px; text-transform:uppercase; letter-spacing:.04em; }
.card .v { font-size:21px; font-weight:650; font-variant-numeric:tabular-nums; white-space:nowrap; }
.card .v.small { font-size:17px; padding-top:3px; }
.card .s { color:var(--muted); font-size:13px; font-variant-numeric:tabular-nums; }
.grid { display:grid; grid-template-columns:repeat(auto-fit, minmax(440px, 1fr)); gap:14px; }
figure { margin:0; background:#fff; border:1px solid var(--line); border-radius:8px; padding:6px; }
figure svg { display:block; width:100%; height:auto; }
table { border-collapse:collapse; background:#fff; border:1px solid var(--line); margin:6px 0 10px; font-variant-numeric:tabular-nums; }
th, td { padding:5px 10px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
th { background:#eef0f3; font-weight:600; font-size:13px; }
td.n, th.n { text-align:right; white-space:nowrap; }
tr:last-child td { border-bottom:none; }
.tables { display:flex; flex-wrap:wrap; gap:20px; align-items:flex-start; }
code, pre { font-family:ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size:12.5px; }
pre { background:#fff; border:1px solid var(--line); border-radius:8px; padding:10px 12px; overflow:auto; }
.fen { font-size:12px; word-break:break-all; }
.win { color:var(--good); font-weight:600; } .loss { color:var(--bad); font-weight:600; }
details { margin:8px 0; } summary { cursor:pointer; color:var(--muted); }
.notes li { color:var(--muted); }
footer { margin-top:30px; color:var(--muted); font-size:12px; }
"#;

/// Escapes text for HTML content and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn page_start(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(title)
    );
}

fn page_end(out: &mut String) {
    let _ = write!(
        out,
        "<footer>Written by <code>harness report</code> (harness {}). Statistics from the first \
         engine's view, as in fastchess; Elo and SPRT as in fishtest.</footer>\n</main>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
}

fn card(out: &mut String, key: &str, value: &str, sub: &str) {
    // Long values (the pentanomial counts) get a smaller font so they fit the card.
    let class = if value.chars().count() > 11 {
        "v small"
    } else {
        "v"
    };
    let _ = writeln!(
        out,
        "<div class=\"card\"><div class=\"k\">{}</div><div class=\"{class}\">{}</div><div class=\"s\">{}</div></div>",
        escape(key),
        escape(value),
        escape(sub)
    );
}

fn figure(out: &mut String, svg: &str) {
    let _ = writeln!(out, "<figure>{svg}</figure>");
}

fn tone_class(tone: Tone) -> &'static str {
    match tone {
        Tone::Good => "good",
        Tone::Bad => "bad",
        Tone::Neutral => "neutral",
    }
}

/// The whole report of one run.
pub fn render(report: &RunReport) -> anyhow::Result<String> {
    let a = &report.analysis;
    let s = &a.summary;
    let mut out = String::with_capacity(256 * 1024);
    page_start(
        &mut out,
        &format!("{} vs {} — match report", a.first, a.second),
    );
    let _ = write!(
        out,
        "<h1>{} <span style=\"color:var(--muted);font-weight:400\">vs</span> {}</h1>\n<p class=\"run\">{}</p>\n",
        escape(&a.first),
        escape(&a.second),
        escape(&run_line(report))
    );
    let (sentence, tone) = verdict(report);
    let _ = writeln!(
        out,
        "<div class=\"verdict {}\">{}</div>",
        tone_class(tone),
        escape(&sentence)
    );

    if let Some(run) = &report.run.spsa {
        spsa_section(&mut out, run)?;
    }
    out.push_str("<section class=\"cards\">\n");
    card(
        &mut out,
        "Elo",
        &with_error(s.elo, s.elo_err95),
        &format!("95% {}", interval(s.elo, s.elo_err95)),
    );
    card(
        &mut out,
        "nElo",
        &with_error(s.nelo, s.nelo_err95),
        &format!("95% {}", interval(s.nelo, s.nelo_err95)),
    );
    card(
        &mut out,
        "LOS",
        &percent(s.los),
        &format!("draw ratio {}", percent(s.draw_ratio)),
    );
    if let Some(sprt) = &a.sprt {
        card(
            &mut out,
            "LLR",
            &number(s.llr, 2),
            &format!(
                "({}, {}) · {} · [{}, {}]",
                number(s.llr_lower, 2),
                number(s.llr_upper, 2),
                state_word(decision(report)),
                sprt.elo0,
                sprt.elo1
            ),
        );
    }
    let t = &a.trinomial;
    card(
        &mut out,
        "Games",
        &grouped(t.wins + t.draws + t.losses),
        &format!("+{} ={} -{}", t.wins, t.draws, t.losses),
    );
    if let Some(p) = &a.pentanomial {
        let c = p.counts;
        card(
            &mut out,
            "Pentanomial",
            &format!("{} {} {} {} {}", c[0], c[1], c[2], c[3], c[4]),
            "LL LD WL+DD WD WW",
        );
    }
    out.push_str("</section>\n");

    let line = [RunLine {
        label: &a.first,
        points: &a.running,
    }];
    let bounds = match (s.llr_lower, s.llr_upper) {
        (Some(lo), Some(hi)) if a.sprt.is_some() => Some((lo, hi)),
        _ => None,
    };
    out.push_str("<h2>Progress</h2>\n<div class=\"grid\">\n");
    if a.sprt.is_some() {
        figure(&mut out, &plots::llr_plot(&line, bounds)?);
    }
    figure(&mut out, &plots::elo_plot(&line)?);
    out.push_str("</div>\n");
    let _ = writeln!(out, "<pre>{}</pre>", escape(s.fastchess_text().trim_end()));

    setup_section(&mut out, report);
    results_section(&mut out, a)?;
    openings_section(&mut out, a);

    if !report.notes.is_empty() {
        out.push_str("<h2>Notes</h2>\n<ul class=\"notes\">\n");
        for note in &report.notes {
            let _ = writeln!(out, "<li>{}</li>", escape(note));
        }
        out.push_str("</ul>\n");
    }
    if let Some(config) = &report.run.config_file {
        let _ = writeln!(
            out,
            "<details><summary>Full configuration ({})</summary><pre>{}</pre></details>",
            escape(&config.file_name),
            escape(&config.text)
        );
    }
    if let Some(summary) = &report.run.summary {
        let json = serde_json::to_string_pretty(summary).unwrap_or_default();
        let _ = writeln!(
            out,
            "<details><summary>summary.json</summary><pre>{}</pre></details>",
            escape(&json)
        );
    }
    page_end(&mut out);
    Ok(out)
}

/// A tune folder's trajectories and each parameter's start and end.
fn spsa_section(out: &mut String, run: &SpsaRun) -> anyhow::Result<()> {
    let _ = writeln!(
        out,
        "<h2>SPSA tune</h2>\n<p>{} iterations applied of {}, {} games (plus vs minus below).</p>\n<div class=\"grid\">",
        run.steps.len(),
        run.spec.settings.iterations,
        grouped(tune::games(run))
    );
    figure(out, &plots::spsa_trajectories(&tune::trajectories(run))?);
    out.push_str(
        "<table><tr><th>parameter</th><th class=\"n\">start</th><th class=\"n\">tuned</th>\
         <th class=\"n\">θ</th><th class=\"n\">range</th><th class=\"n\">moved</th></tr>\n",
    );
    for m in tune::moves(run) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}</td><td class=\"n\">[{}, {}]</td><td class=\"n\">{:+.1} %</td></tr>",
            escape(&m.name),
            m.start,
            m.tuned,
            m.theta,
            m.min,
            m.max,
            100.0 * m.moved()
        );
    }
    out.push_str("</table>\n</div>\n");
    Ok(())
}

fn run_line(report: &RunReport) -> String {
    let mut parts = vec![format!("run {}", report.run.name())];
    if let Some(tc) = &report.setup.time_control {
        parts.push(format!("time control {tc}"));
    }
    if let Some(wall) = report.run.summary.as_ref().map(|s| s.wall_seconds) {
        parts.push(format!("{wall:.1} s wall time"));
    }
    if report.analysis.unpaired_games > 0 {
        parts.push(format!(
            "{} games of unfinished pairs left out",
            report.analysis.unpaired_games
        ));
    }
    parts.join(" · ")
}

fn setup_section(out: &mut String, report: &RunReport) {
    let setup = &report.setup;
    out.push_str("<h2>Engines and settings</h2>\n<div class=\"tables\">\n");
    if !setup.engines.is_empty() {
        out.push_str("<table><tr><th>engine</th><th>details</th></tr>\n");
        for e in &setup.engines {
            let mut details = Vec::new();
            if let Some(r) = &e.revision {
                details.push(format!("revision <code>{}</code>", escape(r)));
            }
            if let Some(b) = &e.bench {
                details.push(format!("bench {}", escape(b)));
            }
            if let Some(c) = &e.command {
                details.push(format!("command <code>{}</code>", escape(c)));
            }
            if let Some(l) = &e.limits {
                details.push(format!("limits {}", escape(l)));
            }
            if let Some(p) = &e.params_problem {
                details.push(format!("parameters unknown: {}", escape(p)));
            }
            if details.is_empty()
                && let Some(params) = &e.params
            {
                details.push(escape(&builtin_description(params)));
            }
            let _ = writeln!(
                out,
                "<tr><td><b>{}</b></td><td>{}</td></tr>",
                escape(&e.name),
                details.join("<br>")
            );
        }
        out.push_str("</table>\n");
    }
    match setup.param_differences() {
        Some(diff) if diff.is_empty() => {
            out.push_str("<p>The two engines have the same parameters.</p>\n");
        }
        Some(diff) => {
            let _ = writeln!(
                out,
                "<table><tr><th>parameter</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">default</th></tr>",
                escape(&setup.engines[0].name),
                escape(&setup.engines[1].name)
            );
            for d in diff {
                let _ = writeln!(
                    out,
                    "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                    escape(&d.name),
                    d.first,
                    d.second,
                    d.default
                );
            }
            out.push_str("</table>\n");
        }
        None => {}
    }
    let mut rows: Vec<(String, String)> = Vec::new();
    if let Some(tc) = &setup.time_control {
        rows.push(("time control".into(), tc.clone()));
    }
    if let Some(book) = &setup.book {
        rows.push(("book".into(), book.clone()));
    }
    if let Some(sprt) = &report.analysis.sprt {
        rows.push(("SPRT".into(), sprt_settings(sprt)));
    }
    if !rows.is_empty() {
        out.push_str("<table><tr><th>setting</th><th>value</th></tr>\n");
        for (k, v) in rows {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td></tr>",
                escape(&k),
                escape(&v)
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("</div>\n");
    // The rest (seed, concurrency, the command line...) is for the record: folded away.
    if !setup.other.is_empty() {
        out.push_str("<details><summary>Other settings</summary><table>\n");
        for (k, v) in &setup.other {
            let _ = writeln!(out, "<tr><td>{}</td><td>{}</td></tr>", escape(k), escape(v));
        }
        out.push_str("</table></details>\n");
    }
}

fn wdl_row(out: &mut String, label: &str, wdl: &Wdl) {
    let _ = writeln!(
        out,
        "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
        escape(label),
        wdl.games(),
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.score_percent()
            .map_or("n/a".into(), |s| format!("{s:.1} %"))
    );
}

fn results_section(out: &mut String, a: &Analysis) -> anyhow::Result<()> {
    let first = escape(&a.first);
    out.push_str("<h2>Results by colour and termination</h2>\n<div class=\"grid\">\n");
    let colour_rows = vec![
        (format!("{} as white", a.first), a.first_as_white),
        (format!("{} as black", a.first), a.first_as_black),
    ];
    figure(out, &plots::wdl_bars("By colour", &colour_rows, &a.first)?);
    let termination_rows: Vec<(String, Wdl)> = a
        .terminations
        .iter()
        .map(|t| (t.label.clone(), t.wdl))
        .collect();
    figure(
        out,
        &plots::wdl_bars("By termination", &termination_rows, &a.first)?,
    );
    out.push_str("</div>\n<div class=\"tables\">\n");
    let _ = writeln!(
        out,
        "<table><tr><th></th><th class=\"n\">games</th><th class=\"n\">{first} wins</th><th class=\"n\">draws</th><th class=\"n\">{first} losses</th><th class=\"n\">score</th></tr>"
    );
    for (label, wdl) in &colour_rows {
        wdl_row(out, label, wdl);
    }
    let _ = writeln!(
        out,
        "<tr><td>white, either engine</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
        a.white_view.games(),
        a.white_view.wins,
        a.white_view.draws,
        a.white_view.losses,
        a.white_view
            .score_percent()
            .map_or("n/a".into(), |s| format!("{s:.1} %"))
    );
    out.push_str("</table>\n");
    let _ = writeln!(
        out,
        "<table><tr><th>termination</th><th class=\"n\">games</th><th class=\"n\">{first} wins</th><th class=\"n\">draws</th><th class=\"n\">{first} losses</th><th class=\"n\">{first} score</th></tr>"
    );
    for (label, wdl) in &termination_rows {
        wdl_row(out, label, wdl);
    }
    out.push_str("</table>\n</div>\n");

    out.push_str("<h2>Game length and search effort</h2>\n<div class=\"grid\">\n");
    figure(out, &plots::length_histogram(&a.lengths)?);
    let has_time = a.effort.iter().any(|e| e.time_ms > 0);
    let has_nodes = a.effort.iter().any(|e| e.nodes > 0);
    if has_nodes {
        figure(out, &plots::effort_histogram(&a.effort, Effort::Nodes)?);
    }
    if has_time {
        figure(
            out,
            &plots::effort_histogram(&a.effort, Effort::Milliseconds)?,
        );
    }
    out.push_str("</div>\n");
    let _ = write!(
        out,
        "<p>Mean game length: {} moves (book moves included).</p>\n<table><tr><th>engine</th><th class=\"n\">moves</th><th class=\"n\">nodes per move</th><th class=\"n\">ms per move</th><th class=\"n\">nodes per second</th></tr>\n",
        number(a.mean_moves, 1)
    );
    for e in &a.effort {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(&e.name),
            grouped(e.moves),
            e.nodes_per_move()
                .map_or("n/a".into(), |n| grouped(n.round() as u64)),
            number(e.ms_per_move(), 2),
            e.nps().map_or("n/a".into(), |n| grouped(n as u64))
        );
    }
    out.push_str("</table>\n");
    Ok(())
}

fn openings_section(out: &mut String, a: &Analysis) {
    let first = escape(&a.first);
    out.push_str("<h2>Most lopsided openings</h2>\n");
    if a.lopsided.is_empty() {
        out.push_str("<p>Every opening's pairs came out even.</p>\n");
        return;
    }
    let _ = writeln!(
        out,
        "<p>{}</p>\n\
         <table><tr><th class=\"n\">opening</th><th>FEN</th><th class=\"n\">pairs</th><th class=\"n\">net</th><th>games ({first}'s colour, result, termination, plies)</th></tr>",
        super::text::lopsided_explanation(&first)
    );
    for o in a.lopsided.iter().take(LOPSIDED_SHOWN) {
        let mut games: Vec<String> = o
            .games
            .iter()
            .take(GAMES_PER_OPENING)
            .map(|g| {
                format!(
                    "#{} {} {} · {} · {}",
                    g.game,
                    if g.first_is_white { "white" } else { "black" },
                    g.result,
                    escape(&termination_label(&g.termination)),
                    g.plies
                )
            })
            .collect();
        if o.games.len() > GAMES_PER_OPENING {
            games.push(format!(
                "and {} more games",
                o.games.len() - GAMES_PER_OPENING
            ));
        }
        let _ = writeln!(
            out,
            "<tr><td class=\"n\">{}</td><td class=\"fen\"><code>{}</code></td><td class=\"n\">{}</td><td class=\"n {}\">{:+}</td><td>{}</td></tr>",
            o.opening_index,
            escape(&o.opening_fen),
            o.pairs,
            if o.net > 0.0 { "win" } else { "loss" },
            o.net,
            games.join("<br>")
        );
    }
    out.push_str("</table>\n");
}

/// The page comparing several runs: one row per run and the plots overlaid.
pub fn render_comparison(comparison: &Comparison) -> anyhow::Result<String> {
    let mut out = String::with_capacity(256 * 1024);
    page_start(&mut out, "Comparison of runs");
    let _ = write!(
        out,
        "<h1>Comparison of {} runs</h1>\n<p class=\"run\">Each run's numbers are from its first engine's view. Colours match the plots.</p>\n",
        comparison.runs.len()
    );
    out.push_str(
        "<table><tr><th>run</th><th>engines</th><th class=\"n\">games</th><th>W / D / L</th><th>pentanomial</th>\
         <th class=\"n\">Elo</th><th class=\"n\">nElo</th><th class=\"n\">LOS</th><th class=\"n\">LLR</th><th>SPRT</th></tr>\n",
    );
    for (i, r) in comparison.runs.iter().enumerate() {
        let a = &r.analysis;
        let s = &a.summary;
        let colour = plots::PALETTE[i % plots::PALETTE.len()];
        let _ = writeln!(
            out,
            "<tr><td><span style=\"color:rgb({},{},{})\">■</span> {}</td><td>{} vs {}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            colour.0,
            colour.1,
            colour.2,
            escape(&r.run.name()),
            escape(&a.first),
            escape(&a.second),
            grouped(a.trinomial.wins + a.trinomial.draws + a.trinomial.losses),
            escape(&wdl_line(&Wdl {
                wins: a.trinomial.wins,
                draws: a.trinomial.draws,
                losses: a.trinomial.losses
            })),
            a.pentanomial
                .as_ref()
                .map_or("n/a".into(), |p| format!("{:?}", p.counts)),
            escape(&with_error(s.elo, s.elo_err95)),
            escape(&with_error(s.nelo, s.nelo_err95)),
            percent(s.los),
            number(s.llr, 2),
            a.sprt.as_ref().map_or("no SPRT".into(), |sp| format!(
                "{} [{}, {}]",
                state_word(decision(r)),
                sp.elo0,
                sp.elo1
            ))
        );
    }
    out.push_str("</table>\n");
    let names: Vec<String> = comparison.runs.iter().map(|r| r.run.name()).collect();
    let lines: Vec<RunLine> = comparison
        .runs
        .iter()
        .zip(&names)
        .map(|(r, name)| RunLine {
            label: name,
            points: &r.analysis.running,
        })
        .collect();
    let bounds = comparison.runs.iter().find_map(|r| {
        let s = &r.analysis.summary;
        match (s.llr_lower, s.llr_upper) {
            (Some(lo), Some(hi)) if r.analysis.sprt.is_some() => Some((lo, hi)),
            _ => None,
        }
    });
    let lengths: Vec<(&str, &[_])> = comparison
        .runs
        .iter()
        .zip(&names)
        .map(|(r, name)| (name.as_str(), r.analysis.lengths.as_slice()))
        .collect();
    out.push_str("<div class=\"grid\">\n");
    figure(&mut out, &plots::llr_plot(&lines, bounds)?);
    figure(&mut out, &plots::elo_plot(&lines)?);
    figure(&mut out, &plots::length_overlay(&lengths)?);
    out.push_str("</div>\n");
    page_end(&mut out);
    Ok(out)
}

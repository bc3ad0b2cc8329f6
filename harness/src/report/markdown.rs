//! `report.md`: the report as Markdown tables (the plots are in report.html).

use std::fmt::Write as _;

use super::analysis::{Analysis, termination_label};
use super::load::SpsaRun;
use super::text::{
    builtin_description, decision, grouped, interval, number, percent, sprt_settings, state_word,
    verdict, wdl_line, with_error,
};
use super::{RunReport, tune};

/// How many lopsided openings the reports list.
pub const LOPSIDED_SHOWN: usize = 10;
/// How many games of one opening the lopsided-openings table lists.
pub const GAMES_PER_OPENING: usize = 4;

/// Escapes the characters that would break a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The whole report of one run.
pub fn render(report: &RunReport) -> String {
    let a = &report.analysis;
    let mut md = String::new();
    let _ = writeln!(md, "# {} vs {}\n", cell(&a.first), cell(&a.second));
    let _ = writeln!(md, "Run `{}`.\n", report.run.name());
    let _ = writeln!(md, "**{}**\n", verdict(report).0);
    if let Some(run) = &report.run.spsa {
        spsa_section(&mut md, run);
    }
    results_section(&mut md, report);
    setup_section(&mut md, report);
    breakdown_sections(&mut md, a);
    if !report.notes.is_empty() {
        let _ = writeln!(md, "## Notes\n");
        for note in &report.notes {
            let _ = writeln!(md, "- {}", cell(note));
        }
        md.push('\n');
    }
    let _ = writeln!(
        md,
        "Plots of the LLR, the Elo estimate, results, game lengths and search effort: see report.html.\n"
    );
    md
}

/// A tune folder's parameters: start, end, range and how far each moved.
fn spsa_section(md: &mut String, run: &SpsaRun) {
    let _ = writeln!(
        md,
        "## SPSA tune\n\n{} iterations applied of {}, {} games; trajectories in report.html and trajectory.svg.\n",
        run.steps.len(),
        run.spec.settings.iterations,
        grouped(tune::games(run))
    );
    let _ = writeln!(
        md,
        "| parameter | start | tuned | θ | range | moved |\n|---|--:|--:|--:|--:|--:|"
    );
    for m in tune::moves(run) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.2} | [{}, {}] | {:+.1} % |",
            cell(&m.name),
            m.start,
            m.tuned,
            m.theta,
            m.min,
            m.max,
            100.0 * m.moved()
        );
    }
    md.push('\n');
}

fn results_section(md: &mut String, report: &RunReport) {
    let a = &report.analysis;
    let s = &a.summary;
    let _ = writeln!(md, "## Results ({}'s view)\n", cell(&a.first));
    let _ = writeln!(md, "| | |\n|---|---|");
    let _ = writeln!(
        md,
        "| Games | {} |",
        grouped(a.trinomial.wins + a.trinomial.draws + a.trinomial.losses)
    );
    let _ = writeln!(
        md,
        "| Wins / draws / losses | {} / {} / {} |",
        a.trinomial.wins, a.trinomial.draws, a.trinomial.losses
    );
    if let Some(p) = &a.pentanomial {
        let c = p.counts;
        let _ = writeln!(
            md,
            "| Pentanomial [LL, LD, WL+DD, WD, WW] | [{}, {}, {}, {}, {}] |",
            c[0], c[1], c[2], c[3], c[4]
        );
    }
    let _ = writeln!(
        md,
        "| Elo | {} (95% {}) |",
        with_error(s.elo, s.elo_err95),
        interval(s.elo, s.elo_err95)
    );
    let _ = writeln!(
        md,
        "| nElo | {} (95% {}) |",
        with_error(s.nelo, s.nelo_err95),
        interval(s.nelo, s.nelo_err95)
    );
    let _ = writeln!(md, "| LOS | {} |", percent(s.los));
    let _ = writeln!(md, "| Draw ratio | {} |", percent(s.draw_ratio));
    if let Some(sprt) = &a.sprt {
        let _ = writeln!(
            md,
            "| LLR | {} in ({}, {}) for {} |",
            number(s.llr, 2),
            number(s.llr_lower, 2),
            number(s.llr_upper, 2),
            sprt_settings(sprt)
        );
        let _ = writeln!(md, "| SPRT | {} |", state_word(decision(report)));
    }
    if a.unpaired_games > 0 {
        let _ = writeln!(
            md,
            "| Left out | {} games of unfinished pairs |",
            a.unpaired_games
        );
    }
    if let Some(wall) = report.run.summary.as_ref().map(|s| s.wall_seconds) {
        let _ = writeln!(md, "| Wall time | {wall:.1} s |");
    }
    let _ = writeln!(md, "\n```text\n{}\n```\n", s.fastchess_text().trim_end());
}

fn setup_section(md: &mut String, report: &RunReport) {
    let setup = &report.setup;
    let _ = writeln!(md, "## Engines and settings\n");
    if !setup.engines.is_empty() {
        let _ = writeln!(md, "| engine | details |\n|---|---|");
        for e in &setup.engines {
            let mut details = Vec::new();
            if let Some(r) = &e.revision {
                details.push(format!("revision {r}"));
            }
            if let Some(b) = &e.bench {
                details.push(format!("bench {b}"));
            }
            if let Some(c) = &e.command {
                details.push(format!("command `{c}`"));
            }
            if let Some(l) = &e.limits {
                details.push(format!("limits {l}"));
            }
            if let Some(p) = &e.params_problem {
                details.push(format!("parameters unknown: {p}"));
            }
            if details.is_empty()
                && let Some(params) = &e.params
            {
                details.push(builtin_description(params));
            }
            let _ = writeln!(md, "| {} | {} |", cell(&e.name), cell(&details.join("; ")));
        }
        md.push('\n');
    }
    match setup.param_differences() {
        Some(diff) if diff.is_empty() => {
            let _ = writeln!(md, "The two engines have the same parameters.\n");
        }
        Some(diff) => {
            let (a, b) = (&setup.engines[0].name, &setup.engines[1].name);
            let _ = writeln!(
                md,
                "| parameter | {} | {} | default |\n|---|--:|--:|--:|",
                cell(a),
                cell(b)
            );
            for d in diff {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} |",
                    d.name, d.first, d.second, d.default
                );
            }
            md.push('\n');
        }
        None => {}
    }
    let mut lines = Vec::new();
    if let Some(tc) = &setup.time_control {
        lines.push(format!("Time control: {tc}"));
    }
    if let Some(book) = &setup.book {
        lines.push(format!("Book: {book}"));
    }
    if let Some(sprt) = &report.analysis.sprt {
        lines.push(format!("SPRT: {}", sprt_settings(sprt)));
    }
    for (k, v) in &setup.other {
        lines.push(format!("{k}: {v}"));
    }
    for line in lines {
        let _ = writeln!(md, "- {}", cell(&line));
    }
    md.push('\n');
}

fn breakdown_sections(md: &mut String, a: &Analysis) {
    let first = cell(&a.first);
    let _ = writeln!(md, "## By colour\n");
    let _ = writeln!(
        md,
        "| {first} plays | games | results (+win =draw -loss, score) |\n|---|--:|---|"
    );
    let _ = writeln!(
        md,
        "| white | {} | {} |",
        a.first_as_white.games(),
        wdl_line(&a.first_as_white)
    );
    let _ = writeln!(
        md,
        "| black | {} | {} |",
        a.first_as_black.games(),
        wdl_line(&a.first_as_black)
    );
    let _ = writeln!(
        md,
        "| (white's results, either engine) | {} | {} |\n",
        a.white_view.games(),
        wdl_line(&a.white_view)
    );

    let _ = writeln!(md, "## By termination\n");
    let _ = writeln!(
        md,
        "| termination | games | {first} wins | draws | {first} losses |\n|---|--:|--:|--:|--:|"
    );
    for t in &a.terminations {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            cell(&t.label),
            t.wdl.games(),
            t.wdl.wins,
            t.wdl.draws,
            t.wdl.losses
        );
    }
    md.push('\n');

    let _ = writeln!(md, "## Game length\n");
    let _ = writeln!(
        md,
        "Mean: {} moves (book moves included).\n",
        number(a.mean_moves, 1)
    );
    let _ = writeln!(md, "| moves | decisive | draws |\n|---|--:|--:|");
    for b in a.lengths.iter().filter(|b| b.decisive + b.draws > 0) {
        let _ = writeln!(
            md,
            "| {}–{} | {} | {} |",
            b.from_moves,
            b.to_moves - 1,
            b.decisive,
            b.draws
        );
    }
    md.push('\n');

    let _ = writeln!(md, "## Search effort\n");
    let _ = writeln!(
        md,
        "| engine | moves | nodes per move | ms per move | nodes per second |\n|---|--:|--:|--:|--:|"
    );
    for e in &a.effort {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            cell(&e.name),
            grouped(e.moves),
            number(e.nodes_per_move(), 0),
            number(e.ms_per_move(), 2),
            e.nps().map_or("n/a".into(), |n| grouped(n as u64))
        );
    }
    md.push('\n');

    let _ = writeln!(md, "## Most lopsided openings\n");
    if a.lopsided.is_empty() {
        let _ = writeln!(md, "Every opening's pairs came out even.\n");
        return;
    }
    let _ = writeln!(md, "{}\n", super::text::lopsided_explanation(&first));
    let _ = writeln!(
        md,
        "| opening | FEN | pairs | {first} points | net | games |\n|--:|---|--:|--:|--:|---|"
    );
    for o in a.lopsided.iter().take(LOPSIDED_SHOWN) {
        let mut games: Vec<String> = o
            .games
            .iter()
            .take(GAMES_PER_OPENING)
            .map(|g| {
                format!(
                    "#{} {} {} ({}, {} plies)",
                    g.game,
                    if g.first_is_white {
                        "as white"
                    } else {
                        "as black"
                    },
                    g.result,
                    termination_label(&g.termination),
                    g.plies
                )
            })
            .collect();
        if o.games.len() > GAMES_PER_OPENING {
            games.push(format!("and {} more", o.games.len() - GAMES_PER_OPENING));
        }
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | {} | {:+} | {} |",
            o.opening_index,
            cell(&o.opening_fen),
            o.pairs,
            o.points,
            o.net,
            cell(&games.join("; "))
        );
    }
    md.push('\n');
}

/// The comparison of several runs: one row per run.
pub fn render_comparison(comparison: &super::Comparison) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Comparison of {} runs\n", comparison.runs.len());
    let _ = writeln!(
        md,
        "Each run's numbers are from its first engine's view. Overlaid plots: compare.html.\n"
    );
    let _ = writeln!(
        md,
        "| run | engines | games | W / D / L | pentanomial | Elo | nElo | LOS | LLR | SPRT |\n|---|---|--:|---|---|--:|--:|--:|--:|---|"
    );
    for r in &comparison.runs {
        let a = &r.analysis;
        let s = &a.summary;
        let t = &a.trinomial;
        let _ = writeln!(
            md,
            "| {} | {} vs {} | {} | {} / {} / {} | {} | {} | {} | {} | {} | {} |",
            cell(&r.run.name()),
            cell(&a.first),
            cell(&a.second),
            grouped(t.wins + t.draws + t.losses),
            t.wins,
            t.draws,
            t.losses,
            a.pentanomial
                .as_ref()
                .map_or("n/a".into(), |p| format!("{:?}", p.counts)),
            with_error(s.elo, s.elo_err95),
            with_error(s.nelo, s.nelo_err95),
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
    md
}

//! `harness elo`: Elo, nElo, LOS and the SPRT from counts or a results folder, printed in
//! fastchess's report format or as one JSON object.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use crate::output::counts;
use crate::output::read_games_csv;
use crate::stats::{EloModel, Pentanomial, SprtConfig, Trinomial, summarize};
use crate::usage_bail;

/// Options of `harness elo`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Give exactly one of: --wins/--draws/--losses (missing ones are 0), \
--ptnml, or --results. Statistics are from the first engine's view and computed as fishtest \
does (pentanomial when pairs are known). With --ptnml alone the Wins/Losses/Draws line counts \
every WL+DD pair as two draws (games and points are exact)."
)]
pub struct EloArgs {
    /// Games won by the first engine.
    #[arg(long, allow_negative_numbers = true, value_name = "W")]
    pub wins: Option<String>,
    /// Games drawn.
    #[arg(long, allow_negative_numbers = true, value_name = "D")]
    pub draws: Option<String>,
    /// Games lost by the first engine.
    #[arg(long, allow_negative_numbers = true, value_name = "L")]
    pub losses: Option<String>,
    /// Pair counts low to high: LL,LD,WL+DD,WD,WW (fastchess's Ptnml(0-2)).
    #[arg(long, allow_hyphen_values = true, value_name = "a,b,c,d,e")]
    pub ptnml: Option<String>,
    /// A match results folder: summarise its games.csv (complete pairs give the pentanomial).
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// With --results: whose view to take (default: the first engine of summary.json, else
    /// White of the first game).
    #[arg(long, value_name = "NAME", requires = "results")]
    pub engine: Option<String>,
    /// SPRT H0 bound.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// SPRT H1 bound.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub beta: f64,
    /// Unit of the SPRT bounds: normalized, logistic or bayeselo.
    #[arg(long, default_value = "normalized", value_parser = parse_model)]
    pub model: EloModel,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
}

fn parse_model(s: &str) -> Result<EloModel, String> {
    s.parse()
}

/// Runs `harness elo`.
pub fn run(args: EloArgs) -> anyhow::Result<ExitCode> {
    let sprt = SprtConfig {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
        model: args.model,
    };
    if let Err(err) = sprt.validate() {
        usage_bail!("{err}");
    }
    let given_wdl = args.wins.is_some() || args.draws.is_some() || args.losses.is_some();
    let sources = [given_wdl, args.ptnml.is_some(), args.results.is_some()];
    match sources.iter().filter(|&&s| s).count() {
        0 => usage_bail!(
            "give the results: --wins/--draws/--losses, --ptnml a,b,c,d,e or --results DIR"
        ),
        1 => {}
        _ => usage_bail!("give only one of --wins/--draws/--losses, --ptnml and --results"),
    }

    let mut header = None;
    let (tri, ptnml) = if let Some(text) = &args.ptnml {
        let p = parse_ptnml(text)?;
        if args.model == EloModel::BayesElo {
            usage_bail!(
                "the bayeselo model needs win/draw/loss counts (its draw Elo comes from them); \
                 use --wins/--draws/--losses or --results"
            );
        }
        (p.trinomial_if_middle_drawn(), Some(p))
    } else if let Some(dir) = &args.results {
        let results = read_results(dir, args.engine.as_deref())?;
        header = Some(format!(
            "Results of {} vs {}:",
            results.engine, results.opponent
        ));
        (results.trinomial, Some(results.pentanomial))
    } else {
        let wins = parse_count("--wins", args.wins.as_deref())?;
        let draws = parse_count("--draws", args.draws.as_deref())?;
        let losses = parse_count("--losses", args.losses.as_deref())?;
        (Trinomial::new(wins, draws, losses), None)
    };
    check_total(&tri)?;

    let summary = summarize(&tri, ptnml.as_ref(), Some(&sprt));
    if args.json {
        println!("{}", summary.to_json());
    } else {
        if let Some(h) = header {
            println!("{h}");
        }
        print!("{}", summary.fastchess_text());
    }
    Ok(ExitCode::SUCCESS)
}

fn parse_count(option: &str, value: Option<&str>) -> anyhow::Result<u64> {
    let Some(text) = value else { return Ok(0) };
    let text = text.trim();
    match text.parse::<u64>() {
        Ok(n) => Ok(n),
        Err(_) if text.parse::<i128>().is_ok_and(|n| n < 0) => {
            usage_bail!("{option} {text}: counts cannot be negative")
        }
        Err(_) => usage_bail!("{option} {text}: expected a non-negative whole number"),
    }
}

fn parse_ptnml(text: &str) -> anyhow::Result<Pentanomial> {
    let cells: Vec<&str> = text.split(',').map(str::trim).collect();
    if cells.len() != 5 {
        usage_bail!(
            "--ptnml {text}: expected 5 comma-separated pair counts LL,LD,WL+DD,WD,WW, got {}",
            cells.len()
        );
    }
    let mut counts = [0u64; 5];
    for (slot, cell) in counts.iter_mut().zip(&cells) {
        *slot = parse_count("--ptnml", Some(cell))?;
    }
    let p = Pentanomial::new(counts);
    if counts
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c)?.checked_add(c))
        .is_none()
    {
        usage_bail!("--ptnml {text}: counts too large");
    }
    Ok(p)
}

fn check_total(tri: &Trinomial) -> anyhow::Result<()> {
    let total = tri
        .wins
        .checked_add(tri.draws)
        .and_then(|s| s.checked_add(tri.losses));
    if total.is_none() {
        usage_bail!("counts too large: their total does not fit in 64 bits");
    }
    Ok(())
}

/// Counts from a results folder, from `engine`'s view.
#[derive(Debug, Clone, PartialEq)]
pub struct FolderResults {
    pub engine: String,
    pub opponent: String,
    pub trinomial: Trinomial,
    pub pentanomial: Pentanomial,
}

/// Reads `dir/games.csv`. The view is `engine`'s, else the first name in `dir/summary.json`'s
/// `engines`, else White's of the first game of the first pair. A pair counts in the
/// pentanomial only when both its games have a result; every finished game counts in the
/// trinomial. Unfinished games (result `*`) and a last line cut off mid-write are left out
/// with a note on stderr.
pub fn read_results(dir: &Path, engine: Option<&str>) -> anyhow::Result<FolderResults> {
    let path = dir.join("games.csv");
    if !path.is_file() {
        usage_bail!(
            "{}: no such file (is {} a match results folder?)",
            path.display(),
            dir.display()
        );
    }
    let found = read_games_csv(&path)?;
    if let Some(cut_off) = &found.cut_off {
        eprintln!("note: {}", cut_off.note);
    }
    let rows = found.rows;
    if rows.is_empty() {
        usage_bail!("{}: no games", path.display());
    }
    if let Some(name) = engine
        && !rows.iter().any(|r| r.white == name || r.black == name)
    {
        usage_bail!("{}: engine '{name}' played no game", path.display());
    }
    let declared = engine
        .map(str::to_owned)
        .or_else(|| first_engine_in_summary(dir));
    let first = counts::first_engine(&rows, declared.as_deref()).unwrap_or_default();
    let counts = counts::count_first_engine(&rows, &first, |_, _| {})
        .with_context(|| path.display().to_string())?;
    if counts.unfinished > 0 {
        eprintln!(
            "note: {}: {} unfinished games (result *) left out",
            path.display(),
            counts.unfinished
        );
    }
    Ok(FolderResults {
        engine: counts.first,
        opponent: counts.second,
        trinomial: counts.trinomial,
        pentanomial: counts.pentanomial,
    })
}

/// The first engine named in `summary.json` (`"engines": ["A", ..]` or `[{"name": "A"}, ..]`).
fn first_engine_in_summary(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("summary.json")).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    let first = value.get("engines")?.get(0)?;
    first
        .as_str()
        .or_else(|| first.get("name")?.as_str())
        .map(str::to_owned)
}

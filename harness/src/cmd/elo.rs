//! `harness elo`: Elo, nElo, LOS and the SPRT from counts or a results folder, printed in
//! fastchess's report format or as one JSON object.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::report::load::load_run;
use crate::scoreboard::Scoreboard;
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
    #[arg(long, allow_negative_numbers = true)]
    pub elo0: Option<f64>,
    /// SPRT H1 bound.
    #[arg(long, allow_negative_numbers = true)]
    pub elo1: Option<f64>,
    /// SPRT false-positive rate.
    #[arg(long, allow_negative_numbers = true)]
    pub alpha: Option<f64>,
    /// SPRT false-negative rate.
    #[arg(long, allow_negative_numbers = true)]
    pub beta: Option<f64>,
    /// Unit of the SPRT bounds: normalized, logistic or bayeselo.
    #[arg(long, value_parser = parse_model)]
    pub model: Option<EloModel>,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
}

fn parse_model(s: &str) -> Result<EloModel, String> {
    s.parse()
}

/// Runs `harness elo`.
pub fn run(args: EloArgs) -> anyhow::Result<ExitCode> {
    // A results folder's own SPRT bounds, unless overridden; else H0 0, H1 5 normalized Elo.
    let folder = args.results.as_deref().map(load_run).transpose()?;
    let saved = folder
        .as_ref()
        .and_then(|f| f.config.as_ref()?.sprt.as_ref()?.config().ok());
    let sprt = SprtConfig {
        elo0: args.elo0.or(saved.map(|s| s.elo0)).unwrap_or(0.0),
        elo1: args.elo1.or(saved.map(|s| s.elo1)).unwrap_or(5.0),
        alpha: args.alpha.or(saved.map(|s| s.alpha)).unwrap_or(0.05),
        beta: args.beta.or(saved.map(|s| s.beta)).unwrap_or(0.05),
        model: args.model.or(saved.map(|s| s.model)).unwrap_or_default(),
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
        if sprt.model == EloModel::BayesElo {
            usage_bail!(
                "the bayeselo model needs win/draw/loss counts (its draw Elo comes from them); \
                 use --wins/--draws/--losses or --results"
            );
        }
        (p.trinomial_if_middle_drawn(), Some(p))
    } else if let Some(folder) = &folder {
        let results = folder_results(folder, args.engine.as_deref())?;
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

/// The folder's counts, as its scoreboard has them (the first engine of the match, complete
/// pairs only), from `engine`'s view when given. What the scoreboard skipped is noted on
/// stderr, row by row.
fn folder_results(
    folder: &crate::report::load::RunFolder,
    engine: Option<&str>,
) -> anyhow::Result<FolderResults> {
    for note in &folder.notes {
        eprintln!("note: {note}");
    }
    let path = folder.dir.join("games.csv");
    if folder.games.is_empty() && folder.board.half_pair_games() == 0 {
        usage_bail!("{}: no games", path.display());
    }
    let board = match engine {
        None => folder.board.clone(),
        Some(name) if name == folder.board.first() => folder.board.clone(),
        Some(name) if name == folder.board.second() => {
            let mut swapped = Scoreboard::new(name, folder.board.first(), None);
            for row in &folder.games {
                swapped.add(row, None);
            }
            swapped
        }
        Some(name) => usage_bail!("{}: engine '{name}' played no game", path.display()),
    };
    Ok(FolderResults {
        engine: board.first().to_string(),
        opponent: board.second().to_string(),
        trinomial: *board.trinomial(),
        pentanomial: *board.pentanomial(),
    })
}

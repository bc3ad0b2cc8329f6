//! fastchess and cutechess-cli spellings of `harness match` options (`-engine`, `-each`,
//! `-rounds` ...) and the grouping of each `--engine`'s keys, applied before clap parses.

/// fastchess/cutechess single-dash options and their names here.
const SINGLE_DASH: &[(&str, &str)] = &[
    ("-engine", "--engine"),
    ("-each", "--each"),
    ("-openings", "--openings"),
    ("-games", "--games"),
    ("-rounds", "--rounds"),
    ("-repeat", "--repeat"),
    ("-concurrency", "--concurrency"),
    ("-sprt", "--sprt"),
    ("-draw", "--draw"),
    ("-resign", "--resign"),
    ("-maxmoves", "--maxmoves"),
    ("-pgnout", "--pgnout"),
    ("-srand", "--seed"),
    ("-seed", "--seed"),
    ("-ratinginterval", "--report-every"),
    ("-out", "--out"),
    ("-resume", "--resume"),
    ("-recover", "--recover"),
    ("-output", "--output"),
    ("-log", "--log"),
    ("-autosaveinterval", "--autosaveinterval"),
    ("-tournament", "--tournament"),
    ("-report", "--report"),
    ("-events", "--events"),
];

/// Separates the keys of one `--engine` after [`normalize_args`] has grouped them.
const ENGINE_KEY_SEPARATOR: char = '\u{1f}';

/// Prepares `harness match` arguments for clap: fastchess's single-dash options become `--`
/// options, and the keys of each `--engine` are grouped into one value (clap cannot keep
/// the occurrences of a multi-value option apart).
pub fn normalize_args(args: Vec<String>) -> Vec<String> {
    let Some(pos) = args
        .iter()
        .position(|a| a == "match" || a == "spsa" || a == "gauntlet")
    else {
        return args;
    };
    // Only when "match", "spsa" or "gauntlet" is the subcommand (the first non-option argument).
    if args[1..pos].iter().any(|a| !a.starts_with('-')) {
        return args;
    }
    let mut out: Vec<String> = args[..=pos].to_vec();
    let mut engine_group: Option<Vec<String>> = None;
    for a in args.into_iter().skip(pos + 1) {
        let a = SINGLE_DASH
            .iter()
            .find(|(single, _)| *single == a)
            .map_or(a, |(_, double)| double.to_string());
        let is_option = a.starts_with("--") || (a.starts_with('-') && a.len() == 2);
        if is_option {
            if let Some(group) = engine_group.take() {
                out.push(group_value(&group));
            }
            if a == "--engine" {
                engine_group = Some(Vec::new());
            }
            out.push(a);
        } else if let Some(group) = engine_group.as_mut() {
            group.push(a);
        } else {
            out.push(a);
        }
    }
    if let Some(group) = engine_group.take() {
        out.push(group_value(&group));
    }
    out
}

/// One engine's keys as one value; it starts with the separator so that even a single key
/// marks a new engine.
pub(crate) fn group_value(keys: &[String]) -> String {
    keys.iter().fold(String::new(), |mut acc, k| {
        acc.push(ENGINE_KEY_SEPARATOR);
        acc.push_str(k);
        acc
    })
}

/// The keys of each `--engine`, grouped per engine.
pub fn engine_groups(values: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for v in values {
        if v.contains(ENGINE_KEY_SEPARATOR) || groups.is_empty() || v.starts_with("name=") {
            groups.push(Vec::new());
        }
        if let Some(last) = groups.last_mut() {
            last.extend(
                v.split(ENGINE_KEY_SEPARATOR)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
        }
    }
    groups
}

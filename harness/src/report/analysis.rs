//! The numbers of a report, computed from the games of one run with [`crate::stats`].
//!
//! All results are from the first engine's view ("A vs B"), as in fastchess.

use std::collections::BTreeMap;

use crate::game::GameResult;
use crate::output::GameRow;
use crate::scoreboard::{Counted, Scoreboard};
use crate::stats::{self, Pentanomial, SprtConfig, Summary, Trinomial};

/// A finished game and its result.
type Played<'a> = (&'a GameRow, GameResult);

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score in percent, if any game was played.
    pub fn score_percent(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| 100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / games as f64)
    }

    fn add(&mut self, points_x2: u8) {
        match points_x2 {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

/// The statistics after some number of completed pairs (or games, without pairs).
#[derive(Clone, Debug, PartialEq)]
pub struct RunningPoint {
    pub games: u64,
    pub llr: Option<f64>,
    pub elo: Option<f64>,
    pub elo_err95: Option<f64>,
}

/// Results of one termination kind.
#[derive(Clone, Debug, PartialEq)]
pub struct TerminationLine {
    /// As written in games.csv.
    pub termination: String,
    /// A readable name for known kinds.
    pub label: String,
    pub wdl: Wdl,
}

/// One bin of the game-length histogram, in full moves `[from, to)`.
#[derive(Clone, Debug, PartialEq)]
pub struct LengthBin {
    pub from_moves: u32,
    pub to_moves: u32,
    pub decisive: u64,
    pub draws: u64,
}

/// Search effort of one engine over the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineEffort {
    pub name: String,
    pub moves: u64,
    pub nodes: u64,
    pub time_ms: u64,
    /// Per game (where the engine moved): average nodes per move.
    pub nodes_per_move_by_game: Vec<f64>,
    /// Per game (where the engine moved): average milliseconds per move.
    pub ms_per_move_by_game: Vec<f64>,
}

impl EngineEffort {
    pub fn nodes_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.nodes as f64 / self.moves as f64)
    }
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.time_ms as f64 / self.moves as f64)
    }
    /// Nodes per second over the run.
    pub fn nps(&self) -> Option<f64> {
        (self.time_ms > 0).then(|| self.nodes as f64 * 1000.0 / self.time_ms as f64)
    }
}

/// One game as a line of the lopsided-openings table.
#[derive(Clone, Debug, PartialEq)]
pub struct PairGame {
    pub game: u64,
    pub first_is_white: bool,
    pub result: GameResult,
    pub termination: String,
    pub plies: u32,
}

/// The pairs played from one opening, with how far their result is from even.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningResult {
    pub opening_index: u64,
    pub opening_fen: String,
    pub pairs: u64,
    /// The first engine's points over all games from this opening.
    pub points: f64,
    /// `points - pairs`: 0 when even, `+2 * pairs` when the first engine won every game.
    pub net: f64,
    pub games: Vec<PairGame>,
}

/// Everything a report shows that is computed from the games.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The first engine (the statistics' perspective) and the second.
    pub first: String,
    pub second: String,
    pub games_total: u64,
    /// Games whose pair is not complete: in the W/D/L counts but not in the pentanomial.
    pub unpaired_games: u64,
    pub trinomial: Trinomial,
    /// None when the run has no complete pairs.
    pub pentanomial: Option<Pentanomial>,
    pub sprt: Option<SprtConfig>,
    pub summary: Summary,
    pub first_as_white: Wdl,
    pub first_as_black: Wdl,
    /// White's results regardless of engine: (white wins, draws, black wins).
    pub white_view: Wdl,
    pub terminations: Vec<TerminationLine>,
    pub running: Vec<RunningPoint>,
    pub lengths: Vec<LengthBin>,
    pub mean_moves: Option<f64>,
    pub effort: [EngineEffort; 2],
    /// Openings ordered from the most lopsided; only those whose result is not even.
    pub lopsided: Vec<OpeningResult>,
}

/// A readable name for the termination kinds the match runner writes.
pub fn termination_label(termination: &str) -> String {
    let key = termination
        .trim()
        .to_ascii_lowercase()
        .replace(['_', '-'], " ");
    let label = match key.as_str() {
        "checkmate" | "mate" => "checkmate",
        "stalemate" => "stalemate",
        "repetition" | "threefold" | "threefold repetition" => "threefold repetition",
        "fifty moves" | "fifty move" | "50 move" | "50 moves" | "fifty move rule"
        | "50 move rule" => "50-move rule",
        "insufficient material" | "material" => "insufficient material",
        "adjudication" | "adjudicated" => "adjudication",
        "adjudication draw" | "draw adjudication" | "adjudicated draw" => "adjudication: draw",
        "adjudication resign" | "resign adjudication" | "resign" | "resignation" => {
            "adjudication: resign"
        }
        "max moves" | "max plies" | "move limit" | "maxmoves" => "adjudication: move limit",
        "time forfeit" | "time" | "timeout" | "time loss" | "flag" => "time forfeit",
        "crash" | "crashed" | "disconnect" | "engine crash" => "crash",
        "stall" | "stalled" => "engine stalled",
        "illegal move" | "illegal" => "illegal move",
        "" => "(none)",
        _ => return termination.trim().to_string(),
    };
    label.to_string()
}

/// Computes every number of the report from `games`, the rows the folder's scoreboard
/// counted (both games of each complete pair, in file order), from `first`'s view against
/// `second`. The running statistics get a point per completed pair, replayed through the
/// same scoreboard.
pub fn analyse(
    games: &[GameRow],
    first: &str,
    second: &str,
    sprt: Option<SprtConfig>,
) -> anyhow::Result<Analysis> {
    if games.is_empty() {
        return Ok(empty(&[first.to_string(), second.to_string()], sprt));
    }
    let (first, second) = (first.to_string(), second.to_string());
    let mut board = Scoreboard::new(&first, &second, None);
    let mut running = Vec::new();
    for row in games {
        if let Counted::PairComplete { .. } = board.add(row, None) {
            let s = board.summary(sprt.as_ref());
            running.push(RunningPoint {
                games: board.games(),
                llr: s.llr,
                elo: s.elo,
                elo_err95: s.elo_err95,
            });
        }
    }
    let trinomial = *board.trinomial();
    let pentanomial = Some(*board.pentanomial());
    let summary = board.summary(sprt.as_ref());
    let played: Vec<Played> = games
        .iter()
        .filter_map(|g| Some((g, g.outcome()?)))
        .collect();
    let first_points_x2 = |&(g, result): &Played| {
        let white = result.white_points_x2();
        if g.white == first { white } else { 2 - white }
    };

    let mut first_as_white = Wdl::default();
    let mut first_as_black = Wdl::default();
    let mut white_view = Wdl::default();
    let mut by_termination: BTreeMap<String, Wdl> = BTreeMap::new();
    for played_game in &played {
        let (g, result) = *played_game;
        let points = first_points_x2(played_game);
        if g.white == first {
            first_as_white.add(points);
        } else {
            first_as_black.add(points);
        }
        white_view.add(result.white_points_x2());
        by_termination
            .entry(g.termination.map_or("", |t| t.as_str()).to_string())
            .or_default()
            .add(points);
    }
    let mut terminations: Vec<TerminationLine> = by_termination
        .into_iter()
        .map(|(termination, wdl)| TerminationLine {
            label: termination_label(&termination),
            termination,
            wdl,
        })
        .collect();
    terminations.sort_by(|a, b| {
        b.wdl
            .games()
            .cmp(&a.wdl.games())
            .then(a.label.cmp(&b.label))
    });

    let (lengths, mean_moves) = length_histogram(&played);
    let effort = [effort_of(&played, &first), effort_of(&played, &second)];
    let lopsided = lopsided_openings(&played, &first, &first_points_x2);

    Ok(Analysis {
        unpaired_games: 0,
        games_total: played.len() as u64,
        first,
        second,
        trinomial,
        pentanomial,
        sprt,
        summary,
        first_as_white,
        first_as_black,
        white_view,
        terminations,
        running,
        lengths,
        mean_moves,
        effort,
        lopsided,
    })
}

fn empty(declared: &[String], sprt: Option<SprtConfig>) -> Analysis {
    let name = |i: usize| {
        declared
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("engine {}", i + 1))
    };
    let trinomial = Trinomial::default();
    Analysis {
        first: name(0),
        second: name(1),
        games_total: 0,
        unpaired_games: 0,
        summary: stats::summarize(&trinomial, None, sprt.as_ref()),
        trinomial,
        pentanomial: None,
        sprt,
        first_as_white: Wdl::default(),
        first_as_black: Wdl::default(),
        white_view: Wdl::default(),
        terminations: Vec::new(),
        running: Vec::new(),
        lengths: Vec::new(),
        mean_moves: None,
        effort: [
            EngineEffort {
                name: name(0),
                ..Default::default()
            },
            EngineEffort {
                name: name(1),
                ..Default::default()
            },
        ],
        lopsided: Vec::new(),
    }
}

/// Bins of 5 full moves for short runs of games, 10 when games go past 100 moves.
fn length_histogram(games: &[Played]) -> (Vec<LengthBin>, Option<f64>) {
    if games.is_empty() {
        return (Vec::new(), None);
    }
    let moves = |(g, _): &Played| g.plies.div_ceil(2);
    let longest = games.iter().map(moves).max().unwrap_or(0);
    let width = if longest > 100 { 10 } else { 5 };
    let bins = (longest / width + 1) as usize;
    let mut lengths: Vec<LengthBin> = (0..bins as u32)
        .map(|i| LengthBin {
            from_moves: i * width,
            to_moves: (i + 1) * width,
            decisive: 0,
            draws: 0,
        })
        .collect();
    for g in games {
        let bin = &mut lengths[(moves(g) / width) as usize];
        if g.1 == GameResult::Draw {
            bin.draws += 1;
        } else {
            bin.decisive += 1;
        }
    }
    let total: u64 = games.iter().map(|g| u64::from(moves(g))).sum();
    (lengths, Some(total as f64 / games.len() as f64))
}

fn effort_of(games: &[Played], engine: &str) -> EngineEffort {
    let mut effort = EngineEffort {
        name: engine.to_string(),
        ..Default::default()
    };
    for (g, _) in games {
        let (white_moves, black_moves) = g.engine_moves_by_colour();
        let (moves, nodes, time_ms) = if g.white == engine {
            (white_moves, g.white_nodes, g.white_time_ms)
        } else if g.black == engine {
            (black_moves, g.black_nodes, g.black_time_ms)
        } else {
            continue;
        };
        if moves == 0 {
            continue;
        }
        effort.moves += u64::from(moves);
        effort.nodes += nodes;
        effort.time_ms += time_ms;
        effort
            .nodes_per_move_by_game
            .push(nodes as f64 / f64::from(moves));
        effort
            .ms_per_move_by_game
            .push(time_ms as f64 / f64::from(moves));
    }
    effort
}

fn lopsided_openings(
    games: &[Played],
    first: &str,
    first_points_x2: &dyn Fn(&Played) -> u8,
) -> Vec<OpeningResult> {
    // Group the games of complete pairs by opening; pairs of one opening come from book repeats.
    let mut by_pair: BTreeMap<u64, Vec<&Played>> = BTreeMap::new();
    for played in games {
        by_pair.entry(played.0.pair).or_default().push(played);
    }
    let mut by_opening: BTreeMap<u64, OpeningResult> = BTreeMap::new();
    for pair in by_pair.values().filter(|p| p.len() == 2) {
        let g0 = pair[0].0;
        let entry = by_opening
            .entry(g0.opening_index)
            .or_insert_with(|| OpeningResult {
                opening_index: g0.opening_index,
                opening_fen: g0.opening_fen.clone(),
                pairs: 0,
                points: 0.0,
                net: 0.0,
                games: Vec::new(),
            });
        entry.pairs += 1;
        for &played in pair {
            let (g, result) = *played;
            entry.points += f64::from(first_points_x2(played)) / 2.0;
            entry.games.push(PairGame {
                game: g.game,
                first_is_white: g.white == first,
                result,
                termination: g.termination.map_or("", |t| t.as_str()).to_string(),
                plies: g.plies,
            });
        }
    }
    let mut openings: Vec<OpeningResult> = by_opening
        .into_values()
        .map(|mut o| {
            o.net = o.points - o.pairs as f64;
            o.games.sort_by_key(|g| g.game);
            o
        })
        .filter(|o| o.net != 0.0)
        .collect();
    openings.sort_by(|a, b| {
        b.net
            .abs()
            .total_cmp(&a.net.abs())
            .then(b.pairs.cmp(&a.pairs))
            .then(a.opening_index.cmp(&b.opening_index))
    });
    openings
}

//! One game between two players: players (in-process or UCI), clocks, adjudication and
//! how a game ends. The harness, not the engines, decides every ending.

pub mod adjudication;
pub mod inprocess;
pub mod player;
pub mod time_control;
pub mod uci_player;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use engine::search::{Score, position_key};
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color, Move, Position};

use crate::book::Opening;
pub use adjudication::{Adjudicator, DrawRule, ResignRule, Verdict};
pub use inprocess::InProcessPlayer;
pub use player::{MoveRequest, Player, PlayerFault, PlayerMove};
pub use time_control::{EngineLimits, GameClock, TimeControl};
pub use uci_player::UciPlayer;

/// Rules the harness applies on top of chess: adjudication and a move cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRules {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
    /// Draw once the game has this many full moves (book moves included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_moves: Option<u32>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Checkmate,
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
    AdjudicationDraw,
    AdjudicationResign,
    MaxMoves,
    TimeForfeit,
    Disconnect,
    Stall,
    IllegalMove,
}

impl Termination {
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Threefold,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::AdjudicationDraw,
        Termination::AdjudicationResign,
        Termination::MaxMoves,
        Termination::TimeForfeit,
        Termination::Disconnect,
        Termination::Stall,
        Termination::IllegalMove,
    ];

    /// The name used in games.csv and summary.json.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty_moves",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::AdjudicationDraw => "adjudication_draw",
            Termination::AdjudicationResign => "adjudication_resign",
            Termination::MaxMoves => "max_moves",
            Termination::TimeForfeit => "time_forfeit",
            Termination::Disconnect => "disconnect",
            Termination::Stall => "stall",
            Termination::IllegalMove => "illegal_move",
        }
    }

    /// The value of the PGN `Termination` tag (cutechess-cli's vocabulary).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Checkmate
            | Termination::Stalemate
            | Termination::Threefold
            | Termination::FiftyMoves
            | Termination::InsufficientMaterial => "normal",
            Termination::AdjudicationDraw
            | Termination::AdjudicationResign
            | Termination::MaxMoves => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::Disconnect => "abandoned",
            Termination::Stall => "stalled connection",
            Termination::IllegalMove => "illegal move",
        }
    }

    /// The engine fault behind this ending, if it is one.
    pub fn fault(self) -> Option<crate::uci::FaultKind> {
        use crate::uci::FaultKind;
        match self {
            Termination::TimeForfeit => Some(FaultKind::TimedOut),
            Termination::Disconnect => Some(FaultKind::Disconnected),
            Termination::Stall => Some(FaultKind::Stalled),
            Termination::IllegalMove => Some(FaultKind::IllegalMove),
            _ => None,
        }
    }

    /// Parses [`Termination::as_str`] back.
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// White's points doubled (2 = win, 1 = draw, 0 = loss), so sums stay integers.
    pub fn white_points_x2(self) -> u8 {
        match self {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        }
    }

    /// Parses `1-0`, `0-1` or `1/2-1/2`.
    pub fn from_name(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One move of a game, with what the mover said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub mv: Move,
    /// A move from the opening book (no search information).
    pub book: bool,
    /// Mover's view.
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
    /// Wall time the harness charged to the mover's clock.
    pub time: Duration,
    /// Time the player reports searching.
    pub search_time: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    pub start: Chess,
    /// Book moves first, then the engines' moves.
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub termination: Termination,
    /// Human-readable ending, as cutechess prints it ("White mates", "Draw by adjudication").
    pub reason: String,
    pub final_position: Chess,
    /// Wall time of the whole game, player start-up included.
    pub wall_time: Duration,
}

impl GameRecord {
    fn side_moves(&self, color: Color) -> impl Iterator<Item = &MoveRecord> {
        let first = self.start.turn();
        self.moves.iter().enumerate().filter_map(move |(i, m)| {
            let mover = if i % 2 == 0 { first } else { !first };
            (mover == color && !m.book).then_some(m)
        })
    }

    /// Nodes searched by `color` in this game.
    pub fn nodes(&self, color: Color) -> u64 {
        self.side_moves(color).map(|m| m.nodes).sum()
    }

    /// Clock time used by `color` in this game.
    pub fn time_used(&self, color: Color) -> Duration {
        self.side_moves(color).map(|m| m.time).sum()
    }

    /// Time both players report searching.
    pub fn search_time(&self) -> Duration {
        self.moves.iter().map(|m| m.search_time).sum()
    }
}

/// The game was abandoned because the match is being interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game interrupted")]
pub struct Interrupted;

/// How chess itself ends the game in `pos`, if it does; `keys` are the earlier positions.
pub fn rules_ending(pos: &Chess, keys: &[u64]) -> Option<(GameResult, Termination, String)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            let winner = !pos.turn();
            (
                GameResult::win_for(winner),
                Termination::Checkmate,
                format!("{} mates", color_name(winner)),
            )
        } else {
            (
                GameResult::Draw,
                Termination::Stalemate,
                "Draw by stalemate".into(),
            )
        });
    }
    if pos.is_insufficient_material() {
        return Some((
            GameResult::Draw,
            Termination::InsufficientMaterial,
            "Draw by insufficient mating material".into(),
        ));
    }
    let key = position_key(pos);
    let window = (pos.halfmoves() as usize).min(keys.len());
    let repeats = keys[keys.len() - window..]
        .iter()
        .filter(|&&k| k == key)
        .count();
    if repeats >= 2 {
        return Some((
            GameResult::Draw,
            Termination::Threefold,
            "Draw by 3-fold repetition".into(),
        ));
    }
    if pos.halfmoves() >= 100 {
        return Some((
            GameResult::Draw,
            Termination::FiftyMoves,
            "Draw by fifty moves rule".into(),
        ));
    }
    None
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plays one game from `opening`. `players[0]` has White. Returns [`Interrupted`] when `stop`
/// is set before the game ends (the game is then not counted).
pub fn play_game(
    players: [&mut dyn Player; 2],
    limits: [EngineLimits; 2],
    opening: &Opening,
    rules: &GameRules,
    stop: &AtomicBool,
) -> Result<GameRecord, Interrupted> {
    let started = Instant::now();
    let [white, black] = players;
    let names = [white.name().to_string(), black.name().to_string()];
    let sides: [&mut dyn Player; 2] = [white, black];
    let side_index = |c: Color| if c == Color::White { 0 } else { 1 };

    let mut pos = opening.start.clone();
    let mut keys = Vec::with_capacity(256);
    let mut played = Vec::with_capacity(256);
    let mut records = Vec::with_capacity(256);
    for &mv in &opening.moves {
        keys.push(position_key(&pos));
        pos.play_unchecked(mv);
        played.push(mv);
        records.push(MoveRecord {
            mv,
            book: true,
            score: None,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            search_time: Duration::ZERO,
        });
    }

    let finish =
        |pos: Chess,
         records: Vec<MoveRecord>,
         (result, termination, reason): (GameResult, Termination, String)| {
            GameRecord {
                white: names[0].clone(),
                black: names[1].clone(),
                start: opening.start.clone(),
                moves: records,
                result,
                termination,
                reason,
                final_position: pos,
                wall_time: started.elapsed(),
            }
        };
    let fault_ending = |loser: Color, fault: &PlayerFault| {
        let who = color_name(loser);
        let (termination, reason) = match fault {
            PlayerFault::Disconnected(why) => (
                Termination::Disconnect,
                format!("{who} disconnects ({why})"),
            ),
            PlayerFault::Stalled(why) => (
                Termination::Stall,
                format!("{who}'s connection stalls ({why})"),
            ),
            PlayerFault::IllegalMove(why) => (
                Termination::IllegalMove,
                format!("{who} makes an illegal move: {why}"),
            ),
            PlayerFault::TimeForfeit(why) => (
                Termination::TimeForfeit,
                format!("{who} loses on time ({why})"),
            ),
            PlayerFault::Interrupted => unreachable!("handled by the caller"),
        };
        (GameResult::win_for(!loser), termination, reason)
    };

    for color in [Color::White, Color::Black] {
        match sides[side_index(color)].new_game() {
            Ok(()) => {}
            Err(PlayerFault::Interrupted) => return Err(Interrupted),
            Err(fault) => return Ok(finish(pos, records, fault_ending(color, &fault))),
        }
    }

    let mut clock = GameClock::new(limits[0], limits[1]);
    let mut adjudicator = Adjudicator::new(rules.draw, rules.resign);
    let ending = loop {
        if stop.load(Ordering::Relaxed) {
            return Err(Interrupted);
        }
        if let Some(end) = rules_ending(&pos, &keys) {
            break end;
        }
        if let Some(max) = rules.max_moves
            && played.len() as u64 >= 2 * u64::from(max)
        {
            break (
                GameResult::Draw,
                Termination::MaxMoves,
                "Draw by move limit".into(),
            );
        }
        let side = pos.turn();
        let request = MoveRequest {
            start: &opening.start,
            moves: &played,
            position: &pos,
            history_keys: &keys,
            limits: clock.limits_for(side),
            stop,
        };
        let move_started = Instant::now();
        let answer = sides[side_index(side)].play(&request);
        let used = move_started.elapsed();
        let answer = match answer {
            Ok(answer) => answer,
            Err(PlayerFault::Interrupted) => return Err(Interrupted),
            Err(fault) => break fault_ending(side, &fault),
        };
        if stop.load(Ordering::Relaxed) {
            return Err(Interrupted);
        }
        if !pos.is_legal(answer.mv) {
            break fault_ending(side, &PlayerFault::IllegalMove(answer.mv.to_string()));
        }
        if let Err(flag) = clock.charge(side, used) {
            let why = format!(
                "{:.3}s used, {:.3}s allowed",
                flag.used.as_secs_f64(),
                flag.allowed.as_secs_f64()
            );
            if pos.has_insufficient_material(!side) {
                break (
                    GameResult::Draw,
                    Termination::TimeForfeit,
                    format!(
                        "Draw: {} loses on time but {} cannot mate ({why})",
                        color_name(side),
                        color_name(!side)
                    ),
                );
            }
            break fault_ending(side, &PlayerFault::TimeForfeit(why));
        }
        keys.push(position_key(&pos));
        pos.play_unchecked(answer.mv);
        played.push(answer.mv);
        records.push(MoveRecord {
            mv: answer.mv,
            book: false,
            score: answer.score,
            depth: answer.depth,
            nodes: answer.nodes,
            time: used,
            search_time: answer.search_time,
        });
        // A move that mates or draws by rule ends the game by that rule, not by adjudication.
        if rules_ending(&pos, &keys).is_some() {
            continue;
        }
        match adjudicator.record(side, answer.score, pos.fullmoves().get()) {
            None => {}
            Some(Verdict::Draw) => {
                break (
                    GameResult::Draw,
                    Termination::AdjudicationDraw,
                    "Draw by adjudication".into(),
                );
            }
            Some(Verdict::Resigns(loser)) => {
                break (
                    GameResult::win_for(!loser),
                    Termination::AdjudicationResign,
                    format!("{} wins by adjudication", color_name(!loser)),
                );
            }
        }
    };
    Ok(finish(pos, records, ending))
}

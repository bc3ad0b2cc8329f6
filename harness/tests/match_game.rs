//! Every way a game ends, with scripted players so each ending is forced.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::search::Score;
use harness::book::Opening;
use harness::game::{
    DrawRule, EngineLimits, GameResult, GameRules, MoveRequest, Player, PlayerFault, PlayerMove,
    ResignRule, Termination, play_game,
};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Role, Square};

/// Plays a fixed list of moves (UCI) with fixed scores; optionally slow or faulty.
struct Scripted {
    name: String,
    moves: Vec<(&'static str, Option<Score>)>,
    next: usize,
    delay: Duration,
    fault_at: Option<(usize, PlayerFault)>,
}

impl Scripted {
    fn new(name: &str, moves: &[&'static str], score: Option<Score>) -> Self {
        Scripted {
            name: name.into(),
            moves: moves.iter().map(|m| (*m, score)).collect(),
            next: 0,
            delay: Duration::ZERO,
            fault_at: None,
        }
    }
}

impl Player for Scripted {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self) -> Result<(), PlayerFault> {
        self.next = 0;
        Ok(())
    }
    fn play(&mut self, request: &MoveRequest<'_>) -> Result<PlayerMove, PlayerFault> {
        if let Some((at, fault)) = &self.fault_at
            && *at == self.next
        {
            return Err(fault.clone());
        }
        std::thread::sleep(self.delay);
        let (text, score) = self.moves[self.next];
        self.next += 1;
        let mv = if text == "illegal" {
            Move::Normal {
                role: Role::Pawn,
                from: Square::E2,
                capture: None,
                to: Square::E5,
                promotion: None,
            }
        } else {
            UciMove::from_ascii(text.as_bytes())
                .unwrap()
                .to_move(request.position)
                .unwrap()
        };
        Ok(PlayerMove {
            mv,
            score,
            depth: 1,
            nodes: 10,
            search_time: Duration::ZERO,
        })
    }
}

fn nodes() -> EngineLimits {
    EngineLimits {
        nodes: Some(100),
        ..Default::default()
    }
}

fn from_fen(fen: &str) -> Opening {
    let pos: Chess = Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    Opening::new(pos, vec![]).unwrap()
}

fn play(
    white: &mut Scripted,
    black: &mut Scripted,
    opening: &Opening,
    rules: GameRules,
    limits: EngineLimits,
) -> harness::game::GameRecord {
    let stop = AtomicBool::new(false);
    play_game([white, black], [limits, limits], opening, &rules, &stop).unwrap()
}

#[test]
fn checkmate() {
    let mut w = Scripted::new("w", &["f2f3", "g2g4"], None);
    let mut b = Scripted::new("b", &["e7e5", "d8h4"], Some(Score::Mate(1)));
    let g = play(
        &mut w,
        &mut b,
        &Opening::startpos(),
        GameRules::default(),
        nodes(),
    );
    assert_eq!(g.termination, Termination::Checkmate);
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(g.reason, "Black mates");
    assert_eq!(g.moves.len(), 4);
}

#[test]
fn stalemate() {
    let mut w = Scripted::new("w", &["g5g6"], None);
    let mut b = Scripted::new("b", &[], None);
    let g = play(
        &mut w,
        &mut b,
        &from_fen("7k/8/8/6Q1/8/8/8/K7 w - - 0 1"),
        GameRules::default(),
        nodes(),
    );
    assert_eq!(
        (g.termination, g.result),
        (Termination::Stalemate, GameResult::Draw)
    );
}

#[test]
fn threefold_repetition() {
    let mut w = Scripted::new("w", &["g1f3", "f3g1", "g1f3", "f3g1"], None);
    let mut b = Scripted::new("b", &["g8f6", "f6g8", "g8f6", "f6g8"], None);
    let g = play(
        &mut w,
        &mut b,
        &Opening::startpos(),
        GameRules::default(),
        nodes(),
    );
    assert_eq!(
        (g.termination, g.result),
        (Termination::Threefold, GameResult::Draw)
    );
    assert_eq!(g.moves.len(), 8);
}

#[test]
fn fifty_move_rule() {
    let mut w = Scripted::new("w", &["e1a1"], None);
    let mut b = Scripted::new("b", &[], None);
    let g = play(
        &mut w,
        &mut b,
        &from_fen("8/8/8/4k3/8/8/4K3/4R3 w - - 99 80"),
        GameRules::default(),
        nodes(),
    );
    assert_eq!(
        (g.termination, g.result),
        (Termination::FiftyMoves, GameResult::Draw)
    );
}

#[test]
fn mate_on_the_hundredth_half_move_is_mate() {
    // Ra8 mates with the half-move clock reaching 100: checkmate wins.
    let mut w = Scripted::new("w", &["a1a8"], None);
    let mut b = Scripted::new("b", &[], None);
    let g = play(
        &mut w,
        &mut b,
        &from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"),
        GameRules::default(),
        nodes(),
    );
    assert_eq!(
        (g.termination, g.result),
        (Termination::Checkmate, GameResult::WhiteWins)
    );
}

#[test]
fn insufficient_material() {
    let mut w = Scripted::new("w", &["e2d2"], None);
    let mut b = Scripted::new("b", &[], None);
    let g = play(
        &mut w,
        &mut b,
        &from_fen("8/8/8/4k3/8/8/3nK3/8 w - - 0 1"),
        GameRules::default(),
        nodes(),
    );
    assert_eq!(
        (g.termination, g.result),
        (Termination::InsufficientMaterial, GameResult::Draw)
    );
}

const QUIET: [&str; 4] = ["e2e4", "g1f3", "f1c4", "b1c3"];
const QUIET_BLACK: [&str; 4] = ["e7e5", "b8c6", "g8f6", "f8c5"];

#[test]
fn draw_adjudication() {
    let rules = GameRules {
        draw: Some(DrawRule {
            movenumber: 1,
            movecount: 2,
            score: 10,
        }),
        ..Default::default()
    };
    let mut w = Scripted::new("w", &QUIET, Some(Score::Cp(5)));
    let mut b = Scripted::new("b", &QUIET_BLACK, Some(Score::Cp(-10)));
    let g = play(&mut w, &mut b, &Opening::startpos(), rules, nodes());
    assert_eq!(
        (g.termination, g.result),
        (Termination::AdjudicationDraw, GameResult::Draw)
    );
    assert_eq!(g.moves.len(), 4);
}

#[test]
fn resign_adjudication() {
    let rules = GameRules {
        resign: Some(ResignRule {
            movecount: 2,
            score: 500,
            twosided: false,
        }),
        ..Default::default()
    };
    let mut w = Scripted::new("w", &QUIET, Some(Score::Cp(20)));
    let mut b = Scripted::new("b", &QUIET_BLACK, Some(Score::Cp(-600)));
    let g = play(&mut w, &mut b, &Opening::startpos(), rules, nodes());
    assert_eq!(
        (g.termination, g.result),
        (Termination::AdjudicationResign, GameResult::WhiteWins)
    );
    assert_eq!(g.moves.len(), 4);

    // Two-sided: White's +0.20 does not confirm Black's despair, so the game goes on.
    let rules = GameRules {
        resign: Some(ResignRule {
            movecount: 2,
            score: 500,
            twosided: true,
        }),
        max_moves: Some(4),
        ..Default::default()
    };
    let mut w = Scripted::new("w", &QUIET, Some(Score::Cp(20)));
    let mut b = Scripted::new("b", &QUIET_BLACK, Some(Score::Cp(-600)));
    let g = play(&mut w, &mut b, &Opening::startpos(), rules, nodes());
    assert_eq!(g.termination, Termination::MaxMoves);
}

#[test]
fn max_moves() {
    let rules = GameRules {
        max_moves: Some(2),
        ..Default::default()
    };
    let mut w = Scripted::new("w", &QUIET, None);
    let mut b = Scripted::new("b", &QUIET_BLACK, None);
    let g = play(&mut w, &mut b, &Opening::startpos(), rules, nodes());
    assert_eq!(
        (g.termination, g.result),
        (Termination::MaxMoves, GameResult::Draw)
    );
    assert_eq!(g.moves.len(), 4);
}

#[test]
fn time_forfeit_on_movetime_and_clock() {
    let limits = EngineLimits {
        movetime_ms: Some(5),
        time_margin_ms: 0,
        ..Default::default()
    };
    let mut w = Scripted::new("w", &QUIET, None);
    let mut b = Scripted::new("b", &QUIET_BLACK, None);
    b.delay = Duration::from_millis(60);
    let g = play(
        &mut w,
        &mut b,
        &Opening::startpos(),
        GameRules::default(),
        limits,
    );
    assert_eq!(
        (g.termination, g.result),
        (Termination::TimeForfeit, GameResult::WhiteWins)
    );
    assert!(g.reason.contains("Black loses on time"), "{}", g.reason);

    let limits = EngineLimits {
        tc: Some("0.1+0".parse().unwrap()),
        time_margin_ms: 0,
        ..Default::default()
    };
    let mut w = Scripted::new("w", &QUIET, None);
    w.delay = Duration::from_millis(40);
    let mut b = Scripted::new("b", &QUIET_BLACK, None);
    let g = play(
        &mut w,
        &mut b,
        &Opening::startpos(),
        GameRules::default(),
        limits,
    );
    // 40 ms per move against a 100 ms clock: the third White move flags.
    assert_eq!(
        (g.termination, g.result),
        (Termination::TimeForfeit, GameResult::BlackWins)
    );
    assert_eq!(g.moves.len(), 4);
}

#[test]
fn time_forfeit_against_a_lone_king_is_a_draw() {
    let limits = EngineLimits {
        movetime_ms: Some(5),
        time_margin_ms: 0,
        ..Default::default()
    };
    let mut w = Scripted::new("w", &["e1a1"], None);
    w.delay = Duration::from_millis(60);
    let mut b = Scripted::new("b", &[], None);
    let g = play(
        &mut w,
        &mut b,
        &from_fen("8/8/8/4k3/8/8/4K3/4R3 w - - 0 1"),
        GameRules::default(),
        limits,
    );
    // Black has a lone king and cannot win.
    assert_eq!(
        (g.termination, g.result),
        (Termination::TimeForfeit, GameResult::Draw)
    );
}

#[test]
fn illegal_move_and_faults_lose() {
    let mut w = Scripted::new("w", &["e2e4"], None);
    let mut b = Scripted::new("b", &["illegal"], None);
    let g = play(
        &mut w,
        &mut b,
        &Opening::startpos(),
        GameRules::default(),
        nodes(),
    );
    assert_eq!(
        (g.termination, g.result),
        (Termination::IllegalMove, GameResult::WhiteWins)
    );

    for (fault, termination) in [
        (
            PlayerFault::Disconnected("pipe closed".into()),
            Termination::Disconnect,
        ),
        (
            PlayerFault::Stalled("no readyok".into()),
            Termination::Stall,
        ),
    ] {
        let mut w = Scripted::new("w", &QUIET, None);
        w.fault_at = Some((1, fault));
        let mut b = Scripted::new("b", &QUIET_BLACK, None);
        let g = play(
            &mut w,
            &mut b,
            &Opening::startpos(),
            GameRules::default(),
            nodes(),
        );
        assert_eq!(
            (g.termination, g.result),
            (termination, GameResult::BlackWins)
        );
        assert_eq!(g.moves.len(), 2);
    }
}

#[test]
fn interrupted_game_is_not_a_result() {
    let stop = AtomicBool::new(true);
    let mut w = Scripted::new("w", &QUIET, None);
    let mut b = Scripted::new("b", &QUIET_BLACK, None);
    let r = play_game(
        [&mut w, &mut b],
        [nodes(), nodes()],
        &Opening::startpos(),
        &GameRules::default(),
        &stop,
    );
    assert!(r.is_err());
}

#[test]
fn book_moves_are_recorded_and_clock_uses_engine_moves_only() {
    let start = Chess::default();
    let e4 = UciMove::from_ascii(b"e2e4")
        .unwrap()
        .to_move(&start)
        .unwrap();
    let opening = Opening::new(start, vec![e4]).unwrap();
    let rules = GameRules {
        max_moves: Some(2),
        ..Default::default()
    };
    let mut w = Scripted::new("w", &["g1f3"], Some(Score::Cp(30)));
    let mut b = Scripted::new("b", &["e7e5", "b8c6"], Some(Score::Cp(-30)));
    let g = play(&mut w, &mut b, &opening, rules, nodes());
    assert!(g.moves[0].book && !g.moves[1].book);
    assert_eq!(g.nodes(shakmaty::Color::White), 10);
    assert_eq!(g.nodes(shakmaty::Color::Black), 20);
}

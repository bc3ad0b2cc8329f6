//! How the fake picks a legal move: deterministic from the position (and a seed), cheap, and
//! with `greedy` good enough that games between fakes end.

use rand::RngExt;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position, Role};

use crate::chaos;
use crate::flags::Play;

/// The move to play, or `None` when there is no legal move. `key` names the position (the
/// `position` command's text) for the seeded draws.
pub fn choose(position: &Chess, play: Play, seed: u64, key: &str) -> Option<Move> {
    let mut moves: Vec<(String, Move)> = position
        .legal_moves()
        .into_iter()
        .map(|m| (uci_text(m), m))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    let draw = || chaos::rng(seed, "move", key);
    match play {
        Play::First => moves.first().map(|(_, m)| *m),
        Play::Random => {
            let n = moves.len();
            (n > 0).then(|| moves[draw().random_range(0..n)].1)
        }
        Play::Greedy => {
            let gain = |m: &Move| greedy_gain(position, m);
            let best = moves.iter().map(|(_, m)| gain(m)).max()?;
            let top: Vec<Move> = moves
                .iter()
                .filter(|(_, m)| gain(m) == best)
                .map(|(_, m)| *m)
                .collect();
            Some(top[draw().random_range(0..top.len())])
        }
    }
}

/// The move in UCI notation (`e1g1` for castling, as GUIs send it).
pub fn uci_text(m: Move) -> String {
    UciMove::from_standard(m).to_string()
}

/// Mate first, then material won by the capture and the promotion.
fn greedy_gain(position: &Chess, m: &Move) -> i32 {
    let mut after = position.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        return 1_000;
    }
    let captured = m.capture().map_or(0, value);
    let promoted = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    captured + promoted
}

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn first_is_the_first_in_sorted_uci_text() {
        let m = choose(&Chess::default(), Play::First, 0, "startpos").unwrap();
        assert_eq!(uci_text(m), "a2a3");
    }

    #[test]
    fn greedy_mates_then_takes_the_most() {
        // Ra8 mates; Rxh4 wins a knight.
        let mate = position("6k1/5ppp/8/8/7n/8/8/R5K1 w - - 0 1");
        assert_eq!(
            uci_text(choose(&mate, Play::Greedy, 0, "a").unwrap()),
            "a1a8"
        );
        let grab = position("6k1/8/8/8/R6n/8/8/6K1 w - - 0 1");
        assert_eq!(
            uci_text(choose(&grab, Play::Greedy, 0, "b").unwrap()),
            "a4h4"
        );
    }

    #[test]
    fn random_depends_on_seed_and_position_only() {
        let start = Chess::default();
        let pick = |seed, key| uci_text(choose(&start, Play::Random, seed, key).unwrap());
        assert_eq!(pick(1, "x"), pick(1, "x"));
        let spread: std::collections::HashSet<String> = (0..50).map(|s| pick(s, "x")).collect();
        assert!(spread.len() > 5, "{spread:?}");
        assert!(
            choose(
                &position("k7/8/1Q6/8/8/8/8/K7 b - - 0 1"),
                Play::Random,
                0,
                ""
            )
            .is_none()
        );
    }
}

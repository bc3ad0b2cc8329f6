//! The GUI messages a match sends, built from the match's types (positions, moves, limits).

use engine::search::Limits;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Move, Position};
use uci_protocol::{Go, GuiMessage, StartPosition};

/// The `position` message for `moves` played from `start` (`startpos` when standard).
/// Castling is written in the start position's notation (king takes rook in Chess960).
pub fn position(start: &Chess, moves: &[Move]) -> GuiMessage {
    let mode = start.castles().mode();
    let start_position = if *start == Chess::default() {
        StartPosition::StartPos
    } else {
        StartPosition::Fen(Fen::from_position(start, EnPassantMode::Legal))
    };
    GuiMessage::Position {
        start: start_position,
        moves: moves.iter().map(|m| UciMove::from_move(*m, mode)).collect(),
    }
}

/// The `go` message for these limits (the harness never sends `go infinite`, but it is kept).
pub fn go(limits: &Limits) -> GuiMessage {
    let ms = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 2);
    let mut go = Go {
        depth: limits.depth,
        nodes: limits.nodes,
        movetime: limits
            .movetime
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX / 2)),
        infinite: limits.infinite,
        ..Go::default()
    };
    if let Some(clock) = &limits.clock {
        go.wtime = Some(ms(clock.white_time));
        go.btime = Some(ms(clock.black_time));
        go.winc = Some(ms(clock.white_increment));
        go.binc = Some(ms(clock.black_increment));
        go.movestogo = clock.moves_to_go;
    }
    GuiMessage::Go(go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::Clock;
    use shakmaty::CastlingMode;
    use std::time::Duration;

    #[test]
    fn position_messages() {
        let start = Chess::default();
        assert_eq!(position(&start, &[]).to_string(), "position startpos");
        let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&start).unwrap();
        assert_eq!(
            position(&start, &[e4]).to_string(),
            "position startpos moves e2e4"
        );
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let castle = "e1g1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(
            position(&pos, &[castle]).to_string(),
            format!("position fen {fen} moves e1g1")
        );
        let pos960: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        assert!(
            position(&pos960, &[castle])
                .to_string()
                .ends_with("moves e1h1")
        );
    }

    #[test]
    fn go_messages() {
        let clock = Clock {
            white_time: Duration::from_millis(2000),
            black_time: Duration::from_millis(1500),
            white_increment: Duration::from_millis(20),
            black_increment: Duration::from_millis(20),
            moves_to_go: Some(7),
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        assert_eq!(
            go(&limits).to_string(),
            "go wtime 2000 btime 1500 winc 20 binc 20 movestogo 7"
        );
        let fixed = Limits {
            nodes: Some(5000),
            depth: Some(9),
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(go(&fixed).to_string(), "go depth 9 nodes 5000 movetime 100");
    }
}

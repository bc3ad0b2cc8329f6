//! From the protocol's `go` to what this engine does with it: search limits, pondering,
//! perft. Line parsing itself is the `uci-protocol` crate's.

use std::time::Duration;

use uci_protocol::{Go, UciMove};

use crate::search::{Clock, Limits};

/// Deepest `go perft` accepted: deeper counts run for hours from ordinary positions.
pub const MAX_PERFT_DEPTH: u32 = 12;
/// `go depth` and `go movestogo` beyond this are treated as this.
const MAX_DEPTH: u32 = 1000;

/// What a `go` asks of this engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoRequest {
    /// Search with these limits; `ponder` searches until `ponderhit` or `stop` first.
    Search {
        limits: Limits,
        ponder: bool,
        searchmoves: Vec<UciMove>,
    },
    /// Count leaf nodes per root move to this depth.
    Perft(u32),
}

/// Turns the protocol's `go` into a request; `warnings` lists what is not honoured.
pub fn go_request(go: &Go, warnings: &mut Vec<String>) -> GoRequest {
    if let Some(depth) = go.perft {
        if depth <= MAX_PERFT_DEPTH {
            return GoRequest::Perft(depth);
        }
        warnings.push(format!(
            "go: 'perft' value '{depth}' is too deep (accepted: 1..={MAX_PERFT_DEPTH}); searching instead"
        ));
    }
    let ms = |v: i64| Duration::from_millis(u64::try_from(v).unwrap_or(0));
    let mut limits = Limits {
        depth: go.depth.map(|d| d.min(MAX_DEPTH)),
        nodes: go.nodes,
        movetime: go.movetime.map(Duration::from_millis),
        clock: None,
        infinite: go.infinite,
    };
    // GUIs may send negative times when a clock ran out: those count as zero.
    if go.wtime.is_some() || go.btime.is_some() {
        limits.clock = Some(Clock {
            white_time: go.wtime.map_or(Duration::ZERO, ms),
            black_time: go.btime.map_or(Duration::ZERO, ms),
            white_increment: go.winc.map_or(Duration::ZERO, ms),
            black_increment: go.binc.map_or(Duration::ZERO, ms),
            moves_to_go: go.movestogo.map(|m| m.min(MAX_DEPTH)),
        });
    }
    if let Some(mate) = go.mate {
        // No mate search: a mate in n is n moves of ours and n-1 replies deep.
        let plies = mate.saturating_mul(2).saturating_sub(1).min(MAX_DEPTH);
        limits.depth = Some(limits.depth.map_or(plies, |d| d.min(plies)));
    }
    GoRequest::Search {
        limits,
        ponder: go.ponder,
        searchmoves: go.searchmoves.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uci_protocol::GuiMessage;

    fn request(line: &str) -> (GoRequest, Vec<String>) {
        let Ok(GuiMessage::Go(go)) = line.parse::<GuiMessage>() else {
            panic!("{line}")
        };
        let mut warnings = Vec::new();
        (go_request(&go, &mut warnings), warnings)
    }

    #[test]
    fn every_limit() {
        let (GoRequest::Search { limits, ponder, .. }, warnings) = request(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 5 nodes 999 movetime 300",
        ) else {
            panic!()
        };
        assert!(warnings.is_empty() && !ponder);
        assert_eq!(limits.depth, Some(5));
        assert_eq!(limits.nodes, Some(999));
        assert_eq!(limits.movetime, Some(Duration::from_millis(300)));
        let clock = limits.clock.unwrap();
        assert_eq!(clock.white_time, Duration::from_millis(1000));
        assert_eq!(clock.black_time, Duration::ZERO);
        assert_eq!(clock.black_increment, Duration::from_millis(20));
        assert_eq!(clock.moves_to_go, Some(7));
    }

    #[test]
    fn perft_ponder_and_mate() {
        assert_eq!(request("go perft 3").0, GoRequest::Perft(3));
        let (GoRequest::Search { limits, .. }, warnings) = request("go perft 40") else {
            panic!()
        };
        assert_eq!(warnings.len(), 1);
        assert_eq!(limits, Limits::default());
        let (GoRequest::Search { ponder, .. }, _) = request("go ponder wtime 10 btime 10") else {
            panic!()
        };
        assert!(ponder);
        let (GoRequest::Search { limits, .. }, _) = request("go mate 2") else {
            panic!()
        };
        assert_eq!(limits.depth, Some(3));
    }
}

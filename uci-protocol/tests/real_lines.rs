//! Lines as real engines and GUIs write them (Stockfish, cutechess), and the errors on bad ones.

use uci_protocol::{
    Bound, EngineMessage, Go, GuiMessage, Info, OptionDecl, OptionKind, ParseError, Score,
    ScoreValue, StartPosition, UciMove,
};

fn info(line: &str) -> Info {
    match line.parse::<EngineMessage>() {
        Ok(EngineMessage::Info(info)) => info,
        other => panic!("{line}: {other:?}"),
    }
}

fn mv(text: &str) -> UciMove {
    text.parse().unwrap()
}

#[test]
fn stockfish_info_lines() {
    let i = info(
        "info depth 24 seldepth 33 multipv 1 score cp 31 wdl 72 892 36 nodes 2486931 nps 1129848 hashfull 706 tbhits 0 time 2201 pv e2e4 e7e5 g1f3 b8c6",
    );
    assert_eq!(
        (i.depth, i.seldepth, i.multipv),
        (Some(24), Some(33), Some(1))
    );
    assert_eq!(i.score, Some(Score::exact(ScoreValue::Cp(31))));
    assert_eq!(
        (i.nodes, i.nps, i.hashfull, i.tbhits),
        (Some(2486931), Some(1129848), Some(706), Some(0))
    );
    assert_eq!(i.time, Some(2201));
    assert_eq!(i.pv, ["e2e4", "e7e5", "g1f3", "b8c6"].map(mv));

    let bound = info(
        "info depth 20 seldepth 28 multipv 1 score cp -12 upperbound nodes 10 nps 5 hashfull 1 tbhits 0 time 2 pv d7d5",
    );
    assert_eq!(
        bound.score,
        Some(Score {
            value: ScoreValue::Cp(-12),
            bound: Bound::Upper
        })
    );
    let mate = info("info depth 5 seldepth 6 score mate -3 lowerbound nodes 77 pv e7e8q");
    assert_eq!(
        mate.score,
        Some(Score {
            value: ScoreValue::Mate(-3),
            bound: Bound::Lower
        })
    );
    assert_eq!(mate.pv, [mv("e7e8q")]);

    let current = info("info depth 13 currmove e2e4 currmovenumber 1");
    assert_eq!(
        (current.currmove, current.currmovenumber),
        (Some(mv("e2e4")), Some(1))
    );

    let text = info(
        "info string NNUE evaluation using nn-1111cefa1111.nnue (133MiB,  (22528, 3072, 15, 32, 1))",
    );
    assert_eq!(
        text.string.as_deref(),
        Some("NNUE evaluation using nn-1111cefa1111.nnue (133MiB, (22528, 3072, 15, 32, 1))")
    );

    // A pv ends at the first word that is not a move; unknown fields after it are skipped.
    let tail = info("info depth 5 score cp 3 pv e2e4 bmc 0.5 refutation d2d4 d7d5");
    assert_eq!(tail.pv, [mv("e2e4")]);
}

#[test]
fn option_lines_with_spaces_and_keywords() {
    let parse = |l: &str| match l.parse::<EngineMessage>() {
        Ok(EngineMessage::Option(o)) => o,
        other => panic!("{l}: {other:?}"),
    };
    let hash = parse("option name Hash type spin default 16 min 1 max 33554432");
    assert_eq!(
        hash.kind,
        OptionKind::Spin {
            default: Some(16),
            min: Some(1),
            max: Some(33554432)
        }
    );
    assert_eq!(
        parse("option name Clear Hash type button"),
        OptionDecl {
            name: "Clear Hash".into(),
            kind: OptionKind::Button
        }
    );
    let log = parse("option name Debug Log File type string default <empty>");
    assert_eq!(log.name, "Debug Log File");
    assert_eq!(
        log.kind,
        OptionKind::String {
            default: Some(String::new())
        }
    );
    let combo =
        parse("option name Style type combo default Normal var Solid var Normal var Risky Play");
    assert_eq!(
        combo.kind,
        OptionKind::Combo {
            default: Some("Normal".into()),
            vars: vec!["Solid".into(), "Normal".into(), "Risky Play".into()]
        }
    );
    assert!(combo.check_value("risky play").is_ok());
    assert!(
        combo
            .check_value("Wild")
            .unwrap_err()
            .contains("Solid, Normal, Risky Play")
    );
    let odd = parse("option name Max Threads min type spin default 1 min 1 max 8");
    assert_eq!(odd.name, "Max Threads min");
    let check = parse("option name UCI_Chess960 type check default false");
    assert_eq!(
        check.kind,
        OptionKind::Check {
            default: Some(false)
        }
    );
    assert!(check.check_value("yes").is_err());
    assert!(
        hash.check_value("0")
            .unwrap_err()
            .contains("outside its range 1..=33554432")
    );
    assert!(
        hash.check_value("lots")
            .unwrap_err()
            .contains("not an integer")
    );

    for bad in [
        "option name X",
        "option name X type weird",
        "option type spin",
        "option name X type spin min many",
    ] {
        assert!(bad.parse::<EngineMessage>().is_err(), "{bad}");
    }
    assert!(
        "option name X type weird"
            .parse::<EngineMessage>()
            .unwrap_err()
            .to_string()
            .contains("weird")
    );
}

#[test]
fn other_engine_lines() {
    assert_eq!(
        "id name Stockfish 17".parse(),
        Ok(EngineMessage::IdName("Stockfish 17".into()))
    );
    assert_eq!(
        "id author the Stockfish developers (see AUTHORS file)"
            .parse::<EngineMessage>()
            .unwrap()
            .to_string(),
        "id author the Stockfish developers (see AUTHORS file)"
    );
    assert_eq!("uciok\r".parse(), Ok(EngineMessage::UciOk));
    assert_eq!("  readyok".parse(), Ok(EngineMessage::ReadyOk));
    assert_eq!(
        "bestmove (none)".parse(),
        Ok(EngineMessage::BestMove {
            best: UciMove::Null,
            ponder: None
        })
    );
    assert_eq!(
        "bestmove e1h1".parse(),
        Ok(EngineMessage::BestMove {
            best: mv("e1h1"),
            ponder: None
        })
    );
    assert!(
        matches!("Stockfish 17 by the Stockfish developers".parse::<EngineMessage>(), Err(ParseError::UnknownCommand(t)) if t == "Stockfish")
    );
    let bad = "bestmove xyz".parse::<EngineMessage>().unwrap_err();
    assert!(bad.to_string().contains("'xyz'"), "{bad}");
    assert!("bestmove".parse::<EngineMessage>().is_err());
    assert!("bestmove e2e4 e7e5".parse::<EngineMessage>().is_err());
}

#[test]
fn gui_lines() {
    let go: GuiMessage = "go wtime -45 btime 1200 winc 0 binc 0 movestogo 3"
        .parse()
        .unwrap();
    assert_eq!(
        go,
        GuiMessage::Go(Go {
            wtime: Some(-45),
            btime: Some(1200),
            winc: Some(0),
            binc: Some(0),
            movestogo: Some(3),
            ..Go::default()
        })
    );
    let perft: GuiMessage = "go perft 3".parse().unwrap();
    assert_eq!(
        perft,
        GuiMessage::Go(Go {
            perft: Some(3),
            ..Go::default()
        })
    );
    let ponder: GuiMessage = "go ponder searchmoves e2e4 d2d4 wtime 100 btime 100"
        .parse()
        .unwrap();
    let GuiMessage::Go(ponder) = ponder else {
        panic!()
    };
    assert!(ponder.ponder);
    assert_eq!(ponder.searchmoves, [mv("e2e4"), mv("d2d4")]);

    // Values out of range name the key, the value and the range; lenient parsing goes on.
    let err = "go nodes -1".parse::<GuiMessage>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "go: 'nodes' value '-1' is invalid (accepted: an integer in 1..=18446744073709551615)"
    );
    let lenient = GuiMessage::parse_lenient("go depth banana movetime 50 frobnicate").unwrap();
    assert_eq!(
        lenient.message,
        GuiMessage::Go(Go {
            movetime: Some(50),
            ..Go::default()
        })
    );
    assert_eq!(lenient.warnings.len(), 2, "{:?}", lenient.warnings);
    assert!(lenient.warnings[0].to_string().contains("banana"));
    assert!(lenient.warnings[1].is_unknown_token());
    // `FromStr` skips unknown tokens silently.
    assert!("go frobnicate depth 3".parse::<GuiMessage>().is_ok());

    let setoption: GuiMessage = "setoption name Debug Log File value /tmp/a b.txt"
        .parse()
        .unwrap();
    assert_eq!(
        setoption,
        GuiMessage::SetOption {
            name: "Debug Log File".into(),
            value: Some("/tmp/a b.txt".into())
        }
    );
    let chess960: GuiMessage =
        "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1"
            .parse()
            .unwrap();
    let GuiMessage::Position {
        start: StartPosition::Fen(_),
        moves,
    } = chess960
    else {
        panic!()
    };
    assert_eq!(moves, [mv("g1h1")]);

    for (bad, named) in [
        ("position startpos moves e2e4 e7e9", "e7e9"),
        ("position fen not/a/fen", "not/a/fen"),
        ("position sideways", "sideways"),
        ("position", "startpos"),
        ("setoption value 3", "value"),
        ("debug maybe", "maybe"),
        ("xyzzy now", "xyzzy"),
        ("isready please", "please"),
    ] {
        let err = bad.parse::<GuiMessage>().unwrap_err().to_string();
        assert!(err.contains(named), "{bad}: {err}");
    }
    assert_eq!("   ".parse::<GuiMessage>(), Err(ParseError::Empty));
}

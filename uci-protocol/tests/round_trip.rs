//! parse(display(m)) == m for generated messages of every kind.

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{Role, Square};
use uci_protocol::{
    Bound, EngineMessage, Go, GuiMessage, Info, OptionDecl, OptionKind, Registration, Score,
    ScoreValue, StartPosition, Status, UciMove,
};

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Chess960 with Shredder castling rights.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fn a_move() -> impl Strategy<Value = UciMove> {
    let promotion = prop_oneof![
        3 => Just(None),
        1 => prop::sample::select(vec![Role::Knight, Role::Bishop, Role::Rook, Role::Queen]).prop_map(Some),
    ];
    prop_oneof![
        10 => (0u32..64, 0u32..64, promotion).prop_map(|(from, to, promotion)| UciMove::Normal {
            from: Square::new(from),
            to: Square::new(to),
            promotion,
        }),
        1 => Just(UciMove::Null),
    ]
}

fn moves(max: usize) -> impl Strategy<Value = Vec<UciMove>> {
    prop::collection::vec(a_move(), 0..max)
}

/// Words as in names and texts, avoiding the keywords that end a name.
fn words(reserved: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        "[A-Za-z<>_][A-Za-z0-9_.-]{0,7}"
            .prop_filter("keyword", move |w| !reserved.contains(&w.as_str())),
        1..4,
    )
    .prop_map(|w| w.join(" "))
}

const OPTION_KEYWORDS: &[&str] = &["name", "type", "default", "min", "max", "var", "<empty>"];

fn go() -> impl Strategy<Value = Go> {
    let time = || proptest::option::of(-1000i64..10_000_000);
    (
        prop::collection::vec(a_move(), 0..4),
        any::<bool>(),
        (time(), time(), time(), time()),
        proptest::option::of(1u32..100),
        proptest::option::of(1u32..200),
        proptest::option::of(1u64..u64::MAX),
        proptest::option::of(1u32..50),
        proptest::option::of(0u64..1_000_000),
        any::<bool>(),
        proptest::option::of(1u32..8),
    )
        .prop_map(
            |(
                searchmoves,
                ponder,
                (wtime, btime, winc, binc),
                movestogo,
                depth,
                nodes,
                mate,
                movetime,
                infinite,
                perft,
            )| Go {
                searchmoves,
                ponder,
                wtime,
                btime,
                winc,
                binc,
                movestogo,
                depth,
                nodes,
                mate,
                movetime,
                infinite,
                perft,
            },
        )
}

fn gui_message() -> impl Strategy<Value = GuiMessage> {
    let start = prop_oneof![
        Just(StartPosition::StartPos),
        prop::sample::select(FENS.to_vec())
            .prop_map(|f| StartPosition::Fen(f.parse::<Fen>().unwrap())),
    ];
    prop_oneof![
        Just(GuiMessage::Uci),
        any::<bool>().prop_map(GuiMessage::Debug),
        Just(GuiMessage::IsReady),
        (words(&["value"]), proptest::option::of(words(&[])))
            .prop_map(|(name, value)| GuiMessage::SetOption { name, value }),
        Just(GuiMessage::Register(Registration::Later)),
        (words(&["code"]), words(&[]))
            .prop_map(|(name, code)| GuiMessage::Register(Registration::Name { name, code })),
        Just(GuiMessage::UciNewGame),
        (start, moves(8)).prop_map(|(start, moves)| GuiMessage::Position { start, moves }),
        go().prop_map(GuiMessage::Go),
        Just(GuiMessage::Stop),
        Just(GuiMessage::PonderHit),
        Just(GuiMessage::Quit),
    ]
}

fn info() -> impl Strategy<Value = Info> {
    let score = (
        prop_oneof![
            (-30_000i32..30_000).prop_map(ScoreValue::Cp),
            (-100i32..100).prop_map(ScoreValue::Mate)
        ],
        prop::sample::select(vec![Bound::Exact, Bound::Lower, Bound::Upper]),
    )
        .prop_map(|(value, bound)| Score { value, bound });
    (
        (
            proptest::option::of(0u32..256),
            proptest::option::of(0u32..256),
            proptest::option::of(1u32..8),
            proptest::option::of(score),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
        ),
        (
            proptest::option::of(0u32..=1000),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(a_move()),
            proptest::option::of(1u32..200),
            moves(10),
            proptest::option::of(words(&[])),
        ),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv, score, nodes, nps),
                (hashfull, tbhits, time, currmove, currmovenumber, pv, string),
            )| Info {
                depth,
                seldepth,
                multipv,
                score,
                nodes,
                nps,
                hashfull,
                tbhits,
                time,
                currmove,
                currmovenumber,
                pv,
                string,
            },
        )
}

fn option() -> impl Strategy<Value = OptionDecl> {
    let text = || proptest::option::of(prop_oneof![Just(String::new()), words(OPTION_KEYWORDS)]);
    let int = || proptest::option::of(any::<i64>());
    let kind = prop_oneof![
        proptest::option::of(any::<bool>()).prop_map(|default| OptionKind::Check { default }),
        (int(), int(), int()).prop_map(|(default, min, max)| OptionKind::Spin {
            default,
            min,
            max
        }),
        (text(), prop::collection::vec(words(OPTION_KEYWORDS), 0..4))
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        Just(OptionKind::Button),
        text().prop_map(|default| OptionKind::String { default }),
    ];
    // A name may contain keywords other than `type`.
    (words(&["type", "<empty>"]), kind).prop_map(|(name, kind)| OptionDecl { name, kind })
}

fn engine_message() -> impl Strategy<Value = EngineMessage> {
    let status = || prop::sample::select(vec![Status::Checking, Status::Ok, Status::Error]);
    prop_oneof![
        words(&[]).prop_map(EngineMessage::IdName),
        words(&[]).prop_map(EngineMessage::IdAuthor),
        Just(EngineMessage::UciOk),
        Just(EngineMessage::ReadyOk),
        (a_move(), proptest::option::of(a_move()))
            .prop_map(|(best, ponder)| EngineMessage::BestMove { best, ponder }),
        status().prop_map(EngineMessage::CopyProtection),
        status().prop_map(EngineMessage::Registration),
        info().prop_map(EngineMessage::Info),
        option().prop_map(EngineMessage::Option),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn gui_messages_round_trip(message in gui_message()) {
        let line = message.to_string();
        prop_assert_eq!(line.parse::<GuiMessage>(), Ok(message.clone()), "line: {}", line);
        let lenient = GuiMessage::parse_lenient(&line).unwrap();
        prop_assert!(lenient.warnings.is_empty(), "{:?}", lenient.warnings);
    }

    #[test]
    fn engine_messages_round_trip(message in engine_message()) {
        let line = message.to_string();
        prop_assert_eq!(line.parse::<EngineMessage>(), Ok(message.clone()), "line: {}", line);
        let lenient = EngineMessage::parse_lenient(&line).unwrap();
        prop_assert!(lenient.warnings.is_empty(), "{:?}", lenient.warnings);
    }

    /// Display is canonical: parsing canonical text and writing it again changes nothing.
    #[test]
    fn display_is_a_fixed_point(message in engine_message()) {
        let line = message.to_string();
        let again = line.parse::<EngineMessage>().unwrap().to_string();
        prop_assert_eq!(again, line);
    }
}

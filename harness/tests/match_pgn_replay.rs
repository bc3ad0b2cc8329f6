//! python-chess reads every game of games.pgn back, and replaying it reaches the final FEN
//! that games.csv records. Skipped (with the reason printed) without python-chess.

mod match_common;

use std::process::Command;

use match_common::*;

const REPLAY: &str = r#"
import csv, sys, chess.pgn
folder = sys.argv[1]
finals = {int(r["game"]) + 1: r for r in csv.DictReader(open(folder + "/games.csv"))}
seen = 0
with open(folder + "/games.pgn") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        if game.errors:
            sys.exit(f"game {game.headers['Round']}: {game.errors}")
        row = finals[int(game.headers["Round"])]
        board = game.end().board()
        if board.fen() != row["final_fen"]:
            sys.exit(f"game {game.headers['Round']}: {board.fen()} != {row['final_fen']}")
        if game.headers["Result"] != row["result"] or int(game.headers["PlyCount"]) != board.ply() - game.board().ply():
            sys.exit(f"game {game.headers['Round']}: result or ply count differs")
        seen += 1
if seen != len(finals):
    sys.exit(f"{seen} games in the PGN, {len(finals)} in the CSV")
print(seen)
"#;

#[test]
fn python_chess_replays_every_game_to_the_csv_final_fen() {
    let has_chess = Command::new("python3")
        .args(["-c", "import chess"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_chess {
        engine::testing::skip(
            "python3 with python-chess (import chess) is not available to cross-check our PGN",
        );
        return;
    }
    let tmp = tempdir();
    let dir = tmp.path().join("run");
    let book = tmp.path().join("book.pgn");
    // A PGN book (book moves in the PGN) and an EPD book with a Black-to-move start.
    std::fs::write(&book, "[Event \"a\"]\n\n1. e4 c5 2. Nf3 d6 *\n\n[Event \"b\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... Nf6 2. c4 e6 *\n").unwrap();
    let out = harness(&[
        "match",
        "--engine",
        "name=base",
        "--engine",
        "name=dev",
        "qsearch_depth=2",
        "delta_margin=400",
        "--each",
        "nodes=400",
        "--games",
        "12",
        "--concurrency",
        "2",
        "--openings",
        &format!("file={}", book.display()),
        "--resign",
        "movecount=3",
        "score=600",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let epd_dir = tmp.path().join("epd");
    let out = harness(&[
        "match",
        "--engine",
        "name=base",
        "--engine",
        "name=dev",
        "qsearch_depth=2",
        "delta_margin=400",
        "--each",
        "nodes=400",
        "--games",
        "12",
        "--concurrency",
        "2",
        "--out",
        epd_dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for folder in [&dir, &epd_dir] {
        let replay = Command::new("python3")
            .args(["-c", REPLAY, folder.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            replay.status.success(),
            "python-chess disagrees: {}",
            String::from_utf8_lossy(&replay.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&replay.stdout).trim(), "12");
    }
}

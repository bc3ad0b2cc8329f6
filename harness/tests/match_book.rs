//! Opening books: EPD (4 or 6 fields, opcodes), PGN (tags, comments, variations, FEN starts,
//! `plies`), xz, order and start, and malformed entries.

mod match_common;

use std::io::Write;
use std::path::{Path, PathBuf};

use harness::book::{Book, BookFormat, BookOrder, BookSpec, OnBadEntry};
use match_common::tempdir;

fn spec(file: &Path) -> BookSpec {
    BookSpec::for_file(file).unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const EPD: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"open\";
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2

r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 ce 12;
";

#[test]
fn epd_with_four_or_six_fields_and_opcodes() {
    let tmp = tempdir();
    let path = write(tmp.path(), "b.epd", EPD);
    let book = Book::load(&spec(&path), 1).unwrap();
    assert_eq!(book.len(), 3);
    assert_eq!(
        book.openings[0].fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(
        book.openings[2].fen(),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    assert!(book.openings.iter().all(|o| o.moves.is_empty()));
}

#[test]
fn order_and_start() {
    let tmp = tempdir();
    let path = write(tmp.path(), "b.epd", EPD);
    let mut s = spec(&path);
    s.start = 2;
    let book = Book::load(&s, 1).unwrap();
    let seq: Vec<usize> = (0..4).map(|p| book.for_pair(p).0).collect();
    assert_eq!(seq, vec![1, 2, 0, 1]);
    s.start = 1;
    s.order = BookOrder::Random;
    let a: Vec<usize> = (0..3)
        .map(|p| Book::load(&s, 9).unwrap().for_pair(p).0)
        .collect();
    let b: Vec<usize> = (0..3)
        .map(|p| Book::load(&s, 9).unwrap().for_pair(p).0)
        .collect();
    assert_eq!(a, b, "same seed, same order");
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, vec![0, 1, 2], "a permutation");
    s.start = 4;
    assert!(Book::load(&s, 1).is_err());
}

const PGN: &str = r#"[Event "one"]
[White "x"]

1. e4 {a comment
over two lines} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3.Bb5 a6 ; rest of line
4. Ba4 Nf6 1-0

[Event "two"]
[FEN "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]

1... d5 2. c4 e6 3. Nc3 *
"#;

#[test]
fn pgn_moves_up_to_plies_from_standard_or_fen_start() {
    let tmp = tempdir();
    let path = write(tmp.path(), "b.pgn", PGN);
    let mut s = spec(&path);
    assert_eq!(s.format, BookFormat::Pgn);
    let book = Book::load(&s, 1).unwrap();
    assert_eq!(book.len(), 2);
    assert_eq!(book.openings[0].moves.len(), 8);
    assert!(book.openings[0].starts_from_standard());
    assert_eq!(book.openings[1].moves.len(), 4);
    assert!(!book.openings[1].starts_from_standard());
    s.plies = Some(3);
    let book = Book::load(&s, 1).unwrap();
    assert_eq!(
        book.openings[0].fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(
        book.openings[1].fen(),
        "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3"
    );
}

#[test]
fn malformed_entries_name_file_and_line_or_are_skipped() {
    let tmp = tempdir();
    let bad_epd = write(tmp.path(), "bad.epd", &format!("{EPD}8/8/8 w - -\n"));
    let err = Book::load(&spec(&bad_epd), 1).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}:5:", bad_epd.display())),
        "{err}"
    );
    assert!(err.contains("8/8/8"), "{err}");
    let mut s = spec(&bad_epd);
    s.on_bad_entry = OnBadEntry::Skip;
    let book = Book::load(&s, 1).unwrap();
    assert_eq!((book.len(), book.skipped), (3, 1));

    let bad_pgn = write(tmp.path(), "bad.pgn", &PGN.replace("3. Nc3", "3. Nc9"));
    let err = Book::load(&spec(&bad_pgn), 1).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}:12:", bad_pgn.display())),
        "{err}"
    );
    let illegal = write(
        tmp.path(),
        "illegal.pgn",
        &PGN.replace("2. Nf3 $1", "2. Nf6 $1"),
    );
    let err = Book::load(&spec(&illegal), 1).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}:5:", illegal.display())) && err.contains("Nf6"),
        "{err}"
    );
    // Past `plies` a bad move does not matter.
    let mut s = spec(&bad_pgn);
    s.plies = Some(3);
    assert_eq!(Book::load(&s, 1).unwrap().len(), 2);

    let empty = write(tmp.path(), "empty.epd", "\n\n");
    assert!(
        Book::load(&spec(&empty), 1)
            .unwrap_err()
            .to_string()
            .contains("no usable openings")
    );
    assert!(Book::load(&spec(&tmp.path().join("missing.epd")), 1).is_err());
}

#[test]
fn xz_compressed_books() {
    let tmp = tempdir();
    let path = tmp.path().join("b.epd.xz");
    let mut enc = liblzma::write::XzEncoder::new(std::fs::File::create(&path).unwrap(), 6);
    enc.write_all(EPD.as_bytes()).unwrap();
    enc.finish().unwrap();
    assert_eq!(Book::load(&spec(&path), 1).unwrap().len(), 3);
}

#[test]
fn shipped_book_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/balanced-8ply.epd");
    let book = Book::load(&spec(&path), 1).unwrap();
    assert_eq!((book.len(), book.skipped), (1000, 0));
}

#[test]
fn shared_public_books() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/openings");
    if !shared.exists() {
        engine::testing::skip("../shared not found");
        return;
    }
    let mut s = spec(&shared.join("8moves_v3.pgn.xz"));
    s.plies = Some(16);
    let pgn = Book::load(&s, 1).unwrap();
    assert_eq!((pgn.len(), pgn.skipped), (34_700, 0));
    let epd = Book::load(&spec(&shared.join("8moves_v3.epd.xz")), 1).unwrap();
    assert_eq!((epd.len(), epd.skipped), (34_700, 0));
    // The PGN and EPD editions hold the same positions.
    let pgn_fens: std::collections::HashSet<String> = pgn
        .openings
        .iter()
        .map(|o| o.fen().split(' ').take(4).collect::<Vec<_>>().join(" "))
        .collect();
    let same = epd
        .openings
        .iter()
        .filter(|o| pgn_fens.contains(&o.fen().split(' ').take(4).collect::<Vec<_>>().join(" ")))
        .count();
    assert!(same > 34_000, "only {same} positions in common");
}

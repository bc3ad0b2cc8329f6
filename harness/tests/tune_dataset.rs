//! Reading tuner data sets: book, CSV and EPD formats, `.xz`, a last line without a newline,
//! and malformed lines (an error naming file and line, or skipped and counted).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use harness::UsageError;
use harness::tune::dataset::{Format, ReadOptions, detect, read_all};
use shakmaty::{Color, Position};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const SICILIAN: &str = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn strict(format: Format) -> ReadOptions {
    ReadOptions {
        format,
        skip_bad: false,
    }
}

#[test]
fn book_format_with_last_line_without_newline() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "a.book",
        &format!("{START} [1.0]\n\n{SICILIAN} [0.5]\r\n8/8/8/4k3/8/8/8/R3K3 b - - 0 1 [0.0]"),
    );
    let (samples, report) = read_all(&path, strict(Format::Auto)).unwrap();
    assert_eq!(report.samples, 3);
    assert_eq!(report.skipped, 0);
    let results: Vec<f32> = samples.iter().map(|s| s.result).collect();
    assert_eq!(results, [1.0, 0.5, 0.0]);
    assert_eq!(samples[2].position.turn(), Color::Black);
}

#[test]
fn csv_format_takes_the_last_field_and_skips_a_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "a.csv",
        &format!("fen;result\n{START}; 1.0\n{SICILIAN}; 35; 0.5\n{START};0-1\n{START}; 1/2-1/2\n"),
    );
    let (samples, _) = read_all(&path, strict(Format::Auto)).unwrap();
    let results: Vec<f32> = samples.iter().map(|s| s.result).collect();
    assert_eq!(results, [1.0, 0.5, 0.0, 0.5]);
    let scores: Vec<Option<f32>> = samples.iter().map(|s| s.score).collect();
    assert_eq!(scores, [None, Some(35.0), None, None]);

    let comma = write(dir.path(), "b.txt", &format!("fen,result\n{START},1-0\n"));
    let (samples, _) = read_all(&comma, strict(Format::Csv)).unwrap();
    assert_eq!(samples.len(), 1);
    assert_eq!(samples[0].result, 1.0);
}

#[test]
fn csv_score_and_field_count_errors_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad_score = write(
        dir.path(),
        "s.csv",
        &format!("{START}; 12; 1.0\n{START}; #3; 1.0\n"),
    );
    let err = read_all(&bad_score, strict(Format::Auto)).unwrap_err();
    assert!(err.to_string().contains("s.csv:2: score '#3'"), "{err}");
    let four = write(dir.path(), "f.csv", &format!("{START}; 12; 7; 1.0\n"));
    let err = read_all(&four, strict(Format::Auto)).unwrap_err();
    assert!(err.to_string().contains("f.csv:1: expected"), "{err}");
}

#[test]
fn epd_format_reads_the_c9_opcode() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "a.epd",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1/2-1/2\";\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"x\"; c9 \"1-0\";\n\
         8/8/8/4k3/8/8/8/R3K3 w - - 3 40 c9 \"0-1\";",
    );
    let (samples, _) = read_all(&path, strict(Format::Auto)).unwrap();
    let results: Vec<f32> = samples.iter().map(|s| s.result).collect();
    assert_eq!(results, [0.5, 1.0, 0.0]);
    assert_eq!(samples[0].position.turn(), Color::Black);
    assert_eq!(samples[2].position.halfmoves(), 3);
}

#[test]
fn xz_compressed_files_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.book.xz");
    let mut encoder = liblzma::write::XzEncoder::new(std::fs::File::create(&path).unwrap(), 6);
    for _ in 0..1000 {
        writeln!(encoder, "{START} [0.5]").unwrap();
    }
    write!(encoder, "{SICILIAN} [1.0]").unwrap();
    encoder.finish().unwrap();
    let (samples, report) = read_all(&path, strict(Format::Auto)).unwrap();
    assert_eq!(report.samples, 1001);
    assert_eq!(samples[1000].result, 1.0);
}

#[test]
fn a_bad_line_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "bad-fen.book",
            format!("{START} [1.0]\n{START} [0.5]\nnot/a/fen w - - 0 1 [1.0]\n"),
        ),
        (
            "bad-result.book",
            format!("{START} [1.0]\n{START} [0.5]\n{START} [2.0]\n"),
        ),
        (
            "no-result.book",
            format!("{START} [1.0]\n{START} [0.5]\n{START}\n"),
        ),
        (
            "illegal.book",
            format!("{START} [1.0]\n{START} [0.5]\n8/8/8/8/8/8/8/8 w - - 0 1 [1.0]\n"),
        ),
    ];
    for (name, text) in cases {
        let path = write(dir.path(), name, &text);
        let err = read_all(&path, strict(Format::Book)).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains(&format!("{}:3:", path.display())),
            "{name}: {message}"
        );
        assert!(
            err.downcast_ref::<UsageError>().is_some(),
            "{name}: not a usage error"
        );
    }
    let epd = write(dir.path(), "no-c9.epd", &format!("{START}\n"));
    let err = read_all(&epd, strict(Format::Epd)).unwrap_err();
    assert!(err.to_string().contains("no-c9.epd:1:"), "{err}");
    assert!(err.to_string().contains("c9"), "{err}");
}

#[test]
fn skip_bad_counts_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "mixed.book",
        &format!("{START} [1.0]\ngarbage\n{SICILIAN} [0.0]\n{START} [x]\n{START} [0.5]"),
    );
    let (samples, report) = read_all(
        &path,
        ReadOptions {
            format: Format::Book,
            skip_bad: true,
        },
    )
    .unwrap();
    assert_eq!(samples.len(), 3);
    assert_eq!(report.skipped, 2);
    assert!(report.first_skipped.unwrap().contains("mixed.book:2:"));
}

#[test]
fn missing_file_is_a_usage_error() {
    let err = read_all(Path::new("/no/such/file.book"), strict(Format::Auto)).unwrap_err();
    assert!(err.downcast_ref::<UsageError>().is_some());
    assert!(err.to_string().contains("/no/such/file.book"), "{err}");
}

#[test]
fn format_detection() {
    assert_eq!(detect(Path::new("x.book.xz"), ""), Format::Book);
    assert_eq!(detect(Path::new("x.epd"), ""), Format::Epd);
    assert_eq!(detect(Path::new("x.csv"), ""), Format::Csv);
    assert_eq!(
        detect(Path::new("x.txt"), &format!("{START} [1.0]")),
        Format::Book
    );
    assert_eq!(
        detect(Path::new("x"), "8/8/8/4k3/8/8/8/R3K3 w - - c9 \"1-0\";"),
        Format::Epd
    );
    assert_eq!(
        detect(Path::new("x.txt"), &format!("{START}; 1.0")),
        Format::Csv
    );
}

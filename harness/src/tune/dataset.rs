//! Labelled positions for the tuner: the `FEN [1.0]` book format, `FEN; result` CSV and EPD
//! with a `c9 "1-0";` opcode, plain or `.xz`-compressed.
//!
//! Results are always from White's view: 1.0 White won, 0.5 draw, 0.0 Black won.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context as _;
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, PositionError};

use crate::UsageError;

/// How the lines of a data set are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `<FEN> [1.0]` (Ethereal / lichess-big3 "book" files).
    Book,
    /// `<FEN>; <result>` or `<FEN>; <score>; <result>` (the last field is the result).
    Csv,
    /// `<4-field EPD> ... c9 "1-0";`
    Epd,
    /// From the file extension, else from the first line.
    Auto,
}

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    pub position: Chess,
    /// Game result from White's view, in `[0, 1]`.
    pub result: f32,
    /// Search score in centipawns from White's view, when the line has one
    /// (`<FEN>; <score>; <result>`).
    pub score: Option<f32>,
}

/// How to read a data set.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions {
    pub format: Format,
    /// Skip (and count) malformed lines instead of failing on the first one.
    pub skip_bad: bool,
}

/// What reading a file found.
#[derive(Clone, Debug, Default)]
pub struct ReadReport {
    pub samples: usize,
    /// Malformed lines skipped (only with `skip_bad`).
    pub skipped: usize,
    /// The first skipped line's error, for the user to see what was wrong.
    pub first_skipped: Option<String>,
}

/// Lines parsed together (in parallel) before being handed on.
pub const CHUNK_LINES: usize = 1 << 16;

/// Reads `path` in chunks of up to [`CHUNK_LINES`] lines, parses each chunk in parallel and
/// hands the samples to `sink` in file order. A malformed line is an error naming the file and
/// line, unless `skip_bad` is set.
pub fn read_chunks(
    path: &Path,
    options: ReadOptions,
    mut sink: impl FnMut(Vec<Sample>) -> anyhow::Result<()>,
) -> anyhow::Result<ReadReport> {
    let mut report = ReadReport::default();
    let mut format = (options.format != Format::Auto).then_some(options.format);
    for_each_chunk(path, |lines| {
        let format = *format.get_or_insert_with(|| detect(path, &lines[0].1));
        let parsed: Vec<Result<Option<Sample>, String>> = lines
            .par_iter()
            .enumerate()
            .map(|(i, (_, text))| match parse_line(text, format) {
                // A CSV header is the first line of a file whose first field says "fen".
                Err(_) if i == 0 && report.samples == 0 && is_header(text) => Ok(None),
                other => other.map(Some),
            })
            .collect();
        let mut samples = Vec::with_capacity(parsed.len());
        for ((line, text), result) in lines.iter().zip(parsed) {
            match result {
                Ok(Some(sample)) => samples.push(sample),
                Ok(None) => {}
                Err(message) => {
                    let message = line_error(path, *line, text, &message);
                    if !options.skip_bad {
                        return Err(UsageError(message).into());
                    }
                    report.skipped += 1;
                    report.first_skipped.get_or_insert(message);
                }
            }
        }
        report.samples += samples.len();
        sink(samples)
    })?;
    Ok(report)
}

/// Reads the lines of `path` (plain or `.xz`) and hands them to `on_chunk` up to
/// [`CHUNK_LINES`] at a time, each trimmed, with its line number; blank lines and `#`
/// comments are left out. A line that is not UTF-8 is an error naming the file and line.
pub fn for_each_chunk(
    path: &Path,
    mut on_chunk: impl FnMut(&[(usize, String)]) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut reader = open(path)?;
    let mut line_no = 0usize;
    let mut bytes = Vec::new();
    loop {
        let mut lines: Vec<(usize, String)> = Vec::with_capacity(CHUNK_LINES);
        while lines.len() < CHUNK_LINES {
            bytes.clear();
            let n = reader
                .read_until(b'\n', &mut bytes)
                .with_context(|| format!("reading {}", path.display()))?;
            if n == 0 {
                break;
            }
            line_no += 1;
            let text = std::str::from_utf8(&bytes).map_err(|_| {
                UsageError(format!(
                    "{}:{line_no}: line is not valid UTF-8",
                    path.display()
                ))
            })?;
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            lines.push((line_no, text.to_string()));
        }
        if lines.is_empty() {
            return Ok(());
        }
        on_chunk(&lines)?;
    }
}

/// The message for a malformed line: `file:line: why (line: '…')`.
pub fn line_error(path: &Path, line: usize, text: &str, message: &str) -> String {
    format!(
        "{}:{line}: {message} (line: '{}')",
        path.display(),
        shorten(text)
    )
}

/// Reads a whole file into memory (for small files and tests).
pub fn read_all(path: &Path, options: ReadOptions) -> anyhow::Result<(Vec<Sample>, ReadReport)> {
    let mut all = Vec::new();
    let report = read_chunks(path, options, |chunk| {
        all.extend(chunk);
        Ok(())
    })?;
    Ok((all, report))
}

/// Opens a data set for reading, decompressing `.xz`; a missing file is a usage error.
pub fn open(path: &Path) -> anyhow::Result<Box<dyn BufRead>> {
    let file = File::open(path)
        .map_err(|e| UsageError(format!("cannot open data set {}: {e}", path.display())))?;
    let inner: Box<dyn Read> = if path.extension().is_some_and(|e| e == "xz") {
        Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(
            BufReader::new(file),
        ))
    } else {
        Box::new(file)
    };
    Ok(Box::new(BufReader::with_capacity(1 << 20, inner)))
}

/// The format of a file: by extension (ignoring `.xz`), else by the look of its first line.
pub fn detect(path: &Path, first_line: &str) -> Format {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let name = name
        .strip_suffix(".xz")
        .unwrap_or(name)
        .to_ascii_lowercase();
    if name.ends_with(".book") {
        Format::Book
    } else if name.ends_with(".epd") {
        Format::Epd
    } else if name.ends_with(".csv") {
        Format::Csv
    } else if first_line.contains(" c9 ") {
        Format::Epd
    } else if first_line.trim_end().ends_with(']') {
        Format::Book
    } else {
        Format::Csv
    }
}

fn is_header(text: &str) -> bool {
    let first = text.split([';', ',']).next().unwrap_or("").trim();
    first.eq_ignore_ascii_case("fen")
}

/// A line cut to 120 characters, for error messages.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    }
}

/// Parses one non-empty line in `format` (not [`Format::Auto`]).
pub fn parse_line(text: &str, format: Format) -> Result<Sample, String> {
    let (fen, score, result) = match format {
        Format::Book | Format::Auto => {
            let (fen, result) = split_book(text)?;
            (fen, None, result)
        }
        Format::Csv => split_csv(text)?,
        Format::Epd => {
            let (fen, result) = split_epd(text)?;
            (fen, None, result)
        }
    };
    let result = parse_result(&result)?;
    let score = score.map(|s| parse_score(&s)).transpose()?;
    let position = parse_position(&fen)?;
    Ok(Sample {
        position,
        result,
        score,
    })
}

fn split_book(text: &str) -> Result<(String, String), String> {
    let open = text
        .rfind('[')
        .ok_or("no result in brackets, expected '<FEN> [1.0]'")?;
    let close = text[open..]
        .find(']')
        .ok_or("unclosed '[' in the result, expected '<FEN> [1.0]'")?;
    if !text[open + close + 1..].trim().is_empty() {
        return Err("text after the bracketed result".into());
    }
    Ok((
        text[..open].trim().to_string(),
        text[open + 1..open + close].trim().to_string(),
    ))
}

/// `<FEN>; <result>` or `<FEN>; <score>; <result>`: the FEN, the score if any, the result.
fn split_csv(text: &str) -> Result<(String, Option<String>, String), String> {
    let separator = if text.contains(';') { ';' } else { ',' };
    let fields: Vec<&str> = text.split(separator).map(str::trim).collect();
    match fields.as_slice() {
        [fen, result] => Ok((fen.to_string(), None, result.to_string())),
        [fen, score, result] => Ok((fen.to_string(), Some(score.to_string()), result.to_string())),
        _ => Err("expected '<FEN>; <result>' or '<FEN>; <score>; <result>'".into()),
    }
}

/// A search score in centipawns (an integer or decimal number).
pub fn parse_score(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(score) if score.is_finite() => Ok(score),
        _ => Err(format!("score '{text}' is not a number of centipawns")),
    }
}

fn split_epd(text: &str) -> Result<(String, String), String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() < 4 {
        return Err("an EPD line needs 4 position fields".into());
    }
    // Some EPD files keep the FEN move counters before the operations.
    let is_counter = |i: usize| tokens.get(i).is_some_and(|t| t.parse::<u32>().is_ok());
    let fields = if is_counter(4) && is_counter(5) { 6 } else { 4 };
    let operations = tokens[fields..].join(" ");
    let result = operations
        .split(';')
        .map(str::trim)
        .find_map(|op| op.strip_prefix("c9"))
        .ok_or("no c9 opcode with the result, expected 'c9 \"1-0\";'")?;
    Ok((
        tokens[..fields].join(" "),
        result.trim().trim_matches('"').to_string(),
    ))
}

/// A result as `1.0`/`0.5`/`0.0` (any number in `[0, 1]`) or `1-0`/`1/2-1/2`/`0-1`.
pub fn parse_result(text: &str) -> Result<f32, String> {
    match text {
        "1-0" => return Ok(1.0),
        "0-1" => return Ok(0.0),
        "1/2-1/2" | "1/2" => return Ok(0.5),
        _ => {}
    }
    match text.parse::<f32>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!(
            "result '{text}' is not 1.0, 0.5, 0.0 (or 1-0, 1/2-1/2, 0-1)"
        )),
    }
}

/// A legal position from a FEN (move counters optional).
pub fn parse_position(fen: &str) -> Result<Chess, String> {
    let parsed: Fen = fen.parse().map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    parsed
        .into_position(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|e| format!("illegal position '{fen}': {e}"))
}

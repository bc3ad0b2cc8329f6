//! Opening books: reading EPD and PGN books, and choosing which opening a game pair plays.
//!
//! An [`Opening`] is a start position plus the book moves played from it; the engines take
//! over at [`Opening::position`]. EPD books give positions only; PGN books give moves.

mod epd;
mod pgn;

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::UsageError;

/// One opening: where the game starts and the book moves played before the engines take over.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the book line starts from (the standard start for most PGN games).
    pub start: Chess,
    /// Book moves from `start`, already checked for legality.
    pub moves: Vec<Move>,
    /// The position after the book moves: where the engines start.
    pub position: Chess,
}

impl Opening {
    /// An opening that starts at `start` and plays `moves` (each must be legal).
    pub fn new(start: Chess, moves: Vec<Move>) -> Result<Opening, String> {
        let mut position = start.clone();
        for m in &moves {
            if !position.is_legal(*m) {
                return Err(format!("illegal book move {m}"));
            }
            position.play_unchecked(*m);
        }
        Ok(Opening {
            start,
            moves,
            position,
        })
    }

    /// The standard starting position with no book moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Chess::default(),
            moves: Vec::new(),
            position: Chess::default(),
        }
    }

    /// FEN of the position the engines start from.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    /// Whether the game starts from the standard position (no FEN tag needed in PGN).
    pub fn starts_from_standard(&self) -> bool {
        self.start == Chess::default()
    }
}

/// The kind of book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    Epd,
    Pgn,
}

impl BookFormat {
    /// Guesses the format from the file name (`.epd`, `.pgn`, optionally followed by `.xz`).
    pub fn from_path(path: &Path) -> Option<BookFormat> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        let name = name.strip_suffix(".xz").unwrap_or(&name);
        if name.ends_with(".epd") {
            Some(BookFormat::Epd)
        } else if name.ends_with(".pgn") {
            Some(BookFormat::Pgn)
        } else {
            None
        }
    }
}

impl std::str::FromStr for BookFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "epd" => Ok(BookFormat::Epd),
            "pgn" => Ok(BookFormat::Pgn),
            other => Err(format!(
                "unknown book format '{other}' (expected epd or pgn)"
            )),
        }
    }
}

/// Which opening each game pair gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookOrder {
    /// Openings in file order, from the start index, wrapping around.
    Sequential,
    /// A shuffled order fixed by the match seed, from the start index, wrapping around.
    Random,
}

impl std::str::FromStr for BookOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "sequential" => Ok(BookOrder::Sequential),
            "random" => Ok(BookOrder::Random),
            other => Err(format!(
                "unknown book order '{other}' (expected sequential or random)"
            )),
        }
    }
}

/// What to do with a malformed book line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnBadEntry {
    /// Stop with an error naming the file and line.
    #[default]
    Fail,
    /// Skip it and count it.
    Skip,
}

/// How to read a book file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookSpec {
    pub file: PathBuf,
    pub format: BookFormat,
    /// PGN books: play at most this many plies of each game (all when `None`).
    pub plies: Option<usize>,
    pub order: BookOrder,
    /// 1-based index of the first opening used, as in fastchess and cutechess.
    pub start: usize,
    pub on_bad_entry: OnBadEntry,
}

impl BookSpec {
    /// A spec for `file` with the format guessed from its name and the usual defaults.
    pub fn for_file(file: &Path) -> Result<BookSpec, UsageError> {
        let format = BookFormat::from_path(file).ok_or_else(|| {
            UsageError(format!(
                "{}: cannot tell the book format from the name; add format=epd or format=pgn",
                file.display()
            ))
        })?;
        Ok(BookSpec {
            file: file.to_path_buf(),
            format,
            plies: None,
            order: BookOrder::Sequential,
            start: 1,
            on_bad_entry: OnBadEntry::Fail,
        })
    }
}

/// A malformed book entry: file, line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct BookError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// The openings of a book, in file order, and how many bad entries were skipped.
#[derive(Clone, Debug)]
pub struct Book {
    pub openings: Vec<Opening>,
    pub skipped: usize,
    /// Position in the book (file order) of the i-th opening used.
    order: Vec<usize>,
}

impl Book {
    /// Reads the book `spec` names. Errors are [`UsageError`]s naming the file and line.
    pub fn load(spec: &BookSpec, seed: u64) -> anyhow::Result<Book> {
        let reader = open_maybe_xz(&spec.file)?;
        let name = spec.file.display().to_string();
        let (openings, skipped) = match spec.format {
            BookFormat::Epd => epd::read(reader, &name, spec.on_bad_entry),
            BookFormat::Pgn => pgn::read(reader, &name, spec.plies, spec.on_bad_entry),
        }
        .map_err(|e| anyhow::Error::new(UsageError(e.to_string())))?;
        if openings.is_empty() {
            crate::usage_bail!("{name}: the book has no usable openings");
        }
        Book::from_openings(openings, skipped, spec.order, spec.start, seed)
    }

    /// A book from openings already in memory.
    pub fn from_openings(
        openings: Vec<Opening>,
        skipped: usize,
        order: BookOrder,
        start: usize,
        seed: u64,
    ) -> anyhow::Result<Book> {
        if start == 0 || start > openings.len() {
            crate::usage_bail!(
                "opening start={start} is outside the book (1..={})",
                openings.len()
            );
        }
        let mut indices: Vec<usize> = (0..openings.len()).collect();
        if order == BookOrder::Random {
            indices.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        }
        indices.rotate_left(start - 1);
        Ok(Book {
            openings,
            skipped,
            order: indices,
        })
    }

    /// The opening of game pair `pair` and its index in the book (0-based, file order).
    pub fn for_pair(&self, pair: usize) -> (usize, &Opening) {
        let index = self.order[pair % self.order.len()];
        (index, &self.openings[index])
    }

    pub fn len(&self) -> usize {
        self.openings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }
}

impl fmt::Display for BookSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())
    }
}

/// Opens a file for line reading, decompressing it when its name ends in `.xz`.
pub fn open_maybe_xz(path: &Path) -> anyhow::Result<Box<dyn BufRead>> {
    let file = File::open(path)
        .map_err(|e| anyhow::Error::new(UsageError(format!("{}: {e}", path.display()))))?;
    let inner: Box<dyn Read> = if path.extension().is_some_and(|e| e == "xz") {
        Box::new(liblzma::read::XzDecoder::new(file))
    } else {
        Box::new(file)
    };
    Ok(Box::new(BufReader::new(inner)))
}

/// Reads lines, turning read errors into book errors at that line.
fn lines(
    reader: Box<dyn BufRead>,
    name: &str,
) -> impl Iterator<Item = Result<(usize, String), BookError>> {
    let name = name.to_string();
    reader.lines().enumerate().map(move |(i, line)| {
        line.map(|l| (i + 1, l)).map_err(|e| BookError {
            file: name.clone(),
            line: i + 1,
            message: format!("cannot read: {e}"),
        })
    })
}

/// The book shipped in `openings/`, relative to the repository.
pub const DEFAULT_BOOK: &str = "openings/balanced-8ply.epd";

/// The shipped book, found at run time: in the current folder, else in a folder above the
/// running executable (`target/<profile>/harness` → the repository).
pub fn default_book_path() -> Option<std::path::PathBuf> {
    let mut candidates = vec![std::path::PathBuf::from(DEFAULT_BOOK)];
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(
            exe.ancestors()
                .skip(1)
                .take(4)
                .map(|dir| dir.join(DEFAULT_BOOK)),
        );
    }
    candidates.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(DEFAULT_BOOK),
    );
    candidates.into_iter().find(|p| p.is_file())
}

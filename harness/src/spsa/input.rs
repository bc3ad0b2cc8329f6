//! The tuned parameters and OpenBench's SPSA input format, one parameter a line:
//! `name, int|float, start, min, max, c_end, r_end`.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The form of one input line, quoted in every error.
pub const LINE_FORM: &str = "name, int|float, start, min, max, c_end, r_end";

/// Whether a parameter takes integer or real values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueKind {
    /// Played rounded (randomly, see [`crate::spsa::rule::perturb`]); c_k is at least 0.5.
    Int,
    Float,
}

impl ValueKind {
    fn as_str(self) -> &'static str {
        match self {
            ValueKind::Int => "int",
            ValueKind::Float => "float",
        }
    }
}

/// One tuned parameter: its start value, range and end-of-tune step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamDef {
    pub name: String,
    pub kind: ValueKind,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// Perturbation at the last iteration.
    pub c_end: f64,
    /// Learning rate at the last iteration (a_end = r_end · c_end²).
    pub r_end: f64,
}

/// A bad parameter definition or input line; `origin:line` where it came from a file.
#[derive(Debug, Error, PartialEq)]
pub enum InputError {
    #[error("{origin}:{line}: expected 7 comma-separated fields `{LINE_FORM}`, found {found}")]
    FieldCount {
        origin: String,
        line: usize,
        found: usize,
    },
    #[error("{origin}:{line}: {field} '{value}' is not {expected} (line form `{LINE_FORM}`)")]
    BadField {
        origin: String,
        line: usize,
        field: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("{origin}:{line}: parameter '{name}': {problem}")]
    Invalid {
        origin: String,
        line: usize,
        name: String,
        problem: String,
    },
    #[error("{origin}:{line}: parameter '{name}' is already defined on line {first}")]
    Duplicate {
        origin: String,
        line: usize,
        name: String,
        first: usize,
    },
    #[error("{origin}: no parameters (one line each: `{LINE_FORM}`)")]
    Empty { origin: String },
}

impl ParamDef {
    /// Why this definition cannot be tuned, if it cannot: the checks OpenBench leaves to the
    /// user (a range, a start inside it, positive steps, finite numbers).
    pub fn problem(&self) -> Option<String> {
        let numbers = [self.start, self.min, self.max, self.c_end, self.r_end];
        if self.name.is_empty() || self.name.contains([',', ' ', '\t']) {
            Some("the name must be non-empty, without commas or spaces".into())
        } else if numbers.iter().any(|x| !x.is_finite()) {
            Some("every number must be finite".into())
        } else if self.min >= self.max {
            Some(format!("min {} must be below max {}", self.min, self.max))
        } else if !(self.min..=self.max).contains(&self.start) {
            Some(format!(
                "start {} is outside [{}, {}]",
                self.start, self.min, self.max
            ))
        } else if self.c_end <= 0.0 || self.r_end <= 0.0 {
            Some(format!(
                "c_end {} and r_end {} must both be above 0",
                self.c_end, self.r_end
            ))
        } else {
            None
        }
    }

    /// The line of OpenBench's input format for this parameter.
    pub fn to_line(&self) -> String {
        format!(
            "{}, {}, {}, {}, {}, {}, {}",
            self.name,
            self.kind.as_str(),
            self.start,
            self.min,
            self.max,
            self.c_end,
            self.r_end
        )
    }
}

/// Reads OpenBench's SPSA input. Blank lines and lines starting with `#` are skipped (an
/// extension: OpenBench has neither). `origin` names the source in errors.
pub fn parse(text: &str, origin: &str) -> Result<Vec<ParamDef>, InputError> {
    let mut defs: Vec<(usize, ParamDef)> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let def = parse_line(trimmed, origin, line)?;
        if let Some((first, _)) = defs.iter().find(|(_, d)| d.name == def.name) {
            return Err(InputError::Duplicate {
                origin: origin.to_string(),
                line,
                name: def.name,
                first: *first,
            });
        }
        defs.push((line, def));
    }
    if defs.is_empty() {
        return Err(InputError::Empty {
            origin: origin.to_string(),
        });
    }
    Ok(defs.into_iter().map(|(_, d)| d).collect())
}

fn parse_line(text: &str, origin: &str, line: usize) -> Result<ParamDef, InputError> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let [name, kind, start, min, max, c_end, r_end] = fields[..] else {
        return Err(InputError::FieldCount {
            origin: origin.to_string(),
            line,
            found: fields.len(),
        });
    };
    let bad = |field, value: &str, expected| InputError::BadField {
        origin: origin.to_string(),
        line,
        field,
        value: value.to_string(),
        expected,
    };
    let kind = match kind {
        "int" => ValueKind::Int,
        "float" => ValueKind::Float,
        other => return Err(bad("type", other, "int or float")),
    };
    let number = |field, value: &str| {
        value
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| bad(field, value, "a finite number"))
    };
    let def = ParamDef {
        name: name.to_string(),
        kind,
        start: number("start", start)?,
        min: number("min", min)?,
        max: number("max", max)?,
        c_end: number("c_end", c_end)?,
        r_end: number("r_end", r_end)?,
    };
    match def.problem() {
        None => Ok(def),
        Some(problem) => Err(InputError::Invalid {
            origin: origin.to_string(),
            line,
            name: def.name,
            problem,
        }),
    }
}

/// Writes OpenBench's SPSA input, one line per parameter.
pub fn write(defs: &[ParamDef]) -> String {
    let mut out = String::new();
    for def in defs {
        let _ = writeln!(out, "{}", def.to_line());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_openbench_lines() {
        let text = "delta_margin, int, 200, 0, 2000, 20, 0.002\n\n# comment\n  lr,float,0.5,0,1.5,0.05,0.002  \n";
        let defs = parse(text, "in.txt").unwrap();
        assert_eq!(
            defs[0],
            ParamDef {
                name: "delta_margin".into(),
                kind: ValueKind::Int,
                start: 200.0,
                min: 0.0,
                max: 2000.0,
                c_end: 20.0,
                r_end: 0.002,
            }
        );
        assert_eq!(defs[1].kind, ValueKind::Float);
        assert_eq!(defs[1].max, 1.5);
        let written = write(&defs);
        assert_eq!(
            written,
            "delta_margin, int, 200, 0, 2000, 20, 0.002\nlr, float, 0.5, 0, 1.5, 0.05, 0.002\n"
        );
        assert_eq!(parse(&written, "again").unwrap(), defs);
    }

    #[test]
    fn errors_name_file_line_and_field_with_the_accepted_form() {
        let err = |text: &str| parse(text, "tune.txt").unwrap_err().to_string();
        let e = err("a, int, 1, 0, 2, 1, 0.002\nb, int, 1, 0, 2, 1\n");
        assert!(
            e.starts_with("tune.txt:2: expected 7") && e.contains(LINE_FORM),
            "{e}"
        );
        let e = err("a, integer, 1, 0, 2, 1, 0.002");
        assert!(
            e.starts_with("tune.txt:1: type 'integer' is not int or float"),
            "{e}"
        );
        let e = err("a, int, 1, zero, 2, 1, 0.002");
        assert!(
            e.starts_with("tune.txt:1: min 'zero' is not a finite number"),
            "{e}"
        );
        let e = err("a, int, 1, 0, 2, 1, nan");
        assert!(e.contains("r_end 'nan'"), "{e}");
        let e = err("a, int, 5, 0, 2, 1, 0.002");
        assert!(
            e.contains("tune.txt:1: parameter 'a': start 5 is outside [0, 2]"),
            "{e}"
        );
        let e = err("a, int, 1, 2, 2, 1, 0.002");
        assert!(e.contains("min 2 must be below max 2"), "{e}");
        let e = err("a, int, 1, 0, 2, 0, 0.002");
        assert!(e.contains("must both be above 0"), "{e}");
        let e = err("a, int, 1, 0, 2, 1, 0.002\n\na, int, 1, 0, 2, 1, 0.002");
        assert!(
            e.contains("tune.txt:3: parameter 'a' is already defined on line 1"),
            "{e}"
        );
        let e = err("# nothing\n");
        assert!(e.starts_with("tune.txt: no parameters"), "{e}");
    }
}

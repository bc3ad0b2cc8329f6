//! `option name ... type ...`: an option the engine declares, and checking values against it.

use std::fmt;

use crate::ParseError;
use crate::tokens::shown;

/// The kind of a UCI option, with what each kind allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: Option<bool>,
    },
    Spin {
        default: Option<i64>,
        min: Option<i64>,
        max: Option<i64>,
    },
    Combo {
        default: Option<String>,
        vars: Vec<String>,
    },
    Button,
    /// A `default <empty>` is the empty string.
    String {
        default: Option<String>,
    },
}

/// One `option` line of the engine's `uci` answer.
///
/// ```
/// use uci_protocol::{OptionDecl, OptionKind};
/// let line = "name Debug Log File type string default <empty>";
/// let option: OptionDecl = line.parse().unwrap();
/// assert_eq!(option.name, "Debug Log File");
/// assert_eq!(option.kind, OptionKind::String { default: Some(String::new()) });
/// assert_eq!(option.to_string(), line);
/// let hash: OptionDecl = "name Hash type spin default 16 min 1 max 1024".parse().unwrap();
/// assert!(hash.check_value("2048").unwrap_err().contains("1..=1024"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: OptionKind,
}

const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

impl OptionDecl {
    /// Checks `value` against the option's type and range; the error says what is allowed.
    pub fn check_value(&self, value: &str) -> Result<(), String> {
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => Ok(()),
                _ => Err(format!(
                    "option '{}' is a check: use true or false, not '{value}'",
                    self.name
                )),
            },
            OptionKind::Spin { min, max, .. } => {
                let v: i64 = value.trim().parse().map_err(|_| {
                    format!(
                        "option '{}' is a spin: '{value}' is not an integer",
                        self.name
                    )
                })?;
                let below = min.is_some_and(|m| v < m);
                let above = max.is_some_and(|m| v > m);
                if below || above {
                    let show = |b: Option<i64>| b.map_or("?".to_string(), |b| b.to_string());
                    return Err(format!(
                        "option '{}' = {v} is outside its range {}..={}",
                        self.name,
                        show(*min),
                        show(*max)
                    ));
                }
                Ok(())
            }
            OptionKind::Combo { vars, .. } => {
                if vars.iter().any(|v| v.eq_ignore_ascii_case(value)) {
                    Ok(())
                } else {
                    Err(format!(
                        "option '{}' is a combo: '{value}' is not one of {}",
                        self.name,
                        vars.join(", ")
                    ))
                }
            }
            OptionKind::Button | OptionKind::String { .. } => Ok(()),
        }
    }

    /// Parses the tokens after `option`. Names, defaults and vars may contain spaces, so a
    /// value runs up to the next keyword; the name may contain keywords other than `type`.
    pub(crate) fn from_tokens(tokens: &[&str]) -> Result<OptionDecl, ParseError> {
        const C: &str = "option";
        let mut fields: Vec<(&str, String)> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let key = tokens[i];
            if !KEYWORDS.contains(&key) {
                return Err(ParseError::Unexpected {
                    command: C,
                    token: shown(key),
                    expected: "name, type, default, min, max or var",
                });
            }
            let start = i + 1;
            let mut end = start;
            while end < tokens.len()
                && !(KEYWORDS.contains(&tokens[end]) && (key != "name" || tokens[end] == "type"))
            {
                end += 1;
            }
            fields.push((key, tokens[start..end].join(" ")));
            i = end;
        }
        let get = |k: &str| {
            fields
                .iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| v.clone())
        };
        let name = get("name")
            .filter(|n| !n.is_empty())
            .ok_or(ParseError::Missing {
                command: C,
                what: "'name <id>'",
            })?;
        let default = get("default").map(|d| if d == "<empty>" { String::new() } else { d });
        let int = |key: &'static str, text: Option<String>| -> Result<Option<i64>, ParseError> {
            text.map(|t| {
                t.parse::<i64>().map_err(|_| ParseError::BadValue {
                    command: C,
                    key,
                    value: shown(&t),
                    accepted: "an integer".to_string(),
                })
            })
            .transpose()
        };
        let kind_text = get("type").ok_or(ParseError::Missing {
            command: C,
            what: "'type <t>'",
        })?;
        let kind = match kind_text.as_str() {
            "check" => OptionKind::Check {
                default: match default.as_deref() {
                    None => None,
                    Some("true") => Some(true),
                    Some("false") => Some(false),
                    Some(other) => {
                        return Err(ParseError::BadValue {
                            command: C,
                            key: "default",
                            value: shown(other),
                            accepted: "true or false".to_string(),
                        });
                    }
                },
            },
            "spin" => OptionKind::Spin {
                default: int("default", default)?,
                min: int("min", get("min"))?,
                max: int("max", get("max"))?,
            },
            "combo" => OptionKind::Combo {
                default,
                vars: fields
                    .iter()
                    .filter(|(k, _)| *k == "var")
                    .map(|(_, v)| v.clone())
                    .collect(),
            },
            "button" => OptionKind::Button,
            "string" => OptionKind::String { default },
            other => {
                return Err(ParseError::BadValue {
                    command: C,
                    key: "type",
                    value: shown(other),
                    accepted: "check, spin, combo, button or string".to_string(),
                });
            }
        };
        Ok(OptionDecl { name, kind })
    }
}

fn text_or_empty(text: &str) -> &str {
    if text.is_empty() { "<empty>" } else { text }
}

/// The fields as after `option ` (`EngineMessage::Option` adds the `option`).
impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => {
                f.write_str("check")?;
                crate::tokens::field(f, "default", *default)
            }
            OptionKind::Spin { default, min, max } => {
                f.write_str("spin")?;
                crate::tokens::field(f, "default", *default)?;
                crate::tokens::field(f, "min", *min)?;
                crate::tokens::field(f, "max", *max)
            }
            OptionKind::Combo { default, vars } => {
                f.write_str("combo")?;
                crate::tokens::field(f, "default", default.as_deref().map(text_or_empty))?;
                for var in vars {
                    write!(f, " var {var}")?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => {
                f.write_str("string")?;
                crate::tokens::field(f, "default", default.as_deref().map(text_or_empty))
            }
        }
    }
}

impl std::str::FromStr for OptionDecl {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<OptionDecl, ParseError> {
        let tokens: Vec<&str> = s.split_whitespace().collect();
        OptionDecl::from_tokens(&tokens)
    }
}

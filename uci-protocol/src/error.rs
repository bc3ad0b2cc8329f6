//! Why a line is not a UCI message.

/// A parse failure naming the command and the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("empty line")]
    Empty,
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    #[error("{command}: missing {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("{command}: unexpected token '{token}' (expected {expected})")]
    Unexpected {
        command: &'static str,
        token: String,
        expected: &'static str,
    },
    #[error("{command}: '{key}' value '{value}' is invalid (accepted: {accepted})")]
    BadValue {
        command: &'static str,
        key: &'static str,
        value: String,
        accepted: String,
    },
    #[error("{command}: '{key}' needs a value")]
    MissingValue {
        command: &'static str,
        key: &'static str,
    },
    /// A token no keyword of the command claims (skipped by lenient parsing).
    #[error("{command}: ignored unknown token '{token}'")]
    UnknownToken {
        command: &'static str,
        token: String,
    },
}

impl ParseError {
    /// True for the tokens that `FromStr` skips silently (extensions of other programs).
    pub fn is_unknown_token(&self) -> bool {
        matches!(self, ParseError::UnknownToken { .. })
    }
}

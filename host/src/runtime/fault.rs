//! Typed faults: what a misbehaving strategy did. A fault is data: the game records it and goes on.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The kinds of fault, as they appear in tables and JSON (`"fuel"`, `"bad-output"`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// A WASM strategy ran out of fuel in one decision.
    Fuel,
    /// A Lua strategy spent its instruction budget in one decision.
    Budget,
    /// The wall-clock backstop fired.
    Timeout,
    /// The strategy went over its memory cap.
    Memory,
    /// A WASM trap: `unreachable`, a Rust panic, an out-of-bounds access, a stack overflow.
    Trap,
    /// A Lua runtime error, or an error the strategy reported itself.
    Error,
    /// The answer is not the game's action shape.
    BadOutput,
    /// The answer is well formed but not a legal action now.
    Illegal,
    /// The strategy could not be set up for the game (its top-level code or `botbox_init` failed).
    Load,
    /// An external program exited, was killed or closed its output.
    Crash,
}

impl FaultKind {
    pub const ALL: [FaultKind; 10] = [
        FaultKind::Fuel,
        FaultKind::Budget,
        FaultKind::Timeout,
        FaultKind::Memory,
        FaultKind::Trap,
        FaultKind::Error,
        FaultKind::BadOutput,
        FaultKind::Illegal,
        FaultKind::Load,
        FaultKind::Crash,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Fuel => "fuel",
            FaultKind::Budget => "budget",
            FaultKind::Timeout => "timeout",
            FaultKind::Memory => "memory",
            FaultKind::Trap => "trap",
            FaultKind::Error => "error",
            FaultKind::BadOutput => "bad-output",
            FaultKind::Illegal => "illegal",
            FaultKind::Load => "load",
            FaultKind::Crash => "crash",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A strategy's fault in one call: its kind and a message for people (with file and line where known).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{kind}: {message}")]
pub struct Fault {
    pub kind: FaultKind,
    pub message: String,
}

impl Fault {
    /// A fault with `message`, cut to [`MAX_MESSAGE`] bytes (the original length noted).
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Fault {
        Fault {
            kind,
            message: cap_message(message.into()),
        }
    }
}

/// A strategy file that cannot be used at all: unreadable, malformed, or asking for what the ABI does not offer.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {}: {error}", path.display())]
    Read {
        path: PathBuf,
        /// Not a `source`: the message already says it, and a chain would say it twice.
        error: std::io::Error,
    },
    #[error("{}: unknown strategy kind (expected .lua, .luau, .wasm, .wat, a bot's directory from `botbox new` or an executable program)", path.display())]
    UnknownKind { path: PathBuf },
    #[error("{message}")]
    Syntax { message: String },
    #[error("{file}: not a valid WebAssembly module: {message}")]
    InvalidModule { file: String, message: String },
    #[error(
        "{file}: imports `{module}.{name}`, which botbox does not provide (allowed: module `botbox`, see docs/wasm-abi.md)"
    )]
    ForbiddenImport {
        file: String,
        module: String,
        name: String,
    },
    #[error("{file}: {message}")]
    Abi { file: String, message: String },
    /// A module over one of the caps on its shape (checked before compiling), or one whose
    /// compilation did not finish within the compile-time limit; see "Limits on modules" in
    /// docs/wasm-abi.md. `message` names the limit and the value found.
    #[error("{file}: too costly to compile: {message}")]
    TooCostly { file: String, message: String },
    #[error("{}: building the strategy failed: {message}", path.display())]
    Build { path: PathBuf, message: String },
}

/// The longest fault message, log line or quoted answer kept, in bytes: a strategy's error of
/// megabytes would otherwise be copied whole into every report, replay and terminal line.
pub const MAX_MESSAGE: usize = 4096;

/// `message` if it fits [`MAX_MESSAGE`], else its beginning (cut at a character boundary) and a note
/// of its length.
pub fn cap_message(message: String) -> String {
    if message.len() <= MAX_MESSAGE {
        return message;
    }
    let mut end = MAX_MESSAGE - 64;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{} [... cut: {} bytes in all]",
        &message[..end],
        message.len()
    )
}

/// Bytes from a strategy as text, lossily, cut like [`cap_message`] before they are copied.
pub fn cap_bytes(bytes: &[u8]) -> String {
    if bytes.len() <= MAX_MESSAGE {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    cut_text(bytes, bytes.len())
}

/// How many bytes of a text over [`MAX_MESSAGE`] are kept ([`cut_text`]).
pub const KEPT_OF_LONG: usize = MAX_MESSAGE - 64;

/// A text of `total` bytes over [`MAX_MESSAGE`], from its first bytes `head` (only the first
/// [`KEPT_OF_LONG`] are read): its beginning and a note of its length, as [`cap_bytes`] writes it.
pub fn cut_text(head: &[u8], total: usize) -> String {
    let head = String::from_utf8_lossy(&head[..head.len().min(KEPT_OF_LONG)]);
    let head = head.trim_end_matches('\u{fffd}');
    format!("{head} [... cut: {total} bytes in all]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_with_their_length_noted() {
        let short = "x".repeat(MAX_MESSAGE);
        assert_eq!(cap_message(short.clone()), short);
        let long = "é".repeat(1 << 20);
        let cut = cap_message(long.clone());
        assert!(cut.len() <= MAX_MESSAGE, "{}", cut.len());
        assert!(cut.ends_with(&format!("[... cut: {} bytes in all]", long.len())));
        let bytes = cap_bytes(long.as_bytes());
        assert!(bytes.len() <= MAX_MESSAGE);
        assert!(bytes.starts_with("éé"));
        assert!(Fault::new(FaultKind::Error, long).message.len() <= MAX_MESSAGE);
    }
}

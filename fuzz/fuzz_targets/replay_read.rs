//! Replay files (`docs/replay-format.md`), as `botbox replay FILE` reads them: JSON Lines from any
//! source, so any text.
//!
//! `replay::parse` returns the parsed lines or an error naming the line, never panics; the line
//! numbers it gives point into the text.

#![no_main]

use botbox::replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.lines().count();
    match replay::parse(text) {
        Ok(file) => {
            assert_eq!(file.header.format, replay::FORMAT);
            assert_eq!(file.turns.len(), file.turn_lines.len());
            for i in 0..=file.turns.len() {
                assert!(file.turn_line(i) <= lines);
            }
            assert!(file.header_line <= lines);
            assert!(file.end_line() <= lines + 1);
            let _ = file.bad(file.end_line(), "checked").to_string();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});

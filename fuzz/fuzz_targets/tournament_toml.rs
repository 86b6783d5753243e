//! Tournament files (`botbox tournament FILE.toml`): TOML a user writes, so any text.
//!
//! `cli::config::parse` returns the file's settings or one error naming the file, the line and the
//! key; it never panics. What parses names a registered game.

#![no_main]

use std::path::Path;

use botbox::cli::config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match config::parse(text, Path::new("fuzz.toml")) {
        Ok(file) => assert!(botbox::games::registry::find(&file.game).is_ok()),
        Err(e) => assert!(format!("{e:#}").starts_with("fuzz.toml"), "{e:#}"),
    }
});

//! Replays re-played (`botbox replay FILE`): every reader starts its game's engine from the header
//! and makes each recorded move, refusing the first line that does not follow. Replays come from
//! anywhere, so any text; a reader must never panic, whatever a line claims (a seat, a worm, a card
//! out of range).

#![no_main]

use botbox::view::replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = botbox::replay::parse(text) else {
        return;
    };
    for last in [None, Some(3)] {
        let _ = replay::render(&file, last).map_err(|e| format!("{e:#}"));
    }
});

//! Shard reports merged by `botbox merge`: two JSON reports, from files a user collected from other
//! machines, so any text.
//!
//! The input is split at its first NUL byte (or in the middle when there is none) into two parts;
//! each is parsed as a `Report` and, when both parse, they are merged. Neither step may panic, and a
//! merge that succeeds holds every game of the run once, numbered from 1.

#![no_main]

use botbox::tournament::runner::Report;
use botbox::tournament::shard;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (a, b) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => data.split_at(data.len() / 2),
    };
    let parse = |part: &[u8]| serde_json::from_slice::<Report>(part).ok();
    let (Some(a), Some(b)) = (parse(a), parse(b)) else {
        return;
    };
    // One part alone, then both in either order.
    for parts in [vec![a.clone()], vec![a.clone(), b.clone()], vec![b, a]] {
        if let Ok(report) = shard::merge(parts) {
            assert!(report.shard.is_none(), "a merged report is a whole run");
            for (i, game) in report.games.iter().enumerate() {
                assert_eq!(game.number, i + 1, "games numbered from 1, each once");
            }
            let _ = serde_json::to_string(&report).expect("a merged report serializes");
        }
    }
});

//! Merging the parts of a run played in shards (`--shard K/N` on N machines) into the report of the
//! run played whole.
//!
//! A game's result depends only on the run's configuration, the game's number and the strategies'
//! bytes, so the games of the parts are exactly the games of the whole run. Merging checks that the
//! parts belong together (same game, plan, entries with the same content hashes, variants and
//! limits, and shards of one split), that every game is there exactly once, then recomputes the
//! standings: the result serializes byte for byte like the whole run's report.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::runner::Report;

/// Which part of a run to play: the games whose index `i` has `i % count == index - 1`
/// (`--shard 3/16` is index 3 of 16). A game's result depends only on its number, so the parts of a
/// run played anywhere merge into the run played whole ([`merge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 1 to `count`.
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn contains(&self, game: usize) -> bool {
        game % self.count == self.index - 1
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 <= K <= N (as in 3/16), got {text:?}");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Why parts cannot be merged.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("no parts to merge")]
    Empty,
    #[error("part {part} is not a shard (it has no `shard` field): it is a whole run already")]
    NotAShard { part: usize },
    #[error(
        "part {part} differs from part 1 in its {what}: they come from different configurations or strategy versions"
    )]
    Mismatch { part: usize, what: &'static str },
    #[error("shard {index}/{count} is given twice (parts {first} and {second})")]
    Duplicate {
        index: usize,
        count: usize,
        first: usize,
        second: usize,
    },
    #[error("shards missing: {missing:?} of {count}")]
    Missing { missing: Vec<usize>, count: usize },
    #[error("the parts hold {found} games, the run has {expected}: a part is incomplete or edited")]
    GameCount { found: usize, expected: usize },
    #[error("the plan is not one botbox runs ({reason}): the parts were edited")]
    BadPlan { reason: String },
    #[error("game {number} does not fit the plan ({what}): a part was edited")]
    BadGame { number: usize, what: &'static str },
}

/// The most missing shards [`MergeError::Missing`] lists: an edited report may claim any count.
const MISSING_LISTED: usize = 100;

/// The most seats a game of a merged report may have (BS has four): the summary keeps a count per
/// seat, so an edited report must not choose it.
const MAX_SEATS: usize = 64;

/// Merges shard reports (numbered from 1 in messages, in the order given) into the whole run's.
pub fn merge(parts: Vec<Report>) -> Result<Report, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?.clone();
    let count = first.shard.ok_or(MergeError::NotAShard { part: 1 })?.count;
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, part) in parts.iter().enumerate() {
        let number = i + 1;
        let shard = part.shard.ok_or(MergeError::NotAShard { part: number })?;
        let checks: [(&'static str, bool); 7] = [
            (
                "set-up (maps, dice)",
                part.setup_sha256 == first.setup_sha256,
            ),
            ("game", part.game == first.game),
            ("plan (format, games, seed)", part.plan == first.plan),
            (
                "entries (names, files, content hashes, parameters)",
                part.entries == first.entries,
            ),
            ("variants", part.variants == first.variants),
            ("limits", part.limits == first.limits),
            ("number of shards", shard.count == count),
        ];
        if let Some((what, _)) = checks.iter().find(|(_, same)| !same) {
            return Err(MergeError::Mismatch { part: number, what });
        }
        if let Some(&earlier) = seen.get(&shard.index) {
            return Err(MergeError::Duplicate {
                index: shard.index,
                count,
                first: earlier,
                second: number,
            });
        }
        seen.insert(shard.index, number);
    }
    let missing: Vec<usize> = (1..=count)
        .filter(|k| !seen.contains_key(k))
        .take(MISSING_LISTED)
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count });
    }
    let seats = first.plan.seats;
    if seats > MAX_SEATS {
        let reason = format!("{seats} seats, more than {MAX_SEATS}");
        return Err(MergeError::BadPlan { reason });
    }
    first
        .plan
        .check(&first.game, first.entries.len())
        .map_err(|e| MergeError::BadPlan {
            reason: e.to_string(),
        })?;
    // Counted (saturating), not scheduled: an edited plan may ask for more games than fit in memory.
    let expected = first.plan.len(first.entries.len());
    let mut games: Vec<_> = parts.into_iter().flat_map(|p| p.games).collect();
    games.sort_by_key(|g| g.number);
    games.dedup_by_key(|g| g.number);
    if games.len() != expected || games.iter().zip(1..).any(|(g, n)| g.number != n) {
        return Err(MergeError::GameCount {
            found: games.len(),
            expected,
        });
    }
    for g in &games {
        let what = if g.players.len() != seats {
            "players"
        } else if g.sha256.len() != seats {
            "sha256"
        } else if g.faults.len() != seats {
            "faults"
        } else if g.winner_seat.is_some_and(|w| w >= seats) {
            "winner_seat"
        } else {
            continue;
        };
        return Err(MergeError::BadGame {
            number: g.number,
            what,
        });
    }
    let report = Report::new(
        first.game,
        first.plan,
        first.entries,
        first.variants,
        first.limits,
        first.setup_sha256,
        None,
        games,
    );
    Ok(report)
}

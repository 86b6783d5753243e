//! Merging the parts of a run played in shards (`--shard K/N` on N machines) into the report of the
//! run played whole.
//!
//! A game's result depends only on the run's configuration, the game's number and the strategies'
//! bytes, so the games of the parts are exactly the games of the whole run. Merging checks that the
//! parts belong together (same game, plan, entries with the same content hashes, variants and
//! limits, and shards of one split), that every game is there exactly once, then recomputes the
//! standings: the result serializes byte for byte like the whole run's report.

use std::collections::BTreeMap;

use super::arena::{Format, Plan, Report};

/// The most missing shards [`MergeError::Missing`] lists: an edited report may claim any count.
const MISSING_LISTED: usize = 100;

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
}

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
    // Counted, not scheduled: an edited plan may ask for more games than fit in memory.
    let expected = game_count(&first.plan, first.entries.len()).unwrap_or(usize::MAX);
    let mut games: Vec<_> = parts.into_iter().flat_map(|p| p.games).collect();
    games.sort_by_key(|g| g.number);
    games.dedup_by_key(|g| g.number);
    if games.len() != expected || games.iter().zip(1..).any(|(g, n)| g.number != n) {
        return Err(MergeError::GameCount {
            found: games.len(),
            expected,
        });
    }
    let mut report = Report::new(
        first.game,
        first.plan,
        first.entries,
        first.variants,
        first.limits,
        None,
        games,
    );
    report.setup_sha256 = first.setup_sha256;
    Ok(report)
}

/// How many games [`super::arena::schedule`] lists for `plan` between `entries` entries; `None` past
/// `usize`.
fn game_count(plan: &Plan, entries: usize) -> Option<usize> {
    let pairs = match plan.format {
        Format::RoundRobin => entries.checked_mul(entries.saturating_sub(1))? / 2,
        Format::Gauntlet => entries.saturating_sub(1),
    };
    pairs.checked_mul(plan.games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::arena::{GameRecord, Shard, schedule};

    /// Shard `index` of `count` of a two-entry run of `games` games, holding the games `numbers`.
    fn part(index: usize, count: usize, games: usize, numbers: &[usize]) -> Report {
        let entry = |name: &str| crate::replay::StrategyRef {
            name: name.into(),
            path: format!("{name}.lua"),
            kind: "lua".into(),
            sha256: "00".into(),
            params: Default::default(),
        };
        let record = |number: usize| GameRecord {
            number,
            seed: 0,
            variant: "standard".into(),
            players: ["a".into(), "b".into()],
            sha256: ["00".into(), "00".into()],
            winner: Some("a".into()),
            reason: "line".into(),
            turns: 7,
            faults: [None, None],
            moves_sha256: None,
        };
        let plan = Plan {
            format: Format::RoundRobin,
            games,
            seed: 1,
        };
        Report::new(
            "connect4".into(),
            plan,
            vec![entry("a"), entry("b")],
            vec!["standard".into()],
            serde_json::Value::Null,
            Some(Shard { index, count }),
            numbers.iter().copied().map(record).collect(),
        )
    }

    #[test]
    fn parts_merge_into_every_game_once() {
        let merged = merge(vec![part(2, 2, 4, &[2, 4]), part(1, 2, 4, &[1, 3])]).unwrap();
        let numbers: Vec<usize> = merged.games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
    }

    #[test]
    fn a_game_numbered_0_in_place_of_a_missing_one_is_refused() {
        // Found by the shard_report fuzz target: games {0, 2} passed as the 2 games of the run.
        let err = merge(vec![part(1, 2, 2, &[0]), part(2, 2, 2, &[2])]).unwrap_err();
        assert_eq!(
            err,
            MergeError::GameCount {
                found: 2,
                expected: 2
            }
        );
    }

    #[test]
    fn an_edited_plan_or_shard_count_past_memory_is_refused_not_a_crash() {
        // An edited report's game count once made merge allocate the whole schedule (an abort),
        // and its shard count list every missing shard.
        let huge = merge(vec![part(1, 2, 1 << 60, &[1]), part(2, 2, 1 << 60, &[2])]);
        assert!(
            matches!(huge, Err(MergeError::GameCount { .. })),
            "{huge:?}"
        );
        let beyond = merge(vec![
            part(1, 2, usize::MAX, &[1]),
            part(2, 2, usize::MAX, &[2]),
        ]);
        assert!(
            matches!(beyond, Err(MergeError::GameCount { .. })),
            "{beyond:?}"
        );
        let Err(MergeError::Missing { missing, count }) = merge(vec![part(1, 1 << 60, 4, &[1])])
        else {
            panic!("a missing shard");
        };
        assert_eq!((missing.len(), count), (MISSING_LISTED, 1 << 60));
        assert_eq!(missing[0], 2);
    }

    #[test]
    fn the_game_count_is_the_schedules_length() {
        for format in [Format::RoundRobin, Format::Gauntlet] {
            for entries in 0..6 {
                for games in 0..5 {
                    let plan = Plan {
                        format,
                        games,
                        seed: 3,
                    };
                    let scheduled = schedule(&plan, entries, 2).len();
                    assert_eq!(game_count(&plan, entries), Some(scheduled));
                }
            }
        }
    }
}

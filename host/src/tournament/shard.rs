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
    /// Whether game `game` (from 0) is this shard's; a shard read from an edited report may be
    /// `0/0` or `5/3`, which hold no game.
    pub fn contains(&self, game: usize) -> bool {
        self.is_valid() && game % self.count == self.index - 1
    }

    /// Whether `1 <= index <= count`.
    pub fn is_valid(&self) -> bool {
        (1..=self.count).contains(&self.index)
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
        if !shard.is_valid() {
            let reason = format!("part {number} is shard {}/{}", shard.index, shard.count);
            return Err(MergeError::BadPlan { reason });
        }
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
        if let Some(g) = part
            .games
            .iter()
            .find(|g| g.number == 0 || !shard.contains(g.number - 1))
        {
            let what = "not a game of its part's shard";
            return Err(MergeError::BadGame {
                number: g.number,
                what,
            });
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::runner::{Figures, Format, GameRecord, Plan};

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
            players: vec!["a".into(), "b".into()],
            sha256: vec!["00".into(), "00".into()],
            winner: Some("a".into()),
            winner_seat: Some(0),
            reason: "line".into(),
            turns: 7,
            faults: vec![None, None],
            figures: Figures::default(),
        };
        let plan = Plan {
            format: Format::RoundRobin,
            games,
            seed: 1,
            seats: 2,
            repeat: false,
        };
        Report::new(
            "connect4".into(),
            plan,
            vec![entry("a"), entry("b")],
            vec!["standard".into()],
            serde_json::Value::Null,
            String::new(),
            Some(Shard { index, count }),
            numbers.iter().copied().map(record).collect(),
        )
    }

    #[test]
    fn parts_merge_into_every_game_once() {
        let merged = merge(vec![part(2, 2, 4, &[2, 4]), part(1, 2, 4, &[1, 3])]).unwrap();
        let numbers: Vec<usize> = merged.games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
        assert_eq!(merged.summary.standings[0].wins, 4);
    }

    #[test]
    fn a_game_numbered_0_or_outside_its_shard_is_refused() {
        // Found by the shard_report fuzz target: games {0, 2} passed as the 2 games of the run.
        let err = merge(vec![part(1, 2, 2, &[0]), part(2, 2, 2, &[2])]).unwrap_err();
        assert!(
            matches!(err, MergeError::BadGame { number: 0, .. }),
            "{err}"
        );
        // The same game in two parts: one of them holds a game of the other's shard.
        let err = merge(vec![part(1, 2, 4, &[1, 3]), part(2, 2, 4, &[2, 3])]).unwrap_err();
        assert!(
            matches!(err, MergeError::BadGame { number: 3, .. }),
            "{err}"
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
    fn a_shard_0_of_0_is_refused_not_a_division_by_zero() {
        // Found by the shard_report fuzz target once parts were checked game by game.
        let err = merge(vec![part(0, 0, 2, &[1])]).unwrap_err();
        assert!(matches!(err, MergeError::BadPlan { .. }), "{err}");
        assert!(!Shard { index: 0, count: 0 }.contains(0));
    }

    #[test]
    fn records_that_do_not_fit_the_plan_are_refused() {
        let mut a = part(1, 2, 2, &[1]);
        a.games[0].faults.pop();
        let err = merge(vec![a, part(2, 2, 2, &[2])]).unwrap_err();
        assert!(
            matches!(err, MergeError::BadGame { what: "faults", .. }),
            "{err}"
        );
        let (mut a, mut b) = (part(1, 2, 2, &[1]), part(2, 2, 2, &[2]));
        a.plan.seats = 1 << 40;
        b.plan.seats = 1 << 40;
        let err = merge(vec![a, b]).unwrap_err();
        assert!(matches!(err, MergeError::BadPlan { .. }), "{err}");
    }

    #[test]
    fn the_game_count_is_the_schedules_length() {
        for format in [Format::RoundRobin, Format::Gauntlet, Format::Series] {
            for entries in 0..6 {
                for games in 0..5 {
                    let seats = if format == Format::Series { 1 } else { 2 };
                    let plan = Plan {
                        format,
                        games,
                        seed: 3,
                        seats,
                        repeat: false,
                    };
                    let scheduled = crate::tournament::runner::schedule(&plan, entries, 2).len();
                    assert_eq!(plan.len(entries), scheduled);
                }
            }
        }
    }
}

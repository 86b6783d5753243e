//! The one runner of every game: solo series (2048), round robins and gauntlets (two players) and
//! pool tables (N seats drawn from a pool), with one game record and one report.
//!
//! A run is a list of numbered games ([`schedule`]). Game `i` is seeded with `derive_seed(seed, i)`
//! and nothing else, so results do not depend on the thread count or the shard split, and a game can
//! be replayed alone from its number.
//! - **Series**: each entry plays `games` games alone, one after another in the list.
//! - **Round robin / gauntlet**: each pairing plays `games` games; the variant (a Wormworld map, say)
//!   changes every two games and the sides swap every other game, so with an even count each entry
//!   plays every variant from both seats equally often.
//! - **Pool**: `games` games in all, each seating distinct entries (or, with `repeat`, any entries)
//!   in a uniformly random order drawn from `derive_seed(game_seed, SEATING_STREAM)`.
//!
//! The game itself is behind [`Playable`]: the runner schedules, the game plays one scheduled game
//! and says who won and why. The report's summaries ([`super::summary`]) are computed from the game
//! records alone, so the parts of a run played anywhere merge into the run ([`super::shard`]).

use serde::{Deserialize, Serialize};

use super::run_indexed_until;
pub use super::shard::Shard;
use super::summary::Summary;
pub use crate::play::{Ending, Figures};
use crate::replay::{Replay, StrategyRef};
use crate::runtime::{Fault, Strategy};

mod plan;
pub use plan::{Format, Plan, PlanError, SEATING_STREAM, schedule};

/// One entry of a run: a strategy, under the name the tables show.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub strategy: Strategy,
}

/// A game the runner asks a [`Playable`] to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The game's number in the run, from 0.
    pub index: usize,
    pub seed: u64,
    /// The entries in seat order: `seats[0]` moves first.
    pub seats: Vec<usize>,
    /// Which variant (map) of the game, `0..Playable::variants()`.
    pub variant: usize,
    /// The game's number within its pairing (or entry, in a series), from 0: in a pairing, even games
    /// seat the pairing's first entry first.
    pub round: usize,
}

/// A game the runner can schedule: any registered game, through its host-side glue.
pub trait Playable: Sync {
    /// The game's name in files and on the command line (`worms`, `bs`).
    fn game(&self) -> &str;
    /// Players at every game; at least 1.
    fn seats(&self) -> usize;
    /// How many variants (maps) there are; at least 1 (one by default).
    fn variants(&self) -> usize {
        1
    }
    /// A variant's name for tables and JSON (`standard` by default).
    fn variant_name(&self, variant: usize) -> String {
        let _ = variant;
        "standard".into()
    }
    /// Everything about the game's set-up that changes results and is not in the plan or the
    /// entries (the maps' full text, the dice), as text; reports keep its SHA-256 so that parts of
    /// different set-ups are never merged. Nothing by default.
    fn setup(&self) -> String {
        String::new()
    }
    /// Plays one game between `players` (seat order); with `record`, also returns its replay.
    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>);
}

/// A game chosen at run time (`botbox watch --game ...`), shared by the threads that play it.
impl<P: Playable + ?Sized + Send> Playable for std::sync::Arc<P> {
    fn game(&self) -> &str {
        (**self).game()
    }
    fn seats(&self) -> usize {
        (**self).seats()
    }
    fn variants(&self) -> usize {
        (**self).variants()
    }
    fn variant_name(&self, variant: usize) -> String {
        (**self).variant_name(variant)
    }
    fn setup(&self) -> String {
        (**self).setup()
    }
    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        (**self).play(game, players, record)
    }
}

/// One game's result in a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the run, from 1 (as in replay file names).
    pub number: usize,
    pub seed: u64,
    pub variant: String,
    /// The entries' names in seat order: the first moved first.
    pub players: Vec<String>,
    /// The content hashes of the versions that played, in seat order.
    pub sha256: Vec<String>,
    /// The winner's name and seat, or `None` (a draw, no winner).
    pub winner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner_seat: Option<usize>,
    pub reason: String,
    pub turns: u32,
    /// Each seat's fault, if any.
    pub faults: Vec<Option<Fault>>,
    /// The moves' hash, a solo score, the game's own figures ([`Ending::figures`]).
    #[serde(flatten)]
    pub figures: Figures,
}

impl GameRecord {
    /// Seat `seat`'s points in a game of two or more seats: 1 for a win, ½ for a draw, 0 for a
    /// loss. A seat that faulted lost, unless the game's rules made the turn of its fault a draw
    /// (simultaneous moves: the other crashed on the same turn, so there is no winner).
    pub fn points(&self, seat: usize) -> f64 {
        let faulted = self.faults[seat].is_some();
        let faults = self.faults.iter().filter(|f| f.is_some()).count();
        match self.winner_seat {
            None if faulted && faults == 1 && self.players.len() == 2 => 0.5,
            _ if faulted => 0.0,
            None => 0.5,
            Some(w) => f64::from(u8::from(w == seat)),
        }
    }

    /// Whether a fault voided the game for the seats that did not fault (more than two seats).
    pub fn is_void(&self) -> bool {
        self.players.len() > 2 && self.faults.iter().any(Option::is_some)
    }
}

/// Everything a run reports, as its JSON: the same bytes for the same configuration, seed and
/// strategies whatever the thread count or the shard split.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub game: String,
    pub plan: Plan,
    /// The part of the run this report holds, when it was played in shards (`--shard K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The limits the strategies ran under.
    pub limits: serde_json::Value,
    /// The SHA-256 of the game's set-up ([`Playable::setup`]: maps, dice).
    pub setup_sha256: String,
    /// The entries under their names in the tables, with their files' content hashes.
    pub entries: Vec<StrategyRef>,
    pub variants: Vec<String>,
    /// Standings, pairs, seats and how games ended, computed from `games` alone.
    #[serde(flatten)]
    pub summary: Summary,
    /// A sequential test's result, when the run was one (`--sprt`): computed from `games` too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<super::sprt::SprtReport>,
    pub games: Vec<GameRecord>,
}

/// Who plays a game: by default the entries as given; under hot reload the versions current when
/// the game starts ([`super::live::Live`]).
pub trait Lineup: Sync {
    /// The players of `game`, in seat order, as they are when the game starts.
    fn players(&self, game: &Scheduled) -> Vec<Entry>;
    /// Every entry that played or may play, in the order the report lists them.
    fn all(&self) -> Vec<Entry>;
}

impl Lineup for [Entry] {
    fn players(&self, game: &Scheduled) -> Vec<Entry> {
        game.seats.iter().map(|&e| self[e].clone()).collect()
    }

    fn all(&self) -> Vec<Entry> {
        self.to_vec()
    }
}

/// What to run: the game, the plan, and which part of it.
#[derive(Debug, Clone)]
pub struct Run {
    pub plan: Plan,
    /// Only the games of this shard, if given.
    pub shard: Option<Shard>,
    pub jobs: usize,
    /// Whether to record every game's replay (handed to `on_game`).
    pub record: bool,
}

impl Run {
    /// The games this run plays, in number order.
    pub fn games(&self, entries: usize, variants: usize) -> Vec<Scheduled> {
        (0..self.plan.len(entries))
            .filter(|&i| self.shard.is_none_or(|s| s.contains(i)))
            .map(|i| self.plan.game(i, entries, variants))
            .collect()
    }

    /// How many games [`Run::games`] lists, counted without drawing their seatings.
    pub fn count(&self, entries: usize) -> usize {
        let n = self.plan.len(entries);
        match self.shard {
            None => n,
            Some(s) if s.is_valid() && n >= s.index => (n - s.index) / s.count + 1,
            Some(_) => 0,
        }
    }
}

/// Plays `run` on its `jobs` threads with the players `lineup` gives when each game starts; `count`
/// is the number of entries the schedule draws from. `on_game` is called after each game (progress
/// bars, replay files), from the thread that played it, with its replay if `run.record` is set.
pub fn run<P: Playable + ?Sized, L: Lineup + ?Sized>(
    game: &P,
    lineup: &L,
    count: usize,
    run: Run,
    on_game: impl Fn(&Scheduled, &Ending, Option<&Replay>) + Sync,
) -> Result<Report, PlanError> {
    run_until(game, lineup, count, run, on_game, |_| false)
}

/// [`run`] that may stop early (a sequential test): `until` sees the game records in number order,
/// whatever order the threads finish them in, and once it returns true the run ends with that game
/// (games after it already under way are dropped), so the report is the same whatever `jobs`.
pub fn run_until<P: Playable + ?Sized, L: Lineup + ?Sized>(
    game: &P,
    lineup: &L,
    count: usize,
    run: Run,
    on_game: impl Fn(&Scheduled, &Ending, Option<&Replay>) + Sync,
    until: impl FnMut(&GameRecord) -> bool + Send,
) -> Result<Report, PlanError> {
    let games = run.games(count, game.variants());
    run_games_until(game, lineup, count, run, games, on_game, until)
}

/// [`run_until`] over `games`, games of `run`'s plan but not necessarily all of them nor from its
/// first: a run played in parts, such as `watch`'s batches, each going on where the last stopped.
pub fn run_games_until<P: Playable + ?Sized, L: Lineup + ?Sized>(
    game: &P,
    lineup: &L,
    count: usize,
    run: Run,
    games: Vec<Scheduled>,
    on_game: impl Fn(&Scheduled, &Ending, Option<&Replay>) + Sync,
    mut until: impl FnMut(&GameRecord) -> bool + Send,
) -> Result<Report, PlanError> {
    run.plan.check(game.game(), count)?;
    let records = run_indexed_until(
        games.len(),
        run.jobs,
        |i| {
            let scheduled = &games[i];
            let players = lineup.players(scheduled);
            let seats: Vec<&Entry> = players.iter().collect();
            let (ending, replay) = game.play(scheduled, &seats, run.record);
            on_game(scheduled, &ending, replay.as_ref());
            record(game, scheduled, &players, ending)
        },
        |_| {},
        |_, record| until(record),
    );
    let all = lineup.all();
    let entries: Vec<StrategyRef> = all
        .iter()
        .map(|e| StrategyRef {
            name: e.name.clone(),
            ..StrategyRef::of(&e.strategy)
        })
        .collect();
    let limits = all.first().map_or(serde_json::Value::Null, |e| {
        serde_json::to_value(e.strategy.limits()).expect("limits serialize")
    });
    Ok(Report::new(
        game.game().to_string(),
        run.plan,
        entries,
        (0..game.variants()).map(|v| game.variant_name(v)).collect(),
        limits,
        crate::runtime::source_hash(game.setup().as_bytes()),
        run.shard,
        records,
    ))
}

/// The record of one game (the league records its games one at a time with it).
pub fn record<P: Playable + ?Sized>(
    game: &P,
    scheduled: &Scheduled,
    players: &[Entry],
    ending: Ending,
) -> GameRecord {
    GameRecord {
        number: scheduled.index + 1,
        seed: scheduled.seed,
        variant: game.variant_name(scheduled.variant),
        winner: ending.winner.map(|s| players[s].name.clone()),
        winner_seat: ending.winner,
        sha256: players
            .iter()
            .map(|p| p.strategy.hash().to_string())
            .collect(),
        players: players.iter().map(|p| p.name.clone()).collect(),
        reason: ending.reason,
        turns: ending.turns,
        faults: ending.faults,
        figures: ending.figures,
    }
}

impl Report {
    /// A report of `games`, with its summary computed from them.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        game: String,
        plan: Plan,
        entries: Vec<StrategyRef>,
        variants: Vec<String>,
        limits: serde_json::Value,
        setup_sha256: String,
        shard: Option<Shard>,
        games: Vec<GameRecord>,
    ) -> Report {
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        Report {
            summary: Summary::of(&game, &names, plan.seats, &games),
            sprt: None,
            game,
            plan,
            limits,
            setup_sha256,
            shard,
            variants,
            games,
            entries,
        }
    }
}

/// Names for the entries: the file stems; where two files share a stem, their file names or as much of
/// their paths as tells them apart (`greedy.lua` and `greedy.py`, `lua/greedy.lua` and
/// `mine/greedy.lua`); the same file entered twice is numbered (`greedy-2`).
pub fn unique_names(strategies: &[Strategy]) -> Vec<String> {
    // The path as components: `strategies/lua/worms/greedy.lua`.
    let parts: Vec<Vec<String>> = strategies
        .iter()
        .map(|s| {
            s.path()
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect()
        })
        .collect();
    // Level 0 is the stem; level k the last k components of the path (`greedy.py`,
    // `lua/greedy.lua`).
    let label = |i: usize, k: usize| {
        if k == 0 || parts[i].is_empty() {
            strategies[i].name().to_string()
        } else {
            parts[i][parts[i].len().saturating_sub(k)..].join("/")
        }
    };
    let mut names: Vec<String> = Vec::with_capacity(strategies.len());
    for i in 0..strategies.len() {
        // The file's stem, or as little of its path as tells it from another file of the same stem.
        let mut k = 0;
        let base = loop {
            let mine = label(i, k);
            let clash = (0..strategies.len()).any(|j| {
                j != i && strategies[j].path() != strategies[i].path() && label(j, k) == mine
            });
            if !clash || k >= parts[i].len() {
                break mine;
            }
            k += 1;
        };
        // The same file entered twice: numbered.
        let mut name = base.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{base}-{n}");
            n += 1;
        }
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::derive_seed;

    fn plan(format: Format, games: usize, seats: usize, repeat: bool) -> Plan {
        Plan {
            format,
            games,
            seed: 7,
            seats,
            repeat,
        }
    }

    #[test]
    fn a_round_robin_plays_every_pair_with_sides_swapped_and_maps_rotated() {
        let games = schedule(&plan(Format::RoundRobin, 4, 2, false), 3, 2);
        assert_eq!(games.len(), 3 * 4);
        let firsts: Vec<Vec<usize>> = games.iter().map(|g| g.seats.clone()).collect();
        assert_eq!(&firsts[..4], &[[0, 1], [1, 0], [0, 1], [1, 0]]);
        assert_eq!(firsts[4], [0, 2]);
        assert_eq!(firsts[8], [1, 2]);
        let variants: Vec<usize> = games[..4].iter().map(|g| g.variant).collect();
        assert_eq!(variants, [0, 0, 1, 1]);
        let seeds: std::collections::HashSet<u64> = games.iter().map(|g| g.seed).collect();
        assert_eq!(seeds.len(), games.len(), "every game has its own seed");
        assert!(games.iter().enumerate().all(|(i, g)| g.index == i));
    }

    #[test]
    fn a_gauntlet_pits_the_first_entry_against_each_other() {
        let games = schedule(&plan(Format::Gauntlet, 2, 2, false), 4, 1);
        let pairs: Vec<Vec<usize>> = games.iter().map(|g| g.seats.clone()).collect();
        assert_eq!(pairs, [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]]);
    }

    #[test]
    fn a_series_plays_each_entry_alone_seeded_by_the_game_number() {
        let games = schedule(&plan(Format::Series, 3, 1, false), 2, 1);
        let seats: Vec<Vec<usize>> = games.iter().map(|g| g.seats.clone()).collect();
        assert_eq!(seats, [[0], [0], [0], [1], [1], [1]]);
        assert_eq!(games[4].seed, derive_seed(7, 4));
        assert_eq!(games[4].round, 1);
    }

    #[test]
    fn pool_seatings_are_distinct_entries_in_random_order_from_the_games_number_alone() {
        let p = plan(Format::Pool, 100, 4, false);
        let games = schedule(&p, 7, 1);
        for g in &games {
            let mut seats = g.seats.clone();
            seats.sort();
            seats.dedup();
            assert_eq!(seats.len(), 4, "distinct entries: {:?}", g.seats);
            assert!(g.seats.iter().all(|&e| e < 7));
            assert_eq!(
                p.game(g.index, 7, 1),
                *g,
                "a game's seating is its number's alone"
            );
        }
        let firsts: std::collections::HashSet<usize> = games.iter().map(|g| g.seats[0]).collect();
        assert_eq!(firsts.len(), 7, "every entry sits first sometimes");
    }

    #[test]
    fn plans_are_checked_against_the_game_and_the_entries() {
        let p = plan(Format::Pool, 10, 4, false);
        assert!(matches!(p.check("bs", 3), Err(PlanError::TooFew { .. })));
        assert!(plan(Format::Pool, 10, 4, true).check("bs", 3).is_ok());
        assert!(matches!(
            plan(Format::RoundRobin, 10, 4, false).check("bs", 5),
            Err(PlanError::Format { .. })
        ));
        assert!(matches!(
            plan(Format::Series, 0, 1, false).check("2048", 1),
            Err(PlanError::Empty)
        ));
    }

    #[test]
    fn a_shard_plays_every_nth_game() {
        let run = Run {
            plan: plan(Format::RoundRobin, 4, 2, false),
            shard: Some("2/3".parse().unwrap()),
            jobs: 1,
            record: false,
        };
        let games = run.games(3, 1);
        let indices: Vec<usize> = games.iter().map(|g| g.index).collect();
        assert_eq!(indices, [1, 4, 7, 10]);
        for (shard, entries) in [
            (Some("1/3"), 3),
            (Some("3/3"), 3),
            (Some("3/5"), 2),
            (None, 4),
        ] {
            let run = Run {
                shard: shard.map(|s| s.parse().unwrap()),
                ..run.clone()
            };
            assert_eq!(run.count(entries), run.games(entries, 1).len(), "{shard:?}");
        }
        assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
    }
}

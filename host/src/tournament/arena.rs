//! The tournament runner for two-player games: head-to-head matches, round robins and gauntlets.
//!
//! A run is a list of numbered games. Each pairing of two entries plays `games` games: the variant
//! (a Wormworld map, say) changes every two games and the sides swap every other game, so with an
//! even count each entry plays every variant from both seats equally often. Game `i` is seeded with
//! `derive_seed(seed, i)` and nothing else, so results do not depend on the thread count, and a game
//! can be replayed alone from its number.
//!
//! The game itself is behind [`Duel`]: the runner schedules, the game plays one scheduled game and
//! says who won and why. [`Standings`] are computed from the game records alone.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{run_indexed, stats};
use crate::games::derive_seed;
use crate::replay::{Replay, StrategyRef};
use crate::runtime::{Fault, FaultKind, Strategy};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every entry against every other.
    RoundRobin,
    /// The first entry (the candidate) against each of the others (the field).
    Gauntlet,
}

/// One entry of a tournament: a strategy, under the name the tables show.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub strategy: Strategy,
}

/// A game the runner asks a [`Duel`] to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The game's number in the run, from 0.
    pub index: usize,
    pub seed: u64,
    /// The entries in seat order: `seats[0]` moves first.
    pub seats: [usize; 2],
    /// Which variant (map) of the game, `0..Duel::variants()`.
    pub variant: usize,
    /// The game's number within its pairing, from 0: even games seat the pairing's first entry
    /// first.
    pub round: usize,
}

/// How one game ended, as the game reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// Why the game ended, e.g. `all worms home`, `turn limit`, `fault`.
    pub reason: String,
    pub turns: u32,
    /// The fault of each seat, if it faulted (it then lost the game).
    pub faults: [Option<Fault>; 2],
    /// The SHA-256 of the game's moves, where the game keeps it: equal for two games that went
    /// the same way, so a report can say how many distinct games were played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_sha256: Option<String>,
}

/// A two-player game the runner can schedule.
pub trait Duel: Sync {
    /// The game's name in files (`worms`, `dice`).
    fn game(&self) -> &str;
    /// How many variants (maps) there are; at least 1.
    fn variants(&self) -> usize;
    /// A variant's name for tables and JSON.
    fn variant_name(&self, variant: usize) -> String;
    /// Everything about the game's set-up that changes results and is not in the plan or the
    /// entries (the maps' full text, the dice), as text; reports keep its SHA-256 so that parts of
    /// different set-ups are never merged.
    fn setup(&self) -> String;
    /// Plays one game; with `record`, also returns its replay.
    fn play(
        &self,
        game: &Scheduled,
        players: [&Entry; 2],
        record: bool,
    ) -> (Ending, Option<Replay>);
}

/// The shape of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub format: Format,
    /// Games per pairing.
    pub games: usize,
    pub seed: u64,
}

/// Every game of a run, in number order: for each pairing (in order), `games` games.
pub fn schedule(plan: &Plan, entries: usize, variants: usize) -> Vec<Scheduled> {
    let pairs: Vec<(usize, usize)> = match plan.format {
        Format::RoundRobin => (0..entries)
            .flat_map(|a| (a + 1..entries).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..entries).map(|b| (0, b)).collect(),
    };
    let variants = variants.max(1);
    let mut games = Vec::with_capacity(pairs.len() * plan.games);
    for (a, b) in pairs {
        for g in 0..plan.games {
            let index = games.len();
            games.push(Scheduled {
                index,
                seed: derive_seed(plan.seed, index as u64),
                seats: if g % 2 == 0 { [a, b] } else { [b, a] },
                variant: (g / 2) % variants,
                round: g,
            });
        }
    }
    games
}

/// One game's result in a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the run, from 1 (as in replay file names).
    pub number: usize,
    pub seed: u64,
    pub variant: String,
    /// The entries' names in seat order: the first moved first.
    pub players: [String; 2],
    /// The content hashes of the versions that played, in seat order.
    pub sha256: [String; 2],
    /// The winner's name, or `None` for a draw.
    pub winner: Option<String>,
    pub reason: String,
    pub turns: u32,
    /// Each seat's fault, if any.
    pub faults: [Option<Fault>; 2],
    /// The SHA-256 of the game's moves, where the game keeps it ([`Ending::moves_sha256`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_sha256: Option<String>,
}

/// Everything a run reports, as its JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub game: String,
    pub plan: Plan,
    /// The part of the run this report holds, when it was played in shards (`--shard K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The limits the strategies ran under.
    pub limits: serde_json::Value,
    /// The SHA-256 of the game's set-up ([`Duel::setup`]: maps, dice).
    pub setup_sha256: String,
    /// The entries under their names in the tables, with their files' content hashes.
    pub entries: Vec<StrategyRef>,
    pub variants: Vec<String>,
    pub standings: Vec<Standing>,
    /// For every two entries that met, the first one's score against the second, by name.
    pub pairs: Vec<PairResult>,
    /// How many of the games were distinct (players, variant and moves), where the game keeps its
    /// moves' hash: fewer than the games when deterministic bots replay the same game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct_games: Option<usize>,
    pub games: Vec<GameRecord>,
}

/// One entry's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub name: String,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Points (win 1, draw 1/2) per game, in percent.
    pub score: f64,
    /// The Elo difference to the entry's opponents that its score implies, with a 95% margin
    /// (`None` at a score of 0% or 100%, where it is unbounded).
    pub elo: Option<f64>,
    pub elo_margin: Option<f64>,
    /// Faults by kind (`"timeout"`, `"crash"`, ...); every fault lost its game.
    pub faults: BTreeMap<FaultKind, usize>,
}

/// Two entries' results against each other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairResult {
    pub a: String,
    pub b: String,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// `a`'s score against `b`, in percent.
    pub score: f64,
    pub elo: Option<f64>,
    pub elo_margin: Option<f64>,
}

/// Which part of a run to play: the games whose index `i` has `i % count == index - 1`
/// (`--shard 3/16` is index 3 of 16). A game's result depends only on its number, so the parts of a
/// run played anywhere merge into the run played whole ([`super::shard::merge`]).
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

/// Who plays a game: by default the entries as given; under hot reload the versions current when
/// the game starts ([`super::live::Live`]).
pub trait Lineup: Sync {
    /// The players of `game`, in seat order, as they are when the game starts.
    fn players(&self, game: &Scheduled) -> [Entry; 2];
    /// Every entry that played or may play, in the order the report lists them.
    fn all(&self) -> Vec<Entry>;
}

impl Lineup for [Entry] {
    fn players(&self, game: &Scheduled) -> [Entry; 2] {
        game.seats.map(|e| self[e].clone())
    }

    fn all(&self) -> Vec<Entry> {
        self.to_vec()
    }
}

/// Runs the whole schedule on `jobs` threads. `on_game` is called after each game (progress bars,
/// replay files), from the thread that played it, with the game and its replay if `record` is set.
pub fn run<D: Duel>(
    duel: &D,
    entries: &[Entry],
    plan: Plan,
    jobs: usize,
    record: bool,
    on_game: impl Fn(&Scheduled, &Ending, Option<&Replay>) + Sync,
) -> Report {
    run_part(
        duel,
        entries,
        entries.len(),
        plan,
        None,
        jobs,
        record,
        on_game,
    )
}

/// [`run`] with the players chosen by `lineup` when each game starts, and only the games of `shard`
/// if one is given. `count` is the number of entries the schedule pairs.
#[allow(clippy::too_many_arguments)]
pub fn run_part<D: Duel, L: Lineup + ?Sized>(
    duel: &D,
    lineup: &L,
    count: usize,
    plan: Plan,
    shard: Option<Shard>,
    jobs: usize,
    record: bool,
    on_game: impl Fn(&Scheduled, &Ending, Option<&Replay>) + Sync,
) -> Report {
    let games: Vec<Scheduled> = schedule(&plan, count, duel.variants())
        .into_iter()
        .filter(|g| shard.is_none_or(|s| s.contains(g.index)))
        .collect();
    let records = run_indexed(
        games.len(),
        jobs,
        |i| {
            let game = &games[i];
            let players = lineup.players(game);
            let (ending, replay) = duel.play(game, [&players[0], &players[1]], record);
            on_game(game, &ending, replay.as_ref());
            GameRecord {
                number: game.index + 1,
                seed: game.seed,
                variant: duel.variant_name(game.variant),
                winner: ending.winner.map(|s| players[s].name.clone()),
                sha256: [0, 1].map(|s| players[s].strategy.hash().to_string()),
                players: players.map(|p| p.name),
                reason: ending.reason,
                turns: ending.turns,
                faults: ending.faults,
                moves_sha256: ending.moves_sha256,
            }
        },
        |_| {},
    );
    let entries: Vec<StrategyRef> = lineup
        .all()
        .iter()
        .map(|e| StrategyRef {
            name: e.name.clone(),
            ..StrategyRef::of(&e.strategy)
        })
        .collect();
    let limits = lineup.all().first().map_or(serde_json::Value::Null, |e| {
        serde_json::to_value(e.strategy.limits()).expect("limits serialize")
    });
    let mut report = Report::new(
        duel.game().to_string(),
        plan,
        entries,
        (0..duel.variants()).map(|v| duel.variant_name(v)).collect(),
        limits,
        shard,
        records,
    );
    report.setup_sha256 = crate::runtime::source_hash(duel.setup().as_bytes());
    report
}

impl Report {
    /// A report of `games`, with the standings and pairs computed from them.
    pub fn new(
        game: String,
        plan: Plan,
        entries: Vec<StrategyRef>,
        variants: Vec<String>,
        limits: serde_json::Value,
        shard: Option<Shard>,
        games: Vec<GameRecord>,
    ) -> Report {
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        Report {
            standings: standings(&names, &games),
            pairs: pairs(&names, &games),
            distinct_games: distinct_games(&games),
            game,
            plan,
            limits,
            setup_sha256: String::new(),
            shard,
            variants,
            games,
            entries,
        }
    }
}

/// The number of distinct games (players in seat order, variant, moves), if every game keeps the
/// hash of its moves.
fn distinct_games(games: &[GameRecord]) -> Option<usize> {
    let mut seen = std::collections::HashSet::new();
    for g in games {
        seen.insert((&g.players, &g.variant, g.moves_sha256.as_ref()?));
    }
    Some(seen.len())
}

/// Win, draw and loss counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Wdl {
    wins: usize,
    draws: usize,
    losses: usize,
}

impl Wdl {
    fn add(&mut self, record: &GameRecord, name: &str) {
        match &record.winner {
            None => self.draws += 1,
            Some(w) if w == name => self.wins += 1,
            Some(_) => self.losses += 1,
        }
    }

    fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }
}

/// The standings, best score first (ties keep the entries' order).
pub fn standings(names: &[&str], records: &[GameRecord]) -> Vec<Standing> {
    let mut table: Vec<Standing> = names
        .iter()
        .map(|&name| {
            let mut wdl = Wdl::default();
            let mut faults = BTreeMap::new();
            for record in records
                .iter()
                .filter(|r| r.players.iter().any(|p| p == name))
            {
                wdl.add(record, name);
                for (seat, fault) in record.faults.iter().enumerate() {
                    if let Some(fault) = fault
                        && record.players[seat] == name
                    {
                        *faults.entry(fault.kind).or_insert(0) += 1;
                    }
                }
            }
            let (elo, elo_margin) = stats::elo95(wdl.wins, wdl.draws, wdl.losses);
            Standing {
                name: name.to_string(),
                games: wdl.games(),
                wins: wdl.wins,
                draws: wdl.draws,
                losses: wdl.losses,
                score: 100.0 * wdl.score(),
                elo,
                elo_margin,
                faults,
            }
        })
        .collect();
    table.sort_by(|a, b| b.score.total_cmp(&a.score));
    table
}

/// Every pair of entries that met, in the entries' order.
pub fn pairs(names: &[&str], records: &[GameRecord]) -> Vec<PairResult> {
    let mut out = Vec::new();
    for (i, &a) in names.iter().enumerate() {
        for &b in &names[i + 1..] {
            let mut wdl = Wdl::default();
            for record in records {
                let p = &record.players;
                if (p[0] == a && p[1] == b) || (p[0] == b && p[1] == a) {
                    wdl.add(record, a);
                }
            }
            if wdl.games() == 0 {
                continue;
            }
            let (elo, elo_margin) = stats::elo95(wdl.wins, wdl.draws, wdl.losses);
            out.push(PairResult {
                a: a.to_string(),
                b: b.to_string(),
                wins: wdl.wins,
                draws: wdl.draws,
                losses: wdl.losses,
                score: 100.0 * wdl.score(),
                elo,
                elo_margin,
            });
        }
    }
    out
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

    fn plan(format: Format, games: usize) -> Plan {
        Plan {
            format,
            games,
            seed: 7,
        }
    }

    #[test]
    fn a_round_robin_plays_every_pair_with_sides_swapped_and_maps_rotated() {
        let games = schedule(&plan(Format::RoundRobin, 4), 3, 2);
        assert_eq!(games.len(), 3 * 4);
        let firsts: Vec<[usize; 2]> = games.iter().map(|g| g.seats).collect();
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
        let games = schedule(&plan(Format::Gauntlet, 2), 4, 1);
        let pairs: Vec<[usize; 2]> = games.iter().map(|g| g.seats).collect();
        assert_eq!(pairs, [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]]);
    }

    fn record(players: [&str; 2], winner: Option<&str>, fault: Option<usize>) -> GameRecord {
        let mut faults = [None, None];
        if let Some(seat) = fault {
            faults[seat] = Some(Fault::new(FaultKind::Timeout, "slow"));
        }
        GameRecord {
            number: 1,
            seed: 0,
            variant: "m".into(),
            players: players.map(String::from),
            sha256: [String::new(), String::new()],
            winner: winner.map(String::from),
            reason: "r".into(),
            turns: 1,
            faults,
            moves_sha256: None,
        }
    }

    #[test]
    fn standings_count_results_and_faults_per_entry() {
        let records = [
            record(["a", "b"], Some("a"), None),
            record(["b", "a"], Some("a"), Some(0)),
            record(["a", "c"], None, None),
            record(["c", "a"], Some("c"), None),
        ];
        let table = standings(&["a", "b", "c"], &records);
        let order: Vec<&str> = table.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(order, ["c", "a", "b"], "best score first");
        assert_eq!((table[1].wins, table[1].draws, table[1].losses), (2, 1, 1));
        assert_eq!(table[1].score, 62.5);
        assert_eq!(table[0].score, 75.0);
        let b = table.iter().find(|s| s.name == "b").unwrap();
        assert_eq!(b.faults.get(&FaultKind::Timeout), Some(&1));
        assert_eq!(b.score, 0.0);
        assert_eq!(b.elo, None, "a 0% score has no finite Elo");
        let ab = &pairs(&["a", "b", "c"], &records)[0];
        assert_eq!((ab.a.as_str(), ab.b.as_str(), ab.wins), ("a", "b", 2));
    }
}

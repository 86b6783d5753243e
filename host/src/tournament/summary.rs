//! The summaries of a run, computed from its game records alone: standings (win, draw and loss
//! counts, the score and the win rate with its 95% Wilson interval; Elo ± 95% for two-player games;
//! the mean score with its interval for solo games), two entries' results against each other, each
//! seat's wins, and how the games ended.
//!
//! **Faults.** A seat that faulted lost its game, unless the game's rules made the turn of its
//! fault a draw (simultaneous moves: the other crashed on the same turn; `GameRecord::points`).
//! With more than two seats a fault voids the game for everyone else: it counts neither for nor against them (their `void` count grows instead).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::runner::GameRecord;
use super::stats;
use crate::runtime::FaultKind;

/// Everything a report says about its games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Best score first (ties keep the entries' order).
    pub standings: Vec<Standing>,
    /// For every two entries that met in a two-player game, the first one's results against the
    /// second, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<PairResult>,
    /// Wins by seat over the games that were not void: the seat effect (games of two or more seats).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Score>,
    pub ends: Ends,
    /// How many of the games were distinct (players, variant and moves), where the game keeps its
    /// moves' hash: fewer than the games when deterministic bots replay the same game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct_games: Option<usize>,
    /// The game's own figures for each entry, where it has some ([`super::setup::SetUp::benchmark`]:
    /// 2048's benchmark, its points and the share of games reaching each milestone tile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benchmark: Option<serde_json::Value>,
}

/// One entry's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub name: String,
    /// Games counted: those the entry played, less those another entry's fault voided.
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Points (win 1, draw 1/2) per game, in percent.
    pub score: f64,
    /// Wins per game, in percent, with its 95% Wilson interval.
    pub win_rate: f64,
    pub low: f64,
    pub high: f64,
    /// Two players: the Elo difference to the entry's opponents that its score implies, with a 95%
    /// margin (`None` at a score of 0% or 100%, where it is unbounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo_margin: Option<f64>,
    /// Solo games: the mean of the games' scores with its 95% margin, and their median.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_margin: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_score: Option<f64>,
    /// More than two seats: the wins and games by seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_seat: Vec<Score>,
    /// Games voided by another entry's fault.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub void: usize,
    /// Faults by kind (`"timeout"`, `"crash"`, ...); every fault lost its game.
    pub faults: BTreeMap<FaultKind, usize>,
}

impl Standing {
    /// The standing's wins per game with its interval, as a [`Score`].
    pub fn win_score(&self) -> Score {
        Score {
            games: self.games,
            wins: self.wins,
            win_rate: self.win_rate,
            low: self.low,
            high: self.high,
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Games and wins, with the win rate and its 95% Wilson interval, in percent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub games: usize,
    pub wins: usize,
    pub win_rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Score {
    pub fn new(wins: usize, games: usize) -> Score {
        let (low, high) = stats::wilson95(wins, games);
        let rate = if games == 0 {
            0.0
        } else {
            wins as f64 / games as f64
        };
        Score {
            games,
            wins,
            win_rate: 100.0 * rate,
            low: 100.0 * low,
            high: 100.0 * high,
        }
    }
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

/// How the games ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ends {
    pub won: usize,
    /// Games without a winner: draws, BS's round limit, solo games.
    pub no_winner: usize,
    /// Games a fault ended (void for the others when there are more than two seats).
    pub faulted: usize,
}

/// Win, draw and loss counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Wdl {
    wins: usize,
    draws: usize,
    losses: usize,
}

impl Wdl {
    /// Adds seat `seat`'s result in `record`.
    fn add(&mut self, record: &GameRecord, seat: usize) {
        let points = record.points(seat);
        if points >= 1.0 {
            self.wins += 1;
        } else if points > 0.0 {
            self.draws += 1;
        } else {
            self.losses += 1;
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

impl Summary {
    /// The summary of `records` of the game `game` played by the entries `names` at games of
    /// `seats` seats.
    pub fn of(game: &str, names: &[&str], seats: usize, records: &[GameRecord]) -> Summary {
        Summary {
            standings: standings(names, seats, records),
            pairs: if seats == 2 {
                pairs(names, records)
            } else {
                Vec::new()
            },
            seats: if seats >= 2 {
                seat_scores(seats, records)
            } else {
                Vec::new()
            },
            ends: ends(records),
            distinct_games: distinct_games(records),
            benchmark: crate::games::registry::find(game)
                .ok()
                .and_then(|rules| super::setup::of(rules).benchmark(names, records)),
        }
    }
}

/// The standings, best score first (ties keep the entries' order); solo games by mean score.
pub fn standings(names: &[&str], seats: usize, records: &[GameRecord]) -> Vec<Standing> {
    let mut table: Vec<Standing> = names
        .iter()
        .map(|&name| {
            let mut wdl = Wdl::default();
            let (mut void, mut faults) = (0, BTreeMap::new());
            let (mut by_seat, mut scores) = (vec![(0, 0); seats.max(1)], Vec::new());
            for record in records {
                for (seat, player) in record.players.iter().enumerate() {
                    if player != name {
                        continue;
                    }
                    if let Some(fault) = &record.faults[seat] {
                        *faults.entry(fault.kind).or_insert(0) += 1;
                    } else if record.is_void() {
                        void += 1;
                        continue;
                    }
                    wdl.add(record, seat);
                    if let Some(s) = by_seat.get_mut(seat) {
                        s.0 += usize::from(record.winner_seat == Some(seat));
                        s.1 += 1;
                    }
                    scores.extend(record.figures.score);
                }
            }
            let (elo, elo_margin) = if seats == 2 {
                stats::elo95(wdl.wins, wdl.draws, wdl.losses)
            } else {
                (None, None)
            };
            let wins = Score::new(wdl.wins, wdl.games());
            let solo = !scores.is_empty();
            Standing {
                name: name.to_string(),
                games: wdl.games(),
                wins: wdl.wins,
                draws: wdl.draws,
                losses: wdl.losses,
                score: 100.0 * wdl.score(),
                win_rate: wins.win_rate,
                low: wins.low,
                high: wins.high,
                elo,
                elo_margin,
                mean_score: solo.then(|| stats::mean(&scores)),
                score_margin: solo.then(|| stats::margin95(&scores)),
                median_score: solo.then(|| stats::median(&scores)),
                by_seat: if seats > 2 {
                    by_seat.iter().map(|&(w, g)| Score::new(w, g)).collect()
                } else {
                    Vec::new()
                },
                void,
                faults,
            }
        })
        .collect();
    let key = |s: &Standing| s.mean_score.unwrap_or(s.score);
    table.sort_by(|a, b| key(b).total_cmp(&key(a)));
    table
}

/// Every pair of entries that met in a two-player game, in the entries' order.
pub fn pairs(names: &[&str], records: &[GameRecord]) -> Vec<PairResult> {
    let mut out = Vec::new();
    for (i, &a) in names.iter().enumerate() {
        for &b in &names[i + 1..] {
            let mut wdl = Wdl::default();
            for record in records {
                let p = &record.players;
                if p.len() == 2 && ((p[0] == a && p[1] == b) || (p[0] == b && p[1] == a)) {
                    wdl.add(record, usize::from(p[1] == a));
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

/// Each seat's wins over the games that no fault ended.
pub fn seat_scores(seats: usize, records: &[GameRecord]) -> Vec<Score> {
    let counted: Vec<&GameRecord> = records
        .iter()
        .filter(|r| r.faults.iter().all(Option::is_none))
        .collect();
    (0..seats)
        .map(|s| {
            let wins = counted.iter().filter(|r| r.winner_seat == Some(s)).count();
            Score::new(wins, counted.len())
        })
        .collect()
}

fn ends(records: &[GameRecord]) -> Ends {
    let mut ends = Ends::default();
    for r in records {
        match (r.faults.iter().any(Option::is_some), r.winner_seat) {
            (true, _) => ends.faulted += 1,
            (false, Some(_)) => ends.won += 1,
            (false, None) => ends.no_winner += 1,
        }
    }
    ends
}

/// The number of distinct games (players in seat order, variant, moves), if every game keeps the
/// hash of its moves.
fn distinct_games(games: &[GameRecord]) -> Option<usize> {
    let mut seen = std::collections::HashSet::new();
    for g in games {
        seen.insert((&g.players, &g.variant, g.figures.moves_sha256.as_ref()?));
    }
    Some(seen.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Fault;

    fn record(players: &[&str], winner: Option<usize>, fault: Option<usize>) -> GameRecord {
        let mut faults = vec![None; players.len()];
        if let Some(seat) = fault {
            faults[seat] = Some(Fault::new(FaultKind::Timeout, "slow"));
        }
        GameRecord {
            number: 1,
            seed: 0,
            variant: "m".into(),
            players: players.iter().map(|p| p.to_string()).collect(),
            sha256: vec![String::new(); players.len()],
            winner: winner.map(|s| players[s].to_string()),
            winner_seat: winner,
            reason: "r".into(),
            turns: 1,
            faults,
            figures: Default::default(),
        }
    }

    /// A game of simultaneous moves drawn on the turn one seat faulted (both crashed) is a draw
    /// for both; every other fault is its seat's loss.
    #[test]
    fn a_fault_on_a_drawn_turn_is_a_draw_and_every_other_fault_a_loss() {
        let drawn = record(&["a", "b"], None, Some(0));
        assert_eq!((drawn.points(0), drawn.points(1)), (0.5, 0.5));
        let table = standings(&["a", "b"], 2, &[drawn]);
        assert!(
            table.iter().all(|s| s.draws == 1 && s.losses == 0),
            "{table:?}"
        );
        let lost = record(&["a", "b"], Some(1), Some(0));
        assert_eq!((lost.points(0), lost.points(1)), (0.0, 1.0));
        let mut both = record(&["a", "b"], None, Some(0));
        both.faults[1] = both.faults[0].clone();
        assert_eq!((both.points(0), both.points(1)), (0.0, 0.0));
    }

    #[test]
    fn two_player_standings_count_results_and_faults_per_entry() {
        let records = [
            record(&["a", "b"], Some(0), None),
            record(&["b", "a"], Some(1), Some(0)),
            record(&["a", "c"], None, None),
            record(&["c", "a"], Some(0), None),
        ];
        let table = standings(&["a", "b", "c"], 2, &records);
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

    #[test]
    fn pool_standings_count_wins_per_seat_and_void_games_apart() {
        let records = [
            record(&["a", "b", "c", "d"], Some(0), None),
            record(&["b", "a", "c", "d"], Some(1), None),
            record(&["a", "b", "c", "d"], None, Some(2)),
        ];
        let table = standings(&["a", "b", "c", "d"], 4, &records);
        let a = &table[0];
        assert_eq!((a.name.as_str(), a.games, a.wins, a.void), ("a", 2, 2, 1));
        assert_eq!(a.by_seat[0].wins, 1);
        assert_eq!(a.by_seat[1].wins, 1);
        let c = table.iter().find(|s| s.name == "c").unwrap();
        assert_eq!(
            (c.games, c.losses, c.void),
            (3, 3, 0),
            "the faulting entry lost its game"
        );
        assert_eq!(c.faults.get(&FaultKind::Timeout), Some(&1));
        let seats = seat_scores(4, &records);
        assert_eq!((seats[0].wins, seats[0].games), (1, 2));
        let ends = ends(&records);
        assert_eq!((ends.won, ends.no_winner, ends.faulted), (2, 0, 1));
    }

    #[test]
    fn an_entry_seated_twice_counts_once_per_seat() {
        let records = [record(&["a", "a", "b", "c"], Some(1), None)];
        let a = &standings(&["a", "b", "c"], 4, &records)[0];
        assert_eq!((a.games, a.wins, a.losses), (2, 1, 1));
    }

    #[test]
    fn solo_standings_give_the_mean_score_with_its_margin() {
        let mut records: Vec<GameRecord> = (0..4).map(|_| record(&["a"], None, None)).collect();
        for (r, s) in records.iter_mut().zip([10.0, 20.0, 30.0, 40.0]) {
            r.figures.score = Some(s);
        }
        let a = &standings(&["a"], 1, &records)[0];
        assert_eq!(a.mean_score, Some(25.0));
        assert_eq!(a.median_score, Some(25.0));
        assert!(a.score_margin.unwrap() > 0.0);
        assert_eq!(a.elo, None);
    }
}

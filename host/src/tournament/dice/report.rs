//! The report of a dice ranking: each pair's rates, each die's standing, the order (and how counting
//! draws as half wins would change it), the head-to-head winner and the win matrix.

use serde::Serialize;

use super::{DiceConfig, Rate, Tally, dice_pairs};
use crate::games::dice::Die;

/// One pair's results: die `a` against die `b`.
#[derive(Clone, Debug, Serialize)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    #[serde(flatten)]
    pub tally: Tally,
    /// Share of games won by die A, by die B, and drawn.
    pub a_wins: Rate,
    pub b_wins: Rate,
    pub draws_rate: Rate,
}

impl PairResult {
    fn new(a: usize, b: usize, tally: Tally) -> PairResult {
        PairResult {
            a,
            b,
            a_wins: Rate::of(tally.wins[0], tally.games),
            b_wins: Rate::of(tally.wins[1], tally.games),
            draws_rate: Rate::of(tally.draws, tally.games),
            tally,
        }
    }

    /// The win rate and loss rate of `die`, which is one of the pair.
    pub fn rates_of(&self, die: usize) -> (Rate, Rate) {
        if die == self.a {
            (self.a_wins, self.b_wins)
        } else {
            (self.b_wins, self.a_wins)
        }
    }

    /// Whether `die` beats the other head to head: its win interval lies wholly above its loss interval.
    pub fn beaten_by(&self, die: usize) -> bool {
        let (win, loss) = self.rates_of(die);
        win.low > loss.high
    }
}

/// One die's place in the ranking.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    pub die: usize,
    /// Mean over the other dice of this die's win rate against each (draws count as not won).
    pub mean_win: f64,
    /// The 95% half-width of `mean_win`: the pairs are independent, so their Wilson half-widths
    /// combine as the root of the sum of squares, divided by the number of opponents.
    pub mean_win_half_width: f64,
    /// The same mean with draws counting as half a win.
    pub mean_score: f64,
    /// Mean draw rate over the other dice.
    pub mean_draw: f64,
    /// The dice this die beats head to head, and those that beat it.
    pub beats: Vec<usize>,
    pub loses_to: Vec<usize>,
}

/// Everything `botbox dice` reports, as its JSON.
#[derive(Clone, Debug, Serialize)]
pub struct DiceReport {
    pub config: DiceConfig,
    /// The dice, as their faces, in file order.
    pub dice: Vec<Die>,
    pub pairs: Vec<PairResult>,
    /// Best first: by mean win rate, then mean score, then file order.
    pub standings: Vec<Standing>,
    /// The dice best first when draws count as half a win.
    pub order_draws_as_half: Vec<usize>,
    /// Dice `[x, y]` that the ranking puts x above y, but that draws as half wins put y above x.
    pub draw_reversals: Vec<[usize; 2]>,
    /// The die that beats every other die head to head, if one does.
    pub head_to_head: Option<usize>,
    /// Whether the leader's mean win rate interval lies wholly above the runner-up's.
    pub clear_leader: bool,
    /// `matrix[i][j]`: the share of games die i won against die j (none on the diagonal).
    pub matrix: Vec<Vec<Option<f64>>>,
    /// Games counted, and games simulated (including batches past a pair's stopping point).
    pub games: u64,
    pub games_simulated: u64,
    pub wall_seconds: f64,
    pub games_per_second: f64,
}

impl DiceReport {
    /// Ranks the dice from their pairs' tallies (in [`dice_pairs`] order).
    pub fn new(
        dice: Vec<Die>,
        config: DiceConfig,
        tallies: Vec<Tally>,
        simulated: u64,
        wall_seconds: f64,
    ) -> DiceReport {
        let n = dice.len();
        let pairs: Vec<PairResult> = dice_pairs(n)
            .into_iter()
            .zip(tallies)
            .map(|((a, b), t)| PairResult::new(a, b, t))
            .collect();
        let standings = standings(n, &pairs);
        let order_draws_as_half = order_by(&standings, |s| s.mean_score);
        let draw_reversals = reversals(&standings);
        let head_to_head = standings
            .iter()
            .find(|s| s.beats.len() == n - 1)
            .map(|s| s.die);
        let clear_leader = match &standings[..] {
            [first, second, ..] => {
                first.mean_win - first.mean_win_half_width
                    > second.mean_win + second.mean_win_half_width
            }
            _ => true,
        };
        let matrix = (0..n)
            .map(|i| (0..n).map(|j| win_share(&pairs, i, j)).collect())
            .collect();
        let games = pairs.iter().map(|p| p.tally.games).sum();
        DiceReport {
            config,
            dice,
            pairs,
            standings,
            order_draws_as_half,
            draw_reversals,
            head_to_head,
            clear_leader,
            matrix,
            games,
            games_simulated: simulated,
            wall_seconds,
            games_per_second: simulated as f64 / wall_seconds.max(1e-9),
        }
    }

    /// The pair of dice `i` and `j`, in either order.
    pub fn pair(&self, i: usize, j: usize) -> Option<&PairResult> {
        find_pair(&self.pairs, i, j)
    }
}

fn find_pair(pairs: &[PairResult], i: usize, j: usize) -> Option<&PairResult> {
    pairs
        .iter()
        .find(|p| (p.a, p.b) == (i, j) || (p.a, p.b) == (j, i))
}

fn win_share(pairs: &[PairResult], i: usize, j: usize) -> Option<f64> {
    find_pair(pairs, i, j).map(|p| p.rates_of(i).0.share)
}

/// Every die's standing, best first.
fn standings(n: usize, pairs: &[PairResult]) -> Vec<Standing> {
    let mut list: Vec<Standing> = (0..n).map(|die| standing(die, n, pairs)).collect();
    list.sort_by(|x, y| {
        y.mean_win
            .total_cmp(&x.mean_win)
            .then(y.mean_score.total_cmp(&x.mean_score))
            .then(x.die.cmp(&y.die))
    });
    list
}

fn standing(die: usize, n: usize, pairs: &[PairResult]) -> Standing {
    let mine: Vec<&PairResult> = pairs.iter().filter(|p| p.a == die || p.b == die).collect();
    let others = |p: &PairResult| if p.a == die { p.b } else { p.a };
    let k = (n - 1).max(1) as f64;
    let (mut win, mut score, mut draw, mut squares) = (0.0, 0.0, 0.0, 0.0);
    for p in &mine {
        let (w, d) = (p.rates_of(die).0.share, p.draws_rate.share);
        win += w / k;
        score += (w + d / 2.0) / k;
        draw += d / k;
        squares += p.rates_of(die).0.half_width().powi(2);
    }
    Standing {
        die,
        mean_win: win,
        mean_win_half_width: squares.sqrt() / k,
        mean_score: score,
        mean_draw: draw,
        beats: mine
            .iter()
            .filter(|p| p.beaten_by(die))
            .map(|p| others(p))
            .collect(),
        loses_to: mine
            .iter()
            .filter(|p| p.beaten_by(others(p)))
            .map(|p| others(p))
            .collect(),
    }
}

/// The dice ordered by `key`, best first, ties in the ranking's order.
fn order_by(standings: &[Standing], key: impl Fn(&Standing) -> f64) -> Vec<usize> {
    let mut list: Vec<&Standing> = standings.iter().collect();
    list.sort_by(|x, y| key(y).total_cmp(&key(x)));
    list.into_iter().map(|s| s.die).collect()
}

/// Pairs of dice whose order reverses strictly when draws count as half a win instead of a loss.
fn reversals(standings: &[Standing]) -> Vec<[usize; 2]> {
    let mut found = Vec::new();
    for (i, x) in standings.iter().enumerate() {
        for y in &standings[i + 1..] {
            if x.mean_win > y.mean_win && x.mean_score < y.mean_score {
                found.push([x.die, y.die]);
            }
        }
    }
    found
}

//! The sequential probability ratio test (SPRT) of two strategies, as fastchess and fishtest run it:
//! games are played pair by pair until the log-likelihood ratio (LLR) of "the first strategy is
//! `elo1` stronger" against "it is `elo0` stronger" crosses a bound, and the test says which
//! hypothesis it accepted.
//!
//! **Spelling and meaning are fastchess's.** `elo0=0,elo1=5,alpha=0.05,beta=0.05` (alpha: the chance
//! of accepting H1 when H0 holds; beta: of accepting H0 when H1 holds), with `model=normalized` (the
//! default, normalized Elo) or `model=logistic` (the usual Elo). The bounds are Wald's:
//! `ln(beta / (1 - alpha))` below, `ln((1 - beta) / alpha)` above.
//!
//! **Pentanomial.** The two games of a pair share their seed (dice rolls, an opening) with the sides
//! swapped, so their results are correlated; the test counts pairs by the first strategy's score in
//! them, 0, 1/2, 1, 3/2 or 2 (LL, LD, DD or WL, WD, WW), and takes each pair as one draw from a
//! five-outcome distribution. Under each hypothesis the distribution is the one closest to the
//! observed frequencies (maximum likelihood) whose expected score (logistic) or normalized Elo
//! (normalized) is that hypothesis's; the LLR is the count of pairs times the mean log ratio of the
//! two. Outcomes never seen count as 1/1000 of a pair, as in fastchess and fishtest. The logistic
//! distribution is found by bisection on its Lagrange condition (Van den Bergh, "Comparing the
//! approximations for the generalized log likelihood ratio of a multinomial distribution"), the
//! normalized one by his fixed-point iteration ("Comments on normalized Elo"), each to machine
//! precision; `tests/sprt/llr_reference.py` computes the same figures another way.
//!
//! **A function of the games in order.** [`Sequential`] takes the games in number order whatever
//! order threads finish them in, so where a run stops does not depend on `--jobs`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::runner::GameRecord;

/// The first strategy's score in a pair of games, in quarters of the 0..=1 scale: LL, LD, DD+WL,
/// WD, WW.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// How many pairs an outcome never seen counts as.
const UNSEEN: f64 = 1e-3;

/// Normalized Elo per unit of `t = (mu - 1/2) / sigma` for one game.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// How Elo maps to the distribution of a pair's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Normalized Elo (fastchess's default): the score's distance from 1/2 in standard deviations,
    /// which does not depend on the draw rate.
    #[default]
    Normalized,
    /// Logistic Elo: the expected score `1 / (1 + 10^(-elo / 400))`.
    Logistic,
}

impl Model {
    fn name(self) -> &'static str {
        match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        }
    }
}

/// A test: its two hypotheses (Elo of the first strategy over the second) and error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    #[serde(default)]
    pub model: Model,
}

/// Why a `--sprt` value was refused; each names the key or value at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("{item:?} is not key=value (as in elo0=0,elo1=5,alpha=0.05,beta=0.05)")]
    NotAPair { item: String },
    #[error("unknown key {key:?}: the keys are elo0, elo1, alpha, beta and model")]
    UnknownKey { key: String },
    #[error("{key} is given twice")]
    Repeated { key: String },
    #[error("{key}={value} is not a number")]
    NotANumber { key: String, value: String },
    #[error("model={value} is not a model: logistic or normalized")]
    UnknownModel { value: String },
    #[error("{key} is missing (as in elo0=0,elo1=5,alpha=0.05,beta=0.05)")]
    Missing { key: &'static str },
    #[error("elo0={elo0} must be below elo1={elo1}")]
    EloOrder { elo0: f64, elo1: f64 },
    #[error("{key}={value} must be between 0 and 1")]
    Probability { key: &'static str, value: f64 },
    #[error("alpha={alpha} and beta={beta} must add up to less than 1")]
    ErrorSum { alpha: f64, beta: f64 },
    #[error("{key}={value} is not a finite number")]
    NotFinite { key: &'static str, value: f64 },
    #[error(
        "{key}={value} is beyond {MAX_NORMALIZED} normalized Elo either way, where the normalized model cannot be fitted; a test between bots that far apart can use model=logistic"
    )]
    TooWide { key: &'static str, value: f64 },
}

/// The widest hypothesis the normalized model takes, in normalized Elo either way: beyond about
/// 230 the maximum-likelihood fit (fishtest's fixed-point iteration, as fastchess does it) has no
/// solution from its starting point.
pub const MAX_NORMALIZED: f64 = 200.0;

impl FromStr for Sprt {
    type Err = SprtError;

    /// `elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=M]`: alpha and beta are 0.05 unless given, the
    /// model normalized.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let mut values: [Option<f64>; 4] = [None; 4];
        let mut model = None;
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(SprtError::NotAPair { item: item.into() });
            };
            let (key, value) = (key.trim(), value.trim());
            let repeated = || SprtError::Repeated { key: key.into() };
            if key == "model" {
                let m = match value {
                    "normalized" => Model::Normalized,
                    "logistic" => Model::Logistic,
                    _ => {
                        return Err(SprtError::UnknownModel {
                            value: value.into(),
                        });
                    }
                };
                if model.replace(m).is_some() {
                    return Err(repeated());
                }
                continue;
            }
            let Some(slot) = KEYS.iter().position(|k| *k == key) else {
                return Err(SprtError::UnknownKey { key: key.into() });
            };
            let number = value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    key: key.into(),
                    value: value.into(),
                })?;
            if values[slot].replace(number).is_some() {
                return Err(repeated());
            }
        }
        let [elo0, elo1, alpha, beta] = values;
        let test = Sprt {
            elo0: elo0.ok_or(SprtError::Missing { key: "elo0" })?,
            elo1: elo1.ok_or(SprtError::Missing { key: "elo1" })?,
            alpha: alpha.unwrap_or(0.05),
            beta: beta.unwrap_or(0.05),
            model: model.unwrap_or_default(),
        };
        test.check()?;
        Ok(test)
    }
}

impl fmt::Display for Sprt {
    /// The spelling `--sprt` reads, every key given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.model.name()
        )
    }
}

/// Which hypothesis a test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hypothesis {
    /// The first strategy is not stronger than `elo0`.
    H0,
    /// The first strategy is stronger by `elo1`.
    H1,
}

impl Sprt {
    /// Whether the test makes sense: `elo0 < elo1`, error rates in (0, 1) adding up to less than 1.
    pub fn check(&self) -> Result<(), SprtError> {
        for (key, value) in [("elo0", self.elo0), ("elo1", self.elo1)] {
            if !value.is_finite() {
                return Err(SprtError::NotFinite { key, value });
            }
            if self.model == Model::Normalized && value.abs() > MAX_NORMALIZED {
                return Err(SprtError::TooWide { key, value });
            }
        }
        if self.elo0 >= self.elo1 {
            let (elo0, elo1) = (self.elo0, self.elo1);
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        for (key, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Probability { key, value });
            }
        }
        if self.alpha + self.beta >= 1.0 {
            let (alpha, beta) = (self.alpha, self.beta);
            return Err(SprtError::ErrorSum { alpha, beta });
        }
        Ok(())
    }

    /// Wald's bounds on the LLR: H0 is accepted at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The hypothesis `llr` accepts, if it crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }

    /// The log-likelihood ratio of H1 against H0 for the pairs counted in `penta`.
    pub fn llr(&self, penta: &Penta) -> f64 {
        let counts = penta
            .counts()
            .map(|c| if c == 0 { UNSEEN } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / total);
        let (p0, p1) = match self.model {
            Model::Logistic => (
                logistic_mle(&observed, expected_score(self.elo0)),
                logistic_mle(&observed, expected_score(self.elo1)),
            ),
            Model::Normalized => {
                // A pair's t is sqrt(2) times a game's: its mean moves twice as far, its standard
                // deviation sqrt(2) times, on the same 0..=1 scale.
                let t = |elo: f64| std::f64::consts::SQRT_2 * elo / NELO_PER_T;
                (
                    normalized_mle(&observed, t(self.elo0)),
                    normalized_mle(&observed, t(self.elo1)),
                )
            }
        };
        total
            * (0..5)
                .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }
}

/// The expected score of a logistic Elo difference.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The root of `f`, decreasing from +inf to -inf on the open interval `(lo, hi)`, by bisection to
/// the last bit.
fn decreasing_root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return mid;
        }
        let value = f(mid);
        if value > 0.0 {
            lo = mid;
        } else if value < 0.0 {
            hi = mid;
        } else {
            return mid;
        }
    }
}

/// The distribution `p_i = observed_i / (1 + theta * phi_i)` that sums to 1, for weights `phi`
/// of both signs: the closest to `observed` (in likelihood) with `sum p_i phi_i = 0`. `None` when
/// the weights do not have both signs (no distribution meets the constraint).
fn tilted(observed: &[f64; 5], phi: &[f64; 5]) -> Option<[f64; 5]> {
    let (min, max) = phi
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    // sum observed_i phi_i / (1 + theta phi_i) falls from +inf to -inf as theta crosses the
    // interval where every denominator is positive; at its root the p_i sum to 1.
    let condition = |theta: f64| {
        (0..5)
            .map(|i| observed[i] * phi[i] / (1.0 + theta * phi[i]))
            .sum::<f64>()
    };
    let theta = decreasing_root(condition, -1.0 / max, -1.0 / min);
    Some(std::array::from_fn(|i| {
        observed[i] / (1.0 + theta * phi[i])
    }))
}

/// The most likely distribution of pair scores with expected score `s`.
fn logistic_mle(observed: &[f64; 5], s: f64) -> [f64; 5] {
    // With 0 < s < 1 the weights `a - s` run from -s to 1 - s: both signs.
    tilted(observed, &SCORES.map(|a| a - s)).unwrap_or(*observed)
}

/// The most likely distribution of pair scores whose `(mu - 1/2) / sigma` is `t`, by the
/// fixed-point iteration: the constraint linearized at the last estimate, solved as
/// [`tilted`], until the estimate no longer moves.
fn normalized_mle(observed: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..10_000 {
        let mu: f64 = (0..5).map(|i| p[i] * SCORES[i]).sum();
        let sigma = (0..5)
            .map(|i| p[i] * (SCORES[i] - mu).powi(2))
            .sum::<f64>()
            .sqrt();
        let phi = SCORES.map(|a| {
            let z = (a - mu) / sigma;
            a - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        // Within [`MAX_NORMALIZED`] the weights keep both signs; should they not, the last
        // estimate stands.
        let Some(next) = tilted(observed, &phi) else {
            break;
        };
        let moved = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if moved < 1e-13 {
            break;
        }
    }
    p
}

/// Pairs of games counted by the first strategy's results in them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penta {
    /// Both games lost.
    pub ll: usize,
    /// One lost, one drawn.
    pub ld: usize,
    /// Both drawn.
    pub dd: usize,
    /// One won, one lost.
    pub wl: usize,
    /// One won, one drawn.
    pub wd: usize,
    /// Both won.
    pub ww: usize,
}

impl Penta {
    /// Counts a pair from the first strategy's two results (1 won, 1/2 drawn, 0 lost).
    pub fn add(&mut self, first: f64, second: f64) {
        let slot = match ((first + second) * 2.0).round() as u8 {
            0 => &mut self.ll,
            1 => &mut self.ld,
            2 if first == second => &mut self.dd,
            2 => &mut self.wl,
            3 => &mut self.wd,
            _ => &mut self.ww,
        };
        *slot += 1;
    }

    /// Pairs scoring 0, 1/2, 1, 3/2 and 2.
    pub fn counts(&self) -> [usize; 5] {
        [self.ll, self.ld, self.dd + self.wl, self.wd, self.ww]
    }

    /// Pairs counted.
    pub fn pairs(&self) -> usize {
        self.counts().iter().sum()
    }
}

/// Where a test stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    #[serde(flatten)]
    pub test: Sprt,
    /// The entry tested (the first), and its opponent.
    pub first: String,
    pub second: String,
    /// The bounds: H0 at or below `lower`, H1 at or above `upper`.
    pub lower: f64,
    pub upper: f64,
    pub llr: f64,
    pub penta: Penta,
    /// Games counted (twice the pairs): the run's games up to the decision.
    pub games: usize,
    /// The accepted hypothesis, or `None` while (or when the run stopped) undecided.
    pub verdict: Option<Hypothesis>,
}

impl SprtReport {
    /// Whether `first` is stronger, in words: "H1 accepted: a is stronger than b (elo1 5)".
    pub fn conclusion(&self) -> String {
        let Sprt { elo0, elo1, .. } = self.test;
        let (a, b) = (&self.first, &self.second);
        match self.verdict {
            Some(Hypothesis::H1) => {
                format!("H1 accepted: {a} is stronger than {b} (by elo1={elo1} or more)")
            }
            Some(Hypothesis::H0) => {
                format!("H0 accepted: {a} is not stronger than {b} (by more than elo0={elo0})")
            }
            None => "undecided".into(),
        }
    }

    /// `LLR 1.23 (-2.94, 2.94)`: the figure and its bounds.
    pub fn llr_line(&self) -> String {
        format!("LLR {:.2} ({:.2}, {:.2})", self.llr, self.lower, self.upper)
    }

    /// The pentanomial counts as fastchess prints them, `[LL, LD, DD+WL, WD, WW]`, then in words
    /// from the first strategy's side, best first: `pairs [0, 1, 3+2, 4, 5]: 5 won both, 4 won and
    /// drew, 2 won and lost, 3 drew both, 1 lost and drew, 0 lost both`.
    pub fn penta_line(&self) -> String {
        let p = &self.penta;
        format!(
            "pairs [{}, {}, {}+{}, {}, {}]: {} won both, {} won and drew, {} won and lost, {} drew \
             both, {} lost and drew, {} lost both",
            p.ll, p.ld, p.dd, p.wl, p.wd, p.ww, p.ww, p.wd, p.wl, p.dd, p.ld, p.ll
        )
    }
}

/// A test fed with games in number order: game 2k and 2k+1 are a pair, sides swapped.
#[derive(Clone, Debug)]
pub struct Sequential {
    test: Sprt,
    first: String,
    second: String,
    penta: Penta,
    /// The first game of a pair waiting for its second: the first strategy's score in it.
    half: Option<f64>,
    games: usize,
    llr: f64,
    verdict: Option<Hypothesis>,
}

impl Sequential {
    /// A test of the entry named `first` against `second`.
    pub fn new(test: Sprt, first: &str, second: &str) -> Sequential {
        Sequential {
            test,
            first: first.into(),
            second: second.into(),
            penta: Penta::default(),
            half: None,
            games: 0,
            llr: 0.0,
            verdict: None,
        }
    }

    /// The test's verdict over `games`, taken in order (the report of a finished run).
    pub fn of(test: Sprt, first: &str, second: &str, games: &[GameRecord]) -> SprtReport {
        let mut s = Sequential::new(test, first, second);
        for g in games {
            if s.push(g).is_some() {
                break;
            }
        }
        s.report()
    }

    /// Counts the next game (the next by number); the verdict once a pair's LLR crossed a bound.
    /// Games after a verdict are not counted.
    pub fn push(&mut self, game: &GameRecord) -> Option<Hypothesis> {
        if self.verdict.is_some() {
            return self.verdict;
        }
        let score = self.score(game);
        self.games += 1;
        match self.half.take() {
            None => self.half = Some(score),
            Some(first) => {
                self.penta.add(first, score);
                self.llr = self.test.llr(&self.penta);
                self.verdict = self.test.verdict(self.llr);
            }
        }
        self.verdict
    }

    /// The first strategy's score in `game`: 1 won, 1/2 drawn (no winner), 0 lost.
    fn score(&self, game: &GameRecord) -> f64 {
        let seat = game.players.iter().position(|p| *p == self.first);
        match (game.winner_seat, seat) {
            (None, _) => 0.5,
            (Some(w), Some(s)) if w == s => 1.0,
            _ => 0.0,
        }
    }

    pub fn verdict(&self) -> Option<Hypothesis> {
        self.verdict
    }

    /// Where the test stands, counting only complete pairs.
    pub fn report(&self) -> SprtReport {
        let (lower, upper) = self.test.bounds();
        SprtReport {
            test: self.test,
            first: self.first.clone(),
            second: self.second.clone(),
            lower,
            upper,
            llr: self.llr,
            penta: self.penta,
            games: 2 * self.penta.pairs(),
            verdict: self.verdict,
        }
    }
}

#[cfg(test)]
mod tests;

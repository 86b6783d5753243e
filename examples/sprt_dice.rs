//! How often the sequential test (`--sprt`) is right, and how many games it needs, measured on the
//! dice free variant (a two-player game with chance): many seeded runs of a bot against itself,
//! where H0 is true, and of a clearly stronger bot against a weaker one, where H1 is.
//!
//! ```sh
//! cargo run --release --example sprt_dice                        # 200 runs of each, elo0=0,elo1=50
//! cargo run --release --example sprt_dice -- 50 elo0=0,elo1=50,alpha=0.05,beta=0.05 2
//! ```
//!
//! Arguments: RUNS (200), the test (`elo0=0,elo1=50,alpha=0.05,beta=0.05`, normalized Elo) and the
//! threads per run (2). Run `r` of a pairing is `botbox match dice A B --die 1 --sprt TEST --seed S`
//! with `S = derive_seed(2026, r)` and at most 20,000 games: die 1 of the bundled
//! `examples/dice/wuerfel0.txt` (faces 1 to 6), games in pairs with the same rolls and the sides
//! swapped. The pairings: `random` against itself (the two entries are the same file), and
//! `expectimax` against `frontmost` (it wins about three games in four, docs/dice.md). A
//! deterministic bot against itself would prove nothing: the two games of a pair are then mirror
//! images (the same rolls, the same choices, the sides swapped), every pair is one win each, and
//! the test accepts H0 after the same number of pairs every time.
//!
//! For each it prints how often H0 and H1 were accepted, and the games to a decision (mean, median,
//! largest) beside the games a test of fixed size needs for the same error rates: with normalized
//! Elo, a pair's score has mean `1/2 + t sigma` where `t = sqrt(2) elo / (800 / ln 10)`, so a
//! one-sided z-test on the mean of `n` pairs separates `t0` from `t1` with errors alpha and beta
//! when `sqrt(n) (t1 - t0) = z(1 - alpha) + z(1 - beta)`, whatever the draw rate and spread:
//! `n = ((z(1 - alpha) + z(1 - beta)) / (t1 - t0))^2` pairs, twice that in games.
//! BENCHMARKS.md ("The sequential test on dice") records a run.

use std::path::{Path, PathBuf};
use std::time::Instant;

use botbox::games::contract::Variant;
use botbox::games::derive_seed;
use botbox::runtime::{Limits, Strategy};
use botbox::tournament::dice::free::{DiceFree, DieOf};
use botbox::tournament::runner::{self, Entry, Format, Plan, Run};
use botbox::tournament::sprt::{Hypothesis, Model, Sequential, Sprt, SprtReport};
use botbox::tournament::versus::Versus;

/// The most games of one run: far above what a decision takes.
const CAP: usize = 20_000;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ has a parent")
        .to_path_buf()
}

fn bot(name: &str) -> Strategy {
    let path = repo().join(format!("strategies/lua/dice/{name}.lua"));
    botbox::hosted::load(&path, &Limits::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One SPRT run of `a` against `b` on die 1, as `botbox match dice a b --die 1 --sprt` plays it.
fn sprt_run(test: Sprt, a: &Strategy, b: &Strategy, seed: u64, jobs: usize) -> SprtReport {
    let free = DiceFree::new(Variant::named("wuerfel0"), DieOf::Entries(vec![0, 0]), seed)
        .expect("the bundled dice");
    let rules = botbox::games::registry::find("dice").expect("dice is registered");
    let game = Versus::arranged(rules, std::sync::Arc::new(free)).expect("the dice game");
    let entries = [
        Entry {
            name: format!("D1:{}", a.name()),
            strategy: a.clone(),
        },
        Entry {
            name: format!("D1:{}-2", b.name()),
            strategy: b.clone(),
        },
    ];
    let run = Run {
        plan: Plan {
            format: Format::RoundRobin,
            games: CAP,
            seed,
            seats: 2,
            repeat: false,
        },
        shard: None,
        jobs,
        record: false,
    };
    let mut test_run = Sequential::new(test, &entries[0].name, &entries[1].name);
    let until = |g: &runner::GameRecord| test_run.push(g).is_some();
    let report = runner::run_until(&game, &entries[..], 2, run, |_, _, _| {}, until)
        .expect("a two-player plan of two entries");
    Sequential::of(test, &entries[0].name, &entries[1].name, &report.games)
}

/// The standard normal distribution function, from the complementary error function (Numerical
/// Recipes' `erfcc`, good to 1.2e-7).
fn phi(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// The `p` quantile of the standard normal distribution, by bisection.
fn quantile(p: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0, 10.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if phi(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The games of a fixed-size test with the same hypotheses and error rates (see the module's notes).
fn fixed_size_games(test: &Sprt) -> f64 {
    let t = |elo: f64| std::f64::consts::SQRT_2 * elo / (800.0 / std::f64::consts::LN_10);
    let z = quantile(1.0 - test.alpha) + quantile(1.0 - test.beta);
    2.0 * (z / (t(test.elo1) - t(test.elo0))).powi(2)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args
        .next()
        .map_or(200, |n| n.parse().expect("RUNS is a number"));
    let test: Sprt = args
        .next()
        .unwrap_or_else(|| "elo0=0,elo1=50,alpha=0.05,beta=0.05".into())
        .parse()
        .unwrap_or_else(|e| panic!("the test: {e}"));
    let jobs: usize = args
        .next()
        .map_or(2, |n| n.parse().expect("JOBS is a number"));
    assert_eq!(
        test.model,
        Model::Normalized,
        "the fixed-size comparison is for normalized Elo"
    );
    let (lower, upper) = test.bounds();
    println!(
        "SPRT {test}: bounds ({lower:.3}, {upper:.3}); {runs} runs per pairing, {jobs} threads, at most {CAP} games each"
    );
    let fixed = fixed_size_games(&test);
    println!(
        "a fixed-size test at the same error rates needs {fixed:.0} games ({:.0} pairs)\n",
        fixed / 2.0
    );
    let random = bot("random");
    let frontmost = bot("frontmost");
    let expectimax = bot("expectimax");
    for (label, a, b, right) in [
        (
            "random vs itself (H0 true)",
            &random,
            &random,
            Hypothesis::H0,
        ),
        (
            "expectimax vs frontmost (H1 true)",
            &expectimax,
            &frontmost,
            Hypothesis::H1,
        ),
    ] {
        let started = Instant::now();
        let reports: Vec<SprtReport> = (0..runs)
            .map(|r| sprt_run(test, a, b, derive_seed(2026, r), jobs))
            .collect();
        let count = |h: Option<Hypothesis>| reports.iter().filter(|r| r.verdict == h).count();
        let mut games: Vec<usize> = reports.iter().map(|r| r.games).collect();
        games.sort();
        let mean = games.iter().sum::<usize>() as f64 / games.len() as f64;
        let right_share = 100.0 * count(Some(right)) as f64 / runs as f64;
        println!("{label}:");
        println!(
            "  H0 accepted {} ({:.1}%), H1 accepted {} ({:.1}%), undecided {}: right {right_share:.1}%",
            count(Some(Hypothesis::H0)),
            100.0 * count(Some(Hypothesis::H0)) as f64 / runs as f64,
            count(Some(Hypothesis::H1)),
            100.0 * count(Some(Hypothesis::H1)) as f64 / runs as f64,
            count(None),
        );
        println!(
            "  games to a decision: mean {mean:.1}, median {}, largest {} (fixed size: {fixed:.0}); {:.0} s",
            games[games.len() / 2],
            games[games.len() - 1],
            started.elapsed().as_secs_f64()
        );
    }
}

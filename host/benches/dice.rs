//! How fast the strict engine plays: whole seeded games of Mensch ärgere Dich nicht on one thread,
//! counted in games per second.
//!
//! Two loads: two ordinary six-sided dice, and every pair of the competition's `wuerfel0.txt` set
//! (whose d4 and d20 make slower and faster games). Each iteration plays the same seeded games, each
//! pair once with either die starting. Run with `cargo bench --bench dice`.

use botbox::games::dice::{Die, file, play_strict};
use botbox::games::{derive_seed, rng};
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

/// Games per pair of dice and iteration: half with each die starting.
const GAMES: u64 = 2_000;

/// Plays `GAMES` strict games for every pair of `dice`; returns the turns, so nothing is optimised away.
fn play_pairs(dice: &[Die]) -> u64 {
    let mut turns = 0;
    for (i, a) in dice.iter().enumerate() {
        for b in &dice[i + 1..] {
            for game in 0..GAMES {
                let mut r = rng(derive_seed(i as u64, game / 2));
                turns += u64::from(play_strict(a, b, game % 2 == 0, &mut r).turns);
            }
        }
    }
    turns
}

fn bench_pairs(bencher: Bencher, dice: Vec<Die>) {
    let pairs = (dice.len() * (dice.len() - 1) / 2) as u64;
    bencher
        .counter(ItemsCount::new(pairs * GAMES))
        .bench(|| play_pairs(divan::black_box(&dice)));
}

#[divan::bench]
fn strict_two_standard_dice(bencher: Bencher) {
    bench_pairs(bencher, vec![Die::standard(), Die::standard()]);
}

#[divan::bench]
fn strict_wuerfel0_all_pairs(bencher: Bencher) {
    let text = include_str!("../../examples/dice/wuerfel0.txt");
    bench_pairs(bencher, file::parse(text).expect("the example parses"));
}

//! How fast the Wormworld engine plays: seeded random games to their end on the largest example map
//! (`examples/worms/big.txt`, 30x30 with twenty worms each, a 2000-turn limit), counted in games
//! per second, and the same games counted in turns per second.
//!
//! Game `i` is played with a random player seeded `derive_seed(BENCH_SEED, i)`, so every iteration
//! plays the same games. Run with `cargo bench --bench worms`.

use botbox::games::worms::{Game, Map, MoveList};
use botbox::games::{derive_seed, rng};
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

/// Games per iteration: enough for a stable rate, few enough for a quick bench.
const GAMES: u64 = 32;
const BENCH_SEED: u64 = 2026;

fn big() -> Map {
    Map::parse(include_str!("../../examples/worms/big.txt")).expect("big.txt is a valid map")
}

/// Plays games `0..GAMES` on `start` to their end and returns the turns played.
fn play(start: &Game) -> u64 {
    let mut moves = MoveList::new();
    (0..GAMES)
        .map(|i| {
            let mut game = start.clone();
            let mut player = rng(derive_seed(BENCH_SEED, i));
            while game.step_random(&mut player, &mut moves).is_some() {}
            u64::from(game.turn())
        })
        .sum()
}

#[divan::bench]
fn random_games_on_big(bencher: Bencher) {
    let start = Game::new(&big());
    bencher
        .counter(ItemsCount::new(GAMES))
        .bench(|| play(divan::black_box(&start)));
}

#[divan::bench]
fn random_turns_on_big(bencher: Bencher) {
    let start = Game::new(&big());
    let turns = play(&start);
    bencher
        .counter(ItemsCount::new(turns))
        .bench(|| play(divan::black_box(&start)));
}

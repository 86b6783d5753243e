//! How fast the 2048 engine plays: seeded random games to the end, on the fast 4x4 board and on the
//! general board at the same size, counted in moves per second.
//!
//! Both benches play the same games (seeds `0..GAMES`, each game's player seeded as seat 0), so the
//! two rates compare the boards and nothing else. Run with `cargo bench --bench engine_2048`.

use botbox::games::g2048::{Board, Board4, Game, Grid};
use botbox::games::{derive_seed, rng};
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

/// Games per iteration: enough for a stable rate, few enough for a quick bench.
const GAMES: u64 = 64;

/// Plays the games `0..GAMES` to their end on boards made by `empty` and returns the moves made.
fn play(empty: fn() -> Board) -> u64 {
    (0..GAMES)
        .map(|seed| {
            let mut game = Game::start(empty(), seed);
            let playout = game.play_random(&mut rng(derive_seed(seed, 1000)));
            u64::from(playout.moves)
        })
        .sum()
}

fn fast() -> Board {
    Board::Fast(Board4::EMPTY)
}

fn general() -> Board {
    Board::General(Grid::new(4).expect("4 is a supported size"))
}

/// Benches `play(empty)`, counting its moves: the games are seeded, so every iteration makes the
/// same number of moves, and one untimed run tells how many.
fn bench_random_play(bencher: Bencher, empty: fn() -> Board) {
    let moves = play(empty);
    bencher
        .counter(ItemsCount::new(moves))
        .bench(|| play(divan::black_box(empty)));
}

#[divan::bench]
fn random_play_fast(bencher: Bencher) {
    bench_random_play(bencher, fast);
}

#[divan::bench]
fn random_play_general(bencher: Bencher) {
    bench_random_play(bencher, general);
}

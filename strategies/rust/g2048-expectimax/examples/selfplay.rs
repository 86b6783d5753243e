//! Plays whole games on the local simulation and reports the result and the time per move.
//!
//! ```text
//! cargo run --release -p g2048-expectimax --example selfplay -- 3 100
//! ```
//! The arguments are the number of games (default 3) and the first seed (default 1).

#[path = "../tests/support/game.rs"]
mod game;

use std::time::{Duration, Instant};

use botbox_sdk::{Setup, Strategy};
use g2048_expectimax::Expectimax;

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u64>().expect("a number"));
    let games = args.next().unwrap_or(3);
    let first_seed = args.next().unwrap_or(1);
    let mut slowest = Duration::ZERO;
    let (mut total, mut moves) = (Duration::ZERO, 0u64);
    for seed in first_seed..first_seed + games {
        let mut game = game::Game::new(seed);
        let mut strategy = Expectimax::new(&Setup::new("2048", seed, 0));
        let mut times = Vec::new();
        loop {
            let obs = game.observation();
            if obs.legal.is_empty() {
                break;
            }
            let start = Instant::now();
            let dir = strategy.choose_move(obs);
            times.push(start.elapsed());
            assert!(game.play(dir), "illegal move {dir:?}");
        }
        times.sort();
        let sum: Duration = times.iter().sum();
        let pct = |p: usize| times[(times.len() - 1) * p / 100];
        println!(
            "seed {seed}: max tile {:6}, score {:7}, {:5} moves; per move mean {:?}, p50 {:?}, p99 {:?}, max {:?}",
            game.max_tile(),
            game.score,
            game.moves,
            sum / game.moves.max(1),
            pct(50),
            pct(99),
            pct(100)
        );
        slowest = slowest.max(pct(100));
        total += sum;
        moves += u64::from(game.moves);
    }
    println!(
        "all games: {moves} moves, mean {:?} per move, slowest {slowest:?}",
        total / moves.max(1) as u32
    );
}

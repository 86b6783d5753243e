//! How strong the search is: natively, with the default budget, against the example Lua bots played
//! through the host's Luau runtime, on every named variant with the seats alternating.
//!
//! ```sh
//! cargo run --release -p connect4-alphabeta --example strength [GAMES]
//! ```
//!
//! `GAMES` (default 40) games on each variant of the search against `center.lua` and of `center.lua`
//! against `random.lua`, half as many of the search against `random.lua`. Prints the wins, draws and
//! losses and the time a move takes, then the opening move with the search's statistics.
//!
//! The command line measures the WASM build the same way, with Elo and a JSON report:
//! `botbox match connect4 strategies/rust/connect4-alphabeta strategies/lua/connect4/center.lua --games 200 --openings 4 --jobs 2`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use botbox::games::connect4::Game;
use botbox_sdk::Strategy;
use common::{Side, lua, tally, variants};
use connect4_alphabeta::{AlphaBeta, DEFAULT_NODES, best_move};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .map(|n| n.parse().expect("GAMES is a number"))
        .unwrap_or(40);
    let (center, random) = (lua("center"), lua("random"));
    let n = variants().len();
    let ([w, d, l], per_move) = tally(Side::Search, Side::Lua(&center), games, 3);
    println!(
        "search against center.lua, {games} games on each of {n} variants: {w}W {d}D {l}L, {per_move:?} a move"
    );
    let ([w, d, l], _) = tally(Side::Search, Side::Lua(&random), games / 2, 4);
    println!(
        "search against random.lua, {} games on each: {w}W {d}D {l}L",
        games / 2
    );
    let ([w, d, l], per_move) = tally(Side::Lua(&center), Side::Lua(&random), games, 5);
    println!(
        "center.lua against random.lua, {games} games on each: {w}W {d}D {l}L, {per_move:?} a move"
    );
    let start = Instant::now();
    let mut bot = AlphaBeta::with_budget(DEFAULT_NODES, 64);
    let obs = Game::standard().observation(0);
    let answer = bot.choose_move(obs.clone());
    println!(
        "the opening move: {answer:?} in {:?}, {:?}; best_move agrees: {}",
        start.elapsed(),
        bot.stats(),
        best_move(obs, DEFAULT_NODES) == answer
    );
}

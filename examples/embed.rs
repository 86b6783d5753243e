//! Embedding botbox in your own program: load a strategy under limits, play a game of 2048 with it,
//! and look at what happened. Run it with `cargo run --example embed` from the repository root.

use std::time::Duration;

use botbox::games::g2048::{Direction, Game};
use botbox::runtime::{FaultKind, Limits, Setup};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Limits apply to every call into the strategy. The deterministic ones (Lua ticks, WASM fuel,
    // memory) decide the outcome; the wall clock is only a backstop.
    let limits = Limits {
        lua_budget: 5_000_000,
        wall: Duration::from_secs(1),
        ..Limits::default()
    };

    // Loading checks the file (Lua syntax here; for WASM: compilation and imports), with every
    // game's additions to its environment (`hosted`: 2048's `g2048` module). A `Strategy` is cheap
    // to clone and can be shared by many threads.
    let strategy = botbox::hosted::load("strategies/lua/g2048/greedy.lua".as_ref(), &limits)?;
    println!(
        "loaded {} ({}), sha256 {}",
        strategy.name(),
        strategy.kind(),
        &strategy.hash()[..12]
    );

    // The engine is pure and seeded: the same seed gives the same tiles.
    let mut game = Game::new(4, 2048)?;

    // Each game gets a fresh instance: a new Lua state (or WASM store) with the strategy's own seed.
    let mut bot = strategy.instantiate(&Setup::new("2048", 1, 0))?;

    // The host owns the rules: it hands the strategy an observation, gets a direction back, and checks
    // that the move is legal before applying it.
    while !game.is_over() && game.moves() < 300 {
        let dir: Direction = match bot.call("choose_move", &game.observation()) {
            Ok(dir) => dir,
            // A fault is data, not a crash: here we would record it and end the game.
            Err(fault) if fault.kind == FaultKind::Budget => {
                return Err(format!("too slow: {fault}").into());
            }
            Err(fault) => return Err(fault.into()),
        };
        game.step(dir)?;
    }
    println!(
        "after {} moves: final score {}, largest tile {}",
        game.moves(),
        game.score(),
        game.max_tile()
    );
    for row in game.board_values() {
        println!("  {row:?}");
    }
    Ok(())
}

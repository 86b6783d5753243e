//! Self-play on a local simulation: the strategy must reach 2048 in every one of a few seeded games.
//! Nothing here is timed; the time per move is printed (run with `--nocapture` to see it).

mod support {
    pub mod game;
}

use std::time::Instant;

use botbox_sdk::{Setup, Strategy};
use g2048_expectimax::Expectimax;
use support::game::Game;

/// Plays until the game is won (a 2048) or lost; every answer must be legal.
fn play_to_2048(seed: u64) -> Game {
    let mut game = Game::new(seed);
    let mut strategy = Expectimax::new(&Setup::new("2048", seed, 0));
    let start = Instant::now();
    while game.max_tile() < 2048 {
        let obs = game.observation();
        if obs.legal.is_empty() {
            break;
        }
        let dir = strategy.choose_move(obs.clone());
        assert!(
            obs.legal.contains(&dir),
            "seed {seed}: {dir:?} is not legal in {obs:?}"
        );
        assert!(game.play(dir));
    }
    let per_move = start.elapsed() / game.moves.max(1);
    eprintln!(
        "seed {seed}: max tile {} after {} moves, score {}, {per_move:?} per move",
        game.max_tile(),
        game.moves,
        game.score
    );
    game
}

#[test]
fn reaches_2048_in_seeded_games() {
    for seed in [1, 2, 3] {
        let game = play_to_2048(seed);
        assert!(
            game.max_tile() >= 2048,
            "seed {seed} lost with max tile {}: {:?}",
            game.max_tile(),
            game.cells
        );
    }
}

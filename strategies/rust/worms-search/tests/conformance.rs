//! The strategy's simulator against the host's engine: seeded random games on every example map,
//! where after every turn the simulator, rebuilt from the host's observation, must list the same
//! legal moves, make each move into the position the host reaches, and judge the end as the host
//! does. Every answer of the search must be legal.

use botbox::games::worms::{Game, Map, Verdict};
use botbox::games::{derive_seed, rng};
use botbox_sdk::worms::Observation;
use rand::RngExt;
use worms_search::{Mv, Position, best_move};

const MAPS: [&str; 6] = ["tutorial", "arena", "maze", "gates", "pinwheel", "big"];

fn map(name: &str) -> Map {
    let path = format!(
        "{}/../../../examples/worms/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Map::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn position(obs: &Observation) -> Position {
    Position::from_observation(obs).expect("an example map fits the simulator")
}

/// The simulator's legal moves of the player to move, as the host's moves.
fn legal(pos: &Position) -> Vec<botbox_sdk::worms::Move> {
    let mut moves = Vec::new();
    pos.legal_into(pos.to_move, &mut moves);
    moves.into_iter().map(Mv::to_move).collect()
}

/// Plays one random game, checking the simulator after every turn.
fn check_game(name: &str, seed: u64) {
    let mut game = Game::new(&map(name));
    let mut random = rng(seed);
    while !game.is_over() {
        let seat = game.to_move();
        let obs = game.observation(seat);
        let mut pos = position(&obs);
        assert_eq!(
            legal(&pos),
            obs.legal,
            "{name} seed {seed} turn {}",
            obs.turn
        );
        assert_eq!(
            pos.end(!obs.legal.is_empty()),
            None,
            "{name}: the game goes on"
        );
        if obs.legal.is_empty() {
            game.pass().unwrap();
            pos.pass();
        } else {
            let mv = obs.legal[random.random_range(0..obs.legal.len())];
            game.apply(mv).unwrap();
            pos.play(Mv::from_move(mv));
        }
        let next = game.observation(game.to_move());
        let host = position(&next);
        assert_eq!(
            pos.cells, host.cells,
            "{name} seed {seed} turn {}",
            obs.turn
        );
        assert_eq!(
            (pos.left, pos.to_move, pos.hash),
            (host.left, host.to_move, host.hash)
        );
        if let Some(outcome) = game.outcome() {
            let me = game.to_move();
            let expected = match outcome.result {
                Verdict::Draw => worms_search::End::Draw,
                Verdict::Win(seat) if seat == me => worms_search::End::Won,
                Verdict::Win(_) => worms_search::End::Lost,
            };
            let can_move = !next.legal.is_empty() || game.board().can_move(me);
            assert_eq!(pos.end(can_move), Some(expected), "{name} seed {seed}");
        }
    }
}

#[test]
fn the_simulator_follows_the_host_on_random_games() {
    for (i, name) in MAPS.iter().enumerate() {
        for game in 0..3 {
            check_game(name, derive_seed(7, (10 * i + game) as u64));
        }
    }
}

#[test]
fn the_search_answers_a_legal_move_on_every_map() {
    for name in MAPS {
        let mut game = Game::new(&map(name));
        let mut random = rng(3);
        for _ in 0..40 {
            if game.is_over() {
                break;
            }
            let obs = game.observation(game.to_move());
            if obs.legal.is_empty() {
                game.pass().unwrap();
                continue;
            }
            let mv = if game.to_move() == 0 {
                best_move(obs.clone(), 300)
            } else {
                obs.legal[random.random_range(0..obs.legal.len())]
            };
            assert!(obs.legal.contains(&mv), "{name}: {mv:?} is not legal");
            game.apply(mv).unwrap();
        }
    }
}

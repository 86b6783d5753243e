//! The strategy's bitboard against the host's engine, and the strategy against the example Lua
//! bots: seeded random games on every named variant where, after every move, the position read from
//! the host's observation must list the same open columns, see the same lines and find exactly the
//! columns that win at once; every answer of the search must be legal; and the search must beat
//! `random.lua` and `center.lua` (played through the host's Luau runtime), and `center.lua` beat
//! `random.lua`.
//!
//! The measurements are examples: `cargo run --release -p connect4-alphabeta --example strength`
//! plays it against `center.lua` over more games and prints the time a move takes, `--example fuel`
//! the WASM fuel a move costs.

mod common;

use botbox::games::connect4::Game;
use botbox::games::{derive_seed, rng};
use botbox_sdk::Strategy;
use common::{Side, lua, tally, variants};
use connect4_alphabeta::{AlphaBeta, Position};

#[test]
fn the_bitboard_agrees_with_the_host() {
    for config in variants() {
        for i in 0..40 {
            let mut game = Game::new(config).unwrap();
            let mut random = rng(derive_seed(11, i));
            while !game.is_over() {
                let obs = game.observation(game.to_move());
                let (shape, pos) = Position::from_observation(&obs).unwrap();
                assert_eq!(pos.moves, game.moves());
                assert_eq!(pos.mask.count_ones(), game.moves());
                let playable = pos.playable(&shape);
                let open: Vec<u32> = (0..config.columns)
                    .filter(|&c| playable & shape.column(c) != 0)
                    .collect();
                assert_eq!(open, obs.legal, "{config}");
                assert!(!shape.has_line(pos.current) && !shape.has_line(pos.opponent()));
                let wins = pos.my_threats(&shape) & playable;
                for &col in &obs.legal {
                    let mut after = game.clone();
                    after.play(col).unwrap();
                    let won = after.winner() == Some(game.to_move());
                    assert_eq!(
                        wins & shape.column(col) != 0,
                        won,
                        "{config}, moves {:?}, column {col}",
                        game.history()
                    );
                    let next = pos.play(playable & shape.column(col));
                    assert_eq!(shape.has_line(next.opponent()), won);
                }
                game.step_random(&mut random);
            }
        }
    }
}

#[test]
fn every_answer_is_legal_on_every_variant() {
    for config in variants() {
        for i in 0..6 {
            let mut game = Game::new(config).unwrap();
            let mut random = rng(derive_seed(12, i));
            let bot_seat = (i % 2) as usize;
            let mut bot = AlphaBeta::with_budget(3_000, 64);
            while !game.is_over() {
                if game.to_move() == bot_seat {
                    let obs = game.observation(bot_seat);
                    let answer = bot.choose_move(obs.clone());
                    assert!(obs.legal.contains(&answer.column), "{config}: {answer:?}");
                    game.play(answer.column).unwrap();
                } else {
                    game.step_random(&mut random);
                }
            }
            assert_ne!(
                game.winner(),
                Some(1 - bot_seat),
                "{config}: lost to random"
            );
        }
    }
}

#[test]
fn it_beats_random_lua() {
    let random = lua("random");
    let ([wins, draws, losses], _) = tally(Side::Search, Side::Lua(&random), 4, 1);
    assert!(losses == 0 && wins >= 18, "{wins}W {draws}D {losses}L");
}

#[test]
fn it_beats_center_lua() {
    let center = lua("center");
    let ([wins, draws, losses], _) = tally(Side::Search, Side::Lua(&center), 4, 2);
    assert!(wins >= 3 * (draws + losses), "{wins}W {draws}D {losses}L");
}

#[test]
fn center_lua_beats_random_lua() {
    let (center, random) = (lua("center"), lua("random"));
    let ([wins, draws, losses], _) = tally(Side::Lua(&center), Side::Lua(&random), 4, 3);
    assert!(wins >= 17, "{wins}W {draws}D {losses}L");
}

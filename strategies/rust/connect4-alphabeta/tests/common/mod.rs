//! What the conformance test and the `strength` example share: the named variants, the example Lua
//! bots loaded through the host's runtime, and games between them and the search.

use std::time::{Duration, Instant};

use botbox::games::connect4::{Config, Game, RULES};
use botbox::games::contract::Rules;
use botbox::games::{derive_seed, seat_seed};
use botbox::runtime::{Instance, Limits, Setup, Strategy as Loaded};
use botbox_sdk::Strategy;
use botbox_sdk::connect4::{Move, Observation};
use connect4_alphabeta::{AlphaBeta, DEFAULT_NODES};

/// The host's named variants of Connect Four.
pub fn variants() -> Vec<Config> {
    RULES
        .variants()
        .iter()
        .map(|v| RULES.config(&v.name).unwrap())
        .collect()
}

/// `strategies/lua/connect4/NAME.lua`, loaded with the default limits.
pub fn lua(name: &str) -> Loaded {
    let path = format!(
        "{}/../../lua/connect4/{name}.lua",
        env!("CARGO_MANIFEST_DIR")
    );
    botbox::hosted::load(std::path::Path::new(&path), &Limits::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Who plays a seat: the search natively, or a Lua strategy through the host's runtime.
#[derive(Clone, Copy)]
pub enum Side<'a> {
    Search,
    Lua(&'a Loaded),
}

/// A player in one game.
enum Player {
    Search(AlphaBeta),
    Lua(Box<Instance>),
}

impl Player {
    fn new(side: Side, seat: u32, game_seed: u64) -> Player {
        match side {
            Side::Search => Player::Search(AlphaBeta::with_budget(DEFAULT_NODES, 64)),
            Side::Lua(strategy) => {
                let setup = Setup::new("connect4", seat_seed(game_seed, seat), seat);
                Player::Lua(Box::new(
                    strategy.instantiate(&setup).expect("the Lua bot starts"),
                ))
            }
        }
    }

    fn choose(&mut self, obs: &Observation) -> u32 {
        match self {
            Player::Search(bot) => bot.choose_move(obs.clone()).column,
            Player::Lua(instance) => {
                instance
                    .call::<Observation, Move>("choose_move", obs)
                    .unwrap_or_else(|fault| panic!("move {}: {fault}", obs.moves))
                    .column
            }
        }
    }
}

/// Plays one game of `config`, `sides[0]` moving first; returns the winner and each seat's
/// thinking time and moves.
fn duel(config: Config, sides: [Side; 2], seed: u64) -> (Option<usize>, [(Duration, u32); 2]) {
    let mut players = [0, 1].map(|seat| Player::new(sides[seat as usize], seat, seed));
    let mut game = Game::new(config).unwrap();
    let mut thinking = [(Duration::ZERO, 0); 2];
    while !game.is_over() {
        let seat = game.to_move();
        let obs = game.observation(seat);
        let start = Instant::now();
        let col = players[seat].choose(&obs);
        thinking[seat].0 += start.elapsed();
        thinking[seat].1 += 1;
        assert!(obs.legal.contains(&col), "seat {seat} answered {col}");
        game.play(col).unwrap();
    }
    (game.winner(), thinking)
}

/// `a`'s wins, draws and losses against `b` in `games` games per variant, seats alternating; and
/// `a`'s time per move.
pub fn tally(a: Side, b: Side, games: u64, seed: u64) -> ([usize; 3], Duration) {
    let (mut counts, mut time, mut moves) = ([0; 3], Duration::ZERO, 0);
    for (v, config) in variants().into_iter().enumerate() {
        for i in 0..games {
            let game_seed = derive_seed(seed, v as u64 * 1000 + i);
            let a_seat = (i % 2) as usize;
            let sides = if a_seat == 0 { [a, b] } else { [b, a] };
            let (winner, thinking) = duel(config, sides, game_seed);
            counts[match winner {
                Some(s) if s == a_seat => 0,
                None => 1,
                Some(_) => 2,
            }] += 1;
            time += thinking[a_seat].0;
            moves += thinking[a_seat].1;
        }
    }
    (counts, time / moves.max(1))
}

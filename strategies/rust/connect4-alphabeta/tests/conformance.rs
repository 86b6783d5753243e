//! The strategy's bitboard against the host's engine, and the strategy against the example Lua
//! bots: seeded random games on every named variant where, after every move, the position read from
//! the host's observation must list the same open columns, see the same lines and find exactly the
//! columns that win at once; every answer of the search must be legal; and the search must beat
//! `random.lua` and `center.lua` (played through the host's Luau runtime), and `center.lua` beat
//! `random.lua`.
//!
//! `cargo test --release -p connect4-alphabeta -- --ignored --nocapture` measures it against
//! `center.lua` over more games and prints the time a move takes.

use std::time::{Duration, Instant};

use botbox::games::connect4::{Config, Game, RULES};
use botbox::games::contract::Rules;
use botbox::games::{derive_seed, rng, seat_seed};
use botbox::runtime::{Instance, Limits, Setup, Strategy as Loaded};
use botbox_sdk::Strategy;
use botbox_sdk::connect4::{Move, Observation};
use connect4_alphabeta::{AlphaBeta, DEFAULT_NODES, Position, best_move};

fn variants() -> Vec<Config> {
    RULES
        .variants()
        .iter()
        .map(|v| RULES.config(&v.name).unwrap())
        .collect()
}

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

fn lua(name: &str) -> Loaded {
    let path = format!(
        "{}/../../lua/connect4/{name}.lua",
        env!("CARGO_MANIFEST_DIR")
    );
    Loaded::load(std::path::Path::new(&path), &Limits::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Who plays a seat: the search natively, or a Lua strategy through the host's runtime.
#[derive(Clone, Copy)]
enum Side<'a> {
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
fn tally(a: Side, b: Side, games: u64, seed: u64) -> ([usize; 3], Duration) {
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

#[test]
#[ignore]
fn measure_against_center() {
    let (center, random) = (lua("center"), lua("random"));
    let n = variants().len();
    let ([w, d, l], per_move) = tally(Side::Search, Side::Lua(&center), 40, 3);
    println!(
        "search against center.lua, 40 games on each of {n} variants: {w}W {d}D {l}L, {per_move:?} a move"
    );
    let ([w, d, l], _) = tally(Side::Search, Side::Lua(&random), 20, 4);
    println!("search against random.lua, 20 games on each: {w}W {d}D {l}L");
    let ([w, d, l], per_move) = tally(Side::Lua(&center), Side::Lua(&random), 40, 5);
    println!(
        "center.lua against random.lua, 40 games on each: {w}W {d}D {l}L, {per_move:?} a move"
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

/// The fuel a decision of the WASM build costs with the default budget, found by bisection, on the
/// opening and a middle game position.
#[test]
#[ignore]
fn wasm_fuel_per_move() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let dir = botbox::runtime::build_wasm_packages(
        &repo,
        &["connect4-alphabeta"],
        &repo.join("target/guests"),
    )
    .expect("the module builds");
    let wasm = dir.join("connect4_alphabeta.wasm");
    let mut middle = Game::standard();
    for col in [2, 3, 5, 5, 3, 2, 3, 3, 5, 1] {
        middle.play(col).unwrap();
    }
    for (name, obs) in [
        ("opening", Game::standard().observation(0)),
        ("middle game", middle.observation(0)),
    ] {
        let run = |fuel: u64| {
            let limits = Limits {
                fuel,
                ..Limits::default()
            };
            let strategy = Loaded::load(&wasm, &limits).expect("the module loads");
            // Setting up costs fuel too (the transposition table); too little fails either.
            strategy
                .instantiate(&Setup::new("connect4", 1, 0))
                .is_ok_and(|mut instance| {
                    instance
                        .call::<Observation, Move>("choose_move", &obs)
                        .is_ok()
                })
        };
        // Bisection to within 1%: `low` runs out, `high` is enough.
        let (mut low, mut high) = (0u64, Limits::default().fuel);
        assert!(run(high), "{name}: over the default fuel");
        while high - low > high / 100 {
            let middle = (low + high) / 2;
            if run(middle) {
                high = middle;
            } else {
                low = middle;
            }
        }
        println!("{name}: about {high} fuel");
    }
}

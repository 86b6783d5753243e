//! The example Wormworld strategies, played through the real host: the Lua bots in
//! `strategies/lua/worms/` and the WASM build of `strategies/rust/worms-search` answer a legal move
//! on every example map and their games end. The measurements are examples: the search's strength
//! against greedy over 200 games (the acceptance measurement: the lower end of its 95% interval must
//! be above 50%) with `cargo run --release --example worms_strength -- [GAMES] [BOT] [OPPONENT]`,
//! and the fuel a move of the search costs with `cargo run --release --example worms_search_fuel`.

use crate::util;

use std::path::PathBuf;
use std::sync::OnceLock;

use botbox::games::worms::{Game, Map, Move, Observation, Verdict};
use botbox::games::{derive_seed, seat_seed};
use botbox::runtime::{Instance, Limits, Params, Setup, Strategy};
use util::{at, repo, test_limits};

/// The example maps.
const MAPS: [&str; 6] = ["tutorial", "arena", "maze", "gates", "pinwheel", "big"];

fn map(name: &str) -> Map {
    let path = at(&format!("examples/worms/{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Map::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn lua(name: &str, limits: &Limits) -> Strategy {
    let path = at(&format!("strategies/lua/worms/{name}.lua"));
    botbox::hosted::load(&path, limits).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The search's WASM module, built once per test run beside the other guests.
fn search_wasm() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let target = repo().join("target/guests");
            let dir = botbox::runtime::build_wasm_packages(&repo(), &["worms-search"], &target)
                .unwrap_or_else(|e| panic!("building worms-search: {e}"));
            dir.join("worms_search.wasm")
        })
        .clone()
}

/// The search with a budget of `nodes` positions per move.
fn search(nodes: u64, limits: &Limits) -> Strategy {
    let strategy = botbox::hosted::load(&search_wasm(), limits).expect("worms_search.wasm loads");
    let mut params = Params::new();
    params.insert("nodes".into(), nodes.into());
    strategy.with_params(params)
}

/// A strategy's answer to an observation; a fault fails the test.
fn ask(instance: &mut Instance, obs: &Observation) -> Move {
    instance
        .call::<Observation, Move>("choose_move", obs)
        .unwrap_or_else(|fault| panic!("turn {}: {fault}", obs.turn))
}

/// How one game went.
#[derive(Debug, Clone, Copy)]
struct Record {
    result: Verdict,
    turns: u32,
}

/// Plays `players` (seat 0 first) on `map` to the end, seeded with `seed`. Every answer must be
/// one of the legal moves; a player without one passes.
fn play(map: &Map, players: [&Strategy; 2], seed: u64) -> Record {
    let mut instances = [0, 1].map(|seat| {
        let setup = Setup::new("worms", seat_seed(seed, seat), seat);
        players[seat as usize]
            .instantiate(&setup)
            .unwrap_or_else(|fault| panic!("{} set-up: {fault}", players[seat as usize].name()))
    });
    let mut game = Game::new(map);
    while !game.is_over() {
        let seat = game.to_move();
        let obs = game.observation(seat);
        if obs.legal.is_empty() {
            game.pass().expect("a player without moves may pass");
            continue;
        }
        let answer = ask(&mut instances[seat], &obs);
        assert!(
            obs.legal.contains(&answer),
            "{} answered {answer:?}, not one of {:?}",
            players[seat].name(),
            obs.legal
        );
        game.apply(answer).expect("a legal move applies");
    }
    assert!(
        game.turn() <= game.turn_limit(),
        "the game ends by its turn limit"
    );
    let outcome = game.outcome().expect("a finished game has an outcome");
    Record {
        result: outcome.result,
        turns: game.turn(),
    }
}

/// Plays `a` against `b` on every map, once in each seat; returns `a`'s wins, draws and losses.
fn round(a: &Strategy, b: &Strategy, seed: u64) -> [usize; 3] {
    let mut tally = [0; 3];
    for (i, name) in MAPS.iter().enumerate() {
        let map = map(name);
        for a_seat in 0..2 {
            let players = if a_seat == 0 { [a, b] } else { [b, a] };
            let record = play(&map, players, derive_seed(seed, (2 * i + a_seat) as u64));
            tally[outcome_index(record.result, a_seat)] += 1;
        }
    }
    tally
}

/// 0 for a win of `seat`, 1 for a draw, 2 for a loss.
fn outcome_index(result: Verdict, seat: usize) -> usize {
    match result {
        Verdict::Win(winner) if winner == seat => 0,
        Verdict::Draw => 1,
        Verdict::Win(_) => 2,
    }
}

#[test]
fn greedy_beats_random_on_every_map() {
    let limits = test_limits();
    let [wins, draws, losses] = round(&lua("greedy", &limits), &lua("random", &limits), 1);
    assert!(
        wins >= 10 && losses == 0,
        "greedy against random: {wins}W {draws}D {losses}L"
    );
}

#[test]
fn random_and_greedy_play_themselves_on_every_map() {
    let limits = test_limits();
    for name in ["random", "greedy"] {
        let bot = lua(name, &limits);
        let [wins, draws, losses] = round(&bot, &bot, 2);
        assert_eq!(wins + draws + losses, 12, "{name}");
    }
}

#[test]
fn greedy_games_replay_with_their_seed() {
    let limits = test_limits();
    let greedy = lua("greedy", &limits);
    let random = lua("random", &limits);
    let arena = map("arena");
    let turns = |seed| play(&arena, [&greedy, &random], seed).turns;
    assert_eq!(turns(5), turns(5));
}

#[test]
fn the_search_plays_greedy_and_random_on_every_map() {
    let limits = test_limits();
    let search = search(300, &limits);
    for opponent in ["greedy", "random"] {
        let [wins, draws, losses] = round(&search, &lua(opponent, &limits), 3);
        assert_eq!(wins + draws + losses, 12, "search against {opponent}");
        if opponent == "random" {
            assert!(
                wins >= 10,
                "search against random: {wins}W {draws}D {losses}L"
            );
        }
    }
}

//! The example Wormworld strategies, played through the real host: the Lua bots in
//! `strategies/lua/worms/` and the WASM build of `strategies/rust/worms-search` answer a legal move
//! on every example map and their games end. Three ignored tests measure: the search's strength
//! against greedy over 200 games (the acceptance test: the lower end of its 95% interval must be
//! above 50%), random's against greedy, and the fuel a move of the search costs. Run them with
//! `cargo test --release -p botbox --test worms_bots -- --ignored --nocapture`.

mod util;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use botbox::games::worms::{EndReason, Game, Map, Move, Observation, Verdict};
use botbox::games::{derive_seed, seat_seed};
use botbox::runtime::{Instance, Limits, Params, Setup, Strategy};
use botbox::tournament::run_indexed;
use util::{at, repo, test_limits};

/// The example maps, in the order the measurement rotates through them.
const MAPS: [&str; 6] = ["tutorial", "arena", "maze", "gates", "pinwheel", "big"];

fn map(name: &str) -> Map {
    let path = at(&format!("examples/worms/{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Map::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn lua(name: &str, limits: &Limits) -> Strategy {
    let path = at(&format!("strategies/lua/worms/{name}.lua"));
    Strategy::load(&path, limits).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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

/// The search with a budget of `nodes` positions per move (`None`: its default).
fn search(nodes: Option<u64>, limits: &Limits) -> Strategy {
    let strategy = Strategy::load(&search_wasm(), limits).expect("worms_search.wasm loads");
    let mut params = Params::new();
    if let Some(nodes) = nodes {
        params.insert("nodes".into(), nodes.into());
    }
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
    reason: EndReason,
    turns: u32,
    /// Moves made and time spent answering, per seat.
    moves: [u32; 2],
    thinking: [Duration; 2],
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
    let (mut moves, mut thinking) = ([0; 2], [Duration::ZERO; 2]);
    while !game.is_over() {
        let seat = game.to_move();
        let obs = game.observation(seat);
        if obs.legal.is_empty() {
            game.pass().expect("a player without moves may pass");
            continue;
        }
        let start = Instant::now();
        let answer = ask(&mut instances[seat], &obs);
        thinking[seat] += start.elapsed();
        moves[seat] += 1;
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
        reason: outcome.reason,
        turns: game.turn(),
        moves,
        thinking,
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
    let search = search(Some(300), &limits);
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

/// Per-game points of a win, a draw and a loss, and the 95% interval of their mean: the normal
/// approximation (as chess engine testers report it), and the Wilson interval of the wins with
/// each draw counted as half a win, for comparison.
fn score_interval([wins, draws, losses]: [usize; 3]) -> (f64, f64, (f64, f64)) {
    let n = (wins + draws + losses) as f64;
    let score = (wins as f64 + draws as f64 / 2.0) / n;
    let variance = [(1.0, wins), (0.5, draws), (0.0, losses)]
        .iter()
        .map(|&(points, count)| count as f64 * (points - score) * (points - score))
        .sum::<f64>()
        / n;
    let margin = 1.96 * (variance / n).sqrt();
    let half_wins = (wins as f64 + draws as f64 / 2.0).round() as usize;
    let wilson = botbox::tournament::stats::wilson95(half_wins, n as usize);
    (score, margin, wilson)
}

/// The acceptance measurement: the search (WASM, default budget, default limits) against greedy
/// over 200 games: maps rotated, sides swapped, seeds 0.., on two threads.
#[test]
#[ignore = "a measurement of strength: minutes, run with --ignored --nocapture"]
fn strength_against_greedy() {
    measure("search", "greedy", 200);
}

/// How random fares against greedy, the same way.
#[test]
#[ignore = "a measurement of strength, run with --ignored --nocapture"]
fn random_against_greedy() {
    measure("random", "greedy", 60);
}

/// Plays `games` games of `bot` against `opponent` and prints the result: game `i` on map
/// `(i / 2) % 6`, `bot` in seat `i % 2`, seeded `derive_seed(2026, i)`.
fn measure(bot: &str, opponent: &str, games: usize) {
    let limits = Limits::default();
    let load = |name: &str| match name {
        "search" => search(None, &limits),
        _ => lua(name, &limits),
    };
    let (bot, opponent) = (load(bot), load(opponent));
    let maps: Vec<Map> = MAPS.iter().map(|name| map(name)).collect();
    let play_game = |i: usize| {
        let (m, seat) = ((i / 2) % MAPS.len(), i % 2);
        let players = if seat == 0 {
            [&bot, &opponent]
        } else {
            [&opponent, &bot]
        };
        (
            m,
            seat,
            play(&maps[m], players, derive_seed(2026, i as u64)),
        )
    };
    let results = run_indexed(games, 2, play_game, |_| {});
    report(bot.name(), opponent.name(), &results);
}

fn report(bot: &str, opponent: &str, results: &[(usize, usize, Record)]) {
    let mut total = [0; 3];
    let mut by_map = [[0; 3]; MAPS.len()];
    let mut by_seat = [[0; 3]; 2];
    let mut by_reason = std::collections::BTreeMap::new();
    let (mut moves, mut thinking, mut slowest) = (0, Duration::ZERO, Duration::ZERO);
    for &(m, seat, record) in results {
        let k = outcome_index(record.result, seat);
        total[k] += 1;
        by_map[m][k] += 1;
        by_seat[seat][k] += 1;
        *by_reason.entry(record.reason.name()).or_insert(0) += 1;
        moves += record.moves[seat];
        thinking += record.thinking[seat];
        let per_move = record.thinking[seat] / record.moves[seat].max(1);
        slowest = slowest.max(per_move);
    }
    let (score, margin, (low, high)) = score_interval(total);
    let [w, d, l] = total;
    println!(
        "{bot} against {opponent}, {} games: {w}W {d}D {l}L",
        results.len()
    );
    println!(
        "score {:.1}% ± {:.1}% (95%: [{:.1}%, {:.1}%]; Wilson [{:.1}%, {:.1}%])",
        100.0 * score,
        100.0 * margin,
        100.0 * (score - margin).max(0.0),
        100.0 * (score + margin).min(1.0),
        100.0 * low,
        100.0 * high
    );
    for (name, [w, d, l]) in MAPS.iter().zip(by_map) {
        println!("  {name:<9} {w:>3}W {d:>3}D {l:>3}L");
    }
    for (seat, [w, d, l]) in by_seat.iter().enumerate() {
        println!("  as player {}: {w}W {d}D {l}L", seat + 1);
    }
    println!("  endings: {by_reason:?}");
    println!(
        "{bot}: {moves} moves, {:?} per move on average; the slowest game averaged {slowest:?}",
        thinking / moves.max(1)
    );
}

/// The search's WASM module run directly under wasmtime, to read the fuel each decision burns (the
/// host's `Instance` only enforces the limit). It speaks the ABI of `docs/wasm-abi.md`.
struct Metered {
    store: wasmtime::Store<()>,
    memory: wasmtime::Memory,
    alloc: wasmtime::TypedFunc<i32, i32>,
    choose: wasmtime::TypedFunc<(i32, i32), i64>,
}

impl Metered {
    /// Plenty: the measurement must never run dry.
    const TANK: u64 = 1 << 40;

    fn new(setup: &Setup) -> Metered {
        let mut config = wasmtime::Config::new();
        config.consume_fuel(true);
        let engine = wasmtime::Engine::new(&config).unwrap();
        let module = wasmtime::Module::from_file(&engine, search_wasm()).unwrap();
        let mut linker = wasmtime::Linker::new(&engine);
        linker
            .func_wrap("botbox", "log", |_: i32, _: i32| {})
            .unwrap();
        let mut store = wasmtime::Store::new(&engine, ());
        store.set_fuel(Self::TANK).unwrap();
        let instance = linker.instantiate(&mut store, &module).unwrap();
        let memory = instance.get_memory(&mut store, "memory").unwrap();
        let alloc = instance.get_typed_func(&mut store, "botbox_alloc").unwrap();
        let choose = instance.get_typed_func(&mut store, "choose_move").unwrap();
        let init = instance
            .get_typed_func::<(i32, i32), i32>(&mut store, "botbox_init")
            .unwrap();
        let mut metered = Metered {
            store,
            memory,
            alloc,
            choose,
        };
        let input = metered.write(&serde_json::to_vec(setup).unwrap());
        assert_eq!(init.call(&mut metered.store, input).unwrap(), 0);
        metered
    }

    fn write(&mut self, bytes: &[u8]) -> (i32, i32) {
        let len = bytes.len() as i32;
        let ptr = self.alloc.call(&mut self.store, len).unwrap();
        self.memory
            .write(&mut self.store, ptr as usize, bytes)
            .unwrap();
        (ptr, len)
    }

    /// The answer to `obs` and the fuel it cost.
    fn choose(&mut self, obs: &Observation) -> (Move, u64) {
        let input = self.write(&serde_json::to_vec(obs).unwrap());
        self.store.set_fuel(Self::TANK).unwrap();
        let packed = self.choose.call(&mut self.store, input).unwrap();
        let fuel = Self::TANK - self.store.get_fuel().unwrap();
        let (ptr, len) = ((packed >> 32) as usize, (packed & 0xffff_ffff) as usize);
        let bytes = &self.memory.data(&self.store)[ptr..ptr + len];
        (serde_json::from_slice(bytes).unwrap(), fuel)
    }
}

/// The fuel a decision of the search costs with its default budget, per map: one game against
/// greedy in each seat.
#[test]
#[ignore = "a measurement of cost, run with --ignored --nocapture"]
fn search_fuel_per_move() {
    let greedy = lua("greedy", &Limits::default());
    for name in MAPS {
        let map = map(name);
        let (mut fuel, mut most, mut moves, mut time) = (0u64, 0u64, 0u64, Duration::ZERO);
        for me in 0..2u32 {
            let seed = derive_seed(7, u64::from(me));
            let mut search = Metered::new(&Setup::new("worms", seat_seed(seed, me), me));
            let setup = Setup::new("worms", seat_seed(seed, 1 - me), 1 - me);
            let mut other = greedy.instantiate(&setup).unwrap();
            let mut game = Game::new(&map);
            while !game.is_over() {
                let obs = game.observation(game.to_move());
                if obs.legal.is_empty() {
                    game.pass().unwrap();
                    continue;
                }
                let answer = if game.to_move() == me as usize {
                    let start = Instant::now();
                    let (answer, cost) = search.choose(&obs);
                    time += start.elapsed();
                    (fuel, most, moves) = (fuel + cost, most.max(cost), moves + 1);
                    answer
                } else {
                    ask(&mut other, &obs)
                };
                assert!(obs.legal.contains(&answer));
                game.apply(answer).unwrap();
            }
        }
        println!(
            "{name:<9} {moves:>4} moves: fuel {:>11} per move on average, {most:>11} at most; {:?} per move",
            fuel / moves.max(1),
            time / moves.max(1) as u32
        );
    }
}

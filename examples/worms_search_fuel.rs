//! The WASM fuel a decision of `strategies/rust/worms-search` costs with its default budget, per
//! example map: one game against `strategies/lua/worms/greedy.lua` in each seat.
//!
//! ```sh
//! cargo run --release --example worms_search_fuel
//! ```
//!
//! The module is built into `target/guests` first, then run directly under wasmtime to read the fuel
//! each decision burns (the host's `Instance` only enforces the limit); it speaks the ABI of
//! `docs/wasm-abi.md`. Prints, per map, the moves, the average and largest fuel per move, and the
//! time per move.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use botbox::games::worms::{Game, Map, Move, Observation};
use botbox::games::{derive_seed, seat_seed};
use botbox::runtime::{Limits, Setup};

/// The example maps.
const MAPS: [&str; 6] = ["tutorial", "arena", "maze", "gates", "pinwheel", "big"];

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ has a parent")
        .to_path_buf()
}

fn map(name: &str) -> Map {
    let path = repo().join(format!("examples/worms/{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Map::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The search's WASM module, built beside the other guests.
fn search_wasm() -> PathBuf {
    let target = repo().join("target/guests");
    botbox::runtime::build_wasm_packages(&repo(), &["worms-search"], &target)
        .unwrap_or_else(|e| panic!("building worms-search: {e}"))
        .join("worms_search.wasm")
}

/// The search's module under wasmtime with fuel metering.
struct Metered {
    store: wasmtime::Store<()>,
    memory: wasmtime::Memory,
    alloc: wasmtime::TypedFunc<i32, i32>,
    choose: wasmtime::TypedFunc<(i32, i32), i64>,
}

impl Metered {
    /// Plenty: the measurement must never run dry.
    const TANK: u64 = 1 << 40;

    fn new(engine: &wasmtime::Engine, module: &wasmtime::Module, setup: &Setup) -> Metered {
        let mut linker = wasmtime::Linker::new(engine);
        linker
            .func_wrap("botbox", "log", |_: i32, _: i32| {})
            .unwrap();
        let mut store = wasmtime::Store::new(engine, ());
        store.set_fuel(Self::TANK).unwrap();
        let instance = linker.instantiate(&mut store, module).unwrap();
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

fn main() {
    let mut config = wasmtime::Config::new();
    config.consume_fuel(true);
    let engine = wasmtime::Engine::new(&config).unwrap();
    let module = wasmtime::Module::from_file(&engine, search_wasm()).unwrap();
    let path = repo().join("strategies/lua/worms/greedy.lua");
    let greedy = botbox::hosted::load(&path, &Limits::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!("worms-search against greedy.lua, one game in each seat per map:");
    for name in MAPS {
        let map = map(name);
        let (mut fuel, mut most, mut moves, mut time) = (0u64, 0u64, 0u64, Duration::ZERO);
        for me in 0..2u32 {
            let seed = derive_seed(7, u64::from(me));
            let mut search = Metered::new(
                &engine,
                &module,
                &Setup::new("worms", seat_seed(seed, me), me),
            );
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
                    other
                        .call::<Observation, Move>("choose_move", &obs)
                        .unwrap_or_else(|fault| panic!("greedy, turn {}: {fault}", obs.turn))
                };
                assert!(obs.legal.contains(&answer), "{answer:?} is not legal");
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

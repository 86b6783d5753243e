//! BS in Luau alone: the floor under any host that runs BS bots as Luau with fresh observation tables
//! (issue 34, BENCHMARKS.md "BS against the Java controller").
//!
//! ```sh
//! cargo run --release --example bs_luau_floor -- 50000 examples/bs-speed/luau-floor.lua \
//!     strategies/lua/bs/player{1,2,3,4}.lua
//! ```
//! One sandboxed Luau state with native code, as botbox runs strategies, runs a BS engine written in
//! Luau (`luau-floor.lua`: the contest controller's rules) and the four bots' own functions, building
//! each decision's observation table with the fields botbox gives them. No host crossing, no limit
//! (no interrupt, no memory cap, no watchdog), one state for all bots: what Luau itself costs.

use mlua::chunk::{ChunkMode, Compiler};
use mlua::{Function, Lua, Value};
use std::time::Instant;

fn load(lua: &Lua, path: &str) -> Value {
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let bytecode = Compiler::new()
        .set_optimization_level(1)
        .compile(&source)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let chunk: Function = lua
        .load(&bytecode)
        .set_name(format!("={path}"))
        .set_mode(ChunkMode::Binary)
        .into_function()
        .unwrap();
    chunk.call(()).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, games, engine, a, b, c, d] = &args[..] else {
        panic!("usage: bs_luau_floor GAMES ENGINE.lua BOT1.lua BOT2.lua BOT3.lua BOT4.lua");
    };
    let games: u64 = games.parse().expect("GAMES is a number");
    let lua = Lua::new();
    lua.enable_jit(true);
    lua.sandbox(true).unwrap();
    let Value::Function(engine) = load(&lua, engine) else {
        panic!("{engine} must return the engine's function");
    };
    let bots: Vec<Value> = [a, b, c, d].iter().map(|p| load(&lua, p)).collect();
    let start = Instant::now();
    let result: String = engine
        .call((
            games,
            bots[0].clone(),
            bots[1].clone(),
            bots[2].clone(),
            bots[3].clone(),
        ))
        .unwrap();
    let took = start.elapsed();
    println!(
        "{games} games in {:.2} s = {:.1} µs a game; {result}",
        took.as_secs_f64(),
        took.as_secs_f64() * 1e6 / games as f64
    );
}

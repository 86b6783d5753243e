//! How fast BS plays: the engine alone, the strategy calls a game makes, and whole pool tournaments.
//!
//! - `engine`: seeded games of four built-in Player1s to their end, no strategy code (games/s on one
//!   core).
//! - `lua`: what a game costs in Lua strategies: starting an instance (a pooled Luau state of the bot,
//!   the file's top level run in a new environment) and one `play` or `call` decision, observation
//!   building and answer decoding included; and building a `call` observation's table alone.
//! - `tournament`: `tournament::runner::run` (pool tables) over the Lua bots of `strategies/lua/bs/` (seven of them),
//!   each game seating four, at one and two game threads. The target is 3,300 games/s at two jobs.
//!
//! Run with `cargo bench -p botbox --bench bs`.

use std::path::{Path, PathBuf};

use botbox::games::bs::{Game, policy};
use botbox::games::contract::Variant;
use botbox::games::derive_seed;
use botbox::runtime::{Instance, Limits, Setup, Strategy};
use botbox::tournament::runner::{self, Entry, Format, Plan, Run};
use botbox::tournament::versus::Versus;
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

const BENCH_SEED: u64 = 2026;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Lua bots of `strategies/lua/bs/`, in name order.
fn bots() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("strategies/lua/bs"))
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "lua"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    assert!(
        files.len() >= 4,
        "strategies/lua/bs/ has fewer than four bots"
    );
    files
}

fn load(path: &Path) -> Strategy {
    botbox::hosted::load(path, &Limits::default()).expect("the bot loads")
}

mod engine {
    use super::*;

    const GAMES: u64 = 256;

    #[divan::bench]
    fn player1_games(bencher: Bencher) {
        bencher.counter(ItemsCount::new(GAMES)).bench(|| {
            (0..GAMES)
                .map(|i| {
                    let mut game = Game::new(derive_seed(BENCH_SEED, i));
                    policy::play_out_simple(&mut game);
                    u64::from(game.turn())
                })
                .sum::<u64>()
        });
    }
}

mod lua {
    use super::*;

    const BOTS: [&str; 2] = ["player1", "player_conman"];

    fn bot(name: &str) -> Strategy {
        load(&repo().join(format!("strategies/lua/bs/{name}.lua")))
    }

    #[divan::bench(args = BOTS)]
    fn start_instance(bencher: Bencher, name: &str) {
        let strategy = bot(name);
        bencher.bench_local(|| start(&strategy, 0));
    }

    fn midgame() -> Game {
        let mut game = Game::new(BENCH_SEED);
        for _ in 0..9 {
            let play = policy::honest_or_oldest(game.hand(game.to_move()), game.required_rank());
            let ids: Vec<u32> = play.iter().map(u32::from).collect();
            game.play(&ids).unwrap();
            game.resolve([false; 4]).unwrap();
        }
        game
    }

    fn start(strategy: &Strategy, seat: u32) -> Instance {
        let setup = Setup::new("bs", 1, seat);
        strategy.instantiate(&setup).expect("starts")
    }

    fn names() -> Vec<String> {
        ["a", "b", "c", "d"].map(String::from).to_vec()
    }

    /// Building a `call` observation's table in a state (the fast path of `runtime/lua/bs.rs`).
    #[divan::bench]
    fn call_observation_table(bencher: Bencher) {
        use botbox::runtime::Payload;
        let lua = mlua::Lua::new();
        lua.set_memory_limit(32 << 20).unwrap();
        let mut game = midgame();
        game.play(&[u32::from(game.hand(1).as_slice()[0])]).unwrap();
        let obs = game.call_observation(2, &names()).unwrap();
        bencher.bench_local(|| obs.to_lua(&lua).unwrap());
    }

    #[divan::bench(args = BOTS)]
    fn play_decision(bencher: Bencher, name: &str) {
        let mut bot = start(&bot(name), 1);
        let obs = midgame().play_observation(&names());
        bencher.bench_local(|| {
            bot.call::<_, Vec<u32>>("play", divan::black_box(&obs))
                .unwrap()
        });
    }

    #[divan::bench(args = BOTS)]
    fn call_decision(bencher: Bencher, name: &str) {
        let mut bot = start(&bot(name), 2);
        let mut game = midgame();
        game.play(&[u32::from(game.hand(1).as_slice()[0])]).unwrap();
        let obs = game.call_observation(2, &names()).unwrap();
        bencher.bench_local(|| bot.call::<_, bool>("call", divan::black_box(&obs)).unwrap());
    }
}

mod tournament {
    use super::*;

    /// Long enough (about a second a sample at one thread) that start-up and the machine's
    /// moment-to-moment noise weigh little.
    const GAMES: usize = 2000;

    #[divan::bench(args = [1, 2], sample_count = 10)]
    fn lua_pool_games(bencher: Bencher, jobs: usize) {
        let entries: Vec<Entry> = bots()
            .iter()
            .map(|p| Entry {
                name: p.file_stem().unwrap().to_string_lossy().into_owned(),
                strategy: load(p),
            })
            .collect();
        let run = Run {
            plan: Plan {
                format: Format::Pool,
                games: GAMES,
                seed: 1,
                seats: 4,
                repeat: false,
            },
            shard: None,
            jobs,
            record: false,
        };
        let rules = botbox::games::registry::find("bs").unwrap();
        let bs = Versus::new(rules, vec![Variant::named("standard")], 0, 1).unwrap();
        bencher.counter(ItemsCount::new(GAMES)).bench(|| {
            runner::run(&bs, &entries[..], entries.len(), run.clone(), |_, _, _| {})
                .expect("a valid plan")
                .games
                .len()
        });
    }
}

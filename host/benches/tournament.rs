//! Tournament throughput: a Wormworld round robin of the Lua example bots (random, greedy and a second
//! greedy) on `examples/worms/arena.txt`, played by the real runner at one and at two game threads.
//! The ratio of the two rates is the runner's speed-up; with two cores it should be close to 2.
//!
//! Every iteration plays the same 24 games (seed 1). Run with `cargo bench -p botbox --bench tournament`.

use std::path::Path;

use botbox::games::contract::Variant;
use botbox::runtime::Limits;
use botbox::tournament::runner::{self, Entry, Format, Plan, Run};
use botbox::tournament::versus::Versus;
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

/// Games per pairing; three pairings.
const GAMES: usize = 8;

fn setup() -> (Versus, Vec<Entry>) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rules = botbox::games::registry::find("worms").expect("Wormworld is registered");
    let worms = Versus::new(rules, vec![Variant::named("arena")], 0, 1).expect("the arena map");
    let entries = ["random", "greedy", "greedy"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let path = repo.join(format!("strategies/lua/worms/{name}.lua"));
            Entry {
                name: format!("{name}-{i}"),
                strategy: botbox::hosted::load(&path, &Limits::default()).expect("the bot loads"),
            }
        })
        .collect();
    (worms, entries)
}

#[divan::bench(args = [1, 2], sample_count = 10)]
fn lua_round_robin_games(bencher: Bencher, jobs: usize) {
    let (worms, entries) = setup();
    let run = Run {
        plan: Plan {
            format: Format::RoundRobin,
            games: GAMES,
            seed: 1,
            seats: 2,
            repeat: false,
        },
        shard: None,
        jobs,
        record: false,
    };
    bencher.counter(ItemsCount::new(3 * GAMES)).bench(|| {
        runner::run(
            &worms,
            &entries[..],
            entries.len(),
            run.clone(),
            |_, _, _| {},
        )
        .expect("a valid plan")
        .games
        .len()
    });
}

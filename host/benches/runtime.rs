//! What it costs to call into strategy code, and what the sandbox costs a real strategy.
//!
//! - `decision`: one `choose_move` call of a trivial strategy, observation encoding and answer decoding
//!   included (Lua: a table built per call; WASM: JSON bytes both ways). Target: at most 5 µs.
//! - `expectimax`: the Rust expectimax of `strategies/rust/g2048-expectimax` on the same positions,
//!   compiled natively (the baseline), as WASM with fuel metering (with the default limits, and with
//!   epoch checks for a time limit the fuel could outlast), and as WASM without it.
//!
//! Run with `cargo bench -p botbox --bench runtime`. The Rust guests are built for wasm32 first, into
//! `target/guests`, as the tests do.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use botbox::games::g2048::{Direction, Game, Observation};
use botbox::runtime::{Instance, Limits, Setup, Strategy as Loaded};
use botbox_sdk::Strategy as _;
use divan::Bencher;
use g2048_expectimax::Expectimax;

fn main() {
    divan::main();
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

static GUESTS: LazyLock<PathBuf> = LazyLock::new(|| {
    let packages = ["g2048-expectimax", "g2048-first-legal"];
    botbox::runtime::build_wasm_packages(&repo(), &packages, &repo().join("target/guests"))
        .expect("building the guests")
});

fn setup() -> Setup {
    Setup::new("2048", 1, 0)
}

fn instance(path: &Path, limits: &Limits) -> Instance {
    Loaded::load(path, limits, botbox::hosted::extensions())
        .expect("loading")
        .instantiate(&setup())
        .expect("instantiating")
}

/// Positions from one seeded game played by the native expectimax: early, middle and late.
static POSITIONS: LazyLock<Vec<Observation>> = LazyLock::new(|| {
    let mut game = Game::new(4, 3).unwrap();
    let mut bot = Expectimax::new(&setup());
    let mut kept = Vec::new();
    while !game.is_over() && game.moves() < 600 {
        let obs = game.observation();
        if [50, 300, 600].contains(&(game.moves() + 1)) {
            kept.push(obs.clone());
        }
        game.step(bot.choose_move(obs)).unwrap();
    }
    kept
});

/// A mid-game observation for the trivial strategies.
static MIDGAME: LazyLock<Observation> = LazyLock::new(|| POSITIONS[0].clone());

mod decision {
    use super::*;

    fn bench_calls(bencher: Bencher, mut bot: Instance) {
        let obs = MIDGAME.clone();
        bencher.bench_local(|| {
            bot.call::<_, Direction>("choose_move", divan::black_box(&obs))
                .unwrap()
        });
    }

    #[divan::bench]
    fn lua_first_legal(bencher: Bencher) {
        bench_calls(
            bencher,
            instance(
                &repo().join("strategies/lua/g2048/first_legal.lua"),
                &Limits::default(),
            ),
        );
    }

    #[divan::bench]
    fn wasm_rust_first_legal(bencher: Bencher) {
        bench_calls(
            bencher,
            instance(&GUESTS.join("g2048_first_legal.wasm"), &Limits::default()),
        );
    }

    #[divan::bench]
    fn wasm_wat_corner(bencher: Bencher) {
        bench_calls(
            bencher,
            instance(
                &repo().join("strategies/wat/g2048/corner.wat"),
                &Limits::default(),
            ),
        );
    }

    /// The engine's own part of a decision: building the observation.
    #[divan::bench]
    fn engine_observation(bencher: Bencher) {
        let mut game = Game::new(4, 3).unwrap();
        for dir in [Direction::Left, Direction::Up, Direction::Right] {
            let _ = game.step(dir);
        }
        bencher.bench_local(|| divan::black_box(&game).observation());
    }
}

mod expectimax {
    use super::*;

    const STAGES: [usize; 3] = [0, 1, 2];

    #[divan::bench(args = STAGES, sample_count = 10, sample_size = 1)]
    fn native(bencher: Bencher, stage: usize) {
        let mut bot = Expectimax::new(&setup());
        let obs = POSITIONS[stage].clone();
        bencher.bench_local(|| bot.choose_move(divan::black_box(obs.clone())));
    }

    fn wasm(bencher: Bencher, stage: usize, limits: Limits) {
        let mut bot = instance(&GUESTS.join("g2048_expectimax.wasm"), &limits);
        let obs = POSITIONS[stage].clone();
        bencher.bench_local(|| {
            bot.call::<_, Direction>("choose_move", divan::black_box(&obs))
                .unwrap()
        });
    }

    #[divan::bench(args = STAGES, sample_count = 10, sample_size = 1)]
    fn wasm_fuel(bencher: Bencher, stage: usize) {
        // The default limits: fuel ends every call before the time limit, so no epoch checks.
        assert!(!botbox::runtime::wasm::needs_epochs(&Limits::default()));
        wasm(bencher, stage, Limits::default());
    }

    /// Fuel, and epoch checks for a time limit the fuel could outlast (9 s against 2,000,000,000
    /// units at the slowest rate, 10 s): what every call paid before epochs were left out.
    #[divan::bench(args = STAGES, sample_count = 10, sample_size = 1)]
    fn wasm_fuel_epochs(bencher: Bencher, stage: usize) {
        let limits = Limits {
            wall: std::time::Duration::from_secs(9),
            ..Limits::default()
        };
        assert!(botbox::runtime::wasm::needs_epochs(&limits));
        wasm(bencher, stage, limits);
    }

    #[divan::bench(args = STAGES, sample_count = 10, sample_size = 1)]
    fn wasm_no_fuel(bencher: Bencher, stage: usize) {
        wasm(
            bencher,
            stage,
            Limits {
                fuel: 0,
                ..Limits::default()
            },
        );
    }
}

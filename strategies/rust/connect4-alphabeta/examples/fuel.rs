//! The WASM fuel a decision of the module costs with the default budget, on the opening and a middle
//! game position of the standard board, found by bisection to within 1% (setting up counts too: the
//! transposition table is allocated then).
//!
//! ```sh
//! cargo run --release -p connect4-alphabeta --example fuel
//! ```
//!
//! The module is built into `target/guests` first and run through the host's runtime under ever
//! smaller fuel limits.

use std::path::Path;

use botbox::games::connect4::Game;
use botbox::runtime::{Limits, Setup};
use botbox_sdk::connect4::{Move, Observation};

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let dir = botbox::runtime::build_wasm_packages(
        &repo,
        &["connect4-alphabeta"],
        &repo.join("target/guests"),
    )
    .unwrap_or_else(|e| panic!("building connect4-alphabeta: {e}"));
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
            let strategy = botbox::hosted::load(&wasm, &limits).expect("the module loads");
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

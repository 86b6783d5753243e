//! The smallest useful botbox strategy, exactly the example of `docs/wasm-abi.md` ("Rust, with the
//! SDK"): it always answers the first legal move. It exists to show how little a strategy needs and
//! as a known, predictable opponent in tests.

use botbox_sdk::{
    Setup, Strategy,
    g2048::{Direction, Observation},
};

/// Always plays `obs.legal[0]`, which the host promises is never empty when it asks.
#[derive(Debug)]
pub struct FirstLegal;

impl Strategy for FirstLegal {
    type Observation = Observation;
    type Action = Direction;

    fn new(_setup: &Setup) -> Self {
        FirstLegal
    }

    fn choose_move(&mut self, obs: Observation) -> Direction {
        obs.legal[0]
    }
}

botbox_sdk::export_strategy!(FirstLegal);

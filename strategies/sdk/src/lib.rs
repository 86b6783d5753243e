//! The botbox guest SDK: the wire types of every game, shared with the host, and the WASM ABI behind a
//! trait and one macro.
//!
//! A Rust strategy is a type that implements [`Strategy`] plus one line, `botbox_sdk::export_strategy!(MyBot);`.
//! Built with `cargo build --release --target wasm32-unknown-unknown`, the crate becomes a core module that
//! speaks the ABI documented in `docs/wasm-abi.md`: it exports `memory`, `botbox_alloc`, `botbox_init` and
//! `choose_move`, and it may import the host functions of module `botbox` (see [`host`]).
//!
//! A game with more than one decision has a trait of its own: BS (Cheat) asks `play`, `call` and
//! `observe`, so a BS strategy implements [`BsStrategy`] and is exported with
//! `botbox_sdk::export_bs_strategy!(MyBot);`.
//!
//! The same types compile natively, so the host uses them to encode observations and to generate the JSON
//! Schemas in `schemas/`, and a strategy can be tested or benchmarked natively without any WASM at all.

#![deny(unsafe_code)]

pub mod bs;
pub mod connect4;
pub mod dice;
pub mod g2048;
pub mod tron;
pub mod wire;
pub mod worms;

pub use wire::Wire;

#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod abi;
pub mod host;

use serde::{Deserialize, Serialize};

/// What a strategy learns once, before its first decision in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Setup {
    /// The game's name, as `botbox games` lists it (`"2048"`, `"worms"`, ...).
    pub game: String,
    /// A seed derived from the game's seed, for the strategy's own random choices. Using it (and nothing
    /// else) as the source of randomness keeps a game reproducible.
    pub seed: u64,
    /// The seat this strategy plays, counted from 0.
    pub seat: u32,
    /// Parameters given on the command line (`--param depth=3`), for tuning without rebuilding.
    /// They are part of a run's configuration, recorded in its replays.
    #[serde(default, skip_serializing_if = "Params::is_empty")]
    pub params: Params,
}

/// Named strategy parameters: JSON values by name.
pub type Params = serde_json::Map<String, serde_json::Value>;

impl Setup {
    /// A setup without parameters.
    pub fn new(game: &str, seed: u64, seat: u32) -> Setup {
        Setup {
            game: game.to_string(),
            seed,
            seat,
            params: Params::new(),
        }
    }
}

/// A game-playing strategy. The host creates a fresh instance for every game.
pub trait Strategy: Sized {
    /// The game's observation, as the host sends it (for 2048: [`g2048::Observation`]).
    type Observation: Wire;
    /// The game's action (for 2048: [`g2048::Direction`]).
    type Action: Wire;

    /// Builds the strategy for one game.
    fn new(setup: &Setup) -> Self;

    /// Chooses an action for the observation.
    fn choose_move(&mut self, obs: Self::Observation) -> Self::Action;
}

/// A BS (Cheat) strategy: three decisions instead of one `choose_move` (see [`bs`] and
/// `docs/bs.md`). The host creates a fresh instance for every game.
pub trait BsStrategy: Sized {
    /// Builds the strategy for one game; `setup.seat` is its seat.
    fn new(setup: &Setup) -> Self;

    /// The cards to put on the pile, claimed to be of `obs.rank`: one or more distinct ids from
    /// `obs.hand`.
    fn play(&mut self, obs: bs::PlayObservation) -> bs::PlayAction;

    /// Whether to call "BS" on the play `obs` describes.
    fn call(&mut self, obs: bs::CallObservation) -> bs::CallAction;

    /// A public event (a play, a call and what it revealed, the end of a round), in game order. The
    /// default ignores it.
    fn observe(&mut self, event: bs::Event) {
        let _ = event;
    }
}

/// A small, fast, seedable generator (SplitMix64) for a strategy's own random choices.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0), by multiply-shift, which is unbiased enough for play.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Exports a [`Strategy`] under the botbox WASM ABI (`botbox_alloc`, `botbox_init`, `choose_move`,
/// `botbox_encoding`). Observations and answers cross as postcard ([`wire`]), the faster encoding;
/// `export_strategy!(MyBot, json)` makes them JSON instead (for a strategy whose own observation
/// type reads only part of the JSON). On a native target it expands to nothing, so the same crate
/// also builds as a normal library.
#[macro_export]
macro_rules! export_strategy {
    ($ty:ty) => {
        $crate::export_strategy!(@exports $ty, true);
    };
    ($ty:ty, json) => {
        $crate::export_strategy!(@exports $ty, false);
    };
    (@exports $ty:ty, $binary:literal) => {
        // An anonymous const keeps the exports out of the caller's namespace while `$ty` still
        // resolves in the caller's scope.
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            $crate::export_strategy!(@common $ty, $binary, <$ty as $crate::Strategy>::new);

            #[unsafe(no_mangle)]
            pub extern "C" fn choose_move(ptr: i32, len: i32) -> i64 {
                $crate::abi::choose_move::<$ty, $binary>(ptr, len)
            }
        };
    };
    (@common $ty:ty, $binary:literal, $init:expr) => {
        #[unsafe(no_mangle)]
        pub extern "C" fn botbox_alloc(size: i32) -> i32 {
            $crate::abi::alloc(size)
        }

        #[unsafe(no_mangle)]
        pub extern "C" fn botbox_init(ptr: i32, len: i32) -> i32 {
            $crate::abi::init_with(ptr, len, $init)
        }

        #[unsafe(no_mangle)]
        pub extern "C" fn botbox_encoding() -> i32 {
            $crate::abi::encoding::<$binary>()
        }
    };
}

/// Exports a [`BsStrategy`] under the botbox WASM ABI: `botbox_alloc`, `botbox_init`,
/// `botbox_encoding` and the three BS functions `play`, `call` and `observe`, each with the
/// signature of `choose_move` (`(ptr, len) -> i64`; `observe` answers nothing). Postcard by
/// default, JSON with `export_bs_strategy!(MyBot, json)`. On a native target it expands to nothing.
#[macro_export]
macro_rules! export_bs_strategy {
    ($ty:ty) => {
        $crate::export_bs_strategy!(@exports $ty, true);
    };
    ($ty:ty, json) => {
        $crate::export_bs_strategy!(@exports $ty, false);
    };
    (@exports $ty:ty, $binary:literal) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            $crate::export_strategy!(@common $ty, $binary, <$ty as $crate::BsStrategy>::new);

            #[unsafe(no_mangle)]
            pub extern "C" fn play(ptr: i32, len: i32) -> i64 {
                $crate::abi::bs_play::<$ty, $binary>(ptr, len)
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn call(ptr: i32, len: i32) -> i64 {
                $crate::abi::bs_call::<$ty, $binary>(ptr, len)
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn observe(ptr: i32, len: i32) -> i64 {
                $crate::abi::bs_observe::<$ty, $binary>(ptr, len)
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[rng.below(5)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }
}

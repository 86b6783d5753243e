//! The rules of the games botbox hosts, one module per game.
//!
//! **Games are pure.** A game does no I/O, knows nothing of runtimes, strategies or tournaments, and
//! is deterministic given its seed: every random event (a 2048 tile spawn, a dice roll) is drawn from
//! the game's own [`Rng`], seeded once. A run of many games derives each game's seed from the run's
//! seed with [`derive_seed`], so a tournament is reproducible from its configuration and one number.
//!
//! Seed conventions, shared by every game so replays agree:
//! - game `i` of a run with seed `s` is seeded with `derive_seed(s, i)`;
//! - the strategy in seat `k` of a game with seed `g` is seeded with `derive_seed(g, 1000 + k)`.

pub mod bs;
pub mod connect4;
pub mod contract;
pub mod dice;
pub mod g2048;
pub mod registry;
#[cfg(test)]
mod suite;
pub mod tron;
pub mod worms;

/// The random number generator of every game: small, fast, and identical on every platform.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// A fresh [`Rng`] for `seed`.
pub fn rng(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}

/// The `stream`-th seed derived from `seed`.
///
/// Neighbouring inputs give unrelated outputs, so games `i` and `i + 1` of a run, or seats 0 and 1
/// of a game, never see correlated random streams. The seed is mixed before the stream is added so
/// that `(seed, stream)` pairs do not collide along a line, as a plain `seed + stream` would.
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    // The golden-ratio increment of splitmix64: consecutive streams land far apart before mixing.
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    mix64(mix64(seed).wrapping_add(stream.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// The seed of the strategy in `seat` of a game seeded with `game_seed` (the convention above).
pub fn seat_seed(game_seed: u64, seat: u32) -> u64 {
    derive_seed(game_seed, 1000 + u64::from(seat))
}

/// The splitmix64 finaliser: a bijection on `u64` in which every input bit affects every output bit.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;
    use std::collections::HashSet;

    #[test]
    fn derived_seeds_are_distinct_across_seeds_and_streams() {
        let mut seen = HashSet::new();
        for seed in 0..64 {
            for stream in (0..64).chain(1000..1008) {
                assert!(
                    seen.insert(derive_seed(seed, stream)),
                    "collision at ({seed}, {stream})"
                );
            }
        }
    }

    #[test]
    fn derive_seed_is_a_pure_function() {
        assert_eq!(derive_seed(42, 7), derive_seed(42, 7));
        assert_ne!(derive_seed(42, 7), derive_seed(7, 42));
    }

    #[test]
    fn rng_is_reproducible_from_its_seed() {
        let (mut a, mut b) = (rng(5), rng(5));
        assert_eq!(a.next_u64(), b.next_u64());
        assert_ne!(rng(5).next_u64(), rng(6).next_u64());
    }
}

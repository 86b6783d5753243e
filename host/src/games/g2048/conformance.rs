//! Seeded random checks of 2048: the fast board against the general one over thousands of games
//! and boards, the spawn distribution against the rules' probabilities, and reproducibility.
//!
//! Every check is seeded, so a failure reproduces exactly. The statistical ones accept a count
//! within [`SIGMAS`] standard deviations of its expectation, the deviation computed from the sample
//! size and the probability under test.

use std::array;

use rand::RngExt;

use super::*;
use crate::games::{Rng, derive_seed, rng};

/// How many standard deviations an observed count may stray from its expectation: a correct
/// engine fails one such check about once in 1.7 million seeds.
const SIGMAS: f64 = 5.0;

/// Asserts that `count` successes in `n` trials fit probability `p`.
fn assert_binomial(count: u64, n: u64, p: f64, what: &str) {
    let mean = n as f64 * p;
    let tolerance = SIGMAS * (n as f64 * p * (1.0 - p)).sqrt();
    let off = (count as f64 - mean).abs();
    assert!(
        off <= tolerance,
        "{what}: {count} in {n}, expected {mean:.0} ± {tolerance:.0}"
    );
}

/// Spawns `n` times on copies of `board`, checks every tile lands on an empty cell, and checks the
/// 0.9 / 0.1 split and that each empty cell is chosen with probability 1 / (empty cells).
fn check_spawns(board: &Board, n: u64, seed: u64) {
    let mut rng = rng(seed);
    let empty: Vec<usize> = (0..16).filter(|&i| board.exponent(i) == 0).collect();
    let (mut per_cell, mut twos) = ([0u64; 16], 0u64);
    for _ in 0..n {
        let (idx, exponent) = board.clone().spawn(&mut rng).expect("the board has room");
        assert!(empty.contains(&idx), "spawned on the full cell {idx}");
        per_cell[idx] += 1;
        twos += u64::from(exponent == 1);
    }
    assert_binomial(twos, n, TWO_PROBABILITY, "tiles of 2");
    let p = 1.0 / empty.len() as f64;
    for idx in empty {
        assert_binomial(per_cell[idx], n, p, &format!("tiles on cell {idx}"));
    }
}

#[test]
fn spawns_are_twos_nine_times_in_ten_on_uniformly_random_empty_cells() {
    // Four cells taken, so the choice must skip full cells rather than count from the start.
    let taken: [u8; 16] = array::from_fn(|i| if i % 5 == 0 { 3 } else { 0 });
    let fast = Board::Fast(Board4::from_exponents(taken));
    let general = Board::General(Grid::from_exponents(4, taken.to_vec()).unwrap());
    check_spawns(&fast, 120_000, 1);
    check_spawns(&general, 120_000, 2);
    check_spawns(&Board::Fast(Board4::EMPTY), 120_000, 3);
}

#[test]
fn a_game_starts_with_two_tiles_on_distinct_uniformly_random_cells() {
    let n = 20_000;
    let (mut per_cell, mut twos) = ([0u64; 16], 0u64);
    for seed in 0..n {
        let exponents = Game::new(4, seed).unwrap().board().exponents();
        let tiles: Vec<usize> = (0..16).filter(|&i| exponents[i] > 0).collect();
        assert_eq!(
            tiles.len(),
            2,
            "seed {seed}: two tiles on two distinct cells"
        );
        for idx in tiles {
            per_cell[idx] += 1;
            twos += u64::from(exponents[idx] == 1);
        }
    }
    assert_binomial(twos, 2 * n, TWO_PROBABILITY, "start tiles of 2");
    for (idx, &count) in per_cell.iter().enumerate() {
        assert_binomial(
            count,
            n,
            2.0 / 16.0,
            &format!("games starting with a tile on cell {idx}"),
        );
    }
}

/// Asserts that two boards show the same tiles and allow the same moves with the same results.
fn assert_same_board(fast: &Board, general: &Board) {
    assert_eq!(fast.values(), general.values());
    assert_eq!(fast.exponents(), general.exponents());
    assert_eq!(fast.empty_count(), general.empty_count());
    assert_eq!(fast.max_exponent(), general.max_exponent());
    assert_eq!(fast.is_over(), general.is_over());
    for k in 0..4 {
        assert_eq!((fast.row(k), fast.col(k)), (general.row(k), general.col(k)));
    }
    for direction in Direction::ALL {
        let moved = |board: &Board| {
            board
                .apply(direction)
                .map(|(b, gained)| (b.values(), gained))
        };
        assert_eq!(
            moved(fast),
            moved(general),
            "{direction:?} on {:?}",
            fast.values()
        );
    }
}

#[test]
fn the_fast_board_plays_2000_random_games_exactly_like_the_general_one() {
    let mut total_moves = 0;
    for seed in 0..2000 {
        let mut fast = Game::new(4, seed).unwrap();
        let mut general = Game::start(Board::General(Grid::new(4).unwrap()), seed);
        let mut player = rng(derive_seed(seed, 1000));
        loop {
            assert_same_board(fast.board(), general.board());
            assert_eq!(fast.observation(), general.observation());
            assert_eq!(fast.won(), general.won());
            let mut same_player = player.clone();
            let played = fast.step_random(&mut player);
            assert_eq!(played, general.step_random(&mut same_player), "seed {seed}");
            if played.is_none() {
                break;
            }
        }
        assert!(fast.is_over());
        total_moves += fast.moves();
    }
    // Random games last about a hundred moves; far fewer would mean the loop compared little.
    assert!(total_moves > 2000 * 50, "only {total_moves} moves compared");
}

/// A random board whose tiles are drawn from `palette`.
fn random_board(rng: &mut Rng, palette: &[u8]) -> [u8; 16] {
    array::from_fn(|_| palette[rng.random_range(0..palette.len())])
}

#[test]
fn the_fast_board_moves_any_board_like_the_general_one() {
    // Tiles around the nibble boundary exercise the slow path: 32768 pairs that make a 65536, and
    // the high tiles themselves; the full range covers what the table path alone handles.
    let near_the_top = [0, 0, 0, 1, 14, 15, 15, 15, 16, 16, 17, 17, 30, 31, 31];
    let full_range: Vec<u8> = (0..=MAX_EXPONENT).collect();
    let small = [0, 0, 1, 1, 2, 3];
    let mut rng = rng(2048);
    for palette in [&near_the_top[..], &full_range, &small] {
        for _ in 0..30_000 {
            let exponents = random_board(&mut rng, palette);
            let fast = Board::Fast(Board4::from_exponents(exponents));
            let general = Board::General(Grid::from_exponents(4, exponents.to_vec()).unwrap());
            assert_same_board(&fast, &general);
        }
    }
}

/// Every move and spawn of the first 500 moves of a random game (random play on big boards lasts
/// tens of thousands of moves), and the position after them.
fn history(size: usize, seed: u64) -> (Vec<(Direction, Step)>, Observation) {
    let mut game = Game::new(size, seed).unwrap();
    let mut player = rng(derive_seed(seed, 1000));
    let moves = std::iter::from_fn(|| game.step_random(&mut player))
        .take(500)
        .collect();
    (moves, game.observation())
}

#[test]
fn a_game_is_reproducible_from_its_seed() {
    for size in MIN_SIZE..=MAX_SIZE {
        for seed in [0, 1, u64::MAX] {
            assert_eq!(
                history(size, seed),
                history(size, seed),
                "size {size}, seed {seed}"
            );
        }
        assert_ne!(
            history(size, 0),
            history(size, 1),
            "size {size}: seeds 0 and 1 play alike"
        );
    }
    assert_eq!(play_random(9), play_random(9));
}

/// Plays a random game of side `size` to its end, the player seeded as seat 0.
fn play(size: usize, seed: u64) -> Playout {
    Game::new(size, seed)
        .unwrap()
        .play_random(&mut rng(derive_seed(seed, 1000)))
}

#[test]
fn golden_random_games_keep_their_outcome() {
    // Pinned outcomes: a change here means the rules, the spawn draws or the generator changed,
    // and with them every recorded replay.
    let golden = [
        (
            3,
            0,
            Playout {
                score: 232,
                moves: 40,
                max_tile: 32,
            },
        ),
        (
            3,
            1,
            Playout {
                score: 168,
                moves: 30,
                max_tile: 32,
            },
        ),
        (
            4,
            0,
            Playout {
                score: 448,
                moves: 74,
                max_tile: 32,
            },
        ),
        (
            4,
            1,
            Playout {
                score: 1232,
                moves: 129,
                max_tile: 128,
            },
        ),
        (
            4,
            2,
            Playout {
                score: 1496,
                moves: 153,
                max_tile: 128,
            },
        ),
        (
            5,
            0,
            Playout {
                score: 4260,
                moves: 373,
                max_tile: 256,
            },
        ),
        (
            6,
            0,
            Playout {
                score: 158832,
                moves: 6708,
                max_tile: 8192,
            },
        ),
    ];
    for (size, seed, expected) in golden {
        assert_eq!(play(size, seed), expected, "size {size}, seed {seed}");
    }
    assert_eq!(play_random(1), play(4, 1));
}

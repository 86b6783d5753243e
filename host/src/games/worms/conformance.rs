//! Seeded random playouts on every example map, checking after every turn what must always hold:
//! each worm is three distinct, orthogonally connected cells on free ground facing from its middle
//! to its head; no two worms overlap and the board's cells agree with the worms; worm counts only
//! fall, and only the mover's; a pass happens only without a legal move; and the game ends within
//! its turn limit with an outcome that fits the position. Each game is played twice, once through
//! the random player's unchecked path and once through the checked [`Game::apply`] and
//! [`Game::pass`], and the two must agree turn by turn.
//!
//! Every game is seeded (game `i` with `derive_seed(map seed, i)`), so a failure reproduces exactly.

use std::collections::HashSet;

use super::board::{FREE, HOLE, WALL, WORM};
use super::map_tests::example_maps;
use super::*;
use crate::games::{derive_seed, rng};

/// Checks the worms and the board's cells of `game` on `map`.
fn check_position(game: &Game, map: &Map) {
    let board = game.board();
    let mut taken = HashSet::new();
    for id in 0..board.worm_total() {
        let Some((cells, direction)) = board.worm_cells(id) else {
            continue;
        };
        for pos in cells {
            assert!(
                pos.0 < map.height() && pos.1 < map.width(),
                "worm {id} off the grid"
            );
            assert_eq!(map.terrain(pos), Terrain::Free, "worm {id} on {pos:?}");
            assert!(taken.insert(pos), "two worms on {pos:?}");
        }
        let adjacent = |p: Pos, q: Pos| p.0.abs_diff(q.0) + p.1.abs_diff(q.1) == 1;
        assert!(
            adjacent(cells[0], cells[1]) && adjacent(cells[1], cells[2]),
            "worm {id} broken: {cells:?}"
        );
        assert_ne!(cells[0], cells[2], "worm {id} folded");
        let (dr, dc) = direction.delta();
        let ahead = (cells[1].0 as i32 + dr, cells[1].1 as i32 + dc);
        assert_eq!(
            ahead,
            (cells[0].0 as i32, cells[0].1 as i32),
            "worm {id} faces away from its head"
        );
    }
    for row in 0..map.height() {
        for col in 0..map.width() {
            let expected = match map.terrain((row, col)) {
                Terrain::Obstacle => WALL,
                Terrain::Hole => HOLE,
                Terrain::Free if taken.contains(&(row, col)) => WORM,
                Terrain::Free => FREE,
            };
            assert_eq!(
                board.cells[board.index((row, col))],
                expected,
                "cell {row},{col}"
            );
        }
    }
    let on_board = |seat| {
        board
            .ids(seat)
            .filter(|&id| board.worm_cells(id).is_some())
            .count()
    };
    assert_eq!(
        [game.worms_left(0), game.worms_left(1)],
        [on_board(0), on_board(1)]
    );
}

/// Checks that `outcome` follows from the position it was reached in.
fn check_outcome(game: &Game, outcome: Outcome, last: Played) {
    let counts = [game.worms_left(0), game.worms_left(1)];
    let by_count = match counts[0].cmp(&counts[1]) {
        std::cmp::Ordering::Less => Verdict::Win(0),
        std::cmp::Ordering::Greater => Verdict::Win(1),
        std::cmp::Ordering::Equal => Verdict::Draw,
    };
    let stuck = !game.board().can_move(0) && !game.board().can_move(1);
    let at_limit = game.turn() == game.turn_limit();
    match outcome.reason {
        EndReason::AllWormsHome => {
            assert_eq!(outcome.result, Verdict::Win(last.seat));
            assert_eq!(counts[last.seat], 0);
        }
        EndReason::Deadlock => assert!(stuck && !at_limit && outcome.result == Verdict::Draw),
        EndReason::TurnLimit => assert!(at_limit && !stuck && outcome.result == by_count),
        EndReason::DeadlockOnLastTurn => assert!(at_limit && stuck && outcome.result == by_count),
    }
}

/// Plays game `seed` on `map` at random to its end, checking every turn; returns the outcome and
/// the number of turns.
fn play_checked(map: &Map, seed: u64) -> (Outcome, u32) {
    let mut game = Game::new(map);
    let mut checked = game.clone();
    let (mut player, mut moves) = (rng(seed), MoveList::new());
    check_position(&game, map);
    let mut last = None;
    while let Some(played) = game.step_random(&mut player, &mut moves) {
        let before = [checked.worms_left(0), checked.worms_left(1)];
        assert_eq!(played.seat, checked.to_move());
        match played.action {
            Some(action) => checked.apply(action).unwrap(),
            None => {
                assert_eq!(
                    checked.legal_moves(played.seat),
                    [],
                    "passed with moves left"
                );
                checked.pass().unwrap();
            }
        }
        assert_eq!(game, checked, "seed {seed}, turn {}", game.turn());
        let after = [game.worms_left(0), game.worms_left(1)];
        let other = 1 - played.seat;
        assert!(
            after[played.seat] + 1 >= before[played.seat]
                && after[played.seat] <= before[played.seat]
        );
        assert_eq!(
            after[other], before[other],
            "the waiting player lost a worm"
        );
        assert!(game.turn() <= game.turn_limit());
        check_position(&game, map);
        last = Some(played);
    }
    let outcome = game.outcome().expect("a finished game has an outcome");
    if let Some(last) = last {
        check_outcome(&game, outcome, last);
    }
    (outcome, game.turn())
}

#[test]
fn random_playouts_on_every_example_map_keep_the_invariants() {
    let mut reasons = HashSet::new();
    for (name, map) in example_maps() {
        let games = if map.worms().len() > 20 { 20 } else { 100 };
        let map_seed = name.bytes().fold(0, |h, b| h * 31 + u64::from(b));
        for i in 0..games {
            let (outcome, turns) = play_checked(&map, derive_seed(map_seed, i));
            assert!(turns <= map.turns(), "{name}: {turns} turns");
            reasons.insert(outcome.reason);
        }
    }
    // The playouts reach the ends the rules name; a deadlock on the very last turn is too rare
    // for random play and has its own test.
    for reason in [
        EndReason::AllWormsHome,
        EndReason::Deadlock,
        EndReason::TurnLimit,
    ] {
        assert!(reasons.contains(&reason), "no game ended by {reason:?}");
    }
}

#[test]
fn a_random_game_is_reproducible_from_its_seed() {
    let map = &example_maps()[0].1;
    for seed in [0, 1, u64::MAX] {
        let play = || Game::new(map).play_random(&mut rng(seed));
        assert_eq!(play(), play());
    }
}

#[test]
fn golden_random_games_keep_their_outcome() {
    // Pinned ends of seeded random games: the outcome, the turns played and the worms left. A
    // change here means the rules, the order of the legal moves or the generator changed, and
    // with them every recorded game.
    use EndReason::{AllWormsHome as Home, Deadlock, TurnLimit as Limit};
    use Verdict::{Draw, Win};
    let golden = [
        ("tutorial.txt", 0, Draw, Limit, 40, [1, 1]),
        ("tutorial.txt", 1, Win(1), Home, 36, [1, 0]),
        ("tutorial.txt", 2, Win(1), Home, 8, [1, 0]),
        ("arena.txt", 0, Win(1), Limit, 300, [6, 5]),
        ("arena.txt", 2, Win(0), Limit, 300, [5, 6]),
        ("maze.txt", 0, Draw, Deadlock, 204, [6, 4]),
        ("maze.txt", 1, Draw, Deadlock, 149, [6, 5]),
        ("gates.txt", 0, Draw, Limit, 300, [8, 8]),
        ("pinwheel.txt", 1, Win(1), Limit, 300, [8, 6]),
        ("big.txt", 2, Win(1), Limit, 2000, [20, 19]),
    ];
    let maps = example_maps();
    for (name, seed, result, reason, turns, left) in golden {
        let map = &maps.iter().find(|(n, _)| n == name).unwrap().1;
        let mut game = Game::new(map);
        let outcome = game.play_random(&mut rng(seed));
        let ended = (
            outcome,
            game.turn(),
            [game.worms_left(0), game.worms_left(1)],
        );
        assert_eq!(
            ended,
            (Outcome { result, reason }, turns, left),
            "{name}, seed {seed}"
        );
    }
}

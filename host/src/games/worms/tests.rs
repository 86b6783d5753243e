//! The Wormworld rule book as tests, part one: how worms move. One named test for each rule and edge
//! case of `docs/worms.md` about moving (turning relative to the head, blocking by the border, an
//! obstacle, an own or a foreign worm, a tail; falling into the hole), each a table of small maps.
//! Turns and the end of the game are in `end_tests.rs`, the seeded random playouts in
//! `conformance.rs`, the map format in `map_tests.rs`.
//!
//! Maps are written compactly: the grid's rows joined by `/`, then the `heads` entries, as in
//! `game(10, "AAA../..O../..aaa", "A:left a:right")`.

use super::*;
use Direction::{Down, Left as West, Right as East, Up};
use Turn::{Forward, Left, Right};

/// A game with the turn limit `turns` on `grid` (rows joined by `/`) with the `heads` entries.
pub(super) fn game(turns: u32, grid: &str, heads: &str) -> Game {
    let text = format!(
        "turns {turns}\n{}\nheads {heads}\n",
        grid.replace('/', "\n")
    );
    let map = Map::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Game::new(&map)
}

/// The worm drawn with `letter`, if it is still on the board.
pub(super) fn worm(game: &Game, letter: char) -> Option<Worm> {
    let worms = game.observation(0).worms;
    worms.into_iter().find(|w| w.letter == letter)
}

/// The move `turn` of the worm drawn with `letter`.
pub(super) fn by(game: &Game, letter: char, turn: Turn) -> Move {
    let id = worm(game, letter).expect("the worm is on the board").id;
    Move { worm: id, turn }
}

/// A vertical worm A in an open grid, a horizontal one, and a bent one whose head (2,3) is above
/// its middle, so that it faces up whatever its tail does; player 2's worm is out of the way.
const VERTICAL: &str = "......./......./...A.../...A.../...A.../......./O...aaa";
const HORIZONTAL: &str = "......./......./......./..AAA../......./......./O...aaa";
const BENT: &str = "......./......./...A.../..AA.../......./......./O...aaa";

/// Moves worm A, facing `facing` on `grid`, by `turn`, and checks its new head and direction, that
/// the body followed the head, and that the old tail cell was freed.
fn check_turn(grid: &str, facing: &str, turn: Turn, head: [u32; 2], direction: Direction) {
    let mut game = game(10, grid, &format!("A:{facing} a:right"));
    let before = worm(&game, 'A').unwrap();
    game.apply(by(&game, 'A', turn)).unwrap();
    let after = worm(&game, 'A').unwrap();
    let case = format!("facing {facing}, {turn:?}");
    let moved = [head, before.cells[0], before.cells[1]];
    assert_eq!((after.cells, after.direction), (moved, direction), "{case}");
    let [row, col] = before.cells[2];
    assert_eq!(game.observation(0).cell(row, col), Some('.'), "{case}");
}

#[test]
fn turning_is_relative_to_the_direction_the_head_faces() {
    let cases = [
        (VERTICAL, "up", Left, [2, 2], West),
        (VERTICAL, "up", Forward, [1, 3], Up),
        (VERTICAL, "up", Right, [2, 4], East),
        (VERTICAL, "down", Left, [4, 4], East),
        (VERTICAL, "down", Forward, [5, 3], Down),
        (VERTICAL, "down", Right, [4, 2], West),
        (HORIZONTAL, "right", Left, [2, 4], Up),
        (HORIZONTAL, "right", Forward, [3, 5], East),
        (HORIZONTAL, "right", Right, [4, 4], Down),
        (HORIZONTAL, "left", Left, [4, 2], Down),
        (HORIZONTAL, "left", Forward, [3, 1], West),
        (HORIZONTAL, "left", Right, [2, 2], Up),
        (BENT, "up", Left, [2, 2], West),
        (BENT, "up", Forward, [1, 3], Up),
        (BENT, "up", Right, [2, 4], East),
    ];
    for (grid, facing, turn, head, direction) in cases {
        check_turn(grid, facing, turn, head, direction);
    }
}

/// Checks that worm A (player 1's, to move) may make exactly the turns `legal`, and that the
/// engine refuses the others as blocked and leaves the game as it was.
fn check_legal(grid: &str, heads: &str, legal: &[Turn]) {
    let mut game = game(10, grid, heads);
    let id = worm(&game, 'A').unwrap().id;
    let expected: Vec<Move> = legal.iter().map(|&turn| Move { worm: id, turn }).collect();
    let mut moves = game.legal_moves(0);
    moves.retain(|m| m.worm == id);
    assert_eq!(moves, expected, "{grid}");
    for turn in Turn::ALL.into_iter().filter(|t| !legal.contains(t)) {
        let before = game.clone();
        let refused = game.apply(Move { worm: id, turn });
        assert_eq!(refused, Err(IllegalMove::Blocked { worm: id, turn }));
        assert_eq!(game, before, "a refused move changes nothing");
    }
}

#[test]
fn a_move_is_blocked_by_the_border() {
    check_legal(
        "..A../..A../..A../...../O.aaa",
        "A:up a:right",
        &[Left, Right],
    );
    check_legal("A..../A..../A..../...../O.aaa", "A:up a:right", &[Right]);
    check_legal("...../...../O.aaa/...../AAA..", "A:left a:right", &[Right]);
    check_legal(
        "....A/....A/....A/...../O.aaa",
        "A:down a:right",
        &[Forward, Right],
    );
}

#[test]
fn a_move_is_blocked_by_an_obstacle() {
    check_legal(
        "..#../..A../..A../..A../O.aaa",
        "A:up a:right",
        &[Left, Right],
    );
    check_legal("..#../.#A#./..A../..A../O.aaa", "A:up a:right", &[]);
}

#[test]
fn a_move_is_blocked_by_an_own_worm() {
    check_legal(
        "BBB../.A.../.A.../.A.../O.aaa",
        "A:up a:right B:left",
        &[Left, Right],
    );
    check_legal(
        "...../BA.../BA.../BA.../O.aaa",
        "A:up a:right B:up",
        &[Forward, Right],
    );
}

#[test]
fn a_move_is_blocked_by_a_foreign_worm() {
    check_legal(
        "aaa../.A.../.A.../.A.../O....",
        "A:up a:left",
        &[Left, Right],
    );
    check_legal(
        "...../.Aa../.Aa../.Aa../O....",
        "A:up a:up",
        &[Left, Forward],
    );
}

#[test]
fn a_move_is_blocked_by_a_tail() {
    // The cell ahead of A's head is the tail of B, then of b: a tail is a worm cell like any other
    // while the move is checked.
    check_legal(
        ".BBB./.A.../.A.../.A.../O.aaa",
        "A:up a:right B:right",
        &[Left, Right],
    );
    check_legal(
        ".bbb./.A.../.A.../.A.../O.aaa",
        "A:up a:right b:right",
        &[Left, Right],
    );
}

#[test]
fn a_worm_can_never_reach_its_own_tail() {
    // Every shape of a three-cell worm, each way round: the tail is never one of the three cells
    // the head can enter, so in an open grid all three moves are legal.
    let shapes = [
        ("..A../..A../..A..", "up"),
        ("..A../..A../..A..", "down"),
        ("...../.AAA./.....", "left"),
        ("...../.AAA./.....", "right"),
        ("..A../..AA./.....", "up"),
        ("..A../..AA./.....", "right"),
        ("...../.AA../..A..", "left"),
        ("...../.AA../..A..", "down"),
    ];
    for (shape, facing) in shapes {
        let grid = format!("...../{shape}/...../O.aaa");
        let game = game(10, &grid, &format!("A:{facing} a:right"));
        let a = worm(&game, 'A').unwrap();
        let tail = a.cells[2].map(|x| x as i32);
        for turn in Turn::ALL {
            let (dr, dc) = a.direction.turned(turn).delta();
            let target = [a.head()[0] as i32 + dr, a.head()[1] as i32 + dc];
            assert_ne!(target, tail, "{shape} facing {facing}, {turn:?}");
        }
        assert_eq!(game.legal_moves(0).len(), 3, "{shape} facing {facing}");
    }
}

#[test]
fn a_worm_that_enters_the_hole_leaves_the_board_and_frees_all_its_cells() {
    // B's way is blocked by A's tail until A falls.
    let mut game = game(10, "AAAO./B..../B..../B..../..aaa", "A:right B:up a:right");
    assert!(!game.legal_moves(0).contains(&by(&game, 'B', Forward)));
    game.apply(by(&game, 'A', Forward)).unwrap();
    assert_eq!(worm(&game, 'A'), None);
    assert_eq!(game.observation(0).board[0], "...O.");
    assert_eq!((game.worms_left(0), game.worms_left(1)), (1, 1));
    assert_eq!(game.outcome(), None);
    game.apply(by(&game, 'a', Left)).unwrap();
    let fallen = Move {
        worm: 0,
        turn: Forward,
    };
    assert_eq!(game.apply(fallen), Err(IllegalMove::Fallen { worm: 0 }));
    game.apply(by(&game, 'B', Forward)).unwrap();
    assert_eq!(worm(&game, 'B').unwrap().head(), [0, 0]);
}

#[test]
fn refused_moves_say_why() {
    let cases = [
        (IllegalMove::GameOver, "the game is over"),
        (IllegalMove::NoSuchWorm { worm: 9 }, "there is no worm 9"),
        (
            IllegalMove::NotYours { worm: 3, seat: 1 },
            "worm 3 is not player 2's",
        ),
        (
            IllegalMove::Fallen { worm: 2 },
            "worm 2 has fallen into the hole",
        ),
        (
            IllegalMove::Blocked {
                worm: 0,
                turn: Left,
            },
            "worm 0 cannot go left: the cell is outside the grid, an obstacle or a worm",
        ),
        (
            IllegalMove::PassWithMoves { seat: 0, moves: 2 },
            "player 1 cannot pass with 2 legal moves",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn the_observation_has_the_documented_json_shape() {
    let map = Map::parse(include_str!("../../../../examples/worms/tutorial.txt")).unwrap();
    let json = serde_json::to_value(Game::new(&map).observation(1)).unwrap();
    let expected = serde_json::json!({
        "you": 1, "turn": 0, "turn_limit": 40, "width": 7, "height": 7,
        "board": ["AAA....", ".......", "..#.#..", "...O...", "..#.#..", ".......", "....aaa"],
        "hole": [3, 3],
        "obstacles": [[2, 2], [2, 4], [4, 2], [4, 4]],
        "worms": [
            {"id": 0, "owner": 0, "letter": "A", "cells": [[0, 2], [0, 1], [0, 0]],
             "direction": "right"},
            {"id": 1, "owner": 1, "letter": "a", "cells": [[6, 4], [6, 5], [6, 6]],
             "direction": "left"},
        ],
        "legal": [{"worm": 1, "turn": "forward"}, {"worm": 1, "turn": "right"}],
    });
    assert_eq!(json, expected);
}

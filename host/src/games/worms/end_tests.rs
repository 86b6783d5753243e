//! The Wormworld rule book as tests, part two: turns and the end of the game. One named test for
//! each rule and edge case of `docs/worms.md` about them: player 1 moves first, a player without a
//! move must pass and may not pass otherwise, all worms home wins, a deadlock draws, the turn limit
//! (passes counted) goes to fewer worms or draws, and a deadlock on the last turn goes to fewer
//! worms. Maps are written as in `tests.rs`; a game's turns as `"A:forward pass a:left"`.

use super::tests::{by, game};
use super::*;
use EndReason::{AllWormsHome as Home, Deadlock, DeadlockOnLastTurn as LastDeadlock, TurnLimit};
use Verdict::{Draw, Win};

/// Player 2's only worm is walled in from the start; player 1's roams free.
const P2_WALLED_IN: &str = "A..../A..../A...a/...#a/O..#a";

/// Plays `turns` (`X:turn` or `pass`, for the player to move) on a game from `game`.
fn play(game: &mut Game, turns: &str) {
    for token in turns.split_whitespace() {
        assert_eq!(game.outcome(), None, "over before {token}");
        if token == "pass" {
            game.pass().unwrap();
        } else {
            let (letter, turn) = token.split_once(':').unwrap();
            let turn = Turn::from_name(turn).unwrap();
            let action = by(game, letter.chars().next().unwrap(), turn);
            game.apply(action).unwrap();
        }
    }
}

#[test]
fn player_1_moves_first_and_the_players_alternate() {
    let mut game = game(10, "...../...A./...A./...A./O.aaa", "A:up a:right");
    assert_eq!(game.to_move(), 0);
    let theirs = by(&game, 'a', Turn::Left);
    assert_eq!(
        game.apply(theirs),
        Err(IllegalMove::NotYours { worm: 1, seat: 0 })
    );
    play(&mut game, "A:forward");
    assert_eq!(game.to_move(), 1);
    let mine = by(&game, 'A', Turn::Forward);
    assert_eq!(
        game.apply(mine),
        Err(IllegalMove::NotYours { worm: 0, seat: 1 })
    );
    play(&mut game, "a:left");
    assert_eq!((game.to_move(), game.turn()), (0, 2));
    let nobody = Move {
        worm: 2,
        turn: Turn::Left,
    };
    assert_eq!(game.apply(nobody), Err(IllegalMove::NoSuchWorm { worm: 2 }));
}

#[test]
fn a_player_with_no_legal_move_must_pass() {
    let mut game = game(10, P2_WALLED_IN, "A:down a:down");
    play(&mut game, "A:forward");
    assert_eq!((game.to_move(), game.legal_moves(1)), (1, vec![]));
    assert_eq!(game.observation(1).legal, []);
    let stuck = by(&game, 'a', Turn::Right);
    let refused = IllegalMove::Blocked {
        worm: 1,
        turn: Turn::Right,
    };
    assert_eq!(game.apply(stuck), Err(refused));
    game.pass().unwrap();
    assert_eq!((game.turn(), game.to_move(), game.outcome()), (2, 0, None));
}

#[test]
fn passing_is_refused_while_a_move_exists() {
    let mut game = game(10, P2_WALLED_IN, "A:down a:down");
    let before = game.clone();
    let moves = game.legal_moves(0).len();
    assert_eq!(
        game.pass(),
        Err(IllegalMove::PassWithMoves { seat: 0, moves })
    );
    assert_eq!(game, before);
}

/// Plays `turns` on a game with the turn limit `limit` and checks that it ends, after the last of
/// them, with `result` for `reason`.
fn check_end(limit: u32, grid: &str, heads: &str, turns: &str, result: Verdict, reason: EndReason) {
    let mut game = game(limit, grid, heads);
    play(&mut game, turns);
    let expected = Outcome { result, reason };
    assert_eq!(
        game.outcome(),
        Some(expected),
        "{grid}, limit {limit}, {turns}"
    );
    assert_eq!(
        game.legal_moves(game.to_move()),
        [],
        "no moves after the end"
    );
    assert_eq!(game.pass(), Err(IllegalMove::GameOver));
    let any = Move {
        worm: 0,
        turn: Turn::Forward,
    };
    assert_eq!(game.apply(any), Err(IllegalMove::GameOver));
}

#[test]
fn the_first_player_with_all_worms_in_the_hole_wins() {
    check_end(
        10,
        "AAAO./...../..aaa",
        "A:right a:left",
        "A:forward",
        Win(0),
        Home,
    );
    check_end(
        10,
        "AAA../..O../..aaa",
        "A:left a:left",
        "A:left a:right",
        Win(1),
        Home,
    );
    // Two worms: the first to fall does not end the game.
    let grid = "AAAO./..BBB/...../..aaa";
    check_end(
        10,
        grid,
        "A:right B:left a:left",
        "A:forward a:forward B:right a:forward B:right",
        Win(0),
        Home,
    );
    // Winning on the last allowed turn is winning: the limit applies when nobody has won.
    check_end(
        1,
        "AAAO./...../bbbaa/....a",
        "A:right a:left b:left",
        "A:forward",
        Win(0),
        Home,
    );
}

/// Worm A has one move left, into a dead end, and player 2 is walled in: with one worm, with a
/// second walled-in worm b, and with A stuck from the start.
const DEADLOCK_ONE: &str = "#.###a#/#A###a#/#A###a#/#A#####/...O...";
const DEADLOCK_TWO: &str = "#.#b#a#/#A#b#a#/#A#b#a#/#A#####/...O...";
const STUCK_AT_START: &str = "###b#a#/#A#b#a#/#A#b#a#/#A#####/...O...";

#[test]
fn a_deadlock_is_a_draw_whatever_the_worm_counts() {
    check_end(10, DEADLOCK_ONE, "A:up a:down", "A:forward", Draw, Deadlock);
    check_end(
        10,
        DEADLOCK_TWO,
        "A:up a:down b:down",
        "A:forward",
        Draw,
        Deadlock,
    );
    check_end(10, STUCK_AT_START, "A:up a:down b:down", "", Draw, Deadlock);
}

#[test]
fn at_the_turn_limit_fewer_worms_wins() {
    let grid = "......./.AAA.../...O.../.bbbaaa/.......";
    check_end(
        2,
        grid,
        "A:right a:right b:left",
        "A:forward a:left",
        Win(0),
        TurnLimit,
    );
    let grid = "......./.AAABBB/...O.../...aaa./.......";
    let turns = "A:left a:forward B:right";
    check_end(3, grid, "A:left B:right a:right", turns, Win(1), TurnLimit);
}

#[test]
fn at_the_turn_limit_equal_worm_counts_draw() {
    let grid = "......./.AAA.../...O.../...aaa./.......";
    check_end(
        2,
        grid,
        "A:right a:right",
        "A:forward a:forward",
        Draw,
        TurnLimit,
    );
}

#[test]
fn the_turn_limit_counts_passes() {
    let turns = "A:forward pass A:left pass";
    check_end(4, P2_WALLED_IN, "A:down a:down", turns, Draw, TurnLimit);
}

#[test]
fn a_deadlock_on_the_last_turn_is_won_by_fewer_worms() {
    check_end(
        1,
        DEADLOCK_ONE,
        "A:up a:down",
        "A:forward",
        Draw,
        LastDeadlock,
    );
    check_end(
        1,
        DEADLOCK_TWO,
        "A:up a:down b:down",
        "A:forward",
        Win(0),
        LastDeadlock,
    );
}

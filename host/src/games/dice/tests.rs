//! Every rule of `docs/dice.md` on a hand-built position, one table per kind of rule.
//!
//! Positions are written `"0 12 / 35"`: seat 0's pieces on the board, a slash, seat 1's; pieces not
//! listed wait on B; goal fields may be written `a`..`d`. Moves are written `12-18`, or `B-0` for a
//! piece brought in. Lists of moves are frontmost first, so the strict move is the first one.

use super::game::{Next, after};
use super::*;
use crate::games::rng;

fn step(token: &str) -> u8 {
    match token {
        "a" | "b" | "c" | "d" => TRACK + (token.as_bytes()[0] - b'a'),
        _ => token
            .parse()
            .unwrap_or_else(|_| panic!("not a step: {token}")),
    }
}

/// A position in the notation above.
pub(super) fn pos(text: &str) -> Position {
    let (a, b) = text.split_once('/').expect("two seats split by /");
    let steps = |s: &str| s.split_whitespace().map(step).collect::<Vec<_>>();
    Position::from_steps([&steps(a), &steps(b)]).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn show(mv: Move) -> String {
    match mv.from {
        Place::Waiting => format!("B-{}", mv.to),
        Place::Step(s) => format!("{s}-{}", mv.to),
    }
}

fn die(faces: &[u64]) -> Die {
    Die::new(faces.to_vec()).unwrap()
}

/// The legal moves of `seat` for `roll`, written as above.
fn moves(position: &str, seat: Seat, roll: u8) -> String {
    let list = pos(position).legal_moves(seat, roll);
    list.into_iter().map(show).collect::<Vec<_>>().join(" ")
}

#[test]
fn legal_moves_follow_the_rules() {
    // position, seat, roll, the legal moves frontmost first, why
    #[rustfmt::skip]
    let cases: &[(&str, Seat, u8, &str, &str)] = &[
        ("0 / 0", 0, 6, "0-6", "a 6 first moves the own piece off A"),
        ("0 / 0", 1, 6, "0-6", "the same for seat 1"),
        ("12 / 0", 0, 6, "B-0", "a 6 with A free brings a piece in, not the front piece"),
        ("0 6 / 0", 0, 6, "6-12", "A piece blocked: the 6 moves what can move"),
        ("0 6 12 / 0", 0, 6, "12-18", "A piece blocked, 6-12 blocked too"),
        ("0 30 / 0", 0, 3, "0-3", "pieces wait on B: A is left on any roll"),
        ("0 3 30 / 0", 0, 3, "30-33 3-6", "A cannot be left with this roll"),
        ("0 10 20 30 / 25", 0, 3, "30-33 20-23 10-13 0-3", "none on B: A may stay"),
        ("0 10 20 30 / 25", 0, 6, "30-36 20-26 10-16 0-6", "none on B: a 6 is any move"),
        ("41 10 / 25", 0, 1, "41-42 10-11", "goal pieces are the frontmost"),
        ("41 10 / 25", 0, 2, "41-43 10-12", "a goal piece moves on inside the goal"),
        ("39 / 25", 0, 4, "39-43", "goal fields are counted exactly: d with a 4"),
        ("39 / 25", 0, 5, "", "no move past d"),
        ("36 / 25", 0, 7, "36-43", "from the track into the goal"),
        ("40 41 / 25", 0, 2, "41-43 40-42", "jumps inside the goal"),
        ("40 41 42 / 25", 0, 3, "40-43", "a jump over two goal pieces"),
        ("40 41 42 43 / 25", 0, 1, "", "a full goal cannot move"),
        ("10 12 / 25", 0, 2, "12-14", "never onto an own piece"),
        ("10 12 / 33", 0, 4, "12-16 10-14", "own and foreign pieces are jumped over"),
        ("10 20 / 35", 0, 5, "20-25 10-15", "a capture is one choice among others"),
        ("0 / 0", 0, 0, "", "a 0 moves nothing"),
        ("0 10 20 30 / 25", 0, 44, "", "a face past the goal moves nothing"),
        ("/ 0", 0, 5, "", "all on B: only a 6 can move"),
        ("/ 0", 0, 6, "B-0", "all on B: a 6 brings one in"),
    ];
    for &(position, seat, roll, expected, why) in cases {
        assert_eq!(
            moves(position, seat, roll),
            expected,
            "{why}: {position}, seat {seat} rolls {roll}"
        );
    }
}

#[test]
fn the_strict_move_is_the_first_legal_move() {
    for &(position, roll) in &[("0 10 20 30 / 25", 3), ("41 10 / 25", 1), ("0 3 30 / 0", 3)] {
        let p = pos(position);
        let list = p.legal_moves(0, roll);
        assert_eq!(p.moves(0, roll).frontmost(), list.first().copied());
    }
}

#[test]
fn moves_change_the_position_as_the_rules_say() {
    // position, seat, the move (from-to), position after it, captured?, why
    #[rustfmt::skip]
    let cases: &[(&str, Seat, &str, &str, bool, &str)] = &[
        ("10 / 35", 0, "10-15", "15 /", true, "a capture sends the piece to B"),
        ("10 / 25", 1, "25-30", "/ 30", true, "seat 1 captures seat 0"),
        ("12 / 20", 0, "B-0", "0 12 /", true, "a foreign piece on A is captured by the entry"),
        ("10 20 / 35", 0, "20-25", "10 25 / 35", false, "no capture unless moved onto"),
        ("38 / a", 0, "38-40", "a / a", false, "no captures in the goal"),
        ("18 / 0", 0, "18-22", "22 / 0", false, "pieces jump over foreign pieces"),
        ("0 / 0", 0, "0-6", "6 / 0", false, "a plain move"),
    ];
    for &(before, seat, mv, after, captured, why) in cases {
        let mut p = pos(before);
        let (from, to) = mv.split_once('-').unwrap();
        let from = if from == "B" {
            Place::Waiting
        } else {
            Place::Step(step(from))
        };
        let mv = Move { from, to: step(to) };
        let roll = match from {
            Place::Waiting => SIX,
            Place::Step(s) => mv.to - s,
        };
        assert!(
            p.moves(seat, roll).contains(mv),
            "{why}: {mv:?} is not legal"
        );
        assert_eq!(p.captures(seat, mv), captured, "{why}");
        assert_eq!(p.apply(seat, mv), captured, "{why}");
        assert_eq!(p, pos(after), "{why}");
    }
}

/// Dice written `std / 0 0`: seat 0's faces, a slash, seat 1's; `std` is 1 to 6.
fn dice(text: &str) -> [Die; 2] {
    let faces = |s: &str| match s.trim() {
        "std" => Die::standard(),
        s => die(&s
            .split_whitespace()
            .map(|f| f.parse().unwrap())
            .collect::<Vec<_>>()),
    };
    let (a, b) = text.split_once('/').expect("two dice split by /");
    [faces(a), faces(b)]
}

/// What follows a roll, written `roll 0` (seat 0 rolls next), `won 1`, `deadlock` or `endless`.
fn next(text: &str) -> Next {
    match text.split_once(' ') {
        Some(("roll", seat)) => Next::Roll(seat.parse().unwrap()),
        Some(("won", seat)) => Next::End(End::Won(seat.parse().unwrap())),
        _ if text == "deadlock" => Next::End(End::Draw(DrawReason::Deadlock)),
        _ if text == "endless" => Next::End(End::Draw(DrawReason::EndlessTurn)),
        _ => panic!("not a next: {text}"),
    }
}

#[test]
fn turns_follow_the_rules() {
    // position after the move (if any), dice, seat, roll, moved?, what follows, why
    #[rustfmt::skip]
    let cases: &[(&str, &str, Seat, u8, bool, &str, &str)] = &[
        ("6 / 0", "std / std", 0, 6, true, "roll 0", "a 6 rolls again"),
        ("5 / 0", "std / std", 0, 5, true, "roll 1", "other faces pass the turn"),
        ("38 39 a b / 25", "std / std", 0, 6, false, "roll 0", "so does an unusable 6"),
        ("/ 0", "std / std", 0, 4, false, "roll 1", "a lost turn"),
        ("a b c d / 25", "std / std", 0, 6, true, "won 0", "a winning 6 ends the game"),
        ("a b c d / 25", "std / std", 0, 2, true, "won 0", "all four home win"),
        ("/ a b c d", "std / std", 1, 1, true, "won 1", "seat 1 wins too"),
        ("0 / 0", "0 / 0", 0, 0, false, "deadlock", "0s only: nobody can move"),
        ("0 / 0", "0 / std", 0, 0, false, "roll 1", "the other player can still move"),
        ("d / d", "1 2 / 5", 1, 5, false, "deadlock", "no face fits either player"),
        ("24 30 36 c / 25", "6 / std", 0, 6, false, "endless", "stuck, and 6s forever"),
        ("24 30 36 c / 24 30 36 c", "6 / 6", 0, 6, false, "deadlock", "both stuck"),
        ("24 30 36 / 25", "6 / std", 0, 6, false, "roll 0", "a 6 can still bring one in"),
    ];
    for &(position, faces, seat, roll, moved, expected, why) in cases {
        let [a, b] = dice(faces);
        let got = after(&pos(position), [&a, &b], seat, roll, moved);
        assert_eq!(got, next(expected), "{why}: {position}, dice {faces}");
    }
}

#[test]
fn hand_built_positions_are_checked() {
    let cases: &[([&[u8]; 2], PositionError)] = &[
        ([&[44], &[]], PositionError::PastGoal { seat: 0, step: 44 }),
        ([&[], &[3, 3]], PositionError::Doubled { seat: 1, step: 3 }),
        (
            [&[1, 2, 3, 4, 5], &[]],
            PositionError::TooMany { seat: 0, count: 5 },
        ),
        ([&[0], &[20]], PositionError::Shared { field: 0 }),
        ([&[25], &[5]], PositionError::Shared { field: 25 }),
    ];
    for (steps, expected) in cases {
        assert_eq!(Position::from_steps(*steps), Err(expected.clone()));
    }
    assert_eq!(
        pos("40 / 40"),
        Position::from_steps([&[40], &[40]]).unwrap()
    );
}

#[test]
fn places_are_listed_frontmost_first_with_b_last() {
    let p = pos("3 b / ");
    let w = Place::Waiting;
    assert_eq!(p.places(0), [Place::Step(41), Place::Step(3), w, w]);
    assert_eq!(p.places(1), [w; 4]);
    assert_eq!((p.waiting(0), p.waiting(1)), (2, 4));
    assert!(p.occupied(0, 41) && !p.occupied(0, 40) && !p.occupied(0, 200));
}

#[test]
fn the_ring_fields_of_the_two_seats_are_twenty_apart() {
    assert_eq!((field(0, 0), field(1, 0)), (0, 20));
    assert_eq!((field(0, 39), field(1, 39)), (39, 19));
    assert_eq!(field(1, 25), 5);
}

#[test]
fn a_game_refuses_what_the_rules_forbid() {
    let mut game = Game::new(die(&[6]), die(&[6]), true, rng(1));
    assert_eq!(game.play(None), Err(IllegalMove::NoRoll));
    assert_eq!(game.roll().map(|r| r.steps), Ok(6));
    assert_eq!(
        game.roll().map(|r| r.steps),
        Ok(6),
        "a waiting roll is not rolled again"
    );
    assert_eq!(game.play(None), Err(IllegalMove::MustMove { steps: 6 }));
    let wrong = Move {
        from: Place::Waiting,
        to: 0,
    };
    assert_eq!(
        game.play(Some(wrong)),
        Err(IllegalMove::NotLegal {
            mv: wrong,
            steps: 6
        })
    );
    let right = Move {
        from: Place::Step(0),
        to: 6,
    };
    let turn = game.play(Some(right)).unwrap();
    assert_eq!(
        (turn.seat, turn.mv, turn.captured, turn.end),
        (0, Some(right), false, None)
    );
    assert_eq!(game.to_move(), 0, "a 6 rolls again");
}

#[test]
fn a_game_ends_and_then_refuses_to_go_on() {
    let mut game = Game::new(die(&[0]), die(&[0]), false, rng(1));
    let turn = game.step_strict().unwrap();
    assert_eq!(turn.seat, 1);
    assert_eq!(turn.end, Some(End::Draw(DrawReason::Deadlock)));
    assert_eq!(game.roll(), Err(IllegalMove::Over));
    assert_eq!(game.play(None), Err(IllegalMove::Over));
    assert_eq!(game.outcome().map(|o| o.turns), Some(1));
}

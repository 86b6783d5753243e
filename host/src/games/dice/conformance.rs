//! Seeded random checks of the whole engine: the bit-mask move generator against a plain reference
//! written from the rule text, invariants along thousands of random games, the fast strict loop
//! against the step-by-step game, the acceptance facts of issue 4, and a golden summary that catches
//! any silent change of the rules.
//!
//! Every check is seeded, so a failure reproduces exactly.

use rand::RngExt;

use super::tests::pos;
use super::*;
use crate::games::{Rng, derive_seed, rng};

fn die(faces: &[u64]) -> Die {
    Die::new(faces.to_vec()).unwrap()
}

/// The legal moves, written plainly from `docs/dice.md` over a list of pieces, frontmost first.
fn reference_moves(p: &Position, seat: Seat, roll: u8) -> Vec<Move> {
    let mine = p.places(seat);
    let on = |s: u32| mine.contains(&Place::Step(s as u8));
    let waiting = mine.contains(&Place::Waiting);
    let by_roll = |from: Place| match from {
        Place::Step(s)
            if roll > 0 && s as u32 + roll as u32 <= 43 && !on(s as u32 + roll as u32) =>
        {
            Some(Move { from, to: s + roll })
        }
        _ => None,
    };
    if waiting && roll == 6 && !on(0) {
        return vec![Move {
            from: Place::Waiting,
            to: 0,
        }];
    }
    if waiting
        && on(0)
        && let Some(mv) = by_roll(Place::Step(0))
    {
        return vec![mv];
    }
    let mut all: Vec<Move> = mine.iter().filter_map(|&from| by_roll(from)).collect();
    all.sort_by_key(|mv| std::cmp::Reverse(mv.from));
    all
}

/// Whether `mv` captures, by ring fields rather than by the engine's step arithmetic.
fn reference_captures(p: &Position, seat: Seat, mv: Move) -> bool {
    let theirs = p.places(1 - seat);
    mv.to < TRACK
        && theirs.iter().any(|&pl| {
            matches!(pl, Place::Step(s) if s < TRACK && field(1 - seat, s) == field(seat, mv.to))
        })
}

/// A random legal position: up to four pieces per seat on distinct steps, no shared ring field.
fn random_position(r: &mut Rng) -> Position {
    loop {
        let mut steps: [Vec<u8>; 2] = Default::default();
        for list in steps.iter_mut() {
            for _ in 0..r.random_range(0..=PIECES) {
                let s = r.random_range(0..=LAST_STEP);
                if !list.contains(&s) {
                    list.push(s);
                }
            }
        }
        if let Ok(p) = Position::from_steps([&steps[0], &steps[1]]) {
            return p;
        }
    }
}

/// A random die: 1 to 8 faces, mostly from 0 to 9 but now and then up to 49, with a 6 most of the time.
fn random_die(r: &mut Rng) -> Die {
    let face = |r: &mut Rng| {
        let top = if r.random_bool(0.05) { 50 } else { 10 };
        r.random_range(0..top)
    };
    let mut faces: Vec<u64> = (0..r.random_range(1..=8)).map(|_| face(r)).collect();
    if r.random_bool(0.8) {
        faces.push(6);
    }
    Die::new(faces).unwrap()
}

#[test]
fn move_generation_agrees_with_the_reference_on_random_positions() {
    let mut r = rng(11);
    for _ in 0..20_000 {
        let p = random_position(&mut r);
        for seat in 0..2 {
            for roll in 0..=45 {
                let moves = p.legal_moves(seat, roll);
                assert_eq!(
                    moves,
                    reference_moves(&p, seat, roll),
                    "{p:?} seat {seat} roll {roll}"
                );
                for mv in moves {
                    assert_eq!(
                        p.captures(seat, mv),
                        reference_captures(&p, seat, mv),
                        "{p:?} {mv:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn can_move_agrees_with_trying_every_face() {
    let mut r = rng(15);
    for _ in 0..20_000 {
        let (p, d) = (random_position(&mut r), random_die(&mut r));
        for seat in 0..2 {
            let any = d.movers().iter().any(|&f| !p.moves(seat, f).is_empty());
            assert_eq!(p.can_move(seat, &d), any, "{p:?} seat {seat} die {d}");
        }
    }
}

/// The invariants of a position: four pieces a seat, one per step, none past d, no shared field.
fn check_invariants(p: &Position) {
    for seat in 0..2 {
        let places = p.places(seat);
        let on_board = places.iter().filter(|pl| **pl != Place::Waiting).count();
        assert_eq!(on_board + p.waiting(seat), PIECES, "{p:?}");
    }
    let steps = |seat| -> Vec<u8> {
        let places = p.places(seat);
        places
            .iter()
            .filter_map(|pl| match pl {
                Place::Step(s) => Some(*s),
                Place::Waiting => None,
            })
            .collect()
    };
    let (a, b) = (steps(0), steps(1));
    assert_eq!(
        Position::from_steps([&a, &b]).as_ref(),
        Ok(p),
        "{p:?} is not a legal position"
    );
}

/// Plays one free-variant game with uniformly random choices, checking every turn.
fn random_free_game(a: &Die, b: &Die, a_starts: bool, seed: u64) -> Outcome {
    let mut game = Game::new(a.clone(), b.clone(), a_starts, rng(seed));
    let mut chooser = rng(derive_seed(seed, 1000));
    while game.roll().is_ok() {
        let before = *game.position();
        let seat = game.to_move();
        let steps = game.pending().unwrap().steps;
        let list = game.legal_moves();
        assert_eq!(list, reference_moves(&before, seat, steps));
        let mv = (!list.is_empty()).then(|| list[chooser.random_range(0..list.len())]);
        let turn = game.play(mv).unwrap();
        assert_eq!(
            turn.captured,
            mv.is_some_and(|m| reference_captures(&before, seat, m))
        );
        check_invariants(game.position());
    }
    game.outcome().unwrap()
}

#[test]
fn random_games_keep_the_invariants_and_end() {
    let mut r = rng(12);
    for seed in 0..1_500 {
        let (a, b) = (random_die(&mut r), random_die(&mut r));
        let outcome = random_free_game(&a, &b, seed % 2 == 0, seed);
        let sure_to_finish = [&a, &b]
            .iter()
            .all(|d| d.faces().contains(&1) && d.has_six());
        if sure_to_finish {
            // With a 1 and a 6 every piece can always come home: someone wins.
            assert!(outcome.winner().is_some(), "{a} vs {b}: {outcome:?}");
        }
    }
}

#[test]
fn the_fast_loop_plays_the_same_games_as_the_step_by_step_game() {
    let mut r = rng(13);
    for seed in 0..3_000 {
        let (a, b) = (random_die(&mut r), random_die(&mut r));
        let fast = play_strict(&a, &b, seed % 2 == 1, &mut rng(seed));
        let mut game = Game::new(a.clone(), b.clone(), seed % 2 == 1, rng(seed));
        assert_eq!(game.finish_strict(), fast, "{a} vs {b}, seed {seed}");
    }
}

#[test]
fn a_game_is_a_function_of_its_seed() {
    let (a, b) = (Die::standard(), die(&[1, 1, 1, 6, 6, 6]));
    let play = |seed| play_strict(&a, &b, true, &mut rng(seed));
    let outcomes: Vec<Outcome> = (0..200).map(play).collect();
    assert_eq!(outcomes, (0..200).map(play).collect::<Vec<_>>());
    let turns: std::collections::HashSet<u32> = outcomes.iter().map(|o| o.turns).collect();
    assert!(turns.len() > 50, "different seeds play different games");
}

#[test]
fn a_die_without_a_6_never_wins() {
    let no_six = [
        die(&[1, 2, 3, 4, 5]),
        die(&[2, 3, 4, 5, 7, 8]),
        die(&[0]),
        die(&[1]),
    ];
    let with_six = [
        Die::standard(),
        die(&[1, 1, 1, 6, 6, 6]),
        die(&[6]),
        die(&[0, 6]),
    ];
    for weak in &no_six {
        for strong in &with_six {
            for seed in 0..400 {
                let o = play_strict(weak, strong, seed % 2 == 0, &mut rng(seed));
                assert_ne!(
                    o.winner(),
                    Some(0),
                    "{weak} won against {strong}, seed {seed}"
                );
            }
        }
    }
}

#[test]
fn two_dice_without_a_6_draw_every_game() {
    let no_six = [
        die(&[1, 2, 3, 4, 5]),
        die(&[2, 3, 4, 5, 7, 8]),
        die(&[0]),
        die(&[4, 4]),
    ];
    for a in &no_six {
        for b in &no_six {
            for seed in 0..200 {
                let o = play_strict(a, b, seed % 2 == 0, &mut rng(seed));
                assert_eq!(
                    o.end,
                    End::Draw(DrawReason::Deadlock),
                    "{a} vs {b}, seed {seed}"
                );
            }
        }
    }
}

#[test]
fn a_die_of_zeros_never_moves() {
    let zeros = die(&[0, 0, 0]);
    for other in [Die::standard(), die(&[1, 2, 3]), zeros.clone()] {
        for seed in 0..200 {
            let mut game = Game::new(zeros.clone(), other.clone(), seed % 2 == 0, rng(seed));
            while let Ok(turn) = game.step_strict() {
                assert!(
                    turn.seat == 1 || turn.mv.is_none(),
                    "the 0 die moved: {turn:?}"
                );
            }
            assert_ne!(game.outcome().unwrap().winner(), Some(0));
        }
    }
}

#[test]
fn a_die_of_sixes_ends_in_an_endless_turn_not_at_the_cap() {
    for seed in 0..100 {
        let o = play_strict(&die(&[6]), &Die::standard(), seed % 2 == 0, &mut rng(seed));
        assert_eq!(o.end, End::Draw(DrawReason::EndlessTurn), "seed {seed}");
        assert!(o.turns < 1_000, "seed {seed}: {o:?}");
    }
}

/// A summary of many seeded games between ordinary dice. If it changes, the rules or the random
/// draws changed: make sure that was meant, then update the numbers.
#[test]
fn golden_summary_of_ordinary_games() {
    let (a, b) = (Die::standard(), Die::standard());
    let (mut wins, mut turns) = ([0u32; 2], 0u64);
    for seed in 0..2_000 {
        let o = play_strict(&a, &b, seed % 2 == 0, &mut rng(seed));
        wins[o.winner().expect("ordinary dice always finish")] += 1;
        turns += u64::from(o.turns);
    }
    assert_eq!((wins, turns), ([1017, 983], 243_782));
}

#[test]
fn the_first_player_in_a_position_sees_the_same_list_as_the_strict_rule() {
    // The strict rule is the head of the free list everywhere, not only in the hand-built cases.
    let mut r = rng(14);
    for _ in 0..5_000 {
        let p = random_position(&mut r);
        let roll = r.random_range(0..=12);
        assert_eq!(
            p.moves(0, roll).frontmost(),
            p.legal_moves(0, roll).first().copied()
        );
    }
    assert_eq!(pos("0 / 0").moves(0, 6).len(), 1);
}

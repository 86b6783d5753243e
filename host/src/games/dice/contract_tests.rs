//! Dice through the contract: the registry entry and its variants, seeded random playouts, the same
//! games as the driver and the strict ranking, refusals, what the other seat sees, and forfeits.

use super::*;
use crate::games::derive_seed;
use crate::games::dice::play_strict;

fn start(name: &str, seed: u64) -> Box<dyn Match> {
    RULES.start(&Variant::named(name), 2, seed).unwrap()
}

/// The frontmost legal move, the strict rule's choice: the first the observation lists.
fn frontmost(game: &dyn Match) -> Value {
    let seat = game.turn().unwrap().seat;
    let legal = &game.observation(seat)["legal"][0];
    json!({ "from": legal["from"], "to": legal["to"] })
}

#[test]
fn the_registry_entry() {
    assert_eq!(RULES.name(), "dice");
    assert_eq!(RULES.seats(), Seats::exactly(2));
    let names: Vec<String> = RULES.variants().into_iter().map(|v| v.name).collect();
    assert_eq!(names, ["wuerfel0", "loaded", "no-six", "stalling"]);
    let [a, b] = DiceRules::dice(&Variant::named("wuerfel0")).unwrap();
    assert_eq!(
        (a.faces(), b.faces()),
        (&[1, 2, 3, 4, 5, 6][..], &[1, 1, 1, 6, 6, 6][..])
    );
    let [a, b] = DiceRules::dice(&Variant::named("wuerfel0:6,3")).unwrap();
    assert_eq!((a.faces().len(), b.faces()), (20, &[1, 2, 3, 4][..]));
    let (_, first) = DiceRules::setup(&Variant::named("wuerfel0:6,3@1")).unwrap();
    assert_eq!(first, 1);
    let (_, first) = DiceRules::setup(&Variant::named("loaded")).unwrap();
    assert_eq!(first, 0);
    assert!(!RULES.repeats());
    let err = DiceRules::dice(&Variant::named("wuerfel0:1,7"))
        .err()
        .unwrap();
    assert!(err.contains("die 7") && err.contains("1 to 6"), "{err}");
    let err = DiceRules::dice(&Variant::named("nothing")).err().unwrap();
    assert!(err.contains("wuerfel0"), "{err}");
    let text = Variant {
        name: "mine.txt:2,1".into(),
        text: Some("2\n1 6\n3 1 2 6\n".into()),
    };
    let [a, b] = DiceRules::dice(&text).unwrap();
    assert_eq!((a.faces(), b.faces()), (&[1, 2, 6][..], &[6][..]));
    let bad = Variant {
        name: "bad".into(),
        text: Some("2\n6 1 2 3\n".into()),
    };
    let err = RULES.start(&bad, 2, 0).err().unwrap();
    assert!(err.starts_with("dice file bad: line 2"), "{err}");
    assert!(RULES.start(&Variant::named("wuerfel0"), 4, 0).is_err());
}

#[test]
fn seeded_random_playouts_end_with_one_entry_per_seat() {
    for (i, name) in ["wuerfel0", "loaded:1,3", "no-six:1,4", "stalling:2,3"]
        .into_iter()
        .enumerate()
    {
        for g in 0..20 {
            let seed = derive_seed(derive_seed(0xD1CE, i as u64), g);
            let mut game = start(name, seed);
            let mut player = rng(seed ^ 5);
            while let Some(turn) = game.turn() {
                let obs = game.observation(turn.seat);
                assert!(obs["legal"].as_array().unwrap().len() >= 2, "only choices");
                let action = game.random_action(&mut player).unwrap();
                game.apply(&action).unwrap();
            }
            let outcome = game.outcome().unwrap();
            assert_eq!(outcome.points.len(), 2);
            assert_eq!(outcome.ranks.len(), 2);
        }
    }
}

/// The same seed and the same choices give the engine's game played roll by roll, observation
/// for observation.
#[test]
fn the_contract_plays_the_drivers_game() {
    let dice = file::parse(FILES[0].1).unwrap();
    for g in 0..40 {
        let seed = derive_seed(0xD1CF, g);
        let mut game = start("wuerfel0", seed);
        let mut player = rng(seed ^ 9);
        let mut engine = Game::new(dice[0].clone(), dice[1].clone(), true, rng(seed));
        while engine.roll().is_ok() {
            let seat = engine.to_move();
            let legal = engine.legal_moves();
            let mv = if legal.len() < 2 {
                legal.first().copied()
            } else {
                assert_eq!(game.turn().unwrap().seat as usize, seat);
                let obs = observation(&engine, seat, &legal);
                assert_eq!(
                    game.observation(seat as u32),
                    serde_json::to_value(obs).unwrap()
                );
                let action = game.random_action(&mut player).unwrap();
                let event = game.apply(&action).unwrap();
                let first: crate::play::dice::Turn =
                    serde_json::from_value(event["turns"][0].clone()).unwrap();
                let answer: wire::Move = serde_json::from_value(action).unwrap();
                let mv = legal
                    .iter()
                    .copied()
                    .find(|m| step(m.from) == answer.from && i32::from(m.to) == answer.to);
                assert_eq!(first.mv, mv);
                mv
            };
            engine.play(mv).unwrap();
        }
        assert!(game.turn().is_none());
        assert_eq!(game.state()["turns"], engine.turns());
        let end = engine.outcome().unwrap();
        assert_eq!(
            game.outcome().unwrap().points,
            match end.winner() {
                Some(0) => [1.0, 0.0],
                Some(_) => [0.0, 1.0],
                None => [0.5, 0.5],
            }
        );
    }
}

/// Always choosing the frontmost move plays the strict rule's game, as the ranking counts it,
/// with die A starting (`NAME:A,B`) or die B starting, named either way: `NAME:A,B@1` (die A
/// stays in seat 0) or `NAME:B,A` (seats swapped).
#[test]
fn frontmost_choices_replay_the_strict_ranking() {
    let dice = file::parse(FILES[0].1).unwrap();
    for (a, b) in [(0, 1), (0, 5), (2, 3)] {
        for g in 0..30 {
            let seed = derive_seed(0xD1D0 + a as u64 * 8 + b as u64, g);
            let a_starts = g % 2 == 0;
            let strict = play_strict(&dice[a], &dice[b], a_starts, &mut rng(seed));
            let names = if a_starts {
                vec![(format!("wuerfel0:{},{}", a + 1, b + 1), false)]
            } else {
                vec![
                    (format!("wuerfel0:{},{}", b + 1, a + 1), true),
                    (format!("wuerfel0:{},{}@1", a + 1, b + 1), false),
                ]
            };
            for (name, swapped) in names {
                let mut game = start(&name, seed);
                while game.turn().is_some() {
                    let action = frontmost(game.as_ref());
                    game.apply(&action).unwrap();
                }
                assert_eq!(game.state()["turns"], strict.turns);
                assert_eq!(game.turns(), strict.turns);
                let winner = strict.winner().map(|s| if swapped { 1 - s } else { s });
                let expected = Outcome::two_player(winner.map(|s| s as u32), "");
                assert_eq!(
                    game.outcome().unwrap().points,
                    expected.points,
                    "{name} {g}"
                );
            }
        }
    }
}

#[test]
fn refused_actions_change_nothing() {
    let mut game = start("wuerfel0", 1);
    let seat = game.turn().unwrap().seat;
    let before = game.state();
    let obs = game.observation(seat);
    for garbage in [
        json!("left"),
        json!({"from": 0}),
        json!({"from": "B", "to": 0}),
        json!(null),
        json!(3),
    ] {
        match game.apply(&garbage) {
            Err(Refusal::Malformed(m)) => {
                assert!(
                    m.contains(&shown(&garbage)) && m.contains("\"from\""),
                    "{m}"
                )
            }
            other => panic!("{garbage}: {other:?}"),
        }
        assert_eq!(game.state(), before);
    }
    for illegal in [json!({"from": 40, "to": 99}), json!({"from": -1, "to": 7})] {
        match game.apply(&illegal) {
            Err(Refusal::Illegal(m)) => assert!(m.contains("legal moves"), "{m}"),
            other => panic!("{illegal}: {other:?}"),
        }
        assert_eq!(game.state(), before);
        assert_eq!(game.observation(seat), obs);
    }
}

#[test]
fn the_other_seat_sees_the_roll_but_no_moves() {
    let game = start("wuerfel0", 2);
    let seat = game.turn().unwrap().seat;
    let mine = game.observation(seat);
    let theirs = game.observation(1 - seat);
    assert_eq!(theirs["legal"], json!([]));
    assert_eq!(theirs["face"], mine["face"]);
    assert_eq!(theirs["mine"], mine["theirs"]);
}

#[test]
fn a_forfeit_loses_and_ends_the_game() {
    let mut game = start("wuerfel0", 3);
    let outcome = game.forfeit(0, "fault");
    assert_eq!(outcome, Outcome::two_player(Some(1), "fault"));
    assert!(game.turn().is_none() && game.random_action(&mut rng(0)).is_none());
    assert_eq!(game.outcome(), Some(outcome));
}

//! BS through the contract: seeded random playouts with the card invariants after every action, the
//! same game through the typed face as through JSON (every seat told the same things in the same
//! order), refusals,
//! hidden cards, and the two ends.

use std::collections::HashSet;

use super::*;
use crate::games::bs::{CARDS, ROUND_LIMIT, TURN_LIMIT};
use crate::games::{derive_seed, rng};

const SEED: u64 = 0xB5C0;

fn names() -> Vec<String> {
    ["a", "b", "c", "d"].map(String::from).to_vec()
}

fn numbers(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

/// Every card in exactly one place, a hand or the pile.
fn check_cards(state: &Value) {
    let mut seen = HashSet::new();
    let hands = state["hands"].as_array().unwrap();
    assert_eq!(hands.len(), PLAYERS);
    for cards in hands.iter().chain([&state["pile"]]) {
        for card in numbers(cards) {
            assert!(card < CARDS as u32 && seen.insert(card), "card {card}");
        }
    }
    assert_eq!(seen.len(), CARDS);
}

/// `seat`'s observation shows its own hand and no other card: the only list of cards is `hand`.
fn check_observation(obs: &Value, seat: usize, state: &Value) {
    assert_eq!(obs["you"], seat);
    assert_eq!(obs["hand"], state["hands"][seat]);
    let allowed = [
        "you",
        "players",
        "round",
        "turn",
        "rank",
        "hand",
        "hand_sizes",
        "pile",
        "player",
        "count",
        "player_hand",
    ];
    for (key, value) in obs.as_object().unwrap() {
        assert!(allowed.contains(&key.as_str()), "unexpected field {key}");
        if key != "hand" && key != "hand_sizes" && key != "players" {
            assert!(value.is_u64(), "{key} is a count, not cards: {value}");
        }
    }
}

#[test]
fn seeded_random_playouts_keep_the_cards_and_end_with_one_entry_per_seat() {
    for g in 0..40 {
        let seed = derive_seed(SEED, g);
        let mut game = BsMatch::new(seed);
        let mut players: Vec<Rng> = (0..4).map(|s| rng(derive_seed(seed, 100 + s))).collect();
        // The mover plays (k = 0), then the others are asked in seat order after it (k = 1..3).
        let mut k = 0;
        while let Some(turn) = game.turn() {
            let state = game.state();
            let mover = state["to_move"].as_u64().unwrap() as u32;
            let function = if k == 0 { "play" } else { "call" };
            assert_eq!((turn.seat, turn.function), ((mover + k) % 4, function));
            for seat in 0..4 {
                check_observation(&game.observation(seat), seat as usize, &state);
            }
            let seat = turn.seat as usize;
            let action = game.random_action(&mut players[seat]).unwrap();
            game.apply(&action).unwrap();
            check_cards(&game.state());
            k = (k + 1) % 4;
        }
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.points.len(), 4);
        assert_eq!(outcome.ranks.len(), 4);
        let state = game.state();
        match game.game().end().unwrap() {
            End::Won(w) => {
                assert!(state["hands"][w].as_array().unwrap().is_empty());
                assert_eq!(outcome.points.iter().sum::<f64>(), 1.0);
                assert_eq!(outcome.ranks[w], 0);
                assert_eq!(outcome.reason, "won");
            }
            End::RoundLimit => assert_eq!(state["turn"], TURN_LIMIT),
        }
        assert!(game.random_action(&mut players[0]).is_none());
    }
}

/// A random game through the contract's JSON face, then the same answers through its typed face
/// (the one BS's encoding in `crate::hosted` uses): every seat is asked and told the same things in
/// the same order, every event is the same, and the game ends the same way.
#[test]
fn the_typed_face_plays_the_json_game() {
    for g in 0..30 {
        let seed = derive_seed(SEED + 1, g);
        let mut game = BsMatch::with_names(seed, names());
        let mut random = rng(seed ^ 3);
        let mut told: Vec<Vec<Value>> = vec![Vec::new(); PLAYERS];
        let mut moves = Vec::new();
        while let Some(turn) = game.turn() {
            let seat = turn.seat as usize;
            told[seat].push(game.observation(turn.seat));
            let action = game.random_action(&mut random).unwrap();
            let event = game.apply(&action).unwrap();
            moves.push((turn, action, event));
            for (to, function, payload) in game.take_notices() {
                assert_eq!(function, "observe");
                told[to as usize].push(payload);
            }
        }
        let mut typed = BsMatch::with_names(seed, names());
        let mut typed_told: Vec<Vec<Value>> = vec![Vec::new(); PLAYERS];
        for (turn, action, event) in &moves {
            assert_eq!(typed.turn(), Some(*turn));
            let seat = turn.seat as usize;
            let made = if turn.function == "play" {
                let obs = serde_json::to_value(typed.play_observation()).unwrap();
                typed_told[seat].push(obs);
                let cards: Vec<u32> = serde_json::from_value(action.clone()).unwrap();
                typed.play_cards(&cards, true).unwrap()
            } else {
                let obs = serde_json::to_value(typed.call_observation(seat).unwrap()).unwrap();
                typed_told[seat].push(obs);
                typed.call_bs(action.as_bool().unwrap(), true).unwrap()
            };
            assert_eq!(made.as_ref(), Some(event));
            for e in typed.events().drain(..) {
                for told in &mut typed_told {
                    told.push(serde_json::to_value(&e).unwrap());
                }
            }
        }
        assert_eq!(typed_told, told, "game {g}");
        assert_eq!(typed.turn(), None);
        assert_eq!(typed.outcome(), game.outcome());
        assert_eq!(typed.state(), game.state());
    }
}

/// The last caller sees the same whatever the callers before it answered.
#[test]
fn a_call_observation_does_not_show_the_other_calls() {
    let mut game = BsMatch::new(derive_seed(SEED, 99));
    let hand = game.observation(0)["hand"].clone();
    game.apply(&json!([hand[0]])).unwrap();
    let mut yes = game.clone();
    let mut no = game.clone();
    for _ in 0..2 {
        yes.apply(&json!(true)).unwrap();
        no.apply(&json!(false)).unwrap();
    }
    assert_eq!(yes.turn(), no.turn());
    assert_eq!(yes.turn().unwrap().seat, 3);
    for seat in 0..4 {
        assert_eq!(yes.observation(seat), no.observation(seat));
    }
    assert_ne!(yes.state(), no.state(), "the state knows the calls");
}

#[test]
fn refused_actions_change_nothing() {
    let mut game = BsMatch::new(derive_seed(SEED, 7));
    let state = game.state();
    let mine = numbers(&state["hands"][0]);
    let theirs = numbers(&state["hands"][1])[0];
    for garbage in [
        json!("8"),
        json!(8),
        json!({"cards": [mine[0]]}),
        json!([-1]),
        json!([1.5]),
        json!(true),
        json!(null),
    ] {
        match game.apply(&garbage) {
            Err(Refusal::Malformed(m)) => assert!(m.contains("card ids"), "{garbage}: {m}"),
            other => panic!("{garbage}: {other:?}"),
        }
        assert_eq!(game.state(), state);
    }
    for illegal in [
        json!([]),
        json!([52]),
        json!([theirs]),
        json!([mine[0], mine[1], mine[0]]),
    ] {
        match game.apply(&illegal) {
            Err(Refusal::Illegal(m)) => assert!(m.starts_with("played"), "{m}"),
            other => panic!("{illegal}: {other:?}"),
        }
        assert_eq!(game.state(), state);
    }
    assert!(game.take_notices().is_empty());
    game.apply(&json!([mine[0], mine[1]])).unwrap();
    assert_eq!(game.take_notices().len(), 4);
    let state = game.state();
    for garbage in [json!("yes"), json!(1), json!(null), json!([true])] {
        match game.apply(&garbage) {
            Err(Refusal::Malformed(m)) => assert!(m.contains("true or false"), "{m}"),
            other => panic!("{garbage}: {other:?}"),
        }
        assert_eq!(game.state(), state);
    }
    assert!(game.take_notices().is_empty());
}

#[test]
fn notices_follow_a_play_and_a_resolution() {
    let mut game = BsMatch::new(derive_seed(SEED, 8));
    for turn in 0..4u32 {
        let mover = turn as usize;
        let hand = game.observation(turn)["hand"].clone();
        game.apply(&json!([hand[0]])).unwrap();
        let notices = game.take_notices();
        assert_eq!(notices.len(), 4);
        for (seat, (to, function, payload)) in notices.iter().enumerate() {
            assert_eq!((*to as usize, *function), (seat, "observe"));
            assert_eq!(payload["type"], "play");
            assert_eq!(payload["player"], mover);
        }
        for k in 1..4 {
            let event = game.apply(&json!(false)).unwrap();
            assert_eq!(event["seat"], (mover + k) % 4);
            let notices = game.take_notices();
            if k < 3 {
                assert!(notices.is_empty(), "the calls are collected first");
                assert!(event.get("turn").is_none());
            } else {
                assert_eq!(event["turn"]["callers"], json!([]));
                let kinds: Vec<&str> = notices
                    .iter()
                    .map(|(_, _, p)| p["type"].as_str().unwrap())
                    .collect();
                let mut want = vec!["no_call"; 4];
                if turn == 3 {
                    want.extend(["round_end"; 4]);
                }
                assert_eq!(kinds, want);
            }
        }
    }
}

/// The last round, played without calls: the game ends with no winner, nobody scores, and nothing
/// is told after the last resolution.
#[test]
fn the_round_limit_ends_with_no_winner() {
    let deal = Game::new(1);
    let hands: [Vec<u8>; PLAYERS] = std::array::from_fn(|s| deal.hand(s).as_slice().to_vec());
    let mut game = BsMatch::new(1);
    game.game = Game::from_position(
        std::array::from_fn(|s| &hands[s][..]),
        &[],
        TURN_LIMIT - 1,
        5,
    )
    .unwrap();
    assert_eq!(game.game.round(), ROUND_LIMIT - 1);
    let hand = game.observation(3)["hand"].clone();
    game.apply(&json!([hand[0]])).unwrap();
    assert_eq!(game.take_notices().len(), 4, "the play is told");
    for _ in 0..3 {
        game.apply(&json!(false)).unwrap();
    }
    assert!(game.take_notices().is_empty(), "nothing after the end");
    assert!(game.turn().is_none());
    assert_eq!(
        game.outcome().unwrap(),
        Outcome {
            points: vec![0.0; 4],
            ranks: vec![0; 4],
            reason: "round limit".into(),
        }
    );
}

#[test]
fn a_forfeit_ends_the_game() {
    let mut game = with_forfeits(BsMatch::new(2));
    let hand = game.observation(0)["hand"].clone();
    game.apply(&json!([hand[0]])).unwrap();
    let outcome = game.forfeit(2, "fault");
    // docs/bs.md: a loss for the faulting seat, void for the other three (no point for anyone).
    assert_eq!(outcome.ranks, [0, 0, 3, 0]);
    assert_eq!(outcome.points, [0.0; 4]);
    assert!(game.turn().is_none());
    assert!(game.take_notices().is_empty());
    assert_eq!(game.outcome(), Some(outcome));
}

#[test]
fn the_registry_entry() {
    assert_eq!(RULES.name(), "bs");
    assert_eq!(RULES.seats(), Seats::exactly(4));
    assert_eq!(RULES.functions(), ["play", "call", "observe"]);
    assert_eq!(RULES.variants()[0].name, "standard");
    let game = RULES.start(&Variant::named("standard"), 4, 3).unwrap();
    assert_eq!(game.state(), with_forfeits(BsMatch::new(3)).state());
    assert_eq!(
        game.observation(0)["players"],
        json!(["seat0", "seat1", "seat2", "seat3"])
    );
    assert!(RULES.start(&Variant::named("standard"), 3, 0).is_err());
    assert!(RULES.start(&Variant::named("jokers"), 4, 0).is_err());
}

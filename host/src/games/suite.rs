//! The conformance suite every registered game passes, in the spirit of OpenSpiel's API tests: seeded
//! random playouts through the contract that check its invariants, the same seed giving the same
//! game, refused actions changing nothing, a replay round trip (the recorded actions, applied to a new
//! game with the same seed, give the same events and state), and observations that are a function of
//! the state.

use serde_json::{Value, json};

use super::contract::{Match, Refusal, Rules, Variant};
use super::{registry, rng};

/// Moves a playout takes at most (2048 on large boards plays for millions of moves).
const MAX_MOVES: u32 = 5_000;

/// A random playout: the actions, the events and the states after each move.
struct Playout {
    actions: Vec<Value>,
    events: Vec<Value>,
    last_state: Value,
    ended: bool,
}

fn playout(game: &mut dyn Match, seed: u64) -> Playout {
    let mut r = rng(seed);
    let mut out = Playout {
        actions: Vec::new(),
        events: Vec::new(),
        last_state: game.state(),
        ended: false,
    };
    while let Some(turn) = game.turn() {
        assert!(turn.seat < game.seat_count(), "turn of seat {}", turn.seat);
        let obs = game.observation(turn.seat);
        assert_eq!(
            obs,
            game.observation(turn.seat),
            "observations are a function of the state"
        );
        let action = game
            .random_action(&mut r)
            .expect("a legal action while the game runs");
        let before = game.moves();
        let event = game
            .apply(&action)
            .unwrap_or_else(|e| panic!("the random action {action} was refused: {e}"));
        assert_eq!(game.moves(), before + 1);
        out.actions.push(action);
        out.events.push(event);
        let _ = game.take_notices();
        if game.moves() >= MAX_MOVES {
            out.last_state = game.state();
            return out;
        }
    }
    out.ended = true;
    out.last_state = game.state();
    assert!(game.random_action(&mut r).is_none(), "no action once over");
    out
}

fn each_variant(mut f: impl FnMut(&dyn Rules, &Variant, u32)) {
    for rules in registry::all() {
        for v in rules.variants() {
            for seats in [rules.seats().min, rules.seats().max] {
                f(rules, &Variant::named(&v.name), seats);
            }
        }
    }
}

#[test]
fn random_playouts_end_with_an_outcome_for_every_seat() {
    each_variant(|rules, variant, seats| {
        for seed in 0..6 {
            let mut game = rules.start(variant, seats, seed).unwrap();
            let p = playout(game.as_mut(), seed);
            if !p.ended {
                continue;
            }
            let outcome = game.outcome().expect("an outcome once there is no turn");
            let name = format!("{} {} seed {seed}", rules.name(), variant.name);
            assert_eq!(outcome.points.len(), seats as usize, "{name}");
            assert_eq!(outcome.ranks.len(), seats as usize, "{name}");
            assert!(
                outcome.ranks.iter().all(|r| *r < seats),
                "{name}: {outcome:?}"
            );
            assert!(outcome.points.iter().all(|p| p.is_finite()), "{name}");
            assert!(!outcome.reason.is_empty(), "{name}");
        }
    });
}

#[test]
fn the_same_seed_plays_the_same_game_and_replays_round_trip() {
    each_variant(|rules, variant, seats| {
        let seed = 77;
        let mut a = rules.start(variant, seats, seed).unwrap();
        let mut b = rules.start(variant, seats, seed).unwrap();
        assert_eq!(a.state(), b.state(), "{}: the start", rules.name());
        let pa = playout(a.as_mut(), 5);
        let pb = playout(b.as_mut(), 5);
        assert_eq!(pa.events, pb.events, "{}", rules.name());
        assert_eq!(pa.last_state, pb.last_state, "{}", rules.name());
        // The replay: the recorded actions on a new game with the same seed.
        let mut c = rules.start(variant, seats, seed).unwrap();
        for (i, action) in pa.actions.iter().enumerate() {
            let event = c.apply(action).unwrap_or_else(|e| {
                panic!(
                    "{}: recorded action {i} refused on replay: {e}",
                    rules.name()
                )
            });
            assert_eq!(event, pa.events[i], "{}: event {i}", rules.name());
            let _ = c.take_notices();
        }
        assert_eq!(c.state(), pa.last_state, "{}", rules.name());
        assert_eq!(c.outcome(), a.outcome(), "{}", rules.name());
    });
}

#[test]
fn refused_actions_change_nothing() {
    let garbage = [
        Value::Null,
        json!("no such move"),
        json!(1e300),
        json!(-1),
        json!({"what": [1, 2, 3]}),
        json!([[[]]]),
    ];
    for rules in registry::all() {
        let variant = registry::default_variant(rules);
        let mut game = rules.start(&variant, rules.seats().min, 3).unwrap();
        let mut r = rng(3);
        for _ in 0..40 {
            if game.turn().is_none() {
                break;
            }
            for g in &garbage {
                let before = game.state();
                let moves = game.moves();
                match game.apply(g) {
                    Err(Refusal::Malformed(m) | Refusal::Illegal(m)) => {
                        assert!(!m.is_empty(), "{}: empty message for {g}", rules.name());
                        assert!(m.len() < 1000, "{}: {m}", rules.name());
                    }
                    Ok(_) => panic!("{}: accepted garbage {g}", rules.name()),
                }
                assert_eq!(
                    game.state(),
                    before,
                    "{}: {g} changed the state",
                    rules.name()
                );
                assert_eq!(game.moves(), moves);
            }
            let action = game.random_action(&mut r).unwrap();
            game.apply(&action).unwrap();
            let _ = game.take_notices();
        }
    }
}

#[test]
fn a_forfeit_puts_the_faulting_seat_last() {
    for rules in registry::all() {
        let seats = rules.seats().max;
        if seats < 2 {
            continue;
        }
        let mut game = rules
            .start(&registry::default_variant(rules), seats, 9)
            .unwrap();
        let outcome = game.forfeit(1, "fault");
        assert_eq!(outcome.points.len(), seats as usize);
        assert_eq!(outcome.points[1], 0.0, "{}", rules.name());
        assert!(
            outcome.ranks.iter().all(|r| *r <= outcome.ranks[1]),
            "{}: {outcome:?}",
            rules.name()
        );
        assert_eq!(outcome.ranks[1], seats - 1, "{}: last", rules.name());
    }
}

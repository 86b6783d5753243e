//! Tests of one BS table: events, faults, and that no observation leaks a hand.

use super::*;
use crate::games::bs::Cards;
use crate::games::{Rng, derive_seed, rng};
use rand::RngExt;

/// What a player was told, in order.
#[derive(Debug, Clone)]
enum Told {
    Play(PlayObservation),
    Call(CallObservation),
    Event(Event),
}

/// A player that plays random legal cards, calls at random, and keeps everything it is told.
struct Spy {
    rng: Rng,
    told: Vec<Told>,
}

impl Spy {
    fn new(seed: u64) -> Spy {
        Spy {
            rng: rng(seed),
            told: Vec::new(),
        }
    }
}

impl Player for Spy {
    fn play(&mut self, obs: &PlayObservation) -> Result<Vec<u32>, Fault> {
        self.told.push(Told::Play(obs.clone()));
        let hand: Vec<u8> = obs.hand.iter().map(|&c| c as u8).collect();
        let play = crate::games::bs::policy::random_play(&Cards::from_slice(&hand), &mut self.rng);
        Ok(play.iter().map(u32::from).collect())
    }

    fn call(&mut self, obs: &CallObservation) -> Result<bool, Fault> {
        self.told.push(Told::Call(obs.clone()));
        Ok(self.rng.random_bool(0.3))
    }

    fn observe(&mut self, event: &Event) -> Result<(), Fault> {
        self.told.push(Told::Event(event.clone()));
        Ok(())
    }

    fn log(&self) -> Vec<String> {
        Vec::new()
    }
}

fn names() -> Vec<String> {
    ["a", "b", "c", "d"].map(String::from).to_vec()
}

fn replay() -> Replay {
    Replay::new(Header {
        format: FORMAT.into(),
        version: VERSION,
        game: "bs".into(),
        params: serde_json::json!({}),
        number: 1,
        seed: 0,
        strategies: Vec::new(),
        limits: serde_json::json!(null),
        start: serde_json::json!(null),
    })
}

/// The turns of a recorded replay.
fn turns(replay: &Replay) -> Vec<Turn> {
    let lines = replay.lines();
    lines[1..]
        .iter()
        .map(|l| {
            let value: serde_json::Value = serde_json::from_str(l).unwrap();
            serde_json::from_value(value).unwrap()
        })
        .collect()
}

/// Replays `turns` on a fresh game seeded `seed`, calling `at(turn, game before the play,
/// game after the play)` for each.
fn shadow(seed: u64, turns: &[Turn], mut at: impl FnMut(&Turn, &Game, &Game)) {
    let mut game = Game::new(seed);
    for t in turns {
        let before = game.clone();
        game.play(&t.cards).unwrap();
        let after_play = game.clone();
        let mut calls = [false; PLAYERS];
        for &s in &t.callers {
            calls[s] = true;
        }
        let r = game.resolve(calls).unwrap();
        assert_eq!(
            (r.caller, r.taker, r.reward.map(u32::from)),
            (t.caller, t.taker, t.reward)
        );
        at(t, &before, &after_play);
    }
}

#[test]
fn no_observation_or_event_shows_a_card_of_another_hand() {
    for i in 0..60 {
        let seed = derive_seed(77, i);
        let mut spies: [Spy; PLAYERS] =
            std::array::from_fn(|s| Spy::new(derive_seed(seed, s as u64 + 9)));
        let mut r = replay();
        let outcome = play_game(&mut spies, &names(), seed, Some(&mut r));
        assert!(!outcome.faults.iter().any(Option::is_some), "{outcome:?}");
        let turns = turns(&r);
        assert_eq!(turns.len() as u32, outcome.turns);
        // What each seat should have been told about each turn, from the host's own record.
        let mut hands_at_play = Vec::new();
        let mut hands_at_call = Vec::new();
        shadow(seed, &turns, |_, before, after| {
            let hands = |g: &Game| -> Vec<Vec<u32>> {
                (0..PLAYERS)
                    .map(|s| g.hand(s).iter().map(u32::from).collect())
                    .collect()
            };
            hands_at_play.push(hands(before));
            hands_at_call.push(hands(after));
        });
        for (seat, spy) in spies.iter().enumerate() {
            for told in &spy.told {
                match told {
                    Told::Play(obs) => {
                        let t = obs.turn as usize;
                        assert_eq!(obs.you as usize, seat);
                        assert_eq!(obs.hand, hands_at_play[t][seat], "seat {seat}, turn {t}");
                    }
                    Told::Call(obs) => {
                        let t = obs.turn as usize;
                        assert_eq!(obs.you as usize, seat);
                        assert_ne!(obs.player as usize, seat, "the mover is never asked");
                        assert_eq!(obs.hand, hands_at_call[t][seat], "seat {seat}, turn {t}");
                    }
                    Told::Event(Event::Call { turn, cards, .. }) => {
                        let t = &turns[*turn as usize];
                        assert!(t.caller.is_some());
                        assert_eq!(cards, &t.cards, "only the played cards are revealed");
                    }
                    // The other events carry no card ids at all (their types have none).
                    Told::Event(_) => {}
                }
            }
        }
    }
}

#[test]
fn every_player_hears_every_public_event_in_order_until_the_end() {
    let seed = derive_seed(5, 5);
    let mut spies: [Spy; PLAYERS] = std::array::from_fn(|s| Spy::new(s as u64));
    let outcome = play_game(&mut spies, &names(), seed, None);
    let events = |spy: &Spy| -> Vec<Event> {
        spy.told
            .iter()
            .filter_map(|t| match t {
                Told::Event(e) => Some(e.clone()),
                _ => None,
            })
            .collect()
    };
    let first = events(&spies[0]);
    assert!(
        spies.iter().all(|s| events(s) == first),
        "everyone hears the same"
    );
    let plays = first
        .iter()
        .filter(|e| matches!(e, Event::Play { .. }))
        .count();
    let answers = first
        .iter()
        .filter(|e| matches!(e, Event::Call { .. } | Event::NoCall { .. }))
        .count();
    assert_eq!(
        plays as u32, outcome.turns,
        "every play is announced, the last one too"
    );
    assert_eq!(
        answers as u32,
        outcome.turns - 1,
        "the last turn's call is not announced"
    );
    let rounds = first
        .iter()
        .filter(|e| matches!(e, Event::RoundEnd { .. }))
        .count();
    assert_eq!(rounds as u32, (outcome.turns - 1) / 4);
}

/// A player that plays `play` once asked, and answers `call` with `call`.
struct Scripted {
    play: Result<Vec<u32>, Fault>,
    call: Result<bool, Fault>,
    observe: Result<(), Fault>,
}

impl Player for Scripted {
    fn play(&mut self, obs: &PlayObservation) -> Result<Vec<u32>, Fault> {
        match &self.play {
            Ok(cards) if cards.is_empty() => Ok(vec![obs.hand[0]]),
            other => other.clone(),
        }
    }
    fn call(&mut self, _: &CallObservation) -> Result<bool, Fault> {
        self.call.clone()
    }
    fn observe(&mut self, _: &Event) -> Result<(), Fault> {
        self.observe.clone()
    }
    fn log(&self) -> Vec<String> {
        Vec::new()
    }
}

fn honest() -> Scripted {
    Scripted {
        play: Ok(Vec::new()),
        call: Ok(false),
        observe: Ok(()),
    }
}

#[test]
fn a_fault_voids_the_game_and_is_recorded_against_its_seat() {
    let error = || Fault::new(FaultKind::Error, "boom");
    let cases: [(usize, Scripted, FaultKind); 5] = [
        (
            0,
            Scripted {
                play: Ok(vec![99]),
                ..honest()
            },
            FaultKind::Illegal,
        ),
        (
            1,
            Scripted {
                play: Ok(vec![0, 0]),
                ..honest()
            },
            FaultKind::Illegal,
        ),
        (
            2,
            Scripted {
                play: Err(Fault::new(FaultKind::Budget, "spent")),
                ..honest()
            },
            FaultKind::Budget,
        ),
        (
            3,
            Scripted {
                call: Err(error()),
                ..honest()
            },
            FaultKind::Error,
        ),
        (
            1,
            Scripted {
                observe: Err(error()),
                ..honest()
            },
            FaultKind::Error,
        ),
    ];
    for (seat, bad, kind) in cases {
        let mut players: [Scripted; PLAYERS] = std::array::from_fn(|_| honest());
        players[seat] = bad;
        let outcome = play_game(&mut players, &names(), 3, None);
        assert_eq!(
            (outcome.winner, outcome.reason.as_str()),
            (None, "fault"),
            "seat {seat}"
        );
        assert!(outcome.faults.iter().any(Option::is_some));
        let faulted: Vec<usize> = (0..PLAYERS)
            .filter(|&s| outcome.faults[s].is_some())
            .collect();
        assert_eq!(faulted, [seat], "{outcome:?}");
        assert_eq!(outcome.faults[seat].as_ref().unwrap().kind, kind);
    }
}

#[test]
fn an_illegal_play_names_the_cards_and_the_reason() {
    let mut players: [Scripted; PLAYERS] = std::array::from_fn(|_| honest());
    players[0].play = Ok(vec![60]);
    let outcome = play_game(&mut players, &names(), 3, None);
    let fault = outcome.faults[0].clone().unwrap();
    assert_eq!(
        fault.message,
        "played [60]: card 60 does not exist (card ids are 0 to 51)"
    );
}

//! The BS rule book as tests: one named test for each rule and decided point of `docs/bs.md`, most
//! of them tables of small positions. The seeded random playouts and the golden game are in
//! `conformance.rs`.
//!
//! Positions are written as the hands of the four seats and the pile; every card not listed goes on
//! the pile after the listed ones, in id order, so that all 52 are somewhere.

use super::*;
use crate::games::rng;

/// A game at `turn` with these hands; the pile is `pile` then every card not listed.
fn game_at(turn: u32, hands: [&[Card]; 4], pile: &[Card], seed: u64) -> Game {
    let listed: Vec<Card> = hands
        .iter()
        .flat_map(|h| h.iter())
        .chain(pile)
        .copied()
        .collect();
    let mut full = pile.to_vec();
    full.extend((0..52).filter(|c| !listed.contains(c)));
    Game::from_position(hands, &full, turn, seed).unwrap()
}

fn game(hands: [&[Card]; 4], pile: &[Card]) -> Game {
    game_at(0, hands, pile, 1)
}

/// Plays `cards` for the mover and resolves the turn with `calls`.
fn turn(game: &mut Game, cards: &[u32], calls: [bool; 4]) -> Resolution {
    game.play(cards).unwrap();
    game.resolve(calls).unwrap()
}

const NONE: [bool; 4] = [false; 4];

#[test]
fn a_card_has_the_rank_of_its_id_divided_by_four() {
    for (card, expected) in [(0, 0), (3, 0), (4, 1), (27, 6), (48, 12), (51, 12)] {
        assert_eq!(rank(card), expected, "card {card}");
    }
}

#[test]
fn the_deal_gives_thirteen_cards_to_each_seat_from_a_seeded_shuffle() {
    let game = Game::new(7);
    let mut seen = [false; 52];
    for seat in 0..4 {
        assert_eq!(game.hand(seat).len(), 13);
        for card in game.hand(seat).iter() {
            assert!(!std::mem::replace(&mut seen[card as usize], true));
        }
    }
    assert!(seen.iter().all(|&s| s) && game.pile().is_empty());
    assert_eq!(game, Game::new(7), "the deal is a function of the seed");
    assert_ne!(game.hand(0), Game::new(8).hand(0));
    let sorted = |s: usize| game.hand(s).as_slice().windows(2).all(|w| w[0] < w[1]);
    assert!(!(0..4).all(sorted), "hands keep the dealt order, unsorted");
}

#[test]
fn turns_go_round_the_seats_and_the_rank_rises_by_one_wrapping_after_12() {
    let mut game = Game::new(3);
    assert_eq!((game.to_move(), game.required_rank()), (0, 0));
    for t in 0..30u32 {
        if game.is_over() {
            break;
        }
        assert_eq!(game.to_move(), (t % 4) as Seat, "turn {t}");
        assert_eq!(game.required_rank(), t % 13, "turn {t}");
        assert_eq!((game.turn(), game.round()), (t, t / 4));
        let play = policy::honest_or_oldest(game.hand(game.to_move()), game.required_rank());
        let ids: Vec<u32> = play.iter().map(u32::from).collect();
        turn(&mut game, &ids, NONE);
    }
}

#[test]
fn the_required_rank_starts_at_zero_in_every_game() {
    for seed in 0..20 {
        assert_eq!(Game::new(seed).required_rank(), 0, "seed {seed}");
    }
}

#[test]
fn illegal_plays_are_refused_and_change_nothing() {
    let cases: [(&[u32], Illegal); 5] = [
        (&[], Illegal::Empty),
        (&[52], Illegal::NoSuchCard { card: 52 }),
        (&[0, 9], Illegal::NotHeld { card: 9 }),
        (&[0, 4, 0], Illegal::Repeated { card: 0 }),
        (&[8], Illegal::NotHeld { card: 8 }),
    ];
    let start = game([&[0, 4, 5], &[8], &[9], &[10]], &[]);
    for (cards, expected) in cases {
        let mut g = start.clone();
        assert_eq!(g.play(cards), Err(expected), "{cards:?}");
        assert_eq!(g, start, "{cards:?} changed the game");
    }
}

#[test]
fn a_turn_is_a_play_then_its_calls_in_that_order() {
    let mut g = game([&[0, 4], &[8], &[9], &[10]], &[]);
    assert_eq!(g.resolve(NONE), Err(Illegal::NoPlay));
    g.play(&[0]).unwrap();
    assert!(g.awaiting_calls());
    assert_eq!(g.play(&[4]), Err(Illegal::AwaitingCalls));
    g.resolve(NONE).unwrap();
    assert_eq!(g.to_move(), 1);
}

#[test]
fn playing_removes_the_cards_keeping_the_order_of_the_rest_and_stacks_them_as_listed() {
    let mut g = game([&[20, 1, 33, 2, 7, 0], &[8], &[9], &[10]], &[]);
    let pile_before = g.pile_len();
    let info = g.play(&[2, 0, 1]).unwrap();
    assert_eq!(g.hand(0).as_slice(), [20, 33, 7]);
    assert_eq!(g.pile().top(3), [2, 0, 1]);
    let expected = PlayInfo {
        turn: 0,
        player: 0,
        rank: 0,
        count: 3,
        hand_size: 3,
        pile: pile_before + 3,
    };
    assert_eq!(info, expected);
}

#[test]
fn a_play_is_a_lie_if_any_card_is_not_of_the_required_rank() {
    // Seat 0 holds all of rank 0 (0-3) and two of rank 1 (4, 5); seat 1 calls.
    let cases: [(&[u32], bool); 5] = [
        (&[0], false),
        (&[3, 1, 2, 0], false),
        (&[4], true),
        (&[0, 4], true),
        (&[5, 4], true),
    ];
    for (cards, lie) in cases {
        let mut g = game([&[0, 1, 2, 3, 4, 5], &[8], &[9], &[10]], &[]);
        let r = turn(&mut g, cards, [false, true, false, false]);
        assert_eq!(r.lie, lie, "{cards:?}");
        assert_eq!(r.taker, Some(if lie { 0 } else { 1 }), "{cards:?}");
    }
}

#[test]
fn without_a_call_the_cards_stay_on_the_pile_and_nothing_is_revealed() {
    let mut g = game([&[4, 0], &[8], &[9], &[10]], &[]);
    let pile = g.pile_len();
    let r = turn(&mut g, &[4], NONE);
    assert_eq!(
        (r.caller, r.taker, r.reward, r.lie),
        (None, None, None, true)
    );
    assert_eq!(g.pile_len(), pile + 1);
    assert_eq!(g.hand(0).as_slice(), [0]);
    assert_eq!(r.event(), Event::NoCall { turn: 0, player: 0 });
}

#[test]
fn a_called_lie_gives_the_liar_the_pile_then_a_card_of_the_caller_becomes_the_pile() {
    let mut g = game([&[4, 0], &[8, 12], &[9], &[10]], &[30, 31]);
    let mut pile = g.pile().as_slice().to_vec();
    pile.push(4);
    let r = turn(&mut g, &[4], [false, true, false, false]);
    assert_eq!((r.caller, r.taker, r.lie), (Some(1), Some(0), true));
    let mut liar = vec![0];
    liar.extend(&pile);
    assert_eq!(g.hand(0).as_slice(), liar, "pile appended in pile order");
    assert_eq!(r.taken, pile.len() as u32);
    let reward = r.reward.expect("a called lie has a reward card");
    assert!([8, 12].contains(&reward));
    assert_eq!(
        g.pile().as_slice(),
        [reward],
        "the reward card is the new pile"
    );
    assert_eq!(g.hand(1).len(), 1);
    assert!(!g.hand(1).as_slice().contains(&reward));
}

#[test]
fn a_called_true_play_gives_the_caller_the_pile() {
    let mut g = game([&[0, 4], &[8, 12], &[9], &[10]], &[30]);
    let mut pile = g.pile().as_slice().to_vec();
    pile.push(0);
    let r = turn(&mut g, &[0], [false, false, true, false]);
    assert_eq!(
        (r.caller, r.taker, r.reward, r.lie),
        (Some(2), Some(2), None, false)
    );
    let mut caller = vec![9];
    caller.extend(&pile);
    assert_eq!(g.hand(2).as_slice(), caller);
    assert!(g.pile().is_empty());
    assert_eq!(g.hand(0).as_slice(), [4]);
}

#[test]
fn the_movers_own_call_does_not_count() {
    let mut g = game([&[4, 0], &[8], &[9], &[10]], &[]);
    let r = turn(&mut g, &[4], [true, false, false, false]);
    assert_eq!((r.callers, r.caller), ([false; 4], None));
}

/// How often each of `choices` outcomes came up in `n` trials, checked against a uniform share
/// with a tolerance of five standard deviations (so a correct engine fails about once in 3 million).
fn check_uniform(counts: &[usize], n: usize) {
    let p = 1.0 / counts.len() as f64;
    let sd = (n as f64 * p * (1.0 - p)).sqrt();
    for (i, &c) in counts.iter().enumerate() {
        let off = (c as f64 - n as f64 * p).abs();
        assert!(off < 5.0 * sd, "outcome {i}: {c} of {n} ({counts:?})");
    }
}

#[test]
fn the_caller_is_drawn_uniformly_among_those_who_called() {
    let n = 6000;
    let mut counts = [0usize; 3];
    for seed in 0..n {
        let mut g = game_at(0, [&[4, 0], &[8], &[9], &[10]], &[], seed as u64);
        let r = turn(&mut g, &[0], [false, true, true, true]);
        counts[r.caller.unwrap() - 1] += 1;
    }
    check_uniform(&counts, n);
}

#[test]
fn the_reward_card_is_drawn_uniformly_from_the_callers_hand() {
    let n = 6000;
    let hand: [Card; 4] = [8, 12, 16, 20];
    let mut counts = [0usize; 4];
    for seed in 0..n {
        let mut g = game_at(0, [&[4, 0], &hand, &[9], &[10]], &[], seed as u64);
        let r = turn(&mut g, &[4], [false, true, false, false]);
        let reward = r.reward.unwrap();
        counts[hand.iter().position(|&c| c == reward).unwrap()] += 1;
    }
    check_uniform(&counts, n);
}

#[test]
fn emptying_the_hand_wins_when_nobody_calls_or_the_call_is_wrong() {
    // Seat 0 plays its last card: a true 0, or a lying 4.
    let cases: [(&[Card], [bool; 4], Option<End>); 4] = [
        (&[0], NONE, Some(End::Won(0))),
        (&[0], [false, true, false, false], Some(End::Won(0))),
        (&[4], NONE, Some(End::Won(0))),
        (&[4], [false, true, false, false], None),
    ];
    for (hand, calls, end) in cases {
        let mut g = game([hand, &[8, 9], &[10], &[11]], &[]);
        let card = u32::from(hand[0]);
        let r = turn(&mut g, &[card], calls);
        assert_eq!((r.end, g.end()), (end, end), "{hand:?} {calls:?}");
        assert_eq!(g.winner(), end.and_then(End::winner));
    }
}

#[test]
fn a_correct_caller_who_gives_away_the_last_card_wins() {
    let mut g = game([&[4, 5], &[8], &[9, 13], &[10]], &[]);
    let r = turn(&mut g, &[4], [false, true, false, false]);
    assert_eq!((r.reward, r.end), (Some(8), Some(End::Won(1))));
    assert!(g.hand(1).is_empty() && g.is_over());
    assert_eq!(g.play(&[9]), Err(Illegal::GameOver));
    assert_eq!(g.resolve(NONE), Err(Illegal::GameOver));
}

#[test]
fn the_game_ends_without_a_winner_after_1000_rounds() {
    let hands: [&[Card]; 4] = [&[12, 13], &[14, 15], &[16, 17], &[18, 19]];
    let mut g = game_at(TURN_LIMIT - 2, hands, &[], 1);
    assert_eq!((g.round(), g.to_move()), (999, 2));
    turn(&mut g, &[16], NONE);
    assert!(!g.is_over());
    let r = turn(&mut g, &[18], NONE);
    assert_eq!(
        (r.end, g.winner(), g.turn()),
        (Some(End::RoundLimit), None, TURN_LIMIT)
    );
    assert_eq!(r.round_end(), Some(Event::RoundEnd { round: 1000 }));
}

#[test]
fn a_win_on_the_last_turn_is_a_win() {
    let hands: [&[Card]; 4] = [&[12, 13], &[14, 15], &[16, 17], &[18]];
    let mut g = game_at(TURN_LIMIT - 1, hands, &[], 1);
    let r = turn(&mut g, &[18], NONE);
    assert_eq!(r.end, Some(End::Won(3)));
}

#[test]
fn the_mover_sees_its_own_hand_every_hand_size_and_the_pile_size() {
    let mut g = game_at(5, [&[1, 2], &[8, 44, 3], &[9], &[10, 11]], &[20], 1);
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let obs = g.play_observation(&names);
    let pile = g.pile_len();
    assert_eq!(
        obs,
        PlayObservation {
            you: 1,
            players: names.clone(),
            round: 1,
            turn: 5,
            rank: 5,
            hand: vec![8, 44, 3],
            hand_sizes: vec![2, 3, 1, 2],
            pile,
        }
    );
    g.play(&[44, 8]).unwrap();
    assert_eq!(
        g.call_observation(1, &names),
        None,
        "the mover is not asked"
    );
    let call = g.call_observation(3, &names).unwrap();
    let expected = CallObservation {
        you: 3,
        players: names,
        round: 1,
        turn: 5,
        player: 1,
        rank: 5,
        count: 2,
        player_hand: 1,
        pile: pile + 2,
        hand: vec![10, 11],
        hand_sizes: vec![2, 1, 1, 2],
    };
    assert_eq!(call, expected);
}

#[test]
fn a_call_reveals_the_played_cards_but_never_the_reward_card() {
    let mut g = game_at(3, [&[1, 2], &[8, 44], &[9], &[10, 11, 12]], &[], 1);
    let info = g.play(&[11, 10]).unwrap();
    assert_eq!(
        info.event(),
        Event::Play {
            turn: 3,
            player: 3,
            rank: 3,
            count: 2,
            hand_size: 1,
            pile: info.pile
        }
    );
    let r = g.resolve([false, true, false, false]).unwrap();
    let Event::Call {
        cards,
        reward,
        caller,
        taker,
        lie,
        taken,
        ..
    } = r.event()
    else {
        panic!("a call: {:?}", r.event());
    };
    assert_eq!(
        (cards, reward, caller, taker, lie),
        (vec![11, 10], true, 1, 3, true)
    );
    assert_eq!(taken, info.pile);
    let text = serde_json::to_string(&r.event()).unwrap();
    let reward = r.reward.unwrap();
    assert!(
        !text.contains(&format!("{reward}")),
        "{text} names the reward {reward}"
    );
    assert_eq!(r.round_end(), Some(Event::RoundEnd { round: 1 }));
}

#[test]
fn random_plays_are_legal_and_non_empty() {
    let mut r = rng(5);
    let hand = Cards::from_slice(&[3, 9, 27]);
    for _ in 0..200 {
        let play = policy::random_play(&hand, &mut r);
        assert!((1..=3).contains(&play.len()));
        assert!(play.iter().all(|c| hand.as_slice().contains(&c)));
        let mut ids = play.as_slice().to_vec();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), play.len());
    }
}

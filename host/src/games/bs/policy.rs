//! Built-in players for tests and benchmarks, which need games played without any strategy code:
//! the contest's Player1 ([`honest_or_oldest`], [`call_at_least`]) and a random player. Real
//! strategies are files under `strategies/`; these only drive the engine.

use rand::RngExt;

use super::{Cards, End, Game, PLAYERS, Resolution, Seat, rank};
use crate::games::Rng;

/// Player1's play: all cards of the required rank, in hand order; with none, the oldest card.
pub fn honest_or_oldest(hand: &Cards, required: u32) -> Cards {
    let mut play = Cards::new();
    for card in hand.iter().filter(|&c| rank(c) == required) {
        play.push(card);
    }
    if play.is_empty() {
        play.push(hand.as_slice()[0]);
    }
    play
}

/// Player1's call: iff the claimed count is at least `n` (Player1 uses 3).
pub fn call_at_least(count: u32, n: u32) -> bool {
    count >= n
}

/// A random play: one to four cards (no more than the hand holds), drawn without repetition.
pub fn random_play(hand: &Cards, rng: &mut Rng) -> Cards {
    let mut left = *hand;
    let mut play = Cards::new();
    for _ in 0..rng.random_range(1..=left.len().min(4)) {
        play.push(left.remove(rng.random_range(0..left.len())));
    }
    play
}

/// Plays `game` to its end: `play` chooses the mover's cards, `call(game, seat, count)` each other
/// seat's answer. `turn` sees every finished turn. Returns how the game ended.
pub fn play_out(
    game: &mut Game,
    mut play: impl FnMut(&Game) -> Cards,
    mut call: impl FnMut(&Game, Seat, u32) -> bool,
    mut turn: impl FnMut(&Game, &Resolution),
) -> End {
    while !game.is_over() {
        let cards = play(game);
        let ids: Vec<u32> = cards.iter().map(u32::from).collect();
        let info = game.play(&ids).expect("built-in players play legally");
        let calls: [bool; PLAYERS] =
            std::array::from_fn(|s| s != info.player && call(game, s, info.count));
        let resolution = game.resolve(calls).expect("a play waits for its calls");
        turn(game, &resolution);
    }
    game.end().expect("a finished game has an end")
}

/// Plays `game` to its end with four Player1s (see [`honest_or_oldest`]), without allocating.
pub fn play_out_simple(game: &mut Game) -> End {
    let mut ids = [0u32; 52];
    while !game.is_over() {
        let play = honest_or_oldest(game.hand(game.to_move()), game.required_rank());
        for (slot, card) in ids.iter_mut().zip(play.iter()) {
            *slot = u32::from(card);
        }
        let info = game
            .play(&ids[..play.len()])
            .expect("Player1 plays legally");
        let call = call_at_least(info.count, 3);
        let calls = std::array::from_fn(|s| s != info.player && call);
        game.resolve(calls).expect("a play waits for its calls");
    }
    game.end().expect("a finished game has an end")
}

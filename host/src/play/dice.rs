//! Recording dice games (strict rules) as replays: the dice, who starts, every roll with the move it
//! caused (or none) and the position after it, and the result.
//!
//! A recorded game is replayed from its seed with the step-by-step [`Game`], which draws the same
//! rolls as the fast `play_strict` used for ranking (a test in `games/dice` checks that on thousands
//! of games), so the replay shows exactly the game that was counted.

use serde::{Deserialize, Serialize};

use crate::games::dice::{Die, Game, Move, Place, Seat};
use crate::games::{derive_seed, rng};
use crate::replay::{FORMAT, Header, Replay, VERSION};

/// One turn of a dice replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub n: u32,
    pub seat: Seat,
    /// The face the die showed.
    pub face: u64,
    /// The move it caused, or `null` when no piece could move.
    #[serde(rename = "move")]
    pub mv: Option<Move>,
    pub captured: bool,
    /// Both players' pieces after the turn, seat 0 first, each in its owner's steps.
    pub places: [[Place; 4]; 2],
}

/// How a recorded game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Result {
    /// The winning seat (0: die A, 1: die B), or `null` for a draw.
    pub winner: Option<Seat>,
    /// `won`, or the draw's reason: `deadlock`, `endless_turn`, `turn_cap`.
    pub reason: String,
    pub turns: u32,
}

/// Replays game `g` of the dice pair (die `a` against die `b`) seeded with `pair_seed`: game pair
/// `g / 2`, die A starting when `g` is even, as the ranking plays it.
pub fn record(dice: &[Die], (a, b): (usize, usize), pair_seed: u64, g: u64) -> Replay {
    let a_starts = g.is_multiple_of(2);
    let game_seed = derive_seed(pair_seed, g / 2);
    let mut game = Game::new(dice[a].clone(), dice[b].clone(), a_starts, rng(game_seed));
    let faces =
        |i: usize| serde_json::json!({ "name": format!("D{}", i + 1), "faces": dice[i].faces() });
    let mut replay = Replay::new(Header {
        format: FORMAT.into(),
        version: VERSION,
        game: crate::games::contract::Rules::name(&crate::games::dice::RULES).into(),
        params: serde_json::json!({ "rules": "strict", "dice": [faces(a), faces(b)], "a_starts": a_starts }),
        number: g as usize + 1,
        seed: game_seed,
        strategies: Vec::new(),
        limits: serde_json::Value::Null,
        start: serde_json::json!({ "places": places(&game) }),
        played_on: None,
    });
    while let Ok(turn) = game.step_strict() {
        replay.turn(&Turn {
            n: game.turns(),
            seat: turn.seat,
            face: turn.roll.face,
            mv: turn.mv,
            captured: turn.captured,
            places: places(&game),
        });
    }
    let outcome = game.outcome().expect("a strict game ends");
    let reason = outcome.end.reason();
    replay.finish(&Result {
        winner: outcome.winner(),
        reason,
        turns: outcome.turns,
    });
    replay
}

fn places(game: &Game) -> [[Place; 4]; 2] {
    [game.position().places(0), game.position().places(1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dice::play_strict;

    #[test]
    fn a_recorded_game_is_the_game_the_ranking_counted() {
        let dice = crate::games::dice::file::parse("3\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n4 0 6 6 2\n")
            .unwrap();
        for (pair, (a, b)) in [(0, 1), (0, 2), (1, 2)].into_iter().enumerate() {
            let pair_seed = derive_seed(9, pair as u64);
            for g in 0..6 {
                let replay = record(&dice, (a, b), pair_seed, g);
                let expected = play_strict(
                    &dice[a],
                    &dice[b],
                    g % 2 == 0,
                    &mut rng(derive_seed(pair_seed, g / 2)),
                );
                let text = replay.lines().last().unwrap().clone();
                let end: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(
                    end["result"]["turns"], expected.turns,
                    "pair {pair} game {g}"
                );
                assert_eq!(
                    end["result"]["winner"],
                    serde_json::json!(expected.winner()),
                    "pair {pair} game {g}"
                );
                assert_eq!(
                    replay.lines().len() as u32,
                    expected.turns + 2,
                    "a header, a line per turn, an end"
                );
            }
        }
    }
}

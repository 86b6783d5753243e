//! Mensch ärgere Dich nicht under the free variant: strategies choose which piece to move, and
//! [`DiceFree`], the (die, strategy) entries the tournament runner pits against each other
//! (`tournament::hosted`).
//!
//! **Same seeds as the ranking.** A game between the entries of dice `i < j` is seeded exactly as
//! `botbox dice` seeds game `k` of that pair (pair seed `derive_seed(seed, p)` for the pair's index
//! `p`, game seed `derive_seed(pair_seed, k / 2)`, die `i` starting in even games), and the engine
//! draws its rolls in the same order whoever chooses the moves. So a strategy that always takes the
//! frontmost legal move reproduces the strict rule's results game for game; a test checks it.

use super::Ending;
use crate::games::dice::dice_pairs;
use crate::games::dice::{Die, Game, Position, Seat};
use crate::games::{derive_seed, rng, seat_seed};
use crate::play::dice::Turn;
use crate::replay::{FORMAT, Header, Replay, StrategyRef, VERSION};
use crate::runtime::Strategy;
use crate::runtime::{Fault, FaultKind, Instance, Setup};
use botbox_sdk::dice as wire;

use crate::games::dice::{observation, wire_place as step};

/// Plays a free-variant game to its end: die `dice[0]` in seat 0, seat 0 starting if `a_starts`.
/// `players[s]` chooses seat `s`'s moves when there is a choice; a forced move is played for it.
pub fn play_free(
    dice: [&Die; 2],
    players: [&Strategy; 2],
    a_starts: bool,
    seed: u64,
    mut replay: Option<&mut Replay>,
) -> Ending {
    let mut game = Game::new(dice[0].clone(), dice[1].clone(), a_starts, rng(seed));
    let start = |seat: Seat| {
        let setup = Setup::new("dice", seat_seed(seed, seat as u32), seat as u32);
        players[seat].instantiate(&setup)
    };
    let mut agents: [Option<Instance>; 2] = [None, None];
    let mut faults: Vec<Option<Fault>> = vec![None, None];
    for seat in 0..2 {
        match start(seat) {
            Ok(i) => agents[seat] = Some(i),
            Err(f) => faults[seat] = Some(f),
        }
    }
    while faults.iter().all(Option::is_none) && game.roll().is_ok() {
        let seat = game.to_move();
        let legal = game.legal_moves();
        let chosen = if legal.len() < 2 {
            Ok(legal.first().copied())
        } else {
            let agent = agents[seat].as_mut().expect("both players started");
            let obs = observation(&game, seat, &legal);
            agent
                .call::<_, wire::Move>("choose_move", &obs)
                .and_then(|answer| {
                    legal
                        .iter()
                        .copied()
                        .find(|mv| step(mv.from) == answer.from && i32::from(mv.to) == answer.to)
                        .map(Some)
                        .ok_or_else(|| {
                            Fault::new(
                                FaultKind::Illegal,
                                format!(
                                    "answered from {} to {}, which is not among the legal moves {:?}",
                                    answer.from,
                                    answer.to,
                                    obs.legal.iter().map(|m| (m.from, m.to)).collect::<Vec<_>>()
                                ),
                            )
                        })
                })
        };
        match chosen {
            Err(fault) => faults[seat] = Some(fault),
            Ok(mv) => {
                let turn = game
                    .play(mv)
                    .expect("the move was checked against the legal ones");
                if let Some(r) = replay.as_deref_mut() {
                    let logged = agents
                        .each_ref()
                        .map(|a| a.as_ref().map_or(0, Instance::log_len));
                    let turn = Turn {
                        n: game.turns(),
                        seat: turn.seat,
                        face: turn.roll.face,
                        mv: turn.mv,
                        captured: turn.captured,
                        places: [game.position().places(0), game.position().places(1)],
                    };
                    r.turn_logged(&turn, &logged);
                }
            }
        }
    }
    let (winner, reason) = match (&faults[..], game.outcome()) {
        ([Some(_), None], _) => (Some(1), "fault".to_string()),
        ([None, Some(_)], _) => (Some(0), "fault".to_string()),
        ([Some(_), Some(_)], _) => (None, "fault".to_string()),
        (_, Some(outcome)) => (outcome.winner(), outcome.end.reason()),
        (_, None) => unreachable!("the loop ends with a fault or the game's end"),
    };
    if let Some(r) = replay {
        r.logs = agents
            .iter()
            .map(|a| a.as_ref().map(Instance::log).unwrap_or_default())
            .collect();
        r.finish(&serde_json::json!({
            "winner": winner,
            "reason": reason,
            "turns": game.turns(),
            "faults": faults,
        }));
    }
    Ending::new(winner, reason, game.turns(), faults)
}

/// The free variant over entries that each pair a die with a strategy.
#[derive(Debug, Clone)]
pub struct DiceFree {
    pub dice: Vec<Die>,
    /// Each entry's die, by entry index.
    pub die_of: Vec<usize>,
    /// The run's seed (the ranking's `--seed`).
    pub seed: u64,
}

impl DiceFree {
    /// The seed of a pair of dice, as the ranking derives it; a die against itself (two strategies
    /// with one die) gets a stream of its own.
    pub fn pair_seed(&self, a: usize, b: usize) -> u64 {
        if a == b {
            return derive_seed(self.seed, u64::MAX - a as u64);
        }
        let p = dice_pairs(self.dice.len())
            .iter()
            .position(|&pair| pair == (a.min(b), a.max(b)))
            .expect("both dice are in the set");
        derive_seed(self.seed, p as u64)
    }

    /// Plays game `index` (from 0) of the run: the entries `seats` (runner's seat order, first
    /// mover first) as `players`, game `round` of their pairing; with `record`, also its replay.
    pub fn play(
        &self,
        index: usize,
        seats: [usize; 2],
        round: usize,
        players: [&Strategy; 2],
        record: bool,
    ) -> (Ending, Option<Replay>) {
        // Game seat 0 plays die A, the lower-numbered die (the pairing's first entry on a tie); the
        // runner's seat 0 moves first.
        let first = round % 2;
        let [d0, d1] = seats.map(|e| self.die_of[e]);
        let a_seat = if d0 != d1 {
            usize::from(d1 < d0)
        } else {
            first
        };
        let b_seat = 1 - a_seat;
        let (die_a, die_b) = (self.die_of[seats[a_seat]], self.die_of[seats[b_seat]]);
        let seed = derive_seed(self.pair_seed(die_a, die_b), (round / 2) as u64);
        let a_starts = a_seat == 0;
        let mut replay = record.then(|| {
            let faces = |i: usize| {
                serde_json::json!({ "name": format!("D{}", i + 1), "faces": self.dice[i].faces() })
            };
            Replay::new(Header {
                format: FORMAT.into(),
                version: VERSION,
                game: "dice".into(),
                params: serde_json::json!({
                    "rules": "free",
                    "dice": [faces(die_a), faces(die_b)],
                    "a_starts": a_starts,
                }),
                number: index + 1,
                seed,
                strategies: [a_seat, b_seat]
                    .map(|s| StrategyRef::of(players[s]))
                    .to_vec(),
                limits: serde_json::to_value(players[a_seat].limits())
                    .expect("limits serialize"),
                start: serde_json::json!({
                    "places": [Position::START.places(0), Position::START.places(1)]
                }),
            })
        });
        let ending = play_free(
            [&self.dice[die_a], &self.dice[die_b]],
            [players[a_seat], players[b_seat]],
            a_starts,
            seed,
            replay.as_mut(),
        );
        // Back from game seats (die A first) to the runner's seats (first mover first).
        let to_runner = |s: Seat| if s == 0 { a_seat } else { b_seat };
        let mut faults = vec![None, None];
        faults[a_seat] = ending.faults[0].clone();
        faults[b_seat] = ending.faults[1].clone();
        (
            Ending {
                winner: ending.winner.map(to_runner),
                faults,
                ..ending
            },
            replay,
        )
    }
}

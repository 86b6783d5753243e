//! One game of 2048 with one strategy.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::games::g2048::{Direction, Game, MOVE_CAP, Step};
use crate::games::seat_seed;
use crate::replay::{self, Replay};
use crate::runtime::{Fault, FaultKind, Instance, Setup, Strategy};

/// The outcome of one game. Everything here but `time` is a function of (strategy, size, seed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in its run, from 1.
    pub game: usize,
    pub seed: u64,
    pub score: u64,
    pub moves: u32,
    pub max_tile: u32,
    /// Why the strategy's game ended early, if it did.
    pub fault: Option<Fault>,
    /// The game reached the move cap ([`MOVE_CAP`]) with moves still left: it ended there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capped: bool,
    /// Time spent in the strategy's decisions (not reproducible; kept out of the JSON's per-game data).
    #[serde(skip)]
    pub time: Duration,
}

/// One move of a 2048 replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub n: u32,
    pub before: Vec<Vec<u32>>,
    pub action: Direction,
    pub gained: u32,
    /// The spawned tile: `[row, col]` (1-based) and value.
    pub spawn: Option<Spawn>,
    pub after: Vec<Vec<u32>>,
    pub score: u64,
}

impl Turn {
    /// The turn `game` just made: `action` on the board `before`, with the engine's `step`.
    pub fn after(game: &Game, before: Vec<Vec<u32>>, action: Direction, step: &Step) -> Turn {
        let size = game.size();
        Turn {
            n: game.moves(),
            before,
            action,
            gained: step.gained,
            spawn: step.spawned.map(|(cell, value)| Spawn {
                cell: [cell / size + 1, cell % size + 1],
                value,
            }),
            after: game.board_values(),
            score: game.score(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spawn {
    pub cell: [usize; 2],
    pub value: u32,
}

/// Plays game number `game` (from 1) with `seed`, recording a replay when asked.
pub fn play(
    strategy: &Strategy,
    size: usize,
    game: usize,
    seed: u64,
    record: bool,
) -> (GameRecord, Option<Replay>) {
    let mut state = Game::new(size, seed).expect("the board size was checked by the caller");
    let mut replay =
        record.then(|| Replay::new(replay::header_2048(strategy, size, game, seed, &state)));
    let mut time = Duration::ZERO;
    let setup = Setup::new("2048", seat_seed(seed, 0), 0);
    let fault = match strategy.instantiate(&setup) {
        Err(fault) => Some(fault),
        Ok(mut bot) => {
            let fault = run(&mut state, &mut time, replay.as_mut(), &mut bot);
            if let Some(r) = replay.as_mut() {
                r.logs = vec![bot.log()];
            }
            fault
        }
    };
    let record = GameRecord {
        game,
        seed,
        score: state.score(),
        moves: state.moves(),
        max_tile: state.max_tile(),
        capped: fault.is_none() && !state.is_over(),
        fault,
        time,
    };
    if let Some(r) = replay.as_mut() {
        r.finish(&record);
    }
    (record, replay)
}

/// Asks for moves until the game is over, the strategy faults, or [`MOVE_CAP`] moves were made (2048
/// on 8x8 with a random bot plays millions of moves; the cap bounds every game, and no 4x4 game
/// comes near it).
fn run(
    state: &mut Game,
    time: &mut Duration,
    mut replay: Option<&mut Replay>,
    bot: &mut Instance,
) -> Option<Fault> {
    while !state.is_over() && state.moves() < MOVE_CAP {
        let obs = state.observation();
        let started = Instant::now();
        let answer = bot.call::<_, Direction>("choose_move", &obs);
        *time += started.elapsed();
        let dir = match answer {
            Ok(dir) => dir,
            Err(fault) => return Some(fault),
        };
        let step = match state.step(dir) {
            Ok(step) => step,
            Err(_) => {
                let legal: Vec<&str> = obs.legal.iter().map(|d| d.name()).collect();
                let message = format!(
                    "{} changes nothing (legal: {})",
                    dir.name(),
                    legal.join(", ")
                );
                return Some(Fault::new(FaultKind::Illegal, message));
            }
        };
        if let Some(r) = replay.as_deref_mut() {
            r.turn_logged(&Turn::after(state, obs.board, dir, &step), &[bot.log_len()]);
        }
    }
    None
}

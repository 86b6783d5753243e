//! One game of Wormworld between two strategies, and [`Worms`]: Wormworld over a set of maps, as
//! the tournament runner schedules it (`tournament::hosted`).
//!
//! The engine decides what is legal; each strategy only sees its own observation. A player with no
//! legal move is not asked: the host passes for it. A fault (an error, a timeout, a crash, garbage or
//! an illegal move) loses the game for the strategy that made it, with the fault recorded.

use serde::{Deserialize, Serialize};

use super::Ending;
use crate::games::worms::{Game, Map, Move, Seat, Verdict};
use crate::games::{rng, seat_seed};
use crate::play::generic::Opening;
use crate::play::worms_text::TextBot;
use crate::replay::{FORMAT, Header, Replay, StrategyRef, VERSION};
use crate::runtime::{Fault, FaultKind, Instance, Setup, Strategy};
use rand::RngExt;
use sha2::{Digest, Sha256};

/// A map with the name it is shown under (its file stem).
#[derive(Clone, Debug)]
pub struct NamedMap {
    pub name: String,
    pub map: Map,
}

/// One turn of a Wormworld replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The turn's number, from 1.
    pub n: u32,
    pub seat: Seat,
    /// The move, or `null` when the host passed for a player with no legal move.
    #[serde(rename = "move")]
    pub mv: Option<Move>,
    /// Whether the moved worm fell into the hole.
    #[serde(default)]
    pub fell: bool,
    /// A move of the random opening (`--openings`), not the strategy's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opening: bool,
}

/// A player in one game: a hosted instance (Lua, WASM) answering observations, or an external
/// program speaking the Wormworld text protocol (`docs/protocols/worms.md`).
enum Agent {
    Hosted(Instance),
    Text(TextBot),
}

impl Agent {
    fn start(strategy: &Strategy, game: &Game, game_seed: u64, seat: Seat) -> Result<Agent, Fault> {
        let setup = Setup::new("worms", seat_seed(game_seed, seat as u32), seat as u32);
        let mut instance = strategy.instantiate(&setup)?;
        Ok(if instance.process().is_some() {
            Agent::Text(TextBot::start(instance, game, seat)?)
        } else {
            Agent::Hosted(instance)
        })
    }

    fn choose(&mut self, game: &Game, seat: Seat) -> Result<Move, Fault> {
        match self {
            Agent::Hosted(instance) => instance.call("choose_move", &game.observation(seat)),
            Agent::Text(bot) => bot.choose(),
        }
    }

    /// Tells the agent about a turn that was played (its own or the opponent's).
    fn record(&mut self, turn: &Turn) {
        if let Agent::Text(bot) = self {
            bot.record(turn.seat, turn.mv);
        }
    }

    fn log(&self) -> Vec<String> {
        match self {
            Agent::Hosted(instance) => instance.log(),
            Agent::Text(bot) => bot.log(),
        }
    }

    fn log_len(&self) -> usize {
        match self {
            Agent::Hosted(instance) => instance.log_len(),
            Agent::Text(bot) => bot.instance().log_len(),
        }
    }
}

/// Plays one game on `map` between `players` (seat order), seeded with `seed`, after the random
/// `opening` if there is one. `watch` sees the game before the first turn (with `None`) and after
/// every turn.
pub fn play_game(
    map: &Map,
    players: [&Strategy; 2],
    seed: u64,
    opening: Option<Opening>,
    mut replay: Option<&mut Replay>,
    watch: &mut dyn FnMut(&Game, Option<&Turn>),
) -> Ending {
    let mut game = Game::new(map);
    watch(&game, None);
    let mut faults: [Option<Fault>; 2] = [None, None];
    let started = [0, 1].map(|seat| Agent::start(players[seat], &game, seed, seat));
    let mut agents = match started {
        [Ok(a), Ok(b)] => [a, b],
        [a, b] => {
            let (a, b) = (a.err(), b.err());
            let winner = match (&a, &b) {
                (Some(_), None) => Some(1),
                (None, Some(_)) => Some(0),
                _ => None,
            };
            return Ending::new(winner, "fault", 0, vec![a, b]);
        }
    };
    let mut moves = Sha256::new();
    let mut opening_rng = opening.map(|o| rng(o.seed));
    let mut opening_left = opening.map_or(0, |o| o.plies);
    while !game.is_over() {
        let seat = game.to_move();
        let mut turn = Turn {
            n: game.turn() + 1,
            seat,
            mv: None,
            fell: false,
            opening: false,
        };
        let legal = game.legal_moves(seat);
        if let (true, Some(r)) = (opening_left > 0 && !legal.is_empty(), opening_rng.as_mut()) {
            // An opening move: drawn at random for the seat, the same for both games of a pair.
            opening_left -= 1;
            let before = game.worms_left(seat);
            let mv = legal[r.random_range(0..legal.len())];
            game.apply(mv).expect("a legal move applies");
            turn.mv = Some(mv);
            turn.fell = game.worms_left(seat) < before;
            turn.opening = true;
        } else if legal.is_empty() {
            game.pass().expect("a player without legal moves may pass");
        } else {
            let before = game.worms_left(seat);
            let result = agents[seat].choose(&game, seat).and_then(|mv| {
                game.apply(mv).map(|()| mv).map_err(|e| {
                    let (worm, how) = (mv.worm, mv.turn.name());
                    Fault::new(
                        FaultKind::Illegal,
                        format!("answered worm {worm} {how}: {e}"),
                    )
                })
            });
            match result {
                Ok(mv) => {
                    turn.mv = Some(mv);
                    turn.fell = game.worms_left(seat) < before;
                }
                Err(fault) => {
                    faults[seat] = Some(fault);
                    break;
                }
            }
        }
        // Five bytes a turn: the seat, the worm (255 for a pass) and how it turned.
        let (worm, how) = turn.mv.map_or((u32::MAX, 255), |m| (m.worm, m.turn as u8));
        moves.update([turn.seat as u8]);
        moves.update(worm.to_le_bytes());
        moves.update([how]);
        for agent in &mut agents {
            agent.record(&turn);
        }
        if let Some(r) = replay.as_deref_mut() {
            r.turn_logged(&turn, &[agents[0].log_len(), agents[1].log_len()]);
        }
        watch(&game, Some(&turn));
    }
    let ending = match (&faults, game.outcome()) {
        ([Some(_), _], _) => (Some(1), "fault".to_string()),
        ([_, Some(_)], _) => (Some(0), "fault".to_string()),
        (_, Some(outcome)) => {
            let winner = match outcome.result {
                Verdict::Win(seat) => Some(seat),
                Verdict::Draw => None,
            };
            (winner, outcome.reason.name().to_string())
        }
        (_, None) => unreachable!("the loop ends with a fault or the game's end"),
    };
    if let Some(r) = replay {
        r.logs = agents.iter().map(Agent::log).collect();
    }
    Ending {
        figures: super::Figures {
            moves_sha256: Some(crate::runtime::hex(&moves.finalize())),
            ..Default::default()
        },
        ..Ending::new(ending.0, ending.1, game.turn(), faults.to_vec())
    }
}

/// The header of a Wormworld replay: the map (name and full text) and both strategies.
pub fn header(map: &NamedMap, players: [&Strategy; 2], number: usize, seed: u64) -> Header {
    Header {
        format: FORMAT.into(),
        version: VERSION,
        game: "worms".into(),
        params: serde_json::json!({
            "map": map.name,
            "turn_limit": map.map.turns(),
            "text": map.map.to_string(),
        }),
        number,
        seed,
        strategies: players.iter().map(|s| StrategyRef::of(s)).collect(),
        limits: serde_json::to_value(players.map(Strategy::limits)).expect("limits serialize"),
        start: serde_json::json!({ "board": map.map.rows() }),
    }
}

/// Wormworld over a list of maps, for the tournament runner.
#[derive(Debug, Clone)]
pub struct Worms {
    pub maps: Vec<NamedMap>,
    /// Random opening moves before the strategies play, drawn from the run's seed, the same for
    /// both games of a pair (sides swapped): `(plies, run seed)`.
    pub openings: Option<(u32, u64)>,
}

impl Worms {
    /// The maps, with no openings.
    pub fn new(maps: Vec<NamedMap>) -> Worms {
        Worms {
            maps,
            openings: None,
        }
    }

    /// The opening of game `round` of a pairing ([`Opening::for_pair`]).
    pub fn opening(&self, round: usize) -> Option<Opening> {
        self.openings
            .and_then(|(plies, seed)| Opening::for_pair(plies, seed, round))
    }

    /// Plays game `index` (from 0) of the run on map `variant`, game `round` of its pairing, between
    /// `players` (seat order); with `record`, also its replay.
    pub fn play(
        &self,
        index: usize,
        seed: u64,
        variant: usize,
        round: usize,
        players: [&Strategy; 2],
        record: bool,
    ) -> (Ending, Option<Replay>) {
        let map = &self.maps[variant];
        let mut replay = record.then(|| Replay::new(header(map, players, index + 1, seed)));
        let ending = play_game(
            &map.map,
            players,
            seed,
            self.opening(round),
            replay.as_mut(),
            &mut |_, _| {},
        );
        if let Some(r) = replay.as_mut() {
            r.finish(&ending);
        }
        (ending, replay)
    }

    /// Everything about the maps and openings that changes results, as text.
    pub fn setup(&self) -> String {
        self.maps
            .iter()
            .map(|m| format!("map {}\n{}", m.name, m.map))
            .chain(
                self.openings
                    .map(|(plies, _)| format!("openings {plies}\n")),
            )
            .collect()
    }
}

//! One game of BS between four strategies, and the [`Table`] that lets the pool runner seat such
//! games.
//!
//! A turn asks the mover `play(obs)`, tells everyone the public play event, asks each other seat
//! `call(obs)` in seat order after the mover, resolves the turn in the engine, then tells everyone
//! the call (or that there was none) and, after seat 3's turn, the end of the round. Events go only to
//! strategies that have an `observe` function ([`Instance::has_function`]); nothing is sent once the
//! game is decided. Each strategy sees only its own observations ([`Game::play_observation`],
//! [`Game::call_observation`]) and the public events.
//!
//! **A fault voids the game.** An illegal play or any fault of a strategy (budget, fuel, timeout,
//! memory, crash, bad output, ...) ends the game at once: it is a loss for the faulting seat, with
//! the reason recorded, and void for the other three (it counts for none of them).

use serde::{Deserialize, Serialize};

use super::Ending;
use crate::games::bs::{CallObservation, Event, Game, PLAYERS, PlayObservation, Resolution, Seat};
use crate::games::seat_seed;
use crate::replay::{FORMAT, Header, Replay, StrategyRef, VERSION};
use crate::runtime::{Answer, Fault, FaultKind, Instance, Setup, Strategy};

/// A player at the table: what the driver asks of a strategy. [`Hosted`] is a real strategy; tests
/// plug in recorders.
pub trait Player {
    /// The cards to play.
    fn play(&mut self, obs: &PlayObservation) -> Result<Vec<u32>, Fault>;
    /// Whether to call "BS".
    fn call(&mut self, obs: &CallObservation) -> Result<bool, Fault>;
    /// A public event; its answer is ignored.
    fn observe(&mut self, event: &Event) -> Result<(), Fault>;
    /// The strategy's log for the game.
    fn log(&self) -> Vec<String>;
    /// How many lines [`Player::log`] holds.
    fn log_len(&self) -> usize {
        self.log().len()
    }
}

/// A strategy instance playing BS.
#[derive(Debug)]
pub struct Hosted {
    instance: Instance,
    /// Whether the strategy has an `observe` function.
    observes: bool,
}

impl Hosted {
    /// Instantiates `strategy` for `seat` of the game seeded `game_seed` (its seed by the seat-seed
    /// convention).
    pub fn start(strategy: &Strategy, game_seed: u64, seat: Seat) -> Result<Hosted, Fault> {
        let setup = Setup::new("bs", seat_seed(game_seed, seat as u32), seat as u32);
        let mut instance = strategy.instantiate(&setup)?;
        let observes = instance.has_function("observe");
        Ok(Hosted { instance, observes })
    }
}

/// An answer read and thrown away: `observe`'s. Lua may return anything; WASM and programs any
/// JSON value (`null`).
struct Ignored;

impl<'de> Deserialize<'de> for Ignored {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Ignored)
    }
}

impl Answer for Ignored {
    /// A notification's answer is ignored whatever its bytes (the SDK sends none).
    fn from_binary(_: &[u8]) -> Option<Result<Self, String>> {
        Some(Ok(Ignored))
    }

    fn from_lua(_: &mlua::Value) -> Result<Self, String> {
        Ok(Ignored)
    }
}

impl Player for Hosted {
    fn play(&mut self, obs: &PlayObservation) -> Result<Vec<u32>, Fault> {
        self.instance.call("play", obs)
    }

    fn call(&mut self, obs: &CallObservation) -> Result<bool, Fault> {
        self.instance.call("call", obs)
    }

    fn observe(&mut self, event: &Event) -> Result<(), Fault> {
        if self.observes {
            self.instance.call::<_, Ignored>("observe", event)?;
        }
        Ok(())
    }

    fn log(&self) -> Vec<String> {
        self.instance.log()
    }

    fn log_len(&self) -> usize {
        self.instance.log_len()
    }
}

/// One turn of a BS replay: everything that happened, hidden cards included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The turn's number, from 1.
    pub n: u32,
    pub seat: Seat,
    /// The required (claimed) rank.
    pub rank: u32,
    /// The cards played, in pile order.
    pub cards: Vec<u32>,
    /// The seats that said yes to calling.
    pub callers: Vec<Seat>,
    /// The caller chosen among them.
    pub caller: Option<Seat>,
    /// Whether a played card was not of the required rank.
    pub lie: bool,
    /// Who took the pile, after a call.
    pub taker: Option<Seat>,
    /// How many cards the taker picked up.
    #[serde(default)]
    pub taken: u32,
    /// After a called lie, the caller's card that became the new pile.
    pub reward: Option<u32>,
    /// Every seat's hand size after the turn.
    pub hand_sizes: [u32; PLAYERS],
    /// The pile's size after the turn.
    pub pile: u32,
}

impl Turn {
    /// The replay line of the turn `r` resolved, with `game` as it stands after it.
    pub fn of(r: &Resolution, game: &Game) -> Turn {
        Turn {
            n: r.turn + 1,
            seat: r.player,
            rank: r.rank,
            cards: r.cards.iter().map(u32::from).collect(),
            callers: (0..PLAYERS).filter(|&s| r.callers[s]).collect(),
            caller: r.caller,
            lie: r.lie,
            taker: r.taker,
            taken: r.taken,
            reward: r.reward.map(u32::from),
            hand_sizes: game.hand_sizes(),
            pile: game.pile_len(),
        }
    }
}

/// Plays a game seeded `seed` between `players` (seat order), named `names` in the observations,
/// and says how it ended: the winning seat, the reason (`won`, `round limit`, `fault`), the turns
/// completed and each seat's fault. With `replay`, every turn is recorded there (the end line is
/// left to the caller).
pub fn play_game<P: Player>(
    players: &mut [P; PLAYERS],
    names: &[String],
    seed: u64,
    mut replay: Option<&mut Replay>,
) -> Ending {
    let mut game = Game::new(seed);
    let mut faults: Vec<Option<Fault>> = vec![None; PLAYERS];
    if let Err((seat, fault)) = play_turns(&mut game, players, names, &mut replay) {
        faults[seat] = Some(fault);
    }
    if let Some(r) = replay {
        r.logs = players.iter().map(|p| p.log()).collect();
    }
    let (winner, reason) = match game.end() {
        _ if faults.iter().any(Option::is_some) => (None, "fault"),
        Some(end) => (end.winner(), end.reason()),
        None => unreachable!("the turns end with a fault or the game's end"),
    };
    Ending::new(winner, reason, game.turn(), faults)
}

/// Plays turns to the end of the game, or to the first fault (its seat and the fault).
fn play_turns<P: Player>(
    game: &mut Game,
    players: &mut [P; PLAYERS],
    names: &[String],
    replay: &mut Option<&mut Replay>,
) -> Result<(), (Seat, Fault)> {
    // One observation of each kind, updated in place every turn.
    let mut play = game.play_observation(names);
    let mut call: Option<CallObservation> = None;
    while !game.is_over() {
        let mover = game.to_move();
        game.update_play_observation(&mut play);
        let cards = players[mover].play(&play).map_err(|f| (mover, f))?;
        let info = game.play(&cards).map_err(|e| {
            let fault = Fault::new(FaultKind::Illegal, format!("played {cards:?}: {e}"));
            (mover, fault)
        })?;
        tell(players, &info.event())?;
        let mut calls = [false; PLAYERS];
        for seat in (1..PLAYERS).map(|k| (mover + k) % PLAYERS) {
            let obs = match &mut call {
                Some(obs) => {
                    game.update_call_observation(seat, obs);
                    obs
                }
                None => call.insert(game.call_observation(seat, names).expect("a play waits")),
            };
            calls[seat] = players[seat].call(obs).map_err(|f| (seat, f))?;
        }
        let resolution = game.resolve(calls).expect("a play waits for its calls");
        if let Some(r) = replay.as_deref_mut() {
            r.turn_logged(
                &Turn::of(&resolution, game),
                &players.each_ref().map(P::log_len),
            );
        }
        if !game.is_over() {
            tell(players, &resolution.event())?;
            if let Some(event) = resolution.round_end() {
                tell(players, &event)?;
            }
        }
    }
    Ok(())
}

/// Tells every player `event`, in seat order.
fn tell<P: Player>(players: &mut [P; PLAYERS], event: &Event) -> Result<(), (Seat, Fault)> {
    for (seat, player) in players.iter_mut().enumerate() {
        player.observe(event).map_err(|f| (seat, f))?;
    }
    Ok(())
}

/// Plays a game between hosted strategies: instantiates all four (a seat that cannot start faults
/// and voids the game), then plays it.
pub fn play_hosted(
    strategies: [&Strategy; PLAYERS],
    names: &[String],
    seed: u64,
    replay: Option<&mut Replay>,
) -> Ending {
    let started: Vec<Result<Hosted, Fault>> = (0..PLAYERS)
        .map(|seat| Hosted::start(strategies[seat], seed, seat))
        .collect();
    if started.iter().any(Result::is_err) {
        let faults = started.into_iter().map(Result::err).collect();
        return Ending::new(None, "fault", 0, faults);
    }
    let mut hosted = started.into_iter().map(|h| h.expect("all started"));
    let mut players: [Hosted; PLAYERS] =
        std::array::from_fn(|_| hosted.next().expect("four players"));
    play_game(&mut players, names, seed, replay)
}

/// The header of a BS replay: the entries by seat with their hashes, and the deal.
pub fn header(players: &[&Strategy], names: &[String], number: usize, seed: u64) -> Header {
    let deal = Game::new(seed);
    let hands: Vec<Vec<u8>> = (0..PLAYERS)
        .map(|s| deal.hand(s).as_slice().to_vec())
        .collect();
    Header {
        format: FORMAT.into(),
        version: VERSION,
        game: "bs".into(),
        params: serde_json::json!({
            "players": PLAYERS,
            "round_limit": crate::games::bs::ROUND_LIMIT,
        }),
        number,
        seed,
        strategies: players
            .iter()
            .zip(names)
            .map(|(s, name)| StrategyRef {
                name: name.clone(),
                ..StrategyRef::of(s)
            })
            .collect(),
        limits: serde_json::to_value(players.iter().map(|s| s.limits()).collect::<Vec<_>>())
            .expect("limits serialize"),
        start: serde_json::json!({ "hands": hands }),
    }
}

/// BS for the pool runner: four seats, each game seeded by its number (`tournament::hosted`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Bs;

impl Bs {
    /// Plays game `index` (from 0) of the run between `players` named `names` (seat order); with
    /// `record`, also its replay.
    pub fn play(
        &self,
        index: usize,
        seed: u64,
        players: [&Strategy; PLAYERS],
        names: &[String],
        record: bool,
    ) -> (Ending, Option<Replay>) {
        let mut replay = record.then(|| Replay::new(header(&players, names, index + 1, seed)));
        let ending = play_hosted(players, names, seed, replay.as_mut());
        if let Some(r) = replay.as_mut() {
            r.finish(&ending);
        }
        (ending, replay)
    }
}

#[cfg(test)]
#[path = "bs_tests.rs"]
mod tests;

//! One game of any registered game, through the game contract ([`crate::games::contract`]): the one
//! driver that `check` uses for every game, and that every game reaches without code of its own.
//!
//! The contract decides whose decision it is and what is legal; each strategy sees only its seat's
//! observation, as the game's JSON. A fault (an error, a spent budget, garbage, an illegal move) ends
//! the game at once: the faulting seat forfeits, with the fault recorded. Seeds follow the convention
//! of [`crate::games`]: the strategy in seat `k` is set up with `seat_seed(seed, k)`.

use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::games::contract::{Match, Outcome, Refusal, Rules, SeatIndex, Turn, Variant};
use crate::games::{Rng, derive_seed, rng, seat_seed};
use crate::hosted::{Decided, Encoding, Failed, Listeners};
use crate::runtime::payload::Ignored;
use crate::runtime::{Fault, FaultKind, Instance, Setup, Strategy};

mod moves;
mod prelude;

use moves::{Made, Moves};

/// Who sits in a seat.
#[derive(Clone, Copy, Debug)]
pub enum Player<'a> {
    /// A strategy file, instantiated for the game.
    Bot(&'a Strategy),
    /// The game's own random player ([`Match::random_action`]), seeded like a strategy would be.
    Random,
}

/// Random opening moves played before the strategies decide: start variety for deterministic games,
/// as chess tools use opening books. The same `seed` gives the same opening, so both games of a pair
/// (sides swapped) start from the same position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Moves drawn by the game's random player.
    pub plies: u32,
    pub seed: u64,
}

/// The stream of [`derive_seed`] openings are drawn from.
const OPENINGS: u64 = 1 << 40;

impl Opening {
    /// The opening of game number `round` of a pairing in a run seeded with `run_seed`: the pair of
    /// games `2k`, `2k + 1` (sides swapped) shares opening `k`, seeded `derive_seed(run_seed,
    /// OPENINGS + k)`, the same in every pairing. `None` for no plies.
    pub fn for_pair(plies: u32, run_seed: u64, round: usize) -> Option<Opening> {
        (plies > 0).then(|| Opening {
            plies,
            seed: derive_seed(run_seed, OPENINGS + (round / 2) as u64),
        })
    }
}

/// One decision as it was played, for a trace.
#[derive(Clone, Debug)]
pub struct Step {
    /// The move's number, from 1.
    pub n: u32,
    pub seat: SeatIndex,
    pub function: &'static str,
    /// What the seat answered (a strategy's JSON, or the random player's action).
    pub action: Value,
    /// The contract's replay event for the move.
    pub event: Value,
    /// The lines the seat logged while deciding (only in a recorded game).
    pub log: Vec<String>,
    /// A move of the opening, drawn by the game's random player for the seat.
    pub opening: bool,
    /// The seat's fault taken as its move in a round of simultaneous moves ([`Match::fault_move`]):
    /// `action` is `null`, and the fault is in [`Played::faults`].
    pub fault: bool,
    /// A move of a recorded game played again as it was ([`play_on`]), not decided here.
    pub recorded: bool,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    pub outcome: Outcome,
    pub moves: u32,
    /// The game's length in its own words ([`Match::turns`]).
    pub turns: u32,
    /// What a report keeps of the game beyond its points ([`Match::details`]).
    pub details: Option<Value>,
    /// Each seat's fault, if it made one (the game ended at the first).
    pub faults: Vec<Option<Fault>>,
    /// Each seat's whole log in a recorded game (empty for the random player, or when not recorded).
    pub logs: Vec<Vec<String>>,
    /// Each seat's decisions and, in a recorded game, the time they took (strategy code and crossing
    /// included; zero when not recorded).
    pub decisions: Vec<u32>,
    pub time: Vec<Duration>,
    /// The SHA-256 of the moves in order (opening included): equal for games that went the same way;
    /// `None` for a game that does not repeat ([`Rules::repeats`]).
    pub moves_sha256: Option<String>,
    /// The game's state when it started (the contract's omniscient JSON): a replay header's start;
    /// `null` when not recorded.
    pub start: Value,
}

/// What a seat is during a game.
enum Agent {
    Bot {
        instance: Box<Instance>,
        /// Log lines already passed to the trace.
        logged: usize,
        /// Notification functions this strategy has (checked once).
        hears: Vec<(&'static str, bool)>,
    },
    Random(Box<Rng>),
}

/// Plays one game of `rules` on `variant` between `players` (one per seat, named `names` where the
/// game shows names; none for its defaults), seeded with `seed`, after the `opening` if there is
/// one. `trace`, if given, sees every move; with `record` set, each step carries its action and event as JSON
/// and the lines its seat logged meanwhile (else a move through the game's typed encoding has
/// `null` for both). The error is the variant's (an unknown name, a bad file) or a wrong number of
/// players.
#[allow(clippy::too_many_arguments)]
pub fn play(
    rules: &dyn Rules,
    variant: &Variant,
    players: &[Player],
    names: &[String],
    seed: u64,
    opening: Option<Opening>,
    record: bool,
    trace: Option<&mut dyn FnMut(&Step)>,
) -> Result<Played, String> {
    let encoding = crate::hosted::encoding(rules.name());
    let prelude = opening.map_or(Prelude::None, Prelude::Opening);
    play_through(
        rules, variant, players, names, seed, prelude, record, encoding, trace,
    )
}

/// What is played before the seats decide.
#[derive(Clone, Copy, Debug)]
enum Prelude<'a> {
    None,
    Opening(Opening),
    /// A recorded game's first moves ([`play_on`]).
    Recorded(&'a [Value]),
}

/// Plays one game as [`play`] does, but its first moves are `recorded`: the turn lines of a replay
/// of the same game (its `seat`, `function`, `action` and `opening` fields), played again as they
/// were. Meanwhile each strategy is shown every observation of its seat and hears every notice, in
/// order, its answers set aside, so that the state it keeps is its own when it takes over; a
/// strategy that faults on one forfeits there. The seats decide from the move after the last
/// recorded one. The error says why the recorded moves cannot be played (a move the game refuses, a
/// fault taken as a move, a move after the end).
#[allow(clippy::too_many_arguments)]
pub fn play_on(
    rules: &dyn Rules,
    variant: &Variant,
    players: &[Player],
    names: &[String],
    seed: u64,
    recorded: &[Value],
    record: bool,
    trace: Option<&mut dyn FnMut(&Step)>,
) -> Result<Played, String> {
    let encoding = crate::hosted::encoding(rules.name());
    play_through(
        rules,
        variant,
        players,
        names,
        seed,
        Prelude::Recorded(recorded),
        record,
        encoding,
        trace,
    )
}

/// [`play`] through `encoding`, or by JSON alone with `None` (the tests' way to compare the two).
#[allow(clippy::too_many_arguments)]
fn play_through(
    rules: &dyn Rules,
    variant: &Variant,
    players: &[Player],
    names: &[String],
    seed: u64,
    prelude: Prelude,
    record: bool,
    encoding: Option<&dyn Encoding>,
    trace: Option<&mut dyn FnMut(&Step)>,
) -> Result<Played, String> {
    let seats = players.len() as u32;
    if !rules.seats().contains(seats) {
        return Err(format!(
            "{} is played by {} players, not {seats}",
            rules.name(),
            rules.seats()
        ));
    }
    let mut game = rules.start(variant, seats, seed)?;
    if !names.is_empty() {
        game.name_seats(names);
    }
    let hashed = rules.repeats();
    let n = players.len();
    let mut played = Played {
        outcome: Outcome::two_player(None, ""),
        moves: 0,
        turns: 0,
        details: None,
        faults: vec![None; n],
        logs: vec![Vec::new(); n],
        decisions: vec![0; n],
        time: vec![Duration::ZERO; n],
        moves_sha256: None,
        start: if record { game.state() } else { Value::Null },
    };
    let mut agents = Vec::with_capacity(n);
    for (seat, player) in players.iter().enumerate() {
        let seat = seat as SeatIndex;
        let seat_seed = seat_seed(seed, seat);
        match player {
            Player::Random => agents.push(Agent::Random(Box::new(rng(seat_seed)))),
            Player::Bot(strategy) => {
                match strategy.instantiate(&Setup::new(rules.name(), seat_seed, seat)) {
                    Ok(instance) => agents.push(Agent::Bot {
                        instance: Box::new(instance),
                        logged: 0,
                        hears: Vec::new(),
                    }),
                    Err(fault) => {
                        played.faults[seat as usize] = Some(fault);
                        agents.push(Agent::Random(Box::new(rng(seat_seed))));
                    }
                }
            }
        }
    }
    for (seat, agent) in agents.iter_mut().enumerate() {
        if played.faults.iter().all(Option::is_none)
            && let Some(fault) = missing_function(rules, agent)
        {
            played.faults[seat] = Some(fault);
        }
    }
    // The game's encoding sets the seats up (Wormworld's programs get their start position); in a
    // game played on from a recorded one, after its recorded moves.
    let recorded = match prelude {
        Prelude::Recorded(turns) => Some(turns),
        _ => None,
    };
    if played.faults.iter().all(Option::is_none)
        && recorded.is_none()
        && let Some(encoding) = encoding
        && let Some(typed) = game.typed()
    {
        for (seat, fault) in encoding.begin(typed, &mut agents) {
            played.faults[seat as usize] = Some(fault);
        }
    }
    // At the set-up, the first seat that faulted forfeits (each fault is recorded).
    if let Some(seat) = played.faults.iter().position(Option::is_some) {
        played.outcome = game.forfeit(seat as SeatIndex, "fault");
        return Ok(finish(
            played,
            game.as_ref(),
            agents,
            hashed.then(Sha256::new),
            record,
        ));
    }
    let mut moves = Moves {
        hash: hashed.then(Sha256::new),
        trace,
        record,
    };
    if let Prelude::Opening(opening) = prelude {
        prelude::opening(rules, game.as_mut(), opening, &mut played, &mut moves)?;
    }
    // The game's own end, or the first fault that ends it at once (the seat forfeits).
    let forfeit: Option<(SeatIndex, Fault)> = 'game: {
        if let Some(turns) = recorded
            && let Some(forfeit) = prelude::recorded(
                game.as_mut(),
                &mut agents,
                encoding,
                turns,
                &mut played,
                &mut moves,
            )?
        {
            break 'game Some(forfeit);
        }
        while let Some(turn) = game.turn() {
            let seat = turn.seat as usize;
            if played.faults[seat].is_some() {
                // The game took this seat's fault as its move and must not ask it again.
                let fault = played.faults[seat].take().expect("checked");
                break 'game Some((turn.seat, fault));
            }
            // Reading the clock costs a few percent of a fast game: only a recorded game is timed.
            let started = record.then(Instant::now);
            let applied = decide(&mut agents[seat], game.as_mut(), turn, encoding, record);
            if let Some(started) = started {
                played.time[seat] += started.elapsed();
            }
            played.decisions[seat] += 1;
            let (action, event, fault) = match applied {
                Ok((action, event)) => (action, event, false),
                // In a round of simultaneous moves the game may take the fault as the seat's move.
                Err(fault) => match game.fault_move(turn.seat) {
                    Some(event) => {
                        played.faults[seat] = Some(fault);
                        (Value::Null, event, true)
                    }
                    None => break 'game Some((turn.seat, fault)),
                },
            };
            moves.made(
                &mut played,
                turn,
                action,
                event,
                Made::Decided { fault },
                Some(&mut agents[seat]),
            );
            if let Err((seat, fault)) = tell(game.as_mut(), &mut agents, encoding) {
                break 'game Some((seat, fault));
            }
        }
        None
    };
    if let Some((seat, fault)) = forfeit {
        return Ok(forfeited(
            played,
            game.as_mut(),
            agents,
            moves.hash,
            seat,
            fault,
            record,
        ));
    }
    played.outcome = game
        .outcome()
        .ok_or_else(|| format!("{}: the game has no turn and no outcome", rules.name()))?;
    Ok(finish(played, game.as_ref(), agents, moves.hash, record))
}

/// Tells the seats that listen what the last move made known (through the game's encoding when it
/// has one); the error is the first listener's fault.
fn tell(
    game: &mut dyn Match,
    agents: &mut Vec<Agent>,
    encoding: Option<&dyn Encoding>,
) -> Result<(), (SeatIndex, Fault)> {
    if let Some(encoding) = encoding
        && let Some(typed) = game.typed()
    {
        if encoding.notifies() {
            encoding.notify(typed, agents)?;
        }
        return Ok(());
    }
    for (seat, function, payload) in game.take_notices() {
        if let Some(instance) = agents.listener(seat, function) {
            instance
                .call::<Value, Ignored>(function, &payload)
                .map_err(|fault| (seat, fault))?;
        }
    }
    Ok(())
}

/// A `load` fault if the strategy lacks the game's first function, with a hint naming the games its
/// functions look written for (a BS bot asked to play Connect Four).
fn missing_function(rules: &dyn Rules, agent: &mut Agent) -> Option<Fault> {
    let Agent::Bot { instance, .. } = agent else {
        return None;
    };
    let needed = *rules.functions().first()?;
    if instance.has_function(needed) {
        return None;
    }
    let mut known: Vec<&str> = crate::games::registry::all()
        .iter()
        .flat_map(|g| g.functions().iter().copied())
        .collect();
    known.sort_unstable();
    known.dedup();
    let has: Vec<&str> = known
        .into_iter()
        .filter(|f| instance.has_function(f))
        .collect();
    let hint = if has.is_empty() {
        String::new()
    } else {
        let games: Vec<&str> = crate::games::registry::all()
            .iter()
            .filter(|g| g.functions().first().is_some_and(|f| has.contains(f)))
            .map(|g| g.name())
            .collect();
        let names: Vec<String> = has.iter().map(|f| format!("`{f}`")).collect();
        format!(
            "; it has {}, so it looks written for {}",
            names.join(", "),
            games.join(" or ")
        )
    };
    Some(Fault::new(
        FaultKind::Load,
        format!(
            "the strategy has no function `{needed}`, which every {} strategy needs{hint}",
            rules.name()
        ),
    ))
}

/// The seat's answer to its turn, applied: through the game's typed encoding for a strategy when
/// the game has one, else as JSON.
fn decide(
    agent: &mut Agent,
    game: &mut dyn Match,
    turn: Turn,
    encoding: Option<&dyn Encoding>,
    record: bool,
) -> Result<(Value, Value), Fault> {
    let refused = |refusal| match refusal {
        Refusal::Malformed(m) => Fault::new(
            FaultKind::BadOutput,
            format!("`{}` returned {m}", turn.function),
        ),
        Refusal::Illegal(m) => Fault::new(FaultKind::Illegal, m),
    };
    let action = match agent {
        Agent::Bot { instance, .. } => {
            if let Some(encoding) = encoding
                && let Some(typed) = game.typed()
            {
                return match encoding.decide(typed, turn, instance, record) {
                    Ok(Decided { action, event }) => Ok((action, event)),
                    Err(Failed::Fault(fault)) => Err(fault),
                    Err(Failed::Refused(refusal)) => Err(refused(refusal)),
                };
            }
            instance.call::<Value, Value>(turn.function, &game.observation(turn.seat))?
        }
        Agent::Random(rng) => game
            .random_action(rng)
            .ok_or_else(|| Fault::new(FaultKind::Error, "no legal action for the random player"))?,
    };
    let event = game.apply(&action).map_err(refused)?;
    Ok((action, event))
}

/// A notice reaches a strategy that has its function (looked up once per game); the random player
/// hears nothing.
impl Listeners for Vec<Agent> {
    fn listener(&mut self, seat: SeatIndex, function: &'static str) -> Option<&mut Instance> {
        let Agent::Bot {
            instance, hears, ..
        } = self.get_mut(seat as usize)?
        else {
            return None;
        };
        // The same `&'static str` almost always: its address is compared before its bytes.
        let has = match hears
            .iter()
            .find(|(f, _)| std::ptr::eq(*f, function) || *f == function)
        {
            Some((_, has)) => *has,
            None => {
                let has = instance.has_function(function);
                hears.push((function, has));
                has
            }
        };
        has.then_some(&mut **instance)
    }

    fn instance(&mut self, seat: SeatIndex) -> Option<&mut Instance> {
        match self.get_mut(seat as usize)? {
            Agent::Bot { instance, .. } => Some(&mut **instance),
            Agent::Random(_) => None,
        }
    }
}

/// The lines a seat logged since the last look.
fn new_lines(agent: &mut Agent) -> Vec<String> {
    match agent {
        Agent::Bot {
            instance, logged, ..
        } => {
            let all = instance.log();
            let new = all.get(*logged..).unwrap_or_default().to_vec();
            *logged = all.len();
            new
        }
        Agent::Random(_) => Vec::new(),
    }
}

/// The game ended by `seat`'s fault during play: it forfeits.
fn forfeited(
    mut played: Played,
    game: &mut dyn Match,
    agents: Vec<Agent>,
    moves: Option<Sha256>,
    seat: SeatIndex,
    fault: Fault,
    record: bool,
) -> Played {
    played.faults[seat as usize] = Some(fault);
    played.outcome = game.forfeit(seat, "fault");
    finish(played, game, agents, moves, record)
}

fn finish(
    mut played: Played,
    game: &dyn Match,
    agents: Vec<Agent>,
    moves: Option<Sha256>,
    record: bool,
) -> Played {
    played.moves_sha256 = moves.map(|m| {
        game.moves_sha256()
            .unwrap_or_else(|| crate::runtime::hex(&m.finalize()))
    });
    played.turns = game.turns();
    played.details = game.details();
    for (seat, agent) in agents.iter().enumerate() {
        if let (Agent::Bot { instance, .. }, true) = (agent, record) {
            played.logs[seat] = instance.log();
        }
    }
    played
}

#[cfg(test)]
#[path = "generic_tests.rs"]
mod tests;

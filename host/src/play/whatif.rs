//! What would another bot have done? A recorded game is re-played through its contract, and at each
//! turn of one seat the observation that seat had is rebuilt from the replay alone (hidden
//! information included: a BS seat's own hand, never another's) and given to another strategy, as
//! the driver gives it: the same JSON, the same function, the same seat and seed. Every earlier
//! observation of that seat, and every notice it would have heard, reaches the new strategy in
//! order, so the state it keeps between turns is its own. The recorded moves are then played on,
//! whatever the new strategy answered: the game stays on its recorded path.
//!
//! Or the game leaves it: [`play_on`] plays the recorded moves up to a turn, then lets the new
//! strategy take its seat and other strategies the others, and records the new game.

use serde_json::Value;

use crate::games::contract::{Match, Rules, SeatIndex};
use crate::games::{registry, seat_seed};
use crate::play::generic::{self, Player, Step};
use crate::replay::{PlayedOn, Replay, ReplayFile};
use crate::runtime::payload::Ignored;
use crate::runtime::{Fault, Setup, Strategy};

/// One turn of the seat, decided again.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The move's number in the replay, from 1 (as `botbox replay` numbers them).
    pub turn: usize,
    /// The function the seat was asked (`choose_move`, BS's `play` or `call`).
    pub function: String,
    /// What the seat saw: the JSON its strategy received.
    pub observation: Value,
    /// What the recorded strategy answered (the action played).
    pub recorded: Value,
    /// What the new strategy answers, or its fault.
    pub answer: Result<Value, Fault>,
    /// The new strategy's log lines from this decision (its `print`s).
    pub log: Vec<String>,
    /// Whether it chooses otherwise: its answer is refused, faults, or leaves the game in another
    /// state than the recorded move did (an answer written otherwise that the game takes as the
    /// same move, such as a dice move with its `captures` flag, is the same choice).
    pub differs: bool,
}

impl Decision {
    /// Whether the new strategy chooses otherwise than the recorded one (a fault is otherwise).
    pub fn differs(&self) -> bool {
        self.differs
    }
}

/// Every turn of `seat` in the contract replay `file` (only move `only`, if given) decided again by
/// `strategy`. The error says why the replay cannot be re-played this way.
pub fn decide_again(
    file: &ReplayFile,
    seat: SeatIndex,
    strategy: &Strategy,
    only: Option<usize>,
) -> anyhow::Result<Vec<Decision>> {
    let h = &file.header;
    let rules = checked(file, seat, only, "decide it again")?;
    let start = || started(rules, h);
    let mut game = start()?;
    // A second game on the same path, where the new answers are tried: the same state after an
    // answer as after the recorded move is the same choice. Made again from the start when an
    // answer took it elsewhere.
    let mut probe = Some(start()?);
    let mut instance = strategy
        .instantiate(&Setup::new(rules.name(), seat_seed(h.seed, seat), seat))
        .map_err(|f| anyhow::anyhow!("the strategy does not start: {f}"))?;
    // The game's encoding sets the strategy up (Wormworld's programs get their start position)
    // and asks it where the observation alone would not do (they hear the moves they missed).
    let encoding = crate::hosted::encoding(rules.name());
    if let Some(encoding) = encoding
        && let Some(typed) = game.typed()
        && let Some((_, fault)) = encoding
            .begin(
                typed,
                &mut Alone {
                    seat,
                    instance: &mut instance,
                },
            )
            .into_iter()
            .next()
    {
        anyhow::bail!("the strategy does not start: {fault}");
    }
    let mut decisions = Vec::new();
    let last = only.unwrap_or(file.turns.len());
    for (i, t) in file.turns.iter().enumerate().take(last) {
        let asked = t["seat"].as_u64().map(|s| s as SeatIndex);
        let function = t["function"].as_str().unwrap_or_default().to_string();
        let opening = t["opening"] == true;
        let mut tried = None;
        if asked == Some(seat) && !opening && t["fault"] != true {
            let observation = game.observation(seat);
            let before = instance.log_len();
            let answer = match (encoding, game.turn()) {
                (Some(e), Some(turn)) if e.tells_missed_moves(&mut instance) => {
                    match game.typed() {
                        Some(typed) => e.ask_aside(typed, turn, &mut instance),
                        None => instance.call::<Value, Value>(&function, &observation),
                    }
                }
                _ => instance.call::<Value, Value>(&function, &observation),
            };
            let log = instance.log().into_iter().skip(before).collect();
            if probe.is_none() {
                probe = Some(replayed(start()?, &file.turns[..i])?);
            }
            let applies = match (&answer, probe.as_mut()) {
                (Ok(a), Some(p)) => p.apply(a).is_ok(),
                _ => false,
            };
            tried = Some(applies);
            if only.is_none_or(|n| n == i + 1) {
                decisions.push(Decision {
                    turn: i + 1,
                    function,
                    observation,
                    recorded: t["action"].clone(),
                    answer,
                    log,
                    differs: true,
                });
            }
        }
        // The game goes on as recorded.
        apply(game.as_mut(), t)
            .map_err(|e| anyhow::anyhow!("{}: move {}: {e}", file.path.display(), i + 1))?;
        let notices = game.take_notices();
        match tried {
            // The new answer left the probe where the recorded move left the game: the same choice.
            Some(true) => {
                let same = probe.as_ref().is_some_and(|p| p.state() == game.state());
                if let Some(d) = decisions.last_mut().filter(|d| d.turn == i + 1) {
                    d.differs = !same && d.answer.as_ref() != Ok(&d.recorded);
                }
                match same {
                    true => {
                        if let Some(p) = probe.as_mut() {
                            let _ = p.take_notices();
                        }
                    }
                    false => probe = None,
                }
            }
            // A refused answer or a fault changed nothing there: the recorded move goes on.
            Some(false) | None => {
                if let Some(p) = probe.as_mut() {
                    apply(p.as_mut(), t).map_err(anyhow::Error::msg)?;
                    let _ = p.take_notices();
                }
            }
        }
        // What the seat would have heard, in order (BS's events); openings tell nothing.
        for (to, function, payload) in notices {
            if to == seat && !opening && instance.has_function(function) {
                let _ = instance.call::<Value, Ignored>(function, &payload);
            }
        }
    }
    Ok(decisions)
}

/// A game played on from a recorded one: its replay and the move the strategies took over at.
#[derive(Debug)]
pub struct PlayedOnward {
    pub replay: Replay,
    /// The recorded moves played again before the strategies decided.
    pub recorded: usize,
    pub ending: crate::play::Ending,
}

/// The game of the contract replay `file` played on from move `from` (its number in the replay,
/// a move of `seat`): the moves before it as recorded, then `strategy` in `seat` and `against` in
/// the other seats (one for all of them, or one each in seat order). Every strategy is shown the
/// observations its seat had in the recorded moves first (see [`generic::play_on`]). The replay
/// says where it comes from (its header's `played_on`, its recorded turns `"recorded": true`).
pub fn play_on(
    file: &ReplayFile,
    seat: SeatIndex,
    strategy: &Strategy,
    against: &[&Strategy],
    from: usize,
) -> anyhow::Result<PlayedOnward> {
    let h = &file.header;
    let rules = checked(file, seat, Some(from), "play it on")?;
    let seats = h.strategies.len();
    let others = seats - 1;
    anyhow::ensure!(
        against.len() == 1 || against.len() == others,
        "--against: {} bots for the {others} other seats; give one for all of them or one each, in \
         seat order",
        against.len()
    );
    let mut others = against.iter().cycle();
    let strategies: Vec<&Strategy> = (0..seats)
        .map(|s| match s == seat as usize {
            true => strategy,
            false => *others.next().expect("cycled"),
        })
        .collect();
    let players: Vec<Player> = strategies.iter().map(|s| Player::Bot(s)).collect();
    // A game of more than two seats shows its players by name, as a run does.
    let names: Vec<String> = if seats > 2 {
        strategies.iter().map(|s| s.name().to_string()).collect()
    } else {
        Vec::new()
    };
    let variant = h.variant();
    let mut turns = crate::play::record::Turns::new(seats);
    let mut trace = |step: &Step| turns.push(step);
    let played = generic::play_on(
        rules,
        &variant,
        &players,
        &names,
        h.seed,
        &file.turns[..from - 1],
        true,
        Some(&mut trace),
    )
    .map_err(|e| anyhow::anyhow!("{}: {e}", file.path.display()))?;
    let mut header = crate::play::record::header(
        rules,
        &variant,
        &strategies,
        &names,
        h.number,
        h.seed,
        played.start.clone(),
    );
    header.played_on = Some(PlayedOn {
        from: file
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        recorded: from - 1,
        strategies: h.strategies.clone(),
    });
    let (ending, replay) = crate::play::record::recorded(played, Some(header), turns);
    Ok(PlayedOnward {
        replay: replay.expect("a header was given"),
        recorded: from - 1,
        ending,
    })
}

/// The rules of the contract replay `file`, after checking that `seat` is one of its seats and move
/// `n` (if given) one of its moves, and that seat's; the error says why not (`what`: what the
/// caller wanted to do with the replay).
fn checked(
    file: &ReplayFile,
    seat: SeatIndex,
    n: Option<usize>,
    what: &str,
) -> anyhow::Result<&'static dyn Rules> {
    let h = &file.header;
    anyhow::ensure!(
        h.params.get("variant").is_some(),
        "this replay was written before {} was played through its contract; play the game again \
         to {what}",
        h.game
    );
    let rules: &'static dyn Rules = registry::find(&h.game).map_err(anyhow::Error::msg)?;
    let seats = h.strategies.len();
    anyhow::ensure!(
        (seat as usize) < seats,
        "seat {seat}: the game has seats 0 to {}",
        seats - 1
    );
    if let Some(n) = n {
        anyhow::ensure!(
            (1..=file.turns.len()).contains(&n),
            "move {n}: the replay has moves 1 to {}",
            file.turns.len()
        );
        let asked = file.turns[n - 1]["seat"].as_u64();
        anyhow::ensure!(
            asked == Some(u64::from(seat)),
            "move {n} is seat {}'s, not seat {seat}'s (`botbox replay FILE` numbers the moves)",
            asked.map_or("?".to_string(), |s| s.to_string())
        );
    }
    Ok(rules)
}

/// What a seat saw when it was asked: its seat, the function and the observation (the JSON its
/// strategy received).
#[derive(Debug, Clone)]
pub struct Seen {
    pub seat: SeatIndex,
    pub function: &'static str,
    pub observation: Value,
}

/// What the seat deciding each move of the contract replay `file` saw, rebuilt by re-playing it:
/// one entry per move, `None` for a move no strategy decided (an opening move, a fault taken as a
/// move). A replay from before its game was played through the contract has none.
pub fn observations(file: &ReplayFile) -> anyhow::Result<Vec<Option<Seen>>> {
    let h = &file.header;
    if h.params.get("variant").is_none() {
        return Ok(Vec::new());
    }
    let rules: &dyn Rules = registry::find(&h.game).map_err(anyhow::Error::msg)?;
    let mut game = started(rules, h)?;
    let mut seen = Vec::with_capacity(file.turns.len());
    for (i, t) in file.turns.iter().enumerate() {
        let asked = game.turn();
        seen.push(match asked {
            Some(turn) if t["opening"] != true && t["fault"] != true => Some(Seen {
                seat: turn.seat,
                function: turn.function,
                observation: game.observation(turn.seat),
            }),
            _ => None,
        });
        apply(game.as_mut(), t)
            .map_err(|e| anyhow::anyhow!("{}: move {}: {e}", file.path.display(), i + 1))?;
        let _ = game.take_notices();
    }
    Ok(seen)
}

/// The recorded game at its start, its seats named as the run named them: a game of more than two
/// seats shows its players by the names in the header (as [`crate::play::record::header`] writes
/// them), and a seat's observation holds them.
fn started(rules: &dyn Rules, h: &crate::replay::Header) -> anyhow::Result<Box<dyn Match>> {
    let seats = h.strategies.len();
    let mut game = rules
        .start(&h.variant(), seats as u32, h.seed)
        .map_err(anyhow::Error::msg)?;
    if seats > 2 {
        let names: Vec<String> = h.strategies.iter().map(|s| s.name.clone()).collect();
        game.name_seats(&names);
    }
    Ok(game)
}

/// The one strategy being asked, in its seat, as the game's encoding reaches it.
struct Alone<'a> {
    seat: SeatIndex,
    instance: &'a mut crate::runtime::Instance,
}

impl crate::hosted::Listeners for Alone<'_> {
    fn listener(
        &mut self,
        seat: SeatIndex,
        function: &'static str,
    ) -> Option<&mut crate::runtime::Instance> {
        (seat == self.seat && self.instance.has_function(function)).then_some(&mut *self.instance)
    }

    fn instance(&mut self, seat: SeatIndex) -> Option<&mut crate::runtime::Instance> {
        (seat == self.seat).then_some(&mut *self.instance)
    }
}

/// Makes the recorded turn `t` on `game`: its action, or a fault the game takes as the seat's move.
fn apply(game: &mut dyn Match, t: &Value) -> Result<(), String> {
    match t["fault"] == true {
        true => {
            let seat = t["seat"].as_u64().unwrap_or_default() as SeatIndex;
            game.fault_move(seat)
                .map(|_| ())
                .ok_or_else(|| "a fault recorded as a move, which the game does not take".into())
        }
        false => game
            .apply(&t["action"])
            .map(|_| ())
            .map_err(|e| e.to_string()),
    }
}

/// `game` after the recorded `turns`.
fn replayed(mut game: Box<dyn Match>, turns: &[Value]) -> anyhow::Result<Box<dyn Match>> {
    for t in turns {
        apply(game.as_mut(), t).map_err(anyhow::Error::msg)?;
        let _ = game.take_notices();
    }
    Ok(game)
}

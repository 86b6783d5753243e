//! Mensch ärgere Dich nicht with unusual dice through the game contract ([`crate::games::contract`]):
//! two seats, `choose_move`, the **free variant** (the player chooses which piece moves), a dice file
//! as the variant.
//!
//! - **Dice.** The dice files of `examples/dice/` are built in (`wuerfel0` the default); any other is
//!   handed over as text and read by the dice file parser. Seat 0 plays the file's die 1 and seat 1
//!   its die 2, the first pair the ranking and `botbox tournament dice` number; `NAME:I,J` (as
//!   `wuerfel0:3,5`) picks dice I and J instead, numbered from 1 as in the file.
//! - **Who starts.** Seat 0, unless the name ends in `@1` (`wuerfel0:3,5@1`: seat 1, die 5, starts).
//!   A tournament keeps the lower-numbered die in seat 0 and lets each entry start half the games,
//!   as the ranking does.
//! - **Chance.** The rolls are drawn from the game's seed as the ranking draws them ([`Game::new`]
//!   with `rng(seed)`, one draw per roll), so the same seed and the same choices play the same game
//!   whoever makes the choices: always taking the frontmost move plays the strict rule's game.
//! - **Choices only.** A seat is asked only when its roll leaves two or more legal moves. A roll
//!   with one legal move is played for it and a roll with none is lost (the engine's `None` move), by
//!   the match itself: before the first question (those turns are kept as `opening` in
//!   [`Match::state`]) and after every move (listed in the move's replay event). So every turn the
//!   strategy sees has a real choice.
//! - **Length.** A game's length ([`Match::turns`]) is the engine's turns, rolls without a choice
//!   included, as the ranking counts them. Games are dealt by their seed: they do not repeat
//!   ([`Rules::repeats`]) and take no openings.
//!
//! The observation is the SDK's `dice::Observation` ([`observation`]); the action is the SDK's
//! `dice::Move` (`{"from": -1, "to": 0}`, -1 for a piece waiting on B).

use rand::RngExt;
use serde_json::{Value, json};

use super::{Die, Game, Move, Place, Position, Seat, file};
use crate::games::contract::{
    GameInfo, Match, Outcome, Refusal, Rules, SeatIndex, Seats, Turn, Variant, VariantInfo, shown,
    with_forfeits,
};
use crate::games::contract::{Templates, WireDecision};
use crate::games::{Rng, rng};
use botbox_sdk::dice as wire;

/// The text of the bundled dice file `name` (`wuerfel0`, the default, `loaded`, `no-six`,
/// `stalling`).
pub fn bundled(name: &str) -> Option<&'static str> {
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The bundled dice files, the default first.
const FILES: [(&str, &str); 4] = [
    (
        "wuerfel0",
        include_str!("../../../../examples/dice/wuerfel0.txt"),
    ),
    (
        "loaded",
        include_str!("../../../../examples/dice/loaded.txt"),
    ),
    (
        "no-six",
        include_str!("../../../../examples/dice/no-six.txt"),
    ),
    (
        "stalling",
        include_str!("../../../../examples/dice/stalling.txt"),
    ),
];

/// The free variant of the dice game as the registry lists it.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiceRules;

/// The registered dice game.
pub static RULES: DiceRules = DiceRules;

impl DiceRules {
    /// A variant's name read: the file's name, the numbers (from 1) of seat 0's and seat 1's dice,
    /// and the seat that starts (`NAME:I,J@1`; `NAME` alone is dice 1 and 2, seat 0 starting).
    pub fn named(variant: &Variant) -> (&str, [usize; 2], Seat) {
        let (name, first) = match variant.name.strip_suffix("@1") {
            Some(name) => (name, 1),
            None => (variant.name.strip_suffix("@0").unwrap_or(&variant.name), 0),
        };
        let picked = name.rsplit_once(':').and_then(|(base, pick)| {
            let (i, j) = pick.split_once(',')?;
            Some((base, [i.trim().parse().ok()?, j.trim().parse().ok()?]))
        });
        let (base, dice) = picked.unwrap_or((name, [1, 2]));
        (base, dice, first)
    }

    /// The two dice a variant gives, seat 0's first.
    pub fn dice(variant: &Variant) -> Result<[Die; 2], String> {
        Ok(DiceRules::setup(variant)?.0)
    }

    /// The two dice a variant gives, seat 0's first, and the seat that starts.
    pub fn setup(variant: &Variant) -> Result<([Die; 2], Seat), String> {
        let (base, [i, j], first) = DiceRules::named(variant);
        let text = match &variant.text {
            Some(text) => text.as_str(),
            None => FILES
                .iter()
                .find(|(name, _)| *name == base)
                .map(|(_, text)| *text)
                .ok_or_else(|| {
                    let names: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
                    format!(
                        "the dice game has no dice file {base:?}: the built-in ones are {}, or give \
                         a dice file; NAME:I,J picks dice I and J (default 1,2), NAME:I,J@1 lets seat \
                         1 start",
                        names.join(", ")
                    )
                })?,
        };
        let dice = file::parse(text).map_err(|e| format!("dice file {base}: {e}"))?;
        let pick = |n: usize| {
            n.checked_sub(1)
                .and_then(|k| dice.get(k))
                .cloned()
                .ok_or_else(|| format!("die {n}: {base} has dice 1 to {}", dice.len()))
        };
        Ok(([pick(i)?, pick(j)?], first))
    }
}

/// A die's faces for a description.
fn faces(die: &Die) -> String {
    let faces: Vec<String> = die.faces().iter().map(u64::to_string).collect();
    format!("[{}]", faces.join(" "))
}

/// What the registry lists of the game.
const INFO: GameInfo = GameInfo {
    name: "dice",
    title: "Mensch ärgere Dich nicht with unusual dice, free variant: choose which piece moves",
    seats: Seats::exactly(2),
    functions: &["choose_move"],
    bots: &[
        "strategies/lua/dice/frontmost.lua",
        "strategies/lua/dice/capture_first.lua",
        "strategies/lua/dice/expectimax.lua",
    ],
    setup_example: "--dice examples/dice/wuerfel0.txt --die 1",
    templates: Templates {
        lua: Some(include_str!("../../../../strategies/templates/dice.lua")),
        rust: Some(include_str!("../../../../strategies/templates/dice.rs")),
        wat: Some(include_str!("../../../../strategies/templates/dice.wat")),
        c: Some(include_str!("../../../../strategies/templates/dice.c")),
        zig: Some(include_str!("../../../../strategies/templates/dice.zig")),
        assemblyscript: Some(include_str!("../../../../strategies/templates/dice.ts")),
    },
    sparring: Some((
        "frontmost",
        include_str!("../../../../strategies/lua/dice/frontmost.lua"),
    )),
    wire: &[WireDecision::of::<wire::Observation, wire::Move>(
        "choose_move",
        "dice",
    )],
};

impl Rules for DiceRules {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn variants(&self) -> Vec<VariantInfo> {
        FILES
            .iter()
            .map(|(name, text)| {
                let dice = file::parse(text).expect("the bundled dice files parse");
                VariantInfo {
                    name: name.to_string(),
                    description: format!(
                        "{} dice; die 1 {} (seat 0, starts) against die 2 {}; {name}:I,J picks \
                         other dice, and {name}:I,J@1 lets seat 1 start",
                        dice.len(),
                        faces(&dice[0]),
                        faces(&dice[1]),
                    ),
                }
            })
            .collect()
    }

    fn start(&self, variant: &Variant, seats: u32, seed: u64) -> Result<Box<dyn Match>, String> {
        if !self.seats().contains(seats) {
            return Err(format!("the dice game is played by 2 players, not {seats}"));
        }
        let ([a, b], first) = DiceRules::setup(variant)?;
        Ok(with_forfeits(DiceMatch::new(a, b, first == 0, seed)))
    }

    /// A game is dealt by its seed's rolls: the same moves never make the same game twice, so
    /// games are not hashed and take no openings.
    fn repeats(&self) -> bool {
        false
    }
}

/// A place as the wire counts it: -1 for a piece waiting on B, else the step.
pub fn step(place: Place) -> i32 {
    match place {
        Place::Waiting => wire::WAITING,
        Place::Step(s) => i32::from(s),
    }
}

/// What `seat` sees: the roll waiting for its move (if any) and, when the move is `seat`'s, the
/// legal moves `legal` (frontmost first). The one builder of dice observations.
pub fn observation(game: &Game, seat: Seat, legal: &[Move]) -> wire::Observation {
    let position: &Position = game.position();
    let roll = game.pending();
    let theirs: Vec<i32> = position.places(1 - seat).into_iter().map(step).collect();
    wire::Observation {
        you: seat as u32,
        turn: game.turns(),
        face: roll.map_or(0, |r| r.face),
        steps: roll.map_or(0, |r| u32::from(r.steps)),
        die: game.die(seat).faces().to_vec(),
        opponent_die: game.die(1 - seat).faces().to_vec(),
        mine: position.places(seat).into_iter().map(step).collect(),
        theirs_on_my_track: theirs
            .iter()
            .filter(|&&s| (0..wire::GOAL).contains(&s))
            .map(|&s| wire::Observation::to_my_steps(s))
            .collect(),
        theirs,
        legal: legal
            .iter()
            .map(|&mv| wire::LegalMove {
                from: step(mv.from),
                to: i32::from(mv.to),
                captures: position.captures(seat, mv),
            })
            .collect(),
    }
}

/// One game of the free variant through the contract.
#[derive(Clone, Debug)]
pub struct DiceMatch {
    game: Game,
    /// The legal moves of the waiting roll when they leave a choice (two or more); empty otherwise.
    legal: Vec<Move>,
    /// The turns played for the seats before the first choice, as replay turns.
    opening: Vec<Value>,
    /// Actions applied through [`Match::apply`].
    applied: u32,
}

impl DiceMatch {
    /// A game with die `a` in seat 0 and die `b` in seat 1, seat 0 starting if `a_starts`, rolling
    /// from `seed`; the turns without a choice are played up to the first choice.
    pub fn new(a: Die, b: Die, a_starts: bool, seed: u64) -> DiceMatch {
        let mut game = DiceMatch {
            game: Game::new(a, b, a_starts, rng(seed)),
            legal: Vec::new(),
            opening: Vec::new(),
            applied: 0,
        };
        game.opening = game.advance(true);
        game
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Rolls and plays the turns that leave no choice until a roll leaves a choice or the game
    /// ends; returns those turns as replay turns if `record`.
    fn advance(&mut self, record: bool) -> Vec<Value> {
        let mut turns = Vec::new();
        while self.game.roll().is_ok() {
            let legal = self.game.legal_moves();
            if legal.len() >= 2 {
                self.legal = legal;
                return turns;
            }
            turns.extend(self.play(legal.first().copied(), record));
        }
        self.legal.clear();
        turns
    }

    /// Plays `mv` (checked) for the waiting roll and, if `record`, returns the turn as a replay turn
    /// (`play::dice::Turn`'s JSON).
    fn play(&mut self, mv: Option<Move>, record: bool) -> Option<Value> {
        let turn = self
            .game
            .play(mv)
            .expect("a legal move for the waiting roll");
        if !record {
            return None;
        }
        let position = self.game.position();
        Some(json!({
            "n": self.game.turns(),
            "seat": turn.seat,
            "face": turn.roll.face,
            "move": turn.mv,
            "captured": turn.captured,
            "places": [position.places(0), position.places(1)],
        }))
    }

    /// What the seat to move sees, typed (the game's typed encoding sends it).
    pub fn typed_observation(&self) -> wire::Observation {
        observation(&self.game, self.game.to_move(), &self.legal)
    }

    /// Plays the seat to move's `answer` and the rolls without a choice after it; the move's replay
    /// event (the turns played) if `record`. Refused, changing nothing, if the game is over or the
    /// answer is not a legal move.
    pub fn choose(&mut self, answer: wire::Move, record: bool) -> Result<Option<Value>, Refusal> {
        if self.is_over() {
            return Err(Refusal::Illegal("the game is over".into()));
        }
        let mv = self
            .legal
            .iter()
            .copied()
            .find(|mv| step(mv.from) == answer.from && i32::from(mv.to) == answer.to)
            .ok_or_else(|| {
                let legal: Vec<(i32, i32)> = self
                    .legal
                    .iter()
                    .map(|mv| (step(mv.from), i32::from(mv.to)))
                    .collect();
                Refusal::Illegal(format!(
                    "answered from {} to {}, which is not among the legal moves {legal:?}",
                    answer.from, answer.to
                ))
            })?;
        self.applied += 1;
        let mut turns: Vec<Value> = self.play(Some(mv), record).into_iter().collect();
        turns.extend(self.advance(record));
        Ok(record.then(|| json!({ "turns": turns })))
    }

    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }
}

impl Match for DiceMatch {
    fn turn(&self) -> Option<Turn> {
        (!self.is_over()).then(|| Turn {
            seat: self.game.to_move() as SeatIndex,
            function: "choose_move",
        })
    }

    fn observation(&self, seat: SeatIndex) -> Value {
        let seat = seat as Seat;
        let legal = if seat == self.game.to_move() && !self.is_over() {
            &self.legal[..]
        } else {
            &[]
        };
        serde_json::to_value(observation(&self.game, seat, legal)).expect("observations serialize")
    }

    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        if self.is_over() {
            return Err(Refusal::Illegal("the game is over".into()));
        }
        let answer: wire::Move = serde_json::from_value(action.clone()).map_err(|e| {
            Refusal::Malformed(format!(
                "{} ({e}): expected {}",
                shown(action),
                wire::EXPECTED
            ))
        })?;
        Ok(self.choose(answer, true)?.unwrap_or_default())
    }

    fn typed(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        if self.is_over() {
            return None;
        }
        let mv = self.legal[rng.random_range(0..self.legal.len())];
        Some(json!({ "from": step(mv.from), "to": mv.to }))
    }

    fn outcome(&self) -> Option<Outcome> {
        let outcome = self.game.outcome()?;
        let reason = outcome.end.reason();
        Some(Outcome::two_player(
            outcome.winner().map(|s| s as SeatIndex),
            &reason,
        ))
    }

    fn seat_count(&self) -> u32 {
        2
    }

    fn moves(&self) -> u32 {
        self.applied
    }

    /// The engine's turns: every roll, with a choice or without.
    fn turns(&self) -> u32 {
        self.game.turns()
    }

    fn state(&self) -> Value {
        let position = self.game.position();
        json!({
            "dice": [self.game.die(0).faces(), self.game.die(1).faces()],
            "to_move": self.game.to_move(),
            "turns": self.game.turns(),
            "roll": self.game.pending(),
            "places": [position.places(0), position.places(1)],
            "end": self.game.outcome().map(|o| o.end),
            "opening": self.opening,
        })
    }
}

#[cfg(test)]
#[path = "contract_tests.rs"]
mod tests;

//! BS through the game contract ([`crate::games::contract`]): four seats, the functions `play`,
//! `call` and the optional `observe`.
//!
//! A turn: the mover is asked `play` (its [`Game::play_observation`]),
//! then each other seat in seat order after the mover is asked `call` (its
//! [`Game::call_observation`], which shows no other seat's answer). The answers are collected in the
//! match and the turn is resolved in the engine after the last one, so every call is independent.
//! After a play, [`Match::take_notices`] gives every seat, in seat order, the public play event;
//! after a resolution that does not end the game, the call (or no call) event and, after seat 3's
//! turn, the round end, each to every seat (the `observe` events), and none once the game is
//! decided. The seed is the game's: the deal and the draws of a call come from it as in
//! [`Game::new`].
//!
//! The observations carry the players' names by seat. A match started by [`Rules::start`] names
//! the seats `seat0` to `seat3` until the driver names them ([`Match::name_seats`]: the entries'
//! names); [`BsMatch::with_names`] takes them at once.

use serde_json::{Value, json};

use super::{
    CallObservation, End, Event, Game, PLAYERS, PlayObservation, Resolution, Seat, policy,
};
use crate::games::Rng;
use crate::games::contract::{
    GameInfo, Match, Outcome, Refusal, Rules, SeatIndex, Seats, Turn, Variant, VariantInfo, shown,
    with_forfeits,
};
use crate::games::contract::{Templates, WireDecision};
use botbox_sdk::bs as wire;
use rand::RngExt;

/// How often [`Match::random_action`] calls "BS".
const RANDOM_CALL: f64 = 0.3;

/// BS as the registry lists it.
#[derive(Clone, Copy, Debug, Default)]
pub struct BsRules;

/// The registered BS.
pub static RULES: BsRules = BsRules;

/// What the registry lists of the game.
const INFO: GameInfo = GameInfo {
    name: "bs",
    title: "BS (Cheat): four players bluff about the cards they play; first with no cards wins",
    seats: Seats::exactly(PLAYERS as u32),
    functions: &["play", "call", "observe"],
    bots: &[
        "strategies/lua/bs/player1.lua",
        "strategies/lua/bs/player3.lua",
        "strategies/lua/bs/player4.lua",
        "strategies/lua/bs/hoarder.lua",
        "strategies/lua/bs/calculating_liar.lua",
    ],
    setup_example: "",
    templates: Templates {
        lua: Some(include_str!("../../../../strategies/templates/bs.lua")),
        rust: Some(include_str!("../../../../strategies/templates/bs.rs")),
        wat: Some(include_str!("../../../../strategies/templates/bs.wat")),
        c: Some(include_str!("../../../../strategies/templates/bs.c")),
        zig: Some(include_str!("../../../../strategies/templates/bs.zig")),
        assemblyscript: Some(include_str!("../../../../strategies/templates/bs.ts")),
    },
    sparring: Some((
        "player1",
        include_str!("../../../../strategies/lua/bs/player1.lua"),
    )),
    wire: &[
        WireDecision::of::<wire::PlayObservation, wire::PlayAction>("play", "bs.play"),
        WireDecision::of::<wire::CallObservation, wire::CallAction>("call", "bs.call"),
        WireDecision::notice::<wire::Event>("observe", "bs.event"),
    ],
};

impl Rules for BsRules {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn variants(&self) -> Vec<VariantInfo> {
        vec![VariantInfo {
            name: "standard".into(),
            description: "52 cards dealt to four seats, 1000 rounds at most".into(),
        }]
    }

    fn start(&self, variant: &Variant, seats: u32, seed: u64) -> Result<Box<dyn Match>, String> {
        if !self.seats().contains(seats) {
            return Err(format!("BS is played by {PLAYERS} players, not {seats}"));
        }
        if variant.name != "standard" || variant.text.is_some() {
            return Err(format!(
                "BS has one variant, standard, not {:?}",
                variant.name
            ));
        }
        Ok(with_forfeits(BsMatch::new(seed)))
    }

    /// Each game is dealt from its seed.
    fn repeats(&self) -> bool {
        false
    }

    /// One variant with nothing to choose: no set-up.
    fn setup_text(&self, _: &Variant) -> String {
        String::new()
    }
}

/// One game of BS through the contract.
///
/// Besides the contract's JSON, the match has a typed face for the game's encoding in
/// `crate::hosted` ([`Match::typed`]): the observations as the SDK's types, kept and updated in
/// place ([`BsMatch::play_observation`], [`BsMatch::call_observation`]), the answers applied as
/// cards and booleans ([`BsMatch::play_cards`], [`BsMatch::call_bs`]) and the public events as
/// [`Event`]s told to every seat ([`BsMatch::events`]). Both faces are one game: the JSON face is
/// made from the typed one.
#[derive(Clone, Debug)]
pub struct BsMatch {
    game: Game,
    names: Vec<String>,
    /// The answers collected for the play waiting for its calls, by seat.
    calls: [bool; PLAYERS],
    /// How many of the other seats have answered the waiting play.
    asked: usize,
    /// The public events not yet told, each to every seat in seat order.
    events: Vec<Event>,
    /// Actions applied through [`Match::apply`], plays and calls.
    applied: u32,
    /// The observations last handed out, updated in place for the next.
    play_obs: Option<PlayObservation>,
    call_obs: Option<CallObservation>,
}

impl BsMatch {
    /// A game seeded with `seed`, the seats named `seat0` to `seat3`.
    pub fn new(seed: u64) -> BsMatch {
        let names = (0..PLAYERS).map(|s| format!("seat{s}")).collect();
        BsMatch::with_names(seed, names)
    }

    /// A game seeded with `seed`, the seats named `names` in the observations.
    pub fn with_names(seed: u64, names: Vec<String>) -> BsMatch {
        BsMatch {
            game: Game::new(seed),
            names,
            calls: [false; PLAYERS],
            asked: 0,
            events: Vec::new(),
            applied: 0,
            play_obs: None,
            call_obs: None,
        }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The seat asked to call next on the waiting play.
    fn caller(&self) -> Seat {
        (self.game.to_move() + 1 + self.asked) % PLAYERS
    }

    /// What the mover sees before playing (the game waits for a play).
    pub fn play_observation(&mut self) -> &PlayObservation {
        match &mut self.play_obs {
            Some(obs) => self.game.update_play_observation(obs),
            None => self.play_obs = Some(self.game.play_observation(&self.names)),
        }
        self.play_obs.as_ref().expect("made above")
    }

    /// What `seat` sees when asked to call on the waiting play; `None` if it is not to be asked.
    pub fn call_observation(&mut self, seat: Seat) -> Option<&CallObservation> {
        let asked = match &mut self.call_obs {
            Some(obs) => self.game.update_call_observation(seat, obs),
            None => {
                self.call_obs = self.game.call_observation(seat, &self.names);
                self.call_obs.is_some()
            }
        };
        asked.then(|| self.call_obs.as_ref().expect("made above"))
    }

    /// The public events not yet told, each for every seat in seat order: the caller tells them
    /// and clears the list.
    pub fn events(&mut self) -> &mut Vec<Event> {
        &mut self.events
    }

    /// What `seat` sees between its decisions: its hand and the public counts, in the shape of a
    /// play observation.
    fn view(&self, seat: Seat) -> PlayObservation {
        PlayObservation {
            you: seat as u32,
            players: self.names.clone(),
            round: self.game.round(),
            turn: self.game.turn(),
            rank: self.game.required_rank(),
            hand: self.game.hand(seat).iter().map(u32::from).collect(),
            hand_sizes: self.game.hand_sizes().to_vec(),
            pile: self.game.pile_len(),
        }
    }

    /// Plays `cards` for the mover; the move's replay event when `record`.
    pub fn play_cards(&mut self, cards: &[u32], record: bool) -> Result<Option<Value>, Refusal> {
        let info = self
            .game
            .play(cards)
            .map_err(|e| Refusal::Illegal(format!("played {cards:?}: {e}")))?;
        self.applied += 1;
        self.events.push(info.event());
        Ok(record.then(|| {
            json!({
                "n": info.turn + 1,
                "seat": info.player,
                "play": cards,
                "rank": info.rank,
            })
        }))
    }

    /// The next caller's answer to the waiting play (the last one resolves the turn); the move's
    /// replay event when `record`.
    pub fn call_bs(&mut self, call: bool, record: bool) -> Result<Option<Value>, Refusal> {
        if !self.game.awaiting_calls() {
            return Err(Refusal::Illegal("no play waits for a call".into()));
        }
        let seat = self.caller();
        self.calls[seat] = call;
        self.asked += 1;
        self.applied += 1;
        let mut event = record.then(|| json!({ "seat": seat, "call": call }));
        if self.asked == PLAYERS - 1 {
            let resolution = self
                .game
                .resolve(std::mem::replace(&mut self.calls, [false; PLAYERS]))
                .expect("a play waits for its calls");
            self.asked = 0;
            if let Some(event) = &mut event {
                event["turn"] = self.turn_record(&resolution);
            }
            if !self.game.is_over() {
                self.events.push(resolution.event());
                if let Some(round) = resolution.round_end() {
                    self.events.push(round);
                }
            }
        }
        Ok(event)
    }

    fn play(&mut self, action: &Value) -> Result<Value, Refusal> {
        let cards: Vec<u32> = serde_json::from_value(action.clone()).map_err(|_| {
            Refusal::Malformed(format!(
                "{}, not a play: expected a list of card ids from the hand, such as [8, 9]",
                shown(action)
            ))
        })?;
        Ok(self.play_cards(&cards, true)?.expect("recorded"))
    }

    fn call(&mut self, action: &Value) -> Result<Value, Refusal> {
        let call = action.as_bool().ok_or_else(|| {
            Refusal::Malformed(format!(
                "{}, not a call: expected true or false",
                shown(action)
            ))
        })?;
        Ok(self.call_bs(call, true)?.expect("recorded"))
    }

    /// The whole turn as a replay records it, hidden cards included.
    fn turn_record(&self, r: &Resolution) -> Value {
        json!({
            "n": r.turn + 1,
            "seat": r.player,
            "rank": r.rank,
            "cards": r.cards.iter().map(u32::from).collect::<Vec<_>>(),
            "callers": (0..PLAYERS).filter(|&s| r.callers[s]).collect::<Vec<_>>(),
            "caller": r.caller,
            "lie": r.lie,
            "taker": r.taker,
            "taken": r.taken,
            "reward": r.reward.map(u32::from),
            "hand_sizes": self.game.hand_sizes(),
            "pile": self.game.pile_len(),
        })
    }
}

impl Match for BsMatch {
    fn turn(&self) -> Option<Turn> {
        if self.is_over() {
            None
        } else if self.game.awaiting_calls() {
            Some(Turn {
                seat: self.caller() as SeatIndex,
                function: "call",
            })
        } else {
            Some(Turn {
                seat: self.game.to_move() as SeatIndex,
                function: "play",
            })
        }
    }

    /// The mover's play observation or a caller's call observation, the seat's decision; between its decisions, a seat sees its own hand and the public counts (the shape of a
    /// play observation, `you` being the seat), or its call observation while a play waits.
    fn observation(&self, seat: SeatIndex) -> Value {
        let seat = seat as Seat;
        let mover = self.game.to_move();
        let value = if self.is_over() {
            serde_json::to_value(self.view(seat))
        } else if self.game.awaiting_calls() && seat != mover {
            let obs = self.game.call_observation(seat, &self.names);
            serde_json::to_value(obs.expect("a play waits and seat did not make it"))
        } else if seat == mover {
            serde_json::to_value(self.game.play_observation(&self.names))
        } else {
            serde_json::to_value(self.view(seat))
        };
        value.expect("observations serialize")
    }

    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        let Some(turn) = self.turn() else {
            return Err(Refusal::Illegal("the game is over".into()));
        };
        if turn.function == "play" {
            self.play(action)
        } else {
            self.call(action)
        }
    }

    fn take_notices(&mut self) -> Vec<(SeatIndex, &'static str, Value)> {
        let mut notices = Vec::with_capacity(self.events.len() * PLAYERS);
        for event in self.events.drain(..) {
            let payload = serde_json::to_value(event).expect("events serialize");
            for seat in 0..PLAYERS {
                notices.push((seat as SeatIndex, "observe", payload.clone()));
            }
        }
        notices
    }

    /// A random play of one to four cards of the hand, or a call with probability 0.3.
    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        let turn = self.turn()?;
        Some(if turn.function == "play" {
            let hand = self.game.hand(turn.seat as Seat);
            let play = policy::random_play(hand, rng);
            json!(play.iter().map(u32::from).collect::<Vec<_>>())
        } else {
            json!(rng.random_bool(RANDOM_CALL))
        })
    }

    /// The winner gets 1 point and place 0, the others 0 points and place 1; after the round limit
    /// nobody won: 0 points and place 0 for everyone.
    fn outcome(&self) -> Option<Outcome> {
        let end = self.game.end()?;
        let (points, ranks) = match end {
            End::Won(winner) => (0..PLAYERS)
                .map(|s| if s == winner { (1.0, 0) } else { (0.0, 1) })
                .unzip(),
            End::RoundLimit => (vec![0.0; PLAYERS], vec![0; PLAYERS]),
        };
        Some(Outcome {
            points,
            ranks,
            reason: end.reason().to_string(),
        })
    }

    fn seat_count(&self) -> u32 {
        PLAYERS as u32
    }

    fn moves(&self) -> u32 {
        self.applied
    }

    /// The turns completed: a play and its three calls make one.
    fn turns(&self) -> u32 {
        self.game.turn()
    }

    fn name_seats(&mut self, names: &[String]) {
        if names.len() == PLAYERS {
            self.names = names.to_vec();
            self.play_obs = None;
            self.call_obs = None;
        }
    }

    fn typed(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }

    /// Everything: every hand, the pile, and the calls collected for a waiting play (`null` for a
    /// seat not yet asked).
    fn state(&self) -> Value {
        let hands: Vec<Vec<u32>> = (0..PLAYERS)
            .map(|s| self.game.hand(s).iter().map(u32::from).collect())
            .collect();
        let calls: Vec<Option<bool>> = (0..PLAYERS)
            .map(|s| {
                let k = (s + PLAYERS - self.game.to_move()) % PLAYERS;
                (self.game.awaiting_calls() && k >= 1 && k <= self.asked).then_some(self.calls[s])
            })
            .collect();
        json!({
            "turn": self.game.turn(),
            "to_move": self.game.to_move(),
            "rank": self.game.required_rank(),
            "hands": hands,
            "pile": self.game.pile().iter().map(u32::from).collect::<Vec<_>>(),
            "awaiting_calls": self.game.awaiting_calls(),
            "calls": calls,
            "end": self.game.end(),
        })
    }
}

#[cfg(test)]
#[path = "contract_tests.rs"]
mod tests;

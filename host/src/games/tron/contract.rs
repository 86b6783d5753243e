//! Tron through the game contract: the bundled maps as named variants (or any map file), a round of
//! simultaneous moves held until both seats have answered, and a fault as a crash on that turn.

use serde::Deserialize;
use serde_json::{Value, json};

use super::{End, Game, Map, Move};
use crate::games::Rng;
use crate::games::contract::{
    GameInfo, Match, Outcome, Refusal, Rules, SeatIndex, Seats, Turn, Variant, VariantInfo, shown,
    with_forfeits,
};
use crate::games::contract::{Templates, WireDecision};
use botbox_sdk::tron as wire;

/// The bundled maps: their names, a line for `botbox games`, and their text (`None`: the empty
/// 15 x 15 arena).
const MAPS: [(&str, &str, Option<&str>); 3] = [
    ("arena", "an empty 15 x 15 arena", None),
    (
        "pillars",
        "15 x 15, five square pillars",
        Some(include_str!("maps/pillars.txt")),
    ),
    (
        "walls",
        "15 x 15 framed, two bars with a gap each",
        Some(include_str!("maps/walls.txt")),
    ),
];

const CHOOSE_MOVE: &str = "choose_move";

const INFO: GameInfo = GameInfo {
    name: "tron",
    title: "Tron light cycles: two riders move at once, leaving walls; the one who crashes loses",
    seats: Seats::exactly(2),
    functions: &[CHOOSE_MOVE],
    bots: &[
        "strategies/lua/tron/space.lua",
        "strategies/lua/tron/wall_hugger.lua",
        "strategies/lua/tron/random.lua",
    ],
    setup_example: "--variant pillars",
    templates: Templates {
        lua: Some(include_str!("../../../../strategies/templates/tron.lua")),
        rust: Some(include_str!("../../../../strategies/templates/tron.rs")),
        wat: Some(include_str!("../../../../strategies/templates/tron.wat")),
        c: Some(include_str!("../../../../strategies/templates/tron.c")),
        zig: Some(include_str!("../../../../strategies/templates/tron.zig")),
        assemblyscript: Some(include_str!("../../../../strategies/templates/tron.ts")),
    },
    sparring: Some((
        "wall_hugger",
        include_str!("../../../../strategies/lua/tron/wall_hugger.lua"),
    )),
    wire: &[WireDecision::of::<wire::Observation, wire::Move>(
        CHOOSE_MOVE,
        "tron",
    )],
};

/// Tron's rules, as the registry lists them.
#[derive(Debug)]
pub struct TronRules;

/// Tron in the registry.
pub static RULES: TronRules = TronRules;

impl TronRules {
    /// The map of `variant`: a bundled map by name, or the variant's text (a map file).
    pub fn map(variant: &Variant) -> Result<Map, String> {
        if let Some(text) = &variant.text {
            return Map::parse(text).map_err(|e| format!("{}: {e}", variant.name));
        }
        match MAPS.iter().find(|(name, _, _)| *name == variant.name) {
            Some((_, _, None)) => Ok(Map::empty(15, 15)),
            Some((_, _, Some(text))) => Map::parse(text),
            None => Err(format!(
                "unknown map {:?}: the maps are {}, or a map file (docs/tron.md)",
                variant.name,
                MAPS.map(|(name, _, _)| name).join(", ")
            )),
        }
    }
}

impl Rules for TronRules {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn variants(&self) -> Vec<VariantInfo> {
        MAPS.iter()
            .map(|(name, description, _)| VariantInfo {
                name: name.to_string(),
                description: description.to_string(),
            })
            .collect()
    }

    fn start(&self, variant: &Variant, seats: u32, _seed: u64) -> Result<Box<dyn Match>, String> {
        if seats != 2 {
            return Err(format!("tron is played by 2 players, not {seats}"));
        }
        let map = TronRules::map(variant)?;
        Ok(with_forfeits(TronMatch::new(&map)))
    }
}

/// A game of Tron seen through the contract: seat 0's answer is held until seat 1's comes, then
/// the turn is resolved with both.
#[derive(Debug, Clone)]
pub struct TronMatch {
    game: Game,
    /// Seat 0's answer of this turn, once given (`None` inside: it faulted, so it crashes).
    held: Option<Option<Move>>,
    applied: u32,
}

impl TronMatch {
    pub fn new(map: &Map) -> TronMatch {
        TronMatch {
            game: Game::new(map),
            held: None,
            applied: 0,
        }
    }

    /// A seat's move of the turn (`None`: a crash); the second resolves the turn.
    fn answer(&mut self, mv: Option<Move>) -> Value {
        let Some(first) = self.held.take() else {
            self.held = Some(mv);
            return json!({ "held": true });
        };
        let crashed = self.game.step([first, mv]);
        let name = |m: Option<Move>| m.map(Move::name);
        json!({ "moves": [name(first), name(mv)], "crashed": crashed })
    }
}

impl Match for TronMatch {
    fn turn(&self) -> Option<Turn> {
        self.game.end().is_none().then(|| Turn {
            seat: u32::from(self.held.is_some()),
            function: CHOOSE_MOVE,
        })
    }

    /// The board as it was when the turn began: a held answer is seen by nobody.
    fn observation(&self, seat: SeatIndex) -> Value {
        serde_json::to_value(self.game.observation(seat as usize)).expect("observations serialize")
    }

    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        if self.game.end().is_some() {
            return Err(Refusal::Illegal("the game is over".into()));
        }
        let mv = Move::deserialize(action).map_err(|_| {
            Refusal::Malformed(format!("{}, not {}", shown(action), wire::EXPECTED))
        })?;
        self.applied += 1;
        Ok(self.answer(Some(mv)))
    }

    /// A fault is a crash on that turn, resolved with the other's move: both crashing is a draw.
    fn fault_move(&mut self, _seat: SeatIndex) -> Option<Value> {
        self.game.end().is_none().then(|| self.answer(None))
    }

    /// A move that does not crash into a wall, when there is one.
    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        use rand::seq::IndexedRandom;
        let seat = self.turn()?.seat as usize;
        let safe = self.game.safe_moves(seat);
        let mv = safe.choose(rng).copied().unwrap_or(Move::North);
        Some(json!(mv.name()))
    }

    fn outcome(&self) -> Option<Outcome> {
        let end = self.game.end()?;
        let winner = match end {
            End::Won(seat) => Some(seat as SeatIndex),
            End::BothCrashed | End::TurnLimit => None,
        };
        Some(Outcome::two_player(winner, end.reason()))
    }

    fn seat_count(&self) -> u32 {
        2
    }

    fn moves(&self) -> u32 {
        self.applied
    }

    fn state(&self) -> Value {
        json!({
            "rows": self.game.rows(),
            "turn": self.game.turn(),
            "held": self.held.map(|m| m.map(Move::name)),
        })
    }
}

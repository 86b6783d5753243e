//! 2048 through the game contract ([`crate::games::contract`]): one seat, `choose_move`, a board size
//! as the variant.
//!
//! The observation is the engine's [`Game::observation`] as JSON; the action is a direction string.
//! The game is seeded with [`Game::new`] and the game's seed, so the same seed and the same
//! directions give the same game:
//! the two starting tiles are spawned by [`Rules::start`], and each move's tile inside
//! [`Match::apply`]. The game ends when no move is left (`no moves left`) or after [`MOVE_CAP`]
//! moves (`move cap`); either way the seat's points are its score. The match has a typed face for
//! the game's encoding in `crate::hosted` ([`Match::typed`]): the engine's observation, and a
//! direction applied as a [`Direction`] ([`G2048Match::slide`]).

use rand::RngExt;
use serde_json::{Value, json};

use super::{Direction, Game, MAX_SIZE, MIN_SIZE, check_size};
use crate::games::Rng;
use crate::games::contract::{
    GameInfo, Match, Outcome, Refusal, Rules, SeatIndex, Seats, Turn, Variant, VariantInfo, shown,
    with_forfeits,
};
use crate::games::contract::{Templates, WireDecision};
use botbox_sdk::g2048 as wire;

/// The most moves a game of 2048 through the contract may last: a solo game has no opponent to end
/// it, and a strategy that never loses (or a board that keeps merging) would otherwise run forever.
/// After this many moves the game ends with reason `move cap`, the score as it stands. Every move adds
/// a 2 or a 4 to the sum of the tiles, so a million moves means tiles summing to over two million: far
/// past what a 4x4 board can hold (its largest tile is 2^17), so the cap never ends a default game
/// that could still be lost; it bounds the bigger boards.
pub const MOVE_CAP: u32 = 1_000_000;

/// The board sizes [`G2048Rules::variants`] lists, the default first; any `NxN` from
/// [`MIN_SIZE`] to [`MAX_SIZE`] is accepted.
const LISTED: [usize; 5] = [4, 3, 5, 6, 8];

/// 2048 as the registry lists it.
#[derive(Clone, Copy, Debug, Default)]
pub struct G2048Rules;

/// The registered 2048.
pub static RULES: G2048Rules = G2048Rules;

impl G2048Rules {
    /// The board side a variant name gives: `NxN` with N from 3 to 8.
    fn size(name: &str) -> Result<usize, String> {
        let bad = || {
            format!(
                "2048 has no variant {name:?}: a variant is a board size NxN, {MIN_SIZE}x{MIN_SIZE} to \
                 {MAX_SIZE}x{MAX_SIZE} (default 4x4)"
            )
        };
        let (a, b) = name.split_once('x').ok_or_else(bad)?;
        let (a, b) = (
            a.parse::<usize>().map_err(|_| bad())?,
            b.parse::<usize>().map_err(|_| bad())?,
        );
        if a != b {
            return Err(bad());
        }
        check_size(a).map_err(|_| bad())
    }
}

/// What the registry lists of the game.
const INFO: GameInfo = GameInfo {
    name: "2048",
    title: "2048: slide and merge tiles on a square board; the score is the sum of the merges",
    seats: Seats::exactly(1),
    functions: &["choose_move"],
    bots: &[
        "strategies/lua/g2048/corner.lua",
        "strategies/lua/g2048/greedy.lua",
    ],
    setup_example: "",
    templates: Templates {
        lua: Some(include_str!("../../../../strategies/templates/2048.lua")),
        rust: Some(include_str!("../../../../strategies/templates/2048.rs")),
        wat: Some(include_str!("../../../../strategies/templates/2048.wat")),
        c: Some(include_str!("../../../../strategies/templates/2048.c")),
        zig: Some(include_str!("../../../../strategies/templates/2048.zig")),
        assemblyscript: Some(include_str!("../../../../strategies/templates/2048.ts")),
    },
    sparring: None,
    wire: &[WireDecision::of::<wire::Observation, wire::Direction>(
        "choose_move",
        "2048",
    )],
};

impl Rules for G2048Rules {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn variants(&self) -> Vec<VariantInfo> {
        LISTED
            .iter()
            .map(|&n| VariantInfo {
                name: format!("{n}x{n}"),
                description: if n == 4 {
                    format!("the classic {n}x{n} board (fast path), at most {MOVE_CAP} moves")
                } else {
                    format!("a {n}x{n} board, at most {MOVE_CAP} moves")
                },
            })
            .collect()
    }

    fn start(&self, variant: &Variant, seats: u32, seed: u64) -> Result<Box<dyn Match>, String> {
        if !self.seats().contains(seats) {
            return Err(format!("2048 is played by 1 player, not {seats}"));
        }
        if variant.text.is_some() {
            return Err(format!(
                "2048 has no variant files: {:?} names a board size such as 4x4",
                variant.name
            ));
        }
        let size = G2048Rules::size(&variant.name)?;
        Ok(with_forfeits(G2048Match::new(size, seed, MOVE_CAP)))
    }

    /// Tiles spawn at random from the seed.
    fn repeats(&self) -> bool {
        false
    }

    /// The board size, as `size N`.
    fn setup_text(&self, variant: &Variant) -> String {
        match G2048Rules::size(&variant.name) {
            Ok(size) => format!("size {size}"),
            Err(_) => format!("variant {}", variant.name),
        }
    }
}

/// One game of 2048 through the contract.
#[derive(Clone, Debug)]
pub struct G2048Match {
    game: Game,
    cap: u32,
}

impl G2048Match {
    /// A game of side `size` seeded with `seed`, ending after `cap` moves.
    /// Panics on a size outside 3..=8 (the variant names are checked by [`G2048Rules::start`]).
    pub fn new(size: usize, seed: u64, cap: u32) -> G2048Match {
        G2048Match {
            game: Game::new(size, seed).expect("a checked board size"),
            cap,
        }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn points(&self, reason: &str) -> Outcome {
        Outcome {
            points: vec![self.game.score() as f64],
            ranks: vec![0],
            reason: reason.to_string(),
        }
    }

    fn is_over(&self) -> bool {
        self.game.moves() >= self.cap || self.game.is_over()
    }

    /// Slides the board `direction` in a game that is not over (its [`Match::turn`] says so); the
    /// move's replay event when `record`. A direction that changes nothing is refused with the legal
    /// ones.
    pub fn slide(&mut self, direction: Direction, record: bool) -> Result<Option<Value>, Refusal> {
        let step = self.game.step(direction).map_err(|_| {
            let legal: Vec<&str> = self.game.legal().iter().map(|d| d.name()).collect();
            Refusal::Illegal(format!(
                "{} changes nothing (legal: {})",
                direction.name(),
                legal.join(", ")
            ))
        })?;
        Ok(record.then(|| {
            json!({
                "action": direction.name(),
                "gained": step.gained,
                "spawn": step.spawned.map(|(cell, value)| json!({ "cell": cell, "value": value })),
            })
        }))
    }
}

impl Match for G2048Match {
    fn turn(&self) -> Option<Turn> {
        (!self.is_over()).then_some(Turn {
            seat: 0,
            function: "choose_move",
        })
    }

    fn observation(&self, _seat: SeatIndex) -> Value {
        serde_json::to_value(self.game.observation()).expect("observations serialize")
    }

    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        if self.is_over() {
            return Err(Refusal::Illegal("the game is over".into()));
        }
        let direction = action
            .as_str()
            .and_then(Direction::from_name)
            .ok_or_else(|| {
                Refusal::Malformed(format!(
                    "{}, not a direction: expected \"left\", \"right\", \"up\" or \"down\"",
                    shown(action)
                ))
            })?;
        Ok(self.slide(direction, true)?.expect("recorded"))
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        if self.is_over() {
            return None;
        }
        let legal = self.game.legal();
        let pick = legal[rng.random_range(0..legal.len())];
        Some(Value::from(pick.name()))
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.game.is_over() {
            Some(self.points("no moves left"))
        } else if self.game.moves() >= self.cap {
            Some(self.points("move cap"))
        } else {
            None
        }
    }

    /// A 2048 game that ends at fault keeps its score: there is nobody else to share the points.
    fn forfeit_outcome(&self, _seat: SeatIndex, reason: &str) -> Outcome {
        self.points(reason)
    }

    fn seat_count(&self) -> u32 {
        1
    }

    fn moves(&self) -> u32 {
        self.game.moves()
    }

    /// The largest tile.
    fn details(&self) -> Option<Value> {
        Some(json!({ "max_tile": self.game.max_tile() }))
    }

    fn typed(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }

    fn state(&self) -> Value {
        json!({
            "size": self.game.size(),
            "board": self.game.board_values(),
            "score": self.game.score(),
            "moves": self.game.moves(),
            "won": self.game.won(),
            "move_cap": self.cap,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{derive_seed, rng};

    fn start(name: &str, seed: u64) -> Box<dyn Match> {
        RULES.start(&Variant::named(name), 1, seed).unwrap()
    }

    #[test]
    fn the_registry_entry() {
        assert_eq!(RULES.name(), "2048");
        assert_eq!(RULES.seats(), Seats::exactly(1));
        assert_eq!(RULES.functions(), ["choose_move"]);
        let names: Vec<String> = RULES.variants().into_iter().map(|v| v.name).collect();
        assert_eq!(names, ["4x4", "3x3", "5x5", "6x6", "8x8"]);
        for name in ["3x3", "7x7", "8x8"] {
            assert!(RULES.start(&Variant::named(name), 1, 0).is_ok(), "{name}");
        }
        for name in ["2x2", "9x9", "4x5", "4", "x", "big"] {
            let err = RULES.start(&Variant::named(name), 1, 0).err().unwrap();
            assert!(err.contains("NxN"), "{name}: {err}");
        }
        assert!(RULES.start(&Variant::named("4x4"), 2, 0).is_err());
        let file = Variant {
            name: "4x4".into(),
            text: Some("x".into()),
        };
        assert!(RULES.start(&file, 1, 0).is_err());
    }

    #[test]
    fn seeded_random_playouts_end_with_one_entry_per_seat() {
        for (i, name) in ["4x4", "3x3", "5x5"].into_iter().enumerate() {
            let seed = derive_seed(0x2048, i as u64);
            let mut game = start(name, seed);
            let mut player = rng(derive_seed(seed, 1));
            while let Some(turn) = game.turn() {
                assert_eq!(turn.seat, 0);
                let action = game.random_action(&mut player).unwrap();
                game.apply(&action).unwrap();
            }
            assert!(game.random_action(&mut player).is_none());
            let outcome = game.outcome().unwrap();
            assert_eq!(outcome.points.len(), 1);
            assert_eq!(outcome.ranks, [0]);
            assert_eq!(outcome.reason, "no moves left");
            assert_eq!(outcome.points[0], game.state()["score"].as_f64().unwrap());
        }
    }

    #[test]
    fn the_contract_plays_the_engines_game() {
        for size in [4, 3, 6] {
            let seed = derive_seed(7, size as u64);
            let name = format!("{size}x{size}");
            let mut game = start(&name, seed);
            let mut engine = Game::new(size, seed).unwrap();
            let mut player = rng(seed ^ 1);
            loop {
                let obs = serde_json::to_value(engine.observation()).unwrap();
                assert_eq!(game.observation(0), obs);
                let Some(action) = game.random_action(&mut player) else {
                    break;
                };
                let direction = Direction::from_name(action.as_str().unwrap()).unwrap();
                let step = engine.step(direction).unwrap();
                let event = game.apply(&action).unwrap();
                assert_eq!(event["action"], action);
                assert_eq!(event["gained"], step.gained);
                let (cell, value) = step.spawned.unwrap();
                assert_eq!(event["spawn"], json!({ "cell": cell, "value": value }));
                assert_eq!(game.state()["board"], json!(engine.board_values()));
                assert_eq!(game.moves(), engine.moves());
            }
            assert!(engine.is_over());
            assert_eq!(game.outcome().unwrap().points, [engine.score() as f64]);
        }
    }

    #[test]
    fn refused_actions_change_nothing() {
        let mut game = start("4x4", 3);
        // Play until some direction is illegal.
        let mut player = rng(4);
        let illegal = loop {
            let obs = game.observation(0);
            let legal: Vec<&str> = obs["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap())
                .collect();
            if let Some(d) = ["left", "right", "up", "down"]
                .into_iter()
                .find(|d| !legal.contains(d))
            {
                break d;
            }
            let action = game.random_action(&mut player).unwrap();
            game.apply(&action).unwrap();
        };
        let before = game.state();
        for garbage in [
            json!("sideways"),
            json!("Left"),
            json!(2),
            json!(null),
            json!({"direction": "left"}),
            json!(["left"]),
        ] {
            match game.apply(&garbage) {
                Err(Refusal::Malformed(m)) => {
                    assert!(
                        m.contains(&shown(&garbage)) && m.contains("\"left\""),
                        "{m}"
                    )
                }
                other => panic!("{garbage}: {other:?}"),
            }
            assert_eq!(game.state(), before);
        }
        match game.apply(&json!(illegal)) {
            Err(Refusal::Illegal(m)) => assert!(m.contains(illegal), "{m}"),
            other => panic!("{illegal}: {other:?}"),
        }
        assert_eq!(game.state(), before);
    }

    #[test]
    fn the_move_cap_ends_a_game_with_its_score() {
        let mut game = G2048Match::new(4, 9, 5);
        let mut player = rng(10);
        while game.turn().is_some() {
            let action = game.random_action(&mut player).unwrap();
            game.apply(&action).unwrap();
        }
        assert_eq!(game.moves(), 5);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.reason, "move cap");
        assert_eq!(outcome.points, [game.game().score() as f64]);
        assert!(matches!(
            game.apply(&json!("left")),
            Err(Refusal::Illegal(_))
        ));
    }

    #[test]
    fn a_forfeit_keeps_the_score() {
        let mut game = start("4x4", 11);
        let mut player = rng(12);
        for _ in 0..20 {
            let action = game.random_action(&mut player).unwrap();
            game.apply(&action).unwrap();
        }
        let score = game.state()["score"].as_f64().unwrap();
        let outcome = game.forfeit(0, "fault");
        assert_eq!(outcome.points, [score]);
        assert_eq!(outcome.ranks, [0]);
        assert_eq!(outcome.reason, "fault");
        assert!(game.turn().is_none());
        assert_eq!(game.outcome(), Some(outcome));
    }
}

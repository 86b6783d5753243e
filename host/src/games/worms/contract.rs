//! Wormworld through the game contract ([`crate::games::contract`]): two seats, `choose_move`, a map
//! as the variant.
//!
//! The bundled maps of `examples/worms/` are built in (`arena` the default); any other map is handed
//! over as text and read by the map parser. The observation is the engine's [`Game::observation`]
//! as JSON and the action the SDK's [`Move`]: seat 0 moves first, and **a seat with no legal move
//! is not asked**, the match passes for it, before the first turn and after every move, until a
//! seat that can move is to move or the game is over. The passes count as turns, as in the engine
//! ([`Match::turns`]), and each move's replay event lists the passes that followed it. Wormworld
//! has no chance: the seed is ignored. The match keeps every turn played, for the 1997 text
//! protocol that programs speak (`games::worms::encoding::text`), and hashes the moves five bytes a turn,
//! passes included ([`Match::moves_sha256`]). A map's set-up is `map NAME` and the map as text.

use rand::RngExt;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{Game, Map, Move, Seat, Verdict};
use crate::games::Rng;
use crate::games::contract::{
    GameInfo, Match, Outcome, Refusal, Rules, SeatIndex, Seats, Turn, Variant, VariantInfo, shown,
    with_forfeits,
};
use crate::games::contract::{Templates, WireDecision};
use botbox_sdk::worms as wire;

/// The bundled maps, the default first.
const MAPS: [(&str, &str); 6] = [
    (
        "arena",
        include_str!("../../../../examples/worms/arena.txt"),
    ),
    ("big", include_str!("../../../../examples/worms/big.txt")),
    (
        "gates",
        include_str!("../../../../examples/worms/gates.txt"),
    ),
    ("maze", include_str!("../../../../examples/worms/maze.txt")),
    (
        "pinwheel",
        include_str!("../../../../examples/worms/pinwheel.txt"),
    ),
    (
        "tutorial",
        include_str!("../../../../examples/worms/tutorial.txt"),
    ),
];

/// Wormworld as the registry lists it.
#[derive(Clone, Copy, Debug, Default)]
pub struct WormsRules;

/// The registered Wormworld.
pub static RULES: WormsRules = WormsRules;

/// A map's description: its first comment line, without the `;`.
fn describe(text: &str) -> String {
    text.lines()
        .next()
        .and_then(|line| line.strip_prefix(';'))
        .map_or_else(String::new, |line| line.trim().to_string())
}

impl WormsRules {
    /// The map a variant names or carries.
    pub fn map(variant: &Variant) -> Result<Map, String> {
        let text = match &variant.text {
            Some(text) => text.as_str(),
            None => MAPS
                .iter()
                .find(|(name, _)| *name == variant.name)
                .map(|(_, text)| *text)
                .ok_or_else(|| {
                    let names: Vec<&str> = MAPS.iter().map(|(name, _)| *name).collect();
                    format!(
                        "Wormworld has no map {:?}: the built-in maps are {}, or give a map file",
                        variant.name,
                        names.join(", ")
                    )
                })?,
        };
        Map::parse(text).map_err(|e| format!("map {}: {e}", variant.name))
    }
}

/// What the registry lists of the game.
const INFO: GameInfo = GameInfo {
    name: "worms",
    title: "Wormworld: two players steer three-cell worms into one hole; all home first wins",
    seats: Seats::exactly(2),
    functions: &["choose_move"],
    bots: &[
        "strategies/lua/worms/greedy.lua",
        "strategies/lua/worms/random.lua",
    ],
    setup_example: "--map examples/worms/arena.txt",
    templates: Templates {
        lua: Some(include_str!("../../../../strategies/templates/worms.lua")),
        rust: Some(include_str!("../../../../strategies/templates/worms.rs")),
        wat: Some(include_str!("../../../../strategies/templates/worms.wat")),
        c: Some(include_str!("../../../../strategies/templates/worms.c")),
        zig: Some(include_str!("../../../../strategies/templates/worms.zig")),
        assemblyscript: Some(include_str!("../../../../strategies/templates/worms.ts")),
    },
    sparring: Some((
        "greedy",
        include_str!("../../../../strategies/lua/worms/greedy.lua"),
    )),
    wire: &[WireDecision::of::<wire::Observation, wire::Move>(
        "choose_move",
        "worms",
    )],
};

impl Rules for WormsRules {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn variants(&self) -> Vec<VariantInfo> {
        MAPS.iter()
            .map(|(name, text)| VariantInfo {
                name: name.to_string(),
                description: describe(text),
            })
            .collect()
    }

    fn start(&self, variant: &Variant, seats: u32, _seed: u64) -> Result<Box<dyn Match>, String> {
        if !self.seats().contains(seats) {
            return Err(format!("Wormworld is played by 2 players, not {seats}"));
        }
        Ok(with_forfeits(WormsMatch::new(&WormsRules::map(variant)?)))
    }

    /// `map NAME` and the map as text (a map that does not parse gives its name alone).
    fn setup_text(&self, variant: &Variant) -> String {
        match WormsRules::map(variant) {
            Ok(map) => format!("map {}\n{map}", variant.name),
            Err(_) => format!("map {}\n", variant.name),
        }
    }
}

/// One game of Wormworld through the contract.
#[derive(Clone, Debug)]
pub struct WormsMatch {
    game: Game,
    /// Actions applied through [`Match::apply`] (passes not counted).
    applied: u32,
    /// The game as it started, before any pass: the text protocol's start position.
    start: Box<Game>,
    /// Every turn played in order, moves and passes (`None`): what the text protocol tells.
    history: Vec<(Seat, Option<Move>)>,
    /// How many turns of `history` each seat speaking the text protocol has been told (`None`
    /// before its start position).
    told: [Option<usize>; 2],
    /// The moves' hash: five bytes a turn, the seat, the worm (`u32::MAX` for a pass) and how it
    /// turned (255 for a pass).
    hash: Sha256,
}

impl WormsMatch {
    /// A game on `map`, the first seat that cannot move already passed for.
    pub fn new(map: &Map) -> WormsMatch {
        let game = Game::new(map);
        let mut game = WormsMatch {
            start: Box::new(game.clone()),
            game,
            applied: 0,
            history: Vec::new(),
            told: [None, None],
            hash: Sha256::new(),
        };
        game.pass_stuck();
        game
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether a move was made yet (passes not counted).
    pub fn moved(&self) -> bool {
        self.applied > 0
    }

    /// The game as it started, before any pass.
    pub fn start(&self) -> &Game {
        &self.start
    }

    /// Every turn played in order: the seat and its move, `None` for a pass.
    pub fn history(&self) -> &[(Seat, Option<Move>)] {
        &self.history
    }

    /// How many turns of [`WormsMatch::history`] `seat` has been told, for the text protocol
    /// (`None` before its start position); its speaker keeps it up to date.
    pub fn told(&mut self, seat: Seat) -> &mut Option<usize> {
        &mut self.told[seat]
    }

    /// What the seat to move sees, typed (the game's typed encoding sends it).
    pub fn typed_observation(&self) -> botbox_sdk::worms::Observation {
        self.game.observation(self.game.to_move())
    }

    /// Plays `mv` for the seat to move and passes for the seats that cannot move after it; the
    /// move's replay event if `record`. Refused, changing nothing, when the game is over or the
    /// move is not legal.
    pub fn play(&mut self, mv: Move, record: bool) -> Result<Option<Value>, Refusal> {
        if self.is_over() {
            return Err(Refusal::Illegal("the game is over".into()));
        }
        let seat = self.game.to_move();
        let before = self.game.worms_left(seat);
        self.game.apply(mv).map_err(|e| {
            Refusal::Illegal(format!("answered worm {} {}: {e}", mv.worm, mv.turn.name()))
        })?;
        self.applied += 1;
        self.played(seat, Some(mv));
        let n = self.game.turn();
        let fell = self.game.worms_left(seat) < before;
        let passed = self.pass_stuck();
        Ok(record.then(|| {
            json!({
                "n": n,
                "seat": seat,
                "move": mv,
                "fell": fell,
                "passed": passed,
            })
        }))
    }

    /// Keeps a turn played: in the history and the hash.
    fn played(&mut self, seat: Seat, mv: Option<Move>) {
        let (worm, how) = mv.map_or((u32::MAX, 255), |m| (m.worm, m.turn as u8));
        self.hash.update([seat as u8]);
        self.hash.update(worm.to_le_bytes());
        self.hash.update([how]);
        self.history.push((seat, mv));
    }

    /// Passes for every seat to move that has no legal move, and returns the seats passed for in
    /// order.
    fn pass_stuck(&mut self) -> Vec<Seat> {
        let mut passed = Vec::new();
        while !self.game.is_over() && self.game.legal_moves(self.game.to_move()).is_empty() {
            let seat = self.game.to_move();
            passed.push(seat);
            self.game
                .pass()
                .expect("a player without legal moves may pass");
            self.played(seat, None);
        }
        passed
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }
}

impl Match for WormsMatch {
    fn turn(&self) -> Option<Turn> {
        (!self.is_over()).then(|| Turn {
            seat: self.game.to_move() as SeatIndex,
            function: "choose_move",
        })
    }

    fn observation(&self, seat: SeatIndex) -> Value {
        serde_json::to_value(self.game.observation(seat as Seat)).expect("observations serialize")
    }

    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        if self.is_over() {
            return Err(Refusal::Illegal("the game is over".into()));
        }
        let mv: Move = serde_json::from_value(action.clone()).map_err(|e| {
            Refusal::Malformed(format!(
                "{} ({e}): expected {}",
                shown(action),
                botbox_sdk::worms::EXPECTED
            ))
        })?;
        Ok(self.play(mv, true)?.unwrap_or_default())
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        if self.is_over() {
            return None;
        }
        let legal = self.game.legal_moves(self.game.to_move());
        let mv = legal[rng.random_range(0..legal.len())];
        Some(serde_json::to_value(mv).expect("moves serialize"))
    }

    fn outcome(&self) -> Option<Outcome> {
        let outcome = self.game.outcome()?;
        let winner = match outcome.result {
            Verdict::Win(seat) => Some(seat as SeatIndex),
            Verdict::Draw => None,
        };
        Some(Outcome::two_player(winner, outcome.reason.name()))
    }

    fn seat_count(&self) -> u32 {
        2
    }

    fn moves(&self) -> u32 {
        self.applied
    }

    /// The engine's turns, passes included.
    fn turns(&self) -> u32 {
        self.game.turn()
    }

    fn moves_sha256(&self) -> Option<String> {
        let digest = self.hash.clone().finalize();
        Some(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    fn typed(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }

    fn state(&self) -> Value {
        let obs = self.game.observation(self.game.to_move());
        json!({
            "to_move": self.game.to_move(),
            "turn": self.game.turn(),
            "turn_limit": self.game.turn_limit(),
            "board": obs.board,
            "worms": obs.worms,
            "worms_left": [self.game.worms_left(0), self.game.worms_left(1)],
            "outcome": self.game.outcome(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::worms::{EndReason, MoveList};
    use crate::games::{derive_seed, rng};

    fn start(name: &str) -> Box<dyn Match> {
        RULES.start(&Variant::named(name), 2, 0).unwrap()
    }

    /// Seat 0's only worm is walled in from the start; seat 1's can move.
    const STUCK: &str = "turns 20\nAAA#....\n###.....\n..O..bbb\nheads A:right b:left\n";

    #[test]
    fn the_registry_entry() {
        assert_eq!(RULES.name(), "worms");
        assert_eq!(RULES.seats(), Seats::exactly(2));
        let variants = RULES.variants();
        assert_eq!(variants[0].name, "arena");
        assert_eq!(variants.len(), 6);
        for v in &variants {
            assert!(!v.description.is_empty());
            assert!(RULES.start(&Variant::named(&v.name), 2, 0).is_ok());
        }
        assert!(RULES.start(&Variant::named("arena"), 1, 0).is_err());
        let err = RULES.start(&Variant::named("nowhere"), 2, 0).err().unwrap();
        assert!(err.contains("arena"), "{err}");
        let bad = Variant {
            name: "mine".into(),
            text: Some("turns 10\nAAA.\n..Ox\n".into()),
        };
        let err = RULES.start(&bad, 2, 0).err().unwrap();
        assert!(err.starts_with("map mine: line 3"), "{err}");
        let good = Variant {
            name: "mine".into(),
            text: Some(STUCK.into()),
        };
        assert!(RULES.start(&good, 2, 0).is_ok());
    }

    #[test]
    fn seeded_random_playouts_end_with_one_entry_per_seat() {
        for (i, (name, _)) in MAPS.iter().enumerate() {
            let mut game = start(name);
            let mut player = rng(derive_seed(0x3035, i as u64));
            while game.turn().is_some() {
                let action = game.random_action(&mut player).unwrap();
                game.apply(&action).unwrap();
            }
            let outcome = game.outcome().unwrap();
            assert_eq!(outcome.points.len(), 2, "{name}");
            assert_eq!(outcome.ranks.len(), 2, "{name}");
        }
    }

    /// The random player draws as the engine's own random playout does, and both pass for a stuck
    /// seat without drawing, so the two play the same game.
    #[test]
    fn the_contract_plays_the_engines_game() {
        for (i, (name, text)) in MAPS.iter().enumerate() {
            let seed = derive_seed(0x3036, i as u64);
            let map = Map::parse(text).unwrap();
            let mut engine = Game::new(&map);
            let mut engine_rng = rng(seed);
            let mut moves = MoveList::new();
            let mut game = start(name);
            let mut player = rng(seed);
            while let Some(turn) = game.turn() {
                // The engine passes for the stuck seats the contract passed for.
                while engine.legal_moves(engine.to_move()).is_empty() {
                    let played = engine.step_random(&mut engine_rng, &mut moves).unwrap();
                    assert_eq!(played.action, None);
                }
                assert_eq!(turn.seat as usize, engine.to_move());
                let obs = serde_json::to_value(engine.observation(engine.to_move())).unwrap();
                assert_eq!(game.observation(turn.seat), obs);
                let action = game.random_action(&mut player).unwrap();
                let event = game.apply(&action).unwrap();
                let played = engine.step_random(&mut engine_rng, &mut moves).unwrap();
                assert_eq!(Some(serde_json::from_value(action).unwrap()), played.action);
                assert_eq!(event["seat"], played.seat);
            }
            while engine.step_random(&mut engine_rng, &mut moves).is_some() {}
            assert_eq!(game.state()["turn"], engine.turn());
            let end = engine.outcome().unwrap();
            let winner = match end.result {
                Verdict::Win(s) => Some(s as SeatIndex),
                Verdict::Draw => None,
            };
            let want = Outcome::two_player(winner, end.reason.name());
            assert_eq!(game.outcome().unwrap(), want, "{name}");
        }
    }

    #[test]
    fn a_seat_without_moves_is_passed_at_the_start_and_after_moves() {
        let map = Map::parse(STUCK).unwrap();
        let mut game = WormsMatch::new(&map);
        assert_eq!(
            game.state()["turn"],
            1,
            "seat 0 passed before the first turn"
        );
        assert_eq!(game.turn().unwrap().seat, 1);
        let event = game.apply(&json!({"worm": 1, "turn": "forward"})).unwrap();
        assert_eq!(event["n"], 2);
        assert_eq!(event["passed"], json!([0]));
        assert_eq!(game.turn().unwrap().seat, 1);
        assert_eq!(game.state()["turn"], 3);
        assert_eq!(game.moves(), 1);
        // Worm b reaches the hole in two more moves: all its worms home.
        game.apply(&json!({"worm": 1, "turn": "forward"})).unwrap();
        let event = game.apply(&json!({"worm": 1, "turn": "forward"}));
        let event = event.unwrap();
        assert_eq!(event["fell"], true);
        assert!(game.turn().is_none());
        assert_eq!(
            game.outcome().unwrap(),
            Outcome::two_player(Some(1), EndReason::AllWormsHome.name())
        );
    }

    #[test]
    fn refused_actions_change_nothing() {
        let mut game = start("tutorial");
        let before = game.state();
        for garbage in [
            json!("left"),
            json!({"worm": 0}),
            json!({"worm": -1, "turn": "left"}),
            json!({"worm": 0, "turn": "back"}),
            json!(null),
        ] {
            match game.apply(&garbage) {
                Err(Refusal::Malformed(m)) => {
                    assert!(
                        m.contains(&shown(&garbage)) && m.contains("\"worm\""),
                        "{m}"
                    )
                }
                other => panic!("{garbage}: {other:?}"),
            }
            assert_eq!(game.state(), before);
        }
        let legal = game.observation(0)["legal"].clone();
        for illegal in [
            json!({"worm": 99, "turn": "left"}),
            json!({"worm": 1, "turn": "forward"}),
        ] {
            assert!(!legal.as_array().unwrap().contains(&illegal));
            match game.apply(&illegal) {
                Err(Refusal::Illegal(m)) => assert!(m.contains("worm "), "{m}"),
                other => panic!("{illegal}: {other:?}"),
            }
            assert_eq!(game.state(), before);
        }
        let blocked = ["left", "forward", "right"]
            .into_iter()
            .map(|t| json!({"worm": 0, "turn": t}))
            .find(|mv| !legal.as_array().unwrap().contains(mv));
        if let Some(blocked) = blocked {
            assert!(matches!(game.apply(&blocked), Err(Refusal::Illegal(_))));
            assert_eq!(game.state(), before);
        }
    }

    #[test]
    fn a_forfeit_loses_and_ends_the_game() {
        let mut game = start("arena");
        let outcome = game.forfeit(1, "fault");
        assert_eq!(outcome, Outcome::two_player(Some(0), "fault"));
        assert!(game.turn().is_none());
        assert_eq!(game.outcome(), Some(outcome));
    }
}

//! The driver's tests: every registered game played by random players, the hints of a bot for
//! another game, and simultaneous moves with a fault, on a test game (Leap).

use super::*;
use crate::games::registry;

#[test]
fn random_players_finish_a_game_of_every_registered_game() {
    for rules in registry::all() {
        for seats in [rules.seats().min, rules.seats().max] {
            let players = vec![Player::Random; seats as usize];
            let mut steps = 0;
            let played = play(
                rules,
                &registry::default_variant(rules),
                &players,
                3,
                None,
                false,
                &mut |_| steps += 1,
            )
            .unwrap();
            assert_eq!(played.moves, steps, "{}", rules.name());
            assert!(
                played.faults.iter().all(Option::is_none),
                "{}",
                rules.name()
            );
            assert_eq!(played.outcome.points.len(), seats as usize);
        }
    }
}

#[test]
fn a_bot_for_another_game_gets_a_hint_naming_it() {
    let dir = std::env::temp_dir().join(format!("botbox-hint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bs_bot.lua");
    std::fs::write(
        &file,
        "return { play = function(o) return { o.hand[1] } end, call = function() return false end }\n",
    )
    .unwrap();
    let bot = crate::hosted::load(&file, &crate::runtime::Limits::default()).unwrap();
    let rules = registry::find("connect4").unwrap();
    let played = play(
        rules,
        &registry::default_variant(rules),
        &[Player::Bot(&bot), Player::Random],
        1,
        None,
        false,
        &mut |_| {},
    )
    .unwrap();
    let fault = played.faults[0].as_ref().unwrap();
    assert_eq!(fault.kind, FaultKind::Load);
    assert!(
        fault.message.contains("no function `choose_move`")
            && fault.message.contains("looks written for bs"),
        "{fault}"
    );
    assert_eq!(played.moves, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_number_of_players_is_refused() {
    let rules = registry::find("bs").unwrap();
    let err = play(
        rules,
        &registry::default_variant(rules),
        &[Player::Random; 2],
        1,
        None,
        false,
        &mut |_| {},
    )
    .unwrap_err();
    assert!(err.contains("4 players"), "{err}");
}

/// Leap, a game of simultaneous moves for the tests: each round both seats answer
/// `{"jump": bool}`, held until both are in; a seat that does not jump crashes. Both crash: a
/// draw; one crashes: the other wins; none: another round (three at most, then a draw). A
/// fault is a crash, as in Tron.
struct Leap {
    round: u32,
    held: Option<bool>,
    applied: u32,
    end: Option<Outcome>,
}

struct LeapRules;

static LEAP_INFO: crate::games::contract::GameInfo = crate::games::contract::GameInfo {
    name: "leap",
    title: "leap",
    seats: crate::games::contract::Seats::exactly(2),
    functions: &["choose_move"],
    bots: &[],
    setup_example: "",
    templates: crate::games::contract::Templates {
        lua: None,
        rust: None,
        wat: None,
    },
    sparring: None,
    wire: &[],
};

impl Rules for LeapRules {
    fn info(&self) -> &'static crate::games::contract::GameInfo {
        &LEAP_INFO
    }
    fn variants(&self) -> Vec<crate::games::contract::VariantInfo> {
        Vec::new()
    }
    fn start(&self, _: &Variant, _: u32, _: u64) -> Result<Box<dyn Match>, String> {
        Ok(crate::games::contract::with_forfeits(Leap {
            round: 1,
            held: None,
            applied: 0,
            end: None,
        }))
    }
}

impl Leap {
    /// The second answer of a round resolves it with the held first.
    fn answer(&mut self, jump: bool) -> Value {
        let Some(first) = self.held.take() else {
            self.held = Some(jump);
            return serde_json::json!("held");
        };
        self.end = match [first, jump] {
            [false, false] => Some(Outcome::two_player(None, "both crashed")),
            [false, true] => Some(Outcome::two_player(Some(1), "crash")),
            [true, false] => Some(Outcome::two_player(Some(0), "crash")),
            [true, true] if self.round == 3 => Some(Outcome::two_player(None, "rounds")),
            [true, true] => None,
        };
        self.round += 1;
        serde_json::json!({ "jumps": [first, jump] })
    }
}

impl Match for Leap {
    fn turn(&self) -> Option<Turn> {
        self.end.is_none().then_some(Turn {
            seat: u32::from(self.held.is_some()),
            function: "choose_move",
        })
    }
    fn observation(&self, _seat: SeatIndex) -> Value {
        serde_json::json!({ "round": self.round })
    }
    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        let jump = action["jump"]
            .as_bool()
            .ok_or_else(|| Refusal::Malformed(format!("{action}")))?;
        self.applied += 1;
        Ok(self.answer(jump))
    }
    fn fault_move(&mut self, _seat: SeatIndex) -> Option<Value> {
        Some(self.answer(false))
    }
    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        use rand::RngExt;
        self.end
            .is_none()
            .then(|| serde_json::json!({ "jump": rng.random_bool(0.7) }))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.end.clone()
    }
    fn seat_count(&self) -> u32 {
        2
    }
    fn moves(&self) -> u32 {
        self.applied
    }
    fn state(&self) -> Value {
        serde_json::json!({ "round": self.round, "held": self.held })
    }
}

fn lua_bot(name: &str, source: &str) -> Strategy {
    let dir = std::env::temp_dir().join(format!("botbox-leap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, source).unwrap();
    crate::hosted::load(&file, &crate::runtime::Limits::default()).unwrap()
}

fn leap(players: [&Strategy; 2]) -> (Played, Vec<(SeatIndex, Value, bool)>) {
    let mut steps = Vec::new();
    let played = play(
        &LeapRules,
        &Variant::named(""),
        &players.map(Player::Bot),
        1,
        None,
        false,
        &mut |s| steps.push((s.seat, s.action.clone(), s.fault)),
    )
    .unwrap();
    (played, steps)
}

/// Simultaneous moves: a held answer is invisible to the other seat, and a fault in a round is
/// the seat's move there, so the round is resolved with the other's answer as the rules say.
#[test]
fn a_fault_in_a_round_of_simultaneous_moves_is_resolved_with_the_others_move() {
    let mut game = LeapRules.start(&Variant::named(""), 2, 1).unwrap();
    let before = game.observation(1);
    assert_eq!(
        game.apply(&serde_json::json!({"jump": true})).unwrap(),
        "held"
    );
    assert_eq!(
        game.observation(1),
        before,
        "a held answer is seen by nobody"
    );

    let faulty = lua_bot(
        "faulty.lua",
        "return { choose_move = function() error('boom') end }\n",
    );
    let falls = lua_bot(
        "falls.lua",
        "return { choose_move = function() return { jump = false } end }\n",
    );
    let jumps = lua_bot(
        "jumps.lua",
        "return { choose_move = function() return { jump = true } end }\n",
    );
    // Both crashed on the turn of the fault: a draw, with the fault recorded.
    let (played, steps) = leap([&faulty, &falls]);
    assert_eq!(played.outcome, Outcome::two_player(None, "both crashed"));
    assert_eq!(played.faults[0].as_ref().unwrap().kind, FaultKind::Error);
    assert!(played.faults[1].is_none());
    assert_eq!(
        steps,
        [
            (0, Value::Null, true),
            (1, serde_json::json!({"jump": false}), false)
        ]
    );
    // Only the faulting seat crashed: the other wins, and the faulting seat is not asked again.
    let (played, steps) = leap([&jumps, &faulty]);
    assert_eq!(played.outcome, Outcome::two_player(Some(0), "crash"));
    assert!(played.faults[1].is_some());
    assert_eq!(steps.len(), 2);
    // Without a crash the rounds go on to the limit.
    let (played, _) = leap([&jumps, &jumps]);
    assert_eq!(played.outcome, Outcome::two_player(None, "rounds"));
    assert_eq!(played.moves, 6);
}

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
                &[],
                3,
                None,
                false,
                Some(&mut |_: &Step| steps += 1),
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
        &[],
        1,
        None,
        false,
        None,
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
        &[],
        1,
        None,
        false,
        None,
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
        c: None,
        zig: None,
        assemblyscript: None,
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
        &[],
        1,
        None,
        false,
        Some(&mut |s: &Step| steps.push((s.seat, s.action.clone(), s.fault))),
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

/// A move as a test sees it: seat, function, action, event, log lines.
type StepSeen = (SeatIndex, &'static str, Value, Value, Vec<String>);

/// A game played through its typed encoding and the same game by JSON alone: every move (seat,
/// function, action, event, log lines), the outcome, the faults and the logs, all equal.
fn same_through_both(rules: &dyn Rules, players: &[Strategy], seed: u64) -> Played {
    let encoding = crate::hosted::encoding(rules.name()).expect("the game has an encoding");
    let names: Vec<String> = (0..players.len()).map(|s| format!("p{s}")).collect();
    let seats: Vec<Player> = players.iter().map(Player::Bot).collect();
    let variant = registry::default_variant(rules);
    let [(typed, typed_steps), (json, json_steps)] = [Some(encoding), None].map(|encoding| {
        let mut steps: Vec<StepSeen> = Vec::new();
        let mut step = |s: &Step| {
            let log = s.log.clone();
            steps.push((s.seat, s.function, s.action.clone(), s.event.clone(), log));
        };
        let played = play_through(
            rules,
            &variant,
            &seats,
            &names,
            seed,
            Prelude::None,
            true,
            encoding,
            Some(&mut step),
        )
        .unwrap();
        (played, steps)
    });
    // An answer's fields the game ignores (a dice bot answering with a whole `obs.legal` entry,
    // `captures` included) are recorded by JSON but not through the encoding, which records the
    // move it read; everything else is the same.
    let action = |steps: &[StepSeen]| -> Vec<Value> { steps.iter().map(|s| s.2.clone()).collect() };
    for (typed, json) in action(&typed_steps).iter().zip(action(&json_steps)) {
        match (typed, &json) {
            (Value::Object(t), Value::Object(j)) => {
                assert!(
                    t.iter().all(|(k, v)| j.get(k) == Some(v)),
                    "{t:?} is not in {j:?}"
                )
            }
            _ => assert_eq!(typed, &json, "seed {seed}"),
        }
    }
    let without_action = |steps: Vec<StepSeen>| -> Vec<_> {
        steps
            .into_iter()
            .map(|(seat, function, _, event, log)| (seat, function, event, log))
            .collect()
    };
    assert_eq!(
        without_action(typed_steps),
        without_action(json_steps),
        "seed {seed}"
    );
    assert_eq!(typed.outcome, json.outcome);
    assert_eq!(typed.faults, json.faults);
    assert_eq!(typed.logs, json.logs);
    assert_eq!((typed.moves, typed.turns), (json.moves, json.turns));
    assert_eq!(typed.start, json.start);
    typed
}

/// Every game with a typed encoding plays the same games through it as by JSON: its bundled bots
/// at every seat (each in turn), a bot that logs, and one that makes an illegal move.
#[test]
fn a_typed_encoding_plays_the_same_game_as_json() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let limits = crate::runtime::Limits::default();
    for rules in registry::all() {
        if crate::hosted::encoding(rules.name()).is_none() {
            continue;
        }
        let bots: Vec<Strategy> = rules
            .info()
            .bots
            .iter()
            .map(|b| crate::hosted::load(&root.join(b), &limits).unwrap())
            .collect();
        let seats = rules.seats().min as usize;
        for seed in 0..6u64 {
            let players: Vec<Strategy> = (0..seats)
                .map(|s| bots[(s + seed as usize) % bots.len()].clone())
                .collect();
            same_through_both(rules, &players, seed);
        }
    }
}

/// BS's encoding: a seat that logs, and a seat that plays a card it does not hold, which faults
/// with the same message both ways and voids the game for the others.
#[test]
fn bs_through_its_encoding_logs_and_refuses_as_json_does() {
    let rules = registry::find("bs").unwrap();
    let talker = lua_bot(
        "talker.lua",
        "return { play = function(o) print('turn', o.turn) return { o.hand[1] } end,\n\
         call = function(o) print('call?', o.player) return o.count > 2 end,\n\
         observe = function(e) print(e.type) end }\n",
    );
    let cheat = lua_bot(
        "cheat.lua",
        "return { play = function(o) for c = 0, 51 do if not table.find(o.hand, c) then \
         return { c } end end end, call = function() return false end }\n",
    );
    let played = same_through_both(
        rules,
        &[
            talker.clone(),
            talker.clone(),
            talker.clone(),
            talker.clone(),
        ],
        3,
    );
    assert!(
        played.logs.iter().all(|l| l.len() > 10),
        "{:?}",
        played.logs
    );
    let played = same_through_both(rules, &[talker.clone(), cheat, talker.clone(), talker], 4);
    let fault = played.faults[1].as_ref().expect("the cheat faulted");
    assert_eq!(fault.kind, FaultKind::Illegal);
    assert!(fault.message.starts_with("played ["), "{}", fault.message);
    assert_eq!(played.outcome.points, [0.0; 4]);
}

/// Dice's encoding: a seat that logs and answers with a whole legal entry, and a seat that answers
/// a move that is not legal, which faults with the same message both ways.
#[test]
fn dice_through_its_encoding_logs_and_refuses_as_json_does() {
    let rules = registry::find("dice").unwrap();
    let talker = lua_bot(
        "dice_talker.lua",
        "return { choose_move = function(o) print('face', o.face) return o.legal[#o.legal] end }\n",
    );
    let wrong = lua_bot(
        "dice_wrong.lua",
        "return { choose_move = function(o) if o.turn > 20 then return { from = 99, to = 1 } end \
         return o.legal[1] end }\n",
    );
    let played = same_through_both(rules, &[talker.clone(), talker.clone()], 5);
    assert!(played.logs.iter().all(|l| l.len() > 5), "{:?}", played.logs);
    let played = same_through_both(rules, &[talker, wrong], 6);
    let fault = played.faults[1].as_ref().expect("the wrong answer faulted");
    assert_eq!(fault.kind, FaultKind::Illegal);
    assert!(
        fault
            .message
            .starts_with("answered from 99 to 1, which is not among the legal moves"),
        "{}",
        fault.message
    );
    assert_eq!(played.outcome.points, [1.0, 0.0]);
}

//! A game played by the driver, recorded: its turn lines as the trace gives them, its header, its
//! end line and the ending a run keeps (`docs/replay-format.md`).

use serde_json::json;

use crate::games::contract::{Rules, Variant};
use crate::play::generic::{Played, Step};
use crate::play::{Ending, Figures};
use crate::replay::{FORMAT, Header, Replay, StrategyRef, VERSION};
use crate::runtime::Strategy;

/// The ending of a game `played` by the driver and, given its replay's `header`, its replay with
/// the `turns` traced.
pub fn recorded(played: Played, header: Option<Header>, turns: Turns) -> (Ending, Option<Replay>) {
    let ending = Ending {
        figures: Figures {
            moves_sha256: played.moves_sha256,
            // A solo game's points are its score.
            score: (played.outcome.points.len() == 1).then(|| played.outcome.points[0]),
            details: played.details,
        },
        ..Ending::new(
            played.outcome.winner(),
            played.outcome.reason.clone(),
            played.turns,
            played.faults,
        )
    };
    let replay = header.map(|header| {
        let mut r = Replay::new(header);
        for (turn, logged) in &turns.lines {
            r.turn_logged(turn, logged);
        }
        r.logs = played.logs;
        r.finish(&json!({ "outcome": played.outcome, "ending": ending }));
        r
    });
    (ending, replay)
}

/// The turn lines of a game being recorded, each with how many lines each seat had logged by then.
#[derive(Debug)]
pub struct Turns {
    lines: Vec<(serde_json::Value, Vec<usize>)>,
    logged: Vec<usize>,
}

impl Turns {
    pub fn new(seats: usize) -> Turns {
        Turns {
            lines: Vec::new(),
            logged: vec![0; seats],
        }
    }

    /// The turn line of `step` (`docs/replay-format.md`).
    pub fn push(&mut self, step: &Step) {
        self.logged[step.seat as usize] += step.log.len();
        let mut turn = json!({
            "n": step.n,
            "seat": step.seat,
            "function": step.function,
            "action": step.action,
            "event": step.event,
            "opening": step.opening,
        });
        // A fault taken as the seat's move in a round of simultaneous moves.
        if step.fault {
            turn["fault"] = true.into();
        }
        // A move of the recorded game a game was played on from.
        if step.recorded {
            turn["recorded"] = true.into();
        }
        self.lines.push((turn, self.logged.clone()));
    }
}

/// The replay header of one game: the variant by name (and text, when it came from a file), the
/// players named `names` if the game shows names.
pub fn header(
    rules: &dyn Rules,
    variant: &Variant,
    players: &[&Strategy],
    names: &[String],
    number: usize,
    seed: u64,
    start: serde_json::Value,
) -> Header {
    Header {
        format: FORMAT.into(),
        version: VERSION,
        game: rules.name().to_string(),
        params: json!({ "variant": variant.name, "text": variant.text }),
        number,
        seed,
        strategies: players
            .iter()
            .enumerate()
            .map(|(seat, s)| match names.get(seat) {
                Some(name) => StrategyRef {
                    name: name.clone(),
                    ..StrategyRef::of(s)
                },
                None => StrategyRef::of(s),
            })
            .collect(),
        limits: serde_json::to_value(players.iter().map(|s| s.limits()).collect::<Vec<_>>())
            .expect("limits serialize"),
        start,
        played_on: None,
    }
}

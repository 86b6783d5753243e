//! Dice's typed encoding: the seat to move sees the SDK's `dice::Observation` built by the engine
//! (no JSON between), its answer is read as a `dice::Move` and played with the rolls that leave no
//! choice after it.

use serde_json::{Value, json};

use crate::games::contract::Turn;
use crate::games::dice::DiceMatch;
use crate::hosted::{Decided, Failed};
use crate::runtime::Instance;
use botbox_sdk::dice as wire;

/// The dice game's typed encoding.
#[derive(Debug)]
pub struct Encoding;

impl crate::hosted::Encoding for Encoding {
    fn decide(
        &self,
        game: &mut dyn std::any::Any,
        _turn: Turn,
        instance: &mut Instance,
        record: bool,
    ) -> Result<Decided, Failed> {
        let game: &mut DiceMatch = game
            .downcast_mut()
            .expect("the dice encoding is handed the dice match");
        let obs = game.typed_observation();
        let answer: wire::Move = instance.call("choose_move", &obs).map_err(Failed::Fault)?;
        let event = game.choose(answer, record).map_err(Failed::Refused)?;
        Ok(Decided {
            action: if record {
                json!({ "from": answer.from, "to": answer.to })
            } else {
                Value::Null
            },
            event: event.unwrap_or_default(),
        })
    }
}

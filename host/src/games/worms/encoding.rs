//! Wormworld's glue: its typed encoding, for strategies (the engine's observation and a `Move`,
//! no JSON between) and for external programs, which speak the 1997 text protocol ([`text`]) over
//! their standard input and output instead of JSON.

pub mod text;

use serde_json::Value;

use crate::games::contract::{SeatIndex, Turn};
use crate::games::worms::{Move, WormsMatch};
use crate::hosted::{Decided, Failed, Listeners};
use crate::runtime::{Fault, Instance};

/// Wormworld's typed encoding.
#[derive(Debug)]
pub struct Encoding;

/// The seat's move at `turn`, not yet played: a program is told the turns played since its last
/// move, then `go`; a strategy gets its observation.
fn ask(game: &mut WormsMatch, turn: Turn, instance: &mut Instance) -> Result<Move, Fault> {
    let seat = turn.seat as usize;
    match instance.process() {
        Some(process) => {
            let told = game.told(seat).unwrap_or(0);
            let message = text::go_message(seat, &game.history()[told..]);
            *game.told(seat) = Some(game.history().len());
            let line = process.exchange(&message)?;
            text::read_move(&line)
        }
        None => instance.call::<_, Move>("choose_move", &game.typed_observation()),
    }
}

/// The match behind a typed face handed to Wormworld's encoding.
fn worms(game: &mut dyn std::any::Any) -> &mut WormsMatch {
    game.downcast_mut()
        .expect("Wormworld's encoding is handed Wormworld's match")
}

impl crate::hosted::Encoding for Encoding {
    /// Sends each program its start position (the map before any pass); a program that cannot
    /// take it faults. In a game played on from a recorded one, after its recorded moves, the
    /// position is the one the program takes over, with the turns left.
    fn begin(
        &self,
        game: &mut dyn std::any::Any,
        seats: &mut dyn Listeners,
    ) -> Vec<(SeatIndex, Fault)> {
        let game = worms(game);
        let mut faults = Vec::new();
        for seat in 0..2 {
            let Some(process) = seats.instance(seat).and_then(Instance::process) else {
                continue;
            };
            let (position, told) = match game.moved() {
                false => (game.start(), 0),
                true => (game.game(), game.history().len()),
            };
            match process.send(&text::start_message(position, seat as usize)) {
                Ok(()) => *game.told(seat as usize) = Some(told),
                Err(fault) => faults.push((seat, fault)),
            }
        }
        faults
    }

    /// A program hears every move since its last when next asked to move.
    fn tells_missed_moves(&self, instance: &mut Instance) -> bool {
        instance.process().is_some()
    }

    fn ask_aside(
        &self,
        game: &mut dyn std::any::Any,
        turn: Turn,
        instance: &mut Instance,
    ) -> Result<Value, Fault> {
        let mv = ask(worms(game), turn, instance)?;
        Ok(serde_json::to_value(mv).expect("moves serialize"))
    }

    fn decide(
        &self,
        game: &mut dyn std::any::Any,
        turn: Turn,
        instance: &mut Instance,
        record: bool,
    ) -> Result<Decided, Failed> {
        let game = worms(game);
        let mv = ask(game, turn, instance).map_err(Failed::Fault)?;
        let event = game.play(mv, record).map_err(Failed::Refused)?;
        Ok(Decided {
            action: if record {
                serde_json::to_value(mv).expect("moves serialize")
            } else {
                Value::Null
            },
            event: event.unwrap_or_default(),
        })
    }
}

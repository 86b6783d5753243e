//! What is played before the seats decide: random opening moves, and the moves of a recorded game
//! played again as they were ([`super::play_on`]).

use serde_json::Value;

use super::{Agent, Made, Moves, Opening, Played, tell};
use crate::games::contract::{Match, Rules, SeatIndex};
use crate::games::rng;
use crate::hosted::Encoding;
use crate::runtime::Fault;
use crate::runtime::payload::Ignored;

/// Plays the `opening`'s moves, drawn by the game's random player. Their notices are not passed on:
/// the strategies learn the position from their first observation.
pub(super) fn opening(
    rules: &dyn Rules,
    game: &mut dyn Match,
    opening: Opening,
    played: &mut Played,
    moves: &mut Moves,
) -> Result<(), String> {
    let mut r = rng(opening.seed);
    for _ in 0..opening.plies {
        let Some(turn) = game.turn() else { break };
        let Some(action) = game.random_action(&mut r) else {
            break;
        };
        let event = game.apply(&action).map_err(|e| {
            format!(
                "{}: the random player's move was refused: {e}",
                rules.name()
            )
        })?;
        let _ = game.take_notices();
        moves.made(played, turn, action, event, Made::Opening, None);
    }
    Ok(())
}

/// Plays the `recorded` turn lines again, showing each strategy what its seat would have seen and
/// telling it every notice (its answers set aside). `Ok(Some(..))` is the first fault of a strategy
/// meanwhile (it forfeits); the error says why the recorded moves cannot be played.
pub(super) fn recorded(
    game: &mut dyn Match,
    agents: &mut Vec<Agent>,
    encoding: Option<&dyn Encoding>,
    recorded: &[Value],
    played: &mut Played,
    moves: &mut Moves,
) -> Result<Option<(SeatIndex, Fault)>, String> {
    for (i, t) in recorded.iter().enumerate() {
        let n = i + 1;
        let at = |e: String| format!("move {n} of the recorded game: {e}");
        let Some(turn) = game.turn() else {
            return Err(at("the game was over before it".into()));
        };
        if t["seat"].as_u64() != Some(u64::from(turn.seat)) {
            return Err(at(format!(
                "it is seat {}'s, but the game asks seat {}",
                t["seat"], turn.seat
            )));
        }
        if t["fault"] == true {
            return Err(at(format!(
                "seat {}'s fault, taken as its move; play on from a move before it",
                turn.seat
            )));
        }
        let opening = t["opening"] == true;
        let seat = turn.seat as usize;
        // The seat's strategy sees what it would have seen, unless the game tells it the moves it
        // missed itself (Wormworld's programs hear every move since their last).
        if let Agent::Bot { instance, .. } = &mut agents[seat]
            && !opening
            && !encoding.is_some_and(|e| e.tells_missed_moves(instance))
            && let Err(fault) =
                instance.call::<Value, Ignored>(turn.function, &game.observation(turn.seat))
        {
            return Ok(Some((turn.seat, fault)));
        }
        let action = t["action"].clone();
        let event = game.apply(&action).map_err(|e| at(e.to_string()))?;
        let made = Made::Recorded { opening };
        moves.made(played, turn, action, event, made, Some(&mut agents[seat]));
        if opening {
            let _ = game.take_notices();
        } else if let Err((seat, fault)) = tell(game, agents, encoding) {
            return Ok(Some((seat, fault)));
        }
    }
    // The game's encoding sets the seats up now (Wormworld's programs get the position they take
    // over).
    if let Some(encoding) = encoding
        && let Some(typed) = game.typed()
        && let Some((seat, fault)) = encoding.begin(typed, agents).into_iter().next()
    {
        return Ok(Some((seat, fault)));
    }
    Ok(None)
}

//! Each game's view, found by the game's name ([`find`]): how its replays are told as text and drawn
//! as the viewer's frames, from either dialect of replay: the contract's moves (what every game
//! writes today), or the game's own older turns (replays written before it was played through its
//! contract), which still read. A game without a view here is told and drawn from its contract's
//! moves alone (`replay::contract`, [`super::frames`]). Adding a view adds a line to [`VIEWS`].

use serde_json::Value;

use super::frames::{self, Frame};
use super::replay;
use crate::replay::ReplayFile;

/// How one game looks.
pub trait GameView: Sync {
    /// The replay as text (only its last `last` turns, if given), re-played through the engine.
    /// `contract` says which dialect the file is; a contract replay was checked by the contract's
    /// reader before.
    fn text(
        &self,
        file: &ReplayFile,
        contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String>;

    /// The viewer's frames (the start, then one per turn), and the turns they follow, whose
    /// `logged` counts tie each seat's log lines to its frames.
    fn frames(&self, file: &ReplayFile, contract: bool)
    -> anyhow::Result<(Vec<Frame>, Vec<Value>)>;
}

/// Every game's view, by game name.
static VIEWS: [(&str, &dyn GameView); 5] = [
    ("2048", &G2048),
    ("bs", &Bs),
    ("connect4", &Connect4),
    ("dice", &Dice),
    ("worms", &Worms),
];

/// The view of the game named `game`, if it has one of its own.
pub fn find(game: &str) -> Option<&'static dyn GameView> {
    VIEWS.iter().find(|(g, _)| *g == game).map(|(_, v)| *v)
}

/// 2048: a move per turn, with the boards before and after and the new tile.
struct G2048;

impl GameView for G2048 {
    fn text(
        &self,
        file: &ReplayFile,
        contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        match contract {
            true => replay::g2048::print_2048(&replay::g2048::from_contract(file)?, last),
            false => replay::g2048::print_2048(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let frames = match contract {
            true => frames::g2048_frames(&replay::g2048::from_contract(file)?),
            false => frames::g2048_frames(file),
        };
        Ok((frames, file.turns.clone()))
    }
}

/// BS: told a whole turn (a play and its calls) at a time; drawn a frame per play and per call.
struct Bs;

impl GameView for Bs {
    fn text(
        &self,
        file: &ReplayFile,
        contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        match contract {
            true => replay::bs::print_replay(&replay::bs::from_contract(file), last),
            false => replay::bs::print_replay(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let frames = match contract {
            true => frames::bs_move_frames(file),
            false => frames::bs_frames(file),
        };
        Ok((frames, file.turns.clone()))
    }
}

/// Dice: a roll at a time, the rolls without a choice included.
struct Dice;

impl GameView for Dice {
    fn text(
        &self,
        file: &ReplayFile,
        contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        match contract {
            true => replay::dice::print_dice(&replay::dice::from_contract(file)?, last),
            false => replay::dice::print_dice(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let rolls = match contract {
            true => replay::dice::from_contract(file)?,
            false => file.clone(),
        };
        Ok((frames::dice_frames(&rolls), rolls.turns))
    }
}

/// Wormworld: a turn at a time, the passes for a seat with no legal move included.
struct Worms;

impl GameView for Worms {
    fn text(
        &self,
        file: &ReplayFile,
        contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        match contract {
            true => replay::worms::print_replay(&replay::worms::from_contract(file)?, last),
            false => replay::worms::print_replay(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let turns = match contract {
            true => replay::worms::from_contract(file)?,
            false => file.clone(),
        };
        Ok((frames::worms_frames(&turns)?, turns.turns))
    }
}

/// Connect Four: the grid after every move, the winning four marked (recorded through its
/// contract only).
struct Connect4;

impl GameView for Connect4 {
    fn text(
        &self,
        file: &ReplayFile,
        _contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        replay::connect4::print_connect4(file, last)
    }

    fn frames(
        &self,
        file: &ReplayFile,
        _contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        Ok((frames::connect4_frames(file)?, file.turns.clone()))
    }
}

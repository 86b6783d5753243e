//! Each game's view, found by the game's name ([`find`]): how its replays are told as text and drawn
//! as the viewer's frames, from either dialect of replay: the contract's moves (what every game
//! writes today), or the game's own older turns (replays written before it was played through its
//! contract), which still read. A game without a view here is told and drawn from its contract's
//! moves alone (`replay::contract`, [`super::frames`]). A game's view lives in its folder
//! (`games/<game>/view.rs`), named by its registry entry.

use serde_json::Value;

use super::frames::Frame;
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

/// The view of the game named `game`, if it has one of its own (its registry entry says).
pub fn find(game: &str) -> Option<&'static dyn GameView> {
    crate::games::registry::game(game).and_then(|g| g.view)
}

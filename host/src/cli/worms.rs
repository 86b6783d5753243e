//! `botbox match worms --live`.

use std::process::ExitCode;

use crate::games::worms::setup::load_maps_from;
use crate::tournament::runner::Entry;
use crate::tournament::setup::Options;

use super::run::RunArgs;

/// `botbox match worms --live`: every game on the board as it is played, one at a time. Only
/// Wormworld has a live view.
pub fn live(
    game: &str,
    options: &Options,
    entries: &[Entry],
    games: usize,
    run: &RunArgs,
    delay: u64,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        game == crate::games::contract::Rules::name(&crate::games::worms::RULES),
        "--live draws Wormworld's board; {game} has no live view (watch its replays with `botbox view`)"
    );
    let maps = load_maps_from(&options.maps, options.turns)?;
    super::worms_view::live_match(&maps, options.openings, entries, games, run, delay)
}

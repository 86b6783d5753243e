//! Every registered game as the runner plays it, built from one set of options: what `tournament`
//! files, `watch` and the per-game commands share. A game's set-up (maps, dice, variants, board size)
//! is read here, where files are; the runner and the games see only the result.

use std::path::PathBuf;
use std::sync::Arc;

use crate::games::contract::Variant;
use crate::tournament::runner::{Entry, Format, Plan, Playable};
use crate::tournament::versus::Versus;
use anyhow::Context;

/// A game chosen at run time.
pub type Game = Arc<dyn Playable + Send + Sync>;

/// What sets a game up, whichever game it is; each game reads the options it has.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Connect Four: variant names or files; 2048: one board size (`4x4` or `4`).
    pub variants: Vec<String>,
    /// Wormworld: map files or directories.
    pub maps: Vec<PathBuf>,
    /// Wormworld: overrides every map's turn limit.
    pub turns: Option<u32>,
    /// Dice: the dice file, and the dice to use (numbered from 1; all when empty).
    pub dice: Option<PathBuf>,
    pub die: Vec<usize>,
    /// Random opening plies, the same for both games of a pair (Wormworld, Connect Four).
    pub openings: u32,
    /// The run's seed (openings and dice pairs are drawn from it).
    pub seed: u64,
    /// The run compares the two strategies given and no more entries (`--sprt`): dice then needs
    /// one die.
    pub one_pairing: bool,
}

/// The game named `name` set up by `options`, and its entries: the strategies as given, except for
/// dice, where each plays every chosen die (`D1:name`, ...).
pub fn build(
    name: &str,
    options: &Options,
    strategies: Vec<Entry>,
) -> anyhow::Result<(Game, Vec<Entry>)> {
    crate::games::registry::find(name).map_err(anyhow::Error::msg)?;
    let reads = |flags: &[&str]| options.only(name, flags);
    Ok(match name {
        "2048" => {
            reads(&["--variant"])?;
            let size = match options.variants.as_slice() {
                [] => 4,
                [one] => board_size(one)?,
                _ => anyhow::bail!("2048: one board size per run, not {:?}", options.variants),
            };
            crate::games::g2048::check_size(size).context("2048 board size")?;
            let rules = crate::games::registry::find(name).map_err(anyhow::Error::msg)?;
            let board = Variant::named(&format!("{size}x{size}"));
            let game = Versus::new(rules, vec![board], 0, options.seed);
            (Arc::new(game.map_err(anyhow::Error::msg)?), strategies)
        }
        "worms" => {
            reads(&["--map", "--turns", "--openings"])?;
            let maps = super::worms::load_maps_from(&options.maps, options.turns)?;
            let rules = crate::games::registry::find(name).map_err(anyhow::Error::msg)?;
            let maps = maps.iter().map(super::worms::NamedMap::variant).collect();
            let game = Versus::new(rules, maps, options.openings, options.seed);
            (Arc::new(game.map_err(anyhow::Error::msg)?), strategies)
        }
        "dice" => {
            reads(&["--dice", "--die", "--variant"])?;
            anyhow::ensure!(
                options.variants.iter().all(|v| v == "free"),
                "dice: only the free variant leaves a choice to strategies (--variant free; the \
                 strict rule is `botbox dice`)"
            );
            let dice = super::dice_free::DiceArgs {
                dice: options.dice.clone(),
                die: options.die.clone(),
            };
            let (free, entries) = super::dice_free::lineup(&dice, &strategies, options.seed)?;
            anyhow::ensure!(
                !options.one_pairing || entries.len() == strategies.len(),
                "--sprt compares two strategies on one die: choose it with --die N (this run uses \
                 {} dice)",
                entries.len() / strategies.len().max(1)
            );
            let rules = crate::games::registry::find(name).map_err(anyhow::Error::msg)?;
            let game = Versus::arranged(rules, Arc::new(free)).map_err(anyhow::Error::msg)?;
            (Arc::new(game), entries)
        }
        other => {
            let rules = crate::games::registry::find(other).map_err(anyhow::Error::msg)?;
            // Variants to choose from, and openings for a game that would otherwise repeat.
            let flags = [
                (rules.variants().len() > 1).then_some("--variant"),
                rules.repeats().then_some("--openings"),
            ];
            reads(&flags.into_iter().flatten().collect::<Vec<_>>())?;
            let versus =
                super::versus::duel(other, &options.variants, options.openings, options.seed)?;
            (Arc::new(versus), strategies)
        }
    })
}

impl Options {
    /// The set-up flags given, as the command line spells them.
    fn given(&self) -> [(&'static str, bool); 6] {
        [
            ("--variant", !self.variants.is_empty()),
            ("--map", !self.maps.is_empty()),
            ("--turns", self.turns.is_some()),
            ("--dice", self.dice.is_some()),
            ("--die", !self.die.is_empty()),
            ("--openings", self.openings > 0),
        ]
    }

    /// Refuses a set-up `game` does not read (a map for Connect Four): a flag that would change
    /// nothing is a mistake, said at once.
    fn only(&self, game: &str, reads: &[&str]) -> anyhow::Result<()> {
        let unread: Vec<&str> = self
            .given()
            .into_iter()
            .filter(|(flag, given)| *given && !reads.contains(flag))
            .map(|(flag, _)| flag)
            .collect();
        anyhow::ensure!(
            unread.is_empty(),
            "{game} does not use {} ({})",
            unread.join(", "),
            if reads.is_empty() {
                format!("{game} has no set-up to choose")
            } else {
                format!("it reads {}", reads.join(", "))
            }
        );
        Ok(())
    }
}

/// A 2048 board size written `4x4` or `4`.
fn board_size(text: &str) -> anyhow::Result<usize> {
    let side = text
        .split_once('x')
        .map_or(text, |(a, b)| if a == b { a } else { "" });
    side.trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("2048: {text:?} is not a board size such as 4x4"))
}

/// The plan a game's seat count calls for: a series for one seat, `format` for two, a pool for more.
pub fn plan(game: &Game, format: Format, games: usize, seed: u64, repeat: bool) -> Plan {
    let seats = game.seats();
    Plan {
        format: match seats {
            1 => Format::Series,
            2 => format,
            _ => Format::Pool,
        },
        games,
        seed,
        seats,
        repeat: repeat && seats > 2,
    }
}

//! How any registered game is set up for a run, from one set of options: what `match`, `tournament`,
//! tournament files and `watch` share, and the league's ladders. A game with a set-up of its own
//! (Wormworld's maps, dice's dice, 2048's board size) brings a [`SetUp`] in its folder
//! (`games/<game>/setup.rs`), named by its registry entry; every other game is set up by
//! [`Contract`]: its variants by name or file, and random openings where its games would repeat.
//! Files are read here, where the options name them; the runner and the games see only the result.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;

use super::runner::{Entry, Format, GameRecord, Plan, Playable, Report};
use super::versus::Versus;
use crate::games::contract::{Rules, Variant};
use crate::games::registry;

/// A game chosen at run time.
pub type Game = Arc<dyn Playable + Send + Sync>;

/// What sets a game up, whichever game it is; each game reads the options it has
/// ([`SetUp::reads`]) and refuses the others.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Variant names or files (Connect Four, Tron); 2048: one board size (`4x4` or `4`).
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
    /// Every strategy is one entry under its own name (`watch`): a game that would make several
    /// entries of each (dice: one per die) plays one set-up for all (dice: one die, the first
    /// given, else die 1).
    pub entries_as_given: bool,
}

/// A table of a game's own figures, added to a run's report (2048: its benchmark's points and
/// milestones); the front end draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// The line above the table.
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// How a game is set up for a run: what its registry entry names when the game has a set-up of its
/// own, else [`Contract`]. Every method but [`SetUp::build`] has the contract's default.
pub trait SetUp: Sync {
    /// The set-up flags the game reads, as the command line spells them; any other given is refused.
    fn reads(&self, rules: &dyn Rules) -> Vec<&'static str> {
        let flags = [
            (rules.variants().len() > 1).then_some("--variant"),
            rules.repeats().then_some("--openings"),
        ];
        flags.into_iter().flatten().collect()
    }

    /// The game set up from `options`, and its entries (the strategies as given, unless the game
    /// makes entries of its own: dice, every strategy with every chosen die, `D1:name`).
    fn build(
        &self,
        rules: &'static dyn Rules,
        options: &Options,
        strategies: Vec<Entry>,
    ) -> anyhow::Result<(Game, Vec<Entry>)>;

    /// The key of a tournament file that names the set-up, for its errors.
    fn file_key(&self) -> &'static str {
        "variants"
    }

    /// The league's ladder for a job seeded `seed`: the default variant, opened by
    /// [`LADDER_OPENING`] random moves if its games would otherwise repeat.
    fn ladder(&self, rules: &'static dyn Rules, seed: u64) -> anyhow::Result<Game> {
        let variants = vec![registry::default_variant(rules)];
        let openings = if rules.repeats() { LADDER_OPENING } else { 0 };
        let versus = Versus::new(rules, variants, openings, seed)
            .map_err(|e| anyhow::anyhow!("{}: {e}", rules.name()))?;
        Ok(Arc::new(versus))
    }

    /// A solo game's figure, as `watch` sums it, and its unit: the score by default.
    fn solo_figure(&self, record: &GameRecord) -> f64 {
        record.figures.score.unwrap_or(0.0)
    }

    /// The name of [`SetUp::solo_figure`]'s unit.
    fn solo_unit(&self) -> &'static str {
        "score"
    }

    /// The game's own figures for the entries `names` from their `records`, for reports (none by
    /// default): a function of the records alone, as every report's summary is.
    fn benchmark(&self, names: &[&str], records: &[GameRecord]) -> Option<serde_json::Value> {
        let _ = (names, records);
        None
    }

    /// A table of the game's own figures for a report of its games, drawn from
    /// [`SetUp::benchmark`] (none by default).
    fn figures(&self, report: &Report) -> Option<Figures> {
        let _ = report;
        None
    }
}

/// Random moves that open each league game of a game that would otherwise repeat (Connect Four):
/// 4 plies make 2,401 openings.
pub const LADDER_OPENING: u32 = 4;

/// The set-up of a game played through its contract alone: its variants by name or file (the
/// default variant when none is given) and the openings asked for.
#[derive(Debug)]
pub struct Contract;

impl SetUp for Contract {
    fn build(
        &self,
        rules: &'static dyn Rules,
        options: &Options,
        strategies: Vec<Entry>,
    ) -> anyhow::Result<(Game, Vec<Entry>)> {
        let versus = duel(rules, &options.variants, options.openings, options.seed)?;
        Ok((Arc::new(versus), strategies))
    }
}

/// The set-up of `rules`: its own, or the contract's.
pub fn of(rules: &dyn Rules) -> &'static dyn SetUp {
    registry::game(rules.name())
        .and_then(|g| g.setup)
        .unwrap_or(&Contract)
}

/// The game named `name` set up by `options`, and its entries; a set-up flag the game does not
/// read is refused.
pub fn build(
    name: &str,
    options: &Options,
    strategies: Vec<Entry>,
) -> anyhow::Result<(Game, Vec<Entry>)> {
    let rules = registry::find(name).map_err(anyhow::Error::msg)?;
    let setup = of(rules);
    options.only(name, &setup.reads(rules))?;
    setup.build(rules, options, strategies)
}

/// The league's ladder of the game named `name` for a job seeded `seed`.
pub fn ladder(name: &str, seed: u64) -> anyhow::Result<Game> {
    let rules = registry::find(name).map_err(anyhow::Error::msg)?;
    of(rules).ladder(rules, seed)
}

/// A contract game over the variants given (by name, or files), the default one when none is.
pub fn duel(
    rules: &'static dyn Rules,
    given: &[String],
    openings: u32,
    seed: u64,
) -> anyhow::Result<Versus> {
    let variants = if given.is_empty() {
        vec![registry::default_variant(rules)]
    } else {
        given
            .iter()
            .map(|v| variant(v))
            .collect::<anyhow::Result<_>>()?
    };
    Versus::new(rules, variants, openings, seed)
        .map_err(|e| anyhow::anyhow!("{}: {e}", rules.name()))
}

/// A variant by name, or read from a file when one of that name exists.
pub fn variant(given: &str) -> anyhow::Result<Variant> {
    let path = Path::new(given);
    if !path.is_file() {
        return Ok(Variant::named(given));
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path
        .file_stem()
        .map_or_else(|| given.to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Variant {
        name,
        text: Some(text),
    })
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

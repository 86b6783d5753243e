//! How dice is set up for a run (its [`SetUp`], named by the registry): the free variant, where the
//! player chooses which piece to move, over entries that each pair a strategy with a die of a dice
//! file (every strategy with every chosen die); the league plays every die of the bundled
//! `wuerfel0`, both seats rolling the same one.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;

use crate::games::contract::{Rules, Variant};
use crate::games::dice::Die;
use crate::tournament::dice::free::{DiceFree, DieOf};
use crate::tournament::runner::Entry;
use crate::tournament::setup::{self, Game, Options};
use crate::tournament::versus::Versus;

/// Dice's set-up.
#[derive(Debug)]
pub struct SetUp;

impl setup::SetUp for SetUp {
    fn reads(&self, _rules: &dyn Rules) -> Vec<&'static str> {
        vec!["--dice", "--die", "--variant"]
    }

    fn build(
        &self,
        rules: &'static dyn Rules,
        options: &Options,
        strategies: Vec<Entry>,
    ) -> anyhow::Result<(Game, Vec<Entry>)> {
        anyhow::ensure!(
            options.variants.iter().all(|v| v == "free"),
            "dice: only the free variant leaves a choice to strategies (--variant free; the \
             strict rule is `botbox dice`)"
        );
        let (free, entries) = if options.entries_as_given {
            (one_die(options)?, strategies)
        } else {
            let (free, entries) = lineup(options, &strategies)?;
            anyhow::ensure!(
                !options.one_pairing || entries.len() == strategies.len(),
                "--sprt compares two strategies on one die: choose it with --die N (this run uses \
                 {} dice)",
                entries.len() / strategies.len().max(1)
            );
            (free, entries)
        };
        let game = Versus::arranged(rules, Arc::new(free)).map_err(anyhow::Error::msg)?;
        Ok((Arc::new(game), entries))
    }

    fn file_key(&self) -> &'static str {
        "dice"
    }

    /// Both players rolling the same die of the bundled `wuerfel0` (the variant picks which).
    fn ladder(&self, rules: &'static dyn Rules, seed: u64) -> anyhow::Result<Game> {
        let file = Variant::named("wuerfel0");
        let free = DiceFree::new(file, DieOf::Variant, seed).map_err(anyhow::Error::msg)?;
        let versus =
            Versus::arranged(rules, Arc::new(free)).map_err(|e| anyhow::anyhow!("dice: {e}"))?;
        Ok(Arc::new(versus))
    }
}

/// The dice file `dice` as the contract's variant names it (the bundled `wuerfel0`, or a file's
/// stem with its text), its dice, and how to name it in messages.
pub fn read(dice: Option<&Path>) -> anyhow::Result<(Variant, Vec<Die>, String)> {
    Ok(match dice {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let dice = crate::games::dice::file::parse(&text)
                .with_context(|| format!("reading the dice file {}", path.display()))?;
            let file = Variant {
                name: variant_name(path),
                text: Some(text),
            };
            (file, dice, path.display().to_string())
        }
        None => {
            let text = crate::games::dice::bundled("wuerfel0").expect("bundled");
            let dice = crate::games::dice::file::parse(text).expect("the bundled dice parse");
            (
                Variant::named("wuerfel0"),
                dice,
                "the bundled wuerfel0".to_string(),
            )
        }
    })
}

/// A dice file's name in a variant: its stem, without the characters the variant's own syntax
/// uses (`NAME:I,J@1`).
fn variant_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = stem
        .chars()
        .map(|c| if matches!(c, ':' | '@' | ',') { '_' } else { c })
        .collect();
    if name.is_empty() { "dice".into() } else { name }
}

/// Die `n` (numbered from 1) of a file of `count` dice, as an index.
pub fn die_index(n: usize, count: usize, file: &str) -> anyhow::Result<usize> {
    if n == 0 || n > count {
        anyhow::bail!("die {n}: {file} has dice 1 to {count}");
    }
    Ok(n - 1)
}

/// The free variant's entries: every strategy with every chosen die (numbered from 1; all when
/// none are chosen), die-major, so every pairing's first entry has the lower die, as `botbox dice`
/// seats them.
pub fn lineup(options: &Options, strategies: &[Entry]) -> anyhow::Result<(DiceFree, Vec<Entry>)> {
    let (variant, dice, file) = read(options.dice.as_deref())?;
    let mut chosen = Vec::new();
    for &n in &options.die {
        let d = die_index(n, dice.len(), &file)?;
        if !chosen.contains(&d) {
            chosen.push(d);
        }
    }
    if chosen.is_empty() {
        chosen = (0..dice.len()).collect();
    }
    chosen.sort();
    let mut entries = Vec::new();
    let mut die_of = Vec::new();
    for &d in &chosen {
        for s in strategies {
            entries.push(Entry {
                name: format!("D{}:{}", d + 1, s.name),
                strategy: s.strategy.clone(),
            });
            die_of.push(d);
        }
    }
    if entries.len() < 2 {
        anyhow::bail!("a tournament needs at least two entries: give more dice or more strategies");
    }
    let free =
        DiceFree::new(variant, DieOf::Entries(die_of), options.seed).map_err(anyhow::Error::msg)?;
    Ok((free, entries))
}

/// Every strategy as one entry under its own name, all playing one die (the first given, else die
/// 1): `watch`.
fn one_die(options: &Options) -> anyhow::Result<DiceFree> {
    let (variant, dice, file) = read(options.dice.as_deref())?;
    let n = options.die.first().copied().unwrap_or(1);
    let die = die_index(n, dice.len(), &file).context("--die")?;
    DiceFree::new(variant, DieOf::Same(die), options.seed).map_err(anyhow::Error::msg)
}

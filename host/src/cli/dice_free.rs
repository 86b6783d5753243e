//! Dice's entries for `match` and `tournament` (the free variant): every strategy with every chosen
//! die, playing Mensch ärgere Dich nicht under the manufacturer's original rule, where the player
//! chooses which piece to move.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::games::contract::Variant;
use crate::games::dice::Die;
use crate::tournament::dice::free::{DiceFree, DieOf};
use crate::tournament::runner::Entry;

/// The dice of a dice run: `botbox match dice`, `botbox tournament dice`, `botbox watch --game dice`.
#[derive(Debug, Clone)]
pub struct DiceArgs {
    /// The dice file (default: the bundled examples/dice/wuerfel0.txt)
    pub dice: Option<PathBuf>,
    /// Use only these dice (numbered from 1 as in the file)
    pub die: Vec<usize>,
}

/// The dice file of `args` as the contract's variant names it (the bundled `wuerfel0`, or a file's
/// stem with its text), its dice, and how to name it in messages.
pub fn read(args: &DiceArgs) -> anyhow::Result<(Variant, Vec<Die>, String)> {
    Ok(match &args.dice {
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
pub fn lineup(
    args: &DiceArgs,
    strategies: &[Entry],
    seed: u64,
) -> anyhow::Result<(DiceFree, Vec<Entry>)> {
    let (variant, dice, file) = read(args)?;
    let mut chosen = Vec::new();
    for &n in &args.die {
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
    let free = DiceFree::new(variant, DieOf::Entries(die_of), seed).map_err(anyhow::Error::msg)?;
    Ok((free, entries))
}

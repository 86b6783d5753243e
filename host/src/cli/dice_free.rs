//! Dice's entries for `match` and `tournament` (the free variant): every strategy with every chosen
//! die, playing Mensch ärgere Dich nicht under the manufacturer's original rule, where the player
//! chooses which piece to move.

use std::path::PathBuf;

use crate::play::dice_free::DiceFree;
use crate::tournament::runner::Entry;

/// The dice of a dice run: `botbox match dice`, `botbox tournament dice`, `botbox watch --game dice`.
#[derive(Debug, Clone)]
pub struct DiceArgs {
    /// The dice file (default: the bundled examples/dice/wuerfel0.txt)
    pub dice: Option<PathBuf>,
    /// Use only these dice (numbered from 1 as in the file)
    pub die: Vec<usize>,
}

/// The free variant's entries: every strategy with every chosen die (numbered from 1; all when
/// none are chosen), die-major, so every pairing's first entry has the lower die, as `botbox dice`
/// seats them.
/// The dice of `args` and how to name their file in messages.
pub fn read(args: &DiceArgs) -> anyhow::Result<(Vec<crate::games::dice::Die>, String)> {
    Ok(match &args.dice {
        Some(path) => (super::dice::read_dice(path)?, path.display().to_string()),
        None => {
            let text = crate::games::dice::bundled("wuerfel0").expect("bundled");
            let dice = crate::games::dice::file::parse(text).expect("the bundled dice parse");
            (dice, "the bundled wuerfel0".to_string())
        }
    })
}

/// Die `n` (numbered from 1) of a file of `count` dice, as an index.
pub fn die_index(n: usize, count: usize, file: &str) -> anyhow::Result<usize> {
    if n == 0 || n > count {
        anyhow::bail!("die {n}: {file} has dice 1 to {count}");
    }
    Ok(n - 1)
}

pub fn lineup(
    args: &DiceArgs,
    strategies: &[Entry],
    seed: u64,
) -> anyhow::Result<(DiceFree, Vec<Entry>)> {
    let (dice, file) = read(args)?;
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
    Ok((DiceFree { dice, die_of, seed }, entries))
}

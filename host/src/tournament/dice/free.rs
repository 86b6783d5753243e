//! The free variant of Mensch ärgere Dich nicht over entries that each bring a die: how a game
//! between two (die, strategy) entries is set out ([`DiceFree`], an [`Arrange`] for
//! [`crate::tournament::versus::Versus`]). The game itself is the dice contract's
//! ([`crate::games::dice::DiceRules`]), played by the one driver like every other.
//!
//! **Same seeds as the ranking.** A game between the entries of dice `i < j` is seeded exactly as
//! `botbox dice` seeds game `k` of that pair (pair seed `derive_seed(seed, p)` for the pair's index
//! `p`, game seed `derive_seed(pair_seed, k / 2)`, die `i` starting in even games), and the engine
//! draws its rolls in the same order whoever chooses the moves. So a strategy that always takes the
//! frontmost legal move reproduces the strict rule's results game for game; a test checks it. The
//! lower-numbered die sits in seat 0 (seeded `seat_seed(seed, 0)`) whoever starts: the contract's
//! variant `NAME:I,J@1` lets seat 1 start.

use crate::games::contract::Variant;
use crate::games::derive_seed;
use crate::games::dice::{Die, dice_pairs};
use crate::tournament::runner::Scheduled;
use crate::tournament::versus::{Arrange, Arranged};

/// Which die each entry plays.
#[derive(Debug, Clone)]
pub enum DieOf {
    /// Entry `e` plays die `dice[e]` (indices into the file's dice): `match` and `tournament`.
    Entries(Vec<usize>),
    /// Every entry plays the variant's die, a variant per die of the file: the league's ladder.
    Variant,
    /// Every entry plays this die (an index into the file's dice): `watch`.
    Same(usize),
}

/// The free variant over entries that each pair a die with a strategy.
#[derive(Debug, Clone)]
pub struct DiceFree {
    /// The dice file: its name (the bundled file's, or the file's stem) and, for a file that is not
    /// bundled, its text, as the contract's variant carries them.
    pub file: Variant,
    /// The file's dice.
    pub dice: Vec<Die>,
    pub die_of: DieOf,
    /// The run's seed (the ranking's `--seed`).
    pub seed: u64,
}

impl DiceFree {
    /// The dice file `file` (a bundled name, or a name and its text) for entries playing `die_of`,
    /// in a run seeded `seed`; the file's errors name it.
    pub fn new(file: Variant, die_of: DieOf, seed: u64) -> Result<DiceFree, String> {
        let text = match &file.text {
            Some(text) => text.as_str(),
            None => crate::games::dice::bundled(&file.name)
                .ok_or_else(|| format!("no bundled dice file {:?}", file.name))?,
        };
        let dice = crate::games::dice::file::parse(text).map_err(|e| e.to_string())?;
        let chosen = match &die_of {
            DieOf::Entries(of) => of.as_slice(),
            DieOf::Same(d) => std::slice::from_ref(d),
            DieOf::Variant => &[],
        };
        if let Some(d) = chosen.iter().find(|&&d| d >= dice.len()) {
            return Err(format!(
                "die {}: the file has dice 1 to {}",
                d + 1,
                dice.len()
            ));
        }
        Ok(DiceFree {
            file,
            dice,
            die_of,
            seed,
        })
    }

    /// The seed of a pair of dice, as the ranking derives it; a die against itself (two strategies
    /// with one die) gets a stream of its own.
    pub fn pair_seed(&self, a: usize, b: usize) -> u64 {
        if a == b {
            return derive_seed(self.seed, u64::MAX - a as u64);
        }
        let p = dice_pairs(self.dice.len())
            .iter()
            .position(|&pair| pair == (a.min(b), a.max(b)))
            .expect("both dice are in the set");
        derive_seed(self.seed, p as u64)
    }

    /// The die entry `entry` plays in a game of variant `variant`.
    fn die(&self, entry: usize, variant: usize) -> usize {
        match &self.die_of {
            DieOf::Entries(of) => of[entry],
            DieOf::Same(d) => *d,
            DieOf::Variant => variant,
        }
    }
}

impl Arrange for DiceFree {
    fn variants(&self) -> usize {
        match self.die_of {
            DieOf::Entries(_) | DieOf::Same(_) => 1,
            DieOf::Variant => self.dice.len(),
        }
    }

    fn variant_name(&self, variant: usize) -> String {
        match self.die_of {
            DieOf::Entries(_) | DieOf::Same(_) => "free".into(),
            DieOf::Variant => format!("{} D{}", self.file.name, variant + 1),
        }
    }

    fn setup(&self) -> String {
        match &self.die_of {
            DieOf::Entries(of) => {
                let dice: Vec<&[u64]> = self.dice.iter().map(|d| d.faces()).collect();
                format!("free variant, dice {dice:?}, entries' dice {of:?}")
            }
            DieOf::Same(d) => {
                let dice: Vec<&[u64]> = self.dice.iter().map(|d| d.faces()).collect();
                format!("free variant, dice {dice:?}, every entry's die {d}")
            }
            DieOf::Variant => String::new(),
        }
    }

    /// Seat 0 plays die A, the lower-numbered die (the pairing's first entry on a tie); the
    /// runner's first seat starts.
    fn arrange(&self, game: &Scheduled) -> Arranged {
        let first = game.round % 2;
        let [d0, d1] = [0, 1].map(|s| self.die(game.seats[s], game.variant));
        let a_seat = if d0 != d1 {
            usize::from(d1 < d0)
        } else {
            first
        };
        let b_seat = 1 - a_seat;
        let (die_a, die_b) = (
            self.die(game.seats[a_seat], game.variant),
            self.die(game.seats[b_seat], game.variant),
        );
        let seed = derive_seed(self.pair_seed(die_a, die_b), (game.round / 2) as u64);
        let starts = if a_seat == 0 { "" } else { "@1" };
        Arranged {
            variant: Variant {
                name: format!("{}:{},{}{starts}", self.file.name, die_a + 1, die_b + 1),
                text: self.file.text.clone(),
            },
            seed,
            seats: vec![a_seat, b_seat],
        }
    }
}

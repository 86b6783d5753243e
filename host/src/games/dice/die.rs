//! A die: a list of faces, one picked uniformly at random per roll.
//!
//! Faces are whole numbers as the dice file gives them: they may repeat, may be 0 and may exceed 6.
//! The engine only ever needs a face as a number of steps from 0 to 43 (a piece never moves further),
//! so the die keeps a second table with every face above 43 clamped to [`TOO_FAR`]: a roll that can
//! move nothing and, not being a 6, gives no second roll. The tables are built once per die, so a roll
//! costs one random index and one look-up.

use rand::Rng as _;
use serde::Serialize;

use super::position::LAST_STEP;
use crate::games::Rng;

/// The steps of a face too large to move any piece (anything above [`LAST_STEP`]).
pub const TOO_FAR: u8 = LAST_STEP + 1;

/// The face that brings a piece in and gives another roll.
pub const SIX: u8 = 6;

/// A die given with no faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a die needs at least one face")]
pub struct EmptyDie;

/// A die: its faces as given, and the tables the engine rolls with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "Vec<u64>")]
pub struct Die {
    faces: Box<[u64]>,
    /// Each face as steps, clamped to [`TOO_FAR`].
    steps: Box<[u8]>,
    /// `2^64 mod faces`: products whose low half falls below it are redrawn, for exact uniformity.
    threshold: u64,
    /// The distinct faces that could move a piece (1 to 43), for the deadlock check.
    movers: Box<[u8]>,
    /// The same faces as bits: bit `r` set when a face moves `r` steps.
    mover_mask: u64,
    has_six: bool,
    only_sixes: bool,
}

impl Die {
    /// A die with these faces, in this order (the order matters only for which face a seed picks).
    pub fn new(faces: Vec<u64>) -> Result<Die, EmptyDie> {
        if faces.is_empty() {
            return Err(EmptyDie);
        }
        let steps: Box<[u8]> = faces.iter().map(|&f| clamp(f)).collect();
        let mut movers: Vec<u8> = steps
            .iter()
            .copied()
            .filter(|s| (1..=LAST_STEP).contains(s))
            .collect();
        movers.sort_unstable();
        movers.dedup();
        let n = faces.len() as u64;
        Ok(Die {
            threshold: n.wrapping_neg() % n,
            has_six: steps.contains(&SIX),
            only_sixes: steps.iter().all(|&s| s == SIX),
            faces: faces.into(),
            steps,
            mover_mask: movers.iter().fold(0, |mask, &r| mask | 1 << r),
            movers: movers.into(),
        })
    }

    /// The ordinary six-sided die, faces 1 to 6.
    pub fn standard() -> Die {
        Die::new((1..=6).collect()).expect("six faces")
    }

    /// The faces as given.
    pub fn faces(&self) -> &[u64] {
        &self.faces
    }

    /// Picks a face uniformly at random and returns its index in [`Die::faces`].
    #[inline]
    pub fn throw(&self, rng: &mut Rng) -> usize {
        let n = self.steps.len() as u64;
        loop {
            let wide = u128::from(rng.next_u64()) * u128::from(n);
            if wide as u64 >= self.threshold {
                return (wide >> 64) as usize;
            }
        }
    }

    /// The steps face `index` moves, clamped to [`TOO_FAR`].
    #[inline]
    pub fn steps(&self, index: usize) -> u8 {
        self.steps[index]
    }

    /// One roll, as steps: [`Die::throw`] then [`Die::steps`].
    #[inline]
    pub fn roll(&self, rng: &mut Rng) -> u8 {
        self.steps(self.throw(rng))
    }

    /// Whether some face is a 6: without one no piece ever leaves B, so the die can never win.
    pub fn has_six(&self) -> bool {
        self.has_six
    }

    /// Whether every face is a 6: its player rolls again after every roll, so a turn never ends.
    pub fn only_sixes(&self) -> bool {
        self.only_sixes
    }

    /// The distinct faces from 1 to 43, the only ones that can ever move a piece.
    pub fn movers(&self) -> &[u8] {
        &self.movers
    }

    /// [`Die::movers`] as a bit mask: bit `r` set when some face moves `r` steps.
    #[inline]
    pub fn mover_mask(&self) -> u64 {
        self.mover_mask
    }
}

fn clamp(face: u64) -> u8 {
    u8::try_from(face).map_or(TOO_FAR, |f| f.min(TOO_FAR))
}

impl From<Die> for Vec<u64> {
    fn from(die: Die) -> Vec<u64> {
        die.faces.into_vec()
    }
}

/// The faces separated by spaces, as in a dice file: `1 2 3 4 5 6`.
impl std::fmt::Display for Die {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, face) in self.faces.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rng;

    fn die(faces: &[u64]) -> Die {
        Die::new(faces.to_vec()).unwrap()
    }

    #[test]
    fn tables_follow_the_faces() {
        // faces, has a 6, only 6s, the faces that can move something
        let cases: &[(&[u64], bool, bool, &[u8])] = &[
            (&[1, 2, 3, 4, 5, 6], true, false, &[1, 2, 3, 4, 5, 6]),
            (&[6, 6, 6], true, true, &[6]),
            (&[0, 0], false, false, &[]),
            (&[1, 1, 5, 5], false, false, &[1, 5]),
            (&[43, 44, 300, u64::MAX], false, false, &[43]),
        ];
        for &(faces, six, sixes, movers) in cases {
            let d = die(faces);
            assert_eq!(d.has_six(), six, "{faces:?}");
            assert_eq!(d.only_sixes(), sixes, "{faces:?}");
            assert_eq!(d.movers(), movers, "{faces:?}");
        }
    }

    #[test]
    fn large_faces_move_too_far_and_are_not_sixes() {
        let d = die(&[7, 44, 256 + 6, u64::MAX]);
        let steps: Vec<u8> = (0..4).map(|i| d.steps(i)).collect();
        assert_eq!(steps, [7, TOO_FAR, TOO_FAR, TOO_FAR]);
    }

    #[test]
    fn an_empty_die_is_refused() {
        assert_eq!(Die::new(vec![]), Err(EmptyDie));
    }

    #[test]
    fn every_face_comes_up_about_equally_often() {
        let d = die(&[1, 2, 3, 4, 5, 6, 6]);
        let mut counts = [0u32; 7];
        let mut r = rng(3);
        for _ in 0..70_000 {
            counts[d.throw(&mut r)] += 1;
        }
        // Expectation 10,000 each, standard deviation about 93: 5 sigmas is 465.
        assert!(
            counts.iter().all(|&c| c.abs_diff(10_000) < 465),
            "{counts:?}"
        );
    }

    #[test]
    fn displays_as_in_a_dice_file() {
        assert_eq!(die(&[1, 1, 6]).to_string(), "1 1 6");
    }
}

//! Whether a map is fair to both players: a symmetry of the grid that leaves the terrain as it is
//! and maps every worm of one player onto a worm of the other, head onto head.
//!
//! Under such a symmetry every position of player 1 has a mirror position of player 2, so neither
//! side starts ahead (who moves first is evened out by playing each map twice with the sides
//! swapped). A half turn about the centre is the natural choice, but it maps the single hole onto
//! itself only when both sides are odd; a square map with even sides, such as the 30x30 `big.txt`,
//! uses a mirror in a diagonal instead, which keeps a hole on that diagonal in place. Mirrors are
//! fair too: the rules treat left and right turns alike.

use super::Map;
use super::map::Pos;

/// A symmetry of the grid that swaps the players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// A half turn about the centre: `(r, c)` to `(h-1-r, w-1-c)`.
    HalfTurn,
    /// A mirror in the vertical centre line: `(r, c)` to `(r, w-1-c)`.
    MirrorLeftRight,
    /// A mirror in the horizontal centre line: `(r, c)` to `(h-1-r, c)`.
    MirrorUpDown,
    /// A mirror in the main diagonal (square maps): `(r, c)` to `(c, r)`.
    Transpose,
    /// A mirror in the other diagonal (square maps): `(r, c)` to `(w-1-c, h-1-r)`.
    AntiTranspose,
}

impl Symmetry {
    /// Every symmetry, in the order [`Map::symmetry`] tries them.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::HalfTurn,
        Symmetry::MirrorLeftRight,
        Symmetry::MirrorUpDown,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of `(row, col)` on a map of `height` rows and `width` columns. The diagonal
    /// mirrors assume a square map.
    pub fn image(self, (row, col): Pos, height: usize, width: usize) -> Pos {
        let (flip_row, flip_col) = (height - 1 - row, width - 1 - col);
        match self {
            Symmetry::HalfTurn => (flip_row, flip_col),
            Symmetry::MirrorLeftRight => (row, flip_col),
            Symmetry::MirrorUpDown => (flip_row, col),
            Symmetry::Transpose => (col, row),
            Symmetry::AntiTranspose => (flip_col, flip_row),
        }
    }

    fn needs_square(self) -> bool {
        matches!(self, Symmetry::Transpose | Symmetry::AntiTranspose)
    }
}

impl Map {
    /// The first symmetry (in [`Symmetry::ALL`] order) under which this map is fair, if any.
    pub fn symmetry(&self) -> Option<Symmetry> {
        Symmetry::ALL.into_iter().find(|&s| self.is_symmetric(s))
    }

    /// Whether `symmetry` keeps the terrain and maps each player's worms onto the other's.
    pub fn is_symmetric(&self, symmetry: Symmetry) -> bool {
        if symmetry.needs_square() && self.width != self.height {
            return false;
        }
        let image = |pos| symmetry.image(pos, self.height, self.width);
        let cells = (0..self.height).flat_map(|row| (0..self.width).map(move |col| (row, col)));
        let terrain_kept = cells
            .into_iter()
            .all(|pos| self.terrain(image(pos)) == self.terrain(pos));
        let worms_swapped = self.worms.iter().all(|worm| {
            let mirrored = worm.cells.map(image);
            self.worms
                .iter()
                .any(|other| other.owner != worm.owner && other.cells == mirrored)
        });
        terrain_kept && worms_swapped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks which symmetries `rows` (with the heads in `heads`) has.
    fn check(rows: &str, heads: &str, expected: &[Symmetry]) {
        let map = Map::parse(&format!("turns 10\n{rows}\nheads {heads}\n")).unwrap();
        let found: Vec<Symmetry> = Symmetry::ALL
            .into_iter()
            .filter(|&s| map.is_symmetric(s))
            .collect();
        assert_eq!(found, expected, "{rows}");
        assert_eq!(map.symmetry(), expected.first().copied());
    }

    #[test]
    fn maps_are_fair_under_the_symmetries_that_swap_the_players() {
        use Symmetry::*;
        // A straight worm each side of the hole: both half turn and left-right mirror.
        check("AAA.O.aaa", "A:left a:right", &[HalfTurn, MirrorLeftRight]);
        // Heads on the same side: the half turn maps head onto tail.
        check("AAA.O.aaa", "A:left a:left", &[]);
        // An obstacle that has no partner.
        check("AAA#O.aaa", "A:left a:right", &[]);
        check(
            "..aaa\n.....\nA.O..\nA....\nA....",
            "A:down a:right",
            &[Transpose],
        );
        check(
            "AAA..\n.....\n..O.a\n....a\n....a",
            "A:left a:down",
            &[AntiTranspose],
        );
        // The left-right mirror maps A onto B, a worm of the same player.
        check(
            "AAA...BBB\n....O....\naaa...bbb",
            "A:left B:right a:left b:right",
            &[HalfTurn, MirrorUpDown],
        );
    }
}

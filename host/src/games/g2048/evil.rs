//! Evil mode, an extra of the course's terminal game (`docs/evil-mode.md`).
//!
//! Evil tiles are valueless tiles that occupy a cell. They slide like any tile, never merge with a
//! normal tile, and when two evil tiles collide both vanish. Collisions follow the merge order of
//! the normal rules: the pair nearest the edge the player pushes towards goes first, and nothing
//! collides twice in a move. Each new tile is evil with probability [`EVIL_PROBABILITY`], otherwise
//! a 2 (p = 0.9) or a 4. Vanishing scores nothing. Evil games run on the general board code, with
//! the evil tile stored as the exponent [`EVIL`].

use rand::RngExt;

use super::{
    Direction, IllegalMove, MAX_EXPONENT, Observation, TWO_PROBABILITY, WIN_EXPONENT, check_size,
    value,
};
use super::{SizeError, Step};
use crate::games::{Rng, rng};

/// The cell value of an evil tile.
pub const EVIL: u8 = u8::MAX;
/// The chance that a new tile is evil.
pub const EVIL_PROBABILITY: f64 = 0.1;
/// How an evil tile appears to strategies in an observation (no real tile has the value 1).
pub const EVIL_VALUE: u32 = 1;

/// Slides one line towards its start, merging equal normal tiles and annihilating pairs of evil tiles.
/// Returns the score gained.
pub fn slide(line: &mut [u8]) -> u32 {
    let mut placed = 0;
    let mut gained = 0u32;
    let mut open: Option<u8> = None;
    for i in 0..line.len() {
        let cell = std::mem::take(&mut line[i]);
        if cell == 0 {
            continue;
        }
        match open {
            Some(EVIL) if cell == EVIL => {
                // Both evil tiles vanish: take back the one placed last.
                placed -= 1;
                line[placed] = 0;
                open = None;
            }
            Some(prev) if prev == cell && cell != EVIL && cell < MAX_EXPONENT => {
                line[placed - 1] = cell + 1;
                gained = gained.saturating_add(value(cell + 1));
                open = None;
            }
            _ => {
                line[placed] = cell;
                placed += 1;
                open = Some(cell);
            }
        }
    }
    gained
}

/// A game of 2048 in evil mode.
#[derive(Clone, Debug)]
pub struct EvilGame {
    size: usize,
    cells: Vec<u8>,
    score: u64,
    moves: u32,
    won: bool,
    rng: Rng,
}

/// The cell indices of line `i` when moving `dir`, ordered from the edge moved towards.
fn line_indices(size: usize, dir: Direction, i: usize) -> Vec<usize> {
    (0..size)
        .map(|k| match dir {
            Direction::Left => i * size + k,
            Direction::Right => i * size + (size - 1 - k),
            Direction::Up => k * size + i,
            Direction::Down => (size - 1 - k) * size + i,
        })
        .collect()
}

impl EvilGame {
    pub fn new(size: usize, seed: u64) -> Result<EvilGame, SizeError> {
        let size = check_size(size)?;
        let mut game = EvilGame {
            size,
            cells: vec![0; size * size],
            score: 0,
            moves: 0,
            won: false,
            rng: rng(seed),
        };
        game.spawn();
        game.spawn();
        Ok(game)
    }

    /// The cells after moving `dir` and the score gained, or `None` if nothing would change.
    fn moved(&self, dir: Direction) -> Option<(Vec<u8>, u32)> {
        let mut cells = self.cells.clone();
        let mut gained = 0;
        for i in 0..self.size {
            let idx = line_indices(self.size, dir, i);
            let mut line: Vec<u8> = idx.iter().map(|&j| cells[j]).collect();
            gained += slide(&mut line);
            for (j, c) in idx.into_iter().zip(line) {
                cells[j] = c;
            }
        }
        (cells != self.cells).then_some((cells, gained))
    }

    fn spawn(&mut self) -> Option<(usize, u8)> {
        let empty: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i] == 0)
            .collect();
        if empty.is_empty() {
            return None;
        }
        let cell = empty[self.rng.random_range(0..empty.len())];
        let tile = if self.rng.random_bool(EVIL_PROBABILITY) {
            EVIL
        } else if self.rng.random_bool(TWO_PROBABILITY) {
            1
        } else {
            2
        };
        self.cells[cell] = tile;
        Some((cell, tile))
    }

    pub fn step(&mut self, direction: Direction) -> Result<Step, IllegalMove> {
        let (cells, gained) = self.moved(direction).ok_or(IllegalMove { direction })?;
        self.cells = cells;
        self.score += u64::from(gained);
        self.moves += 1;
        self.won |= self.cells.iter().any(|&c| c != EVIL && c >= WIN_EXPONENT);
        let spawned = self.spawn().map(|(i, t)| (i, cell_value(t)));
        Ok(Step { gained, spawned })
    }

    pub fn legal(&self) -> Vec<Direction> {
        Direction::ALL
            .into_iter()
            .filter(|&d| self.moved(d).is_some())
            .collect()
    }

    pub fn is_over(&self) -> bool {
        self.legal().is_empty()
    }

    /// Rearranges all tiles at random over the board.
    pub fn shuffle(&mut self) {
        shuffle_cells(&mut self.cells, &mut self.rng);
    }

    /// Cell contents, row-major: 0 empty, [`EVIL`] evil, otherwise an exponent.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    pub fn observation(&self) -> Observation {
        let board = self
            .cells
            .chunks(self.size)
            .map(|row| row.iter().map(|&c| cell_value(c)).collect())
            .collect();
        Observation {
            board,
            score: self.score,
            moves: self.moves,
            legal: self.legal(),
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn score(&self) -> u64 {
        self.score
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn won(&self) -> bool {
        self.won
    }
}

/// The observation value of a cell: the tile value, [`EVIL_VALUE`] for an evil tile.
pub fn cell_value(cell: u8) -> u32 {
    if cell == EVIL {
        EVIL_VALUE
    } else {
        value(cell)
    }
}

/// A uniformly random permutation of the cells (Fisher–Yates), drawn from the game's generator.
pub(crate) fn shuffle_cells(cells: &mut [u8], rng: &mut Rng) {
    for i in (1..cells.len()).rev() {
        let j = rng.random_range(0..=i);
        cells.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const E: u8 = EVIL;

    fn check(line: &[u8], expected: &[u8], gained: u32) {
        let mut l = line.to_vec();
        assert_eq!(slide(&mut l), gained, "{line:?}");
        assert_eq!(l, expected, "{line:?}");
    }

    #[test]
    fn evil_tiles_slide_block_and_annihilate() {
        check(&[0, E, 0, 1], &[E, 1, 0, 0], 0);
        check(&[E, E, 0, 0], &[0, 0, 0, 0], 0);
        check(&[E, 0, E, 1], &[1, 0, 0, 0], 0);
        check(&[1, E, 1, 0], &[1, E, 1, 0], 0);
        check(&[E, E, E, 0], &[E, 0, 0, 0], 0);
        check(&[E, E, 1, 1], &[2, 0, 0, 0], 4);
        check(&[1, 1, E, E], &[2, 0, 0, 0], 4);
        check(&[E, 1, 1, E], &[E, 2, E, 0], 4);
    }

    #[test]
    fn normal_tiles_follow_the_normal_rules() {
        check(&[1, 1, 1, 1], &[2, 2, 0, 0], 8);
        check(&[0, 1, 1, 1], &[2, 1, 0, 0], 4);
    }

    #[test]
    fn evil_games_spawn_evil_tiles_at_about_their_rate_and_end() {
        let mut evil = 0;
        let mut spawned = 0;
        for seed in 0..200 {
            let mut game = EvilGame::new(4, seed).unwrap();
            let mut k = 0;
            while !game.is_over() && game.moves() < 5000 {
                let legal = game.legal();
                let step = game.step(legal[k % legal.len()]).unwrap();
                k += 1;
                if let Some((_, v)) = step.spawned {
                    spawned += 1;
                    evil += usize::from(v == EVIL_VALUE);
                }
            }
            assert!(game.is_over(), "seed {seed} did not end");
        }
        let p = evil as f64 / spawned as f64;
        let sd = (EVIL_PROBABILITY * (1.0 - EVIL_PROBABILITY) / spawned as f64).sqrt();
        assert!(
            (p - EVIL_PROBABILITY).abs() < 5.0 * sd,
            "evil share {p} over {spawned} spawns"
        );
    }

    #[test]
    fn an_illegal_move_changes_nothing() {
        let mut game = EvilGame::new(3, 1).unwrap();
        game.cells = vec![E, 0, 0, 0, 0, 0, 0, 0, 0];
        let before = game.clone();
        assert!(game.step(Direction::Left).is_err());
        assert!(game.step(Direction::Up).is_err());
        assert_eq!(game.cells, before.cells);
        assert_eq!(game.legal(), vec![Direction::Right, Direction::Down]);
    }
}

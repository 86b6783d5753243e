//! A small, independent 2048 simulation for self-play: exponents on a 4x4 board, slides written the
//! straightforward way (not with the strategy's tables), seeded tile placement by the rules
//! (`docs/2048.md`): a 2 with p = 0.9, a 4 with p = 0.1, on a uniformly random empty cell.

use botbox_sdk::{
    Rng,
    g2048::{Direction, Observation},
};

/// One game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    /// Base-2 exponents, row-major, 0 for empty; uncapped.
    pub cells: [u8; 16],
    pub score: u64,
    pub moves: u32,
    rng: Rng,
}

impl Game {
    /// A new game: two tiles on two random empty cells.
    pub fn new(seed: u64) -> Game {
        let mut game = Game {
            cells: [0; 16],
            score: 0,
            moves: 0,
            rng: Rng::new(seed),
        };
        game.spawn();
        game.spawn();
        game
    }

    /// The largest tile's value.
    pub fn max_tile(&self) -> u64 {
        self.cells
            .iter()
            .map(|&e| if e == 0 { 0 } else { 1u64 << e })
            .max()
            .unwrap_or(0)
    }

    /// What the host would send.
    pub fn observation(&self) -> Observation {
        let board = self
            .cells
            .chunks(4)
            .map(|r| {
                r.iter()
                    .map(|&e| if e == 0 { 0 } else { 1u32 << e })
                    .collect()
            })
            .collect();
        let legal = Direction::ALL
            .into_iter()
            .filter(|&d| self.slid(d).is_some())
            .collect();
        Observation {
            board,
            score: self.score,
            moves: self.moves,
            legal,
        }
    }

    /// Plays a move and spawns a tile; false (and nothing changes) if the move is illegal.
    pub fn play(&mut self, dir: Direction) -> bool {
        let Some((cells, gained)) = self.slid(dir) else {
            return false;
        };
        self.cells = cells;
        self.score += gained;
        self.moves += 1;
        self.spawn();
        true
    }

    fn spawn(&mut self) {
        let empty: Vec<usize> = (0..16).filter(|&i| self.cells[i] == 0).collect();
        let cell = empty[self.rng.below(empty.len())];
        self.cells[cell] = if self.rng.below(10) == 0 { 2 } else { 1 };
    }

    /// The cells after sliding, with the score gained, or `None` if nothing moves.
    fn slid(&self, dir: Direction) -> Option<([u8; 16], u64)> {
        let mut cells = self.cells;
        let mut gained = 0;
        for k in 0..4 {
            // The line's cells, the edge the tiles move towards first.
            let idx: [usize; 4] = std::array::from_fn(|i| match dir {
                Direction::Left => 4 * k + i,
                Direction::Right => 4 * k + 3 - i,
                Direction::Up => k + 4 * i,
                Direction::Down => k + 4 * (3 - i),
            });
            let tiles: Vec<u8> = idx.iter().map(|&i| cells[i]).filter(|&e| e != 0).collect();
            let mut out = Vec::new();
            let mut i = 0;
            while i < tiles.len() {
                if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
                    out.push(tiles[i] + 1);
                    gained += 1u64 << (tiles[i] + 1);
                    i += 2;
                } else {
                    out.push(tiles[i]);
                    i += 1;
                }
            }
            out.resize(4, 0);
            for (&cell, e) in idx.iter().zip(out) {
                cells[cell] = e;
            }
        }
        (cells != self.cells).then_some((cells, gained))
    }
}

//! Tron light cycles, as in the Google AI Challenge of February 2010 (`docs/tron.md`): two players
//! move at the same time on a grid, each leaving a wall behind it.
//!
//! The rules, each with the place the engine implements it:
//! - A grid of `width` x `height` cells, each a wall or free, 3 to 100 cells a side; outside the grid
//!   counts as wall ([`Map`], [`Map::parse`]: `#` a wall, ` ` or `.` free, `1` and `2` the starts).
//! - Both players move at the same time: each sees the whole board and answers north, east, south
//!   or west ([`Game::step`] takes both moves).
//! - A turn is resolved in this order ([`Game::step`]): both heads become walls (the trails); each
//!   head moves one cell; a player crashes if its new cell is outside the grid or a wall; if both new
//!   cells are the same cell, both crash (head-on).
//! - So reversing crashes, two players that swap cells both crash, and nobody can enter the cell the
//!   other is leaving: it became a wall first.
//! - One crash: the other wins. Both on the same turn: a draw ([`End`]). `width * height` turns end
//!   the game in a draw, a safety net two moving players never reach.
//! - A player whose strategy faults crashes on that turn ([`Game::step`] with no move); if the other
//!   crashes too, it is a draw (the contract's `fault_move`).
//!
//! The engine is pure and has no chance: a game is a function of its map and its moves. The wire
//! types are the SDK's ([`Observation`], [`Move`]); the contract the rest of botbox sees is in
//! `contract.rs` ([`RULES`]), with its bundled maps, each point-symmetric so neither side is
//! favoured.

mod contract;
mod map;
pub mod view;

#[cfg(test)]
mod tests;

pub use botbox_sdk::tron::{Action, Move, Observation};
pub use contract::{RULES, TronMatch, TronRules};
pub use map::Map;

/// A player's seat: 0 for mark 1, 1 for mark 2.
pub type Seat = usize;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The other crashed.
    Won(Seat),
    /// Both crashed on the same turn.
    BothCrashed,
    /// The turn limit (`width * height`).
    TurnLimit,
}

impl End {
    /// The reason in the game's words.
    pub fn reason(self) -> &'static str {
        match self {
            End::Won(_) => "crash",
            End::BothCrashed => "both crashed",
            End::TurnLimit => "turn limit",
        }
    }
}

/// A game in progress: the walls (the map's and the trails), both heads and the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    width: i32,
    height: i32,
    walls: Vec<bool>,
    heads: [(i32, i32); 2],
    turn: u32,
    end: Option<End>,
}

impl Game {
    /// A new game on `map`, the players on their starts.
    pub fn new(map: &Map) -> Game {
        Game {
            width: map.width() as i32,
            height: map.height() as i32,
            walls: map.walls().to_vec(),
            heads: map.starts().map(|(r, c)| (r as i32, c as i32)),
            turn: 0,
            end: None,
        }
    }

    /// Whether the cell is a wall or outside the grid.
    pub fn blocked(&self, (row, col): (i32, i32)) -> bool {
        row < 0
            || col < 0
            || row >= self.height
            || col >= self.width
            || self.walls[(row * self.width + col) as usize]
    }

    /// Resolves one turn: `moves[s]` is seat `s`'s move, `None` for a seat that faulted (it
    /// crashes). Returns which seats crashed.
    ///
    /// # Panics
    /// If the game is over.
    pub fn step(&mut self, moves: [Option<Move>; 2]) -> [bool; 2] {
        assert!(self.end.is_none(), "the game is over");
        for (row, col) in self.heads {
            self.walls[(row * self.width + col) as usize] = true;
        }
        let next: [Option<(i32, i32)>; 2] = [0, 1].map(|s| {
            moves[s].map(|m| {
                let (dr, dc) = m.delta();
                (self.heads[s].0 + dr, self.heads[s].1 + dc)
            })
        });
        let mut crashed = [0, 1].map(|s| next[s].is_none_or(|cell| self.blocked(cell)));
        if next[0].is_some() && next[0] == next[1] {
            crashed = [true, true];
        }
        for s in 0..2 {
            if let Some(cell) = next[s].filter(|_| !crashed[s]) {
                self.heads[s] = cell;
            }
        }
        self.turn += 1;
        self.end = match crashed {
            [true, true] => Some(End::BothCrashed),
            [true, false] => Some(End::Won(1)),
            [false, true] => Some(End::Won(0)),
            [false, false] if self.turn >= (self.width * self.height) as u32 => {
                Some(End::TurnLimit)
            }
            [false, false] => None,
        };
        crashed
    }

    /// The moves that do not crash into a wall or the edge this turn (a head-on meeting aside).
    pub fn safe_moves(&self, seat: Seat) -> Vec<Move> {
        let (row, col) = self.heads[seat];
        let other = self.heads[1 - seat];
        Move::ALL
            .into_iter()
            .filter(|m| {
                let (dr, dc) = m.delta();
                let cell = (row + dr, col + dc);
                !self.blocked(cell) && cell != other
            })
            .collect()
    }

    /// What `seat` sees: the whole board.
    pub fn observation(&self, seat: Seat) -> Observation {
        let cell = |(r, c): (i32, i32)| [r as u32, c as u32];
        Observation {
            rows: self.rows(),
            width: self.width as u32,
            height: self.height as u32,
            you: cell(self.heads[seat]),
            opponent: cell(self.heads[1 - seat]),
            player: seat as u32 + 1,
            turn: self.turn,
        }
    }

    /// The board as text, top row first: `#` a wall, `.` free, `1` and `2` the heads.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|r| {
                (0..self.width)
                    .map(|c| {
                        if self.heads[0] == (r, c) {
                            '1'
                        } else if self.heads[1] == (r, c) {
                            '2'
                        } else if self.walls[(r * self.width + c) as usize] {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    pub fn heads(&self) -> [(i32, i32); 2] {
        self.heads
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn end(&self) -> Option<End> {
        self.end
    }
}

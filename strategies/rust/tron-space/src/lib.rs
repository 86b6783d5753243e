//! A Tron strategy (`docs/tron.md`): for each move that does not crash, it counts the cells it
//! could still reach from there by flood fill, with the cells next to the other head counted as
//! taken (the other may move there this turn), and takes the move with the most room; between
//! equals, the one whose cell touches the most walls, so it fills its space tightly.
//!
//! The same rule as `strategies/lua/tron/space.lua`, compiled to WebAssembly.

use botbox_sdk::tron::{Move, Observation};
use botbox_sdk::{Setup, Strategy};

/// The strategy; it keeps nothing between turns.
#[derive(Debug, Default)]
pub struct Space;

/// The board as cells that are open (free and not next to the other head).
struct Grid {
    width: i32,
    height: i32,
    open: Vec<bool>,
}

impl Grid {
    fn of(obs: &Observation) -> Grid {
        let (width, height) = (obs.width as i32, obs.height as i32);
        let mut open: Vec<bool> = obs
            .rows
            .iter()
            .flat_map(|row| row.bytes().map(|b| b == b'.'))
            .collect();
        open.resize((width * height) as usize, false);
        let mut grid = Grid {
            width,
            height,
            open,
        };
        let (r, c) = (obs.opponent[0] as i32, obs.opponent[1] as i32);
        for m in Move::ALL {
            let (dr, dc) = m.delta();
            if let Some(i) = grid.index(r + dr, c + dc) {
                grid.open[i] = false;
            }
        }
        grid
    }

    fn index(&self, r: i32, c: i32) -> Option<usize> {
        (r >= 0 && c >= 0 && r < self.height && c < self.width)
            .then(|| (r * self.width + c) as usize)
    }

    fn is_open(&self, r: i32, c: i32) -> bool {
        self.index(r, c).is_some_and(|i| self.open[i])
    }

    /// The cells reachable from (r, c), that cell included.
    fn room(&self, r: i32, c: i32) -> usize {
        let Some(start) = self.index(r, c).filter(|&i| self.open[i]) else {
            return 0;
        };
        let mut seen = vec![false; self.open.len()];
        seen[start] = true;
        let mut stack = vec![(r, c)];
        let mut count = 0;
        while let Some((r, c)) = stack.pop() {
            count += 1;
            for m in Move::ALL {
                let (dr, dc) = m.delta();
                if let Some(i) = self
                    .index(r + dr, c + dc)
                    .filter(|&i| self.open[i] && !seen[i])
                {
                    seen[i] = true;
                    stack.push((r + dr, c + dc));
                }
            }
        }
        count
    }

    fn walls_around(&self, r: i32, c: i32) -> usize {
        Move::ALL
            .iter()
            .filter(|m| {
                let (dr, dc) = m.delta();
                !self.is_open(r + dr, c + dc)
            })
            .count()
    }
}

/// The best move on `obs`: the most room, then the most walls around.
pub fn best_move(obs: &Observation) -> Move {
    let grid = Grid::of(obs);
    let (r, c) = (obs.you[0] as i32, obs.you[1] as i32);
    let free = |r: i32, c: i32| {
        grid.index(r, c).is_some() && obs.rows[r as usize].as_bytes().get(c as usize) == Some(&b'.')
    };
    Move::ALL
        .into_iter()
        .filter(|m| {
            let (dr, dc) = m.delta();
            free(r + dr, c + dc)
        })
        .max_by_key(|m| {
            let (dr, dc) = m.delta();
            let (nr, nc) = (r + dr, c + dc);
            // Earlier directions win ties: max_by_key keeps the last maximum, so rank them.
            let order = 4 - Move::ALL.iter().position(|x| x == m).unwrap_or(0);
            (grid.room(nr, nc), grid.walls_around(nr, nc), order)
        })
        .unwrap_or(Move::North)
}

impl Strategy for Space {
    type Observation = Observation;
    type Action = Move;

    fn new(_setup: &Setup) -> Self {
        Space
    }

    fn choose_move(&mut self, obs: Observation) -> Move {
        best_move(&obs)
    }
}

botbox_sdk::export_strategy!(Space);

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(rows: &[&str], you: [u32; 2], opponent: [u32; 2]) -> Observation {
        Observation {
            rows: rows.iter().map(|r| r.to_string()).collect(),
            width: rows[0].len() as u32,
            height: rows.len() as u32,
            you,
            opponent,
            player: 1,
            turn: 0,
        }
    }

    #[test]
    fn it_takes_the_side_with_more_room() {
        // North leads into a pocket of one cell; east into the open.
        let o = obs(&["#.#....", "#1.....", "###...2"], [1, 1], [2, 6]);
        assert_eq!(best_move(&o), Move::East);
    }

    #[test]
    fn it_never_steps_into_a_wall_when_it_can_help_it() {
        let o = obs(&["###", "#1.", "#.2"], [1, 1], [2, 2]);
        let m = best_move(&o);
        assert!(matches!(m, Move::East | Move::South), "{m:?}");
    }
}

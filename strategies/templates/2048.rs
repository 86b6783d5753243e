//! A 2048 bot for botbox. Check it: `botbox check 2048 .` (botbox builds the crate).

use botbox_sdk::g2048::{Direction, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

/// How many merges a move would make: equal tiles meeting along its lines, empty cells between them
/// or not (rows for left and right, columns for up and down).
fn merges(board: &[Vec<u32>], dir: Direction) -> usize {
    let n = board.len();
    let mut count = 0;
    for i in 0..n {
        let mut last = 0;
        for j in 0..n {
            let v = match dir {
                Direction::Up | Direction::Down => board[j][i],
                Direction::Left | Direction::Right => board[i][j],
            };
            if v != 0 {
                if v == last {
                    count += 1;
                    last = 0;
                } else {
                    last = v;
                }
            }
        }
    }
    count
}

impl Strategy for Bot {
    type Observation = Observation;
    type Action = Direction;

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> Direction {
        // Keep the big tiles in the bottom-left corner: down or left, whichever merges more (down
        // on a tie); right if neither is legal; up only when nothing else is.
        let legal = |d| obs.legal.contains(&d);
        if legal(Direction::Down) && legal(Direction::Left) {
            if merges(&obs.board, Direction::Left) > merges(&obs.board, Direction::Down) {
                return Direction::Left;
            }
            return Direction::Down;
        }
        [Direction::Down, Direction::Left, Direction::Right]
            .into_iter()
            .find(|&d| legal(d))
            .unwrap_or(Direction::Up)
    }
}

botbox_sdk::export_strategy!(Bot);

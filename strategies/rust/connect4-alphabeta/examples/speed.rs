//! Times the search natively: `cargo run --release -p connect4-alphabeta --example speed [NODES]`.
//! Prints the nodes per second and the time per decision on a few positions of the standard board.

use std::time::Instant;

use botbox_sdk::connect4::Observation;
use connect4_alphabeta::{AlphaBeta, DEFAULT_NODES};

/// The observation of a standard board after `moves` (columns, one digit each).
fn observe(moves: &str) -> Observation {
    let (columns, rows) = (7u32, 6u32);
    let mut board = vec![0u8; 42];
    let mut heights = [0u32; 7];
    for (i, b) in moves.bytes().enumerate() {
        let col = u32::from(b - b'0');
        let row = rows - 1 - heights[col as usize];
        heights[col as usize] += 1;
        board[(row * columns + col) as usize] = (i % 2) as u8 + 1;
    }
    Observation {
        board,
        rows,
        columns,
        inarow: 4,
        mark: (moves.len() % 2) as u8 + 1,
        legal: (0..columns)
            .filter(|&c| heights[c as usize] < rows)
            .collect(),
        moves: moves.len() as u32,
    }
}

fn main() {
    let nodes = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_NODES);
    for moves in ["", "33", "3344", "2355323351", "23553233513342"] {
        let obs = observe(moves);
        let start = Instant::now();
        let mut bot = AlphaBeta::with_budget(nodes, 64);
        let answer = botbox_sdk::Strategy::choose_move(&mut bot, obs);
        let time = start.elapsed();
        let stats = bot.stats();
        println!(
            "after {moves:>14}: column {} in {time:>10.2?}, {:>7} nodes ({:.1} M/s), depth {:>2}, value {}",
            answer.column,
            stats.nodes,
            stats.nodes as f64 / time.as_secs_f64() / 1e6,
            stats.depth,
            stats.value
        );
    }
}

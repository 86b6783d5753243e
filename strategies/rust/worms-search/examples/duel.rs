//! The search, natively, against a Lua strategy run by the host's runtime (greedy by default), on
//! the six example maps with the sides swapped: wins, draws and losses, the score with its 95%
//! interval, and the time, nodes and depth of a move. A quick way to tune the search;
//! `tests/suite/worms_bots.rs` measures the WASM build the same way.
//!
//! ```sh
//! cargo run --release -p worms-search --example duel -- [GAMES] [NODES] [OPPONENT.lua]
//! SEAT=1 MAPS=arena,big cargo run --release -p worms-search --example duel -- 72
//! ```
//! Game `i` is played on map `(i / 2) % 6` with the search in seat `i % 2`, seeded
//! `derive_seed(2026, i)`. `SEAT` keeps only the games in which the search has that seat (0 moves
//! first), `MAPS` only the games on the maps named.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use botbox::games::worms::{Game, Map, Move, Observation, Verdict};
use botbox::games::{derive_seed, seat_seed};
use botbox::runtime::{Limits, Setup, Strategy};
use botbox::tournament::run_indexed;
use worms_search::{DEFAULT_NODES, MAX_DEPTH, WormsSearch};

const MAPS: [&str; 6] = ["tutorial", "arena", "maze", "gates", "pinwheel", "big"];

/// The results so far.
#[derive(Debug, Default)]
struct Tally {
    /// Wins, draws and losses of the search, per map.
    by_map: [[usize; 3]; 6],
    moves: u32,
    thinking: Duration,
    nodes: u64,
    depth: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args
        .get(1)
        .map_or(60, |a| a.parse().expect("GAMES is a number"));
    let nodes = args
        .get(2)
        .map_or(DEFAULT_NODES, |a| a.parse().expect("NODES is a number"));
    let root = format!("{}/../../..", env!("CARGO_MANIFEST_DIR"));
    let opponent = args
        .get(3)
        .cloned()
        .unwrap_or(format!("{root}/strategies/lua/worms/greedy.lua"));
    let opponent =
        botbox::hosted::load(opponent.as_ref(), &Limits::default()).expect("the opponent");
    let maps: Vec<Map> = MAPS
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(format!("{root}/examples/worms/{name}.txt"));
            Map::parse(&text.expect("the map is readable")).expect("the map is valid")
        })
        .collect();
    let seat = std::env::var("SEAT").ok();
    let only = std::env::var("MAPS").ok();
    let wanted = |i: usize| {
        let name = MAPS[(i / 2) % MAPS.len()];
        seat.as_ref().is_none_or(|s| *s == (i % 2).to_string())
            && only
                .as_ref()
                .is_none_or(|m| m.split(',').any(|m| m == name))
    };

    let tally = Mutex::new(Tally::default());
    let play_game = |i: usize| {
        if wanted(i) {
            play(&maps, i, nodes, &opponent, &tally);
        }
    };
    run_indexed(games, 2, play_game, |_| {});
    report(&tally.into_inner().unwrap(), nodes, opponent.name());
}

/// Plays game `i` and adds it to the tally.
fn play(maps: &[Map], i: usize, nodes: u64, opponent: &Strategy, tally: &Mutex<Tally>) {
    let (map, me) = ((i / 2) % MAPS.len(), i % 2);
    let seed = derive_seed(2026, i as u64);
    let other_seat = 1 - me as u32;
    let setup = Setup::new("worms", seat_seed(seed, other_seat), other_seat);
    let mut other = opponent.instantiate(&setup).expect("the opponent's set-up");
    let mut search = WormsSearch::with_budget(nodes, MAX_DEPTH);
    let mut game = Game::new(&maps[map]);
    let (mut moves, mut thinking, mut node_sum, mut depth_sum) = (0, Duration::ZERO, 0, 0);
    while !game.is_over() {
        let seat = game.to_move();
        let obs = game.observation(seat);
        if obs.legal.is_empty() {
            game.pass().expect("a player without moves passes");
            continue;
        }
        let answer = if seat == me {
            let start = Instant::now();
            let answer = botbox_sdk::Strategy::choose_move(&mut search, obs.clone());
            thinking += start.elapsed();
            moves += 1;
            node_sum += search.stats().nodes;
            depth_sum += u64::from(search.stats().depth);
            answer
        } else {
            other
                .call::<Observation, Move>("choose_move", &obs)
                .expect("the opponent answers")
        };
        game.apply(answer).expect("every answer is legal");
    }
    let outcome = game.outcome().expect("the game is over");
    let result = match outcome.result {
        Verdict::Win(seat) if seat == me => 0,
        Verdict::Draw => 1,
        Verdict::Win(_) => 2,
    };
    eprintln!(
        "game {i} on {} in seat {me}: {} after {} turns ({})",
        MAPS[map],
        ["won", "drawn", "lost"][result],
        game.turn(),
        outcome.reason.name()
    );
    let mut t = tally.lock().unwrap();
    t.by_map[map][result] += 1;
    t.moves += moves;
    t.thinking += thinking;
    t.nodes += node_sum;
    t.depth += depth_sum;
}

fn report(t: &Tally, nodes: u64, opponent: &str) {
    let total = |k: usize| t.by_map.iter().map(|m| m[k]).sum::<usize>();
    let (w, d, l) = (total(0), total(1), total(2));
    let n = (w + d + l).max(1) as f64;
    let score = (w as f64 + d as f64 / 2.0) / n;
    let variance = [(1.0, w), (0.5, d), (0.0, l)]
        .iter()
        .map(|&(points, count)| count as f64 * (points - score) * (points - score))
        .sum::<f64>()
        / n;
    let margin = 1.96 * (variance / n).sqrt();
    println!(
        "search ({nodes} nodes) against {opponent}: {w}W {d}D {l}L, score {:.1}% ± {:.1}%",
        100.0 * score,
        100.0 * margin
    );
    for (name, [w, d, l]) in MAPS.iter().zip(t.by_map) {
        println!("  {name:<9} {w}W {d}D {l}L");
    }
    let moves = t.moves.max(1);
    println!(
        "{} moves: {:?}, {} nodes and depth {:.1} per move on average",
        t.moves,
        t.thinking / moves,
        t.nodes / u64::from(moves),
        t.depth as f64 / f64::from(moves)
    );
}

//! How strong a Wormworld strategy is against another: the WASM build of
//! `strategies/rust/worms-search` (default budget, default limits) against
//! `strategies/lua/worms/greedy.lua` unless told otherwise.
//!
//! ```sh
//! cargo run --release --example worms_strength -- [GAMES] [BOT] [OPPONENT]
//! cargo run --release --example worms_strength                       # search against greedy, 200 games
//! cargo run --release --example worms_strength -- 60 random greedy   # random against greedy
//! ```
//!
//! `BOT` and `OPPONENT` are `search` (the WASM module, built into `target/guests` first), the name of
//! a bot in `strategies/lua/worms/` or the path of any strategy. Game `i` is played on example map
//! `(i / 2) % 6`, `BOT` in seat `i % 2`, seeded `derive_seed(2026, i)`, on two threads. It prints
//! `BOT`'s wins, draws and losses, its score with a 95% interval (the normal approximation, as chess
//! engine testers report it, and the Wilson interval of the wins with each draw counted as half a
//! win), the results per map and per seat, how the games ended, and `BOT`'s time per move. The
//! acceptance measurement of the search: over 200 games against greedy, the lower end of its
//! interval must be above 50%.
//!
//! The command line measures strength too, with Elo, replays and a JSON report:
//! `botbox match worms strategies/rust/worms-search strategies/lua/worms/greedy.lua --map examples/worms/ --games 200 --jobs 2`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use botbox::games::contract::Variant;
use botbox::games::derive_seed;
use botbox::games::worms::Map;
use botbox::play::Ending;
use botbox::play::generic::{self, Player};
use botbox::runtime::{Limits, Strategy};
use botbox::tournament::run_indexed;

/// The example maps, in the order the measurement rotates through them.
const MAPS: [&str; 6] = ["tutorial", "arena", "maze", "gates", "pinwheel", "big"];

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ has a parent")
        .to_path_buf()
}

fn map(name: &str) -> Map {
    let path = repo().join(format!("examples/worms/{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Map::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `search`, a Lua bot's name, or a path.
fn load(name: &str, limits: &Limits) -> Strategy {
    let path = match name {
        "search" => {
            let target = repo().join("target/guests");
            botbox::runtime::build_wasm_packages(&repo(), &["worms-search"], &target)
                .unwrap_or_else(|e| panic!("building worms-search: {e}"))
                .join("worms_search.wasm")
        }
        _ if Path::new(name).exists() => PathBuf::from(name),
        _ => repo().join(format!("strategies/lua/worms/{name}.lua")),
    };
    botbox::hosted::load(&path, limits).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How one game went for `BOT`: its map, its seat, the ending, and its moves and thinking time
/// (the driver's time of each decision: the strategy's code and the crossing).
struct Record {
    map: usize,
    seat: usize,
    ending: Ending,
    moves: u32,
    timed: u32,
    thinking: Duration,
}

/// 0 for a win of `seat`, 1 for a draw, 2 for a loss.
fn outcome_index(winner: Option<usize>, seat: usize) -> usize {
    match winner {
        Some(winner) if winner == seat => 0,
        None => 1,
        Some(_) => 2,
    }
}

/// `BOT`'s score (a win 1, a draw 1/2), the margin of its 95% interval in the normal approximation,
/// and the Wilson interval of the wins with each draw counted as half a win.
fn score_interval([wins, draws, losses]: [usize; 3]) -> (f64, f64, (f64, f64)) {
    let n = (wins + draws + losses) as f64;
    let score = (wins as f64 + draws as f64 / 2.0) / n;
    let variance = [(1.0, wins), (0.5, draws), (0.0, losses)]
        .iter()
        .map(|&(points, count)| count as f64 * (points - score) * (points - score))
        .sum::<f64>()
        / n;
    let margin = 1.96 * (variance / n).sqrt();
    let half_wins = (wins as f64 + draws as f64 / 2.0).round() as usize;
    let wilson = botbox::tournament::stats::wilson95(half_wins, n as usize);
    (score, margin, wilson)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args
        .next()
        .map(|n| n.parse().expect("GAMES is a number"))
        .unwrap_or(200);
    let bot_name = args.next().unwrap_or_else(|| "search".into());
    let opponent_name = args.next().unwrap_or_else(|| "greedy".into());

    let limits = Limits::default();
    let (bot, opponent) = (load(&bot_name, &limits), load(&opponent_name, &limits));
    let maps: Vec<Map> = MAPS.iter().map(|name| map(name)).collect();
    let rules = botbox::games::registry::find("worms").expect("Wormworld is registered");
    let play = |i: usize| {
        let (m, seat) = ((i / 2) % MAPS.len(), i % 2);
        let players = if seat == 0 {
            [&bot, &opponent]
        } else {
            [&opponent, &bot]
        };
        // Recorded, so that each seat's decisions are timed (strategy code and crossing).
        let variant = Variant {
            name: MAPS[m].into(),
            text: Some(maps[m].to_string()),
        };
        let played = generic::play(
            rules,
            &variant,
            &players.map(Player::Bot),
            &[],
            derive_seed(2026, i as u64),
            None,
            true,
            None,
        )
        .expect("the bundled maps");
        let ending = Ending::new(
            played.outcome.winner(),
            played.outcome.reason.clone(),
            played.turns,
            played.faults.clone(),
        );
        let (moves, thinking) = (played.decisions[seat], played.time[seat]);
        let timed = moves;
        Record {
            map: m,
            seat,
            ending,
            moves,
            timed,
            thinking,
        }
    };
    let records = run_indexed(games, 2, play, |_| {});
    report(bot.name(), opponent.name(), &records);
}

fn report(bot: &str, opponent: &str, records: &[Record]) {
    let mut total = [0; 3];
    let mut by_map = [[0; 3]; MAPS.len()];
    let mut by_seat = [[0; 3]; 2];
    let mut by_reason = BTreeMap::new();
    let (mut moves, mut timed, mut thinking, mut slowest) = (0, 0, Duration::ZERO, Duration::ZERO);
    for record in records {
        let k = outcome_index(record.ending.winner, record.seat);
        total[k] += 1;
        by_map[record.map][k] += 1;
        by_seat[record.seat][k] += 1;
        *by_reason.entry(record.ending.reason.as_str()).or_insert(0) += 1;
        for (seat, fault) in record.ending.faults.iter().enumerate() {
            if let Some(fault) = fault {
                let who = if seat == record.seat { bot } else { opponent };
                println!("  fault of {who} on {}: {fault}", MAPS[record.map]);
            }
        }
        moves += record.moves;
        timed += record.timed;
        thinking += record.thinking;
        slowest = slowest.max(record.thinking / record.timed.max(1));
    }
    let (score, margin, (low, high)) = score_interval(total);
    let [w, d, l] = total;
    println!(
        "{bot} against {opponent}, {} games: {w}W {d}D {l}L",
        records.len()
    );
    println!(
        "score {:.1}% ± {:.1}% (95%: [{:.1}%, {:.1}%]; Wilson [{:.1}%, {:.1}%])",
        100.0 * score,
        100.0 * margin,
        100.0 * (score - margin).max(0.0),
        100.0 * (score + margin).min(1.0),
        100.0 * low,
        100.0 * high
    );
    for (name, [w, d, l]) in MAPS.iter().zip(by_map) {
        println!("  {name:<9} {w:>3}W {d:>3}D {l:>3}L");
    }
    for (seat, [w, d, l]) in by_seat.iter().enumerate() {
        println!("  as player {}: {w}W {d}D {l}L", seat + 1);
    }
    println!("  endings: {by_reason:?}");
    println!(
        "{bot}: {moves} moves, {:?} per move on average; the slowest game averaged {slowest:?}",
        thinking / timed.max(1)
    );
}

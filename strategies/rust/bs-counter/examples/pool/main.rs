//! The counter, natively, in the reference pool, on the host's BS engine: a fast way to tune it.
//! The reference bots run as their Rust ports (`reference.rs`), about thirty times faster than the
//! Lua files through the runtime; `--lua` runs the Lua files instead, and since the ports decide
//! exactly as the files do (Player2 too: both call on `java.util.Random` seeded with 20 in every
//! game), a pool gives the same standings either way.
//!
//! ```sh
//! cargo run --release -p bs-counter --example pool -- [--lua] [--calibration] GAMES BOT...
//! ```
//! A BOT is a reference bot's name (`player1`, `player2`, `player3`, `player4`, `hoarder`,
//! `calculating_liar`, `player_conman`), a Lua file (`path/to/bot.lua`), or `counter` (its parameters as a JSON object in the
//! environment variable PARAMS, e.g. `PARAMS='{"one_card":0.8}'`). Each game seats four distinct
//! bots of the pool in a random order; FOCUS=i seats the i-th BOT in every game (the others stay
//! random), which halves the games needed to measure it. SEED sets the run's seed.
//! `--calibration` prints how often the plays the counter gave a chance of a lie were lies.

mod reference;

use std::sync::Mutex;
use std::time::Instant;

use botbox::games::bs::{CallObservation, Game, PLAYERS, PlayObservation};
use botbox::games::{derive_seed, seat_seed};
use botbox::runtime::{Instance, Limits, Setup, Strategy};
use botbox::tournament::run_indexed;
use botbox_sdk::{BsStrategy, Params, Rng};
use bs_counter::Counter;

/// A pool entry.
enum Entry {
    Port(String),
    Lua(Strategy),
    Counter(Params),
}

/// A bot at the table.
enum Player {
    Port(Box<dyn reference::Bot>),
    Lua(Box<Instance>),
    Counter(Box<Counter>),
}

impl Player {
    fn play(&mut self, obs: &PlayObservation) -> Vec<u32> {
        match self {
            Player::Port(b) => b.play(obs),
            Player::Lua(i) => i.call("play", obs).expect("a play"),
            Player::Counter(c) => c.play(obs.clone()),
        }
    }

    /// Whether to call; `lie` (the truth, which the bot does not see) feeds the calibration.
    fn call(&mut self, obs: &CallObservation, lie: bool, calibration: &Calibration) -> bool {
        match self {
            Player::Port(b) => b.call(obs),
            Player::Lua(i) => i.call("call", obs).expect("an answer"),
            Player::Counter(c) => {
                let answer = c.call(obs.clone());
                if let Some(q) = c.last_estimate {
                    calibration.add(q, lie, obs.hand.len() == 1);
                }
                answer
            }
        }
    }

    fn observe(&mut self, event: &botbox_sdk::bs::Event) {
        if let Player::Counter(c) = self {
            c.observe(event.clone());
        }
    }
}

/// Per tenth of the counter's estimate, and whether it held one card: estimates and actual lies.
#[derive(Default)]
struct Calibration(Mutex<[[(u64, u64); 10]; 2]>);

impl Calibration {
    fn add(&self, q: f64, lie: bool, one: bool) {
        let mut c = self.0.lock().unwrap();
        let cell = &mut c[usize::from(one)][((q * 10.0) as usize).min(9)];
        cell.0 += 1;
        cell.1 += u64::from(lie);
    }

    fn print(&self) {
        let c = self.0.lock().unwrap();
        for (one, rows) in c.iter().enumerate() {
            println!("calibration, the counter holding one card: {}", one == 1);
            for (b, &(n, lies)) in rows.iter().enumerate().filter(|(_, r)| r.0 > 0) {
                let share = lies as f64 / n as f64;
                println!(
                    "  estimate {:.1}-{:.1}: {n:>8} plays, {share:.3} lies",
                    b as f64 / 10.0,
                    (b + 1) as f64 / 10.0
                );
            }
        }
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    games: u64,
    wins: u64,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut flag = |name: &str| {
        let present = args.iter().any(|a| a == name);
        args.retain(|a| a != name);
        present
    };
    let (lua, calibrate) = (flag("--lua"), flag("--calibration"));
    let games: usize = args[0].parse().expect("GAMES");
    let names: Vec<String> = args[1..].to_vec();
    let root = format!("{}/../../..", env!("CARGO_MANIFEST_DIR"));
    let pool: Vec<Entry> = names
        .iter()
        .map(|name| match name.as_str() {
            "counter" => Entry::Counter(std::env::var("PARAMS").map_or_else(
                |_| Params::new(),
                |p| serde_json::from_str(&p).expect("PARAMS"),
            )),
            _ if lua || name.ends_with(".lua") => {
                let path = match name.strip_suffix(".lua") {
                    Some(_) => name.clone(),
                    None => format!("{root}/strategies/lua/bs/{name}.lua"),
                };
                Entry::Lua(botbox::hosted::load(path.as_ref(), &Limits::default()).expect(&path))
            }
            _ => {
                assert!(
                    reference::by_name(name, 0).is_some(),
                    "no reference bot {name}"
                );
                Entry::Port(name.clone())
            }
        })
        .collect();
    let seed: u64 = std::env::var("SEED").map_or(1, |s| s.parse().expect("SEED"));
    let focus: Option<usize> = std::env::var("FOCUS")
        .ok()
        .map(|s| s.parse().expect("FOCUS"));
    let calibration = Calibration::default();
    let start = Instant::now();
    let play_game = |i: usize| {
        let seed = derive_seed(seed, i as u64);
        play(&pool, &names, seed, focus, &calibration)
    };
    let results = run_indexed(games, 2, play_game, |_| {});
    let elapsed = start.elapsed().as_secs_f64();
    let mut t = vec![Tally::default(); pool.len()];
    for (seated, winner) in results {
        for &p in &seated {
            t[p].games += 1;
        }
        if let Some(w) = winner {
            t[seated[w]].wins += 1;
        }
    }
    let rate = |x: &Tally| x.wins as f64 / x.games.max(1) as f64;
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.sort_by(|&a, &b| rate(&t[b]).total_cmp(&rate(&t[a])));
    for i in order {
        let (p, n) = (rate(&t[i]), t[i].games.max(1) as f64);
        let margin = 1.96 * (p * (1.0 - p) / n).sqrt();
        println!(
            "{:<18} {:>7} games {:>5.1}% ± {:.1}%",
            names[i],
            t[i].games,
            100.0 * p,
            100.0 * margin
        );
    }
    if calibrate {
        calibration.print();
    }
    println!(
        "{games} games in {elapsed:.1} s ({:.0} games/s)",
        games as f64 / elapsed
    );
}

/// One game: the pool entries by seat and the winning seat.
fn play(
    pool: &[Entry],
    names: &[String],
    seed: u64,
    focus: Option<usize>,
    calibration: &Calibration,
) -> ([usize; PLAYERS], Option<usize>) {
    let mut rng = Rng::new(derive_seed(seed, 1));
    let mut ids: Vec<usize> = (0..pool.len()).collect();
    for i in (1..ids.len()).rev() {
        ids.swap(i, rng.below(i + 1));
    }
    if let Some(f) = focus
        && !ids[..PLAYERS].contains(&f)
    {
        ids[rng.below(PLAYERS)] = f;
    }
    let seated: [usize; PLAYERS] = std::array::from_fn(|s| ids[s]);
    let players: Vec<String> = seated.iter().map(|&p| names[p].clone()).collect();
    let mut bots: Vec<Player> = (0..PLAYERS)
        .map(|s| {
            let mut setup = Setup::new("bs", seat_seed(seed, s as u32), s as u32);
            match &pool[seated[s]] {
                Entry::Port(name) => Player::Port(reference::by_name(name, setup.seed).unwrap()),
                Entry::Lua(strategy) => {
                    Player::Lua(Box::new(strategy.instantiate(&setup).expect("a set-up")))
                }
                Entry::Counter(params) => {
                    setup.params = params.clone();
                    Player::Counter(Box::new(Counter::new(&setup)))
                }
            }
        })
        .collect();
    let mut game = Game::new(seed);
    while !game.is_over() {
        let mover = game.to_move();
        let cards = bots[mover].play(&game.play_observation(&players));
        let info = game
            .play(&cards)
            .unwrap_or_else(|e| panic!("{}: {e:?}", players[mover]));
        let lie = cards.iter().any(|&c| c / 4 != info.rank);
        for bot in &mut bots {
            bot.observe(&info.event());
        }
        let mut calls = [false; PLAYERS];
        for (seat, call) in calls.iter_mut().enumerate() {
            if let Some(obs) = game.call_observation(seat, &players) {
                *call = bots[seat].call(&obs, lie, calibration);
            }
        }
        let resolution = game.resolve(calls).expect("a play to resolve");
        for event in std::iter::once(resolution.event()).chain(resolution.round_end()) {
            for bot in &mut bots {
                bot.observe(&event);
            }
        }
    }
    (seated, game.winner())
}

//! The counter against the reference pool, natively on the host's engine: the Rust ports of the
//! reference bots decide as the Lua files do, and the counter wins clearly more often than the
//! contest's winner.

#[path = "../examples/pool/reference.rs"]
mod reference;

use botbox::games::bs::{Game, PLAYERS};
use botbox::games::{derive_seed, seat_seed};
use botbox::runtime::{Limits, Setup, Strategy};
use botbox_sdk::{BsStrategy, Rng};
use bs_counter::Counter;

/// Four distinct indices below `n`, in a random order drawn from `seed`.
fn seating(n: usize, seed: u64) -> [usize; PLAYERS] {
    let mut rng = Rng::new(seed);
    let mut ids: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        ids.swap(i, rng.below(i + 1));
    }
    std::array::from_fn(|s| ids[s])
}

/// Every reference bot, as a Lua file and as its port, asked the same questions at the same tables:
/// their answers agree, decision for decision (Player2's calls too: both draw from
/// `java.util.Random` seeded with 20 in every game).
#[test]
fn the_rust_ports_decide_as_the_lua_files() {
    let names = [
        "player1",
        "player2",
        "player3",
        "player4",
        "hoarder",
        "calculating_liar",
        "player_conman",
    ];
    let root = format!("{}/../../..", env!("CARGO_MANIFEST_DIR"));
    let files: Vec<Strategy> = names
        .iter()
        .map(|n| {
            let path = format!("{root}/strategies/lua/bs/{n}.lua");
            botbox::hosted::load(path.as_ref(), &Limits::default()).expect("a reference bot")
        })
        .collect();
    let mut decisions = 0;
    for g in 0..60 {
        let seed = derive_seed(11, g);
        let seated = seating(names.len(), seed);
        let players: Vec<String> = seated.iter().map(|&i| names[i].to_string()).collect();
        let mut lua: Vec<_> = (0..PLAYERS)
            .map(|s| {
                files[seated[s]]
                    .instantiate(&Setup::new("bs", seat_seed(seed, s as u32), s as u32))
                    .unwrap()
            })
            .collect();
        let mut ports: Vec<_> = (0..PLAYERS)
            .map(|s| reference::by_name(names[seated[s]], 0).unwrap())
            .collect();
        let mut game = Game::new(seed);
        while !game.is_over() {
            let obs = game.play_observation(&players);
            let mover = obs.you as usize;
            let cards: Vec<u32> = lua[mover].call("play", &obs).unwrap();
            assert_eq!(
                cards,
                ports[mover].play(&obs),
                "{} playing {obs:?}",
                players[mover]
            );
            game.play(&cards).unwrap();
            let mut calls = [false; PLAYERS];
            for (seat, call) in calls.iter_mut().enumerate() {
                if let Some(obs) = game.call_observation(seat, &players) {
                    *call = lua[seat].call("call", &obs).unwrap();
                    assert_eq!(
                        *call,
                        ports[seat].call(&obs),
                        "{} calling {obs:?}",
                        players[seat]
                    );
                }
            }
            game.resolve(calls).unwrap();
            decisions += 4;
        }
    }
    assert!(decisions > 5000, "{decisions}");
}

/// 3000 seeded games of the reference pool plus the counter. Measured: the counter wins about 71%
/// of its games, PlayerConMan about 45%; each plays about 1500 games here, so the standard error of
/// the difference is under 2 points and a margin of 10 points leaves room for any seed.
#[test]
fn the_counter_wins_clearly_more_often_than_player_conman() {
    let names = [
        "player1",
        "player2",
        "player3",
        "player4",
        "hoarder",
        "calculating_liar",
        "player_conman",
        "counter",
    ];
    let mut games = [0u32; 8];
    let mut wins = [0u32; 8];
    for g in 0..3000 {
        let seed = derive_seed(5, g);
        let seated = seating(names.len(), seed);
        let players: Vec<String> = seated.iter().map(|&i| names[i].to_string()).collect();
        let mut counter = None;
        let mut ports: Vec<_> = (0..PLAYERS)
            .map(|s| {
                let setup = Setup::new("bs", seat_seed(seed, s as u32), s as u32);
                if names[seated[s]] == "counter" {
                    counter = Some((s, Counter::new(&setup)));
                }
                reference::by_name(names[seated[s]], setup.seed)
            })
            .collect();
        let mut game = Game::new(seed);
        while !game.is_over() {
            let obs = game.play_observation(&players);
            let mover = obs.you as usize;
            let cards = match (&mut counter, &mut ports[mover]) {
                (Some((s, c)), _) if *s == mover => c.play(obs),
                (_, Some(bot)) => bot.play(&obs),
                _ => unreachable!(),
            };
            let info = game.play(&cards).unwrap();
            if let Some((_, c)) = &mut counter {
                c.observe(info.event());
            }
            let mut calls = [false; PLAYERS];
            for (seat, call) in calls.iter_mut().enumerate() {
                if let Some(obs) = game.call_observation(seat, &players) {
                    *call = match (&mut counter, &mut ports[seat]) {
                        (Some((s, c)), _) if *s == seat => c.call(obs),
                        (_, Some(bot)) => bot.call(&obs),
                        _ => unreachable!(),
                    };
                }
            }
            let resolution = game.resolve(calls).unwrap();
            if let Some((_, c)) = &mut counter {
                for event in std::iter::once(resolution.event()).chain(resolution.round_end()) {
                    c.observe(event);
                }
            }
        }
        for &i in &seated {
            games[i] += 1;
        }
        let winner = game
            .winner()
            .expect("every game of this pool ends with a winner");
        wins[seated[winner]] += 1;
    }
    let rate = |i: usize| f64::from(wins[i]) / f64::from(games[i]);
    let (counter, conman) = (rate(7), rate(6));
    assert!(
        counter > conman + 0.10,
        "counter {counter:.3}, player_conman {conman:.3}"
    );
}

//! A league left running for strangers: it plays at its pace (`--games-per-hour`), never stores the
//! same game twice (league games of deterministic games open with random moves, and a repeat is not
//! stored), and keeps its replays under their cap (`--max-replay-mib`) while each bot keeps its
//! newest; `league status` says what it stores.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::league::League;
use crate::util::{at, scratch};

/// Ten bundled bots, each of its own owner: five on the Connect Four ladder (three copies of the
/// deterministic `center.lua`), five on Wormworld's.
fn ten_bots() -> Vec<(&'static str, &'static str, PathBuf)> {
    let lua = |p: &str| at(&format!("strategies/lua/{p}"));
    vec![
        ("center-a", "connect4", lua("connect4/center.lua")),
        ("center-b", "connect4", lua("connect4/center.lua")),
        ("center-c", "connect4", lua("connect4/center.lua")),
        ("random-a", "connect4", lua("connect4/random.lua")),
        ("random-b", "connect4", lua("connect4/random.lua")),
        ("greedy-a", "worms", lua("worms/greedy.lua")),
        ("greedy-b", "worms", lua("worms/greedy.lua")),
        ("greedy-c", "worms", lua("worms/greedy.lua")),
        ("worm-a", "worms", lua("worms/random.lua")),
        ("worm-b", "worms", lua("worms/random.lua")),
    ]
}

fn upload_all(league: &League, bots: &[(&str, &str, PathBuf)]) {
    for (i, (name, game, file)) in bots.iter().enumerate() {
        let token = league.user(&format!("owner{i}"));
        league.upload_ok(&token, name, game, file);
    }
}

/// Games recorded per ladder.
fn per_ladder(league: &League) -> HashMap<String, i64> {
    let (status, ladders) = league.get("/ladders", None);
    assert_eq!(status, 200, "{ladders}");
    ladders
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["game"].as_str().unwrap().to_string(),
                l["games"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Every stored game's (game, variant, players, moves' hash) from the SQLite file.
fn stored_games(db: &str) -> Vec<(String, String, String, Option<String>)> {
    use sqlx::Row;
    let (rows, _) = crate::util::sqlite(db, "SELECT game, variant, record FROM results");
    rows.iter()
        .map(|r| {
            let record: Value = serde_json::from_str(r.get::<&str, _>(2)).unwrap();
            (
                r.get::<String, _>(0),
                r.get::<String, _>(1),
                record["players"].to_string(),
                record["moves_sha256"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn a_paced_league_plays_its_games_per_hour_and_never_stores_a_game_twice() {
    let dir = scratch("league-pace");
    let db = dir.join("league.db");
    let db = db.to_str().unwrap();
    // 7,200 games an hour per ladder: 2 a second, 60 in the 30 s measured.
    let league = League::start(&dir, db, 2, &["--games-per-hour", "7200"]);
    upload_all(&league, &ten_bots());
    std::thread::sleep(Duration::from_secs(3));
    let before = per_ladder(&league);
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs(30));
    let after = per_ladder(&league);
    let seconds = start.elapsed().as_secs_f64();
    for game in ["connect4", "worms"] {
        let played = after[game] - before[game];
        let expected = 2.0 * seconds;
        assert!(
            (played as f64 - expected).abs() <= expected * 0.1,
            "{game}: {played} games in {seconds:.1} s at 7,200 an hour (expected {expected:.0} ± 10%)"
        );
    }
    // No ladder without bots played, and the pace is in the status.
    assert_eq!(after["dice"], 0);
    let status = league.status();
    assert_eq!(status["games_per_hour"], 7200, "{status}");
    league.stop();

    // No two stored games are the same game, and the deterministic pairings still vary: three
    // copies of one deterministic bot meet in more games than their seat orders and one map.
    let games = stored_games(db);
    let mut seen = HashSet::new();
    for (game, variant, players, moves) in &games {
        let Some(moves) = moves else { continue };
        assert!(
            seen.insert((game, variant, players, moves)),
            "stored twice: {game} {variant} {players} {moves}"
        );
    }
    let centers = games
        .iter()
        .filter(|(game, _, players, _)| {
            game == "connect4" && players.matches("center-").count() == 2
        })
        .count();
    assert!(
        centers > 6,
        "copies of center.lua played {centers} different games"
    );
}

#[test]
fn replays_stay_under_their_cap_and_each_bot_keeps_its_newest() {
    let dir = scratch("league-replay-cap");
    let db = dir.join("league.db");
    let db = db.to_str().unwrap();
    let cap = 256 * 1024;
    let league = League::start(&dir, db, 2, &["--max-replay-mib", "0.25"]);
    let bots: Vec<_> = ten_bots()
        .into_iter()
        .filter(|(_, game, _)| *game == "worms")
        .collect();
    upload_all(&league, &bots);
    // Play until replays were dropped, and see them under the cap.
    let start = Instant::now();
    loop {
        let status = league.status();
        let storage = &status["storage"];
        let games = status["games"].as_i64().unwrap();
        let replays = storage["replays"].as_i64().unwrap();
        assert_eq!(status["replay_cap_bytes"], cap, "{status}");
        assert!(storage["database_bytes"].as_i64().unwrap() > 0, "{status}");
        if games >= 300 && replays < games / 2 && storage["replay_bytes"].as_i64().unwrap() <= cap {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "replays did not come under the cap: {status}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // Each bot's newest game still has its replay; the first game has its result but not its
    // replay any more.
    for (name, _, _) in &bots {
        let (status, games) = league.get(&format!("/bots/{name}/games?limit=1"), None);
        assert_eq!(status, 200, "{games}");
        let newest = games[0]["id"].as_i64().unwrap();
        let (status, body) = league.get(&format!("/games/{newest}/replay"), None);
        assert_eq!(status, 200, "{name}'s newest game {newest}: {body}");
    }
    let (status, first) = league.get("/games/1", None);
    assert_eq!(status, 200, "{first}");
    let (status, body) = league.get("/games/1/replay", None);
    assert_eq!(status, 410, "{body}");
    assert!(body.to_string().contains("cap on replays"), "{body}");

    // The CLI says the same.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args(["league", "status", "--server", &league.url])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("(cap 0.2 MiB)"), "{text}");
    assert!(text.contains("MiB more an hour"), "{text}");
    league.stop();
}

//! Every registered game through every command: the list and each game's bundled bots come from
//! `botbox games --json`; a game that needs a set-up beyond its default variant (a map, dice) has it
//! here. Every game passes `check`, `match`, `tournament` from a TOML file, `watch`, `replay`, and `--shard` +
//! `merge`; and its reports are byte for byte the same at `--jobs 1` and `--jobs 2` and when
//! merged from shards.

use std::path::Path;

use serde_json::Value;

use crate::util::{at, botbox, scratch, stderr, stdout};

/// What a game needs to be played by the commands beyond its bundled bots (which `botbox games
/// --json` lists): the lines of a tournament file that set it up.
struct Setup {
    toml: &'static str,
    /// The flags of `match` and `watch` that set the game up.
    flags: &'static [&'static str],
}

fn setup(game: &str) -> Setup {
    match game {
        "2048" => Setup {
            toml: "variants = [\"4x4\"]\ngames = 3\n",
            flags: &[],
        },
        "dice" => Setup {
            toml: "variant = \"free\"\ndice = \"DICE\"\ndie = [1]\ngames = 4\n",
            flags: &["--dice", "examples/dice/wuerfel0.txt", "--die", "1"],
        },
        "bs" => Setup {
            toml: "games = 12\n",
            flags: &[],
        },
        "worms" => Setup {
            toml: "maps = [\"MAP\"]\nopenings = 2\ngames = 4\n",
            flags: &["--map", "examples/worms/arena.txt"],
        },
        "connect4" => Setup {
            toml: "variants = [\"standard\", \"5x4-3\"]\nopenings = 2\ngames = 4\n",
            flags: &[],
        },
        // A game set up by its default variant needs nothing more.
        _ => Setup {
            toml: "openings = 2\ngames = 4\n",
            flags: &[],
        },
    }
}

/// A registered game as `botbox games --json` lists it: its name, its bundled bots and its seats.
struct Game {
    name: String,
    bots: Vec<String>,
    seats: usize,
}

impl Game {
    /// The bundled bots a match seats: one per seat.
    fn seated(&self) -> Vec<&str> {
        self.bots
            .iter()
            .take(self.seats)
            .map(String::as_str)
            .collect()
    }
}

/// The registered games, as `botbox games --json` lists them.
fn games() -> Vec<Game> {
    let out = botbox(&["games", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let list: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let games: Vec<Game> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| Game {
            name: g["name"].as_str().unwrap().to_string(),
            bots: g["bots"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_str().unwrap().to_string())
                .collect(),
            seats: g["seats"]["max"].as_u64().unwrap() as usize,
        })
        .collect();
    assert!(games.len() >= 5, "{} games", games.len());
    for g in &games {
        assert!(
            g.bots.len() >= g.seats.max(2),
            "{}: {} bundled bots",
            g.name,
            g.bots.len()
        );
        for bot in &g.bots {
            assert!(at(bot).is_file(), "{}: {bot} is not a file", g.name);
        }
    }
    games
}

fn ok(args: &[&str]) -> String {
    let out = botbox(args);
    assert!(out.status.success(), "{args:?}\n{}", stderr(&out));
    stdout(&out)
}

#[test]
fn check_plays_a_smoke_game_of_every_game() {
    for g in games() {
        let game = g.name;
        let text = ok(&["check", &game, &g.bots[0], "--games", "1"]);
        assert!(text.contains("smoke game"), "{game}: {text}");
    }
}

#[test]
fn match_or_bench_plays_every_game_and_writes_replays_that_replay() {
    for g in games() {
        let game = g.name.clone();
        let s = setup(&game);
        let dir = scratch(&format!("registry/match-{game}"));
        let replays = dir.join("replays");
        let json = dir.join("report.json");
        let mut args: Vec<&str> = vec!["match", game.as_str()];
        args.extend(g.seated());
        args.extend(s.flags);
        args.extend([
            "--games",
            "2",
            "--replay-dir",
            replays.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ]);
        let text = ok(&args);
        assert!(text.contains(&game), "{game}: {text}");
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(report["game"], game.as_str());
        assert_eq!(report["games"].as_array().unwrap().len(), 2, "{game}");
        let first = replays.join(format!("{game}-0001.jsonl"));
        let shown = ok(&["replay", first.to_str().unwrap(), "--print"]);
        assert!(!shown.is_empty(), "{game}");
    }
}

/// Writes a tournament file for `game` into `dir`, entries the game's bundled bots.
fn tournament_file(g: &Game, dir: &Path) -> std::path::PathBuf {
    let game = g.name.as_str();
    let s = setup(game);
    let mut text = format!("game = \"{game}\"\nseed = 3\n");
    text.push_str(
        &s.toml
            .replace("DICE", at("examples/dice/wuerfel0.txt").to_str().unwrap())
            .replace("MAP", at("examples/worms/arena.txt").to_str().unwrap()),
    );
    for bot in &g.bots {
        text.push_str(&format!(
            "\n[[entries]]\npath = \"{}\"\n",
            at(bot).display()
        ));
    }
    let file = dir.join(format!("{game}.toml"));
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn tournament_files_give_the_same_report_at_any_job_count_and_merged_from_shards() {
    for g in games() {
        let game = g.name.clone();
        let dir = scratch(&format!("registry/tournament-{game}"));
        let file = tournament_file(&g, &dir);
        let file = file.to_str().unwrap();
        let report = |name: &str, extra: &[&str]| {
            let json = dir.join(name);
            let mut args = vec!["tournament", file, "--json", json.to_str().unwrap()];
            args.extend(extra);
            ok(&args);
            std::fs::read(&json).unwrap()
        };
        let one = report("jobs-1.json", &["--jobs", "1"]);
        let two = report("jobs-2.json", &["--jobs", "2"]);
        assert!(one == two, "{game}: --jobs 1 and 2 differ");
        let parsed: Value = serde_json::from_slice(&one).unwrap();
        assert_eq!(parsed["game"], game.as_str());
        assert!(!parsed["games"].as_array().unwrap().is_empty(), "{game}");
        report("part-1.json", &["--shard", "1/2", "--jobs", "2"]);
        report("part-2.json", &["--shard", "2/2", "--jobs", "1"]);
        let merged = dir.join("merged.json");
        ok(&[
            "merge",
            dir.join("part-2.json").to_str().unwrap(),
            dir.join("part-1.json").to_str().unwrap(),
            "--json",
            merged.to_str().unwrap(),
        ]);
        assert!(
            std::fs::read(&merged).unwrap() == one,
            "{game}: the merged shards differ from the whole run"
        );
    }
}

#[test]
fn watch_evaluates_a_bot_in_every_game() {
    for g in games() {
        let game = g.name.clone();
        let s = setup(&game);
        let mut args = vec!["watch", g.bots[0].as_str(), "--game", game.as_str()];
        if g.seats > 1 {
            args.push("--vs");
            args.extend(g.bots[1..].iter().map(String::as_str));
        }
        args.extend(s.flags);
        args.extend(["--batch", "2", "--batches", "1", "--jobs", "1"]);
        let text = ok(&args);
        assert!(text.contains("v1"), "{game}: {text}");
    }
}

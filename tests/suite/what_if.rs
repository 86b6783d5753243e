//! `botbox replay FILE --seat S [--turn N] --with BOT`: a recorded game's turns decided again by
//! another bot, from the observations rebuilt out of the replay alone.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{at, botbox, scratch, stdout};
use botbox::play::whatif::decide_again;

/// One game of `game` between `bots` recorded into `dir`; its replay file.
fn recorded(dir: &Path, game: &str, bots: &[PathBuf]) -> PathBuf {
    let mut args = vec!["match".to_string(), game.to_string()];
    args.extend(bots.iter().map(|b| b.display().to_string()));
    if game == "worms" {
        args.extend([
            "--map".to_string(),
            at("examples/worms/arena.txt").display().to_string(),
        ]);
    }
    args.extend(["--games", "1", "--replay-dir"].map(String::from));
    args.push(dir.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = botbox(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join(format!("{game}-0001.jsonl"))
}

/// A game of `botbox games --json` and its bundled Lua bots, one per seat of its smallest table.
fn bundled(g: &Value) -> (&str, Vec<PathBuf>) {
    let seats = g["seats"]["min"].as_u64().unwrap_or(2).max(1) as usize;
    let bots = g["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| at(b.as_str().unwrap()))
        .filter(|b| b.extension().is_some_and(|e| e == "lua"))
        .cycle()
        .take(seats)
        .collect();
    (g["name"].as_str().unwrap(), bots)
}

fn load(path: &Path) -> botbox::runtime::Strategy {
    botbox::hosted::load(path, &botbox::runtime::Limits::default()).unwrap()
}

/// Every game's bundled bots, decided again by themselves at every turn of every seat: nothing
/// differs, so each observation was rebuilt exactly as the seat had it.
#[test]
fn the_same_bot_decides_every_turn_of_every_game_the_same() {
    let dir = scratch("what-if-same");
    let games: Value = serde_json::from_str(&stdout(&botbox(&["games", "--json"]))).unwrap();
    for g in games.as_array().unwrap() {
        let (game, bots) = bundled(g);
        let out = dir.join(game);
        let file = recorded(&out, game, &bots);
        let replay = botbox::replay::read(&file).unwrap();
        // Each seat's own bot, as the header names its file (a dice entry is a die and a bot).
        for (seat, played) in replay.header.strategies.iter().enumerate() {
            let bot = PathBuf::from(&played.path);
            let decisions = decide_again(&replay, seat as u32, &load(&bot), None).unwrap();
            assert!(!decisions.is_empty(), "{game}: seat {seat} decided nothing");
            let differ: Vec<usize> = decisions
                .iter()
                .filter(|d| d.differs())
                .map(|d| d.turn)
                .collect();
            assert!(
                differ.is_empty(),
                "{game}: seat {seat} ({}) differs at {differ:?}",
                bot.display()
            );
        }
    }
}

/// A bot changed at its third decision differs there and nowhere else; the command says so in
/// words, and `--turn` shows that turn whole with the new bot's log.
#[test]
fn a_changed_bot_differs_exactly_where_its_rule_changes() {
    let dir = scratch("what-if-changed");
    let center = at("strategies/lua/connect4/center.lua");
    let file = recorded(
        &dir,
        "connect4",
        &[center.clone(), at("strategies/lua/connect4/random.lua")],
    );
    let inner = std::fs::read_to_string(&center).unwrap();
    let changed = dir.join("changed.lua");
    std::fs::write(
        &changed,
        format!(
            "local inner = (function()\n{inner}\nend)()\nlocal M = {{}}\nlocal n = 0\n\
             function M.choose_move(obs)\n  n = n + 1\n  local c = inner.choose_move(obs)\n\
             if n == 3 then\n    for _, x in ipairs(obs.legal) do\n      if x ~= c then\n\
             print(\"third move: \" .. x .. \" instead of \" .. c)\n        return x\n      end\n    end\n  end\n\
             return c\nend\nreturn M\n"
        ),
    )
    .unwrap();
    let replay = botbox::replay::read(&file).unwrap();
    let decisions = decide_again(&replay, 0, &load(&changed), None).unwrap();
    let third = decisions[2].turn;
    let differ: Vec<usize> = decisions
        .iter()
        .filter(|d| d.differs())
        .map(|d| d.turn)
        .collect();
    assert_eq!(differ, [third], "only its third decision");
    let (file_s, changed_s) = (file.display().to_string(), changed.display().to_string());
    let text = stdout(&botbox(&[
        "replay", &file_s, "--seat", "0", "--with", &changed_s,
    ]));
    assert!(
        text.contains(&format!(
            "differs at 1 of {} turns: {third}",
            decisions.len()
        )),
        "{text}"
    );
    let turn = third.to_string();
    let text = stdout(&botbox(&[
        "replay", &file_s, "--seat", "0", "--turn", &turn, "--with", &changed_s,
    ]));
    assert!(
        text.contains("<- differs") && text.contains("| third move: "),
        "{text}"
    );
    // A move of the other seat is refused with the reason.
    let other = (third + 1).to_string();
    let out = botbox(&[
        "replay", &file_s, "--seat", "0", "--turn", &other, "--with", &changed_s,
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is seat 1's"));
}

/// A BS seat decided again sees its own hand, the one the deal gave it, and nobody else's.
#[test]
fn a_bs_seat_sees_its_own_hand_only() {
    let dir = scratch("what-if-bs");
    let bots: Vec<PathBuf> = (1..=4)
        .map(|i| at(&format!("strategies/lua/bs/player{i}.lua")))
        .collect();
    let file = recorded(&dir, "bs", &bots);
    let replay = botbox::replay::read(&file).unwrap();
    let dealt = botbox::games::bs::Game::new(replay.header.seed);
    for seat in 0..4u32 {
        let decisions = decide_again(&replay, seat, &load(&bots[seat as usize]), None).unwrap();
        let first = decisions.iter().find(|d| d.function == "play").unwrap();
        let mut hand: Vec<u64> = first.observation["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        hand.sort_unstable();
        let mut own: Vec<u64> = dealt
            .hand(seat as usize)
            .iter()
            .map(|c| u64::from(u32::from(c)))
            .collect();
        own.sort_unstable();
        // Its first play comes before any pile was taken only if it plays early: the hand is the
        // deal less what it played, a part of its own cards.
        assert!(
            hand.iter().all(|c| own.contains(c)) || first.turn > 8,
            "seat {seat}"
        );
        let text = first.observation.to_string();
        assert!(!text.contains("hands"), "no other hand in {text}");
        // The players by the names the run gave them, as the seat saw them.
        let names: Vec<&str> = replay
            .header
            .strategies
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(first.observation["players"], serde_json::json!(names));
    }
}

/// The action of every turn, in order, with its seat.
fn moves(file: &botbox::replay::ReplayFile) -> Vec<(Value, Value)> {
    file.turns
        .iter()
        .map(|t| (t["seat"].clone(), t["action"].clone()))
        .collect()
}

/// Every game played on from the middle by the bots that played it: the recorded moves, then the
/// same bots deciding (each shown its seat's earlier observations first) make the recorded game
/// again, move for move; the new replay says which moves are the recorded game's, re-plays and is
/// drawn.
#[test]
fn playing_on_with_the_same_bots_plays_the_recorded_game_again() {
    let dir = scratch("what-if-play-on-same");
    let games: Value = serde_json::from_str(&stdout(&botbox(&["games", "--json"]))).unwrap();
    for g in games.as_array().unwrap() {
        let (game, bots) = bundled(g);
        let file = recorded(&dir.join(game), game, &bots);
        let replay = botbox::replay::read(&file).unwrap();
        let played: Vec<botbox::runtime::Strategy> = replay
            .header
            .strategies
            .iter()
            .map(|s| load(Path::new(&s.path)))
            .collect();
        // Seat 0's first own move past the middle.
        let from = (replay.turns.len() / 2..replay.turns.len())
            .find(|&i| replay.turns[i]["seat"] == 0 && replay.turns[i]["opening"] != true)
            .map(|i| i + 1)
            .unwrap_or_else(|| panic!("{game}: no move of seat 0 past the middle"));
        let against: Vec<&botbox::runtime::Strategy> = played[1..].iter().collect();
        let onward = botbox::play::whatif::play_on(&replay, 0, &played[0], &against, from)
            .unwrap_or_else(|e| panic!("{game}: {e:#}"));
        assert_eq!(onward.recorded, from - 1);
        let out = dir.join(format!("{game}.on.jsonl"));
        onward.replay.write(&out).unwrap();
        let again = botbox::replay::read(&out).unwrap();
        assert_eq!(
            moves(&again),
            moves(&replay),
            "{game}: played on from {from}"
        );
        let on = again.header.played_on.as_ref().expect("marked played on");
        assert_eq!(on.recorded, from - 1);
        assert_eq!(on.strategies, replay.header.strategies);
        for (i, t) in again.turns.iter().enumerate() {
            assert_eq!(
                t["recorded"] == true,
                i + 1 < from,
                "{game}: move {}",
                i + 1
            );
        }
        let text = botbox::view::replay::render(&again, None).unwrap();
        assert!(
            text.contains(&format!("moves 1 to {} as recorded there", from - 1)),
            "{game}: {text}"
        );
        let viewer = botbox::view::frames::frames(&again).unwrap();
        assert!(viewer.title.contains("played on from"), "{game}");
    }
}

/// `--play-on` without `--turn` leaves the recorded game where the changed bot first chooses
/// otherwise, writes the new game beside the replay, and `botbox replay` and `botbox view` take
/// it; the other seat is the `--against` bot from there.
#[test]
fn play_on_leaves_the_recorded_game_where_the_bot_differs() {
    let dir = scratch("what-if-play-on");
    let center = at("strategies/lua/connect4/center.lua");
    let random = at("strategies/lua/connect4/random.lua");
    let file = recorded(&dir, "connect4", &[center.clone(), random.clone()]);
    let changed = dir.join("changed.lua");
    std::fs::write(
        &changed,
        format!(
            "local inner = (function()\n{}\nend)()\nlocal M = {{}}\nlocal n = 0\n\
             function M.choose_move(obs)\n  n = n + 1\n  local c = inner.choose_move(obs)\n\
             if n == 3 then\n    for _, x in ipairs(obs.legal) do\n      if x ~= c then\n\
             return x\n      end\n    end\n  end\n  return c\nend\nreturn M\n",
            std::fs::read_to_string(&center).unwrap()
        ),
    )
    .unwrap();
    let replay = botbox::replay::read(&file).unwrap();
    let third = decide_again(&replay, 0, &load(&changed), None).unwrap()[2].turn;
    let (file_s, changed_s, random_s) = (
        file.display().to_string(),
        changed.display().to_string(),
        random.display().to_string(),
    );
    let text = stdout(&botbox(&[
        "replay",
        &file_s,
        "--seat",
        "0",
        "--with",
        &changed_s,
        "--play-on",
        "--against",
        &random_s,
    ]));
    assert!(
        text.contains(&format!(
            "played on from move {third}: moves 1 to {}",
            third - 1
        )),
        "{text}"
    );
    let out = dir.join(format!("connect4-0001.on-{third}.jsonl"));
    assert!(text.contains(&out.display().to_string()), "{text}");
    let again = botbox::replay::read(&out).unwrap();
    assert_eq!(moves(&again)[..third - 1], moves(&replay)[..third - 1]);
    assert_ne!(
        again.turns[third - 1]["action"],
        replay.turns[third - 1]["action"],
        "the changed bot's move"
    );
    assert_eq!(again.header.strategies[1].name, "random");
    let shown = stdout(&botbox(&["replay", &out.display().to_string()]));
    assert!(
        shown.contains("played on from connect4-0001.jsonl"),
        "{shown}"
    );
    let page = dir.join("on.html");
    let viewed = botbox(&[
        "view",
        &out.display().to_string(),
        "--html",
        &page.display().to_string(),
    ]);
    assert!(
        viewed.status.success(),
        "{}",
        String::from_utf8_lossy(&viewed.stderr)
    );
    // A file whose marks do not match its header is refused, naming the line.
    let text = std::fs::read_to_string(&out).unwrap();
    let tampered = dir.join("tampered.jsonl");
    std::fs::write(&tampered, text.replacen(",\"recorded\":true", "", 1)).unwrap();
    let refused = botbox(&["replay", &tampered.display().to_string()]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("tampered.jsonl:2: move 1 is not marked recorded"),
        "{said}"
    );
    // Two bots for one other seat are refused with the reason.
    let refused = botbox(&[
        "replay",
        &file_s,
        "--seat",
        "0",
        "--turn",
        &third.to_string(),
        "--with",
        &changed_s,
        "--play-on",
        "--against",
        &random_s,
        &random_s,
    ]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("2 bots for the 1 other seats"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

/// A Wormworld program (the 1997 text protocol, which tells a program only the moves it missed)
/// decided again by itself differs nowhere, and playing on with it from the middle, in the seat
/// it played, makes the recorded game again: it takes over from the position it is sent.
#[test]
fn a_wormworld_program_is_decided_again_and_plays_on() {
    let dir = scratch("what-if-program");
    let program = at("strategies/programs/worms/greedy.py");
    let lua = at("strategies/lua/worms/greedy.lua");
    let file = recorded(&dir, "worms", &[lua.clone(), program.clone()]);
    let replay = botbox::replay::read(&file).unwrap();
    let decisions = decide_again(&replay, 1, &load(&program), None).unwrap();
    assert!(decisions.len() > 3);
    let differ: Vec<usize> = decisions
        .iter()
        .filter(|d| d.differs())
        .map(|d| d.turn)
        .collect();
    assert!(differ.is_empty(), "differs at {differ:?}");
    let from = decisions[decisions.len() / 2].turn;
    let onward =
        botbox::play::whatif::play_on(&replay, 1, &load(&program), &[&load(&lua)], from).unwrap();
    let out = dir.join("on.jsonl");
    onward.replay.write(&out).unwrap();
    assert_eq!(moves(&botbox::replay::read(&out).unwrap()), moves(&replay));
}

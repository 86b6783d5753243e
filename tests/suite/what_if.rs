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
            at("examples/worms/tutorial.txt").display().to_string(),
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
        let game = g["name"].as_str().unwrap();
        let seats = g["seats"]["min"].as_u64().unwrap_or(2).max(1) as usize;
        let bots: Vec<PathBuf> = g["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| at(b.as_str().unwrap()))
            .filter(|b| b.extension().is_some_and(|e| e == "lua"))
            .cycle()
            .take(seats)
            .collect();
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
    }
}

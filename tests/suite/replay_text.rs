//! What `botbox replay` prints beyond the moves (issue 35): a 2048 bot's log lines beside the move
//! whose decision wrote them, also with `--last`.

use crate::util::{botbox, scratch, stderr, stdout};

#[test]
fn a_2048_replay_shows_each_log_line_beside_its_move() {
    let dir = scratch("replay-text/logs");
    let bot = dir.join("talker.lua");
    std::fs::write(
        &bot,
        "local n = 0\n\
         return { choose_move = function(obs)\n\
           n = n + 1\n\
           print('deciding move ' .. n)\n\
           return obs.legal[1]\n\
         end }\n",
    )
    .unwrap();
    let out = botbox(&[
        "bench",
        "2048",
        bot.to_str().unwrap(),
        "--games",
        "1",
        "--replay-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let file = dir.join("2048-0001.jsonl");
    let text = stdout(&botbox(&["replay", file.to_str().unwrap()]));
    let lines: Vec<&str> = text.lines().collect();
    let moves: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("move "))
        .collect();
    assert!(moves.len() > 10, "{text}");
    // Right under each move's line: what its decision printed.
    for (k, &i) in moves.iter().enumerate() {
        assert_eq!(
            lines[i + 1],
            format!("  | deciding move {}", k + 1),
            "{text}"
        );
    }
    // With --last 2, the last two moves' lines and no others.
    let last = stdout(&botbox(&["replay", "--last", "2", file.to_str().unwrap()]));
    let logged: Vec<&str> = last.lines().filter(|l| l.starts_with("  | ")).collect();
    let n = moves.len();
    assert_eq!(
        logged,
        [
            format!("  | deciding move {}", n - 1),
            format!("  | deciding move {n}")
        ],
        "{last}"
    );
}

/// Connect Four is shown as a grid (issue 32): `botbox replay` draws it after every move, seat 0's
/// discs `X` and seat 1's `O`, the winning four in brackets; the viewer's frames are the same grids.
#[test]
fn a_connect4_replay_draws_the_grid_after_every_move_and_marks_the_winning_four() {
    let dir = scratch("replay-text/connect4");
    let out = botbox(&[
        "match",
        "connect4",
        "strategies/lua/connect4/center.lua",
        "strategies/lua/connect4/random.lua",
        "--games",
        "2",
        "--replay-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let file = dir.join("connect4-0001.jsonl");
    let replay = botbox::replay::read(&file).unwrap();
    let moves = replay.turns.len();
    let text = stdout(&botbox(&["replay", file.to_str().unwrap()]));
    assert!(text.contains("discs: X center, O random"), "{text}");
    // Seven rows and the column numbers under each of the moves.
    let grid_lines = text.lines().filter(|l| l.starts_with("     ")).count();
    assert_eq!(grid_lines, moves * 7, "{text}");
    assert!(text.contains("     0  1  2  3  4  5  6"), "{text}");
    let discs = |line: &str, d: char| line.chars().filter(|&c| c == d).count();
    let last_grid: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("     "))
        .skip((moves - 1) * 7)
        .collect();
    let (x, o): (usize, usize) = last_grid
        .iter()
        .map(|l| (discs(l, 'X'), discs(l, 'O')))
        .fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    assert_eq!(
        x + o,
        moves,
        "every move's disc is on the last grid:\n{text}"
    );
    let ended_by_line = replay.end.as_ref().unwrap().result["ending"]["reason"] == "line";
    let marked = last_grid
        .iter()
        .map(|l| l.matches('[').count())
        .sum::<usize>();
    assert_eq!(marked, if ended_by_line { 4 } else { 0 }, "{text}");
    // --last 1: one move and its grid.
    let last = stdout(&botbox(&["replay", file.to_str().unwrap(), "--last", "1"]));
    assert_eq!(last.lines().filter(|l| l.starts_with("move ")).count(), 1);
    // The viewer draws the same grids: the last frame holds every disc and the marked four.
    let viewer = serde_json::to_value(botbox::view::frames::frames(&replay).unwrap()).unwrap();
    let frames = viewer["frames"].as_array().unwrap();
    assert_eq!(frames.len(), moves + 1);
    let cells: Vec<String> = frames[moves]["board"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter())
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(cells.iter().filter(|c| !c.is_empty()).count(), moves);
    assert_eq!(
        cells.iter().filter(|c| c.starts_with('[')).count(),
        if ended_by_line { 4 } else { 0 }
    );
    assert!(
        frames[1]["text"]
            .as_str()
            .unwrap()
            .starts_with("X drops in column")
    );
}

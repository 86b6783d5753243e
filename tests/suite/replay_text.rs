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

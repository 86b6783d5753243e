//! Text that fits the terminal (issue 35): the discovery table of `botbox games` and `check`'s
//! limits wrap to the width they are given (the terminal's, or `COLUMNS` when the output is not a
//! terminal), and run to their full length when written to a file or a pipe.

use std::process::Command;

use crate::util::{at, repo};

/// What `botbox args` prints with `COLUMNS` set to `columns` (unset for `None`).
fn printed(args: &[&str], columns: Option<u16>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_botbox"));
    command.args(args).current_dir(repo()).env_remove("COLUMNS");
    if let Some(columns) = columns {
        command.env("COLUMNS", columns.to_string());
    }
    let out = command.output().expect("running botbox");
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn games_and_check_fit_80_and_100_columns() {
    let bot = at("strategies/lua/connect4/random.lua");
    let check = ["check", "connect4", bot.to_str().unwrap()];
    for columns in [80, 100] {
        let games = printed(&["games"], Some(columns));
        assert!(widest(&games) <= columns as usize, "{columns}:\n{games}");
        // Every game is still there, its name whole in the first column.
        for name in ["2048", "dice", "bs", "worms", "connect4", "tron"] {
            assert!(games.contains(&format!("│ {name} ")), "{name}:\n{games}");
        }
        let text = printed(&check, Some(columns));
        let limits: String = text
            .lines()
            .skip_while(|l| !l.starts_with("limits"))
            .take_while(|l| l.starts_with("limits") || l.starts_with("      "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(limits.lines().count() > 1, "{columns}:\n{text}");
        assert!(widest(&limits) <= columns as usize, "{columns}:\n{limits}");
        assert!(
            limits.contains("compiling wasm 5000 ms at most"),
            "{limits}"
        );
    }
    // To a pipe without COLUMNS: one row per game, as wide as it takes.
    let games = printed(&["games"], None);
    assert!(widest(&games) > 120, "{games}");
    assert_eq!(games.lines().filter(|l| l.starts_with("│ ")).count(), 7);
}

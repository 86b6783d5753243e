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

/// The texts of a page's charts: `(x, text)` of every SVG `<text>`.
fn chart_texts(page: &str) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    for piece in page.split("<text ").skip(1) {
        let Some((attrs, rest)) = piece.split_once('>') else {
            continue;
        };
        let text = rest
            .split("</text>")
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let x = attrs
            .split("x=\"")
            .nth(1)
            .and_then(|v| v.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0);
        out.push((x, text));
    }
    out
}

/// A report page written from `botbox ARGS --json` (run in a scratch directory).
fn report_page(name: &str, args: &[&str]) -> String {
    let dir = crate::util::scratch(&format!("layout/{name}"));
    let json = dir.join("report.json");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--json", json.to_str().unwrap()]);
    printed(&all, None);
    let html = dir.join("html");
    printed(
        &[
            "report",
            json.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        None,
    );
    std::fs::read_to_string(html.join("index.html")).unwrap()
}

#[test]
fn charts_count_in_whole_numbers_label_every_die_and_keep_the_legend_beside_the_plot() {
    let random = at("strategies/lua/connect4/random.lua");
    let center = at("strategies/lua/connect4/center.lua");
    let page = report_page(
        "connect4",
        &[
            "tournament",
            "connect4",
            "--players",
            random.to_str().unwrap(),
            center.to_str().unwrap(),
            "--games",
            "20",
        ],
    );
    let texts = chart_texts(&page);
    assert!(texts.len() > 20, "{texts:?}");
    // Game counts and percentages as whole numbers: 5, not 5.0.
    let decimals: Vec<&String> = texts
        .iter()
        .map(|(_, t)| t)
        .filter(|t| t.ends_with(".0") && t[..t.len() - 2].parse::<u64>().is_ok())
        .collect();
    assert!(decimals.is_empty(), "{decimals:?}");
    // The legend names each entry in the column right of the plot (the last 170 of 760 pixels).
    for name in ["random", "center"] {
        let xs: Vec<f64> = texts
            .iter()
            .filter(|(_, t)| t == name)
            .map(|(x, _)| *x)
            .collect();
        assert!(
            !xs.is_empty() && xs.iter().all(|&x| x >= 590.0),
            "{name}: {xs:?}"
        );
    }
    // The dice ranking's bar chart names every die under its bar.
    let page = report_page("dice", &["dice", "examples/dice/wuerfel0.txt"]);
    let texts = chart_texts(&page);
    for die in 1..=6 {
        let name = format!("D{die}");
        assert!(texts.iter().any(|(_, t)| *t == name), "{name}: {texts:?}");
    }
}

/// Every subcommand's `--help` fits an 80-column terminal, its examples broken between words with
/// shell continuations (never in the middle of a word), so each can still be pasted, and opens
/// with a line of its own.
#[test]
fn every_help_fits_80_columns_with_whole_commands() {
    // The commands a help text lists: the lines under `Commands:` indented by exactly two spaces.
    fn commands(help: &str) -> Vec<String> {
        help.lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .filter(|c| c != "help")
            .collect()
    }
    let mut helps = vec![vec![]];
    let mut i = 0;
    while i < helps.len() {
        let path: Vec<String> = helps[i].clone();
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = printed(&args, Some(80));
        assert!(widest(&help) <= 80, "{args:?}:\n{help}");
        // An example broken across lines ends each broken line with ` \`, and the words run on:
        // every line of an example that starts with `botbox` is a whole command or continues.
        let mut continued = false;
        for line in help.lines() {
            let body = line.trim_start();
            if continued {
                assert!(line.starts_with("      "), "{args:?}: {line:?}");
            }
            continued = (continued || body.starts_with("botbox ")) && line.ends_with(" \\");
        }
        let subs = commands(&help);
        // Each subcommand's first help line says what that one does: no two of one command's
        // subcommands open alike (as `league retire` once opened with `league show`'s line).
        let mut firsts: Vec<(String, String)> = Vec::new();
        for sub in &subs {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.extend([sub.as_str(), "--help"]);
            let first = printed(&args, Some(80))
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            assert!(!first.is_empty(), "{args:?}");
            if let Some((other, _)) = firsts.iter().find(|(_, f)| *f == first) {
                panic!("{path:?}: {other} and {sub} both open with {first:?}");
            }
            firsts.push((sub.clone(), first));
        }
        for sub in subs {
            helps.push(path.iter().cloned().chain([sub]).collect());
        }
        i += 1;
    }
    assert!(helps.len() > 30, "{}", helps.len());
}

//! A reader that stops early (`botbox check ... | head -1`) is not an error: every command that
//! prints ends quietly, with success and no panic message, when its standard output is closed.

use std::process::{Command, Stdio};

use crate::util::{at, repo, scratch};

/// Runs botbox with `args` and its standard output a pipe whose reading end is closed before the
/// command writes anything: its exit status and what it wrote on stderr.
fn with_stdout_closed(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_that_prints_ends_quietly_on_a_closed_stdout() {
    let dir = scratch("closed-stdout");
    let replay_dir = dir.join("replays");
    let made = crate::util::botbox(&[
        "bench",
        "2048",
        "strategies/lua/g2048/corner.lua",
        "--games",
        "1",
        "--replay-dir",
        replay_dir.to_str().unwrap(),
    ]);
    assert!(made.status.success());
    let replay = replay_dir.join("2048-0001.jsonl");
    let lua = |p: &str| at(&format!("strategies/lua/{p}")).display().to_string();
    let commands: Vec<Vec<String>> = vec![
        vec!["check".into(), "2048".into(), lua("g2048/corner.lua")],
        vec![
            "check".into(),
            "connect4".into(),
            lua("connect4/center.lua"),
        ],
        vec!["games".into()],
        vec!["games".into(), "--json".into()],
        vec!["schemas".into()],
        vec!["replay".into(), replay.display().to_string()],
        vec![
            "bench".into(),
            "2048".into(),
            lua("g2048/corner.lua"),
            "--games".into(),
            "2".into(),
        ],
        vec![
            "tournament".into(),
            "connect4".into(),
            "--players".into(),
            lua("connect4/center.lua"),
            lua("connect4/random.lua"),
            "--games".into(),
            "2".into(),
        ],
        vec!["check".into(), "--help".into()],
    ];
    for args in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, stderr) = with_stdout_closed(&args);
        assert!(status.success(), "{args:?}: {status}\n{stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("error:"), "{args:?}: {stderr}");
    }
}

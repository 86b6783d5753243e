//! `botbox watch` rests once a version has its answer (issue 35): it says so, uses no CPU while it
//! waits, and wakes on the next save.

use std::time::Duration;

use crate::sprt::{stdout_lines, wait_for_line};
use crate::util::{at, repo, scratch};

/// The CPU time a process has used so far, in clock ticks (user and system, `/proc/PID/stat`).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name and state.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn watch_rests_once_a_version_has_its_answer_and_wakes_on_a_save() {
    let dir = scratch("watching/rest");
    let file = dir.join("bot.lua");
    std::fs::copy(at("strategies/lua/connect4/random.lua"), &file).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_botbox"))
        .current_dir(repo())
        .args(["watch", file.to_str().unwrap(), "--game", "connect4"])
        .args(["--vs", "strategies/lua/connect4/random.lua"])
        .args(["--batch", "4", "--rest-after", "40", "--jobs", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lines = stdout_lines(&mut child);
    let rest = wait_for_line(
        &lines,
        "resting until the next save",
        Duration::from_secs(60),
    );
    assert!(
        rest.starts_with("v1 bot@") && rest.contains("40 games"),
        "{rest}"
    );
    // Resting costs nothing: over two seconds, at most a few ticks of CPU.
    let before = cpu_ticks(child.id());
    std::thread::sleep(Duration::from_secs(2));
    let used = cpu_ticks(child.id()) - before;
    assert!(used <= 5, "{used} ticks of CPU while resting");
    // A save wakes it: the new version plays the old one head to head, then the opponents, and
    // rests again.
    std::fs::copy(at("strategies/lua/connect4/center.lua"), &file).unwrap();
    wait_for_line(&lines, "saved: v2", Duration::from_secs(30));
    wait_for_line(&lines, "accepted", Duration::from_secs(120));
    let rest = wait_for_line(
        &lines,
        "resting until the next save",
        Duration::from_secs(120),
    );
    assert!(rest.starts_with("v2 bot@"), "{rest}");
    let _ = child.kill();
    let _ = child.wait();
}

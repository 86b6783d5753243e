//! CPU from /proc: each process's ticks, PostgreSQL's (its live processes and its exited
//! backends), and the machine's busy ticks.

use std::process::Child;

/// Clock ticks per second, the unit of /proc's CPU times.
pub(crate) fn clk_tck() -> f64 {
    let out = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .expect("getconf CLK_TCK");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("CLK_TCK is a number")
}

/// A process's parent, its own CPU ticks (utime + stime, all its threads) and its waited-for
/// children's (cutime + cstime), from /proc/PID/stat; `None` once it is gone.
pub(crate) fn proc_stat(pid: u32) -> Option<(u32, u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let n = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    // fields[0] is field 3 of proc(5) (state): ppid is field 4, utime..cstime fields 14 to 17.
    Some((n(1)? as u32, n(11)? + n(12)?, n(13)? + n(14)?))
}

pub(crate) fn ticks(pid: u32) -> u64 {
    proc_stat(pid).map_or(0, |(_, own, _)| own)
}

pub(crate) fn comm(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|c| c.trim().to_string())
}

/// PostgreSQL's CPU ticks so far: every live process whose `comm` is `postgres` (the postmaster,
/// its background processes and the backends) counts its own utime + stime, and each postmaster
/// (a `postgres` process whose parent is not one) also its cutime + cstime, which hold the CPU of
/// its children that have exited (backends come and go: a connection closed in the window would
/// otherwise take its CPU with it). Sampled at both ends of the window, the difference is the CPU
/// PostgreSQL spent in it: a backend alive at the start and gone at the end is counted live first,
/// then in full in its postmaster's cutime. A process that exits between the reads of one sample
/// can be counted twice or not at all; the league's pools keep their connections, so that is rare.
pub(crate) fn postgres_ticks() -> u64 {
    let mut procs: Vec<(u32, u32, u64, u64)> = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if comm(pid).as_deref() != Some("postgres") {
            continue;
        }
        if let Some((ppid, own, children)) = proc_stat(pid) {
            procs.push((pid, ppid, own, children));
        }
    }
    let postgres: std::collections::HashSet<u32> = procs.iter().map(|p| p.0).collect();
    procs
        .iter()
        .map(|&(_, ppid, own, children)| {
            own + if postgres.contains(&ppid) {
                0
            } else {
                children
            }
        })
        .sum()
}

/// The machine's busy ticks (all cores) from /proc/stat: user, nice, system, irq, softirq, steal.
pub(crate) fn machine_busy_ticks() -> u64 {
    let text = std::fs::read_to_string("/proc/stat").unwrap();
    let cpu: Vec<u64> = text
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    [0, 1, 2, 5, 6, 7]
        .iter()
        .map(|&i| cpu.get(i).copied().unwrap_or(0))
        .sum()
}

/// CPU ticks of everything measured, at one moment.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cpu {
    pub(crate) workers: u64,
    pub(crate) server: u64,
    pub(crate) postgres: u64,
    pub(crate) bench: u64,
    pub(crate) machine: u64,
}

pub(crate) fn cpu(workers: &[Child], server: u32) -> Cpu {
    Cpu {
        workers: workers.iter().map(|w| ticks(w.id())).sum(),
        server: ticks(server),
        postgres: postgres_ticks(),
        bench: ticks(std::process::id()),
        machine: machine_busy_ticks(),
    }
}

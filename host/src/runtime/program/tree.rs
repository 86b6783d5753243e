//! The fallback where no cgroup can be had: the host is a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`), so that a program's orphans are reparented to it rather than to
//! `init`, and each game keeps the set of its program's processes up to date from `/proc`.
//!
//! **Who belongs to a game.** The program itself (its process group leader); every process whose
//! parent belongs to the game; and among the host's own children (where orphans land), those in the
//! program's process group, those that carry the program's tag in their environment
//! ([`TAG_VAR`](super::contain::TAG_VAR), set by the host and inherited across `fork` and `exec`),
//! and those known from an earlier sweep, when their parent was still alive. Anything else among
//! the host's children (another game's program, a process some other part of the host started, an
//! orphan that could not be attributed) is left alone: one game's sweep never touches another's.
//! (A program can still put itself into another game's process group, since every program is in
//! the host's session, and so be paused and killed with that game: its own loss.)
//!
//! **When it looks.** A sweep must not cost a scan of all `/proc` at every move. The kernel counts
//! the last process id it gave out (the fifth field of `/proc/loadavg`); while it stays the same, no
//! process was created anywhere, so the game's set is complete and its ids are not reused. When it
//! moved, only the ids given out since are looked at (`/proc/PID/stat`, a few files), or all of
//! `/proc` when there are fewer processes than that (or the ids wrapped around). Many kernels (the CI
//! machine's among them) do not list a process's children (`/proc/PID/task/TID/children` needs
//! `CONFIG_PROC_CHILDREN`), so parents are found from each process's `stat`. A sweep signals the new members and looks
//! again until nothing new appeared: a process that was sent `SIGSTOP` cannot complete a `fork`
//! after the signal (the kernel restarts the `fork` once it resumes), so when the known members are
//! stopped and no new id belongs to the game, every one of its processes is stopped.
//!
//! **What it cannot do.** An orphan that never showed up in a sweep while its parent lived (a
//! daemon that double-forks within one move), left the program's process group *and* cleared its
//! environment (or `exec`ed with a new one) is lost: its parent is the host, with nothing left to
//! say which game it came from. If the host dies, orphans of the program go to `init` and live on.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::process::Child;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

use super::contain::TAG_VAR;

/// Process ids given out since the last sweep that are always looked at one by one; more, and all
/// of `/proc` is read instead if there are fewer processes and threads than that.
const MIN_PROBE: i32 = 64;
/// Rounds of a sweep (stop what is new, look again) before it gives up until the next one.
const ROUNDS: usize = 64;
/// How long dropping a game waits for its killed processes to die and be reaped.
pub(super) const REAP_TIME: Duration = Duration::from_secs(2);

/// What `/proc/PID/stat` tells of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stat {
    pub pid: i32,
    pub state: char,
    pub ppid: i32,
    pub pgid: i32,
    /// Clock ticks since boot: with the id, names a process for good (ids are reused).
    pub start: u64,
}

/// Parses the text of `/proc/PID/stat`; the command name, in parentheses, may hold anything.
pub(super) fn parse_stat(text: &str) -> Option<Stat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let pid = text[..open].trim().parse().ok()?;
    let fields: Vec<&str> = text.get(close + 2..)?.split(' ').collect();
    Some(Stat {
        pid,
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        pgid: fields.get(2)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// The process (or thread) `pid` as `/proc` shows it now, zombies included.
pub(super) fn stat(pid: i32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// Whether the process named by `pid` and `start` is still alive (not a zombie).
pub(super) fn alive(pid: i32, start: u64) -> bool {
    stat(pid).is_some_and(|s| s.start == start && s.state != 'Z' && s.state != 'X')
}

/// The host's own start time, which with its id names it in the names of its cgroups and tags.
pub(super) fn own_start() -> u64 {
    stat(std::process::id() as i32).map_or(0, |s| s.start)
}

/// What `/proc/loadavg` tells: how many processes and threads there are, and the last process id
/// the kernel gave out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Load {
    pub tasks: i32,
    pub last_pid: i32,
}

/// Parses `/proc/loadavg`, `0.10 0.20 0.30 RUNNING/TASKS LASTPID`.
pub(super) fn parse_loadavg(text: &str) -> Option<Load> {
    let mut fields = text.split_whitespace().skip(3);
    let tasks = fields.next()?.split_once('/')?.1.parse().ok()?;
    let last_pid = fields.next()?.parse().ok()?;
    Some(Load { tasks, last_pid })
}

/// `/proc/loadavg` now: kept open, since reading it again from its start costs a fifth of opening
/// it (a couple of microseconds), at every pause.
fn load() -> Option<Load> {
    static FILE: OnceLock<Option<File>> = OnceLock::new();
    let file = FILE
        .get_or_init(|| File::open("/proc/loadavg").ok())
        .as_ref()?;
    let mut buf = [0; 128];
    let n = file.read_at(&mut buf, 0).ok()?;
    parse_loadavg(std::str::from_utf8(&buf[..n]).ok()?)
}

/// Whether `pid` names a thread other than its process's first one (thread ids are not listed in
/// `/proc` but can be read there; they are not processes of their own).
fn is_thread(pid: i32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("Tgid:"))
        .and_then(|t| t.trim().parse::<i32>().ok())
        .is_some_and(|tgid| tgid != pid)
}

/// Whether the environment `environ` (as `/proc/PID/environ`: `NAME=VALUE`, each ending in a NUL)
/// holds the tag `tag`.
pub(super) fn environ_has_tag(environ: &[u8], tag: &str) -> bool {
    let needle = format!("{TAG_VAR}={tag}");
    environ.split(|&b| b == 0).any(|v| v == needle.as_bytes())
}

fn tagged(pid: i32, tag: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|e| environ_has_tag(&e, tag))
}

/// Every process id in `/proc` now.
fn all_pids() -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// Makes the host a child subreaper, once; false if the kernel refused.
pub(super) fn become_subreaper() -> bool {
    static DONE: OnceLock<bool> = OnceLock::new();
    *DONE.get_or_init(|| nix::sys::prctl::set_child_subreaper(true).is_ok())
}

/// Whether the host is a child subreaper (it made itself one, or whoever embeds it did).
pub(super) fn is_subreaper() -> bool {
    nix::sys::prctl::get_child_subreaper().unwrap_or(false)
}

/// One program's processes, for the subreaper fallback.
#[derive(Debug)]
pub(super) struct Tree {
    tag: String,
    host: i32,
    /// The program, leader of its process group; 0 until started.
    group: i32,
    /// The processes of the game other than the program: id and start time.
    members: HashMap<i32, u64>,
    /// Children of the host found not to be the game's, so that they are not looked at again.
    foreign: HashSet<(i32, u64)>,
    /// The last process id looked at: every id given out up to it has been.
    scanned: i32,
}

impl Tree {
    pub(super) fn new(tag: String) -> Tree {
        become_subreaper();
        Tree {
            tag,
            host: std::process::id() as i32,
            group: 0,
            members: HashMap::new(),
            foreign: HashSet::new(),
            scanned: 0,
        }
    }

    /// The program was started as `program`: it and whatever it has started yet are paused.
    pub(super) fn started(&mut self, program: Pid) {
        self.group = program.as_raw();
        // Its descendants all have ids given out after its own.
        self.scanned = self.group;
        self.pause();
    }

    pub(super) fn pause(&mut self) {
        // Never `killpg(0)`: that would be the host's own group.
        if self.group <= 0 {
            return;
        }
        let _ = killpg(Pid::from_raw(self.group), Signal::SIGSTOP);
        self.signal_members(Signal::SIGSTOP);
        self.sweep();
    }

    pub(super) fn resume(&mut self) {
        if self.group <= 0 {
            return;
        }
        let _ = killpg(Pid::from_raw(self.group), Signal::SIGCONT);
        self.signal_members(Signal::SIGCONT);
    }

    /// Kills every process of the game, the program (`child`) last, and reaps them all: stopped
    /// first, so that nothing can fork while the rest die.
    pub(super) fn kill(&mut self, child: &mut Child) {
        self.pause();
        if self.group > 0 {
            let _ = killpg(Pid::from_raw(self.group), Signal::SIGKILL);
        }
        self.signal_members(Signal::SIGKILL);
        let _ = child.kill();
        let _ = child.wait();
        reap(std::mem::take(&mut self.members), self.host);
    }

    fn signal_members(&self, signal: Signal) {
        for &pid in self.members.keys() {
            let _ = kill(Pid::from_raw(pid), signal);
        }
    }

    /// Finds the game's processes that are new since the last sweep and stops them, until no new
    /// one appears (or [`ROUNDS`] pass; the next sweep goes on from where this one began).
    fn sweep(&mut self) {
        for _ in 0..ROUNDS {
            let Some(load) = load() else { return };
            let fresh = self.scan(load);
            if fresh.is_empty() {
                self.scanned = load.last_pid;
                return;
            }
            for pid in fresh {
                let _ = kill(Pid::from_raw(pid), Signal::SIGSTOP);
            }
        }
    }

    /// Looks at the processes with ids given out after `self.scanned` up to the last one (all
    /// processes instead, if that is cheaper or the ids wrapped around) and adds the game's to its
    /// members; returns those it added.
    fn scan(&mut self, load: Load) -> Vec<i32> {
        let last = load.last_pid;
        if last == self.scanned {
            return Vec::new();
        }
        let span = last.wrapping_sub(self.scanned);
        let probe = last > self.scanned && span <= load.tasks.max(MIN_PROBE);
        let ids = if probe {
            (self.scanned + 1..=last).collect()
        } else {
            all_pids()
        };
        let entries: Vec<Stat> = ids.into_iter().filter_map(stat).collect();
        if probe {
            // An id given out again names another process now.
            for e in &entries {
                if self.members.get(&e.pid).is_some_and(|&s| s != e.start) {
                    self.members.remove(&e.pid);
                }
            }
        } else {
            let now: HashSet<(i32, u64)> = entries.iter().map(|e| (e.pid, e.start)).collect();
            self.members
                .retain(|&pid, &mut start| now.contains(&(pid, start)));
            self.foreign.retain(|id| now.contains(id));
        }
        self.classify(entries)
    }

    /// Adds the processes of `entries` that belong to the game to its members; returns their ids.
    fn classify(&mut self, entries: Vec<Stat>) -> Vec<i32> {
        let mut fresh = Vec::new();
        let mut rest = Vec::new();
        for e in entries {
            let id = (e.pid, e.start);
            if e.pid == self.group
                || self.members.get(&e.pid) == Some(&e.start)
                || self.foreign.contains(&id)
                || e.state == 'X'
            {
                continue;
            }
            if e.ppid == self.host {
                // A child of the host: another game's program, an orphan, or nothing of ours.
                if (e.pgid == self.group || tagged(e.pid, &self.tag)) && !is_thread(e.pid) {
                    self.members.insert(e.pid, e.start);
                    fresh.push(e.pid);
                } else {
                    self.foreign.insert(id);
                }
            } else {
                rest.push(e);
            }
        }
        // Children of the game's processes, whichever order their ids came in.
        loop {
            let before = fresh.len();
            rest.retain(|e| {
                let ours = e.ppid == self.group || self.members.contains_key(&e.ppid);
                if ours && !is_thread(e.pid) {
                    self.members.insert(e.pid, e.start);
                    fresh.push(e.pid);
                }
                !ours
            });
            if fresh.len() == before {
                return fresh;
            }
        }
    }
}

/// Waits (at most [`REAP_TIME`]) for the killed processes `pending` (id and start time) to die, and
/// reaps those that end up the host's children. A zombie whose parent is still one of `pending` is
/// waited for: it becomes the host's once that parent dies. One whose parent is someone else is
/// theirs to reap.
pub(super) fn reap(mut pending: HashMap<i32, u64>, host: i32) {
    let deadline = Instant::now() + REAP_TIME;
    let mut pause = Duration::from_micros(50);
    while !pending.is_empty() {
        let ids: Vec<(i32, u64)> = pending.iter().map(|(&p, &s)| (p, s)).collect();
        for (pid, start) in ids {
            let done = match stat(pid) {
                None => true,
                Some(s) if s.start != start => true,
                Some(s) if s.state == 'Z' || s.state == 'X' => {
                    if s.ppid == host {
                        let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
                        true
                    } else {
                        !pending.contains_key(&s.ppid)
                    }
                }
                // Still dying (or stuck in the kernel): looked at again.
                Some(_) => false,
            };
            if done {
                pending.remove(&pid);
            }
        }
        if pending.is_empty() || Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_parsed_whatever_the_command_name() {
        let line = "4242 (a (b) c) S 17 4242 17 0 -1 4194560 100 0 0 0 3 1 0 0 20 0 1 0 987654 \
                    1000 100 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
        assert_eq!(
            parse_stat(line),
            Some(Stat {
                pid: 4242,
                state: 'S',
                ppid: 17,
                pgid: 4242,
                start: 987654
            })
        );
        assert_eq!(parse_stat("4242 (x) S 1"), None);
        let me = stat(std::process::id() as i32).expect("the test can read its own stat");
        assert_eq!(me.pid, std::process::id() as i32);
        assert!(alive(me.pid, me.start));
        assert!(!alive(me.pid, me.start + 1));
    }

    #[test]
    fn loadavg_tells_the_tasks_and_the_last_process_id() {
        let load = Load {
            tasks: 345,
            last_pid: 6789,
        };
        assert_eq!(parse_loadavg("0.10 0.20 0.30 2/345 6789\n"), Some(load));
        assert_eq!(parse_loadavg("0.10 0.20"), None);
        // Read twice from the same open file: it starts again each time.
        let (a, b) = (load_now(), load_now());
        assert!(b.last_pid >= a.last_pid || b.last_pid < 1000, "{a:?} {b:?}");
    }

    fn load_now() -> Load {
        let load = load().expect("/proc/loadavg can be read");
        assert!(load.tasks > 0 && load.last_pid > 0, "{load:?}");
        load
    }

    #[test]
    fn a_tag_must_match_a_whole_variable() {
        let env = format!("PATH=/bin\0{TAG_VAR}=12-34-5\0HOME=/root\0");
        assert!(environ_has_tag(env.as_bytes(), "12-34-5"));
        assert!(!environ_has_tag(env.as_bytes(), "12-34"));
        assert!(!environ_has_tag(env.as_bytes(), "2-34-5"));
    }
}

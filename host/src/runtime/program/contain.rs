//! Keeping hold of every process a program starts, however it forks: a cgroup where the machine
//! offers one ([`cgroup`](super::cgroup)), the subreaper fallback ([`tree`](super::tree))
//! otherwise; and the parent-death signal, so that a host that dies takes its programs with it.
//!
//! Which one a host uses is decided once, at its first program: a cgroup if one can be made,
//! joined, frozen and killed, unless [`CONTAINMENT_VAR`] is `subreaper`. A game whose cgroup cannot
//! be made (a full disk of cgroups, say) falls back on its own.
//!
//! The parent-death signal (`PR_SET_PDEATHSIG`, set by util-linux's `setpriv --pdeathsig KILL`
//! just before the program's `exec`, where `setpriv` exists and knows the option) fires when the
//! *thread* that started the program ends, not the process: programs are started by one thread of
//! the host's own that never ends, so that an instance can outlive the thread that made it.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use nix::unistd::Pid;

use super::cgroup::{Base, Cgroup};
use super::tree::{self, REAP_TIME, Tree};

/// The environment variable that chooses how programs are contained: `subreaper` forces the
/// fallback even where a cgroup could be had; anything else (or nothing) lets the host choose. Read
/// once, when the host starts its first program.
pub const CONTAINMENT_VAR: &str = "BOTBOX_PROGRAM_CONTAINMENT";
/// The environment variable, unique to each program the host starts, by which the subreaper
/// fallback recognises the program's orphans (set in the cgroup mode too, so that a program sees the
/// same environment either way).
pub const TAG_VAR: &str = "BOTBOX_PROGRAM_TAG";

/// How a host keeps hold of its programs' processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Containment {
    /// A cgroup (version 2) per program, frozen to pause it and killed at the end.
    Cgroup,
    /// The fallback: the host is a child subreaper and sweeps `/proc` for each program's processes.
    Subreaper,
}

/// What the host found out about the machine, once.
#[derive(Debug)]
struct Host {
    /// `PIDNS-PID-START`, unique to this host process on this machine.
    name: String,
    cgroups: Option<Base>,
    setpriv: Option<PathBuf>,
}

fn host() -> &'static Host {
    static HOST: OnceLock<Host> = OnceLock::new();
    HOST.get_or_init(|| {
        let ns = std::fs::read_link("/proc/self/ns/pid")
            .ok()
            .and_then(|l| {
                let l = l.to_string_lossy().into_owned();
                let digits: String = l.chars().filter(char::is_ascii_digit).collect();
                digits.parse::<u64>().ok()
            })
            .unwrap_or(0);
        let name = format!("{ns}-{}-{}", std::process::id(), tree::own_start());
        let forced = std::env::var(CONTAINMENT_VAR).is_ok_and(|v| v == "subreaper");
        let cgroups = if forced { None } else { Base::discover(&name) };
        if cgroups.is_none() {
            tree::become_subreaper();
        }
        Host {
            name,
            cgroups,
            setpriv: setpriv(),
        }
    })
}

/// How this host contains its programs (deciding it now if no program was started yet).
pub fn containment() -> Containment {
    if host().cgroups.is_some() {
        Containment::Cgroup
    } else {
        Containment::Subreaper
    }
}

/// `setpriv` if it is there and knows `--pdeathsig` (util-linux 2.33 and later).
fn setpriv() -> Option<PathBuf> {
    ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .map(PathBuf::from)
        .find(|path| {
            Command::new(path)
                .args(["--pdeathsig", "KILL", "--", "/bin/sh", "-c", ":"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
}

/// The tag of a new program: the host's name and a count.
fn next_tag() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}", host().name, COUNT.fetch_add(1, Ordering::Relaxed))
}

/// Where one program's processes are kept.
#[derive(Debug)]
pub(super) enum Container {
    Cgroup(Cgroup),
    Tree(Tree),
}

impl Container {
    /// A container for a program about to start, and its tag. A cgroup is made frozen: the program
    /// stops as soon as it joins it, before it `exec`s.
    pub(super) fn new() -> (Container, String) {
        let tag = next_tag();
        let container = match host().cgroups.as_ref().map(|base| base.create(&tag)) {
            Some(Ok(cgroup)) => Container::Cgroup(cgroup),
            _ => Container::Tree(Tree::new(tag.clone())),
        };
        (container, tag)
    }

    /// The command that starts the program at `path` in a process group of its own, under the data
    /// limit `data` (for `ulimit -d`): `/bin/sh` joins the cgroup (if there is one), sets the limit
    /// and `exec`s the program, through `setpriv --pdeathsig KILL` where it can. The program so keeps
    /// the shell's process id. Its streams are the caller's to set.
    pub(super) fn command(&self, path: &Path, data: &str) -> Command {
        let setpriv = host().setpriv.as_deref();
        let mut script = String::new();
        if matches!(self, Container::Cgroup(_)) {
            script.push_str("echo $$ > \"$1\" || exit 125; ");
        }
        script.push_str(&format!("ulimit -d {data}; "));
        script.push_str(match setpriv {
            Some(_) => "exec \"$2\" --pdeathsig KILL -- \"$0\"",
            None => "exec \"$0\"",
        });
        let procs = match self {
            Container::Cgroup(cgroup) => cgroup.procs(),
            Container::Tree(_) => PathBuf::new(),
        };
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(script)
            .arg(path)
            .arg(procs)
            .arg(setpriv.unwrap_or(Path::new("")));
        command
    }

    /// The program started as `pid`; it is paused (in a cgroup, it stops by itself on joining).
    pub(super) fn started(&mut self, pid: Pid) {
        if let Container::Tree(tree) = self {
            tree.started(pid);
        }
    }

    /// The file that counts the CPU time of every process of the program, where there is one.
    pub(super) fn cpu_stat(&self) -> Option<PathBuf> {
        match self {
            Container::Cgroup(cgroup) => Some(cgroup.cpu_stat()),
            Container::Tree(_) => None,
        }
    }

    pub(super) fn pause(&mut self) {
        match self {
            Container::Cgroup(cgroup) => cgroup.freeze(true),
            Container::Tree(tree) => tree.pause(),
        }
    }

    pub(super) fn resume(&mut self) {
        match self {
            Container::Cgroup(cgroup) => cgroup.freeze(false),
            Container::Tree(tree) => tree.resume(),
        }
    }

    /// Kills every process of the program, `child` (the program itself) included, and reaps those
    /// that are the host's to reap. Dropping the container then removes its cgroup.
    pub(super) fn kill(&mut self, child: &mut Child) {
        match self {
            Container::Cgroup(cgroup) => {
                // Orphans are reparented to the host only if it is a subreaper (which the host makes
                // itself only for the fallback); then they are its to reap.
                let orphans = if tree::is_subreaper() {
                    cgroup.members().into_iter().collect()
                } else {
                    Default::default()
                };
                cgroup.kill();
                // A shell that had not joined the cgroup yet has started nothing: killing it is
                // enough (the process group is not signalled: a program of another game could have
                // joined it). Should it have joined meanwhile, the second kill finds the rest.
                let _ = child.kill();
                let _ = child.wait();
                cgroup.kill();
                cgroup.wait_empty(Instant::now() + REAP_TIME);
                tree::reap(orphans, std::process::id() as i32);
            }
            Container::Tree(tree) => tree.kill(child),
        }
    }
}

/// A command and where to send the child it started.
type Job = (Command, mpsc::Sender<io::Result<Child>>);

/// Starts `command` on the host's spawner thread, which never ends (see the module doc), or on this
/// one if that thread cannot be had.
pub(super) fn spawn(mut command: Command) -> io::Result<Child> {
    static SPAWNER: OnceLock<Option<mpsc::Sender<Job>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (jobs, inbox) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("botbox-program-spawner".into())
            .spawn(move || {
                for (mut command, reply) in inbox {
                    let _ = reply.send(command.spawn());
                }
            })
            .ok()
            .map(|_| jobs)
    });
    let Some(jobs) = spawner else {
        return command.spawn();
    };
    let (reply, child) = mpsc::channel();
    match jobs.send((command, reply)) {
        Ok(()) => child
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the program spawner thread ended"))),
        Err(mpsc::SendError((mut command, _))) => command.spawn(),
    }
}

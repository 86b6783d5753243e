//! External programs ("program bots"): any executable plays, speaking lines of text on its standard
//! input and output, as in the 1997 contest Wormworld comes from. Wormworld programs speak the text
//! protocol of `docs/protocols/worms.md` (built on [`Process::exchange`] by `games::worms::encoding::text`);
//! every other game's programs speak JSON Lines (`docs/protocols/json-lines.md`,
//! [`Process::call`]), with the same JSON as WASM.
//!
//! The limits, as in the contest: [`Limits::move_time`] per answer, counted only while the program
//! runs, since **the program is paused whenever it is not its move** and resumed to read its input
//! and answer, and counted as the program's own time, which a busy machine does not change (the
//! `clock` module: the time it waited for a CPU is not counted, with a wall-clock backstop far above); a data limit ([`Limits::program_memory`], the process's `RLIMIT_DATA`, set by
//! `/bin/sh`'s `ulimit` before it `exec`s the program, since setting it in the child ourselves
//! would need `unsafe`); and `SIGKILL` when the instance is dropped, at the end of the game. A
//! crash, a timeout, garbage or a line over [`MAX_LINE`] is a [`Fault`].
//!
//! **Everything a program starts is paused and killed with it**, however it forks: a program that
//! double-forks a daemon, or whose child calls `setsid()` or `setpgid()`, leaves its process group,
//! but not its game. The host chooses once ([`containment`]) between two ways:
//!
//! - **A cgroup** ([`Containment::Cgroup`]) where the machine offers one: a cgroup2 hierarchy (on a
//!   hybrid system such as the CI machine, the one at `/sys/fs/cgroup/unified`) in which the host
//!   may make cgroups below its own, with `cgroup.freeze` and `cgroup.kill` (Linux 5.14). Each
//!   program gets one, made frozen; `/bin/sh` writes its own id to the cgroup's `cgroup.procs`
//!   before it `exec`s the program, so the program is in it (and stopped) before it runs a single
//!   instruction, and so is every process it ever starts: no fork leaves a cgroup. Pausing and
//!   resuming is one write to `cgroup.freeze` (a paused program shows as sleeping, `S`, not
//!   stopped); the end is a write to `cgroup.kill`, then the cgroup is removed once empty. Killed
//!   orphans are reparented to `init`, which reaps them. Cgroups the v1 hierarchies offer
//!   (`freezer`) are not used. A program running as root can move itself to another cgroup.
//! - **The fallback** ([`Containment::Subreaper`]), where no cgroup can be had (or when
//!   [`CONTAINMENT_VAR`] is `subreaper`): the program runs in a process group of its own, paused
//!   with `SIGSTOP` and resumed with `SIGCONT`; the host makes itself a child subreaper
//!   (`PR_SET_CHILD_SUBREAPER`), so that the program's orphans are reparented to it, and keeps each
//!   game's set of processes from `/proc`, signalling them with the group. A process belongs to the
//!   game if its parent does, or if it is a child of the host (an orphan) that is in the program's
//!   process group, carries the program's [`TAG_VAR`] in its environment, or was seen in an earlier
//!   sweep while its parent lived; another game's processes never match. The sweep costs one read
//!   of `/proc/loadavg` per pause while no process was created on the machine, and a look at the
//!   new process ids otherwise. At the end everything is stopped, killed, and reaped by the host.
//!   **What it cannot guarantee**: an orphan that was never seen with its parent (a daemon that
//!   double-forks within one move), left the program's process group and cleared its environment
//!   is lost to the game: nothing says where it came from. Such a process is neither paused nor
//!   killed.
//!
//! Either way, `setpriv --pdeathsig KILL` (util-linux) puts the parent-death signal on the program
//! just before its `exec`, so that a host that dies without dropping its instances (`SIGKILL`, an
//! abort) takes its programs with it; programs are started by one thread of the host that never
//! ends, since the signal follows the thread that started the program, not the process. A host that
//! dies leaves the programs' descendants, though: in cgroups, which the next host to start removes
//! (killing what is in them), or, in the fallback, as orphans of `init`.
//!
//! **A program is not sandboxed** the way Lua and WASM are: it runs with the host's user, working
//! directory and environment (plus [`SETUP_VAR`] and [`TAG_VAR`]), and can read and write files and
//! use the network. Run untrusted programs inside a container, as a user that is not root.

mod cgroup;
mod clock;
mod contain;
mod output;
mod tree;

use std::io::{self, Write};
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;
use serde::Serialize;

pub use clock::BACKSTOP;
use clock::{MoveClock, Overrun};
use contain::Container;
pub use contain::{CONTAINMENT_VAR, Containment, TAG_VAR, containment};
pub use output::MAX_LINE;
use output::{Output, Stderr};

use super::log::Log;
use super::{Answer, Fault, FaultKind, Limits, LoadError, Payload, Setup};

/// The environment variable that holds the setup as JSON (game, seed, seat, `--param`s).
pub const SETUP_VAR: &str = "BOTBOX_SETUP";
/// How long a program that closed its output gets to exit, so that its status can be reported, and
/// how long the host then waits for the rest of its standard error.
const EXIT_GRACE: Duration = Duration::from_millis(300);
/// Extra time for a program's first answer, which also pays for its start-up (an interpreter, a
/// runtime): one second, on top of the time per move.
pub const STARTUP_ALLOWANCE: Duration = Duration::from_secs(1);

/// An executable file, ready to be started once per game.
#[derive(Debug)]
pub struct Program {
    /// Absolute, so that `exec` never searches the `PATH` for it.
    path: PathBuf,
}

impl Program {
    pub fn new(path: &Path) -> Result<Program, LoadError> {
        let path = std::path::absolute(path).map_err(|error| LoadError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Ok(Program { path })
    }

    /// Starts the program for one game and pauses it at once; nothing is sent yet.
    pub fn instantiate(&self, setup: &Setup, limits: &Limits) -> Result<Process, Fault> {
        Process::spawn(&self.path, setup, limits)
    }
}

/// A running external program in one game: paused except while it answers.
#[derive(Debug)]
pub struct Process {
    child: Child,
    /// The program's process id, also its process group's.
    group: Pid,
    /// Holds every process the program starts: paused, resumed and killed together.
    container: Container,
    /// Non-blocking, so that a program that does not read its input cannot block the host.
    stdin: ChildStdin,
    answers: Receiver<Output>,
    stderr: Arc<Mutex<Stderr>>,
    /// Disconnected once standard error is read to its end.
    stderr_done: Receiver<()>,
    move_time: Duration,
    setup: Setup,
    /// Whether the JSON Lines `init` request was sent.
    initialised: bool,
    /// Whether the program answered once: its first answer gets [`STARTUP_ALLOWANCE`] more.
    answered: bool,
    running: bool,
    /// The program's own time in all its moves so far (see [`Process::time_used`]).
    used: Duration,
}

impl Process {
    fn spawn(path: &Path, setup: &Setup, limits: &Limits) -> Result<Process, Fault> {
        let load = |what: &str, e: &dyn std::fmt::Display| {
            Fault::new(FaultKind::Load, format!("{what} {}: {e}", path.display()))
        };
        let json = serde_json::to_string(setup).map_err(|e| load("encoding the setup of", &e))?;
        let (mut container, tag) = Container::new();
        let mut command = command(&container, path, limits);
        command.env(SETUP_VAR, json).env(TAG_VAR, tag);
        let mut child = contain::spawn(command).map_err(|e| load("cannot start", &e))?;
        let group = Pid::from_raw(child.id() as i32);
        // Paused before it has done more than start: it runs only when it is its move.
        container.started(group);
        let piped = "all three streams are piped";
        let stdin = child.stdin.take().expect(piped);
        let stdout = child.stdout.take().expect(piped);
        let stderr = child.stderr.take().expect(piped);
        let (answer_tx, answers) = mpsc::sync_channel(output::QUEUE);
        let (done_tx, stderr_done) = mpsc::channel();
        let shared = Arc::new(Mutex::new(Stderr {
            log: Log::new(limits.log_bytes),
            last: None,
        }));
        let (log, cap) = (shared.clone(), limits.log_bytes);
        // The readers end when the pipes close, which the kill at the end of the game makes sure of;
        // they are never joined, so nothing a program does can make dropping it hang.
        let readers = std::thread::Builder::new()
            .name("botbox-program-out".into())
            .spawn(move || output::read_answers(stdout, answer_tx))
            .and_then(|_| {
                std::thread::Builder::new()
                    .name("botbox-program-err".into())
                    .spawn(move || output::read_log(stderr, log, cap, done_tx))
            });
        // From here on, a failure drops the process, which kills the program.
        let process = Process {
            child,
            group,
            container,
            stdin,
            answers,
            stderr: shared,
            stderr_done,
            move_time: limits.move_time,
            setup: setup.clone(),
            initialised: false,
            answered: false,
            running: false,
            used: Duration::ZERO,
        };
        readers.map_err(|e| load("cannot start the reader threads of", &e))?;
        fcntl(
            process.stdin.as_raw_fd(),
            FcntlArg::F_SETFL(OFlag::O_NONBLOCK),
        )
        .map_err(|e| load("cannot set up the input of", &e))?;
        Ok(process)
    }

    /// The program's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Resumes the program, writes `message` (complete lines, each ending in `'\n'`), waits for one
    /// line of answer within the time per move, pauses the program again and returns the line
    /// without its line ending (`"\n"` or `"\r\n"`).
    pub fn exchange(&mut self, message: &str) -> Result<String, Fault> {
        self.expect_silence()?;
        let allowance = if self.answered {
            Duration::ZERO
        } else {
            STARTUP_ALLOWANCE
        };
        self.answered = true;
        let clock = self.clock(self.move_time + allowance);
        self.resume();
        let answer = self
            .write(message.as_bytes(), &clock)
            .and_then(|()| self.answer(&clock));
        self.used += clock.used();
        self.pause();
        answer
    }

    /// The program's own time in all its moves so far: the wall-clock time it was resumed for,
    /// less the time it waited for a CPU (see the `clock` module), or its CPU time if that is more.
    /// This is what the time per move limits.
    pub fn time_used(&self) -> Duration {
        self.used
    }

    fn clock(&self, allowed: Duration) -> MoveClock {
        MoveClock::start(self.group.as_raw(), self.container.cpu_stat(), allowed)
    }

    /// Writes `message` (complete lines) without waiting for an answer. The program stays paused
    /// unless the pipe is full; then it runs until it has read enough, within the time per move.
    pub fn send(&mut self, message: &str) -> Result<(), Fault> {
        let clock = self.clock(self.move_time);
        let sent = self.write(message.as_bytes(), &clock);
        if self.running {
            self.used += clock.used();
        }
        self.pause();
        sent
    }

    /// One JSON Lines request, `{"call":FUNCTION,"arg":ARG}`, and its answer decoded as `A`. The
    /// first call is preceded by `{"call":"init","arg":SETUP}`, whose answer line is not read.
    pub fn call<P: Payload, A: Answer>(&mut self, function: &str, arg: &P) -> Result<A, Fault> {
        if !self.initialised {
            self.initialised = true;
            let init = request("init", &self.setup)?;
            self.exchange(&init)?;
        }
        let line = self.exchange(&request(function, arg)?)?;
        serde_json::from_str(&line).map_err(|e| {
            Fault::new(
                FaultKind::BadOutput,
                format!(
                    "`{function}` answered {}",
                    super::payload::bad_answer::<A>(&quote(&line), &e)
                ),
            )
        })
    }

    /// The lines the program wrote to its standard error so far (capped, see [`Limits::log_bytes`]).
    pub fn log(&self) -> Vec<String> {
        self.lock_stderr().log.lines().to_vec()
    }

    /// How many lines [`Process::log`] holds.
    pub fn log_len(&self) -> usize {
        self.lock_stderr().log.line_count()
    }

    fn lock_stderr(&self) -> std::sync::MutexGuard<'_, Stderr> {
        self.stderr.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn resume(&mut self) {
        if !self.running {
            self.running = true;
            self.container.resume();
        }
    }

    fn pause(&mut self) {
        if self.running {
            self.running = false;
            self.container.pause();
        }
    }

    /// A line the program printed when it was not asked is a breach of the protocol (one answer per
    /// request); so is a closed output.
    fn expect_silence(&mut self) -> Result<(), Fault> {
        match self.answers.try_recv() {
            Err(TryRecvError::Empty) => Ok(()),
            Ok(Output::Line(line)) => Err(Fault::new(
                FaultKind::BadOutput,
                format!(
                    "printed {} when it was not asked (one line per request; log to stderr)",
                    quote(&String::from_utf8_lossy(&line))
                ),
            )),
            Ok(Output::TooLong) => Err(too_long()),
            Ok(Output::Closed) | Err(TryRecvError::Disconnected) => Err(self.crash()),
        }
    }

    /// Writes all of `bytes` within the time of `clock`, letting the program run when the pipe is
    /// full.
    fn write(&mut self, mut bytes: &[u8], clock: &MoveClock) -> Result<(), Fault> {
        while !bytes.is_empty() {
            match self.stdin.write(bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.resume();
                    self.wait_writable(clock)?;
                }
                // A closed pipe (EPIPE): the program exited or closed its input.
                Err(_) => return Err(self.crash()),
            }
        }
        Ok(())
    }

    fn wait_writable(&self, clock: &MoveClock) -> Result<(), Fault> {
        let left = clock
            .left()
            .map_err(|overrun| timeout("did not read its input", clock, overrun))?;
        let timeout = PollTimeout::try_from(left).unwrap_or(PollTimeout::MAX);
        let mut fds = [PollFd::new(self.stdin.as_fd(), PollFlags::POLLOUT)];
        // Woken early (a signal, or the pipe's far end closing), the next write tells what happened.
        let _ = poll(&mut fds, timeout);
        Ok(())
    }

    /// Waits for the answer within the time of `clock`, looking at the program's time used
    /// whenever the wall clock says it could be up.
    fn answer(&mut self, clock: &MoveClock) -> Result<String, Fault> {
        let received = loop {
            let left = clock
                .left()
                .map_err(|overrun| timeout("no answer", clock, overrun))?;
            match self.answers.recv_timeout(left) {
                Ok(output) => break output,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break Output::Closed,
            }
        };
        match received {
            Output::Line(bytes) => {
                let mut line = String::from_utf8(bytes).map_err(|e| {
                    Fault::new(
                        FaultKind::BadOutput,
                        format!(
                            "answered with a line that is not UTF-8: {}",
                            quote(&String::from_utf8_lossy(e.as_bytes()))
                        ),
                    )
                })?;
                if line.ends_with('\r') {
                    line.pop();
                }
                Ok(line)
            }
            Output::TooLong => Err(too_long()),
            Output::Closed => Err(self.crash()),
        }
    }

    /// The fault of a program whose pipes closed: how it ended, if it did, and its last line on
    /// standard error.
    fn crash(&self) -> Fault {
        // A paused program cannot exit now: only a running one gets time to.
        let grace = if self.running {
            EXIT_GRACE
        } else {
            Duration::ZERO
        };
        let how = match self.exit_status(grace) {
            Some(WaitStatus::Exited(_, code)) => format!("exited with status {code}"),
            Some(WaitStatus::Signaled(_, signal, _)) => format!("was killed by {signal}"),
            _ => "closed its output".to_string(),
        };
        let mut message = format!("the program {how}");
        if let Some(last) = &self.lock_stderr().last {
            message.push_str(&format!("; its last line on stderr: {}", quote(last)));
        }
        Fault::new(FaultKind::Crash, message)
    }

    /// Waits up to `grace` for the program to end and tells how it did, without reaping it (the
    /// process group stays valid until `Drop` kills it), then waits a little for its last words
    /// on standard error.
    fn exit_status(&self, grace: Duration) -> Option<WaitStatus> {
        let start = Instant::now();
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        loop {
            match waitid(Id::Pid(self.group), flags) {
                Ok(WaitStatus::StillAlive) if start.elapsed() < grace => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Ok(WaitStatus::StillAlive) | Err(_) => return None,
                Ok(status) => {
                    output::wait_drained(&self.stderr_done, EXIT_GRACE);
                    return Some(status);
                }
            }
        }
    }
}

impl Drop for Process {
    /// Kills the program and every process it started, and reaps those that are the host's. A
    /// paused process dies of `SIGKILL` as well; one that exited already is only reaped.
    fn drop(&mut self) {
        self.container.kill(&mut self.child);
    }
}

/// The command that starts the program at `path` in `container` and a process group of its own,
/// its three streams piped, under its data limit: `/bin/sh` sets the limit with `ulimit -d` (in KiB;
/// 0 is unlimited) and `exec`s the program, which so keeps the shell's process id.
fn command(container: &Container, path: &Path, limits: &Limits) -> Command {
    let data = match limits.program_memory >> 10 {
        0 => "unlimited".to_string(),
        kib => kib.to_string(),
    };
    let mut command = container.command(path, &data);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    command
}

/// One JSON Lines request.
fn request<P: Serialize + ?Sized>(function: &str, arg: &P) -> Result<String, Fault> {
    #[derive(Serialize)]
    struct Request<'a, P: ?Sized> {
        call: &'a str,
        arg: &'a P,
    }
    // JSON text never holds a raw newline (they are escaped in strings): one request, one line.
    let mut line = serde_json::to_string(&Request {
        call: function,
        arg,
    })
    .map_err(|e| Fault::new(FaultKind::Error, format!("encoding the request: {e}")))?;
    line.push('\n');
    Ok(line)
}

/// The fault of a move whose time ran out: `what` ("no answer") within the time per move, or (rarely)
/// within the wall-clock backstop.
fn timeout(what: &str, clock: &MoveClock, overrun: Overrun) -> Fault {
    let ms = clock.allowed().as_millis();
    let message = match overrun {
        Overrun::Own => format!("{what} within {ms} ms"),
        Overrun::Backstop => format!(
            "{what} within {} ms of wall-clock time (the backstop, {BACKSTOP} times the {ms} ms \
             allowed: the machine is overloaded, or the program's time could not be measured)",
            clock.allowed().as_millis() * u128::from(BACKSTOP)
        ),
    };
    Fault::new(FaultKind::Timeout, message)
}

fn too_long() -> Fault {
    Fault::new(
        FaultKind::BadOutput,
        format!("answered with a line longer than {MAX_LINE} bytes"),
    )
}

/// A program's line for a message: quoted, and cut to 200 characters.
pub fn quote(line: &str) -> String {
    const MAX: usize = 200;
    match line.char_indices().nth(MAX) {
        Some((end, _)) => format!("{:?}...", &line[..end]),
        None => format!("{line:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_one_line_of_json() {
        let setup = Setup::new("dice", 7, 1);
        assert_eq!(
            request("init", &setup).unwrap(),
            "{\"call\":\"init\",\"arg\":{\"game\":\"dice\",\"seed\":7,\"seat\":1}}\n"
        );
        let arg = serde_json::json!({"text": "two\nlines"});
        let line = request("choose_move", &arg).unwrap();
        assert_eq!(line.matches('\n').count(), 1, "{line}");
    }

    #[test]
    fn quotes_are_cut_to_200_characters() {
        assert_eq!(quote("0 left"), "\"0 left\"");
        let long = "é".repeat(300);
        assert_eq!(quote(&long), format!("{:?}...", "é".repeat(200)));
    }
}

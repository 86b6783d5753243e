//! A program's time per move, counted so that the machine's load does not change it.
//!
//! The time a move costs a program is the wall-clock time from its resumption to its answer, less
//! the time its process sat runnable but waiting for a CPU that a busy machine could not give it.
//! Linux counts that wait per task: the second field of `/proc/<pid>/schedstat` (nanoseconds spent
//! on a run queue). What is left is the program's own time: running on a CPU, and waiting for
//! anything it chose to wait for (`sleep`, a file, the network). So a program that sleeps past its
//! time faults at its time, a program that spins faults at its time, and an honest program on a
//! loaded machine is not charged for the load. (Measured on a 2-core machine beside 8 busy
//! processes: a move of 80 ms of CPU and a 50 ms sleep took 510–565 ms of wall time and was charged
//! 131–140 ms; 131 ms on a quiet machine.)
//!
//! Where the program is in a cgroup, its CPU time (`cpu.stat`'s `usage_usec`, every process and
//! thread it started included) is charged too, if it is more: a program that spins on several
//! threads pays for each.
//!
//! The program's own wait is read from its first process only: a program whose threads or children
//! do the work while that process waits for them is charged their waits for a CPU too (the
//! measure errs toward the wall clock, never below the program's CPU time). Where `schedstat` cannot
//! be read, the time is the wall clock's.
//!
//! A **wall-clock backstop** stays, at [`BACKSTOP`] times the time allowed: it catches only what the
//! measure cannot see. The multiple is that of the CPU-time backstop of Luau and WASM: a program
//! keeps its full time on a machine where it gets a tenth of a core (on 2 cores, beside about 19
//! busy processes).

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The wall-clock backstop, as a multiple of the time allowed for the move.
pub const BACKSTOP: u32 = 10;
/// The shortest wait between two looks at the time used: a program close to its time is looked at
/// again after this, not in a busy loop.
const MIN_WAIT: Duration = Duration::from_millis(1);

/// Why a move's time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Overrun {
    /// The program used its time.
    Own,
    /// The wall-clock backstop passed first.
    Backstop,
}

/// The time of one move, started when the program is resumed for it.
#[derive(Debug)]
pub(super) struct MoveClock {
    schedstat: PathBuf,
    cpu_stat: Option<PathBuf>,
    allowed: Duration,
    start: Instant,
    backstop: Instant,
    /// Nanoseconds the program had waited for a CPU when the move began.
    waited: u64,
    /// Microseconds of CPU time the program had used when the move began, where that can be read.
    cpu: Option<u64>,
}

impl MoveClock {
    /// Starts the clock of a move of `allowed` own time for the program whose first process is
    /// `pid`; `cpu_stat` is its cgroup's `cpu.stat`, if it has one.
    pub(super) fn start(pid: i32, cpu_stat: Option<PathBuf>, allowed: Duration) -> MoveClock {
        let schedstat = PathBuf::from(format!("/proc/{pid}/schedstat"));
        let waited = run_queue_wait(&schedstat).unwrap_or(0);
        let cpu = cpu_stat.as_deref().and_then(cpu_usage);
        let start = Instant::now();
        MoveClock {
            schedstat,
            cpu_stat,
            allowed,
            start,
            backstop: start + allowed * BACKSTOP,
            waited,
            cpu,
        }
    }

    /// The time allowed for the move.
    pub(super) fn allowed(&self) -> Duration {
        self.allowed
    }

    /// The program's own time in this move so far (see the module's doc).
    pub(super) fn used(&self) -> Duration {
        let wall = self.start.elapsed();
        let waited =
            run_queue_wait(&self.schedstat).map_or(0, |now| now.saturating_sub(self.waited));
        let own = wall.saturating_sub(Duration::from_nanos(waited));
        let cpu = match (self.cpu, self.cpu_stat.as_deref().and_then(cpu_usage)) {
            (Some(before), Some(now)) => Duration::from_micros(now.saturating_sub(before)),
            _ => Duration::ZERO,
        };
        own.max(cpu)
    }

    /// How long to wait before looking at the time again, or why it ran out.
    pub(super) fn left(&self) -> Result<Duration, Overrun> {
        let now = Instant::now();
        if now >= self.backstop {
            return Err(Overrun::Backstop);
        }
        let used = self.used();
        if used >= self.allowed {
            return Err(Overrun::Own);
        }
        // Own time passes at most as fast as the wall clock (for a single thread): waiting what is
        // left of it cannot overshoot by much.
        Ok((self.allowed - used).max(MIN_WAIT).min(self.backstop - now))
    }
}

/// The nanoseconds the task at `schedstat` has waited on a run queue.
fn run_queue_wait(schedstat: &std::path::Path) -> Option<u64> {
    let text = std::fs::read_to_string(schedstat).ok()?;
    text.split_whitespace().nth(1)?.parse().ok()
}

/// A cgroup's CPU time in microseconds, from its `cpu.stat`.
fn cpu_usage(cpu_stat: &std::path::Path) -> Option<u64> {
    let text = std::fs::read_to_string(cpu_stat).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("usage_usec "))?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sleeping_thread_is_charged_its_sleep() {
        // This process's own first thread: it sleeps, so its time is about the wall clock's.
        let clock = MoveClock::start(std::process::id() as i32, None, Duration::from_millis(50));
        assert!(clock.left().is_ok());
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(clock.left(), Err(Overrun::Own));
        assert!(clock.used() >= Duration::from_millis(50));
    }

    #[test]
    fn the_backstop_is_ten_times_the_time() {
        let clock = MoveClock::start(i32::MAX, None, Duration::from_millis(5));
        assert_eq!(clock.backstop - clock.start, Duration::from_millis(50));
    }
}

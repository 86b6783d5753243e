//! The time backstop for Lua and WASM: a shared timer thread raises a flag when a call has used more
//! than its time limit of **the calling thread's CPU time** (or, as a last resort, [`WALL_FACTOR`]
//! times the limit in wall time). Reading a flag costs about a nanosecond, so the Lua interrupt checks
//! it at every tick and WASM's epoch callback at every epoch.
//!
//! Why CPU time: the deterministic limits (Lua ticks, WASM fuel) must decide every fault they can. A
//! wall clock runs on while the thread waits for a core, so on a busy machine (8 other busy processes
//! on 2 cores) a 2 s wall clock fired before a 20,000,000-tick budget that costs about 0.5 s of CPU,
//! and the same endless loop ended as `timeout` one time and `budget` the next. The thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID` of the strategy's thread, read by the timer thread through the thread's
//! CPU clock id) does not advance while the thread waits, so the budget always comes first for code
//! the budget counts; the backstop decides only what the budget cannot see (long C library calls
//! that are not charged, the collector).
//!
//! Arming costs no system call: it stores a new generation number. The timer thread notices the new
//! generation at its next look and reads the thread's CPU clock then, so a limit is measured from at
//! most one [`TICK`] after the call began (0.25% of the default 2 s). The timer thread reads one clock
//! per armed deadline per tick.

use std::cell::Cell;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};
use std::time::{Duration, Instant};

use nix::time::{ClockId, clock_gettime};

/// How often the timer thread looks at the deadlines: the backstop's resolution.
const TICK: Duration = Duration::from_millis(5);

/// The last resort: a call that has not used its CPU time but has taken this many times its limit
/// in wall time (a thread that cannot get a core at all, or a clock that cannot be read) is stopped.
pub const WALL_FACTOR: u32 = 10;

static SLOTS: LazyLock<Mutex<Vec<Weak<Slot>>>> = LazyLock::new(|| {
    std::thread::Builder::new()
        .name("botbox-watchdog".into())
        .spawn(run)
        .expect("spawning the watchdog thread");
    Mutex::new(Vec::new())
});

#[derive(Debug)]
struct Slot {
    /// Calls armed so far: each call's generation number.
    calls: AtomicU64,
    /// The generation of the current call; 0 when disarmed.
    armed: AtomicU64,
    /// The generation whose limit passed.
    expired: AtomicU64,
    /// The current call's limit, in nanoseconds.
    limit: AtomicU64,
    /// The CPU clock of the thread that armed the deadline.
    clock: AtomicI32,
    /// The timer thread's own record: the generation it last saw and when (CPU and wall) it saw it.
    seen: Mutex<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    generation: u64,
    cpu: Duration,
    wall: Option<Instant>,
}

/// A reusable deadline owned by one strategy instance. The timer thread forgets it once it is dropped.
#[derive(Debug, Clone)]
pub struct Deadline {
    slot: Arc<Slot>,
}

impl Default for Deadline {
    fn default() -> Self {
        Self::new()
    }
}

thread_local! {
    /// This thread's CPU clock id, found once per thread.
    static CLOCK: Cell<Option<i32>> = const { Cell::new(None) };
}

/// The CPU-time clock of the calling thread, as an id any thread of the process can read
/// (Linux's `MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)`, what `pthread_getcpuclockid` returns).
fn this_thread_clock() -> i32 {
    CLOCK.with(|c| {
        if let Some(id) = c.get() {
            return id;
        }
        let tid = nix::unistd::gettid().as_raw();
        let id = ((!tid) << 3) | 4 | 2;
        c.set(Some(id));
        id
    })
}

fn cpu_time(clock: i32) -> Option<Duration> {
    clock_gettime(ClockId::from_raw(clock))
        .ok()
        .map(Duration::from)
}

impl Deadline {
    pub fn new() -> Deadline {
        let slot = Arc::new(Slot {
            calls: AtomicU64::new(0),
            armed: AtomicU64::new(0),
            expired: AtomicU64::new(0),
            limit: AtomicU64::new(u64::MAX),
            clock: AtomicI32::new(this_thread_clock()),
            seen: Mutex::new(Seen::default()),
        });
        SLOTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::downgrade(&slot));
        Deadline { slot }
    }

    /// Starts a call on this thread that may use `after` of the thread's CPU time.
    pub fn arm(&self, after: Duration) {
        let slot = &self.slot;
        slot.clock.store(this_thread_clock(), Ordering::Relaxed);
        slot.limit.store(
            after.as_nanos().min(u64::MAX as u128) as u64,
            Ordering::Relaxed,
        );
        let generation = slot.calls.fetch_add(1, Ordering::Relaxed) + 1;
        // Release: the timer thread that sees the generation sees the clock and the limit.
        slot.armed.store(generation, Ordering::Release);
    }

    /// Ends the call: the deadline can no longer fire.
    pub fn disarm(&self) {
        self.slot.armed.store(0, Ordering::Relaxed);
    }

    pub fn expired(&self) -> bool {
        let armed = self.slot.armed.load(Ordering::Relaxed);
        armed != 0 && self.slot.expired.load(Ordering::Relaxed) == armed
    }
}

fn run() {
    loop {
        std::thread::sleep(TICK);
        let slots: Vec<Arc<Slot>> = {
            let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
            slots.retain(|weak| weak.strong_count() > 0);
            slots.iter().filter_map(Weak::upgrade).collect()
        };
        for slot in slots {
            look(&slot);
        }
    }
}

/// One look at one deadline.
fn look(slot: &Slot) {
    let generation = slot.armed.load(Ordering::Acquire);
    if generation == 0 || slot.expired.load(Ordering::Relaxed) == generation {
        return;
    }
    let clock = slot.clock.load(Ordering::Relaxed);
    let limit = Duration::from_nanos(slot.limit.load(Ordering::Relaxed));
    let cpu = cpu_time(clock);
    let mut seen = slot.seen.lock().unwrap_or_else(|e| e.into_inner());
    if seen.generation != generation {
        *seen = Seen {
            generation,
            cpu: cpu.unwrap_or_default(),
            wall: Some(Instant::now()),
        };
        return;
    }
    let used_cpu = cpu.map(|c| c.saturating_sub(seen.cpu));
    let used_wall = seen.wall.map(|w| w.elapsed()).unwrap_or_default();
    let over = match used_cpu {
        Some(used) => used > limit || used_wall > limit.saturating_mul(WALL_FACTOR),
        // The clock cannot be read (the thread is gone): fall back to the wall clock.
        None => used_wall > limit,
    };
    if over {
        slot.expired.store(generation, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin_until(d: &Deadline, at_most: Duration) -> Duration {
        let start = Instant::now();
        while !d.expired() && start.elapsed() < at_most {
            std::hint::black_box((0..1000u64).sum::<u64>());
        }
        start.elapsed()
    }

    #[test]
    fn a_busy_call_expires_after_its_cpu_time_and_not_before() {
        let short = Deadline::new();
        let long = Deadline::new();
        short.arm(Duration::from_millis(50));
        long.arm(Duration::from_secs(3600));
        let took = spin_until(&short, Duration::from_secs(20));
        assert!(short.expired(), "expired after {took:?}");
        assert!(took >= Duration::from_millis(50));
        assert!(!long.expired());
    }

    #[test]
    fn time_spent_waiting_is_not_counted_until_the_last_resort() {
        let d = Deadline::new();
        d.arm(Duration::from_millis(100));
        // Sleeping uses no CPU: past the limit in wall time, the deadline has not expired...
        std::thread::sleep(Duration::from_millis(300));
        assert!(!d.expired());
        // ...until the wall clock passes WALL_FACTOR times the limit.
        std::thread::sleep(Duration::from_millis(100) * WALL_FACTOR + TICK * 4);
        assert!(d.expired());
    }

    #[test]
    fn a_disarmed_deadline_never_fires_and_a_new_call_starts_afresh() {
        let d = Deadline::new();
        d.arm(Duration::from_millis(1));
        spin_until(&d, Duration::from_secs(20));
        assert!(d.expired());
        d.disarm();
        assert!(!d.expired());
        d.arm(Duration::from_secs(3600));
        assert!(
            !d.expired(),
            "a new call does not inherit the last one's flag"
        );
        spin_until(&d, TICK * 6);
        assert!(!d.expired());
    }
}

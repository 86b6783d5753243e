//! The wall-clock backstop for Lua: a shared timer thread raises a flag when a call's deadline passes.
//! Reading a flag costs about a nanosecond, so the Lua interrupt checks it at every tick; reading the
//! clock there instead was measured to let a 2 s limit run to 15 s through slow library calls.
//! Arming a deadline reads the clock (about 20 ns through the vDSO) and makes two atomic stores. A
//! clock kept by the timer thread was tried and dropped: a starved timer thread makes it lag, and a
//! deadline armed from it fires early by the lag, which a short `--time-limit` would feel. (WASM uses
//! wasmtime's epochs for the same purpose.)

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};
use std::time::{Duration, Instant};

/// How often the timer thread looks at the deadlines: the backstop's resolution.
const TICK: Duration = Duration::from_millis(5);

static START: LazyLock<Instant> = LazyLock::new(Instant::now);

static SLOTS: LazyLock<Mutex<Vec<Weak<Slot>>>> = LazyLock::new(|| {
    std::thread::Builder::new()
        .name("botbox-watchdog".into())
        .spawn(run)
        .expect("spawning the watchdog thread");
    Mutex::new(Vec::new())
});

#[derive(Debug)]
struct Slot {
    /// Nanoseconds since START at which the current call expires; u64::MAX when disarmed.
    due: AtomicU64,
    expired: AtomicBool,
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

impl Deadline {
    pub fn new() -> Deadline {
        let slot = Arc::new(Slot {
            due: AtomicU64::new(u64::MAX),
            expired: AtomicBool::new(false),
        });
        SLOTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::downgrade(&slot));
        Deadline { slot }
    }

    /// Starts a call that must end within `after`.
    pub fn arm(&self, after: Duration) {
        self.slot.expired.store(false, Ordering::Relaxed);
        let due = (Instant::now() + after).duration_since(*START).as_nanos() as u64;
        self.slot.due.store(due, Ordering::Relaxed);
    }

    /// Ends the call: the deadline can no longer fire.
    pub fn disarm(&self) {
        self.slot.due.store(u64::MAX, Ordering::Relaxed);
    }

    pub fn expired(&self) -> bool {
        self.slot.expired.load(Ordering::Relaxed)
    }
}

fn run() {
    loop {
        std::thread::sleep(TICK);
        let now = START.elapsed().as_nanos() as u64;
        let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
        slots.retain(|weak| {
            let Some(slot) = weak.upgrade() else {
                return false;
            };
            if slot.due.load(Ordering::Relaxed) <= now {
                slot.expired.store(true, Ordering::Relaxed);
            }
            true
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_expires_after_its_time_and_not_before() {
        let short = Deadline::new();
        let long = Deadline::new();
        let start = Instant::now();
        short.arm(Duration::from_millis(20));
        long.arm(Duration::from_secs(3600));
        while !short.expired() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(short.expired());
        assert!(start.elapsed() >= Duration::from_millis(20));
        assert!(!long.expired());
    }

    #[test]
    fn a_disarmed_deadline_never_fires() {
        let d = Deadline::new();
        d.arm(Duration::from_millis(1));
        d.disarm();
        std::thread::sleep(TICK * 4);
        assert!(!d.expired());
    }
}

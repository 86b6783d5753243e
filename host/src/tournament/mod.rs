//! Running many games: a deterministic parallel runner and the summaries built on it.
//!
//! **Results do not depend on the thread count.** Every game is numbered and seeded by its number
//! alone ([`crate::games::derive_seed`]); threads only decide which game runs where, and results are
//! put back in game order before anything is summarised.

pub mod dice;
pub mod live;
pub mod runner;
pub mod setup;
pub mod shard;
pub mod sprt;
pub mod stats;
pub mod summary;
pub mod versus;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Set by [`stop`]: runs start no new game.
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every run in the process to start no new game (Ctrl-C): games in progress finish, and
/// [`run_indexed`] returns the results of games `0..k`, a prefix, so what was played is summarised as
/// a smaller run would be.
pub fn stop() {
    STOP.store(true, Ordering::Relaxed);
}

/// Whether [`stop`] was called.
pub fn stopped() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Native stack for game threads: Luau and wasmtime both recurse on it, and the wasm stack limit
/// (512 KiB) must stay well inside it.
pub const GAME_THREAD_STACK: usize = 64 << 20;

/// Runs `work(i)` for every `i` in `0..count` on `jobs` threads and returns the results in order.
/// `done` is called after each game (for a progress bar), from whichever thread played it. After
/// [`stop`], no game starts: the results are those of games `0..k` (every game taken is finished,
/// and games are taken in order).
pub fn run_indexed<T: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    done: impl Fn(&T) + Sync,
) -> Vec<T> {
    run_indexed_until(count, jobs, work, done, |_, _| false)
}

/// [`run_indexed`] that may stop early: `until(i, &result)` sees every result in index order (game
/// `i` only once games `0..i` are in, whichever thread finished first), and once it returns true
/// no game after `i` starts and the results are those of games `0..=i`. Games after `i` that were
/// already under way are finished and dropped, so where a run stops depends on the results alone,
/// never on `jobs`.
pub fn run_indexed_until<T: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    done: impl Fn(&T) + Sync,
    until: impl FnMut(usize, &T) -> bool + Send,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    // Games at or past `end` are not started: `count`, or one past the game `until` stopped at.
    let end = AtomicUsize::new(count);
    let ordered = Mutex::new(InOrder {
        seen: Vec::new(),
        waiting: BTreeMap::new(),
        until,
    });
    std::thread::scope(|scope| {
        for j in 0..jobs.clamp(1, count.max(1)) {
            std::thread::Builder::new()
                .name(format!("botbox-game-{j}"))
                .stack_size(GAME_THREAD_STACK)
                .spawn_scoped(scope, || {
                    loop {
                        if stopped() {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= end.load(Ordering::Relaxed) {
                            break;
                        }
                        let result = work(i);
                        done(&result);
                        let mut o = ordered.lock().unwrap_or_else(|e| e.into_inner());
                        o.waiting.insert(i, result);
                        if let Some(last) = o.advance(end.load(Ordering::Relaxed)) {
                            end.store(last + 1, Ordering::Relaxed);
                        }
                    }
                })
                .expect("spawning a game thread");
        }
    });
    let mut o = ordered.into_inner().unwrap_or_else(|e| e.into_inner());
    // Games are taken in order and every game taken is finished, so what was played is a prefix,
    // all of it in `seen`; games past the one `until` stopped at are dropped.
    o.seen.truncate(end.into_inner());
    o.seen
}

/// The results of [`run_indexed_until`] as they come in, and how far they were seen in order.
struct InOrder<T, U> {
    /// The results of games `0..seen.len()`, each shown to `until`.
    seen: Vec<T>,
    /// Results that came before an earlier game's, by game number.
    waiting: BTreeMap<usize, T>,
    until: U,
}

impl<T, U: FnMut(usize, &T) -> bool> InOrder<T, U> {
    /// Shows `until` the results that are now in order, below `end`; the game it stopped at, if it
    /// did.
    fn advance(&mut self, end: usize) -> Option<usize> {
        while self.seen.len() < end {
            let i = self.seen.len();
            let result = self.waiting.remove(&i)?;
            let stop = (self.until)(i, &result);
            self.seen.push(result);
            if stop {
                return Some(i);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_order_whatever_the_thread_count() {
        for jobs in [1, 2, 7, 100] {
            let out = run_indexed(50, jobs, |i| i * i, |_| {});
            assert_eq!(
                out,
                (0..50).map(|i| i * i).collect::<Vec<_>>(),
                "jobs {jobs}"
            );
        }
        assert!(run_indexed(0, 4, |i| i, |_| {}).is_empty());
    }

    #[test]
    fn a_run_stops_after_the_first_game_until_accepts_in_order_whatever_the_thread_count() {
        // Games take longer the lower their number, so threads finish out of order; the run stops
        // at the first multiple of 7 from 10 on, as seen in order.
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let out = run_indexed_until(
                100,
                jobs,
                |i| {
                    std::thread::sleep(std::time::Duration::from_micros(((100 - i) * 20) as u64));
                    i
                },
                |_| {},
                |i, &r| {
                    seen.push((i, r));
                    i >= 10 && r % 7 == 0
                },
            );
            assert_eq!(out, (0..=14).collect::<Vec<_>>(), "jobs {jobs}");
            let expected: Vec<(usize, usize)> = (0..=14).map(|i| (i, i)).collect();
            assert_eq!(seen, expected, "jobs {jobs}: every result once, in order");
        }
    }
}

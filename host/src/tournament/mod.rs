//! Running many games: a deterministic parallel runner and the summaries built on it.
//!
//! **Results do not depend on the thread count.** Every game is numbered and seeded by its number
//! alone ([`crate::games::derive_seed`]); threads only decide which game runs where, and results are
//! put back in game order before anything is summarised.

pub mod dice;
pub mod hosted;
pub mod live;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod summary;
pub mod versus;

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
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(count));
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
                        if i >= count {
                            break;
                        }
                        let result = work(i);
                        done(&result);
                        results
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((i, result));
                    }
                })
                .expect("spawning a game thread");
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
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
}

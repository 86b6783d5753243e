//! The limits every call into strategy code runs under.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

/// Limits for one strategy. The deterministic ones (`fuel`, `lua_budget`, `memory`) decide every
/// ordinary outcome, so a game replays exactly; `wall` is a backstop for work they do not count.
/// External programs have limits of their own, `move_time` and `program_memory`: nothing about a
/// process is deterministic, so for them the clock is the rule, as in the 1997 contest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// WASM fuel per decision (most instructions cost 1); 0 turns metering off (wall clock only).
    pub fuel: u64,
    /// Luau interrupt ticks per decision (a tick at every call and loop iteration).
    pub lua_budget: u64,
    /// Memory cap in bytes (WASM linear memory; the Lua heap).
    pub memory: usize,
    /// The time backstop per decision: CPU time of the strategy's thread (a last resort at ten times
    /// this in wall time; `runtime::watchdog`). Far above what the budget and fuel cost (20,000,000
    /// ticks of the tightest Lua loop take about 0.5 s, 2,000,000,000 fuel of the tightest WASM
    /// loop about 4.5 s), so the deterministic limits decide every fault they can.
    #[serde(serialize_with = "millis")]
    pub wall: Duration,
    /// At most this many bytes of a strategy's log are kept per game.
    pub log_bytes: usize,
    /// Time per move for external programs, counted while the program runs (it is paused otherwise).
    #[serde(serialize_with = "millis")]
    pub move_time: Duration,
    /// An external program's data limit in bytes (`RLIMIT_DATA`: its heap and other private writable
    /// memory, not its code or shared libraries); python3 needs about 10 MiB to start.
    pub program_memory: usize,
    /// How long compiling a WASM module at load may take before it is refused (`LoadError::TooCostly`;
    /// the caps on a module's shape come first, see `runtime::wasm`); zero waits without a limit.
    #[serde(serialize_with = "millis")]
    pub compile_time: Duration,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: 2_000_000_000,
            lua_budget: 20_000_000,
            memory: 32 << 20,
            wall: Duration::from_secs(10),
            log_bytes: 64 << 10,
            move_time: Duration::from_secs(2),
            program_memory: 256 << 20,
            compile_time: Duration::from_secs(5),
        }
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fuel {} per decision (wasm), budget {} ticks per decision (lua), memory {} MiB, time limit {} ms of CPU per decision, log {} KiB per game, \
             programs {} ms per move and {} MiB of data, compiling wasm {} ms at most",
            self.fuel,
            self.lua_budget,
            self.memory >> 20,
            self.wall.as_millis(),
            self.log_bytes >> 10,
            self.move_time.as_millis(),
            self.program_memory >> 20,
            self.compile_time.as_millis()
        )
    }
}

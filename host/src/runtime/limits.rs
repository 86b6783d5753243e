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
    /// Wall-clock backstop per decision.
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
            wall: Duration::from_secs(2),
            log_bytes: 64 << 10,
            move_time: Duration::from_secs(2),
            program_memory: 256 << 20,
        }
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fuel {} per decision (wasm), budget {} ticks per decision (lua), memory {} MiB, wall clock {} ms per decision, log {} KiB per game, \
             programs {} ms per move and {} MiB of data",
            self.fuel,
            self.lua_budget,
            self.memory >> 20,
            self.wall.as_millis(),
            self.log_bytes >> 10,
            self.move_time.as_millis(),
            self.program_memory >> 20
        )
    }
}

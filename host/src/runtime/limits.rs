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
    /// Time per move for external programs: their own time while they run (they are paused
    /// otherwise), not the time a busy machine kept them waiting for a CPU (`runtime::program`).
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

/// The limits as people write them, each one optional and in the units of the command line and of
/// tournament files (MiB, milliseconds, KiB): **one type** for the `--fuel`, `--memory`, ... flags of
/// every subcommand (clap), the `[limits]` table of a tournament file (serde, with `memory_mib`,
/// `time_limit_ms`, ... as keys), and what a run records. [`LimitSpec::apply`] is the one place
/// they become [`Limits`]; a field left out keeps the value it is applied to (the defaults, or a
/// tournament file's limits under the command line's).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct LimitSpec {
    /// WASM fuel per decision (most instructions cost 1); 0 turns metering off [default: 2000000000]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuel: Option<u64>,
    /// Lua instruction budget per decision, in interrupt ticks (calls and loop iterations) [default: 20000000]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lua_budget: Option<u64>,
    /// Memory cap per strategy per game, in MiB [default: 32]
    #[arg(long = "memory", value_name = "MIB")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_mib: Option<usize>,
    /// Time backstop per decision: CPU time of the strategy's thread, in milliseconds [default: 10000]
    #[arg(long = "time-limit", value_name = "MS")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_limit_ms: Option<u64>,
    /// Time per move for external programs, in milliseconds: the program's own time, not time
    /// waiting for a CPU [default: 2000]
    #[arg(long = "move-time", value_name = "MS")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_time_ms: Option<u64>,
    /// Data memory limit of an external program (RLIMIT_DATA), in MiB [default: 256]
    #[arg(long = "program-memory", value_name = "MIB")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program_memory_mib: Option<usize>,
    /// Time allowed for compiling a WASM module at load, in milliseconds; 0 waits without a limit [default: 5000]
    #[arg(long = "compile-time", value_name = "MS")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_time_ms: Option<u64>,
    /// The log kept per strategy per game, in KiB [default: 64]
    #[arg(long = "log", value_name = "KIB")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_kib: Option<usize>,
}

impl LimitSpec {
    /// `base` with every limit this spec gives.
    pub fn apply(&self, base: &Limits) -> Limits {
        let ms = Duration::from_millis;
        Limits {
            fuel: self.fuel.unwrap_or(base.fuel),
            lua_budget: self.lua_budget.unwrap_or(base.lua_budget),
            memory: self.memory_mib.map_or(base.memory, |m| m << 20),
            wall: self.time_limit_ms.map_or(base.wall, ms),
            log_bytes: self.log_kib.map_or(base.log_bytes, |k| k << 10),
            move_time: self.move_time_ms.map_or(base.move_time, ms),
            program_memory: self
                .program_memory_mib
                .map_or(base.program_memory, |m| m << 20),
            compile_time: self.compile_time_ms.map_or(base.compile_time, ms),
        }
    }

    /// The default limits with this spec's.
    pub fn limits(&self) -> Limits {
        self.apply(&Limits::default())
    }

    /// This spec with `over`'s limits where it gives them (the command line over a file).
    pub fn and(&self, over: &LimitSpec) -> LimitSpec {
        LimitSpec {
            fuel: over.fuel.or(self.fuel),
            lua_budget: over.lua_budget.or(self.lua_budget),
            memory_mib: over.memory_mib.or(self.memory_mib),
            time_limit_ms: over.time_limit_ms.or(self.time_limit_ms),
            move_time_ms: over.move_time_ms.or(self.move_time_ms),
            program_memory_mib: over.program_memory_mib.or(self.program_memory_mib),
            compile_time_ms: over.compile_time_ms.or(self.compile_time_ms),
            log_kib: over.log_kib.or(self.log_kib),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_spec_gives_the_defaults_and_each_field_its_limit() {
        assert_eq!(LimitSpec::default().limits(), Limits::default());
        let spec = LimitSpec {
            fuel: Some(7),
            memory_mib: Some(3),
            time_limit_ms: Some(250),
            log_kib: Some(2),
            ..LimitSpec::default()
        };
        let l = spec.limits();
        assert_eq!(
            (l.fuel, l.memory, l.wall, l.log_bytes),
            (7, 3 << 20, Duration::from_millis(250), 2048)
        );
        assert_eq!(l.lua_budget, Limits::default().lua_budget);
        let over = LimitSpec {
            fuel: Some(9),
            ..LimitSpec::default()
        };
        assert_eq!(spec.and(&over).fuel, Some(9));
        assert_eq!(spec.and(&over).memory_mib, Some(3));
    }

    #[test]
    fn the_help_states_the_defaults_the_limits_have() {
        use clap::CommandFactory;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            spec: LimitSpec,
        }
        let help = Cli::command().render_long_help().to_string();
        // Lines wrap where the terminal ends: compare with the white space folded.
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let d = Limits::default();
        for default in [
            d.fuel.to_string(),
            d.lua_budget.to_string(),
            (d.memory >> 20).to_string(),
            d.wall.as_millis().to_string(),
            d.move_time.as_millis().to_string(),
            (d.program_memory >> 20).to_string(),
            d.compile_time.as_millis().to_string(),
            (d.log_bytes >> 10).to_string(),
        ] {
            assert!(
                help.contains(&format!("[default: {default}]")),
                "{default} in {help}"
            );
        }
    }

    #[test]
    fn a_file_spells_the_limits_with_their_units() {
        let spec: LimitSpec =
            toml::from_str("fuel = 5\nmemory_mib = 8\ntime_limit_ms = 100\n").unwrap();
        assert_eq!(spec.limits().memory, 8 << 20);
        let err = toml::from_str::<LimitSpec>("memory = 8\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("memory_mib"), "{err}");
    }
}

//! The flags shared by every subcommand that runs strategies: limits and strategy parameters.

use std::time::Duration;

use botbox::runtime::Limits;

#[derive(Debug, Clone, clap::Args)]
pub struct LimitArgs {
    /// WASM fuel per decision (most instructions cost 1); 0 turns metering off, leaving the wall clock
    #[arg(long, default_value_t = Limits::default().fuel, value_name = "N")]
    fuel: u64,
    /// Lua instruction budget per decision, in interrupt ticks (calls and loop iterations)
    #[arg(long, default_value_t = Limits::default().lua_budget, value_name = "N")]
    lua_budget: u64,
    /// Memory cap per strategy per game, in MiB
    #[arg(long, default_value_t = Limits::default().memory >> 20, value_name = "MIB")]
    memory: usize,
    /// Wall-clock backstop per decision, in milliseconds
    #[arg(long, default_value_t = Limits::default().wall.as_millis() as u64, value_name = "MS")]
    time_limit: u64,
    /// Time per move for external programs, in milliseconds, counted while the program runs
    #[arg(long, default_value_t = Limits::default().move_time.as_millis() as u64, value_name = "MS")]
    move_time: u64,
    /// Data memory limit of an external program (RLIMIT_DATA), in MiB
    #[arg(long, default_value_t = Limits::default().program_memory >> 20, value_name = "MIB")]
    program_memory: usize,
    /// Time allowed for compiling a WASM module at load, in milliseconds; 0 waits without a limit
    #[arg(long, default_value_t = Limits::default().compile_time.as_millis() as u64, value_name = "MS")]
    compile_time: u64,
    /// A parameter for the strategy's setup, KEY=VALUE (VALUE read as JSON if it parses, else as text); repeatable
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    params: Vec<(String, serde_json::Value)>,
}

fn parse_param(text: &str) -> Result<(String, serde_json::Value), String> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, got {text:?}"))?;
    let value = serde_json::from_str(value)
        .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
    Ok((key.to_string(), value))
}

impl LimitArgs {
    /// The flags that give `limits`, without parameters.
    pub fn from_limits(limits: &Limits) -> LimitArgs {
        LimitArgs {
            fuel: limits.fuel,
            lua_budget: limits.lua_budget,
            memory: limits.memory >> 20,
            time_limit: limits.wall.as_millis() as u64,
            move_time: limits.move_time.as_millis() as u64,
            program_memory: limits.program_memory >> 20,
            compile_time: limits.compile_time.as_millis() as u64,
            params: Vec::new(),
        }
    }

    pub fn params(&self) -> botbox::runtime::Params {
        self.params.iter().cloned().collect()
    }

    pub fn limits(&self) -> Limits {
        Limits {
            fuel: self.fuel,
            lua_budget: self.lua_budget,
            memory: self.memory << 20,
            wall: Duration::from_millis(self.time_limit),
            move_time: Duration::from_millis(self.move_time),
            program_memory: self.program_memory << 20,
            compile_time: Duration::from_millis(self.compile_time),
            ..Limits::default()
        }
    }
}

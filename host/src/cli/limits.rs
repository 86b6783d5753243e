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
    pub fn params(&self) -> botbox::runtime::Params {
        self.params.iter().cloned().collect()
    }

    pub fn limits(&self) -> Limits {
        Limits {
            fuel: self.fuel,
            lua_budget: self.lua_budget,
            memory: self.memory << 20,
            wall: Duration::from_millis(self.time_limit),
            ..Limits::default()
        }
    }
}

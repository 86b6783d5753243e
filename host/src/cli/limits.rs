//! The flags shared by every subcommand that runs strategies: limits and strategy parameters.

use crate::runtime::{LimitSpec, Limits};

#[derive(Debug, Clone, clap::Args)]
pub struct LimitArgs {
    /// The limits (`runtime::LimitSpec`: the same type as a tournament file's `[limits]`).
    #[command(flatten)]
    spec: LimitSpec,
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
    /// The flags that give `spec`, without parameters.
    pub fn from_spec(spec: LimitSpec) -> LimitArgs {
        LimitArgs {
            spec,
            params: Vec::new(),
        }
    }

    pub fn params(&self) -> crate::runtime::Params {
        self.params.iter().cloned().collect()
    }

    pub fn limits(&self) -> Limits {
        self.spec.limits()
    }
}

//! `botbox merge`: combine the parts of a sharded tournament into the whole run's standings.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::tournament::runner::Report;
use crate::tournament::shard;
use anyhow::Context;

/// Merge the JSON reports of a tournament played in shards (--shard K/N) into one
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox tournament worms --players strategies/lua/worms/*.lua --maps examples/worms/ --shard 1/4 --json part-1.json
  ... (parts 2/4 to 4/4, on any machines) ...
  botbox merge part-*.json --json standings.json

The merged report is byte for byte the report of the same tournament played whole: a game's result
depends only on the configuration, its number and the strategies' bytes. Parts from different
configurations or strategy versions, a missing or repeated shard, or a part with games missing are
refused. See docs/sharding.md for Slurm job arrays and Kubernetes indexed Jobs.")]
pub struct Args {
    /// The parts' JSON reports (--json of each shard), in any order
    #[arg(required = true, value_name = "PART")]
    parts: Vec<PathBuf>,
    /// Write the merged report as JSON to this file
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    super::prepare_output(args.json.as_deref())?;
    let parts = args
        .parts
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            serde_json::from_str::<Report>(&text).map_err(|e| {
                anyhow::anyhow!(
                    "{}:{}:{}: not a tournament report: {e}",
                    path.display(),
                    e.line(),
                    e.column()
                )
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let names: Vec<String> = args.parts.iter().map(|p| p.display().to_string()).collect();
    let report = shard::merge(parts).with_context(|| {
        format!(
            "merging {} (parts numbered in this order)",
            names.join(", ")
        )
    })?;
    super::print_report(&super::run::render(&report))?;
    if let Some(path) = &args.json {
        super::write_json(path, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

//! `botbox schemas`: print, write or check the JSON Schemas of the wire types.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Write or check the JSON Schemas of observations, actions and set-up (the files in schemas/)
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox schemas                     # list the schemas
  botbox schemas --write schemas     # regenerate schemas/ after changing a wire type
  botbox schemas --check schemas     # exit 1 if schemas/ is stale")]
pub struct Args {
    /// Write every schema into this directory
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    write: Option<PathBuf>,
    /// Check that this directory holds the current schemas
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(dir) = args.write {
        crate::schema::write_all(&dir)
            .with_context(|| format!("writing schemas into {}", dir.display()))?;
        println!(
            "wrote {} schemas into {}",
            crate::schema::all().len(),
            dir.display()
        );
    } else if let Some(dir) = args.check {
        let stale = crate::schema::stale(&dir);
        if !stale.is_empty() {
            println!("stale in {}: {}", dir.display(), stale.join(", "));
            return Ok(ExitCode::from(1));
        }
        println!("{} is up to date", dir.display());
    } else {
        for (name, _) in crate::schema::all() {
            println!("{name}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

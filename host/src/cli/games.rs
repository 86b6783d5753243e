//! `botbox games`: the registered games, their seats, the functions a strategy answers, and their
//! variants.

use std::process::ExitCode;

use crate::games::registry;

/// List the games botbox hosts, with their seat counts, strategy functions and variants
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox games
  botbox games --json | jq '.[].name'")]
pub struct Args {
    /// Print the list as JSON instead of a table
    #[arg(long)]
    json: bool,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    if args.json {
        let list: Vec<serde_json::Value> = registry::all()
            .iter()
            .map(|g| {
                serde_json::json!({
                    "name": g.name(),
                    "title": g.title(),
                    "seats": g.seats(),
                    "functions": g.functions(),
                    "variants": g.variants(),
                    "bots": g.info().bots,
                    // The languages `botbox new` has a starter kit in for the game.
                    "kits": super::new::Lang::ALL
                        .iter()
                        .filter(|l| l.starter(&g.info().templates).is_some())
                        .map(|l| l.flag())
                        .collect::<Vec<_>>(),
                })
            })
            .collect();
        super::print_report(&serde_json::to_string_pretty(&list)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = super::table(vec!["game", "what it is", "seats", "functions", "variants"]);
    for g in registry::all() {
        let variants: Vec<String> = g.variants().into_iter().map(|v| v.name).collect();
        t.add_row(vec![
            g.name().to_string(),
            g.title().to_string(),
            g.seats().to_string(),
            g.functions().join(", "),
            variants.join(", "),
        ]);
    }
    super::print_report(&format!(
        "{t}\nThe first variant is the default.\n`botbox new <game> <dir> --lang L` writes a starter kit \
         (L: lua, rust, c, zig,\nassemblyscript or wat); `botbox check <game> <bot>` plays a \
         game with your bot."
    ))?;
    Ok(ExitCode::SUCCESS)
}

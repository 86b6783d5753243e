//! JSON Schemas of the wire types, generated from the Rust types the SDK shares with the host and
//! written to `schemas/` (`botbox schemas --write schemas`). A test fails when the files are stale.

use std::path::Path;

use botbox_sdk::Setup;
use schemars::schema_for;

use crate::games::registry;

/// Every published schema: its file name and its text. The set-up, then each registered game's
/// wire types in the registry's order ([`crate::games::contract::WireDecision`]).
pub fn all() -> Vec<(String, String)> {
    let mut schemas = vec![("setup.json".to_string(), schema_for!(Setup))];
    for game in registry::all() {
        for decision in game.info().wire {
            match decision.action {
                Some(action) => {
                    schemas.push((
                        format!("{}.observation.json", decision.stem),
                        (decision.observation)(),
                    ));
                    schemas.push((format!("{}.action.json", decision.stem), action()));
                }
                None => schemas.push((format!("{}.json", decision.stem), (decision.observation)())),
            }
        }
    }
    schemas
        .into_iter()
        .map(|(name, schema)| {
            (
                name,
                serde_json::to_string_pretty(&schema).expect("schemas serialize") + "\n",
            )
        })
        .collect()
}

/// Writes every schema into `dir`.
pub fn write_all(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in all() {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(())
}

/// The schemas whose file in `dir` is missing or differs from the types.
pub fn stale(dir: &Path) -> Vec<String> {
    all()
        .into_iter()
        .filter(|(name, text)| {
            std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(text.as_str())
        })
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_schemas_in_the_repository_are_up_to_date() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
        let stale = super::stale(&dir);
        assert!(
            stale.is_empty(),
            "stale schemas {stale:?}: run `cargo run -- schemas --write schemas`"
        );
    }
}

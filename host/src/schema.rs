//! JSON Schemas of the wire types, generated from the Rust types the SDK shares with the host and
//! written to `schemas/` (`botbox schemas --write schemas`). A test fails when the files are stale.

use std::path::Path;

use botbox_sdk::{Setup, bs, connect4, dice, g2048, worms};
use schemars::schema_for;

/// Every published schema: its file name and its text.
pub fn all() -> Vec<(&'static str, String)> {
    let schemas = [
        ("setup.json", schema_for!(Setup)),
        ("2048.observation.json", schema_for!(g2048::Observation)),
        ("2048.action.json", schema_for!(g2048::Direction)),
        ("worms.observation.json", schema_for!(worms::Observation)),
        ("worms.action.json", schema_for!(worms::Action)),
        ("dice.observation.json", schema_for!(dice::Observation)),
        ("dice.action.json", schema_for!(dice::Action)),
        ("bs.play.observation.json", schema_for!(bs::PlayObservation)),
        ("bs.play.action.json", schema_for!(bs::PlayAction)),
        ("bs.call.observation.json", schema_for!(bs::CallObservation)),
        ("bs.call.action.json", schema_for!(bs::CallAction)),
        ("bs.event.json", schema_for!(bs::Event)),
        (
            "connect4.observation.json",
            schema_for!(connect4::Observation),
        ),
        ("connect4.action.json", schema_for!(connect4::Action)),
    ];
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
pub fn stale(dir: &Path) -> Vec<&'static str> {
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

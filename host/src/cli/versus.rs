//! A game played through the contract (`tournament::versus`) over the variants given: what
//! `match`, `tournament` and tournament files play for every two-player game without a driver of
//! its own.

use crate::games::contract::{Rules, Variant};
use crate::games::registry;
use crate::tournament::versus::Versus;
use anyhow::Context;

/// The registered game over the variants given (names or files), or its default.
pub fn duel(game: &str, given: &[String], openings: u32, seed: u64) -> anyhow::Result<Versus> {
    let rules: &'static dyn Rules = registry::find(game).map_err(anyhow::Error::msg)?;
    let variants = if given.is_empty() {
        vec![registry::default_variant(rules)]
    } else {
        given
            .iter()
            .map(|v| variant(v))
            .collect::<anyhow::Result<_>>()?
    };
    Versus::new(rules, variants, openings, seed).map_err(|e| anyhow::anyhow!("{game}: {e}"))
}

/// A variant by name, or read from a file when one of that name exists.
pub fn variant(given: &str) -> anyhow::Result<Variant> {
    let path = std::path::Path::new(given);
    if !path.is_file() {
        return Ok(Variant::named(given));
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path
        .file_stem()
        .map_or_else(|| given.to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Variant {
        name,
        text: Some(text),
    })
}

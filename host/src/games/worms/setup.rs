//! How Wormworld is set up for a run (its [`SetUp`], named by the registry): its maps, read from
//! files or directories of `.txt` maps (`--map`), their turn limits overridden by `--turns`, and
//! random openings; the league plays every bundled map.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;

use super::Map;
use crate::games::contract::{Rules, Variant};
use crate::tournament::runner::Entry;
use crate::tournament::setup::{self, Game, Options};
use crate::tournament::versus::Versus;

/// Random moves that open each league game of Wormworld, drawn from the job's seed: two games of
/// one pairing on one map are different games even between bots that never use their seed.
pub const LADDER_OPENING: u32 = 6;

/// Wormworld's set-up.
#[derive(Debug)]
pub struct SetUp;

impl setup::SetUp for SetUp {
    fn reads(&self, _rules: &dyn Rules) -> Vec<&'static str> {
        vec!["--map", "--turns", "--openings"]
    }

    fn build(
        &self,
        rules: &'static dyn Rules,
        options: &Options,
        strategies: Vec<Entry>,
    ) -> anyhow::Result<(Game, Vec<Entry>)> {
        let maps = load_maps_from(&options.maps, options.turns)?;
        let maps = maps.iter().map(NamedMap::variant).collect();
        let game = Versus::new(rules, maps, options.openings, options.seed);
        Ok((Arc::new(game.map_err(anyhow::Error::msg)?), strategies))
    }

    fn file_key(&self) -> &'static str {
        "maps"
    }

    /// Every bundled map (the variant picks one), opened by [`LADDER_OPENING`] random moves.
    fn ladder(&self, rules: &'static dyn Rules, seed: u64) -> anyhow::Result<Game> {
        let maps = rules
            .variants()
            .iter()
            .map(|v| Variant::named(&v.name))
            .collect();
        let versus = Versus::new(rules, maps, LADDER_OPENING, seed)
            .map_err(|e| anyhow::anyhow!("worms: {e}"))?;
        Ok(Arc::new(versus))
    }
}

/// A map with the name it is shown under (its file stem).
#[derive(Clone, Debug)]
pub struct NamedMap {
    pub name: String,
    pub map: Map,
}

impl NamedMap {
    /// The map as Wormworld's contract takes it: its name, and its text (the turn limit given on
    /// the command line included).
    pub fn variant(&self) -> Variant {
        Variant {
            name: self.name.clone(),
            text: Some(self.map.to_string()),
        }
    }
}

/// Reads the maps at `paths` (files, or directories of `.txt` maps), with `turns` overriding their
/// turn limits.
pub fn load_maps_from(paths: &[PathBuf], turns: Option<u32>) -> anyhow::Result<Vec<NamedMap>> {
    if paths.is_empty() {
        anyhow::bail!("no maps: give at least one map file or directory");
    }
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("reading {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "txt"))
                .collect();
            found.sort();
            if found.is_empty() {
                anyhow::bail!("{}: no .txt maps in this directory", path.display());
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files
        .iter()
        .map(|file| {
            let map = read_map(file)?;
            let map = match turns {
                Some(turns) => map.with_turns(turns),
                None => map,
            };
            let name = file.file_stem().map_or_else(
                || file.display().to_string(),
                |s| s.to_string_lossy().into(),
            );
            Ok(NamedMap { name, map })
        })
        .collect()
}

/// Reads one map; an error names the file, line and column.
pub fn read_map(file: &Path) -> anyhow::Result<Map> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    Map::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}:{}:{}: {}", file.display(), e.line, e.column, e.problem))
}

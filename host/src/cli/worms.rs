//! Wormworld's maps as the commands read them, and `botbox match worms --live`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::games::contract::Variant;
use crate::games::worms::Map;
use crate::tournament::runner::Entry;
use anyhow::Context;

use super::run::RunArgs;

/// `botbox match worms --live`: every game on the board as it is played, one at a time. Only
/// Wormworld has a live view.
pub fn live(
    game: &str,
    options: &super::hosted::Options,
    entries: &[Entry],
    games: usize,
    run: &RunArgs,
    delay: u64,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        game == "worms",
        "--live draws Wormworld's board; {game} has no live view (watch its replays with `botbox view`)"
    );
    let maps = load_maps_from(&options.maps, options.turns)?;
    super::worms_view::live_match(&maps, options.openings, entries, games, run, delay)
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

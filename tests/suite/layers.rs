//! The layers point one way (ARCHITECTURE.md, "Invariants"): each module of the library is read for
//! the modules it must not import. Test code (`#[cfg(test)]` modules, `*tests.rs` files) may reach
//! anywhere.

use std::path::{Path, PathBuf};

/// A module and the modules its code must not name.
const RULES: &[(&str, &[&str])] = &[
    // Pure rules: no I/O, no runtime, no game's glue.
    (
        "games",
        &[
            "runtime",
            "hosted",
            "play",
            "tournament",
            "cli",
            "league",
            "view",
            "reload",
        ],
    ),
    // The only door to strategy code knows no game: it is handed the games' extensions.
    (
        "runtime",
        &[
            "games",
            "hosted",
            "play",
            "tournament",
            "cli",
            "league",
            "view",
            "replay",
        ],
    ),
    ("hosted", &["play", "tournament", "cli", "league", "view"]),
    ("play", &["tournament", "cli", "league", "view"]),
    ("tournament", &["cli", "league", "view"]),
    // Views serve every front end, and so import none.
    ("view", &["cli", "league"]),
    ("league", &["cli"]),
];

/// The layer a file of a game's folder belongs to: its glue to the runtimes
/// (`games/<game>/encoding.rs` and `encoding/`) is `hosted`, its view (`view.rs`) is `view`, its
/// set-up for runs (`setup.rs`) is `tournament`; the registry, which names them all, may import
/// each; everything else is the game's pure rules.
fn layer_of_game_file(relative: &Path) -> Option<&'static str> {
    let parts: Vec<&str> = relative.iter().filter_map(|p| p.to_str()).collect();
    match parts.as_slice() {
        ["games", "registry.rs"] => Some("registry"),
        ["games", _, "encoding.rs"] | ["games", _, "encoding", ..] => Some("hosted"),
        ["games", _, "view.rs"] | ["games", _, "view", ..] => Some("view"),
        ["games", _, "setup.rs"] => Some("tournament"),
        ["games", ..] => Some("games"),
        _ => None,
    }
}

/// What the registry must not import: it sits below the front ends.
const REGISTRY: &[&str] = &["cli", "league"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `crate::` paths of a file's code, with their line numbers: comments and test code left out.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split(" //").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let tail = &rest[at + "crate::".len()..];
            let name: String = tail
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if let Some(group) = tail.strip_prefix('{') {
                // `crate::{a, b::c}`: every name in the group.
                let group = group.split('}').next().unwrap_or("");
                for part in group.split(',') {
                    let first = part.trim().split("::").next().unwrap_or("").to_string();
                    found.push((i + 1, first));
                }
            } else {
                found.push((i + 1, name));
            }
            rest = tail;
        }
    }
    found
}

#[test]
fn the_layers_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut broken = Vec::new();
    for (module, forbidden) in RULES {
        let mut files = Vec::new();
        let dir = src.join(module);
        assert!(dir.is_dir(), "{} is not a directory", dir.display());
        sources(&dir, &mut files);
        let top = src.join(format!("{module}.rs"));
        if top.exists() {
            files.push(top);
        }
        assert!(!files.is_empty(), "{module}: no sources");
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            if name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let relative = file.strip_prefix(&src).unwrap();
            // A game's glue follows its layer's rules, the registry its own.
            let (layer, forbidden) = match layer_of_game_file(relative) {
                Some("registry") => ("games::registry", REGISTRY),
                Some(layer) => {
                    let rules = RULES.iter().find(|(m, _)| *m == layer).unwrap();
                    (layer, rules.1)
                }
                None => (*module, *forbidden),
            };
            let text = std::fs::read_to_string(&file).unwrap();
            for (line, path) in crate_paths(&text) {
                if forbidden.contains(&path.as_str()) {
                    broken.push(format!(
                        "{}:{line}: `{layer}` imports `crate::{path}`",
                        file.strip_prefix(&src).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn a_games_glue_is_read_by_its_layers_rules() {
    let layer = |p: &str| layer_of_game_file(Path::new(p));
    assert_eq!(layer("games/bs/game.rs"), Some("games"));
    assert_eq!(layer("games/bs/encoding.rs"), Some("hosted"));
    assert_eq!(layer("games/g2048/encoding/lua.rs"), Some("hosted"));
    assert_eq!(layer("games/worms/view.rs"), Some("view"));
    assert_eq!(layer("games/dice/setup.rs"), Some("tournament"));
    assert_eq!(layer("games/registry.rs"), Some("registry"));
    assert_eq!(layer("games/contract.rs"), Some("games"));
    assert_eq!(layer("view/frames.rs"), None);
}

#[test]
fn the_reader_finds_paths_and_groups_and_skips_comments_and_tests() {
    let text = "use crate::cli::run;\n// crate::league\nuse crate::{games, view::page};\n\
                let x = 1; // crate::hosted\n#[cfg(test)]\nuse crate::tournament;\n";
    let paths: Vec<String> = crate_paths(text).into_iter().map(|(_, p)| p).collect();
    assert_eq!(paths, ["cli", "games", "view"]);
}

//! Hot reload: watching strategy files and offering new versions between games.
//!
//! A [`Watcher`] watches the **directories** that hold the strategy files (a watch on the file itself
//! is lost after the first save by rename, the way many editors save), debounces the events, and
//! after each quiet period reads every watched file whose directory changed. A file whose content
//! hash differs from the last one seen is loaded and validated by the caller's `load` function (for
//! a tournament: loaded under its limits and smoke-run on a start position), and the result is sent
//! as a [`Reload`] message. The watcher never touches a running tournament: **it only sends
//! messages**; the tournament applies them between games. A save that does not load is reported
//! with its error (file and line) and the previous version keeps playing. A deleted file changes
//! nothing until it is created again; a burst of saves is one or a few reloads, since only a content
//! hash that differs from the last one seen counts.
//!
//! A bot's **directory** (a starter kit: `botbox new`) is watched whole: a save of any of its sources
//! (its build outputs and downloaded packages aside) changes the directory's hash, and `load` builds it
//! again with its own tool. A source folder made while it is watched is watched from then on.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use notify_debouncer_mini::notify::{self, EventKind, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer_opt};

use crate::runtime::{Strategy, source_hash};

/// How long the watcher waits after the last event before it looks at the files.
pub const QUIET: Duration = Duration::from_millis(250);

/// A message from the watcher about one watched file (by its index in the list given to [`watch`]).
#[derive(Debug)]
pub enum Reload {
    /// A new version loaded and passed validation: use it from the next game on.
    Updated { index: usize, strategy: Strategy },
    /// A new version did not load or failed validation; the previous one keeps playing.
    Failed {
        index: usize,
        path: PathBuf,
        hash: String,
        error: String,
    },
}

/// Watches strategy files; dropping it stops the watching.
pub struct Watcher {
    _debouncer: Arc<Mutex<Debouncer<Unopened>>>,
    messages: Receiver<Reload>,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").finish_non_exhaustive()
    }
}

impl Watcher {
    /// The messages so far, without waiting.
    pub fn pending(&self) -> Vec<Reload> {
        self.messages.try_iter().collect()
    }

    /// Waits up to `timeout` for the next message.
    pub fn next(&self, timeout: Duration) -> Option<Reload> {
        self.messages.recv_timeout(timeout).ok()
    }
}

/// The platform's watcher without the events of a file or folder being read (opened, closed):
/// the watcher reads the files it watches, and each read would be an event that makes it read them
/// again, every quiet period from the first save on. A save is seen by its writes, creations and
/// renames.
struct Unopened(notify::RecommendedWatcher);

impl notify::Watcher for Unopened {
    fn new<F: notify::EventHandler>(
        mut handler: F,
        config: notify::Config,
    ) -> notify::Result<Self> {
        let inner = notify::RecommendedWatcher::new(
            move |event: notify::Result<notify::Event>| {
                let read = matches!(&event, Ok(e) if matches!(e.kind, EventKind::Access(_)));
                if !read {
                    handler.handle_event(event);
                }
            },
            config,
        )?;
        Ok(Unopened(inner))
    }

    fn watch(&mut self, path: &Path, mode: RecursiveMode) -> notify::Result<()> {
        self.0.watch(path, mode)
    }

    fn unwatch(&mut self, path: &Path) -> notify::Result<()> {
        self.0.unwatch(path)
    }

    fn kind() -> notify::WatcherKind {
        <notify::RecommendedWatcher as notify::Watcher>::kind()
    }
}

/// One watched file: where it is and the content hash last seen (loaded or not).
struct Watched {
    path: PathBuf,
    name: std::ffi::OsString,
    dir: PathBuf,
    seen: Option<String>,
    /// A bot's directory, watched whole ([`kit_hash`]).
    kit: bool,
}

/// What a kit's build makes or fetches, not its sources: a save there is not a new version.
const BUILT: [&str; 7] = [
    "target",
    "zig-out",
    ".zig-cache",
    "node_modules",
    "build",
    "bot.wasm",
    ".git",
];

/// The hash of a bot directory's sources: every file's relative path and bytes, in order, those
/// under [`BUILT`] left out. `None` if the directory cannot be read.
pub fn kit_hash(dir: &Path) -> Option<String> {
    fn walk(dir: &Path, root: &Path, files: &mut Vec<(PathBuf, Vec<u8>)>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            if BUILT.iter().any(|b| entry.file_name() == *b) {
                continue;
            }
            if entry.file_type()?.is_dir() {
                walk(&path, root, files)?;
            } else {
                let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
                files.push((relative, std::fs::read(&path)?));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files).ok()?;
    files.sort();
    let mut all = Vec::new();
    for (path, bytes) in files {
        all.extend_from_slice(path.to_string_lossy().as_bytes());
        all.push(0);
        all.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        all.extend_from_slice(&bytes);
    }
    Some(source_hash(&all))
}

/// `dir` and its folders, those under [`BUILT`] left out.
fn source_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![dir.to_path_buf()];
    let mut i = 0;
    while let Some(d) = dirs.get(i).cloned() {
        i += 1;
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let built = BUILT.iter().any(|b| entry.file_name() == *b);
            if !built && entry.file_type().is_ok_and(|t| t.is_dir()) {
                dirs.push(entry.path());
            }
        }
    }
    dirs
}

/// Whether an event at `path` is a save of the kit `dir`'s sources.
fn in_kit(dir: &Path, path: &Path) -> bool {
    path.strip_prefix(dir).is_ok_and(|rest| {
        !rest
            .components()
            .any(|c| BUILT.iter().any(|b| c.as_os_str() == *b))
    })
}

/// Starts watching `files` (with the content hashes of the versions already in use). `load` loads
/// and validates a new version (a smoke game, for a tournament); it runs on a loader thread of its
/// own, neither on the file watcher's thread (which keeps taking events meanwhile) nor on a game
/// thread. Saves are loaded in the order they were seen.
pub fn watch(
    files: &[(PathBuf, String)],
    load: impl Fn(usize, &Path) -> Result<Strategy, String> + Send + 'static,
) -> notify::Result<Watcher> {
    let mut watched: Vec<Watched> = files
        .iter()
        .map(|(path, hash)| {
            let path = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            let kit = path.is_dir();
            let dir = match kit {
                true => path.clone(),
                false => path
                    .parent()
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            };
            Watched {
                name: path.file_name().unwrap_or_default().to_os_string(),
                seen: match kit {
                    // The module's hash is not the sources': the sources as they are now.
                    true => kit_hash(&path),
                    false => Some(hash.clone()),
                },
                path,
                dir,
                kit,
            }
        })
        .collect();
    let (tx, messages) = mpsc::channel();
    let (jobs, todo) = mpsc::channel::<(usize, PathBuf, String)>();
    let (new_folders, to_watch) = mpsc::channel::<PathBuf>();
    // The kits' folders watched so far (below, and as they are made).
    let mut folders: HashSet<PathBuf> = watched
        .iter()
        .filter(|w| w.kit)
        .flat_map(|w| source_dirs(&w.path))
        .collect();
    let config = notify_debouncer_mini::Config::default().with_timeout(QUIET);
    let mut debouncer =
        new_debouncer_opt::<_, Unopened>(config, move |result: DebounceEventResult| {
            let Ok(events) = result else { return };
            let touched: Vec<&Path> = events.iter().map(|e| e.path.as_path()).collect();
            for (index, w) in watched.iter_mut().enumerate() {
                if w.kit {
                    if !touched.iter().any(|p| in_kit(&w.dir, p)) {
                        continue;
                    }
                    // A folder made in the kit: its sources count from now on (one removed is
                    // forgotten, so that it is watched again if it comes back).
                    for p in touched.iter().filter(|p| !p.exists()) {
                        folders.remove(*p);
                    }
                    for p in touched.iter().filter(|p| in_kit(&w.dir, p) && p.is_dir()) {
                        if folders.insert(p.to_path_buf())
                            && new_folders.send(p.to_path_buf()).is_err()
                        {
                            return;
                        }
                    }
                    let Some(hash) = kit_hash(&w.path) else {
                        continue;
                    };
                    if w.seen.as_ref() == Some(&hash) {
                        continue;
                    }
                    w.seen = Some(hash.clone());
                    if jobs.send((index, w.path.clone(), hash)).is_err() {
                        return;
                    }
                    continue;
                }
                let hit = touched
                    .iter()
                    .any(|p| p.file_name() == Some(w.name.as_os_str()) || p == &w.dir.as_path());
                if !hit {
                    continue;
                }
                // A file that is gone (deleted, or between the two steps of a save) changes
                // nothing, and neither does an empty one: an in-place save truncates the file
                // before it writes, and on a busy machine the quiet period can end in between (no
                // strategy is an empty file).
                let Ok(bytes) = std::fs::read(&w.path) else {
                    continue;
                };
                if bytes.is_empty() {
                    continue;
                }
                let hash = source_hash(&bytes);
                if w.seen.as_ref() == Some(&hash) {
                    continue;
                }
                w.seen = Some(hash.clone());
                if jobs.send((index, w.path.clone(), hash)).is_err() {
                    return;
                }
            }
        })?;
    let mut dirs: HashSet<PathBuf> = HashSet::new();
    for (path, _) in files {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        // A kit's directory whole: it and each of its source folders (`src/`, `assembly/`, a Rust
        // kit's `botbox-sdk/src/`), not what its build makes or fetches (thousands of folders).
        if path.is_dir() {
            for dir in source_dirs(&path) {
                debouncer
                    .watcher()
                    .watch(&dir, RecursiveMode::NonRecursive)?;
            }
            continue;
        }
        let dir = path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        if dirs.insert(dir.clone()) {
            debouncer
                .watcher()
                .watch(&dir, RecursiveMode::NonRecursive)?;
        }
    }
    let debouncer = Arc::new(Mutex::new(debouncer));
    // The loader thread loads new versions; the folders' thread adds the watches of a kit's new
    // folders (the debouncer's callback cannot reach the debouncer; a build can take a minute).
    // Both end when the debouncer (and with it `jobs` and `new_folders`) is dropped; the loader
    // also when the `Watcher` is (and with it `messages`).
    let watcher = Arc::downgrade(&debouncer);
    std::thread::Builder::new()
        .name("botbox-reload-folders".into())
        .spawn(move || {
            for dir in to_watch {
                watch_folders(&watcher, &dir);
            }
        })
        .map_err(notify::Error::io)?;
    std::thread::Builder::new()
        .name("botbox-reload".into())
        .spawn(move || {
            for (index, path, hash) in todo {
                let message = match load(index, &path) {
                    Ok(strategy) => Reload::Updated { index, strategy },
                    Err(error) => Reload::Failed {
                        index,
                        path,
                        hash,
                        error,
                    },
                };
                if tx.send(message).is_err() {
                    return;
                }
            }
        })
        .map_err(notify::Error::io)?;
    Ok(Watcher {
        _debouncer: debouncer,
        messages,
    })
}

/// Watches `dir` and its source folders, if the watcher is still there (a folder gone again by now
/// is left alone).
fn watch_folders(watcher: &Weak<Mutex<Debouncer<Unopened>>>, dir: &Path) {
    let Some(debouncer) = watcher.upgrade() else {
        return;
    };
    let Ok(mut debouncer) = debouncer.lock() else {
        return;
    };
    for dir in source_dirs(dir) {
        let _ = debouncer.watcher().watch(&dir, RecursiveMode::NonRecursive);
    }
}

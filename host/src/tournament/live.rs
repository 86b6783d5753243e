//! A tournament that picks up new strategy versions between games (`botbox tournament --reload`).
//!
//! The file watcher ([`crate::reload`]) only sends messages. [`Live`] applies them when a game
//! starts: the game is played by the versions current at that moment, and a game already running
//! finishes with the versions it started with. A new version enters the standings under its own
//! name, `stem@` and the first 8 hex digits of its content hash, so old and new code never mix;
//! every game record carries the content hashes of the versions that played it.

use std::sync::Mutex;

use super::runner::{Entry, Lineup, Scheduled};
use crate::reload::{Reload, Watcher};

/// The entries of a running tournament, with the watcher that offers new versions.
pub struct Live<'a> {
    state: Mutex<State>,
    /// Told about every version taken or refused, from the thread that applied it.
    notify: Box<dyn Fn(&str) + Sync + 'a>,
}

struct State {
    watcher: Watcher,
    /// The version of each entry that new games use.
    current: Vec<Entry>,
    /// Every version that was current at some time, in order: the report's entries.
    all: Vec<Entry>,
}

impl std::fmt::Debug for Live<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live").finish_non_exhaustive()
    }
}

impl<'a> Live<'a> {
    pub fn new(entries: &[Entry], watcher: Watcher, notify: impl Fn(&str) + Sync + 'a) -> Self {
        Live {
            state: Mutex::new(State {
                watcher,
                current: entries.to_vec(),
                all: entries.to_vec(),
            }),
            notify: Box::new(notify),
        }
    }

    fn apply(&self, state: &mut State, message: Reload) {
        match message {
            Reload::Updated { index, strategy } => {
                let base = state.current[index]
                    .name
                    .split('@')
                    .next()
                    .unwrap_or_default()
                    .to_string();
                let name = format!("{base}@{}", &strategy.hash()[..8]);
                (self.notify)(&format!(
                    "reloaded {}: {name} plays from the next game on",
                    strategy.path().display()
                ));
                let entry = Entry { name, strategy };
                state.current[index] = entry.clone();
                if !state.all.iter().any(|e| e.name == entry.name) {
                    state.all.push(entry);
                }
            }
            Reload::Failed {
                index, path, error, ..
            } => {
                (self.notify)(&format!(
                    "not reloaded {}: {error}\n  {} keeps playing",
                    path.display(),
                    state.current[index].name
                ));
            }
        }
    }
}

impl Lineup for Live<'_> {
    fn players(&self, game: &Scheduled) -> Vec<Entry> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        for message in state.watcher.pending() {
            self.apply(&mut state, message);
        }
        game.seats
            .iter()
            .map(|&e| state.current[e].clone())
            .collect()
    }

    fn all(&self) -> Vec<Entry> {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .all
            .clone()
    }
}

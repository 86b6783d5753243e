//! The only door to strategy code. A [`Strategy`] is a loaded, validated strategy file (Lua source, a
//! compiled WASM module, or an external program) that can be shared by every thread of a run; an
//! [`Instance`] is one strategy playing one game, created fresh for every game on the thread that
//! plays it.
//!
//! **Every call into strategy code passes through [`Limits`]**: a deterministic budget (Lua interrupt
//! ticks, WASM fuel), a memory cap and a wall-clock backstop; for an external program, a time per
//! move and a data limit. Whatever the strategy does, a call returns either an answer or a typed
//! [`Fault`]; the host never crashes or hangs because of strategy code. External programs are paused
//! and killed, but not sandboxed (see [`program`]).
//!
//! Observations and actions cross the boundary as the game's JSON shape ([`Payload`], [`Answer`]): as
//! tables for Lua, as UTF-8 JSON bytes for WASM, as JSON Lines for programs (Wormworld programs
//! speak a text protocol of their own, in `games::worms::encoding::text`).

mod extension;
mod fault;
mod kit;
mod limits;
mod log;
pub mod lua;
pub mod payload;
pub mod program;
mod source;
pub mod wasm;
mod watchdog;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use botbox_sdk::{Params, Setup};
pub use extension::{Extension, Extensions, Transcoder};
pub use fault::{Fault, FaultKind, LoadError};
pub use kit::build_dir;
pub use limits::{LimitSpec, Limits};
pub use payload::{Answer, Payload};
pub use source::{
    SourceKind, WASM_TARGET, build_rust_crate, build_wasm_packages, hex, sha256_hex as source_hash,
};

/// A strategy file, loaded and validated, ready to be instantiated for any number of games on any thread.
#[derive(Clone, Debug)]
pub struct Strategy {
    inner: Arc<Loaded>,
    /// Parameters handed to every instance in its setup (`--param`).
    params: Arc<Params>,
}

#[derive(Debug)]
struct Loaded {
    name: String,
    path: PathBuf,
    hash: String,
    limits: Limits,
    program: Program,
}

#[derive(Debug)]
enum Program {
    Lua(lua::Program),
    Wasm(wasm::Program),
    Process(program::Program),
}

impl Strategy {
    /// Loads a strategy from a file: `.lua`/`.luau` source, a `.wasm` module, `.wat` text, the
    /// directory of a Rust guest crate (built for wasm32 with cargo first), or any other executable
    /// file, an external program. Lua is compiled to check its syntax; WASM is compiled and its
    /// imports checked against the ABI; a program is only hashed (it starts with each game).
    ///
    /// `extensions` are what the games add to every strategy's environment (a Lua module, WASM
    /// imports, transcoders), handed over by the caller: the runtimes know no game.
    pub fn load(
        path: &Path,
        limits: &Limits,
        extensions: Extensions,
    ) -> Result<Strategy, LoadError> {
        Strategy::from_source(path, source::read(path)?, limits, extensions)
    }

    /// [`Strategy::load`], naming the file `display` in every message (a compile error, a Lua
    /// error's position) instead of by its path: the league loads an upload from its cache and
    /// names it the way its owner did (`hunter.lua:4: ...`).
    pub fn load_as(
        path: &Path,
        display: &str,
        limits: &Limits,
        extensions: Extensions,
    ) -> Result<Strategy, LoadError> {
        let mut source = source::read(path)?;
        source.display = display.to_string();
        source.name = Path::new(display)
            .file_stem()
            .map_or_else(|| display.to_string(), |s| s.to_string_lossy().into_owned());
        Strategy::from_source(path, source, limits, extensions)
    }

    fn from_source(
        path: &Path,
        source: source::Source,
        limits: &Limits,
        extensions: Extensions,
    ) -> Result<Strategy, LoadError> {
        let program = match source.kind {
            SourceKind::Lua => Program::Lua(lua::Program::compile(
                &source.display,
                &source.bytes,
                extensions,
            )?),
            SourceKind::Wasm | SourceKind::Wat => Program::Wasm(wasm::Program::compile(
                &source.display,
                &source.bytes,
                limits,
                extensions,
            )?),
            SourceKind::Program => Program::Process(program::Program::new(path)?),
        };
        Ok(Strategy {
            inner: Arc::new(Loaded {
                name: source.name,
                path: path.to_path_buf(),
                hash: source.hash,
                limits: limits.clone(),
                program,
            }),
            params: Arc::new(Params::new()),
        })
    }

    /// The same strategy with parameters for its setup (a strategy reads them in `botbox_init` or
    /// its Lua `init(setup)`).
    pub fn with_params(mut self, params: Params) -> Strategy {
        self.params = Arc::new(params);
        self
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The strategy's short name (the file stem).
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The SHA-256 of the file's bytes, in hex: which version of the strategy played.
    pub fn hash(&self) -> &str {
        &self.inner.hash
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// "lua", "wasm" or "program".
    pub fn kind(&self) -> &'static str {
        match self.inner.program {
            Program::Lua(_) => "lua",
            Program::Wasm(_) => "wasm",
            Program::Process(_) => "program",
        }
    }

    /// Creates a fresh instance for one game and runs its set-up (Lua: the file's top-level code, then
    /// `init(setup)` if the file has one; WASM: `botbox_init`) under the limits; a program is started
    /// and paused at once, and told nothing yet. The strategy's parameters are added to `setup.params`.
    pub fn instantiate(&self, setup: &Setup) -> Result<Instance, Fault> {
        let limits = &self.inner.limits;
        let mut setup = setup.clone();
        setup
            .params
            .extend(self.params.iter().map(|(k, v)| (k.clone(), v.clone())));
        let backend = match &self.inner.program {
            Program::Lua(p) => Backend::Lua(p.instantiate(&setup, limits)?),
            Program::Wasm(p) => Backend::Wasm(p.instantiate(&setup, limits)?),
            Program::Process(p) => Backend::Process(p.instantiate(&setup, limits)?),
        };
        Ok(Instance { backend })
    }
}

/// One strategy playing one game. Not `Send` for Lua: create it on the thread that plays the game.
/// Dropping it kills an external program.
#[derive(Debug)]
pub struct Instance {
    backend: Backend,
}

#[derive(Debug)]
enum Backend {
    Lua(lua::Instance),
    Wasm(wasm::Instance),
    Process(program::Process),
}

impl Instance {
    /// Calls the strategy's function `function` with an observation and decodes its answer, under the
    /// limits. A program gets the call as a JSON Lines request (`docs/protocols/json-lines.md`).
    pub fn call<P: Payload, A: Answer>(
        &mut self,
        function: &str,
        observation: &P,
    ) -> Result<A, Fault> {
        match &mut self.backend {
            Backend::Lua(i) => i.call(function, observation),
            Backend::Wasm(i) => i.call(function, observation),
            Backend::Process(p) => p.call(function, observation),
        }
    }

    /// Whether the strategy has a function `name` to call: a Lua strategy's table has a function
    /// there, a WASM module exports it. An external program is assumed to have every function,
    /// since it must answer every request line (`docs/protocols/json-lines.md`).
    pub fn has_function(&mut self, name: &str) -> bool {
        match &mut self.backend {
            Backend::Lua(i) => i.has_function(name),
            Backend::Wasm(i) => i.has_function(name),
            Backend::Process(_) => true,
        }
    }

    /// The lines the strategy printed or logged so far in this game (capped, see [`Limits::log_bytes`]).
    pub fn log(&self) -> Vec<String> {
        match &self.backend {
            Backend::Lua(i) => i.log(),
            Backend::Wasm(i) => i.log(),
            Backend::Process(p) => p.log(),
        }
    }

    /// How many lines [`Instance::log`] holds, without copying them: a replay records, per move, how
    /// many lines each seat had logged by then.
    pub fn log_len(&self) -> usize {
        match &self.backend {
            Backend::Lua(i) => i.log_len(),
            Backend::Wasm(i) => i.log_len(),
            Backend::Process(p) => p.log_len(),
        }
    }

    /// The running program of an external program strategy, for a game that speaks its own text
    /// protocol with it ([`program::Process::exchange`]); `None` for Lua and WASM.
    pub fn process(&mut self) -> Option<&mut program::Process> {
        match &mut self.backend {
            Backend::Process(p) => Some(p),
            _ => None,
        }
    }
}

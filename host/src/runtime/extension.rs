//! What a game's glue adds to the runtimes, through an interface the runtimes define: a Lua module
//! in every Luau state (2048's `g2048`) and WASM imports under module `botbox` (`g2048_move`, ...).
//! The runtimes know no game: their caller hands them the list ([`Extensions`]) when it loads a
//! strategy, and they install and link what it holds.

/// A game's additions to every strategy's environment.
pub trait Extension: Sync + std::fmt::Debug {
    /// Adds the game's Lua globals and trusted helpers to a new Luau state, before the sandbox closes
    /// its globals (they are then frozen deep, like the libraries).
    fn install_lua(&self, lua: &mlua::Lua) -> mlua::Result<()> {
        let _ = lua;
        Ok(())
    }

    /// The names of the functions the game offers WASM modules under `botbox`.
    fn wasm_imports(&self) -> &'static [&'static str] {
        &[]
    }

    /// Defines those functions (charging fuel for their work; `runtime::wasm::host` has helpers).
    fn link_wasm(&self, linker: &mut super::wasm::HostLinker) -> wasmtime::Result<()> {
        let _ = linker;
        Ok(())
    }

    /// For a call of `function` in `game` made with the game's free JSON (the game contract's
    /// driver), the typed wire pair whose postcard form a WASM module that chose postcard expects.
    fn transcoder(&self, game: &str, function: &str) -> Option<Transcoder> {
        let _ = (game, function);
        None
    }
}

/// Converts one decision's JSON to the postcard form of the game's wire types and back
/// (`docs/wasm-abi.md`, "Encodings"): what lets the contract's driver, which speaks JSON values,
/// reach a module that chose postcard. The game declares its types (`GameInfo::wire`); the runtime
/// only holds the two functions.
#[derive(Clone, Copy, Debug)]
pub struct Transcoder {
    /// Appends the postcard form of the observation, given as its JSON.
    pub encode: fn(&serde_json::Value, &mut Vec<u8>) -> Result<(), String>,
    /// Decodes a postcard answer into its JSON.
    pub decode: fn(&[u8]) -> Result<serde_json::Value, String>,
}

/// The extensions a strategy is loaded with, in the order they are installed: every game's, so one
/// strategy file may use any game's module (the caller's list: `hosted::EXTENSIONS`).
pub type Extensions = &'static [&'static dyn Extension];

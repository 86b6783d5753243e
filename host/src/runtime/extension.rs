//! What a game's glue adds to the runtimes, through an interface the runtimes define: a Lua module
//! in every Luau state (2048's `g2048`) and WASM imports under module `botbox` (`g2048_move`, ...).
//! The runtimes know no game: they install and link whatever [`all`] lists.

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
}

/// Every extension, in the order they are installed: the one place the runtimes meet the games' glue.
pub(crate) fn all() -> &'static [&'static dyn Extension] {
    &crate::hosted::EXTENSIONS
}

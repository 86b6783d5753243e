//! The host's own Luau code in a state (wrappers, observation constructors): compiled once per
//! process, loaded into each state, and the protected call every strategy function is called in.

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Value};

use super::compiler;

/// Compiles a chunk of the host's own Luau code (a wrapper, an observation constructor), once per
/// process: keep the result in a `LazyLock` and load it into each state with [`load_trusted`].
/// Without debug information: the host's frames have no line, so an error a strategy raises at a
/// level that names one (`error(m, 2)` in the function the host called) carries no position, as
/// when a C function called it, rather than `botbox:5:`.
pub(crate) fn compile_trusted(source: &str) -> Vec<u8> {
    compiler()
        .set_debug_level(0)
        .compile(source)
        .expect("the host's own Luau code compiles")
}

/// Loads a chunk compiled by [`compile_trusted`] into `lua`.
pub(crate) fn load_trusted(lua: &Lua, name: &str, bytecode: &[u8]) -> mlua::Result<Function> {
    lua.load(bytecode)
        .set_name(name)
        .set_mode(ChunkMode::Binary)
        .into_function()
}

/// `f(args...)` in one protected call whose message handler is `describe`: `Ok((true, first
/// result))`, or `Ok((false, what describe made of the error))`; `Err` only if the arguments could
/// not be pushed. mlua's own calls take mlua's handler, which would run a strategy's `__tostring`:
/// this is Luau's `lua_pcall` with ours, so that a strategy function needs no `xpcall` inside.
///
/// The crate's one `unsafe` block: mlua offers no protected call with another handler.
#[allow(unsafe_code)]
pub(crate) fn protected_call(
    lua: &Lua,
    describe: &Function,
    f: &Function,
    args: impl mlua::IntoLuaMulti,
) -> mlua::Result<(bool, Value)> {
    use mlua::ffi;
    /// Puts the stack back as it was, however the call ends.
    struct Restore(*mut ffi::lua_State, std::os::raw::c_int);
    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: the state outlives this guard, and `self.1` was its top when it was made.
            unsafe { ffi::lua_settop(self.0, self.1) }
        }
    }
    lua.exec_raw_lua(|raw| {
        // SAFETY: everything pushed here is popped by `Restore`; the stack is checked for the
        // handler, the function and the result, and `push_into_stack_multi` checks for the
        // arguments; `lua_pcall` catches every error raised in the call.
        unsafe {
            let state = raw.state();
            let top = ffi::lua_gettop(state);
            let _restore = Restore(state, top);
            if ffi::lua_checkstack(state, 3) == 0 {
                return Err(mlua::Error::StackError);
            }
            raw.push(describe)?;
            raw.push(f)?;
            let nargs = args.push_into_stack_multi(raw)?;
            let status = ffi::lua_pcall(state, nargs, 1, top + 1);
            Ok((status == ffi::LUA_OK, raw.pop_value()))
        }
    })
}

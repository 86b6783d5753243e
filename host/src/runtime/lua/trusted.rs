//! The host's own Luau code in a state (wrappers, observation constructors): compiled once per
//! process, loaded into each state, the protected call every strategy function is called in, and the
//! byte buffer a game's fast path shares with its trusted code ([`Bytes`]).
//!
//! The crate's only `unsafe` code is here, in three places: the protected calls (mlua offers none with
//! another message handler) and [`Bytes`]'s reads and writes of a buffer's memory in place.

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

/// A Luau buffer that the host reads and writes in place, for a game's trusted code: the packed
/// observation in, whether the strategy had the function out (BS, 2048). mlua's own buffer methods
/// look the buffer up on the stack at every read and write (about a hundred instructions each, twice
/// per decision); this keeps its address. Strategy code never sees the buffer.
pub(crate) struct Bytes {
    /// Keeps the buffer alive, and with it the memory `data` points to: Luau's collector never moves
    /// an object, and a buffer's bytes are part of it.
    buffer: mlua::Buffer,
    data: std::ptr::NonNull<u8>,
    len: usize,
}

impl Bytes {
    /// A new buffer of `len` zero bytes in `lua`.
    #[allow(unsafe_code)]
    pub(crate) fn new(lua: &Lua, len: usize) -> mlua::Result<Bytes> {
        use mlua::ffi;
        let buffer = lua.create_buffer(vec![0u8; len])?;
        let data = lua.exec_raw_lua(|raw| {
            // SAFETY: the buffer is pushed (one slot, checked) and popped again; `lua_tobuffer` of a
            // buffer returns its data and length.
            unsafe {
                let state = raw.state();
                if ffi::lua_checkstack(state, 1) == 0 {
                    return Err(mlua::Error::StackError);
                }
                raw.push(&buffer)?;
                let mut size = 0usize;
                let data = ffi::lua_tobuffer(state, -1, &mut size);
                ffi::lua_pop(state, 1);
                assert_eq!(size, len, "the buffer just made");
                Ok(std::ptr::NonNull::new(data.cast::<u8>()).expect("a buffer has data"))
            }
        })?;
        Ok(Bytes { buffer, data, len })
    }

    pub(crate) fn buffer(&self) -> &mlua::Buffer {
        &self.buffer
    }

    /// Writes `bytes` from `at` (panics past the end, like a slice).
    #[allow(unsafe_code)]
    pub(crate) fn write(&self, at: usize, bytes: &[u8]) {
        assert!(
            at <= self.len && bytes.len() <= self.len - at,
            "within the buffer"
        );
        // SAFETY: in bounds (checked above); the buffer is alive (`self.buffer`) and no Luau code
        // runs while the host holds `&self` on this thread (the state is not `Send`).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.data.as_ptr().add(at), bytes.len())
        }
    }

    /// Reads `out.len()` bytes from `at` (panics past the end).
    #[allow(unsafe_code)]
    pub(crate) fn read(&self, at: usize, out: &mut [u8]) {
        assert!(
            at <= self.len && out.len() <= self.len - at,
            "within the buffer"
        );
        // SAFETY: as in `write`.
        unsafe {
            std::ptr::copy_nonoverlapping(self.data.as_ptr().add(at), out.as_mut_ptr(), out.len())
        }
    }

    pub(crate) fn byte(&self, at: usize) -> u8 {
        let mut b = [0];
        self.read(at, &mut b);
        b[0]
    }
}

/// `f(args...)` in one protected call whose message handler is `describe`: `Ok((true, first
/// result))`, or `Ok((false, what describe made of the error))`; `Err` only if the arguments could
/// not be pushed. mlua's own calls take mlua's handler, which would run a strategy's `__tostring`:
/// this is Luau's `lua_pcall` with ours, so that a strategy function needs no `xpcall` inside.
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

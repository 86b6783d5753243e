//! Lua strategies, run in Luau with `sandbox(true)`.
//!
//! Measured on machines like ours when the runtime was chosen: plain Lua 5.4 and LuaJIT let
//! untrusted code escape instruction hooks; Luau with a sandbox, an interrupt that fails once the budget
//! is spent and a memory cap contained every case tried. The measures that matter, each one here:
//! - the interrupt is installed before the chunk's top level runs, and its "over budget" state is
//!   sticky, so a `pcall` that swallows the first error meets the next one at its next tick; it is
//!   checked after an `Ok` result too;
//! - the time backstop is a flag raised by a timer thread when the call has used its limit of the
//!   thread's CPU time ([`super::watchdog`]), checked at every tick;
//! - library calls whose cost grows with an argument are charged to the budget for their size before
//!   they run ([`costs`]), so no single C call escapes the budget;
//! - the memory cap bounds live memory: the allocator's hard limit is twice the cap, and past the cap
//!   the interrupt runs a full collection and faults `memory` only if what is alive is still over it;
//! - strategy functions are called in a protected call whose message handler describes error values
//!   by type, never through `__tostring` ([`protected_call`]);
//! - `require`, `loadstring`, `getfenv`/`setfenv`, `io`, `os` and `debug` are absent; chunks load in text
//!   mode only (bytecode is refused); `print` goes to the strategy's log;
//! - every game starts from the file's own top level in a new, empty environment table; the libraries
//!   and the table behind it are read-only (frozen deep: host modules' nested tables too, see
//!   [`freeze`]), and nothing else a strategy can reach outlives the game, so
//!   no value passes from one game to the next. The Luau state itself is reused ([`pool`]), since
//!   creating one cost more than the whole game of a light strategy; a state that saw any fault is
//!   thrown away, and `gcinfo`/`collectgarbage` (the one reading that depends on the state's past) are
//!   absent.

pub mod convert;
mod costs;
mod pattern;
mod pool;

use std::cell::{Cell, Ref, RefCell};
use std::collections::HashSet;
use std::fmt;
use std::rc::Rc;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};

use mlua::chunk::{ChunkMode, Compiler};
use mlua::{Function, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};

use super::log::Log;
use super::watchdog::Deadline;
use super::{Answer, Fault, FaultKind, Limits, LoadError, Payload, Setup};

/// A Lua strategy's source, checked for syntax and compiled to bytecode once at load time: every
/// game's fresh state then loads the bytecode, which costs microseconds where compiling the source
/// again cost up to a millisecond (a 400-line BS bot). The bytecode is our compiler's output, never
/// bytes from the user (their chunk must be text).
#[derive(Debug)]
pub struct Program {
    bytecode: Vec<u8>,
    /// `=path`: Luau then reports `path:line: message`.
    chunk_name: String,
    /// Unique in the process: idle states are pooled per program.
    id: u64,
}

static NEXT_PROGRAM: AtomicU64 = AtomicU64::new(1);

/// The largest Lua source accepted, checked before parsing: the largest bundled strategy is about
/// 20 KiB, and Luau parses and compiles a megabyte in well under a second.
pub const MAX_SOURCE: usize = 1 << 20;

impl Program {
    pub fn compile(display: &str, bytes: &[u8]) -> Result<Program, LoadError> {
        if bytes.len() > MAX_SOURCE {
            return Err(LoadError::Syntax {
                message: format!(
                    "{display}: {} bytes of source is over the limit of {} KiB for a Lua strategy",
                    bytes.len(),
                    MAX_SOURCE >> 10
                ),
            });
        }
        let source = String::from_utf8(bytes.to_vec()).map_err(|_| LoadError::Syntax {
            message: format!("{display}: not UTF-8 text (bytecode is not accepted)"),
        })?;
        let chunk_name = format!("={display}");
        let lua = Lua::new_with(StdLib::NONE, LuaOptions::new()).map_err(|e| syntax(display, e))?;
        lua.load(&source)
            .set_name(&chunk_name)
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(|e| syntax(display, e))?;
        let bytecode = compiler()
            .compile(&source)
            .map_err(|e| syntax(display, e))?;
        Ok(Program {
            bytecode,
            chunk_name,
            id: NEXT_PROGRAM.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// A fresh instance for one game: an idle state of this program from this thread's pool, or a new
    /// one, with the file's top level run in a new environment and then `init(setup)` if it has one.
    pub fn instantiate(&self, setup: &Setup, limits: &Limits) -> Result<Instance, Fault> {
        let vm = match pool::take(self.id, limits) {
            Some(vm) => vm,
            None => Vm::new(self, limits)?,
        };
        Instance::start(pool::Lease::new(vm), setup)
    }
}

fn syntax(display: &str, e: mlua::Error) -> LoadError {
    let message = match e {
        mlua::Error::SyntaxError { message, .. } => message,
        other => format!("{display}: {other}"),
    };
    LoadError::Syntax { message }
}

/// What the interrupt and `print` share with the host.
struct Shared {
    ticks: Cell<u64>,
    budget: u64,
    /// Sticky: once set, every tick raises an error until the host resets it for the next call.
    over: Cell<Option<FaultKind>>,
    deadline: Deadline,
    log: RefCell<Log>,
    /// The cap on live memory now (the limit, plus what stayed live from earlier games on a reused
    /// state): a heap still above it after a full collection is fault `memory`.
    cap: Cell<usize>,
    /// The interrupt runs a full collection once the heap passes this.
    collect_at: Cell<usize>,
}

/// A reused state whose heap has grown by more than this share of the cap is collected before its
/// next game.
const COLLECT_ABOVE_CAP_SHARE: usize = 32;

/// A Lua strategy playing one game.
pub struct Instance {
    /// The table the strategy file returned. Declared first: it is released before the state goes
    /// back to the pool.
    module: Table,
    vm: pool::Lease,
}

/// A sandboxed state of one program and what it takes to call into it under the limits.
struct Vm {
    lua: Lua,
    shared: Rc<Shared>,
    limits: Limits,
    /// The trusted wrapper every strategy function is called through: it restarts the interrupt's
    /// count, then calls the function ([`WRAPPER`]).
    wrapper: Function,
    /// The message handler of every protected call into strategy code: the error as a string, with
    /// the strategy's own frames.
    describe: Function,
    /// The program's chunk, loaded once; each game runs a copy of it in a new environment.
    chunk: Function,
    /// Starts a game's object identities and seeds `math.random` (`math.randomseed` is kept from
    /// before the sandbox closed the library): [`NEW_GAME`].
    new_game: Function,
    /// The charges of sized library calls not yet passed to the host ([`costs`]): zeroed per game.
    meter: mlua::Buffer,
    /// The metatable of every game's environment: reads fall through to the read-only globals.
    env_meta: Table,
    /// The file's name for messages.
    display: String,
    /// The heap right after the state was made, and the program it belongs to.
    base_memory: usize,
    program: u64,
    /// Games started on this state.
    games: u64,
    /// Cleared by any fault: such a state is not reused.
    healthy: Cell<bool>,
    /// The names of the functions called so far, as Lua strings: made once, not at every call.
    keys: RefCell<Keys>,
}

impl fmt::Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("lua::Instance")
            .field("ticks", &self.vm.shared.ticks.get())
            .finish_non_exhaustive()
    }
}

/// The standard libraries a strategy gets: no `io`, `os`, `debug` or `package`.
fn libs() -> StdLib {
    StdLib::MATH
        | StdLib::STRING
        | StdLib::TABLE
        | StdLib::BIT
        | StdLib::UTF8
        | StdLib::BUFFER
        | StdLib::COROUTINE
}

/// Globals no strategy may have: code loading, environment access, anything that reaches outside, and
/// the memory counters (their readings would depend on the games a reused state played before).
const REMOVED: [&str; 13] = [
    "require",
    "loadstring",
    "load",
    "dofile",
    "loadfile",
    "getfenv",
    "setfenv",
    "io",
    "os",
    "debug",
    "newproxy",
    "gcinfo",
    "collectgarbage",
];

/// Calls a strategy function: called in a protected call whose message handler is the state's
/// `describe` ([`protected_call`]). (It was an `xpcall` inside mlua's own protected call: the second
/// protected call cost about 900 instructions per decision, a twelfth of a BS game.)
const WRAPPER: &str = r#"
local reset_ticks = ...
return function(f, ...)
  reset_ticks()
  return f(...)
end
"#;

/// Run first in every game, before anything of the game is made: its objects are numbered from 1 on,
/// whatever ran on the state before, and `math.random` starts from the game's seed.
const NEW_GAME: &str = r#"
local begin_identities, randomseed = ...
return function(seed)
  begin_identities()
  randomseed(seed)
end
"#;

impl Instance {
    fn start(mut vm: pool::Lease, setup: &Setup) -> Result<Instance, Fault> {
        let module = match vm.begin_game(setup) {
            Ok(module) => module,
            Err(fault) => {
                vm.healthy.set(false);
                return Err(fault);
            }
        };
        let mut instance = Instance { module, vm };
        if instance.has_function("init") {
            instance
                .call::<_, serde_json::Value>("init", setup)
                .map_err(|f| Fault::new(f.kind, format!("in init: {}", f.message)))?;
        }
        Ok(instance)
    }

    pub fn call<P: Payload, A: Answer>(
        &mut self,
        function: &str,
        observation: &P,
    ) -> Result<A, Fault> {
        let vm = &self.vm;
        let (keys, i) = vm
            .keys(function)
            .map_err(|e| host_fault(FaultKind::Error, e))?;
        let key = &keys[i].1;
        vm.begin();
        let result = observation.call_lua(&super::payload::LuaCall {
            lua: &vm.lua,
            wrapper: &vm.wrapper,
            describe: &vm.describe,
            module: &self.module,
            key,
            game: vm.games,
            function: i,
        });
        vm.end();
        let Some(result) = result.transpose() else {
            return Err(Fault::new(
                FaultKind::Error,
                format!("the strategy has no function `{function}`"),
            ));
        };
        let answer = vm.outcome(result).and_then(|value| {
            A::from_lua(&value)
                .map_err(|e| Fault::new(FaultKind::BadOutput, format!("`{function}` returned {e}")))
        });
        if answer.is_err() {
            vm.healthy.set(false);
        }
        answer
    }

    /// Whether the strategy's table has a function `name` (read raw: no metamethod runs).
    pub fn has_function(&self, name: &str) -> bool {
        self.vm
            .key(name)
            .is_ok_and(|key| matches!(self.module.raw_get::<Value>(key), Ok(Value::Function(_))))
    }

    pub fn log(&self) -> Vec<String> {
        self.vm.shared.log.borrow().lines().to_vec()
    }

    pub fn log_len(&self) -> usize {
        self.vm.shared.log.borrow().line_count()
    }
}

impl Vm {
    /// A new sandboxed state for `program`, its chunk loaded but not run.
    fn new(program: &Program, limits: &Limits) -> Result<Vm, Fault> {
        let load = |e| host_fault(FaultKind::Load, e);
        let shared = Rc::new(Shared {
            ticks: Cell::new(0),
            budget: limits.lua_budget,
            over: Cell::new(None),
            deadline: Deadline::new(),
            log: RefCell::new(Log::new(limits.log_bytes)),
            cap: Cell::new(limits.memory),
            collect_at: Cell::new(limits.memory),
        });
        let lua = Lua::new_with(libs(), LuaOptions::new()).map_err(load)?;
        // The collector starts a cycle when the heap is 4 times what was alive after the last one
        // (Luau's default is 2): a BS game makes a few small tables per decision and keeps little,
        // and marking and sweeping were a tenth of its instructions. Live memory is still capped
        // exactly (see `collect`); only garbage waits longer.
        lua.gc_set_mode(mlua::state::GcMode::Incremental(
            mlua::state::GcIncParams::default().goal(GC_GOAL),
        ));
        let prepared = prepare(&lua, &shared).map_err(load)?;
        lua.set_memory_limit(hard_limit(limits.memory))
            .map_err(load)?;
        install_interrupt(&lua, &shared).map_err(load)?;
        let chunk = lua
            .load(&program.bytecode)
            .set_name(&program.chunk_name)
            .set_mode(ChunkMode::Binary)
            .set_environment(new_env(&lua, &prepared.env_meta).map_err(load)?)
            .into_function()
            .map_err(load)?;
        Ok(Vm {
            display: program.chunk_name[1..].to_string(),
            base_memory: lua.used_memory(),
            lua,
            shared,
            limits: limits.clone(),
            wrapper: prepared.wrapper,
            describe: prepared.describe,
            chunk,
            new_game: prepared.new_game,
            meter: prepared.meter,
            env_meta: prepared.env_meta,
            program: program.id,
            games: 0,
            healthy: Cell::new(true),
            keys: RefCell::new(Vec::new()),
        })
    }

    /// `name` as a Lua string, for looking functions up in the strategy's table.
    fn key(&self, name: &str) -> mlua::Result<mlua::LuaString> {
        let (keys, i) = self.keys(name)?;
        Ok(keys[i].1.clone())
    }

    /// The strings made so far for function names, and where `name`'s is: borrowed, not copied
    /// (copying a Lua value from Rust costs a push on mlua's reference thread, at every call).
    fn keys(&self, name: &str) -> mlua::Result<(Ref<'_, Keys>, usize)> {
        let found = self.keys.borrow().iter().position(|(n, _)| n == name);
        let i = match found {
            Some(i) => i,
            None => {
                let key = self.lua.create_string(name)?;
                let mut keys = self.keys.borrow_mut();
                keys.push((name.to_string(), key));
                keys.len() - 1
            }
        };
        Ok((self.keys.borrow(), i))
    }

    /// Readies the state for a new game and runs a copy of the chunk in a new environment, under the
    /// limits: it must return a table. A reused state's memory cap is raised by what its heap holds
    /// beyond a new state's (garbage of earlier games included), so every game has at least the room
    /// it has on a new state; a heap grown past [`COLLECT_ABOVE_CAP_SHARE`] of the cap is collected
    /// first. (A full collection every game cost a tenth of a BS tournament.)
    fn begin_game(&mut self, setup: &Setup) -> Result<Table, Fault> {
        let host = |e| host_fault(FaultKind::Load, e);
        *self.shared.log.borrow_mut() = Log::new(self.limits.log_bytes);
        if self.games > 0 {
            if self.lua.used_memory()
                > self.base_memory + self.limits.memory / COLLECT_ABOVE_CAP_SHARE
            {
                self.lua.gc_collect().map_err(host)?;
            }
            let kept = self.lua.used_memory().saturating_sub(self.base_memory);
            let cap = self.limits.memory + kept;
            self.shared.cap.set(cap);
            self.shared.collect_at.set(cap);
            self.lua
                .set_memory_limit(hard_limit(self.limits.memory) + kept)
                .map_err(host)?;
        }
        self.games += 1;
        self.meter.write_bytes(0, &[0; 8]);
        self.new_game
            .call::<()>((setup.seed % (1 << 31)) as i64)
            .map_err(host)?;
        let chunk = self.chunk.deep_clone().map_err(host)?;
        chunk
            .set_environment(new_env(&self.lua, &self.env_meta).map_err(host)?)
            .map_err(host)?;
        self.begin();
        let result = self.protected(chunk, MultiValue::new());
        self.end();
        match self
            .outcome(result)
            .map_err(|f| Fault::new(f.kind, format!("while loading: {}", f.message)))?
        {
            Value::Table(t) => Ok(t),
            other => Err(Fault::new(
                FaultKind::Load,
                format!(
                    "{} must return a table of functions, but returned a {}",
                    self.display,
                    other.type_name()
                ),
            )),
        }
    }

    fn begin(&self) {
        self.shared.ticks.set(0);
        self.shared.over.set(None);
        self.shared.deadline.arm(self.limits.wall);
    }

    fn end(&self) {
        self.shared.deadline.disarm();
    }

    /// Calls `f(args...)` through the trusted wrapper: `Ok((ok, value_or_message))`.
    fn protected(&self, f: Function, args: MultiValue) -> mlua::Result<(bool, Value)> {
        let mut all = MultiValue::from_vec(vec![Value::Function(f)]);
        all.extend(args);
        protected_call(&self.lua, &self.describe, &self.wrapper, all)
    }

    /// Turns a protected call's result into the answer or a fault. A spent budget or an expired deadline
    /// wins over whatever the call returned, since the strategy may have swallowed the error.
    fn outcome(&self, result: mlua::Result<(bool, Value)>) -> Result<Value, Fault> {
        if let Some(kind) = self.shared.over.get() {
            return Err(match kind {
                FaultKind::Timeout => Fault::new(
                    kind,
                    format!(
                        "used more than {} ms of CPU time in one call",
                        self.limits.wall.as_millis()
                    ),
                ),
                FaultKind::Memory => Fault::new(
                    kind,
                    format!(
                        "holds more than its memory cap of {} MiB alive (after a full collection)",
                        self.limits.memory >> 20
                    ),
                ),
                _ => Fault::new(
                    kind,
                    format!("spent its budget of {} ticks", self.shared.budget),
                ),
            });
        }
        match result {
            Ok((true, value)) => Ok(value),
            Ok((false, Value::String(s))) => {
                let message = super::fault::cap_bytes(&s.as_bytes());
                // Out of memory, the error handler itself may fail to build its message.
                let oom = message.starts_with("not enough memory")
                    || (message == "error in error handling" && self.near_memory_cap());
                Err(if oom {
                    Fault::new(FaultKind::Memory, "not enough memory")
                } else {
                    Fault::new(FaultKind::Error, message)
                })
            }
            Ok((false, other)) => Err(Fault::new(
                FaultKind::Error,
                format!("raised a {} as its error", other.type_name()),
            )),
            Err(e) => Err(host_fault(FaultKind::Error, e)),
        }
    }
}

impl Vm {
    /// Whether the heap is within 1 MiB of its hard limit: what a memory bomb leaves behind.
    fn near_memory_cap(&self) -> bool {
        let kept = self.shared.cap.get() - self.limits.memory;
        self.lua.used_memory() + (1 << 20) >= hard_limit(self.limits.memory) + kept
    }
}

/// Luau's compiler at optimization level 1, its default. Level 2 (inlining) was a fifth faster in the
/// interpreter, but with native code (mlua `luau-jit`) it left much of player_conman interpreted
/// (perf: 42% of its time in `luau_execute` against none at level 1), and the BS pool played 3,472
/// games/s against 4,032 at level 1.
fn compiler() -> Compiler {
    Compiler::new().set_optimization_level(1)
}

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

fn host_fault(kind: FaultKind, e: mlua::Error) -> Fault {
    match e {
        mlua::Error::MemoryError(m) => Fault::new(FaultKind::Memory, m),
        other => Fault::new(kind, other.to_string()),
    }
}

/// What [`prepare`] keeps of a state's set-up.
struct Prepared {
    wrapper: Function,
    describe: Function,
    new_game: Function,
    meter: mlua::Buffer,
    env_meta: Table,
}

/// Sets up the globals before the sandbox closes them: removes what must not exist, routes `print` to
/// the log, adds the game modules, builds the trusted wrapper, then closes the sandbox.
fn prepare(lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<Prepared> {
    let globals = lua.globals();
    for name in REMOVED {
        globals.raw_set(name, Value::Nil)?;
    }
    let log = shared.clone();
    // Luau's own `tostring` (a per-game name, or `__tostring`); mlua's would print an address.
    let tostring: Function = globals.raw_get("tostring")?;
    let print = lua.create_function(move |_, args: MultiValue| {
        let line: Vec<String> = args.iter().map(|v| print_value(&tostring, v)).collect();
        log.log.borrow_mut().push(line.join("\t"));
        Ok(())
    })?;
    globals.raw_set("print", print)?;
    let math: Table = globals.raw_get("math")?;
    let randomseed: Function = math.raw_get("randomseed")?;
    // Our Luau numbers a game's objects from 1 once this runs (vendor/luau0-src/BOTBOX.md): tables
    // hash them, and `tostring` names them, by that number instead of their address.
    let begin_identities: Function = lua.named_registry_value("botbox.begin_game")?;
    static NEW_GAME_CODE: LazyLock<Vec<u8>> = LazyLock::new(|| compile_trusted(NEW_GAME));
    let new_game = load_trusted(lua, "=botbox", &NEW_GAME_CODE)?
        .call::<Function>((begin_identities, randomseed))?;
    for extension in super::extension::all() {
        extension.install_lua(lua)?;
    }
    let meter = install_costs(lua, shared)?;
    let payer = shared.clone();
    pattern::install(
        lua,
        &globals.raw_get::<Table>("string")?,
        Rc::new(move |steps| payer.charge((steps / PATTERN_STEPS_PER_TICK) as f64)),
    )?;

    let describe = lua.create_function(|lua, e: Value| match e {
        // Out of memory there is no room for a traceback: keep the message as it is.
        Value::String(s) if s.as_bytes().starts_with(b"not enough memory") => {
            Ok(s.to_string_lossy())
        }
        Value::String(s) => {
            let message = super::fault::cap_bytes(&s.as_bytes());
            let traceback = lua.traceback(None, 2)?.to_string_lossy();
            Ok(with_traceback(&message, &traceback))
        }
        other => Ok(format!("<{}>", other.type_name())),
    })?;
    static WRAPPER_CODE: LazyLock<Vec<u8>> = LazyLock::new(|| compile_trusted(WRAPPER));
    let reset_ticks: Function = lua.named_registry_value("botbox.reset_ticks")?;
    let wrapper = load_trusted(lua, "=botbox", &WRAPPER_CODE)?.call::<Function>(reset_ticks)?;
    let env_meta = lua.create_table()?;
    env_meta.raw_set("__index", &globals)?;
    env_meta.set_readonly(true);
    freeze(&Value::Table(globals), &mut HashSet::new())?;
    lua.sandbox(true)?;
    Ok(Prepared {
        wrapper,
        describe,
        new_game,
        meter,
        env_meta,
    })
}

/// Makes every table reachable from `value` (keys, values, metatables) read-only. `sandbox(true)`
/// freezes the libraries and the globals one level deep; a host module's nested table
/// (`g2048.directions`) would otherwise be a place where one game leaves a value for the next.
fn freeze(value: &Value, seen: &mut HashSet<usize>) -> mlua::Result<()> {
    let Value::Table(t) = value else {
        return Ok(());
    };
    if !seen.insert(t.to_pointer() as usize) {
        return Ok(());
    }
    if let Some(meta) = t.metatable() {
        freeze(&Value::Table(meta), seen)?;
    }
    let mut inner = Vec::new();
    t.for_each(|k: Value, v: Value| {
        inner.push(k);
        inner.push(v);
        Ok(())
    })?;
    for v in &inner {
        freeze(v, seen)?;
    }
    t.set_readonly(true);
    Ok(())
}

/// Installs the wrappers of [`costs`], charging through a host function, and returns the buffer
/// they add small charges up in. The trusted observation constructors keep the original functions
/// (they are loaded before, or given them).
fn install_costs(lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<mlua::Buffer> {
    let meter = lua.create_buffer([0u8; 8])?;
    let payer = shared.clone();
    let charge = lua.create_function(move |_, ticks: f64| payer.charge(ticks))?;
    let globals = lua.globals();
    let buffer: Table = globals.raw_get("buffer")?;
    static CODE: LazyLock<Vec<u8>> = LazyLock::new(|| compile_trusted(costs::WRAPPERS));
    load_trusted(lua, "=botbox.limits", &CODE)?.call::<()>((
        charge,
        meter.clone(),
        globals.raw_get::<Table>("string")?,
        globals.raw_get::<Table>("table")?,
        buffer,
        globals.raw_get::<Table>("utf8")?,
        costs::SMALL,
        costs::BATCH,
        costs::BYTES_PER_TICK,
    ))?;
    Ok(meter)
}

/// Steps of the pattern matcher (a character examined, 8 bytes compared) charged as one tick.
const PATTERN_STEPS_PER_TICK: u64 = 4;

/// The allocator's hard limit for a live-memory cap: room for the garbage made between two
/// interrupts, at which the cap itself is checked after a collection.
fn hard_limit(cap: usize) -> usize {
    cap.saturating_mul(2)
}

impl Shared {
    /// Charges `ticks` of library work to the budget (from [`costs`]).
    fn charge(&self, ticks: f64) -> mlua::Result<()> {
        let ticks = if ticks.is_nan() { 0 } else { ticks as u64 };
        let total = self.ticks.get().saturating_add(ticks);
        self.ticks.set(total);
        if total > self.budget {
            self.over.set(Some(FaultKind::Budget));
            return Err(mlua::Error::runtime(
                "strategy stopped: instruction budget spent",
            ));
        }
        Ok(())
    }
}

/// A game's environment: empty, its reads falling through to the read-only globals, marked `safeenv`
/// as Luau's own sandbox marks its environment (fast built-in calls).
fn new_env(lua: &Lua, meta: &Table) -> mlua::Result<Table> {
    let env = lua.create_table()?;
    env.set_metatable(Some(meta.clone()))?;
    env.set_safeenv(true);
    Ok(env)
}

/// The error message followed by the strategy's own stack frames, without the host's wrapper frames.
fn with_traceback(message: &str, traceback: &str) -> String {
    let frames: Vec<&str> = traceback
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("botbox"))
        .collect();
    if frames.is_empty() {
        message.to_string()
    } else {
        format!("{message}\nstack traceback:\n  {}", frames.join("\n  "))
    }
}

/// Function names and the Lua strings made for them, for looking functions up.
type Keys = Vec<(String, mlua::LuaString)>;

/// Luau's `LUA_GCSETGOAL`, in percent of the live heap: see [`Vm::new`].
const GC_GOAL: i32 = 400;

/// Our Luau runs the host's interrupt once every this many ticks, counted from the start of each call
/// (vendor/luau0-src/BOTBOX.md): the budget is counted and the heap and the time limit are looked at
/// in steps of this many ticks. Running it at every tick cost a tenth of a BS game (mlua's callback
/// machinery); the allocator's hard limit of twice the cap leaves room for what is made between.
const TICKS_PER_INTERRUPT: u64 = 16;

/// The heap has passed its collection mark: a full collection, then fault `memory` if what is alive
/// is still over the cap. The next collection comes after another quarter of the cap has been
/// allocated, so collections cost at most about the work of allocating that much.
fn collect(lua: &Lua, shared: &Shared) -> mlua::Result<VmState> {
    lua.gc_collect()?;
    let live = lua.used_memory();
    let cap = shared.cap.get();
    if live > cap {
        shared.over.set(Some(FaultKind::Memory));
        return Err(mlua::Error::runtime("strategy stopped: memory cap"));
    }
    shared.collect_at.set(cap.max(live + cap / 4));
    Ok(VmState::Continue)
}

/// A value as `print` writes it: what `tostring` gives (a table's or function's per-game name, or its
/// `__tostring`), capped.
fn print_value(tostring: &Function, v: &Value) -> String {
    match v {
        Value::String(s) => super::fault::cap_bytes(&s.as_bytes()),
        Value::Nil | Value::Boolean(_) | Value::Integer(_) | Value::Number(_) => describe_value(v),
        other => match tostring.call::<mlua::LuaString>(other) {
            Ok(s) => super::fault::cap_bytes(&s.as_bytes()),
            Err(_) => format!("<{}>", other.type_name()),
        },
    }
}

fn describe_value(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => super::fault::cap_bytes(&s.as_bytes()),
        other => format!("<{}>", other.type_name()),
    }
}

fn install_interrupt(lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<()> {
    let shared = shared.clone();
    // Once a call is over its limits the interrupt raises at every tick, not every 16th: one in 16
    // could always fall inside a `pcall` the strategy loops around.
    let every_tick: Function = lua.named_registry_value("botbox.every_tick")?;
    lua.set_interrupt(move |lua| {
        if let Some(kind) = shared.over.get() {
            every_tick.call::<()>(())?;
            return Err(mlua::Error::runtime(format!("strategy stopped: {kind}")));
        }
        let ticks = shared.ticks.get() + TICKS_PER_INTERRUPT;
        shared.ticks.set(ticks);
        if ticks > shared.budget {
            shared.over.set(Some(FaultKind::Budget));
            return Err(mlua::Error::runtime(
                "strategy stopped: instruction budget spent",
            ));
        }
        if shared.deadline.expired() {
            shared.over.set(Some(FaultKind::Timeout));
            return Err(mlua::Error::runtime("strategy stopped: time limit"));
        }
        if lua.used_memory() > shared.collect_at.get() {
            return collect(lua, &shared);
        }
        Ok(VmState::Continue)
    });
    lua.named_registry_value::<Function>("botbox.count_ticks")?
        .call::<()>(TICKS_PER_INTERRUPT)
}

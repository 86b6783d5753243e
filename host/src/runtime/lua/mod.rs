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
//!   [`setup`]), and nothing else a strategy can reach outlives the game, so
//!   no value passes from one game to the next. The Luau state itself is reused ([`pool`]), since
//!   creating one cost more than the whole game of a light strategy; a state that saw any fault is
//!   thrown away, and `gcinfo`/`collectgarbage` (the one reading that depends on the state's past) are
//!   absent.

pub mod convert;
mod costs;
mod interrupt;
mod pattern;
mod pool;
mod setup;
mod trusted;

use interrupt::{Shared, hard_limit, install_interrupt};
use setup::{libs, new_env, prepare};
pub(crate) use trusted::{Bytes, compile_trusted, load_trusted, protected_call};

use std::cell::{Cell, Ref, RefCell};
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use mlua::chunk::{ChunkMode, Compiler};
use mlua::{Function, Lua, LuaOptions, MultiValue, StdLib, Table, Value};

use super::log::Log;
use super::watchdog::Deadline;
use super::{Answer, Extensions, Fault, FaultKind, Limits, LoadError, Payload, Setup};

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
    /// What the games add to every state (their modules), from the caller.
    extensions: Extensions,
}

static NEXT_PROGRAM: AtomicU64 = AtomicU64::new(1);

/// The largest Lua source accepted, checked before parsing: the largest bundled strategy is about
/// 20 KiB, and Luau parses and compiles a megabyte in well under a second.
pub const MAX_SOURCE: usize = 1 << 20;

impl Program {
    pub fn compile(
        display: &str,
        bytes: &[u8],
        extensions: Extensions,
    ) -> Result<Program, LoadError> {
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
            extensions,
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
    /// count, then calls the function (`setup::WRAPPER`).
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
        let prepared = prepare(&lua, &shared, program.extensions).map_err(load)?;
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
                    "{} must return a table of functions, but returned {} {}",
                    self.display,
                    if other.type_name().starts_with(['a', 'e', 'i', 'o', 'u']) {
                        "an"
                    } else {
                        "a"
                    },
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
                let oom = out_of_memory(message.as_bytes())
                    || (message == "error in error handling" && self.near_memory_cap());
                Err(if oom {
                    Fault::new(
                        FaultKind::Memory,
                        format!(
                            "not enough memory under its memory cap of {} MiB",
                            self.limits.memory >> 20
                        ),
                    )
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

/// Whether an error message is Luau's out-of-memory error: as the allocator raises it ("not enough
/// memory"), or as a library function raises it at its caller's position ("bot.lua:4: not enough
/// memory", the host's pattern matcher among them). A strategy that raises these words itself gets
/// the fault it asked for.
pub(super) fn out_of_memory(message: &[u8]) -> bool {
    const OOM: &[u8] = b"not enough memory";
    message == OOM || message.ends_with(b": not enough memory")
}

fn host_fault(kind: FaultKind, e: mlua::Error) -> Fault {
    match e {
        mlua::Error::MemoryError(m) => Fault::new(FaultKind::Memory, m),
        other => Fault::new(kind, other.to_string()),
    }
}

/// Function names and the Lua strings made for them, for looking functions up.
type Keys = Vec<(String, mlua::LuaString)>;

/// Luau's `LUA_GCSETGOAL`, in percent of the live heap: see [`Vm::new`].
const GC_GOAL: i32 = 400;

//! Lua strategies, run in Luau with `sandbox(true)`.
//!
//! Measured on machines like ours (`shared/notes/runtime-facts.md`): plain Lua 5.4 and LuaJIT let
//! untrusted code escape instruction hooks; Luau with a sandbox, an interrupt that fails once the budget
//! is spent and a memory cap contained every case tried. The measures that matter, each one here:
//! - the interrupt is installed before the chunk's top level runs, and its "over budget" state is
//!   sticky, so a `pcall` that swallows the first error meets the next one at its next tick; it is
//!   checked after an `Ok` result too;
//! - the wall clock is a flag raised by a timer thread ([`super::watchdog`]), checked at every tick;
//! - strategy functions are called through a trusted `xpcall` wrapper whose handler describes error
//!   values by type, never through `__tostring`;
//! - `require`, `loadstring`, `getfenv`/`setfenv`, `io`, `os` and `debug` are absent; chunks load in text
//!   mode only (bytecode is refused); `print` goes to the strategy's log;
//! - one fresh state per strategy per game, thrown away afterwards (a memory bomb leaves it near the cap).

pub mod bs;
pub mod convert;
pub mod g2048;

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;
use std::sync::LazyLock;

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
}

impl Program {
    pub fn compile(display: &str, bytes: &[u8]) -> Result<Program, LoadError> {
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
        let bytecode = Compiler::new()
            .compile(&source)
            .map_err(|e| syntax(display, e))?;
        Ok(Program {
            bytecode,
            chunk_name,
        })
    }

    pub fn instantiate(&self, setup: &Setup, limits: &Limits) -> Result<Instance, Fault> {
        Instance::new(self, setup, limits)
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
}

/// A Lua strategy playing one game.
pub struct Instance {
    vm: Vm,
    /// The table the strategy file returned.
    module: Table,
}

/// A sandboxed state and what it takes to call into it under the limits.
struct Vm {
    lua: Lua,
    shared: Rc<Shared>,
    wall: std::time::Duration,
    memory_cap: usize,
    /// The trusted `xpcall` wrapper every strategy function is called through.
    wrapper: Function,
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

/// Globals no strategy may have: code loading, environment access, and anything that reaches outside.
const REMOVED: [&str; 11] = [
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
];

const WRAPPER: &str = r#"
local xpcall, describe = ...
return function(f, ...)
  return xpcall(f, describe, ...)
end
"#;

impl Instance {
    fn new(program: &Program, setup: &Setup, limits: &Limits) -> Result<Instance, Fault> {
        let shared = Rc::new(Shared {
            ticks: Cell::new(0),
            budget: limits.lua_budget,
            over: Cell::new(None),
            deadline: Deadline::new(),
            log: RefCell::new(Log::new(limits.log_bytes)),
        });
        let lua =
            Lua::new_with(libs(), LuaOptions::new()).map_err(|e| host_fault(FaultKind::Load, e))?;
        let wrapper = prepare(&lua, &shared, setup).map_err(|e| host_fault(FaultKind::Load, e))?;
        lua.set_memory_limit(limits.memory)
            .map_err(|e| host_fault(FaultKind::Load, e))?;
        install_interrupt(&lua, &shared);
        let vm = Vm {
            lua,
            shared,
            wall: limits.wall,
            memory_cap: limits.memory,
            wrapper,
        };
        let module = vm.run_chunk(program)?;
        let mut instance = Instance { vm, module };
        if matches!(
            instance.module.raw_get::<Value>("init"),
            Ok(Value::Function(_))
        ) {
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
        let f: Value = self
            .module
            .raw_get(function)
            .map_err(|e| host_fault(FaultKind::Error, e))?;
        let Value::Function(f) = f else {
            return Err(Fault::new(
                FaultKind::Error,
                format!("the strategy has no function `{function}`"),
            ));
        };
        let vm = &self.vm;
        vm.begin();
        let result = observation
            .to_lua(&vm.lua)
            .and_then(|obs| vm.protected(f, MultiValue::from_vec(vec![obs])));
        vm.end();
        let value = vm.outcome(result)?;
        A::from_lua(&value)
            .map_err(|e| Fault::new(FaultKind::BadOutput, format!("`{function}` returned {e}")))
    }

    /// Whether the strategy's table has a function `name` (read raw: no metamethod runs).
    pub fn has_function(&self, name: &str) -> bool {
        matches!(self.module.raw_get::<Value>(name), Ok(Value::Function(_)))
    }

    pub fn log(&self) -> Vec<String> {
        self.vm.shared.log.borrow().lines().to_vec()
    }
}

impl Vm {
    /// Runs the file's top-level code under the limits; it must return a table.
    fn run_chunk(&self, program: &Program) -> Result<Table, Fault> {
        let chunk = self
            .lua
            .load(&program.bytecode)
            .set_name(&program.chunk_name)
            .set_mode(ChunkMode::Binary)
            .into_function()
            .map_err(|e| host_fault(FaultKind::Load, e))?;
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
                    &program.chunk_name[1..],
                    other.type_name()
                ),
            )),
        }
    }

    fn begin(&self) {
        self.shared.ticks.set(0);
        self.shared.over.set(None);
        self.shared.deadline.arm(self.wall);
    }

    fn end(&self) {
        self.shared.deadline.disarm();
    }

    /// Calls `f(args...)` through the trusted wrapper: `Ok((ok, value_or_message))`.
    fn protected(&self, f: Function, args: MultiValue) -> mlua::Result<(bool, Value)> {
        let mut all = MultiValue::from_vec(vec![Value::Function(f)]);
        all.extend(args);
        self.wrapper.call::<(bool, Value)>(all)
    }

    /// Turns a protected call's result into the answer or a fault. A spent budget or an expired deadline
    /// wins over whatever the call returned, since the strategy may have swallowed the error.
    fn outcome(&self, result: mlua::Result<(bool, Value)>) -> Result<Value, Fault> {
        if let Some(kind) = self.shared.over.get() {
            return Err(match kind {
                FaultKind::Timeout => Fault::new(
                    kind,
                    format!("took longer than {} ms", self.wall.as_millis()),
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
                let message = s.to_string_lossy();
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
    /// Whether the heap is within 1 MiB of its cap: what a memory bomb leaves behind.
    fn near_memory_cap(&self) -> bool {
        self.lua.used_memory() + (1 << 20) >= self.memory_cap
    }
}

/// Compiles a chunk of the host's own Luau code (a wrapper, an observation constructor), once per
/// process: keep the result in a `LazyLock` and load it into each state with [`load_trusted`].
pub(crate) fn compile_trusted(source: &str) -> Vec<u8> {
    Compiler::new()
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

fn host_fault(kind: FaultKind, e: mlua::Error) -> Fault {
    match e {
        mlua::Error::MemoryError(m) => Fault::new(FaultKind::Memory, m),
        other => Fault::new(kind, other.to_string()),
    }
}

/// Sets up the globals before the sandbox closes them: removes what must not exist, routes `print` to
/// the log, seeds `math.random`, adds the game modules, and builds the trusted wrapper.
fn prepare(lua: &Lua, shared: &Rc<Shared>, setup: &Setup) -> mlua::Result<Function> {
    let globals = lua.globals();
    for name in REMOVED {
        globals.raw_set(name, Value::Nil)?;
    }
    let log = shared.clone();
    let print = lua.create_function(move |_, args: MultiValue| {
        let line: Vec<String> = args.iter().map(describe_value).collect();
        log.log.borrow_mut().push(line.join("\t"));
        Ok(())
    })?;
    globals.raw_set("print", print)?;
    let math: Table = globals.raw_get("math")?;
    let randomseed: Function = math.raw_get("randomseed")?;
    randomseed.call::<()>((setup.seed % (1 << 31)) as i64)?;
    g2048::install(lua)?;

    let describe = lua.create_function(|lua, e: Value| match e {
        // Out of memory there is no room for a traceback: keep the message as it is.
        Value::String(s) if s.as_bytes().starts_with(b"not enough memory") => {
            Ok(s.to_string_lossy())
        }
        Value::String(s) => {
            let traceback = lua.traceback(None, 2)?.to_string_lossy();
            Ok(with_traceback(&s.to_string_lossy(), &traceback))
        }
        other => Ok(format!("<{}>", other.type_name())),
    })?;
    let xpcall: Function = globals.raw_get("xpcall")?;
    static WRAPPER_CODE: LazyLock<Vec<u8>> = LazyLock::new(|| compile_trusted(WRAPPER));
    let wrapper =
        load_trusted(lua, "=botbox", &WRAPPER_CODE)?.call::<Function>((xpcall, describe))?;
    lua.sandbox(true)?;
    Ok(wrapper)
}

/// The error message followed by the strategy's own stack frames, without the host's wrapper frames.
fn with_traceback(message: &str, traceback: &str) -> String {
    let frames: Vec<&str> = traceback
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("botbox") && !l.starts_with("[C]: in function 'xpcall'")
        })
        .collect();
    if frames.is_empty() {
        message.to_string()
    } else {
        format!("{message}\nstack traceback:\n  {}", frames.join("\n  "))
    }
}

fn describe_value(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.to_string_lossy(),
        other => format!("<{}>", other.type_name()),
    }
}

fn install_interrupt(lua: &Lua, shared: &Rc<Shared>) {
    let shared = shared.clone();
    lua.set_interrupt(move |_| {
        if let Some(kind) = shared.over.get() {
            return Err(mlua::Error::runtime(format!("strategy stopped: {kind}")));
        }
        let ticks = shared.ticks.get() + 1;
        shared.ticks.set(ticks);
        if ticks > shared.budget {
            shared.over.set(Some(FaultKind::Budget));
            return Err(mlua::Error::runtime(
                "strategy stopped: instruction budget spent",
            ));
        }
        if shared.deadline.expired() {
            shared.over.set(Some(FaultKind::Timeout));
            return Err(mlua::Error::runtime("strategy stopped: wall-clock limit"));
        }
        Ok(VmState::Continue)
    });
}

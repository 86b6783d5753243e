//! WASM strategies through wasmtime: core modules speaking the ABI of `docs/wasm-abi.md`.
//!
//! One [`wasmtime::Engine`] per memory cap serves a whole run: fuel metering and epoch interruption on,
//! NaN canonicalisation and deterministic relaxed SIMD for reproducible results, no threads, a bounded
//! wasm stack, and the pooling allocator so that a game's instance costs microseconds. A module is
//! compiled once by [`Program::compile`] (from the user's bytes, never by deserializing an artefact),
//! its imports checked, and pre-linked into an [`InstancePre`]; each game then gets its own [`Store`].
//!
//! Compiling is work a module makes the host do before any limit of a game applies, and Cranelift's
//! cost grows faster than a module's size for some shapes of code (see [`MAX_LOCALS`] and the
//! constants after it). So [`Program::compile`] first measures the module's shape with wasmparser
//! (one linear pass, no compilation) and refuses it over the caps below, then compiles it with a
//! deadline, [`Limits::compile_time`]. Both refusals are [`LoadError::TooCostly`].

pub mod host;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use wasmparser::{CompositeInnerType, ElementItems, Encoding, Operator, Parser, TypeRef};
use wasmtime::{
    Config, Engine, Inlining, InstanceAllocationStrategy, InstancePre, Linker, Memory, Module,
    PoolingAllocationConfig, ResourceLimiter, Store, Trap, TypedFunc, UpdateDeadline,
};

use super::log::Log;
use super::watchdog::Deadline;
use super::{Answer, Fault, FaultKind, Limits, LoadError, Payload, Setup};

/// The wasm stack a strategy may use; deeper recursion traps with "call stack exhausted".
pub const MAX_WASM_STACK: usize = 512 << 10;
/// How often the epoch advances: how often a running call looks at its time limit (the CPU time of
/// its thread, measured by [`super::watchdog`]).
const EPOCH_TICK: Duration = Duration::from_millis(10);
/// Answers longer than this are refused (fault `bad-output`).
const MAX_ANSWER: usize = 1 << 20;
/// Elements a table may have (the pooling allocator reserves this many per table).
const TABLE_ELEMENTS: usize = 100_000;

// Caps on a module's shape, checked before compiling. The largest of the bundled strategies (the four
// Rust guests under strategies/rust/, built for wasm32 in release; strategies/wat/; the hostile
// fixtures) is bs-counter: 274 KiB, 194 KiB of code, 386 functions. Over all of them: the longest
// body 7.6 KiB, at most 64 locals (params included), 84 levels of nesting, 296 branches in one
// function, 7,205 branches and 352 loops in one module, 27 types of at most 9 params, 1 import,
// 8 exports, 3 globals, 2 data segments, a table of 80 elements. Each cap leaves several times that.
// On this project's 2-core machines, under load, those modules compile at 250 KB of code per second
// or more (bs-counter in 0.76 s), so code like theirs compiles within the default deadline up to
// the size caps; the shapes the other caps stop compile far slower per byte (figures at each).

/// A `.wat` file's text, before parsing; the other caps apply to the binary it becomes.
pub const MAX_WAT_BYTES: usize = 16 << 20;
/// A module's size in bytes, data and custom sections included (bundled: at most 274 KiB).
pub const MAX_MODULE_BYTES: usize = 4 << 20;
/// The code section's size in bytes (bundled: at most 194 KiB): at 250 KB/s, about 4 s to compile.
pub const MAX_CODE_BYTES: usize = 1 << 20;
/// Functions, imported and defined (bundled: at most 386). Each gets fuel and epoch checks: 10,000
/// empty ones took 2.1 to 3.6 s to compile.
pub const MAX_FUNCTIONS: usize = 5_000;
/// Bytes in one function body (bundled: at most 7.6 KiB).
pub const MAX_FUNCTION_BYTES: usize = 64 << 10;
/// Locals of one function, its params included (bundled: at most 64; wasmparser allows 50,000).
/// Every value live across a branch is passed along it in Cranelift's SSA form, so compile time
/// grows with locals × branches: a 54 KB body with 2,000 locals live across a loop of 5,000 `br_if`
/// took 92 s and 1.1 GB, with 1,000 locals 22 s and 716 MB; 2,000 locals and 10,000 `br_if`
/// (109 KB) 75 s and 2.7 GB. See [`MAX_BRANCH_WORK`].
pub const MAX_LOCALS: usize = 1_000;
/// Levels of block, loop, if and try nesting in one function (bundled: at most 84). The cost grows
/// with the square of the depth: 20,000 nested loops (60 KB) took 7.4 s and 446 MB, 50,000 nested
/// `if`s (250 KB) 28 s; 1,000 nested loops 0.15 s.
pub const MAX_NESTING: usize = 1_000;
/// Branches in one function: `br`, `br_if`, `if`, the `br_on_*` and each target of a `br_table`
/// (bundled: at most 296). With fuel and epoch checks in the code the cost grows with their square:
/// 2,500 `br_if` in one loop took 0.35 s, 15,000 (60 KB) 5.2 s.
pub const MAX_FUNCTION_BRANCHES: usize = 2_500;
/// Branches in the module, counted as for [`MAX_FUNCTION_BRANCHES`] (bundled: at most 7,205).
/// 50,000 of them, 2,500 per function, took 5 s.
pub const MAX_BRANCHES: usize = 50_000;
/// Loops in the module (bundled: at most 352). Each gets a fuel and an epoch check: even an empty
/// loop took about 0.25 ms to compile, 10,000 of them 2.4 to 3.9 s.
pub const MAX_LOOPS: usize = 5_000;
/// The module's branch work: over its functions, the sum of branches × the values that may be live
/// across each (params + locals + the arity of the module's widest function type). The locals ×
/// branches cost of [`MAX_LOCALS`] grows with it, at 3 to 5 µs per unit here; the cap keeps that to
/// a few seconds (bundled: at most 181,000).
pub const MAX_BRANCH_WORK: u64 = 1_000_000;
/// Types (bundled: at most 27).
pub const MAX_TYPES: usize = 1_000;
/// Params, or results, of one function type (bundled: at most 9 params and 1 result). A block of
/// such a type passes them all along every branch to it.
pub const MAX_TYPE_ARITY: usize = 64;
/// Imports (the ABI offers 8 functions; bundled: at most 1).
pub const MAX_IMPORTS: usize = 100;
/// Exports (bundled: at most 8).
pub const MAX_EXPORTS: usize = 1_000;
/// Globals (bundled: at most 3).
pub const MAX_GLOBALS: usize = 1_000;
/// Data segments, and element segments, each (bundled: at most 2 and 1). Their bytes count in
/// [`MAX_MODULE_BYTES`].
pub const MAX_SEGMENTS: usize = 1_000;
/// Elements of one table (its initial size; more could not be instantiated) and function references
/// in all element segments (bundled: a table of 80, 79 references).
pub const MAX_TABLE_ELEMENTS: u64 = TABLE_ELEMENTS as u64;

static ENGINES: LazyLock<Mutex<HashMap<(usize, bool), Engine>>> = LazyLock::new(Default::default);

/// The engine for a memory cap, with fuel metering or without (`--fuel 0`: trusted code at full
/// speed, stopped only by the wall clock), created on first use with its epoch ticker thread.
pub fn engine(memory_cap: usize, metered: bool) -> Result<Engine, String> {
    let mut engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(engine) = engines.get(&(memory_cap, metered)) {
        return Ok(engine.clone());
    }
    let engine = Engine::new(&config(memory_cap, metered))
        .map_err(|e| format!("configuring wasmtime: {e}"))?;
    let ticker = engine.clone();
    std::thread::Builder::new()
        .name("botbox-epoch".into())
        .spawn(move || {
            loop {
                std::thread::sleep(EPOCH_TICK);
                ticker.increment_epoch();
            }
        })
        .map_err(|e| format!("starting the epoch thread: {e}"))?;
    engines.insert((memory_cap, metered), engine.clone());
    Ok(engine)
}

fn config(memory_cap: usize, metered: bool) -> Config {
    let mut pool = PoolingAllocationConfig::default();
    pool.total_core_instances(512)
        .total_memories(512)
        .total_tables(512)
        .max_memory_size(memory_cap)
        .table_elements(TABLE_ELEMENTS);
    let mut config = Config::new();
    config
        .consume_fuel(metered)
        .epoch_interruption(true)
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        .max_wasm_stack(MAX_WASM_STACK)
        // Compile cost. No inlining across functions (wasmtime 48's default, pinned): with it, what
        // one function costs to compile would depend on its callees, and the per-function caps
        // would bound less. Cranelift's optimisations (`OptLevel::Speed`) and its backtracking
        // register allocator stay on: `OptLevel::None` was no faster on the costly shapes the caps
        // stop, and the single-pass allocator is not production-ready (wasmtime issues no security
        // advisories for it). Parallel compilation stays on (the default): it compiles real
        // modules up to twice as fast on 2 cores; a compilation left running past its deadline
        // uses both cores until it ends, which the caps keep to seconds.
        .compiler_inlining(Inlining::No)
        .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    config
}

/// A compiled, import-checked module, ready to be instantiated per game.
pub struct Program {
    pre: InstancePre<StoreData>,
    display: String,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("wasm::Program")
            .field("file", &self.display)
            .finish_non_exhaustive()
    }
}

impl Program {
    /// Compiles WASM bytes or WAT text, refuses imports the ABI does not offer, and pre-links the rest.
    /// A module over a cap on its shape ([`MAX_MODULE_BYTES`] and the others), or one that does not
    /// compile within `limits.compile_time`, is refused with [`LoadError::TooCostly`].
    pub fn compile(display: &str, bytes: &[u8], limits: &Limits) -> Result<Program, LoadError> {
        let file = display.to_string();
        let abi = |message: String| LoadError::Abi {
            file: file.clone(),
            message,
        };
        let refused = |refusal: Refusal| match refusal {
            Refusal::Invalid(message) => LoadError::InvalidModule {
                file: file.clone(),
                message,
            },
            Refusal::Costly(message) => LoadError::TooCostly {
                file: file.clone(),
                message,
            },
            Refusal::Host(message) => abi(message),
        };
        let binary = to_binary(display, bytes).map_err(refused)?;
        check_shape(&binary).map_err(refused)?;
        let engine = engine(limits.memory, limits.fuel > 0).map_err(abi)?;
        let module =
            compile_within(&engine, binary.into_owned(), limits.compile_time).map_err(refused)?;
        for import in module.imports() {
            let offered = |name: &str| {
                host::NAMES.contains(&name)
                    || super::extension::all()
                        .iter()
                        .any(|e| e.wasm_imports().contains(&name))
            };
            if import.module() != host::MODULE || !offered(import.name()) {
                return Err(LoadError::ForbiddenImport {
                    file: file.clone(),
                    module: import.module().to_string(),
                    name: import.name().to_string(),
                });
            }
        }
        for (name, what) in [
            ("memory", "a memory"),
            ("botbox_alloc", "a function"),
            ("botbox_init", "a function"),
        ] {
            if module.get_export(name).is_none() {
                return Err(abi(format!(
                    "does not export `{name}` ({what}; see docs/wasm-abi.md)"
                )));
            }
        }
        let mut linker = Linker::new(&engine);
        host::define(&mut linker).map_err(|e| abi(format!("{e:#}")))?;
        for extension in super::extension::all() {
            extension
                .link_wasm(&mut linker)
                .map_err(|e| abi(format!("{e:#}")))?;
        }
        let pre = linker
            .instantiate_pre(&module)
            .map_err(|e| abi(format!("{e:#}")))?;
        Ok(Program { pre, display: file })
    }

    pub fn instantiate(&self, setup: &Setup, limits: &Limits) -> Result<Instance, Fault> {
        Instance::new(self, setup, limits)
    }
}

/// Why a module is refused before it is ready to run.
enum Refusal {
    /// Not a module wasmparser or wasmtime can read or compile: [`LoadError::InvalidModule`].
    Invalid(String),
    /// Over a cap on its shape, or not compiled within the deadline: [`LoadError::TooCostly`].
    Costly(String),
    /// The host could not do its part (start a thread): [`LoadError::Abi`].
    Host(String),
}

/// Where refusals point for the caps.
const SEE_LIMITS: &str = "see \"Limits on modules\" in docs/wasm-abi.md";

/// The module's binary: `bytes` as they are if they are one, else `bytes` parsed as WAT text (then
/// [`MAX_WAT_BYTES`] applies to the text, and the other caps to the binary it becomes).
fn to_binary<'a>(display: &str, bytes: &'a [u8]) -> Result<Cow<'a, [u8]>, Refusal> {
    if bytes.starts_with(b"\0asm") {
        return Ok(Cow::Borrowed(bytes));
    }
    if std::str::from_utf8(bytes).is_err() {
        let head: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
        return Err(Refusal::Invalid(format!(
            "neither a binary module (one starts with the bytes 00 61 73 6d) nor WAT text: the file {}",
            if head.is_empty() {
                "is empty".to_string()
            } else {
                format!("starts with {}", head.join(" "))
            }
        )));
    }
    cap(bytes.len() as u64, MAX_WAT_BYTES as u64, || {
        "size of the text in bytes".into()
    })?;
    wat::parse_bytes(bytes).map_err(|mut e| {
        e.set_path(Path::new(display));
        Refusal::Invalid(e.to_string())
    })
}

/// Refuses `found` over `limit`, naming the limit (`what`) and the value found.
fn cap(found: u64, limit: u64, what: impl FnOnce() -> String) -> Result<(), Refusal> {
    if found <= limit {
        return Ok(());
    }
    Err(Refusal::Costly(format!(
        "{}: {found}, over the cap of {limit} ({SEE_LIMITS})",
        what()
    )))
}

/// Measures the module's shape in one pass of wasmparser, reading every section header and function
/// body but compiling nothing, and refuses it at the first cap it is over. Malformed input is
/// refused as invalid with wasmparser's message (wasmtime, which validates with the same crate,
/// would refuse it too). The pass costs time linear in the module's size, itself capped first.
fn check_shape(bytes: &[u8]) -> Result<(), Refusal> {
    cap(bytes.len() as u64, MAX_MODULE_BYTES as u64, || {
        "size of the module in bytes".into()
    })?;
    let invalid = |e: wasmparser::BinaryReaderError| Refusal::Invalid(e.to_string());
    // Params of each type (0 for types that are not function types), the type of each defined
    // function, and the arity of the widest function type.
    let mut type_params: Vec<u64> = Vec::new();
    let mut function_types: Vec<u32> = Vec::new();
    let mut widest = 0u64;
    let (mut functions, mut imported_functions, mut imports) = (0u64, 0u64, 0u64);
    let (mut code_bytes, mut bodies) = (0u64, 0u64);
    let (mut branches, mut loops, mut work) = (0u64, 0u64, 0u64);
    for payload in Parser::new(0).parse_all(bytes) {
        use wasmparser::Payload;
        match payload.map_err(invalid)? {
            Payload::Version {
                encoding: Encoding::Component,
                ..
            } => {
                return Err(Refusal::Invalid(
                    "this is a component; botbox runs core modules (see docs/wasm-abi.md)".into(),
                ));
            }
            Payload::TypeSection(reader) => {
                for group in reader {
                    for ty in group.map_err(invalid)?.into_types() {
                        let index = type_params.len();
                        cap(index as u64 + 1, MAX_TYPES as u64, || "types".into())?;
                        let params = match &ty.composite_type.inner {
                            CompositeInnerType::Func(f) => {
                                let arity = f.params().len().max(f.results().len()) as u64;
                                cap(arity, MAX_TYPE_ARITY as u64, || {
                                    format!("params or results of type {index}")
                                })?;
                                widest = widest.max(arity);
                                f.params().len() as u64
                            }
                            _ => 0,
                        };
                        type_params.push(params);
                    }
                }
            }
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    imports += 1;
                    cap(imports, MAX_IMPORTS as u64, || "imports".into())?;
                    if let TypeRef::Func(_) | TypeRef::FuncExact(_) = import.map_err(invalid)?.ty {
                        imported_functions += 1;
                        functions += 1;
                    }
                }
            }
            Payload::FunctionSection(reader) => {
                functions += u64::from(reader.count());
                cap(functions, MAX_FUNCTIONS as u64, || {
                    "functions (imported and defined)".into()
                })?;
                for ty in reader {
                    function_types.push(ty.map_err(invalid)?);
                }
            }
            Payload::TableSection(reader) => {
                for (index, table) in reader.into_iter().enumerate() {
                    let initial = table.map_err(invalid)?.ty.initial;
                    cap(initial, MAX_TABLE_ELEMENTS, || {
                        format!("initial elements of table {index}")
                    })?;
                }
            }
            Payload::GlobalSection(reader) => {
                cap(u64::from(reader.count()), MAX_GLOBALS as u64, || {
                    "globals".into()
                })?
            }
            Payload::ExportSection(reader) => {
                cap(u64::from(reader.count()), MAX_EXPORTS as u64, || {
                    "exports".into()
                })?
            }
            Payload::ElementSection(reader) => {
                cap(u64::from(reader.count()), MAX_SEGMENTS as u64, || {
                    "element segments".into()
                })?;
                let mut references = 0u64;
                for element in reader {
                    references += u64::from(match element.map_err(invalid)?.items {
                        ElementItems::Functions(f) => f.count(),
                        ElementItems::Expressions(_, e) => e.count(),
                    });
                    cap(references, MAX_TABLE_ELEMENTS, || {
                        "function references in element segments".into()
                    })?;
                }
            }
            Payload::DataSection(reader) => {
                cap(u64::from(reader.count()), MAX_SEGMENTS as u64, || {
                    "data segments".into()
                })?
            }
            Payload::CodeSectionStart { count, range, .. } => {
                code_bytes += range.len() as u64;
                cap(code_bytes, MAX_CODE_BYTES as u64, || {
                    "size of the code in bytes".into()
                })?;
                cap(u64::from(count), MAX_FUNCTIONS as u64, || {
                    "function bodies".into()
                })?;
            }
            Payload::CodeSectionEntry(body) => {
                let defined = bodies as usize;
                let index = imported_functions + bodies;
                bodies += 1;
                let size = body.range().len() as u64;
                cap(size, MAX_FUNCTION_BYTES as u64, || {
                    format!("size of function {index} in bytes")
                })?;
                let params = function_types
                    .get(defined)
                    .and_then(|&ty| type_params.get(ty as usize))
                    .copied()
                    .unwrap_or(0);
                let mut locals = params;
                for entry in body.get_locals_reader().map_err(invalid)? {
                    locals += u64::from(entry.map_err(invalid)?.0);
                    cap(locals, MAX_LOCALS as u64, || {
                        format!("locals of function {index} (params included)")
                    })?;
                }
                let (mut depth, mut own_branches) = (0u64, 0u64);
                let mut operators = body.get_operators_reader().map_err(invalid)?;
                while !operators.eof() {
                    let (opens, branch) = match operators.read().map_err(invalid)? {
                        Operator::Loop { .. } => {
                            loops += 1;
                            cap(loops, MAX_LOOPS as u64, || "loops".into())?;
                            (true, 0)
                        }
                        Operator::Block { .. }
                        | Operator::Try { .. }
                        | Operator::TryTable { .. } => (true, 0),
                        Operator::If { .. } => (true, 1),
                        Operator::End | Operator::Delegate { .. } => {
                            depth = depth.saturating_sub(1);
                            (false, 0)
                        }
                        Operator::Br { .. }
                        | Operator::BrIf { .. }
                        | Operator::BrOnNull { .. }
                        | Operator::BrOnNonNull { .. }
                        | Operator::BrOnCast { .. }
                        | Operator::BrOnCastFail { .. } => (false, 1),
                        Operator::BrTable { targets } => (false, 1 + u64::from(targets.len())),
                        _ => (false, 0),
                    };
                    if opens {
                        depth += 1;
                        cap(depth, MAX_NESTING as u64, || {
                            format!("nesting depth of function {index}")
                        })?;
                    }
                    if branch > 0 {
                        own_branches += branch;
                        cap(own_branches, MAX_FUNCTION_BRANCHES as u64, || {
                            format!("branches in function {index}")
                        })?;
                    }
                }
                branches += own_branches;
                cap(branches, MAX_BRANCHES as u64, || "branches".into())?;
                work += own_branches * (locals + widest);
                cap(work, MAX_BRANCH_WORK, || {
                    "branch work (branches × params, locals and the widest type's arity, summed over functions)".into()
                })?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Compiles `binary` on a thread of its own and waits for it at most `deadline` (zero: no deadline).
///
/// wasmtime offers no way to stop a compilation once it has started, and nothing safe can stop a
/// thread, so at the deadline the module is refused and the thread is left to finish (on wasmtime's
/// compiling threads too); it then drops what it compiled. What it can still cost is bounded by the
/// caps checked before: the costliest module we built under them, at several caps at once, took
/// 6.4 s and 60 MB here, and one function at the branch-work cap 1.9 to 2.8 s and 190 MB.
fn compile_within(engine: &Engine, binary: Vec<u8>, deadline: Duration) -> Result<Module, Refusal> {
    let (sender, receiver) = mpsc::sync_channel(1);
    let engine = engine.clone();
    std::thread::Builder::new()
        .name("botbox-compile".into())
        .spawn(move || {
            // The receiver is gone if the deadline passed: then nobody wants the module.
            let _ = sender.send(Module::new(&engine, &binary));
        })
        .map_err(|e| Refusal::Host(format!("starting the compiler thread: {e}")))?;
    let compiled = if deadline.is_zero() {
        receiver.recv().map_err(|_| RecvTimeoutError::Disconnected)
    } else {
        receiver.recv_timeout(deadline)
    };
    match compiled {
        Ok(result) => result.map_err(|e| Refusal::Invalid(format!("{e:#}"))),
        Err(RecvTimeoutError::Timeout) => Err(Refusal::Costly(format!(
            "compilation took longer than {} ms, the compile-time limit (--compile-time; {SEE_LIMITS})",
            deadline.as_millis()
        ))),
        Err(RecvTimeoutError::Disconnected) => Err(Refusal::Invalid(
            "wasmtime stopped while compiling it (a panic, reported above)".into(),
        )),
    }
}

/// The linker host functions are defined in ([`super::Extension::link_wasm`]).
pub type HostLinker = Linker<StoreData>;

/// What a store carries: the memory limiter and the strategy's log.
#[derive(Debug)]
pub struct StoreData {
    limiter: Limiter,
    log: Log,
    /// The time limit of the current call, looked at at every epoch.
    deadline: Deadline,
}

#[derive(Debug)]
struct Limiter {
    cap: usize,
    /// Set when a growth was refused, so the resulting trap is reported as fault `memory`.
    exceeded: bool,
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.cap {
            self.exceeded = true;
            wasmtime::bail!(
                "memory cap of {} MiB reached (asked for {} bytes)",
                self.cap >> 20,
                desired
            );
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= TABLE_ELEMENTS)
    }
}

/// A WASM strategy playing one game: its own store, instance and typed entry points.
pub struct Instance {
    store: Store<StoreData>,
    memory: Memory,
    alloc: TypedFunc<i32, i32>,
    functions: HashMap<String, TypedFunc<(i32, i32), i64>>,
    instance: wasmtime::Instance,
    limits: Limits,
}

impl fmt::Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("wasm::Instance").finish_non_exhaustive()
    }
}

impl Instance {
    fn new(program: &Program, setup: &Setup, limits: &Limits) -> Result<Instance, Fault> {
        let engine = program.pre.module().engine();
        let data = StoreData {
            limiter: Limiter {
                cap: limits.memory,
                exceeded: false,
            },
            log: Log::new(limits.log_bytes),
            deadline: Deadline::new(),
        };
        let mut store = Store::new(engine, data);
        store.limiter(|d| &mut d.limiter);
        // The epoch only makes the call look at its deadline: the watchdog decides by CPU time.
        store.epoch_deadline_callback(|store| {
            Ok(if store.data().deadline.expired() {
                UpdateDeadline::Interrupt
            } else {
                UpdateDeadline::Continue(1)
            })
        });
        refill(&mut store, limits);
        let load = |e: wasmtime::Error, store: &Store<StoreData>| {
            classify(e, store, limits, FaultKind::Load)
        };
        let instance = program
            .pre
            .instantiate(&mut store)
            .map_err(|e| load(e, &store))?;
        let memory = instance
            .get_memory(&mut store, "memory")
            .ok_or_else(|| Fault::new(FaultKind::Load, "export `memory` is not a memory"))?;
        let alloc = instance
            .get_typed_func::<i32, i32>(&mut store, "botbox_alloc")
            .map_err(|e| load(e, &store))?;
        let init = instance
            .get_typed_func::<(i32, i32), i32>(&mut store, "botbox_init")
            .map_err(|e| load(e, &store))?;
        let mut me = Instance {
            store,
            memory,
            alloc,
            functions: HashMap::new(),
            instance,
            limits: limits.clone(),
        };
        let setup =
            serde_json::to_vec(setup).map_err(|e| Fault::new(FaultKind::Load, e.to_string()))?;
        let (ptr, len) = me
            .write_input(&setup)
            .map_err(|f| Fault::new(FaultKind::Load, f.message))?;
        let status = init
            .call(&mut me.store, (ptr, len))
            .map_err(|e| classify(e, &me.store, limits, FaultKind::Load))?;
        me.store.data().deadline.disarm();
        if status != 0 {
            return Err(Fault::new(
                FaultKind::Load,
                format!("botbox_init returned {status}"),
            ));
        }
        Ok(me)
    }

    pub fn call<P: Payload, A: Answer>(
        &mut self,
        function: &str,
        observation: &P,
    ) -> Result<A, Fault> {
        let input = serde_json::to_vec(observation)
            .map_err(|e| Fault::new(FaultKind::Error, e.to_string()))?;
        refill(&mut self.store, &self.limits);
        let f = self.function(function)?;
        let (ptr, len) = self.write_input(&input)?;
        let packed = f.call(&mut self.store, (ptr, len));
        self.store.data().deadline.disarm();
        let packed = packed.map_err(|e| classify(e, &self.store, &self.limits, FaultKind::Trap))?;
        if packed < 0 {
            return Err(Fault::new(
                FaultKind::Error,
                format!("`{function}` reported error {packed}"),
            ));
        }
        let bytes = self.read_answer(packed)?;
        serde_json::from_slice(bytes).map_err(|e| {
            let preview = String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned();
            Fault::new(
                FaultKind::BadOutput,
                format!(
                    "`{function}` returned {}",
                    super::payload::bad_answer::<A>(&format!("{preview:?}"), &e)
                ),
            )
        })
    }

    /// Whether the module exports a function `name`.
    pub fn has_function(&mut self, name: &str) -> bool {
        self.instance.get_func(&mut self.store, name).is_some()
    }

    pub fn log(&self) -> Vec<String> {
        self.store.data().log.lines().to_vec()
    }

    fn function(&mut self, name: &str) -> Result<TypedFunc<(i32, i32), i64>, Fault> {
        if let Some(f) = self.functions.get(name) {
            return Ok(f.clone());
        }
        let f = self
            .instance
            .get_typed_func::<(i32, i32), i64>(&mut self.store, name)
            .map_err(|e| {
                Fault::new(
                    FaultKind::Error,
                    format!("the module has no export `{name}` of type (i32, i32) -> i64: {e}"),
                )
            })?;
        self.functions.insert(name.to_string(), f.clone());
        Ok(f)
    }

    /// Asks the guest for a buffer and copies `bytes` into it.
    fn write_input(&mut self, bytes: &[u8]) -> Result<(i32, i32), Fault> {
        let len = i32::try_from(bytes.len())
            .map_err(|_| Fault::new(FaultKind::Error, "input too large"))?;
        let ptr = self
            .alloc
            .call(&mut self.store, len)
            .map_err(|e| classify(e, &self.store, &self.limits, FaultKind::Trap))?;
        self.memory
            .write(&mut self.store, ptr as u32 as usize, bytes)
            .map_err(|_| {
                Fault::new(
                    FaultKind::BadOutput,
                    format!("botbox_alloc({len}) returned {ptr}, outside memory"),
                )
            })?;
        Ok((ptr, len))
    }

    fn read_answer(&self, packed: i64) -> Result<&[u8], Fault> {
        let (ptr, len) = (
            (packed >> 32) as u32 as usize,
            (packed & 0xffff_ffff) as usize,
        );
        if len > MAX_ANSWER {
            return Err(Fault::new(
                FaultKind::BadOutput,
                format!("answer of {len} bytes is over {MAX_ANSWER}"),
            ));
        }
        self.memory
            .data(&self.store)
            .get(ptr..ptr + len)
            .ok_or_else(|| {
                Fault::new(
                    FaultKind::BadOutput,
                    format!("answer at {ptr}..{} lies outside memory", ptr + len),
                )
            })
    }
}

/// Fuel and the time limit start afresh for every call.
fn refill(store: &mut Store<StoreData>, limits: &Limits) {
    if limits.fuel > 0 {
        // The engine meters fuel whenever the limit is non-zero, so this cannot fail.
        let _ = store.set_fuel(limits.fuel);
    }
    store.data().deadline.arm(limits.wall);
    store.set_epoch_deadline(1);
}

/// Names the fault behind a wasmtime error: fuel, the epoch deadline, the memory cap, or another trap.
fn classify(
    e: wasmtime::Error,
    store: &Store<StoreData>,
    limits: &Limits,
    otherwise: FaultKind,
) -> Fault {
    if store.data().limiter.exceeded {
        return Fault::new(
            FaultKind::Memory,
            format!("went over the memory cap of {} MiB", limits.memory >> 20),
        );
    }
    match e.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => Fault::new(
            FaultKind::Fuel,
            format!("ran out of fuel ({} per decision)", limits.fuel),
        ),
        Some(Trap::Interrupt) => Fault::new(
            FaultKind::Timeout,
            format!(
                "used more than {} ms of CPU time in one call",
                limits.wall.as_millis()
            ),
        ),
        Some(trap) => Fault::new(FaultKind::Trap, format!("{trap}")),
        None => Fault::new(otherwise, format!("{e:#}")),
    }
}

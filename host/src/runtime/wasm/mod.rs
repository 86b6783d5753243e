//! WASM strategies through wasmtime: core modules speaking the ABI of `docs/wasm-abi.md`.
//!
//! One [`wasmtime::Engine`] per memory cap serves a whole run: fuel metering on, epoch interruption
//! only where a call's fuel might outlast its time limit ([`needs_epochs`]), NaN canonicalisation and deterministic relaxed SIMD for reproducible results, no threads, a bounded
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
mod shape;

pub use shape::*;
use shape::{Refusal, check_shape, compile_within, to_binary};

use std::collections::HashMap;
use std::fmt;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use wasmtime::{
    Config, Engine, Inlining, InstanceAllocationStrategy, InstancePre, Linker, Memory,
    PoolingAllocationConfig, ResourceLimiter, Store, Trap, TypedFunc, UpdateDeadline,
};

use super::log::Log;
use super::watchdog::Deadline;
use super::{Answer, Fault, FaultKind, Limits, LoadError, Payload, Setup, Transcoder};

/// The wasm stack a strategy may use; deeper recursion traps with "call stack exhausted".
pub const MAX_WASM_STACK: usize = 512 << 10;
/// How often the epoch advances: how often a running call looks at its time limit (the CPU time of
/// its thread, measured by [`super::watchdog`]).
const EPOCH_TICK: Duration = Duration::from_millis(10);
/// Answers longer than this are refused (fault `bad-output`).
const MAX_ANSWER: usize = 1 << 20;
/// Elements a table may have (the pooling allocator reserves this many per table).
const TABLE_ELEMENTS: usize = 100_000;

/// An engine's settings: the memory cap, fuel metering, epoch checks.
type EngineKey = (usize, bool, bool);

static ENGINES: LazyLock<Mutex<HashMap<EngineKey, Engine>>> = LazyLock::new(Default::default);

/// The slowest rate at which a metered call spends its fuel, measured (2026-12-06, wasmtime 48,
/// this machine): a loop of `memory.grow` calls, each a call into wasmtime's runtime for a few units
/// of fuel, spends 2,000,000,000 units in 9.9 s of CPU; division, `call_indirect` and float square
/// roots spend them in 1.0–3.4 s, most code in about 2 s. Bulk memory operations are charged per
/// byte, so no instruction does unbounded work for its fuel.
pub const SLOWEST_NS_PER_FUEL: u64 = 5;

/// Whether calls under `limits` need epoch checks to look at their time limit: when fuel is off
/// (`--fuel 0`: the time limit is the only one), or when the fuel could outlast the time limit at
/// the slowest rate measured ([`SLOWEST_NS_PER_FUEL`]). Otherwise fuel ends every call before the
/// time limit could, and the checks at every loop and call (10–15% of a search, BENCHMARKS.md) are
/// left out of the code. Host functions do bounded work (copying a log line, a 2048 move).
pub fn needs_epochs(limits: &Limits) -> bool {
    let fuel_time = limits.fuel.saturating_mul(SLOWEST_NS_PER_FUEL);
    limits.fuel == 0 || u128::from(fuel_time) > limits.wall.as_nanos()
}

/// The engine for a memory cap, with fuel metering or without (`--fuel 0`: trusted code at full
/// speed, stopped only by the time limit), with epoch checks or without ([`needs_epochs`]),
/// created on first use (with its epoch ticker thread, if it checks epochs).
pub fn engine(memory_cap: usize, metered: bool, epochs: bool) -> Result<Engine, String> {
    let mut engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(engine) = engines.get(&(memory_cap, metered, epochs)) {
        return Ok(engine.clone());
    }
    let engine = Engine::new(&config(memory_cap, metered, epochs))
        .map_err(|e| format!("configuring wasmtime: {e}"))?;
    if epochs {
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
    }
    engines.insert((memory_cap, metered, epochs), engine.clone());
    Ok(engine)
}

fn config(memory_cap: usize, metered: bool, epochs: bool) -> Config {
    let mut pool = PoolingAllocationConfig::default();
    pool.total_core_instances(512)
        .total_memories(512)
        .total_tables(512)
        .max_memory_size(memory_cap)
        .table_elements(TABLE_ELEMENTS);
    let mut config = Config::new();
    config
        .consume_fuel(metered)
        .epoch_interruption(epochs)
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
    /// The games' imports and transcoders, from the caller.
    extensions: super::Extensions,
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
    pub fn compile(
        display: &str,
        bytes: &[u8],
        limits: &Limits,
        extensions: super::Extensions,
    ) -> Result<Program, LoadError> {
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
        let engine = engine(limits.memory, limits.fuel > 0, needs_epochs(limits)).map_err(abi)?;
        let module =
            compile_within(&engine, binary.into_owned(), limits.compile_time).map_err(refused)?;
        for import in module.imports() {
            let offered = |name: &str| {
                host::NAMES.contains(&name)
                    || extensions.iter().any(|e| e.wasm_imports().contains(&name))
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
        for extension in extensions {
            extension
                .link_wasm(&mut linker)
                .map_err(|e| abi(format!("{e:#}")))?;
        }
        let pre = linker
            .instantiate_pre(&module)
            .map_err(|e| abi(format!("{e:#}")))?;
        Ok(Program {
            pre,
            display: file,
            extensions,
        })
    }

    pub fn instantiate(&self, setup: &Setup, limits: &Limits) -> Result<Instance, Fault> {
        Instance::new(self, setup, limits)
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

/// An exported decision function: `(input pointer, input length) -> (answer pointer << 32) | length`.
type Decision = TypedFunc<(i32, i32), i64>;

/// A WASM strategy playing one game: its own store, instance and typed entry points.
pub struct Instance {
    store: Store<StoreData>,
    memory: Memory,
    alloc: TypedFunc<i32, i32>,
    /// The exports called so far, by name, with the game's transcoder for each when the module chose
    /// postcard: a game calls one to three, so a short list beats a hash.
    functions: Vec<(String, Decision, Option<Transcoder>)>,
    /// The game's name, from the setup, for the transcoders.
    game: String,
    /// Where the transcoders come from (the program's extensions).
    extensions: super::Extensions,
    /// The observation's bytes, in a buffer kept from call to call.
    input: Vec<u8>,
    /// Whether the module chose postcard (`botbox_encoding` answered 1) for the payloads that have it.
    binary: bool,
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
        if needs_epochs(limits) {
            store.epoch_deadline_callback(|store| {
                Ok(if store.data().deadline.expired() {
                    UpdateDeadline::Interrupt
                } else {
                    UpdateDeadline::Continue(1)
                })
            });
        }
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
            functions: Vec::new(),
            input: Vec::new(),
            binary: false,
            game: setup.game.clone(),
            extensions: program.extensions,
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
        me.binary = me.encoding()?;
        Ok(me)
    }

    pub fn call<P: Payload, A: Answer>(
        &mut self,
        function: &str,
        observation: &P,
    ) -> Result<A, Fault> {
        let (f, transcoder) = self.function(function)?;
        let mut input = std::mem::take(&mut self.input);
        input.clear();
        let encoded = self.encode(observation, transcoder, &mut input);
        // The limits are armed before `botbox_alloc`, the first guest code of the call.
        refill(&mut self.store, &self.limits);
        let written = encoded.and_then(|binary| Ok((binary, self.write_input(&input)?)));
        self.input = input;
        let (binary, (ptr, len)) = written?;
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
        let bad = |shown: String, e: &dyn fmt::Display| {
            Fault::new(
                FaultKind::BadOutput,
                format!(
                    "`{function}` returned {}",
                    super::payload::bad_answer::<A>(&shown, e)
                ),
            )
        };
        if binary {
            let shown = || {
                let hex: Vec<String> = bytes.iter().take(16).map(|b| format!("{b:02x}")).collect();
                let more = if bytes.len() > 16 { " ..." } else { "" };
                format!("postcard [{}{more}] ({} bytes)", hex.join(" "), bytes.len())
            };
            let decoded = match (A::from_binary(bytes), transcoder) {
                (Some(answer), _) => answer,
                (None, Some(t)) => (t.decode)(bytes)
                    .and_then(|json| A::deserialize(json).map_err(|e| e.to_string())),
                (None, None) => Err("no postcard form for this answer".to_string()),
            };
            return decoded.map_err(|e| bad(shown(), &e));
        }
        serde_json::from_slice(bytes).map_err(|e| {
            let preview = String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned();
            bad(format!("{preview:?}"), &e)
        })
    }

    /// Writes the observation into `input` as postcard if the module chose it and the payload (or the
    /// game's transcoder for a free JSON payload) has a postcard form, else as JSON; says which.
    fn encode<P: Payload>(
        &self,
        observation: &P,
        transcoder: Option<Transcoder>,
        input: &mut Vec<u8>,
    ) -> Result<bool, Fault> {
        let error = |e: String| Fault::new(FaultKind::Error, e);
        if self.binary {
            if let Some(encoded) = observation.to_binary(input) {
                return encoded.map(|()| true).map_err(error);
            }
            if let Some(t) = transcoder {
                let json = serde_json::to_value(observation).map_err(|e| error(e.to_string()))?;
                return (t.encode)(&json, input).map(|()| true).map_err(error);
            }
        }
        serde_json::to_writer(&mut *input, observation).map_err(|e| error(e.to_string()))?;
        Ok(false)
    }

    /// The encoding the module chose: `botbox_encoding() -> i32` answering 1 for postcard, 0 (or no
    /// such export) for JSON.
    fn encoding(&mut self) -> Result<bool, Fault> {
        if self
            .instance
            .get_func(&mut self.store, "botbox_encoding")
            .is_none()
        {
            return Ok(false);
        }
        let load = |message: String| Fault::new(FaultKind::Load, message);
        let f = self
            .instance
            .get_typed_func::<(), i32>(&mut self.store, "botbox_encoding")
            .map_err(|e| load(format!("`botbox_encoding` must be () -> i32: {e}")))?;
        refill(&mut self.store, &self.limits);
        let chosen = f.call(&mut self.store, ());
        self.store.data().deadline.disarm();
        match chosen.map_err(|e| classify(e, &self.store, &self.limits, FaultKind::Load))? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(load(format!(
                "botbox_encoding returned {other}: 0 (JSON) or 1 (postcard)"
            ))),
        }
    }

    /// Whether the module exports a function `name`.
    pub fn has_function(&mut self, name: &str) -> bool {
        self.instance.get_func(&mut self.store, name).is_some()
    }

    pub fn log(&self) -> Vec<String> {
        self.store.data().log.lines().to_vec()
    }

    pub fn log_len(&self) -> usize {
        self.store.data().log.line_count()
    }

    fn function(&mut self, name: &str) -> Result<(Decision, Option<Transcoder>), Fault> {
        if let Some((_, f, t)) = self.functions.iter().find(|(n, _, _)| n == name) {
            return Ok((f.clone(), *t));
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
        let transcoder = if self.binary {
            self.extensions
                .iter()
                .find_map(|e| e.transcoder(&self.game, name))
        } else {
            None
        };
        self.functions
            .push((name.to_string(), f.clone(), transcoder));
        Ok((f, transcoder))
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
    // Only a call with epoch checks looks at its time limit: without them, fuel ends it first.
    if needs_epochs(limits) {
        store.data().deadline.arm(limits.wall);
        store.set_epoch_deadline(1);
    }
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

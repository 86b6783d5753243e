//! What a WASM module may be before it is compiled: its size and shape under caps chosen so that
//! compiling stays cheap (each cap's cost measured beside it), and compiling itself bounded by the
//! compile-time limit. [`super::Program::compile`] runs these checks in order.

use std::borrow::Cow;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use wasmparser::{CompositeInnerType, ElementItems, Encoding, Operator, Parser, TypeRef};
use wasmtime::{Engine, Module};

use super::TABLE_ELEMENTS;

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

/// Why a module is refused before it is ready to run.
pub(super) enum Refusal {
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
pub(super) fn to_binary<'a>(display: &str, bytes: &'a [u8]) -> Result<Cow<'a, [u8]>, Refusal> {
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
pub(super) fn check_shape(bytes: &[u8]) -> Result<(), Refusal> {
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
pub(super) fn compile_within(
    engine: &Engine,
    binary: Vec<u8>,
    deadline: Duration,
) -> Result<Module, Refusal> {
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

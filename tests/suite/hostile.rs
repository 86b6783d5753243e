//! Hostile strategies: each fixture in strategies/hostile misbehaves in one way; each must end only its
//! own game, with the right fault kind, and never crash or hang the host.

use crate::util;

use std::path::Path;
use std::time::Duration;

use crate::util::play_2048 as play;
use botbox::runtime::{Fault, FaultKind, Limits, LoadError, Strategy};
use util::{at, test_limits};

/// Loads a fixture and plays one game with it.
fn fault_of(path: &Path, limits: &Limits) -> Option<Fault> {
    let strategy = botbox::hosted::load(path, limits)
        .unwrap_or_else(|e| panic!("{} should load: {e}", path.display()));
    let (record, _) = play(&strategy, 4, 1, 7, false);
    record.fault
}

fn check(fixture: &str, expected: &[FaultKind]) {
    let fault =
        fault_of(&at(fixture), &test_limits()).unwrap_or_else(|| panic!("{fixture}: no fault"));
    assert!(
        expected.contains(&fault.kind),
        "{fixture}: expected {expected:?}, got {fault}"
    );
}

#[test]
fn lua_endless_loops_spend_their_budget() {
    for name in [
        "endless_loop",
        "load_loop",
        "gc_finalizer_loop",
        "pcall_swallow",
        "xpcall_handler",
        "coroutine_loop",
        "sort_comparator_loop",
        "gsub_callback_loop",
    ] {
        check(
            &format!("strategies/hostile/lua/{name}.lua"),
            &[FaultKind::Budget],
        );
    }
}

#[test]
fn lua_memory_bombs_hit_the_cap() {
    check(
        "strategies/hostile/lua/memory_bomb.lua",
        &[FaultKind::Memory],
    );
    check(
        "strategies/hostile/lua/string_rep_bomb.lua",
        &[FaultKind::Memory],
    );
}

#[test]
fn lua_cannot_reach_outside_the_sandbox() {
    for name in [
        "os_execute",
        "io_open",
        "require",
        "bytecode",
        "debug_lib",
        "shared_globals",
    ] {
        check(
            &format!("strategies/hostile/lua/{name}.lua"),
            &[FaultKind::Error],
        );
    }
    assert!(!Path::new("/tmp/botbox-pwned").exists(), "os.execute ran");
}

#[test]
fn lua_errors_name_the_file_and_line() {
    let fault = fault_of(
        &at("strategies/hostile/lua/runtime_error.lua"),
        &test_limits(),
    )
    .expect("a fault");
    assert_eq!(fault.kind, FaultKind::Error);
    assert!(
        fault.message.contains("runtime_error.lua:5:"),
        "{}",
        fault.message
    );
}

/// An error's message and traceback show the strategy's own frames only: an error raised at the level
/// of the host's frame that called the strategy carries no position (as from a C caller), and no
/// frame of the host's trusted code is listed.
#[test]
fn lua_error_messages_show_only_the_strategys_frames() {
    let dir = util::scratch("hostile/error_frames");
    let path = dir.join("levels.lua");
    std::fs::write(
        &path,
        "local M = {}\n\
         local function check(obs) return obs.moves >= 0 end\n\
         function M.choose_move(obs)\n\
         \x20 if check(obs) then error(\"at the caller\", 2) end\n\
         end\n\
         return M\n",
    )
    .unwrap();
    let fault = fault_of(&path, &test_limits()).expect("a fault");
    assert_eq!(fault.kind, FaultKind::Error);
    let message = fault.message;
    assert!(
        message.starts_with("at the caller\nstack traceback:\n"),
        "{message}"
    );
    assert!(
        message.contains("levels.lua:4: in function 'choose_move'"),
        "{message}"
    );
    assert!(!message.contains("botbox"), "{message}");
}

#[test]
fn lua_unbounded_recursion_is_an_error_not_a_crash() {
    check(
        "strategies/hostile/lua/deep_recursion.lua",
        &[FaultKind::Error, FaultKind::Memory],
    );
}

#[test]
fn lua_bad_answers_are_recorded() {
    check(
        "strategies/hostile/lua/invalid_return.lua",
        &[FaultKind::BadOutput],
    );
    check(
        "strategies/hostile/lua/illegal_move.lua",
        &[FaultKind::Illegal, FaultKind::BadOutput],
    );
    check(
        "strategies/hostile/lua/tostring_loop.lua",
        &[FaultKind::Error, FaultKind::Budget],
    );
}

#[test]
fn lua_wall_clock_backstop_stops_what_the_budget_allows() {
    let limits = Limits {
        lua_budget: u64::MAX,
        wall: Duration::from_millis(200),
        ..test_limits()
    };
    let fault = fault_of(&at("strategies/hostile/lua/endless_loop.lua"), &limits).expect("a fault");
    assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
}

#[test]
fn wasm_faults_have_their_kinds() {
    let cases = [
        ("endless_loop", FaultKind::Fuel),
        ("grow_bomb", FaultKind::Memory),
        ("recursion", FaultKind::Trap),
        ("trap", FaultKind::Trap),
        ("garbage_output", FaultKind::BadOutput),
        ("out_of_bounds_output", FaultKind::BadOutput),
        ("init_fails", FaultKind::Load),
        ("postcard_garbage", FaultKind::BadOutput),
        ("encoding_unknown", FaultKind::Load),
        ("encoding_loop", FaultKind::Fuel),
    ];
    for (name, kind) in cases {
        check(&format!("strategies/hostile/wasm/{name}.wat"), &[kind]);
    }
}

#[test]
fn a_postcard_answer_that_is_not_one_is_shown_as_its_bytes() {
    let fault = fault_of(
        &at("strategies/hostile/wasm/postcard_garbage.wat"),
        &test_limits(),
    )
    .expect("a fault");
    assert!(
        fault.message.contains("postcard [09 00] (2 bytes)"),
        "{fault}"
    );
    let fault = fault_of(
        &at("strategies/hostile/wasm/encoding_unknown.wat"),
        &test_limits(),
    )
    .expect("a fault");
    assert!(
        fault.message.contains("botbox_encoding returned 7"),
        "{fault}"
    );
}

#[test]
fn wasm_wall_clock_backstop_stops_what_fuel_allows() {
    let limits = Limits {
        fuel: u64::MAX,
        wall: Duration::from_millis(200),
        ..test_limits()
    };
    let fault =
        fault_of(&at("strategies/hostile/wasm/endless_loop.wat"), &limits).expect("a fault");
    assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
}

#[test]
fn wasm_modules_importing_wasi_are_refused_naming_the_import() {
    match botbox::hosted::load(
        &at("strategies/hostile/wasm/wasi_import.wat"),
        &test_limits(),
    ) {
        Err(e @ LoadError::ForbiddenImport { .. }) => {
            assert!(e.to_string().contains("wasi_snapshot_preview1."), "{e}");
        }
        other => panic!("expected a forbidden import, got {other:?}"),
    }
}

#[test]
fn malformed_wasm_is_refused_at_load() {
    let result = botbox::hosted::load(
        &at("strategies/hostile/wasm/malformed.wasm"),
        &test_limits(),
    );
    assert!(
        matches!(result, Err(LoadError::InvalidModule { .. })),
        "{result:?}"
    );
}

#[test]
fn lua_syntax_errors_name_file_and_line() {
    let dir = util::scratch("hostile-syntax");
    let path = dir.join("broken.lua");
    std::fs::write(
        &path,
        "local M = {}\nfunction M.choose_move(obs)\n  return obs.legal[1\nend\nreturn M\n",
    )
    .unwrap();
    let err = botbox::hosted::load(&path, &test_limits()).unwrap_err();
    assert!(matches!(err, LoadError::Syntax { .. }), "{err:?}");
    assert!(err.to_string().contains("broken.lua:"), "{err}");
}

/// The process's resident memory counts every test running beside this one (a league test's
/// server, a browser test's pages), so the bombs go off in a process of their own: this test binary
/// run again for this test alone, told so by [`ALONE`].
#[cfg(target_os = "linux")]
#[test]
fn host_memory_stays_bounded_across_many_memory_bombs() {
    if std::env::var_os(ALONE).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "hostile::host_memory_stays_bounded_across_many_memory_bombs",
                "--exact",
                "--test-threads=1",
                "--nocapture",
            ])
            .env(ALONE, "1")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success() && text.contains("1 passed") && text.contains("grew by"),
            "{text}"
        );
        return;
    }
    let strategy = botbox::hosted::load(
        &at("strategies/hostile/lua/memory_bomb.lua"),
        &test_limits(),
    )
    .unwrap();
    let rss = || util::proc_memory("self", "VmRSS").expect("this process has a status");
    let _ = play(&strategy, 4, 1, 1, false);
    let before = rss();
    for game in 0..30 {
        let (record, _) = play(&strategy, 4, game, game as u64, false);
        assert_eq!(record.fault.map(|f| f.kind), Some(FaultKind::Memory));
    }
    let grown = rss().saturating_sub(before);
    println!("resident memory grew by {} MiB", grown >> 20);
    assert!(
        grown < 96 << 20,
        "resident memory grew by {} MiB over 30 bombs of 32 MiB",
        grown >> 20
    );
}

/// Set in the process that sets the bombs off alone.
#[cfg(target_os = "linux")]
const ALONE: &str = "BOTBOX_TEST_BOMBS_ALONE";

// Compile cost: caps on a module's shape, checked before compiling, and the compile-time limit
// (docs/wasm-abi.md, "Limits on modules"). The modules are generated here, in the binary format.

use botbox::runtime::wasm::{
    self, MAX_BRANCH_WORK, MAX_BRANCHES, MAX_CODE_BYTES, MAX_EXPORTS, MAX_FUNCTION_BRANCHES,
    MAX_FUNCTION_BYTES, MAX_FUNCTIONS, MAX_GLOBALS, MAX_IMPORTS, MAX_LOCALS, MAX_LOOPS,
    MAX_MODULE_BYTES, MAX_NESTING, MAX_SEGMENTS, MAX_TABLE_ELEMENTS, MAX_TYPE_ARITY, MAX_TYPES,
    MAX_WAT_BYTES,
};

/// Function types every generated module has, before a test's own: `botbox_alloc`, `botbox_init`,
/// `choose_move`, `() -> ()` for the extra functions, and `botbox.log`. The widest has 2 params.
const BASE_TYPES: [(usize, usize, u8); 5] = [
    (1, 1, I32),
    (2, 1, I32),
    (2, 1, I64),
    (0, 0, I32),
    (2, 0, I32),
];
const VOID: u32 = 3;
const LOG: u32 = 4;
const I32: u8 = 0x7f;
const I64: u8 = 0x7e;

/// A module in the binary format: the ABI's exports (`memory`, `botbox_alloc`, `botbox_init` and a
/// `choose_move` that answers "left") and whatever a test adds.
#[derive(Clone, Default)]
struct Wasm {
    /// Extra function types: numbers of i32 params and results.
    types: Vec<(usize, usize)>,
    /// Imports, all of `botbox.log`.
    imports: usize,
    /// Extra functions: type index and body (made by `body`).
    functions: Vec<(u32, Vec<u8>)>,
    /// Extra exports, all of `botbox_alloc`.
    exports: usize,
    globals: usize,
    /// Extra data segments of one byte.
    data: usize,
    /// A table of this initial size, and the lengths of element segments filling it.
    table: Option<(u64, Vec<usize>)>,
    /// Bytes of padding in a custom section.
    custom: Option<usize>,
}

fn leb(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn section(out: &mut Vec<u8>, id: u8, content: &[u8]) {
    out.push(id);
    leb(out, content.len() as u64);
    out.extend_from_slice(content);
}

fn name(out: &mut Vec<u8>, text: &str) {
    leb(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

/// A function body: `locals` i32 locals, `code`, `end`.
fn body(locals: u32, code: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    if locals == 0 {
        b.push(0);
    } else {
        b.push(1);
        leb(&mut b, u64::from(locals));
        b.push(I32);
    }
    b.extend_from_slice(code);
    b.push(0x0b);
    b
}

/// Code: `depth` nested blocks.
fn nested(depth: usize) -> Vec<u8> {
    let mut code = [0x02, 0x40].repeat(depth);
    code.extend(std::iter::repeat_n(0x0b, depth));
    code
}

/// Code: a block holding a `br_table` with `targets` targets besides its default: 1 + `targets`
/// branches.
fn br_table(targets: usize) -> Vec<u8> {
    let mut code = vec![0x02, 0x40, 0x41, 0x00, 0x0e];
    leb(&mut code, targets as u64);
    code.extend(std::iter::repeat_n(0x00, targets + 1));
    code.push(0x0b);
    code
}

/// Code: `count` empty loops.
fn loops(count: usize) -> Vec<u8> {
    [0x03, 0x40, 0x0b].repeat(count)
}

impl Wasm {
    fn with_bodies(bodies: impl IntoIterator<Item = Vec<u8>>) -> Wasm {
        Wasm {
            functions: bodies.into_iter().map(|b| (VOID, b)).collect(),
            ..Wasm::default()
        }
    }

    /// The code section's content: what `MAX_CODE_BYTES` counts.
    fn code(&self) -> Vec<u8> {
        let abi = [
            body(0, &[0x41, 0x80, 0x08]), // botbox_alloc: 1024
            body(0, &[0x41, 0x00]),       // botbox_init: 0
            body(0, &[0x42, 0x06]),       // choose_move: "left" at 0, 6 bytes
        ];
        let mut c = Vec::new();
        leb(&mut c, (3 + self.functions.len()) as u64);
        for b in abi.iter().chain(self.functions.iter().map(|(_, b)| b)) {
            leb(&mut c, b.len() as u64);
            c.extend_from_slice(b);
        }
        c
    }

    fn encode(&self) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        let types: Vec<(usize, usize, u8)> = BASE_TYPES
            .iter()
            .copied()
            .chain(self.types.iter().map(|&(p, r)| (p, r, I32)))
            .collect();
        let mut s = Vec::new();
        leb(&mut s, types.len() as u64);
        for (params, results, result) in types {
            s.push(0x60);
            leb(&mut s, params as u64);
            s.extend(std::iter::repeat_n(I32, params));
            leb(&mut s, results as u64);
            s.extend(std::iter::repeat_n(result, results));
        }
        section(&mut m, 1, &s);
        if self.imports > 0 {
            let mut s = Vec::new();
            leb(&mut s, self.imports as u64);
            for _ in 0..self.imports {
                name(&mut s, "botbox");
                name(&mut s, "log");
                s.push(0x00);
                leb(&mut s, u64::from(LOG));
            }
            section(&mut m, 2, &s);
        }
        let mut s = Vec::new();
        leb(&mut s, (3 + self.functions.len()) as u64);
        s.extend_from_slice(&[0, 1, 2]);
        for (ty, _) in &self.functions {
            leb(&mut s, u64::from(*ty));
        }
        section(&mut m, 3, &s);
        if let Some((initial, _)) = &self.table {
            let mut s = vec![1, 0x70, 0x00];
            leb(&mut s, *initial);
            section(&mut m, 4, &s);
        }
        section(&mut m, 5, &[1, 0x00, 1]);
        if self.globals > 0 {
            let mut s = Vec::new();
            leb(&mut s, self.globals as u64);
            for _ in 0..self.globals {
                s.extend_from_slice(&[I32, 0x00, 0x41, 0x00, 0x0b]);
            }
            section(&mut m, 6, &s);
        }
        let alloc = self.imports as u64;
        let mut s = Vec::new();
        leb(&mut s, 4 + self.exports as u64);
        let exports = [
            ("memory".to_string(), 2, 0),
            ("botbox_alloc".to_string(), 0, alloc),
            ("botbox_init".to_string(), 0, alloc + 1),
            ("choose_move".to_string(), 0, alloc + 2),
        ];
        let extra = (0..self.exports).map(|i| (format!("e{i}"), 0, alloc));
        for (export, kind, index) in exports.into_iter().chain(extra) {
            name(&mut s, &export);
            s.push(kind);
            leb(&mut s, index);
        }
        section(&mut m, 7, &s);
        if let Some((_, segments)) = &self.table {
            let mut s = Vec::new();
            leb(&mut s, segments.len() as u64);
            for &len in segments {
                s.extend_from_slice(&[0x00, 0x41, 0x00, 0x0b]);
                leb(&mut s, len as u64);
                for _ in 0..len {
                    leb(&mut s, alloc);
                }
            }
            section(&mut m, 9, &s);
        }
        section(&mut m, 10, &self.code());
        let mut s = Vec::new();
        leb(&mut s, 1 + self.data as u64);
        s.extend_from_slice(&[0x00, 0x41, 0x00, 0x0b, 6]);
        s.extend_from_slice(b"\"left\"");
        for _ in 0..self.data {
            s.extend_from_slice(&[0x00, 0x41, 0x08, 0x0b, 1, b'x']);
        }
        section(&mut m, 11, &s);
        if let Some(padding) = self.custom {
            let mut s = Vec::new();
            name(&mut s, "padding");
            s.extend(std::iter::repeat_n(0, padding));
            section(&mut m, 0, &s);
        }
        m
    }
}

/// The `n` for which `size(n)` is exactly `target` (sizes grow by one byte per step of `n`, but for
/// the odd LEB128 length that changes on the way).
fn tune(target: usize, size: impl Fn(usize) -> usize) -> usize {
    let mut n = target;
    for _ in 0..8 {
        let found = size(n);
        if found == target {
            return n;
        }
        n = (n as isize + target as isize - found as isize) as usize;
    }
    panic!("no size of exactly {target}");
}

/// A module of `functions` bodies of `nop`s whose code section holds exactly `target` bytes.
fn code_of(target: usize, functions: usize) -> Wasm {
    let make = |last: usize| {
        let mut bodies = vec![body(0, &vec![0x01; target / functions - 8]); functions - 1];
        bodies.push(body(0, &vec![0x01; last]));
        Wasm::with_bodies(bodies)
    };
    let last = tune(target, |n| make(n).code().len());
    make(last)
}

/// A module exactly `target` bytes long.
fn module_of(target: usize) -> Vec<u8> {
    let make = |n| Wasm {
        custom: Some(n),
        ..Wasm::default()
    };
    make(tune(target, |n| make(n).encode().len())).encode()
}

fn limits_for_caps() -> Limits {
    Limits {
        // What is tested here is the caps: a module at a cap must load however slow the machine.
        compile_time: Duration::ZERO,
        ..test_limits()
    }
}

/// Loads `bytes` from a file `name` in the scratch directory.
fn load_module(
    dir: &Path,
    name: &str,
    bytes: &[u8],
    limits: &Limits,
) -> Result<Strategy, LoadError> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    botbox::hosted::load(&path, limits)
}

/// Checks that `over` is refused as too costly, in one line naming the file, the limit (`what`) and
/// the cap, and that `at`, the same shape at the cap, loads.
fn check_cap(dir: &Path, case: &str, what: &str, cap: u64, at: &[u8], over: &[u8]) {
    let limits = limits_for_caps();
    if let Err(e) = load_module(dir, &format!("{case}-at-cap.wasm"), at, &limits) {
        panic!("{case}: a module at the cap should load: {e}");
    }
    let file = format!("{case}-over-cap.wasm");
    match load_module(dir, &file, over, &limits) {
        Err(e @ LoadError::TooCostly { .. }) => {
            let text = e.to_string();
            assert!(!text.contains('\n'), "{case}: {text}");
            assert!(text.contains(&file), "{case}: {text}");
            assert!(text.contains(what), "{case}: {text}");
            assert!(
                text.contains(&format!("over the cap of {cap}")),
                "{case}: {text}"
            );
        }
        other => panic!("{case}: expected a refusal as too costly, got {other:?}"),
    }
}

#[test]
fn wasm_module_size_caps_refuse_one_over_and_load_at_the_cap() {
    let dir = util::scratch("hostile-caps-size");
    check_cap(
        &dir,
        "module",
        "size of the module in bytes",
        MAX_MODULE_BYTES as u64,
        &module_of(MAX_MODULE_BYTES),
        &module_of(MAX_MODULE_BYTES + 1),
    );
    let text = std::fs::read_to_string(at("strategies/hostile/wasm/trap.wat")).unwrap();
    let padded = |len: usize| {
        let mut t = text.clone();
        t.push_str(";; ");
        t.push_str(&"x".repeat(len - t.len() - 1));
        t.push('\n');
        t.into_bytes()
    };
    // Files are read only up to 16 MiB (runtime/source.rs), so a longer text reaches the compiler
    // only through `wasm::Program::compile`, which checks it again.
    let limits = limits_for_caps();
    wasm::Program::compile("text-at-cap.wat", &padded(MAX_WAT_BYTES), &limits, &[])
        .expect("a text at the cap compiles");
    match wasm::Program::compile(
        "text-over-cap.wat",
        &padded(MAX_WAT_BYTES + 1),
        &limits,
        &[],
    ) {
        Err(e @ LoadError::TooCostly { .. }) => assert_eq!(
            e.to_string(),
            format!(
                "text-over-cap.wat: too costly to compile: size of the text in bytes: {}, over the \
                 cap of {MAX_WAT_BYTES} (see \"Limits on modules\" in docs/wasm-abi.md)",
                MAX_WAT_BYTES + 1
            )
        ),
        other => panic!("expected a refusal as too costly, got {other:?}"),
    }
    let functions = MAX_CODE_BYTES.div_ceil(MAX_FUNCTION_BYTES) + 1;
    check_cap(
        &dir,
        "code",
        "size of the code in bytes",
        MAX_CODE_BYTES as u64,
        &code_of(MAX_CODE_BYTES, functions).encode(),
        &code_of(MAX_CODE_BYTES + 1, functions).encode(),
    );
    let nops = |len: usize| Wasm::with_bodies([body(0, &vec![0x01; len - 2])]).encode();
    check_cap(
        &dir,
        "body",
        "size of function 3 in bytes",
        MAX_FUNCTION_BYTES as u64,
        &nops(MAX_FUNCTION_BYTES),
        &nops(MAX_FUNCTION_BYTES + 1),
    );
}

#[test]
fn wasm_function_caps_refuse_one_over_and_load_at_the_cap() {
    let dir = util::scratch("hostile-caps-functions");
    let functions = |n: usize| Wasm::with_bodies(vec![body(0, &[]); n - 3]).encode();
    check_cap(
        &dir,
        "functions",
        "functions (imported and defined)",
        MAX_FUNCTIONS as u64,
        &functions(MAX_FUNCTIONS),
        &functions(MAX_FUNCTIONS + 1),
    );
    let locals = |n: usize| Wasm::with_bodies([body(n as u32, &[])]).encode();
    check_cap(
        &dir,
        "locals",
        "locals of function 3 (params included)",
        MAX_LOCALS as u64,
        &locals(MAX_LOCALS),
        &locals(MAX_LOCALS + 1),
    );
    // Params count as locals: a function of 64 params.
    let params = |locals: usize| {
        Wasm {
            types: vec![(MAX_TYPE_ARITY, 0)],
            functions: vec![(5, body(locals as u32, &[]))],
            ..Wasm::default()
        }
        .encode()
    };
    check_cap(
        &dir,
        "params",
        "locals of function 3 (params included)",
        MAX_LOCALS as u64,
        &params(MAX_LOCALS - MAX_TYPE_ARITY),
        &params(MAX_LOCALS - MAX_TYPE_ARITY + 1),
    );
    let nesting = |depth: usize| Wasm::with_bodies([body(0, &nested(depth))]).encode();
    check_cap(
        &dir,
        "nesting",
        "nesting depth of function 3",
        MAX_NESTING as u64,
        &nesting(MAX_NESTING),
        &nesting(MAX_NESTING + 1),
    );
    let branches = |n: usize| Wasm::with_bodies([body(0, &br_table(n - 1))]).encode();
    check_cap(
        &dir,
        "function-branches",
        "branches in function 3",
        MAX_FUNCTION_BRANCHES as u64,
        &branches(MAX_FUNCTION_BRANCHES),
        &branches(MAX_FUNCTION_BRANCHES + 1),
    );
}

#[test]
fn wasm_module_wide_cost_caps_refuse_one_over_and_load_at_the_cap() {
    let dir = util::scratch("hostile-caps-cost");
    // Branches: full `br_table`s (cheap to compile, counted like any branch), and one more.
    let full = MAX_BRANCHES / MAX_FUNCTION_BRANCHES;
    let tables = vec![body(0, &br_table(MAX_FUNCTION_BRANCHES - 1)); full];
    let mut over = tables.clone();
    over.push(body(0, &br_table(0)));
    check_cap(
        &dir,
        "branches",
        "branches:",
        MAX_BRANCHES as u64,
        &Wasm::with_bodies(tables).encode(),
        &Wasm::with_bodies(over).encode(),
    );
    let loops_in = |n: usize| {
        let mut bodies = vec![body(0, &loops(100)); n / 100];
        bodies.push(body(0, &loops(n % 100)));
        Wasm::with_bodies(bodies).encode()
    };
    check_cap(
        &dir,
        "loops",
        "loops:",
        MAX_LOOPS as u64,
        &loops_in(MAX_LOOPS),
        &loops_in(MAX_LOOPS + 1),
    );
    // Branch work: branches × (locals + 2, the widest type's arity). 998 locals and 1,000
    // branches make exactly the cap, one more branch 1,000 over.
    let work = |branches: usize| {
        let locals = (MAX_BRANCH_WORK as usize / 1000 - 2) as u32;
        Wasm::with_bodies([body(locals, &br_table(branches - 1))]).encode()
    };
    check_cap(
        &dir,
        "branch-work",
        "branch work",
        MAX_BRANCH_WORK,
        &work(1000),
        &work(1001),
    );
}

#[test]
fn wasm_section_caps_refuse_one_over_and_load_at_the_cap() {
    let dir = util::scratch("hostile-caps-sections");
    let types = |n: usize| {
        Wasm {
            types: vec![(1, 0); n - BASE_TYPES.len()],
            ..Wasm::default()
        }
        .encode()
    };
    check_cap(
        &dir,
        "types",
        "types:",
        MAX_TYPES as u64,
        &types(MAX_TYPES),
        &types(MAX_TYPES + 1),
    );
    let arity = |n: usize| {
        Wasm {
            types: vec![(0, n)],
            ..Wasm::default()
        }
        .encode()
    };
    check_cap(
        &dir,
        "arity",
        "params or results of type 5",
        MAX_TYPE_ARITY as u64,
        &arity(MAX_TYPE_ARITY),
        &arity(MAX_TYPE_ARITY + 1),
    );
    let counted = |case: &str, what: &str, cap: usize, make: &dyn Fn(usize) -> Wasm| {
        check_cap(
            &dir,
            case,
            what,
            cap as u64,
            &make(cap).encode(),
            &make(cap + 1).encode(),
        );
    };
    counted("imports", "imports:", MAX_IMPORTS, &|n| Wasm {
        imports: n,
        ..Wasm::default()
    });
    counted("exports", "exports:", MAX_EXPORTS, &|n| Wasm {
        exports: n - 4,
        ..Wasm::default()
    });
    counted("globals", "globals:", MAX_GLOBALS, &|n| Wasm {
        globals: n,
        ..Wasm::default()
    });
    counted("data", "data segments:", MAX_SEGMENTS, &|n| Wasm {
        data: n - 1,
        ..Wasm::default()
    });
    counted("elements", "element segments:", MAX_SEGMENTS, &|n| Wasm {
        table: Some((1, vec![1; n])),
        ..Wasm::default()
    });
    let table = MAX_TABLE_ELEMENTS as usize;
    counted("table", "initial elements of table 0", table, &|n| Wasm {
        table: Some((n as u64, vec![])),
        ..Wasm::default()
    });
    counted(
        "references",
        "function references in element segments",
        table,
        &|n| Wasm {
            table: Some((MAX_TABLE_ELEMENTS, vec![n])),
            ..Wasm::default()
        },
    );
}

/// Code: a loop of `branches` `br_if`, each after a `local.tee` of one of `locals` i32 locals, so
/// that all of them are live across every branch (the shape behind the 45 s of the issue).
fn across_branches(locals: u32, branches: u32) -> Vec<u8> {
    let mut code = vec![0x03, 0x40];
    for k in 0..branches {
        // local.tee (k % locals) (i32.add (local.get (k × 7919 % locals)) (i32.const 1)); br_if 0
        code.push(0x20);
        leb(&mut code, u64::from(k) * 7919 % u64::from(locals));
        code.extend_from_slice(&[0x41, 0x01, 0x6a, 0x22]);
        leb(&mut code, u64::from(k % locals));
        code.extend_from_slice(&[0x0d, 0x00]);
    }
    code.push(0x0b);
    body(locals, &code)
}

/// Modules costly to compile but within wasmparser's limits (50,000 locals, 7.6 MB bodies, a
/// million functions), each 30 to 60 KB, with what wasmtime took to compile them before the caps
/// (2-core machine under load) and the cap that refuses them now.
fn compile_cost_modules() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let one = |b: Vec<u8>| Wasm::with_bodies([b]).encode();
    let mut br_ifs = vec![0x03, 0x40];
    br_ifs.extend([0x20, 0x00, 0x0d, 0x00].repeat(15_000));
    br_ifs.push(0x0b);
    let mut nested_loops = [0x03, 0x40].repeat(20_000);
    nested_loops.extend([0x0b].repeat(20_000));
    vec![
        // 2,000 locals live across 5,000 `br_if` (54 KB): 92 s and 1.1 GB.
        (
            "locals_across_branches",
            one(across_branches(2000, 5000)),
            "locals of function 3 (params included): 2000,",
        ),
        // 5 functions of 500 locals live across 2,000 `br_if` (100 KB): about 2 s and 170 MB each.
        (
            "branch_work",
            Wasm::with_bodies(vec![across_branches(500, 2000); 5]).encode(),
            "branch work",
        ),
        // 15,000 `br_if` in one loop (60 KB): 5.2 s.
        (
            "many_branches",
            one(body(1, &br_ifs)),
            "branches in function 3: 2501,",
        ),
        // 20,000 nested loops (60 KB): 7.4 s and 446 MB.
        (
            "deep_nesting",
            one(body(0, &nested_loops)),
            "nesting depth of function 3: 1001,",
        ),
        // 10,000 empty loops (30 KB): 3.9 s and 232 MB.
        ("many_loops", one(body(0, &loops(10_000))), "loops: 5001,"),
        // 10,000 empty functions (60 KB): 3.6 s.
        (
            "many_functions",
            Wasm::with_bodies(vec![body(0, &[]); 10_000]).encode(),
            "functions (imported and defined): 10003,",
        ),
    ]
}

#[test]
fn wasm_compile_cost_modules_are_refused_within_5_s() {
    let dir = util::scratch("hostile-compile-cost");
    for (name, bytes, what) in compile_cost_modules() {
        let started = std::time::Instant::now();
        let result = load_module(&dir, &format!("{name}.wasm"), &bytes, &test_limits());
        let took = started.elapsed();
        match result {
            Err(e @ LoadError::TooCostly { .. }) => {
                assert!(e.to_string().contains(what), "{name}: {e}")
            }
            other => panic!("{name}: expected a refusal as too costly, got {other:?}"),
        }
        // A refusal before compiling takes milliseconds; 5 s is the acceptance bound.
        assert!(
            took < Duration::from_secs(5),
            "{name}: refused after {took:?}"
        );
    }
    // As `botbox check` shows it: one line, at once.
    let path = dir.join("locals_across_branches.wasm");
    let started = std::time::Instant::now();
    let out = util::botbox(&["check", path.to_str().unwrap(), "--game", "2048"]);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!out.status.success());
    let stderr = util::stderr(&out);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "locals_across_branches.wasm: too costly to compile: locals of function 3 (params \
             included): 2000, over the cap of 1000"
        ),
        "{stderr}"
    );
}

#[test]
fn wasm_compilation_has_a_deadline() {
    let dir = util::scratch("hostile-compile-deadline");
    // Under every cap, but slow to compile for its size: 4,000 loops (0.25 ms each) in 40
    // functions, about 0.5 s here, much longer than the 20 ms allowed.
    let bytes = Wasm::with_bodies(vec![body(0, &loops(100)); 40]).encode();
    let limits = Limits {
        compile_time: Duration::from_millis(20),
        ..test_limits()
    };
    let started = std::time::Instant::now();
    match load_module(&dir, "slow.wasm", &bytes, &limits) {
        Err(e @ LoadError::TooCostly { .. }) => {
            let text = e.to_string();
            assert!(text.contains("slow.wasm: too costly to compile"), "{text}");
            assert!(text.contains("longer than 20 ms"), "{text}");
        }
        other => panic!("expected a refusal at the deadline, got {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    // Without the deadline (0), the same module loads.
    let limits = Limits {
        compile_time: Duration::ZERO,
        ..test_limits()
    };
    load_module(&dir, "slow.wasm", &bytes, &limits).expect("loads without a deadline");
}

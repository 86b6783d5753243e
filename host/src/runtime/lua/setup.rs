//! A sandboxed state's set-up before the sandbox closes: what is removed, `print` to the log, the
//! games' modules, the sized library calls' charges, the trusted wrapper and message handler, and
//! the libraries frozen deep. And what every game gets afresh: an empty environment.

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::LazyLock;

use mlua::{Function, Lua, MultiValue, StdLib, Table, Value};

use super::interrupt::Shared;
use super::trusted::{compile_trusted, load_trusted};
use super::{costs, pattern};

/// The standard libraries a strategy gets: no `io`, `os`, `debug` or `package`.
pub(super) fn libs() -> StdLib {
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
/// `describe` ([`super::protected_call`]). (It was an `xpcall` inside mlua's own protected call: the second
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

/// What [`prepare`] keeps of a state's set-up.
pub(super) struct Prepared {
    pub(super) wrapper: Function,
    pub(super) describe: Function,
    pub(super) new_game: Function,
    pub(super) meter: mlua::Buffer,
    pub(super) env_meta: Table,
}

/// Sets up the globals before the sandbox closes them: removes what must not exist, routes `print` to
/// the log, adds the game modules, builds the trusted wrapper, then closes the sandbox.
pub(super) fn prepare(
    lua: &Lua,
    shared: &Rc<Shared>,
    extensions: crate::runtime::Extensions,
) -> mlua::Result<Prepared> {
    let globals = lua.globals();
    for name in REMOVED {
        globals.raw_set(name, Value::Nil)?;
    }
    let log = shared.clone();
    // Luau's own `tostring` (a per-game name, or `__tostring`); mlua's would print an address.
    let tostring: Function = globals.raw_get("tostring")?;
    let print = lua.create_function(move |_, args: MultiValue| {
        // Charged for the bytes it is handed, as the library functions are (costs.rs), past the
        // log's cap too: a print flood ends by the budget, not by the time backstop.
        let bytes: usize = args
            .iter()
            .map(|v| match v {
                Value::String(s) => s.as_bytes().len(),
                _ => 0,
            })
            .sum();
        log.charge((bytes as u64 / super::costs::BYTES_PER_TICK) as f64)?;
        if log.log.borrow().is_full() {
            return Ok(());
        }
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
    for extension in extensions {
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
        Value::String(s) if super::out_of_memory(&s.as_bytes()) => Ok(s.to_string_lossy()),
        Value::String(s) => {
            let message = crate::runtime::fault::cap_bytes(&s.as_bytes());
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

/// A game's environment: empty, its reads falling through to the read-only globals, marked `safeenv`
/// as Luau's own sandbox marks its environment (fast built-in calls).
pub(super) fn new_env(lua: &Lua, meta: &Table) -> mlua::Result<Table> {
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

/// A value as `print` writes it: what `tostring` gives (a table's or function's per-game name, or its
/// `__tostring`), capped.
fn print_value(tostring: &Function, v: &Value) -> String {
    match v {
        Value::String(s) => crate::runtime::fault::cap_bytes(&s.as_bytes()),
        Value::Nil | Value::Boolean(_) | Value::Integer(_) | Value::Number(_) => describe_value(v),
        other => match tostring.call::<mlua::LuaString>(other) {
            Ok(s) => crate::runtime::fault::cap_bytes(&s.as_bytes()),
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
        Value::String(s) => crate::runtime::fault::cap_bytes(&s.as_bytes()),
        other => format!("<{}>", other.type_name()),
    }
}

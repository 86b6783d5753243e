//! How observations and actions cross into strategy code. The JSON shape is the contract; Lua gets the
//! same shape as tables, WASM gets the bytes. A game's hot observation may build its Lua table through
//! a faster path, as long as the table equals the JSON shape: the game's glue (`crate::hosted`)
//! implements these traits for its wire types, overriding `to_lua`/`call_lua`/`from_lua` where it has
//! a faster path (tests there check the tables against the JSON shape).

use botbox_sdk::Wire;
use serde::{Serialize, de::DeserializeOwned};

use super::lua::convert;

/// Something the host sends to a strategy.
pub trait Payload: Serialize {
    /// The Lua value for this payload; by default the JSON shape converted into tables.
    fn to_lua(&self, lua: &mlua::Lua) -> mlua::Result<mlua::Value> {
        json_table(lua, self)
    }

    /// Calls the strategy's function `module[key]` (read raw) with this payload through the state's
    /// trusted `wrapper`, protected: `wrapper(f, obs)` ([`LuaCall::pcall`]); `None` if there is no
    /// such function. A payload with a
    /// fast constructor looks the function up, builds its table and makes the call in one crossing
    /// into the state.
    fn call_lua(&self, call: &LuaCall) -> mlua::Result<Option<(bool, mlua::Value)>> {
        call.with_table(|| self.to_lua(call.lua))
    }

    /// Appends the payload's postcard form (`docs/wasm-abi.md`, "Encodings") for a WASM module that
    /// chose it; `None` if the payload crosses as JSON only. The SDK's wire types say which have one
    /// ([`binary`] is the implementation for them).
    fn to_binary(&self, out: &mut Vec<u8>) -> Option<Result<(), String>> {
        let _ = out;
        None
    }
}

/// [`Payload::to_binary`] for an SDK wire type.
pub fn binary<T: Wire>(value: &T, out: &mut Vec<u8>) -> Option<Result<(), String>> {
    T::BINARY.then(|| value.to_binary(out))
}

/// [`Answer::from_binary`] for an SDK wire type.
pub fn from_binary<T: Wire>(bytes: &[u8]) -> Option<Result<T, String>> {
    T::BINARY.then(|| T::from_binary(bytes))
}

/// The JSON shape of `value` as Lua tables.
pub fn json_table(lua: &mlua::Lua, value: &(impl Serialize + ?Sized)) -> mlua::Result<mlua::Value> {
    let json = serde_json::to_value(value).map_err(mlua::Error::external)?;
    convert::json_to_lua(lua, &json)
}

/// A call into a strategy's Lua module: the state, its trusted wrapper and message handler, the
/// module and the function's name ([`Payload::call_lua`]).
#[derive(Debug)]
pub struct LuaCall<'a> {
    pub lua: &'a mlua::Lua,
    /// `wrapper(f, ...)` restarts the interrupt's count and calls `f(...)`: a faster path that calls
    /// the strategy itself must call `reset_ticks` first as well.
    pub wrapper: &'a mlua::Function,
    /// The message handler of the protected call ([`LuaCall::pcall`]).
    pub describe: &'a mlua::Function,
    pub module: &'a mlua::Table,
    pub key: &'a mlua::LuaString,
    /// The game on this state (a new module, a new number) and the function's number in it (the
    /// same `key`, the same number): what a faster path may key what it binds by.
    pub game: u64,
    pub function: usize,
}

impl LuaCall<'_> {
    /// `wrapper(module[key], table())` if `module[key]` (read raw) is a function, else `None`.
    pub fn with_table(
        &self,
        table: impl FnOnce() -> mlua::Result<mlua::Value>,
    ) -> mlua::Result<Option<(bool, mlua::Value)>> {
        match self.module.raw_get::<mlua::Value>(self.key)? {
            mlua::Value::Function(f) => self.pcall(self.wrapper, (f, table()?)).map(Some),
            _ => Ok(None),
        }
    }

    /// `f(args...)` protected, with the state's handler: `(true, first result)` or `(false, the
    /// error described)`.
    pub fn pcall(
        &self,
        f: &mlua::Function,
        args: impl mlua::IntoLuaMulti,
    ) -> mlua::Result<(bool, mlua::Value)> {
        super::lua::protected_call(self.lua, self.describe, f, args)
    }
}

/// The outcome of a faster path's protected call ([`LuaCall::pcall`]) whose trusted caller wrote,
/// before anything else, whether the strategy has the function (`found`, 0 for no): `None` if it
/// has not. An error is the call's, whatever `found` says (it may be left from the last call).
pub fn if_found(found: u8, (ok, value): (bool, mlua::Value)) -> Option<(bool, mlua::Value)> {
    (found != 0 || !ok).then_some((ok, value))
}

/// Something a strategy answers. Decoding never runs strategy code (no metamethods).
pub trait Answer: DeserializeOwned {
    /// The answer's shape in the game's words (`a column number, ...`), for the message when a
    /// strategy answers something else; empty when the decoder's own words must do.
    const EXPECTED: &'static str = "";

    /// Decodes a Lua value; the error says what was wrong with it.
    fn from_lua(value: &mlua::Value) -> Result<Self, String> {
        let json = convert::lua_to_json(value)?;
        let shown = shown(&json);
        serde_json::from_value(json).map_err(|e| bad_answer::<Self>(&shown, &e))
    }

    /// Decodes the postcard form of the answer to a payload that crossed as postcard; `None` if
    /// this answer has no postcard form (then it is read as JSON).
    fn from_binary(bytes: &[u8]) -> Option<Result<Self, String>> {
        let _ = bytes;
        None
    }
}

/// What a strategy answered, on one line, cut to a readable length.
pub(crate) fn shown(value: &serde_json::Value) -> String {
    let text = value.to_string();
    if text.len() <= 80 {
        return text;
    }
    let cut = (0..=80)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}... ({} bytes)", &text[..cut], text.len())
}

/// The message for an answer that is not `A`'s shape: what was sent, the decoder's reason, and what
/// the game expected in its words.
pub(crate) fn bad_answer<A: Answer>(shown: &str, reason: &dyn std::fmt::Display) -> String {
    if A::EXPECTED.is_empty() {
        format!("{shown}: {reason}")
    } else {
        format!("{shown} ({reason}): expected {}", A::EXPECTED)
    }
}

impl Payload for serde_json::Value {}
impl Payload for botbox_sdk::Setup {}
impl Answer for serde_json::Value {}

/// An answer read and thrown away: a notification's (BS's `observe`). Lua may return anything; WASM
/// and programs any JSON value (`null`), and the SDK sends no bytes at all.
#[derive(Clone, Copy, Debug)]
pub struct Ignored;

impl<'de> serde::Deserialize<'de> for Ignored {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Ignored)
    }
}

impl Answer for Ignored {
    fn from_binary(_: &[u8]) -> Option<Result<Self, String>> {
        Some(Ok(Ignored))
    }

    fn from_lua(_: &mlua::Value) -> Result<Self, String> {
        Ok(Ignored)
    }
}

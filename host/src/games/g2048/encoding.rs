//! 2048's glue to the runtimes: the `g2048` Lua module (the host's engine behind a `Board` value,
//! for searching bots) with the fast observation constructor, and the WASM imports of the same engine
//! (`docs/wasm-abi.md`); how its observation and answer cross, and its typed encoding.

pub mod lua;
pub mod wasm;

use serde_json::Value;

use crate::games::contract::Turn;
use crate::games::g2048::{Direction, G2048Match, Observation};
use crate::hosted::{Decided, Failed};
use crate::runtime::payload::LuaCall;
use crate::runtime::{Answer, Extension, Instance, Payload, payload};

/// What 2048 adds to every runtime.
#[derive(Debug)]
pub struct G2048;

impl Extension for G2048 {
    fn install_lua(&self, lua: &mlua::Lua) -> mlua::Result<()> {
        lua::install(lua)
    }

    fn wasm_imports(&self) -> &'static [&'static str] {
        &wasm::NAMES
    }

    fn link_wasm(&self, linker: &mut crate::runtime::wasm::HostLinker) -> wasmtime::Result<()> {
        wasm::define(linker)
    }
}

impl Payload for Observation {
    fn to_lua(&self, lua: &mlua::Lua) -> mlua::Result<mlua::Value> {
        lua::observation(lua, self)
    }

    fn call_lua(&self, call: &LuaCall) -> mlua::Result<Option<(bool, mlua::Value)>> {
        lua::call(self, call)
    }

    fn to_binary(&self, out: &mut Vec<u8>) -> Option<Result<(), String>> {
        payload::binary(self, out)
    }
}

impl Answer for Direction {
    fn from_binary(bytes: &[u8]) -> Option<Result<Self, String>> {
        payload::from_binary(bytes)
    }

    fn from_lua(value: &mlua::Value) -> Result<Self, String> {
        match value {
            mlua::Value::String(s) => {
                let s = s
                    .to_str()
                    .map_err(|_| "a move must be a UTF-8 string".to_string())?;
                Direction::from_name(&s).ok_or_else(|| {
                    format!(
                        "expected \"left\", \"right\", \"up\" or \"down\", got {:?}",
                        &*s
                    )
                })
            }
            other => Err(format!(
                "expected a move (\"left\", \"right\", \"up\" or \"down\"), got a value of type {}",
                other.type_name()
            )),
        }
    }
}

/// 2048's typed encoding: the engine's observation crosses through its fast constructor (or
/// postcard), the answer is read as a [`Direction`] and slid on the board.
#[derive(Debug)]
pub struct Encoding;

impl crate::hosted::Encoding for Encoding {
    fn decide(
        &self,
        game: &mut dyn std::any::Any,
        _turn: Turn,
        instance: &mut Instance,
        record: bool,
    ) -> Result<Decided, Failed> {
        let game: &mut G2048Match = game
            .downcast_mut()
            .expect("2048's encoding is handed 2048's match");
        let obs = game.game().observation();
        let direction: Direction = instance.call("choose_move", &obs).map_err(Failed::Fault)?;
        let event = game.slide(direction, record).map_err(Failed::Refused)?;
        Ok(Decided {
            action: if record {
                Value::from(direction.name())
            } else {
                Value::Null
            },
            event: event.unwrap_or_default(),
        })
    }
}

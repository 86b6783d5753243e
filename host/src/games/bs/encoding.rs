//! BS observations and events as Lua tables, built fast. Crossing from Rust into Luau costs about
//! 25 ns per value passed, so the numbers of an observation are packed into one byte string (every
//! field fits a byte but the turn and round counts, which take two) and a trusted Luau constructor
//! unpacks it with `string.byte` into the table, in about a third of the time of passing the values
//! one by one. The constructors are loaded into a state the first time it needs one, from bytecode
//! compiled once per process; the players' names are bound into them as upvalues once per game. An
//! observation with a value too large for its byte, or a table of another size than four, takes the
//! general path (the JSON shape converted). A test checks that every table equals the JSON shape.

use std::cell::RefCell;
use std::sync::LazyLock;

use mlua::{Function, Lua, Value};

use botbox_sdk::bs::{CallObservation, Event, PlayObservation};

use std::any::Any;

use serde_json::json;

use crate::games::bs::{BsMatch, PLAYERS};
use crate::games::contract::{SeatIndex, Turn};
use crate::hosted::{Decided, Failed, Listeners};
use crate::runtime::lua as lua_rt;
use crate::runtime::payload::{self, Ignored, LuaCall};
use crate::runtime::{Answer, Fault, Instance, Payload};

const CONSTRUCTORS: &str = r#"
-- The packed bytes arrive in a buffer the host writes in place (making a string from the host costs a
-- protected call, and reading the buffer as a string would intern one per call): the constructors
-- read them with buffer.readu8, which Luau's native code inlines.
local readu8, readu16, create = buffer.readu8, buffer.readu16, table.create
-- Bytes `from` to `n - 1` of `b` as a list.
local function list(b, from, n)
  local t = create(n - from)
  for i = from, n - 1 do
    t[i - from + 1] = readu8(b, i)
  end
  return t
end
-- The constructors of one game: `players` is made once per game and is read-only (the same names
-- for every observation of the game; a new game gets a new table).
local function bind(p1, p2, p3, p4)
  local players = table.freeze({p1, p2, p3, p4})
  local function play(b, n)
    return {you = readu8(b, 0), players = players, round = readu16(b, 1),
            turn = readu16(b, 3), rank = readu8(b, 5), hand = list(b, 11, n),
            hand_sizes = {readu8(b, 7), readu8(b, 8), readu8(b, 9), readu8(b, 10)}, pile = readu8(b, 6)}
  end
  local function call(b, n)
    return {you = readu8(b, 0), players = players, round = readu16(b, 1),
            turn = readu16(b, 3), player = readu8(b, 5), rank = readu8(b, 6),
            count = readu8(b, 7), player_hand = readu8(b, 8), pile = readu8(b, 9),
            hand = list(b, 14, n),
            hand_sizes = {readu8(b, 10), readu8(b, 11), readu8(b, 12), readu8(b, 13)}}
  end
  return play, call
end
local function event(b, n)
  local kind, turn = readu8(b, 0), readu16(b, 1)
  if kind == 0 then
    return {type = "play", turn = turn, player = readu8(b, 3), rank = readu8(b, 4),
            count = readu8(b, 5), hand_size = readu8(b, 6), pile = readu8(b, 7)}
  elseif kind == 1 then
    return {type = "no_call", turn = turn, player = readu8(b, 3)}
  elseif kind == 2 then
    return {type = "call", turn = turn, player = readu8(b, 3), caller = readu8(b, 4),
            lie = readu8(b, 5) == 1, cards = list(b, 9, n), taker = readu8(b, 6),
            taken = readu8(b, 7), reward = readu8(b, 8) == 1}
  else
    return {type = "round_end", round = turn}
  end
end
local function build(constructor, b, n)
  return constructor(b, n)
end
-- A caller for one function of one game's module: called with the packed length (in a protected
-- call, see `LuaCall::pcall`), it looks the strategy's function up (raw), builds its observation and
-- makes the call, in one crossing: the strategy's answer. (Bound once, it spares the host pushing
-- five values per call.) The buffer's last byte says whether there was such a function (0 no, 1 yes).
local rawget, type, writeu8 = rawget, type, buffer.writeu8
local STATUS = buffer.len(...) - 1
local function caller(constructor, reset_ticks, module, key, b)
  return function(n)
    local f = rawget(module, key)
    if type(f) ~= "function" then
      writeu8(b, STATUS, 0)
      return nil
    end
    writeu8(b, STATUS, 1)
    local obs = constructor(b, n)
    reset_ticks()
    return f(obs)
  end
end
return bind, event, build, caller
"#;

/// What a state keeps between observations: the constructors, bound to the last table's names.
struct Cache {
    bind: Function,
    event: Function,
    build: Function,
    caller: Function,
    /// Restarts the interrupt's count before a strategy function runs (see `LuaCall::wrapper`).
    reset_ticks: Function,
    /// The game the constructors and callers are bound for ([`LuaCall::game`]), and the callers
    /// bound so far, by their function's number and their constructor.
    callers: RefCell<Callers>,
    /// Where the packed bytes are written for the constructors: never seen by strategy code.
    bytes: lua_rt::Bytes,
    /// The names `play` and `call` are bound to, and those two constructors.
    bound: RefCell<Option<(Vec<String>, Function, Function)>>,
}

/// The game, and its callers by their function's number and their constructor's kind.
type Callers = (Option<u64>, Vec<((usize, Kind), Function)>);

/// Runs `f` with this state's [`Cache`], making it on first use.
fn cache<R>(lua: &Lua, f: impl FnOnce(&Cache) -> mlua::Result<R>) -> mlua::Result<R> {
    if let Some(cache) = lua.app_data_ref::<Cache>() {
        return f(&cache);
    }
    static CODE: LazyLock<Vec<u8>> = LazyLock::new(|| lua_rt::compile_trusted(CONSTRUCTORS));
    let bytes = lua_rt::Bytes::new(lua, PACKED_MAX)?;
    let (bind, event, build, caller) =
        lua_rt::load_trusted(lua, "=botbox.bs", &CODE)?.call(bytes.buffer())?;
    let bound = RefCell::new(None);
    let reset_ticks = lua.named_registry_value("botbox.reset_ticks")?;
    lua.set_app_data(Cache {
        bind,
        event,
        build,
        caller,
        reset_ticks,
        callers: RefCell::new((None, Vec::new())),
        bytes,
        bound,
    });
    let cache = lua.app_data_ref::<Cache>().expect("set above");
    f(&cache)
}

/// Which constructor a packed string is for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Play,
    Call,
    Event,
}

/// Runs `f` with the constructor of `kind` (`play` and `call` bound to `players`) and the cache.
/// With a `game`, the constructors are bound afresh when it is another game than last time, so
/// every game has its own `players` table.
fn with_constructor<R>(
    lua: &Lua,
    players: &[String],
    kind: Kind,
    game: Option<u64>,
    f: impl FnOnce(&Cache, &Function) -> mlua::Result<R>,
) -> mlua::Result<R> {
    cache(lua, |c| {
        // Before anything else: a caller of another game's module must never be found again.
        let new_game = game.is_some_and(|game| {
            let mut callers = c.callers.borrow_mut();
            let new = callers.0 != Some(game);
            if new {
                *callers = (Some(game), Vec::new());
            }
            new
        });
        if let Kind::Event = kind {
            return f(c, &c.event);
        }
        // Within one game the names cannot change: they are compared only without one.
        let stale = new_game
            || c.bound
                .borrow()
                .as_ref()
                .is_none_or(|(names, _, _)| game.is_none() && names.as_slice() != players);
        if stale {
            let names: Vec<Value> = players
                .iter()
                .map(|n| lua.create_string(n).map(Value::String))
                .collect::<mlua::Result<_>>()?;
            let (play, call) = c.bind.call(mlua::MultiValue::from_vec(names))?;
            *c.bound.borrow_mut() = Some((players.to_vec(), play, call));
        }
        let bound = c.bound.borrow();
        let (_, play, call) = bound.as_ref().expect("bound above");
        f(c, if let Kind::Play = kind { play } else { call })
    })
}

/// A BS payload on its way into a state: its packed bytes, for the constructor of its kind (`play`
/// and `call` bound to the players' names).
#[derive(Debug)]
pub struct Prepared<'a> {
    packed: Packed,
    kind: Kind,
    players: &'a [String],
}

impl Prepared<'_> {
    /// The table, as the strategy sees it.
    pub fn table(&self, lua: &Lua) -> mlua::Result<Value> {
        let p = &self.packed;
        with_constructor(lua, self.players, self.kind, None, |c, constructor| {
            c.bytes.write(0, p.as_bytes());
            c.build.call((constructor, c.bytes.buffer(), p.len))
        })
    }

    /// `module[key](table)` in one protected crossing into the state; `None` if `module[key]` (read
    /// raw) is not a function.
    pub fn call(&self, call: &LuaCall) -> mlua::Result<Option<(bool, Value)>> {
        let (lua, module, key) = (call.lua, call.module, call.key);
        let p = &self.packed;
        with_constructor(
            lua,
            self.players,
            self.kind,
            Some(call.game),
            |c, constructor| {
                c.bytes.write(0, p.as_bytes());
                let id = (call.function, self.kind);
                let known = c
                    .callers
                    .borrow()
                    .1
                    .iter()
                    .find(|(ids, _)| *ids == id)
                    .map(|(_, f)| f.clone());
                let caller = match known {
                    Some(f) => f,
                    None => {
                        let f: Function = c.caller.call((
                            constructor,
                            &c.reset_ticks,
                            module,
                            key,
                            c.bytes.buffer(),
                        ))?;
                        c.callers.borrow_mut().1.push((id, f.clone()));
                        f
                    }
                };
                let result = call.pcall(&caller, p.len)?;
                let found = c.bytes.byte(PACKED_MAX - 1);
                Ok(payload::if_found(found, result))
            },
        )
    }
}

/// The buffer's size: the longest packed observation (14 bytes of fields and at most 52 cards) with
/// room to spare, and in the last byte whether the strategy had the function called.
const PACKED_MAX: usize = 96;

/// Bytes for the packed string: each value must fit its width, else `None` (the general path).
#[derive(Debug)]
struct Packed {
    bytes: [u8; PACKED_MAX],
    len: usize,
    fits: bool,
}

impl Packed {
    fn new() -> Packed {
        Packed {
            bytes: [0; PACKED_MAX],
            len: 0,
            fits: true,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn byte(&mut self, v: u32) -> &mut Packed {
        self.bytes(&[v])
    }

    /// Appends `vs`, one byte each: checked all at once, then copied (a hand of 13 cards took
    /// more instructions checked and appended one by one than the strategy spent on it).
    fn bytes(&mut self, vs: &[u32]) -> &mut Packed {
        let end = self.len + vs.len();
        self.fits &= end < PACKED_MAX && vs.iter().fold(0, |max, &v| max.max(v)) <= 0xFF;
        if self.fits {
            for (b, &v) in self.bytes[self.len..end].iter_mut().zip(vs) {
                *b = v as u8;
            }
            self.len = end;
        }
        self
    }

    fn two(&mut self, v: u32) -> &mut Packed {
        self.fits &= v <= 0xFFFF;
        self.bytes(&[v & 0xFF, (v >> 8) & 0xFF])
    }

    /// The packed bytes, if every value fitted.
    fn done(self) -> Option<Packed> {
        self.fits.then_some(self)
    }
}

/// The `obs` of `play`, packed; `None` (the general path: the JSON shape converted) for a value too
/// large for its byte or a table of another size than four.
pub fn play_observation(obs: &PlayObservation) -> Option<Prepared<'_>> {
    let mut p = Packed::new();
    p.byte(obs.you)
        .two(obs.round)
        .two(obs.turn)
        .byte(obs.rank)
        .byte(obs.pile);
    p.bytes(&obs.hand_sizes).bytes(&obs.hand);
    let four = obs.players.len() == 4 && obs.hand_sizes.len() == 4;
    p.done().filter(|_| four).map(|packed| Prepared {
        packed,
        kind: Kind::Play,
        players: &obs.players,
    })
}

/// The `obs` of `call`, packed; `None` as for [`play_observation`].
pub fn call_observation(obs: &CallObservation) -> Option<Prepared<'_>> {
    let mut p = Packed::new();
    p.byte(obs.you).two(obs.round).two(obs.turn);
    p.bytes(&[obs.player, obs.rank, obs.count, obs.player_hand, obs.pile]);
    p.bytes(&obs.hand_sizes).bytes(&obs.hand);
    let four = obs.players.len() == 4 && obs.hand_sizes.len() == 4;
    p.done().filter(|_| four).map(|packed| Prepared {
        packed,
        kind: Kind::Call,
        players: &obs.players,
    })
}

/// The `event` of `observe`, packed; `None` for a value too large for its byte.
pub fn event(event: &Event) -> Option<Prepared<'_>> {
    let mut p = Packed::new();
    match event {
        Event::Play {
            turn,
            player,
            rank,
            count,
            hand_size,
            pile,
        } => p
            .byte(0)
            .two(*turn)
            .bytes(&[*player, *rank, *count, *hand_size, *pile]),
        Event::NoCall { turn, player } => p.byte(1).two(*turn).byte(*player),
        Event::Call {
            turn,
            player,
            caller,
            lie,
            cards,
            taker,
            taken,
            reward,
        } => {
            let flags = [u32::from(*lie), *taker, *taken, u32::from(*reward)];
            p.byte(2).two(*turn).byte(*player).byte(*caller);
            p.bytes(&flags).bytes(cards)
        }
        Event::RoundEnd { round } => p.byte(3).two(*round),
    };
    p.done().map(|packed| Prepared {
        packed,
        kind: Kind::Event,
        players: &[],
    })
}

/// Reads `play`'s answer, a list of card ids, without running strategy code: a table with keys
/// 1..n and integer values from 0 to 2^32 - 1 only.
pub fn card_list(value: &Value) -> Result<Vec<u32>, String> {
    let Value::Table(t) = value else {
        return Err(format!(
            "a {} where a list of card ids was expected",
            value.type_name()
        ));
    };
    let n = t.raw_len();
    let mut cards = vec![u32::MAX; n];
    let mut count = 0;
    t.for_each(|k: Value, v: Value| {
        count += 1;
        let slot = match k {
            Value::Integer(i) if i >= 1 && (i as usize) <= n => i as usize - 1,
            Value::Number(f) if f.fract() == 0.0 && f >= 1.0 && f <= n as f64 => f as usize - 1,
            _ => {
                return Err(mlua::Error::runtime(
                    "not a plain list (a key that is not 1..n)",
                ));
            }
        };
        cards[slot] = match v {
            Value::Integer(i) => u32::try_from(i).ok(),
            Value::Number(f) if f.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&f) => {
                Some(f as u32)
            }
            _ => None,
        }
        .ok_or_else(|| mlua::Error::runtime(format!("{} is not a card id", describe(&v))))?;
        Ok(())
    })
    .map_err(|e| match e {
        mlua::Error::RuntimeError(m) => m,
        other => other.to_string(),
    })?;
    if count != n {
        return Err("not a plain list (a key that is not 1..n)".into());
    }
    Ok(cards)
}

fn describe(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::Integer(i) => i.to_string(),
        other => format!("a {}", other.type_name()),
    }
}

/// BS's payloads cross through their packed constructors ((below)) when `$prepare` can
/// pack them, else as their JSON shape.
macro_rules! bs_payload {
    ($($payload:ty => $prepare:ident),* $(,)?) => {$(
        impl Payload for $payload {
            fn to_lua(&self, lua: &mlua::Lua) -> mlua::Result<mlua::Value> {
                match $prepare(self) {
                    Some(packed) => packed.table(lua),
                    None => payload::json_table(lua, self),
                }
            }

            fn call_lua(&self, call: &LuaCall) -> mlua::Result<Option<(bool, mlua::Value)>> {
                match $prepare(self) {
                    Some(packed) => packed.call(call),
                    None => call.with_table(|| payload::json_table(call.lua, self)),
                }
            }

            fn to_binary(&self, out: &mut Vec<u8>) -> Option<Result<(), String>> {
                payload::binary(self, out)
            }
        }
    )*};
}

bs_payload!(
    PlayObservation => play_observation,
    CallObservation => call_observation,
    Event => event,
);

/// BS's `play` answer, `bs::PlayAction`: a list of card ids.
impl Answer for Vec<u32> {
    fn from_binary(bytes: &[u8]) -> Option<Result<Self, String>> {
        payload::from_binary(bytes)
    }

    fn from_lua(value: &mlua::Value) -> Result<Self, String> {
        card_list(value)
    }
}

/// BS's `call` answer, `bs::CallAction`: `true` or `false`, nothing else (not `nil`).
impl Answer for bool {
    fn from_binary(bytes: &[u8]) -> Option<Result<Self, String>> {
        payload::from_binary(bytes)
    }

    fn from_lua(value: &mlua::Value) -> Result<Self, String> {
        match value {
            mlua::Value::Boolean(b) => Ok(*b),
            other => Err(format!(
                "a {} where true or false was expected",
                other.type_name()
            )),
        }
    }
}

/// BS's typed encoding: the observations cross as their packed tables (or postcard) from the
/// match's own, updated in place; the answers are read as cards and booleans; each public event is
/// told to every seat that observes.
#[derive(Debug)]
pub struct Encoding;

impl crate::hosted::Encoding for Encoding {
    fn decide(
        &self,
        game: &mut dyn Any,
        turn: Turn,
        instance: &mut Instance,
        record: bool,
    ) -> Result<Decided, Failed> {
        let game = bs_match(game);
        let (action, event) = if turn.function == "play" {
            let cards: Vec<u32> = instance
                .call("play", game.play_observation())
                .map_err(Failed::Fault)?;
            let event = game.play_cards(&cards, record).map_err(Failed::Refused)?;
            (record.then(|| json!(cards)), event)
        } else {
            let obs = game
                .call_observation(turn.seat as usize)
                .expect("the seat asked to call may call");
            let call: bool = instance.call("call", obs).map_err(Failed::Fault)?;
            let event = game.call_bs(call, record).map_err(Failed::Refused)?;
            (record.then(|| json!(call)), event)
        };
        Ok(Decided {
            action: action.unwrap_or_default(),
            event: event.unwrap_or_default(),
        })
    }

    /// BS tells every seat the events of each play and call.
    fn notifies(&self) -> bool {
        true
    }

    fn notify(
        &self,
        game: &mut dyn Any,
        seats: &mut dyn Listeners,
    ) -> Result<(), (SeatIndex, Fault)> {
        let game = bs_match(game);
        if game.events().is_empty() {
            return Ok(());
        }
        // Most bots have no `observe`: asked once per batch of events, not once per event.
        let mut hears = [false; PLAYERS];
        for (seat, hears) in hears.iter_mut().enumerate() {
            *hears = seats.listener(seat as SeatIndex, "observe").is_some();
        }
        if hears == [false; PLAYERS] {
            game.events().clear();
            return Ok(());
        }
        let mut events = std::mem::take(game.events());
        for event in &events {
            for seat in (0..PLAYERS as SeatIndex).filter(|&s| hears[s as usize]) {
                if let Some(instance) = seats.listener(seat, "observe") {
                    instance
                        .call::<_, Ignored>("observe", event)
                        .map_err(|fault| (seat, fault))?;
                }
            }
        }
        // The list's room is kept for the next events.
        events.clear();
        *game.events() = events;
        Ok(())
    }
}

fn bs_match(game: &mut dyn Any) -> &mut BsMatch {
    game.downcast_mut()
        .expect("BS's encoding is handed BS's match")
}

#[cfg(test)]
mod tests;

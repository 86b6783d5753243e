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

use crate::runtime::lua as lua_rt;
use crate::runtime::payload::{self, LuaCall};
use crate::runtime::{Answer, Payload};

const CONSTRUCTORS: &str = r#"
local byte = string.byte
local function bind(p1, p2, p3, p4)
  local function play(s)
    local you, r1, r2, t1, t2, rank, pile, a, b, c, d = byte(s, 1, 11)
    return {you = you, players = {p1, p2, p3, p4}, round = r1 + 256 * r2, turn = t1 + 256 * t2,
            rank = rank, hand = {byte(s, 12, -1)}, hand_sizes = {a, b, c, d}, pile = pile}
  end
  local function call(s)
    local you, r1, r2, t1, t2, player, rank, count, player_hand, pile, a, b, c, d = byte(s, 1, 14)
    return {you = you, players = {p1, p2, p3, p4}, round = r1 + 256 * r2, turn = t1 + 256 * t2,
            player = player, rank = rank, count = count, player_hand = player_hand, pile = pile,
            hand = {byte(s, 15, -1)}, hand_sizes = {a, b, c, d}}
  end
  return play, call
end
local function event(s)
  local kind, t1, t2 = byte(s, 1, 3)
  local turn = t1 + 256 * t2
  if kind == 0 then
    local player, rank, count, hand_size, pile = byte(s, 4, 8)
    return {type = "play", turn = turn, player = player, rank = rank, count = count,
            hand_size = hand_size, pile = pile}
  elseif kind == 1 then
    return {type = "no_call", turn = turn, player = byte(s, 4)}
  elseif kind == 2 then
    local player, caller, lie, taker, taken, reward = byte(s, 4, 9)
    return {type = "call", turn = turn, player = player, caller = caller, lie = lie == 1,
            cards = {byte(s, 10, -1)}, taker = taker, taken = taken, reward = reward == 1}
  else
    return {type = "round_end", round = turn}
  end
end
-- The packed bytes arrive in a buffer the host writes in place (making a string from the host costs a
-- protected call); `build` reads them as a string for `byte`, with the library's own readstring (the
-- strategy's is wrapped to charge its size to the budget; see costs.rs).
local readstring = ((...) or buffer).readstring
local function build(constructor, b, n)
  return constructor(readstring(b, 0, n))
end
-- The strategy's function looked up (raw), its observation built and the call made in one crossing:
-- false if there is no such function, else true and what the state's trusted xpcall wrapper returns.
local rawget, type = rawget, type
local function dispatch(constructor, wrapper, module, key, b, n)
  local f = rawget(module, key)
  if type(f) ~= "function" then
    return false
  end
  return true, wrapper(f, constructor(readstring(b, 0, n)))
end
return bind, event, build, dispatch
"#;

/// What a state keeps between observations: the constructors, bound to the last table's names.
struct Cache {
    bind: Function,
    event: Function,
    build: Function,
    dispatch: Function,
    /// Where the packed bytes are written for the constructors: never seen by strategy code.
    bytes: mlua::Buffer,
    /// The names `play` and `call` are bound to, and those two constructors.
    bound: RefCell<Option<(Vec<String>, Function, Function)>>,
}

/// Runs `f` with this state's [`Cache`], making it on first use.
fn cache<R>(lua: &Lua, f: impl FnOnce(&Cache) -> mlua::Result<R>) -> mlua::Result<R> {
    if lua.app_data_ref::<Cache>().is_none() {
        static CODE: LazyLock<Vec<u8>> = LazyLock::new(|| lua_rt::compile_trusted(CONSTRUCTORS));
        let (bind, event, build, dispatch) = lua_rt::load_trusted(lua, "=botbox.bs", &CODE)?
            .call(lua.named_registry_value::<Value>(lua_rt::ORIGINALS_KEY)?)?;
        let bound = RefCell::new(None);
        let bytes = lua.create_buffer([0u8; PACKED_MAX])?;
        lua.set_app_data(Cache {
            bind,
            event,
            build,
            dispatch,
            bytes,
            bound,
        });
    }
    let cache = lua.app_data_ref::<Cache>().expect("made above");
    f(&cache)
}

/// Which constructor a packed string is for.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Play,
    Call,
    Event,
}

/// Runs `f` with the constructor of `kind` (`play` and `call` bound to `players`) and the cache.
fn with_constructor<R>(
    lua: &Lua,
    players: &[String],
    kind: Kind,
    f: impl FnOnce(&Cache, &Function) -> mlua::Result<R>,
) -> mlua::Result<R> {
    cache(lua, |c| {
        if let Kind::Event = kind {
            return f(c, &c.event);
        }
        let stale = c
            .bound
            .borrow()
            .as_ref()
            .is_none_or(|(names, _, _)| names != players);
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
        with_constructor(lua, self.players, self.kind, |c, constructor| {
            c.bytes.write_bytes(0, p.as_bytes());
            c.build.call((constructor, &c.bytes, p.len))
        })
    }

    /// `wrapper(module[key], table)` in one crossing into the state; `None` if `module[key]` (read
    /// raw) is not a function.
    pub fn call(&self, call: &LuaCall) -> mlua::Result<Option<(bool, Value)>> {
        let (lua, wrapper, module, key) = (call.lua, call.wrapper, call.module, call.key);
        let p = &self.packed;
        with_constructor(lua, self.players, self.kind, |c, constructor| {
            c.bytes.write_bytes(0, p.as_bytes());
            let (found, ok, value): (bool, Option<bool>, Value) =
                c.dispatch
                    .call((constructor, wrapper, module, key, &c.bytes, p.len))?;
            Ok(found.then(|| (ok.unwrap_or(false), value)))
        })
    }
}

/// The longest packed observation: 14 bytes of fields and at most 52 cards, with room to spare.
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
        self.fits &= v <= 0xFF && self.len < self.bytes.len();
        if self.fits {
            self.bytes[self.len] = v as u8;
            self.len += 1;
        }
        self
    }

    fn bytes(&mut self, vs: &[u32]) -> &mut Packed {
        for &v in vs {
            self.byte(v);
        }
        self
    }

    fn two(&mut self, v: u32) -> &mut Packed {
        self.fits &= v <= 0xFFFF;
        self.byte(v & 0xFF).byte((v >> 8) & 0xFF)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bs::{Game, policy};
    use crate::runtime::Payload;
    use crate::runtime::lua::convert::lua_to_json;

    /// `payload`'s table through the real entry point equals its JSON shape; `fast` says whether it
    /// took the packed path.
    fn same_shape(lua: &Lua, payload: &impl Payload, fast: bool, packed: Option<Prepared<'_>>) {
        assert_eq!(
            packed.is_some(),
            fast,
            "{}",
            serde_json::to_value(payload).unwrap()
        );
        assert_eq!(
            lua_to_json(&payload.to_lua(lua).unwrap()).unwrap(),
            serde_json::to_value(payload).unwrap()
        );
    }

    #[test]
    fn the_fast_tables_equal_the_json_shape() {
        let lua = Lua::new();
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut game = Game::new(3);
        let mut events = 0;
        policy::play_out(
            &mut game,
            |g| {
                let obs = g.play_observation(&names);
                same_shape(&lua, &obs, true, play_observation(&obs));
                policy::honest_or_oldest(g.hand(g.to_move()), g.required_rank())
            },
            |g, seat, count| {
                let obs = g.call_observation(seat, &names).unwrap();
                same_shape(&lua, &obs, true, call_observation(&obs));
                count >= 2
            },
            |_, r| {
                for e in [Some(r.event()), r.round_end()].into_iter().flatten() {
                    same_shape(&lua, &e, true, event(&e));
                    events += 1;
                }
            },
        );
        assert!(events > 4);
        let names2: Vec<String> = ["e", "f", "g", "h"].map(String::from).to_vec();
        let rebound = game.play_observation(&names2);
        same_shape(&lua, &rebound, true, play_observation(&rebound));
        let mut odd = game.play_observation(&names);
        odd.turn = 70_000;
        same_shape(&lua, &odd, false, play_observation(&odd));
        odd.players.pop();
        odd.turn = 5;
        same_shape(&lua, &odd, false, play_observation(&odd));
        let call = Event::Call {
            turn: 300,
            player: 3,
            caller: 0,
            lie: true,
            cards: vec![51, 0, 7],
            taker: 3,
            taken: 40,
            reward: true,
        };
        same_shape(&lua, &call, true, event(&call));
        let round = Event::RoundEnd { round: 1000 };
        same_shape(&lua, &round, true, event(&round));
        let play = Event::Play {
            turn: 1,
            player: 1,
            rank: 1,
            count: 2,
            hand_size: 11,
            pile: 2,
        };
        same_shape(&lua, &play, true, event(&play));
    }

    #[test]
    fn card_lists_are_read_strictly() {
        let lua = Lua::new();
        let read = |src: &str| card_list(&lua.load(src).eval::<Value>().unwrap());
        assert_eq!(read("return {3, 7.0, 51}"), Ok(vec![3, 7, 51]));
        assert_eq!(read("return {}"), Ok(vec![]));
        assert!(read("return nil").unwrap_err().contains("nil"));
        assert!(
            read("return {1, 2, x = 3}")
                .unwrap_err()
                .contains("plain list")
        );
        assert!(read("return {1.5}").unwrap_err().contains("1.5"));
        assert!(read("return {-1}").unwrap_err().contains("-1"));
        assert!(read("return {'a'}").unwrap_err().contains("string"));
        assert!(read("return {[1] = 4, [3] = 5}").is_err(), "holes");
    }
}

//! Converting between the JSON shape and Lua values, without ever running strategy code: tables are read
//! with raw access (no `__index`, `__pairs` or `__len`), and anything that is not data is refused.

use mlua::{Lua, Table, Value};
use serde_json::{Map, Number, Value as Json};

/// Deeper answers are refused: no game's action nests this far, and it bounds the work.
const MAX_DEPTH: usize = 32;
/// Larger answers are refused for the same reason.
const MAX_ITEMS: usize = 100_000;

/// Builds Lua tables from JSON: arrays become 1-based sequences, objects tables with string keys.
pub fn json_to_lua(lua: &Lua, json: &Json) -> mlua::Result<Value> {
    Ok(match json {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Value::String(lua.create_string(s)?),
        Json::Array(items) => {
            let table = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                table.raw_set(i + 1, json_to_lua(lua, item)?)?;
            }
            Value::Table(table)
        }
        Json::Object(fields) => {
            let table = lua.create_table_with_capacity(0, fields.len())?;
            for (k, v) in fields {
                table.raw_set(k.as_str(), json_to_lua(lua, v)?)?;
            }
            Value::Table(table)
        }
    })
}

/// Reads a Lua value as JSON. A table with keys 1..n is an array (an empty table is `[]`); a table with
/// string keys is an object; anything else (functions, userdata, mixed keys, NaN) is an error that says what.
pub fn lua_to_json(value: &Value) -> Result<Json, String> {
    let mut items = 0;
    to_json(value, 0, &mut items)
}

fn to_json(value: &Value, depth: usize, items: &mut usize) -> Result<Json, String> {
    *items += 1;
    if depth > MAX_DEPTH || *items > MAX_ITEMS {
        return Err(format!(
            "answer too large (more than {MAX_DEPTH} levels or {MAX_ITEMS} values)"
        ));
    }
    match value {
        Value::Nil => Ok(Json::Null),
        Value::Boolean(b) => Ok(Json::Bool(*b)),
        Value::Integer(i) => Ok(Json::from(*i)),
        Value::Number(n) => number(*n),
        Value::String(s) => s
            .to_str()
            .map(|s| Json::String(s.to_string()))
            .map_err(|_| "a string that is not UTF-8".into()),
        Value::Table(t) => table(t, depth, items),
        other => Err(format!(
            "a {} cannot be part of an answer",
            other.type_name()
        )),
    }
}

fn number(n: f64) -> Result<Json, String> {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        return Ok(Json::from(n as i64));
    }
    Number::from_f64(n)
        .map(Json::Number)
        .ok_or_else(|| format!("the number {n} has no JSON form"))
}

fn table(t: &Table, depth: usize, items: &mut usize) -> Result<Json, String> {
    let mut pairs: Vec<(Value, Value)> = Vec::new();
    t.for_each(|k: Value, v: Value| {
        pairs.push((k, v));
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    let len = t.raw_len();
    if pairs.len() == len {
        let mut array = vec![Json::Null; len];
        for (k, v) in &pairs {
            let index = match k {
                Value::Integer(i) => *i,
                Value::Number(n) if n.fract() == 0.0 => *n as i64,
                _ => return Err("a table that mixes list items and named fields".into()),
            };
            if index < 1 || index as usize > len {
                return Err("a list with holes".into());
            }
            array[index as usize - 1] = to_json(v, depth + 1, items)?;
        }
        return Ok(Json::Array(array));
    }
    let mut object = Map::new();
    for (k, v) in &pairs {
        let Value::String(key) = k else {
            return Err(format!(
                "a table with a key of type {} (send a plain list or string keys)",
                k.type_name()
            ));
        };
        let key = key
            .to_str()
            .map_err(|_| "a key that is not UTF-8".to_string())?
            .to_string();
        object.insert(key, to_json(v, depth + 1, items)?);
    }
    Ok(Json::Object(object))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(j: Json) {
        let lua = Lua::new();
        let v = json_to_lua(&lua, &j).unwrap();
        assert_eq!(lua_to_json(&v).unwrap(), j);
    }

    #[test]
    fn data_survives_a_round_trip() {
        round_trip(
            json!({"board": [[0, 2], [4, 8]], "score": 12, "legal": ["left", "up"], "ok": true}),
        );
        round_trip(json!([1.5, -3, "x", []]));
        round_trip(json!("down"));
    }

    #[test]
    fn non_data_is_refused_with_a_reason() {
        let lua = Lua::new();
        let check = |src: &str, needle: &str| {
            let v: Value = lua.load(src).eval().unwrap();
            let err = lua_to_json(&v).unwrap_err();
            assert!(err.contains(needle), "{src}: {err}");
        };
        check("return function() end", "function");
        check("return {1, 2, x = 3}", "key of type integer");
        check("return {[true] = 1}", "key of type boolean");
        check("return 0/0", "no JSON form");
        check("local t = {} t[1] = t return t", "too large");
    }

    #[test]
    fn metamethods_are_never_consulted() {
        let lua = Lua::new();
        let v: Value = lua
            .load("return setmetatable({}, {__index = function() error('ran') end, __len = function() error('ran') end})")
            .eval()
            .unwrap();
        assert_eq!(lua_to_json(&v).unwrap(), json!([]));
    }
}

//! The `g2048` module for Lua strategies: the host's own 2048 engine behind an immutable `Board`
//! userdata, so a Lua expectimax searches several plies without reimplementing the game (Luau numbers
//! are doubles, so a packed 64-bit board would not survive the trip). Also the fast observation
//! constructor: a trusted Lua function reads the cells from a buffer the host writes in place and
//! builds the `obs` table, in the same crossing that calls the strategy (setting fields one by one
//! from Rust costs about ten times as much under a memory limit).

use mlua::{Function, Lua, MetaMethod, Table, UserData, UserDataMethods, Value};

use crate::runtime::payload::LuaCall;

use crate::games::g2048::{Board, Direction, Observation, exponent_of, value};

/// A board value in Lua. Every operation returns a new board.
#[derive(Clone, Debug)]
pub struct LuaBoard(pub Board);

fn direction(name: &str) -> mlua::Result<Direction> {
    Direction::from_name(name).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "unknown direction {name:?} (expected \"left\", \"right\", \"up\" or \"down\")"
        ))
    })
}

/// Converts a 1-based (row, col) into a row-major cell index, checking the range.
fn cell(board: &Board, row: i64, col: i64) -> mlua::Result<usize> {
    let n = board.size() as i64;
    if !(1..=n).contains(&row) || !(1..=n).contains(&col) {
        return Err(mlua::Error::runtime(format!(
            "cell ({row}, {col}) is outside the {n}x{n} board"
        )));
    }
    Ok(((row - 1) * n + (col - 1)) as usize)
}

fn directions(lua: &Lua, legal: [bool; 4]) -> mlua::Result<Table> {
    let names = Direction::ALL
        .iter()
        .zip(legal)
        .filter(|(_, ok)| *ok)
        .map(|(d, _)| d.name());
    lua.create_sequence_from(names)
}

impl UserData for LuaBoard {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("move", |lua, b, dir: String| {
            match b.0.apply(direction(&dir)?) {
                Some((next, gained)) => Ok((
                    Value::UserData(lua.create_userdata(LuaBoard(next))?),
                    gained,
                )),
                None => Ok((Value::Nil, 0)),
            }
        });
        methods.add_method("can_move", |_, b, dir: String| {
            Ok(b.0.can_move(direction(&dir)?))
        });
        methods.add_method("legal", |lua, b, ()| directions(lua, b.0.legal()));
        methods.add_method("empty_cells", |lua, b, ()| {
            let cells = b.0.exponents();
            lua.create_sequence_from(
                cells
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| **e == 0)
                    .map(|(i, _)| i + 1),
            )
        });
        methods.add_method("empty_count", |_, b, ()| Ok(b.0.empty_count()));
        methods.add_method("place", |lua, b, (index, tile): (i64, u32)| {
            let cells = b.0.size() * b.0.size();
            let exponent = exponent_of(tile).filter(|e| *e >= 1).ok_or_else(|| {
                mlua::Error::runtime(format!("place: {tile} is not a tile value (2, 4, 8, ...)"))
            })?;
            if index < 1 || index as usize > cells || b.0.exponent(index as usize - 1) != 0 {
                return Err(mlua::Error::runtime(format!(
                    "place: cell {index} is not an empty cell"
                )));
            }
            let mut next = b.0.clone();
            next.place(index as usize - 1, exponent);
            lua.create_userdata(LuaBoard(next))
        });
        methods.add_method("get", |_, b, (row, col): (i64, i64)| {
            Ok(value(b.0.exponent(cell(&b.0, row, col)?)))
        });
        methods.add_method("exponent", |_, b, (row, col): (i64, i64)| {
            Ok(b.0.exponent(cell(&b.0, row, col)?))
        });
        methods.add_method("row", |_, b, i: i64| {
            let r = cell(&b.0, i, 1)?;
            Ok(b.0.row(r / b.0.size()))
        });
        methods.add_method("col", |_, b, i: i64| Ok(b.0.col(cell(&b.0, 1, i)?)));
        methods.add_method("rows", |lua, b, ()| rows_table(lua, &b.0.values()));
        methods.add_method("size", |_, b, ()| Ok(b.0.size()));
        methods.add_method("max_tile", |_, b, ()| Ok(value(b.0.max_exponent())));
        methods.add_meta_method(
            MetaMethod::Eq,
            |_, a, other: mlua::UserDataRef<LuaBoard>| Ok(a.0 == other.0),
        );
        methods.add_meta_method(MetaMethod::ToString, |_, b, ()| {
            Ok(format!("Board({:?})", b.0.values()))
        });
    }
}

fn rows_table(lua: &Lua, rows: &[Vec<u32>]) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(rows.len(), 0)?;
    for row in rows {
        t.raw_push(lua.create_sequence_from(row.iter().copied())?)?;
    }
    Ok(t)
}

/// Reads a board from a Lua table of rows of tile values.
fn board_from_table(rows: Table) -> mlua::Result<Board> {
    let mut values: Vec<Vec<u32>> = Vec::new();
    for row in rows.sequence_values::<Table>() {
        values.push(row?.sequence_values::<u32>().collect::<mlua::Result<_>>()?);
    }
    Board::from_rows(&values).map_err(|e| mlua::Error::runtime(format!("g2048.board: {e}")))
}

const OBSERVATION: &str = r#"
-- The board arrives as base-2 exponents, one byte per cell row-major, in a buffer the host writes in
-- place (never seen by strategy code); `values[e + 1]` is the tile of exponent e (0 for empty).
local create, readu8, writeu8 = table.create, buffer.readu8, buffer.writeu8
local btest, rawget, type = bit32.btest, rawget, type
local values = {0}
for e = 1, 31 do values[e + 1] = 2 ^ e end
local function build(cells, size, score, moves, legal)
  local board = create(size)
  local k = 0
  for r = 1, size do
    local row = create(size)
    for c = 1, size do
      row[c] = values[readu8(cells, k) + 1]
      k += 1
    end
    board[r] = row
  end
  local names = create(4)
  local n = 0
  if btest(legal, 1) then n += 1; names[n] = "left" end
  if btest(legal, 2) then n += 1; names[n] = "right" end
  if btest(legal, 4) then n += 1; names[n] = "up" end
  if btest(legal, 8) then n += 1; names[n] = "down" end
  return {board = board, score = score, moves = moves, legal = names}
end
-- The strategy's function looked up (raw), its observation built and the call made in one crossing
-- (a protected call, see `LuaCall::pcall`): the strategy's answer. The buffer's last byte says
-- whether there was such a function (0 no, 1 yes).
local FOUND = buffer.len(...) - 1
local function dispatch(wrapper, module, key, cells, size, score, moves, legal)
  local f = rawget(module, key)
  if type(f) ~= "function" then
    writeu8(cells, FOUND, 0)
    return nil
  end
  writeu8(cells, FOUND, 1)
  return wrapper(f, build(cells, size, score, moves, legal))
end
return build, dispatch
"#;

/// The largest board the fast path packs (8x8); a larger one crosses as its JSON shape.
const CELLS_MAX: usize = 64;

/// A state's observation constructors and the buffer they read the cells from.
struct Constructors {
    build: Function,
    dispatch: Function,
    cells: crate::runtime::lua::Bytes,
}

/// Adds the global `g2048` table and the observation constructors (before the sandbox closes globals).
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let module = lua.create_table()?;
    module.raw_set(
        "board",
        lua.create_function(|lua, rows: Table| {
            lua.create_userdata(LuaBoard(board_from_table(rows)?))
        })?,
    )?;
    module.raw_set(
        "directions",
        lua.create_sequence_from(Direction::ALL.map(|d| d.name()))?,
    )?;
    lua.globals().raw_set("g2048", module)?;
    static CODE: std::sync::LazyLock<Vec<u8>> =
        std::sync::LazyLock::new(|| crate::runtime::lua::compile_trusted(OBSERVATION));
    let cells = crate::runtime::lua::Bytes::new(lua, CELLS_MAX + 1)?;
    let (build, dispatch) =
        crate::runtime::lua::load_trusted(lua, "=botbox.g2048", &CODE)?.call(cells.buffer())?;
    lua.set_app_data(Constructors {
        build,
        dispatch,
        cells,
    });
    Ok(())
}

/// The observation's scalars for the constructors, its cells written into their buffer; `None` for
/// a board the fast path does not take (over [`CELLS_MAX`] cells, a tile that is not a power of 2).
fn packed(c: &Constructors, obs: &Observation) -> Option<(usize, f64, f64, u32)> {
    let size = obs.board.len();
    let mut cells = [0u8; CELLS_MAX];
    let mut k = 0;
    for row in &obs.board {
        if row.len() != size || k + size > CELLS_MAX {
            return None;
        }
        for &v in row {
            let e = exponent_of(v)?;
            cells[k] = e;
            k += 1;
        }
    }
    c.cells.write(0, &cells[..k]);
    let legal = obs.legal.iter().fold(0u32, |mask, d| mask | 1 << d.index());
    Some((size, obs.score as f64, obs.moves as f64, legal))
}

/// Builds the `obs` table for a 2048 observation: the same shape as its JSON.
pub fn observation(lua: &Lua, obs: &Observation) -> mlua::Result<Value> {
    let c = lua
        .app_data_ref::<Constructors>()
        .expect("installed with the state");
    match packed(&c, obs) {
        Some((size, score, moves, legal)) => {
            c.build.call((c.cells.buffer(), size, score, moves, legal))
        }
        None => crate::runtime::payload::json_table(lua, obs),
    }
}

/// `wrapper(module[key], obs)` in one crossing into the state; `None` if `module[key]` (read raw) is
/// not a function.
pub fn call(obs: &Observation, call: &LuaCall) -> mlua::Result<Option<(bool, Value)>> {
    let c = call
        .lua
        .app_data_ref::<Constructors>()
        .expect("installed with the state");
    let Some((size, score, moves, legal)) = packed(&c, obs) else {
        return call.with_table(|| crate::runtime::payload::json_table(call.lua, obs));
    };
    let result = call.pcall(
        &c.dispatch,
        (
            call.wrapper,
            call.module,
            call.key,
            c.cells.buffer(),
            size,
            score,
            moves,
            legal,
        ),
    )?;
    let found = c.cells.byte(CELLS_MAX);
    Ok(crate::runtime::payload::if_found(found, result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::lua::convert::lua_to_json;

    #[test]
    fn the_fast_observation_equals_the_json_shape() {
        let lua = Lua::new();
        install(&lua).unwrap();
        let mut game = crate::games::g2048::Game::new(4, 9).unwrap();
        for dir in [
            Direction::Left,
            Direction::Up,
            Direction::Right,
            Direction::Down,
            Direction::Left,
        ] {
            let _ = game.step(dir);
        }
        let obs = game.observation();
        let table = observation(&lua, &obs).unwrap();
        assert_eq!(
            lua_to_json(&table).unwrap(),
            serde_json::to_value(&obs).unwrap()
        );
        // The one-crossing call hands the strategy the same table; a board the fast path does not
        // take (9x9, a tile of 3) crosses as its JSON shape.
        let odd = Observation {
            board: vec![vec![3; 9]; 9],
            ..obs.clone()
        };
        let (module, wrapper, describe): (Table, Function, Function) = lua
            .load("return {look = function(obs) return obs end}, function(f, obs) return f(obs) end, tostring")
            .eval()
            .unwrap();
        let key = lua.create_string("look").unwrap();
        for obs in [obs, odd] {
            let seen = call(
                &obs,
                &LuaCall {
                    lua: &lua,
                    wrapper: &wrapper,
                    describe: &describe,
                    module: &module,
                    key: &key,
                    game: 1,
                    function: 0,
                },
            )
            .unwrap()
            .expect("a function");
            assert!(seen.0);
            assert_eq!(
                lua_to_json(&seen.1).unwrap(),
                serde_json::to_value(&obs).unwrap()
            );
        }
    }

    #[test]
    fn scripts_search_with_board_values() {
        let lua = Lua::new();
        install(&lua).unwrap();
        let (gained, empty, packed, same): (u32, u32, u32, bool) = lua
            .load(
                r#"
                local b = g2048.board({{2, 2, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 4}})
                local after, gained = b:move("left")
                assert(b:move("down") ~= nil and b:can_move("up"))
                local placed = after:place(2, 2)
                assert(placed:get(1, 2) == 2 and placed:exponent(1, 1) == 2)
                return gained, #after:empty_cells(), b:row(1), b == g2048.board(b:rows())
                "#,
            )
            .eval()
            .unwrap();
        assert_eq!((gained, empty, packed, same), (4, 14, 0x11, true));
    }
}

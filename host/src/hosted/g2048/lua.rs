//! The `g2048` module for Lua strategies: the host's own 2048 engine behind an immutable `Board`
//! userdata, so a Lua expectimax searches several plies without reimplementing the game (Luau numbers
//! are doubles, so a packed 64-bit board would not survive the trip). Also the fast observation
//! constructor: a trusted Lua function fed plain numbers builds the `obs` table in about a microsecond,
//! where setting fields one by one from Rust costs about ten under a memory limit.

use mlua::{Function, Lua, MetaMethod, MultiValue, Table, UserData, UserDataMethods, Value};

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
local create = table.create
return function(size, score, moves, legal, ...)
  local cells = {...}
  local board = create(size)
  local k = 1
  for r = 1, size do
    local row = create(size)
    for c = 1, size do
      row[c] = cells[k]
      k += 1
    end
    board[r] = row
  end
  local names = {}
  if bit32.btest(legal, 1) then names[#names + 1] = "left" end
  if bit32.btest(legal, 2) then names[#names + 1] = "right" end
  if bit32.btest(legal, 4) then names[#names + 1] = "up" end
  if bit32.btest(legal, 8) then names[#names + 1] = "down" end
  return {board = board, score = score, moves = moves, legal = names}
end
"#;

const CONSTRUCTOR_KEY: &str = "botbox.g2048.observation";

/// Adds the global `g2048` table and the observation constructor (before the sandbox closes globals).
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
    let constructor: Function =
        crate::runtime::lua::load_trusted(lua, "=botbox.g2048", &CODE)?.call(())?;
    lua.set_named_registry_value(CONSTRUCTOR_KEY, constructor)
}

/// Builds the `obs` table for a 2048 observation: the same shape as its JSON.
pub fn observation(lua: &Lua, obs: &Observation) -> mlua::Result<Value> {
    let constructor: Function = lua.named_registry_value(CONSTRUCTOR_KEY)?;
    let legal = obs.legal.iter().fold(0u32, |mask, d| mask | 1 << d.index());
    let mut args = Vec::with_capacity(4 + obs.board.len() * obs.board.len());
    args.extend(
        [
            obs.board.len() as f64,
            obs.score as f64,
            obs.moves as f64,
            legal as f64,
        ]
        .map(Value::Number),
    );
    args.extend(obs.board.iter().flatten().map(|v| Value::Number(*v as f64)));
    constructor.call(MultiValue::from_vec(args))
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

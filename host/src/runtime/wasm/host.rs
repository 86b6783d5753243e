//! The host functions a module may import from `botbox` (`docs/wasm-abi.md`). Each one charges fuel
//! for its work, since wasmtime meters only the guest's own instructions, and traps on bad addresses.

use wasmtime::{Caller, Linker, Memory};

use super::StoreData;
use crate::games::g2048::{Board4, Direction};

pub const MODULE: &str = "botbox";

/// Every import the ABI offers; anything else is refused at load time.
pub const NAMES: [&str; 7] = [
    "log",
    "g2048_move",
    "g2048_can_move",
    "g2048_empty_cells",
    "g2048_place",
    "g2048_row",
    "g2048_col",
];

/// Fuel charged per host call (about what the same work costs as guest code) and per logged byte.
const CALL_FUEL: u64 = 100;
const BYTE_FUEL: u64 = 1;

/// A strategy's log lines for one game, capped in bytes.
#[derive(Debug)]
pub struct Log {
    lines: Vec<String>,
    bytes: usize,
    cap: usize,
    truncated: bool,
}

impl Log {
    pub fn new(cap: usize) -> Log {
        Log {
            lines: Vec::new(),
            bytes: 0,
            cap,
            truncated: false,
        }
    }

    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    fn push(&mut self, line: String) {
        if self.truncated {
            return;
        }
        if self.bytes + line.len() > self.cap {
            self.truncated = true;
            self.lines
                .push(format!("[log truncated at {} bytes]", self.cap));
            return;
        }
        self.bytes += line.len();
        self.lines.push(line);
    }
}

type Result<T> = wasmtime::Result<T>;

pub fn define(linker: &mut Linker<StoreData>) -> Result<()> {
    linker.func_wrap(
        MODULE,
        "log",
        |mut c: Caller<'_, StoreData>, ptr: i32, len: i32| -> Result<()> {
            charge(&mut c, CALL_FUEL + BYTE_FUEL * len.max(0) as u64)?;
            let bytes = read(&mut c, ptr, len)?;
            let line = String::from_utf8_lossy(&bytes).into_owned();
            c.data_mut().log.push(line);
            Ok(())
        },
    )?;
    linker.func_wrap(
        MODULE,
        "g2048_move",
        |mut c: Caller<'_, StoreData>, board: i32, dir: i32, out: i32| {
            charge(&mut c, CALL_FUEL)?;
            let b = read_board(&mut c, board)?;
            match b.apply(direction(dir)?) {
                Some((next, gained)) => {
                    write(&mut c, out, &next.exponents())?;
                    Ok(gained as i32)
                }
                None => Ok(-1),
            }
        },
    )?;
    linker.func_wrap(
        MODULE,
        "g2048_can_move",
        |mut c: Caller<'_, StoreData>, board: i32, dir: i32| {
            charge(&mut c, CALL_FUEL)?;
            Ok(read_board(&mut c, board)?.can_move(direction(dir)?) as i32)
        },
    )?;
    linker.func_wrap(
        MODULE,
        "g2048_empty_cells",
        |mut c: Caller<'_, StoreData>, board: i32, out: i32| {
            charge(&mut c, CALL_FUEL)?;
            let cells = read_board(&mut c, board)?.exponents();
            let empty: Vec<u8> = (0..16u8).filter(|&i| cells[i as usize] == 0).collect();
            write(&mut c, out, &empty)?;
            Ok(empty.len() as i32)
        },
    )?;
    linker.func_wrap(
        MODULE,
        "g2048_place",
        |mut c: Caller<'_, StoreData>, board: i32, cell: i32, exponent: i32| {
            charge(&mut c, CALL_FUEL)?;
            let mut cells = read_board(&mut c, board)?.exponents();
            let ok = (0..16).contains(&cell)
                && (1..=17).contains(&exponent)
                && cells[cell as usize] == 0;
            if !ok {
                return Ok(-1);
            }
            cells[cell as usize] = exponent as u8;
            write(&mut c, board, &cells)?;
            Ok(0)
        },
    )?;
    linker.func_wrap(
        MODULE,
        "g2048_row",
        |mut c: Caller<'_, StoreData>, board: i32, row: i32| {
            charge(&mut c, CALL_FUEL)?;
            Ok(read_board(&mut c, board)?.row(index(row)?) as i32)
        },
    )?;
    linker.func_wrap(
        MODULE,
        "g2048_col",
        |mut c: Caller<'_, StoreData>, board: i32, col: i32| {
            charge(&mut c, CALL_FUEL)?;
            Ok(read_board(&mut c, board)?.col(index(col)?) as i32)
        },
    )?;
    Ok(())
}

fn charge(c: &mut Caller<'_, StoreData>, cost: u64) -> Result<()> {
    // Without metering (`--fuel 0`) there is nothing to charge.
    let Ok(left) = c.get_fuel() else {
        return Ok(());
    };
    // Leaving zero fuel makes the guest trap with OutOfFuel at its next instruction.
    c.set_fuel(left.saturating_sub(cost))
}

fn memory(c: &mut Caller<'_, StoreData>) -> Result<Memory> {
    c.get_export("memory")
        .and_then(|e| e.into_memory())
        .ok_or_else(|| wasmtime::format_err!("no exported memory"))
}

fn read(c: &mut Caller<'_, StoreData>, ptr: i32, len: i32) -> Result<Vec<u8>> {
    let mut buf = vec![0; len.max(0) as usize];
    memory(c)?
        .read(&*c, ptr as u32 as usize, &mut buf)
        .map_err(|_| {
            wasmtime::format_err!("botbox host call: address {ptr}+{len} outside memory")
        })?;
    Ok(buf)
}

fn write(c: &mut Caller<'_, StoreData>, ptr: i32, bytes: &[u8]) -> Result<()> {
    memory(c)?
        .write(&mut *c, ptr as u32 as usize, bytes)
        .map_err(|_| {
            wasmtime::format_err!(
                "botbox host call: address {ptr}+{} outside memory",
                bytes.len()
            )
        })
}

fn read_board(c: &mut Caller<'_, StoreData>, ptr: i32) -> Result<Board4> {
    let bytes = read(c, ptr, 16)?;
    let mut cells = [0u8; 16];
    cells.copy_from_slice(&bytes);
    if cells.iter().any(|&e| e > 17) {
        wasmtime::bail!("botbox host call: a board cell holds exponent above 17");
    }
    Ok(Board4::from_exponents(cells))
}

fn direction(dir: i32) -> Result<Direction> {
    usize::try_from(dir)
        .ok()
        .and_then(|d| Direction::ALL.get(d).copied())
        .ok_or_else(|| wasmtime::format_err!("botbox host call: direction {dir} is not 0..=3"))
}

fn index(i: i32) -> Result<usize> {
    usize::try_from(i)
        .ok()
        .filter(|&i| i < 4)
        .ok_or_else(|| wasmtime::format_err!("botbox host call: index {i} is not 0..=3"))
}

//! 2048's WASM imports (`docs/wasm-abi.md`): the host's 4x4 engine on boards of 16 exponent bytes in
//! the guest's memory. Each call charges fuel like the runtime's own imports and traps on bad
//! addresses or values.

use wasmtime::Caller;

use crate::games::g2048::{Board4, Direction};
use crate::runtime::wasm::host::{CALL_FUEL, MODULE, charge, read, write};
use crate::runtime::wasm::{HostLinker, StoreData};

/// The imports 2048 adds to module `botbox`.
pub const NAMES: [&str; 6] = [
    "g2048_move",
    "g2048_can_move",
    "g2048_empty_cells",
    "g2048_place",
    "g2048_row",
    "g2048_col",
];

type Result<T> = wasmtime::Result<T>;

pub fn define(linker: &mut HostLinker) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use crate::games::g2048::{Direction, Observation};
    use crate::runtime::wasm::Program;
    use crate::runtime::{Limits, Setup};

    /// A module whose `choose_move` answers "left" only if every host function gave the expected
    /// result on the board [2 2 0 0 / 0 .. / 0 .. / 0 0 0 4] (exponents 1 1 0 0 ... 2), else "up".
    const PROBE: &str = r#"
    (module
      (import "botbox" "log" (func $log (param i32 i32)))
      (import "botbox" "g2048_move" (func $move (param i32 i32 i32) (result i32)))
      (import "botbox" "g2048_can_move" (func $can (param i32 i32) (result i32)))
      (import "botbox" "g2048_empty_cells" (func $empty (param i32 i32) (result i32)))
      (import "botbox" "g2048_place" (func $place (param i32 i32 i32) (result i32)))
      (import "botbox" "g2048_row" (func $row (param i32 i32) (result i32)))
      (import "botbox" "g2048_col" (func $col (param i32 i32) (result i32)))
      (memory (export "memory") 1)
      (data (i32.const 0) "\01\01\00\00\00\00\00\00\00\00\00\00\00\00\00\02")
      (data (i32.const 100) "\"left\"\"up\"probe ok")
      (func (export "botbox_alloc") (param i32) (result i32) (i32.const 1024))
      (func (export "botbox_init") (param i32 i32) (result i32) (i32.const 0))
      (func (export "choose_move") (param i32 i32) (result i64)
        (local $ok i32)
        (local.set $ok (i32.const 1))
        ;; left merges the two 2s into a 4 (+4) and writes exponent 2 at cell 0 of the board at 32
        (local.set $ok (i32.and (local.get $ok) (i32.eq (call $move (i32.const 0) (i32.const 0) (i32.const 32)) (i32.const 4))))
        (local.set $ok (i32.and (local.get $ok) (i32.eq (i32.load8_u (i32.const 32)) (i32.const 2))))
        ;; down moves the top row, so it can move; the moved-left board has 14 empty cells
        (local.set $ok (i32.and (local.get $ok) (call $can (i32.const 0) (i32.const 3))))
        (local.set $ok (i32.and (local.get $ok) (i32.eq (call $empty (i32.const 32) (i32.const 64)) (i32.const 14))))
        ;; row 0 packs to 0x0011, column 3 to 0x2000; a taken cell refuses a tile, a free one takes it
        (local.set $ok (i32.and (local.get $ok) (i32.eq (call $row (i32.const 0) (i32.const 0)) (i32.const 0x11))))
        (local.set $ok (i32.and (local.get $ok) (i32.eq (call $col (i32.const 0) (i32.const 3)) (i32.const 0x2000))))
        (local.set $ok (i32.and (local.get $ok) (i32.eq (call $place (i32.const 0) (i32.const 0) (i32.const 1)) (i32.const -1))))
        (local.set $ok (i32.and (local.get $ok) (i32.eqz (call $place (i32.const 0) (i32.const 5) (i32.const 1)))))
        (call $log (i32.const 110) (i32.const 8))
        (if (result i64) (local.get $ok)
          (then (i64.or (i64.shl (i64.const 100) (i64.const 32)) (i64.const 6)))
          (else (i64.or (i64.shl (i64.const 106) (i64.const 32)) (i64.const 4))))))
    "#;

    #[test]
    fn host_functions_compute_with_the_engine() {
        let program = Program::compile(
            "probe.wat",
            PROBE.as_bytes(),
            &Limits::default(),
            crate::hosted::extensions(),
        )
        .unwrap();
        let setup = Setup::new("2048", 1, 0);
        let mut bot = program.instantiate(&setup, &Limits::default()).unwrap();
        let obs = Observation {
            board: vec![vec![0; 4]; 4],
            score: 0,
            moves: 0,
            legal: Direction::ALL.to_vec(),
        };
        let answer: Direction = bot.call("choose_move", &obs).unwrap();
        assert_eq!(answer, Direction::Left);
        assert_eq!(bot.log(), vec!["probe ok".to_string()]);
    }
}

//! The host functions a module may import from `botbox` (`docs/wasm-abi.md`): `log` here, a game's
//! own from its glue (`crate::hosted`), written with the helpers below. Each one charges fuel for its
//! work, since wasmtime meters only the guest's own instructions, and traps on bad addresses.

use wasmtime::{Caller, Linker, Memory};

use super::StoreData;
use crate::runtime::fault;

pub const MODULE: &str = "botbox";

/// The imports every module may use; the games' own (`crate::hosted`, [`crate::runtime::Extension`])
/// come on top. Anything else is refused at load time.
pub const NAMES: [&str; 1] = ["log"];

/// Fuel charged per host call (about what the same work costs as guest code) and per logged byte.
pub const CALL_FUEL: u64 = 100;
const BYTE_FUEL: u64 = 1;

type Result<T> = wasmtime::Result<T>;

/// The caller of a host function.
pub type HostCaller<'a> = Caller<'a, StoreData>;

pub fn define(linker: &mut Linker<StoreData>) -> Result<()> {
    linker.func_wrap(
        MODULE,
        "log",
        |mut c: Caller<'_, StoreData>, ptr: i32, len: i32| -> Result<()> {
            // Charged for every byte it is handed, past the log's cap too; but only what a log
            // line keeps (MAX_MESSAGE bytes) is read, and nothing once the log is full, so a
            // flood of huge lines ends by fuel, quickly.
            let len = len.max(0);
            charge(&mut c, CALL_FUEL + BYTE_FUEL * len as u64)?;
            check_range(&mut c, ptr, len)?;
            if c.data().log.is_full() {
                return Ok(());
            }
            let line = if len as usize <= fault::MAX_MESSAGE {
                String::from_utf8_lossy(&read(&mut c, ptr, len)?).into_owned()
            } else {
                let head = read(&mut c, ptr, fault::KEPT_OF_LONG as i32)?;
                fault::cut_text(&head, len as usize)
            };
            c.data_mut().log.push(line);
            Ok(())
        },
    )?;
    Ok(())
}

pub fn charge(c: &mut Caller<'_, StoreData>, cost: u64) -> Result<()> {
    // Without metering (`--fuel 0`) there is nothing to charge.
    let Ok(left) = c.get_fuel() else {
        return Ok(());
    };
    // Leaving zero fuel makes the guest trap with OutOfFuel at its next instruction.
    c.set_fuel(left.saturating_sub(cost))
}

pub fn memory(c: &mut Caller<'_, StoreData>) -> Result<Memory> {
    c.get_export("memory")
        .and_then(|e| e.into_memory())
        .ok_or_else(|| wasmtime::format_err!("no exported memory"))
}

pub fn read(c: &mut Caller<'_, StoreData>, ptr: i32, len: i32) -> Result<Vec<u8>> {
    let mut buf = vec![0; len.max(0) as usize];
    memory(c)?
        .read(&*c, ptr as u32 as usize, &mut buf)
        .map_err(|_| {
            wasmtime::format_err!("botbox host call: address {ptr}+{len} outside memory")
        })?;
    Ok(buf)
}

/// Traps unless `ptr..ptr + len` (`len` ≥ 0) lies in the module's memory, as [`read`] of it would.
fn check_range(c: &mut Caller<'_, StoreData>, ptr: i32, len: i32) -> Result<()> {
    let size = memory(c)?.data_size(&*c);
    let end = (ptr as u32 as usize).checked_add(len as usize);
    if end.is_some_and(|end| end <= size) {
        Ok(())
    } else {
        Err(wasmtime::format_err!(
            "botbox host call: address {ptr}+{len} outside memory"
        ))
    }
}

pub fn write(c: &mut Caller<'_, StoreData>, ptr: i32, bytes: &[u8]) -> Result<()> {
    memory(c)?
        .write(&mut *c, ptr as u32 as usize, bytes)
        .map_err(|_| {
            wasmtime::format_err!(
                "botbox host call: address {ptr}+{} outside memory",
                bytes.len()
            )
        })
}

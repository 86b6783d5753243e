//! Faults decided by the bot's own work, with the right kind: out of memory is `memory`, whichever
//! Luau library function ran out (the host's pattern matcher for `gsub`, `string.rep`,
//! `table.concat`, `buffer.create`, `string.format`), with the cap named; a flood of log lines is
//! paid for by the budget (Luau) or fuel (WASM), not stopped by the time backstop, and the log keeps
//! its cap.

use crate::util::play_2048 as play;
use botbox::runtime::{FaultKind, Limits};

use crate::util::scratch;

/// A 2048 strategy whose `choose_move` runs `body` (which is meant never to return).
fn bot(body: &str) -> String {
    format!(
        "local M = {{}}\nfunction M.choose_move(obs)\n{body}\nreturn obs.legal[1]\nend\nreturn M\n"
    )
}

#[test]
fn every_library_function_that_runs_out_of_memory_faults_memory() {
    let dir = scratch("memory-faults");
    let limits = Limits::default();
    let cases = [
        (
            "gsub",
            r#"local s, big = string.rep("x", 1000), string.rep("y", 100000)
               local r = string.gsub(s, "x", big)"#,
        ),
        ("string.rep", r#"local s = string.rep("x", 100 * 2^20)"#),
        (
            "table.concat",
            r#"local piece, t = string.rep("x", 2^20), {}
               for i = 1, 100 do t[i] = piece end
               local s = table.concat(t)"#,
        ),
        ("buffer.create", r#"local b = buffer.create(100 * 2^20)"#),
        (
            "string.format",
            r#"local piece = string.rep("x", 20 * 2^20)
               local s = string.format("%s%s%s%s%s", piece, piece, piece, piece, piece)"#,
        ),
        (
            // Memory hoarded up to the cap, the error caught: the host then runs out building the
            // next observation's tables (or the answer's), not a library function.
            "observation",
            r#"HOARD = HOARD or {}
               pcall(function()
                   while true do HOARD[#HOARD + 1] = string.rep("x", 4096) .. #HOARD end
               end)"#,
        ),
        (
            "gsub caught",
            r#"local s, big = string.rep("x", 1000), string.rep("y", 100000)
               local ok, r = pcall(string.gsub, s, "x", big)
               if not ok then error(r) end"#,
        ),
    ];
    for (name, body) in cases {
        let file = dir.join(format!("{}.lua", name.replace(['.', ' '], "_")));
        std::fs::write(&file, bot(body)).unwrap();
        let strategy = botbox::hosted::load(&file, &limits).unwrap();
        let (record, _) = play(&strategy, 4, 1, 7, false);
        let fault = record.fault.unwrap_or_else(|| panic!("{name}: no fault"));
        assert_eq!(fault.kind, FaultKind::Memory, "{name}: {fault}");
        assert!(
            fault.message.contains("32 MiB"),
            "{name}: the cap is named: {fault}"
        );
    }
}

#[test]
fn a_log_flood_ends_by_the_budget_or_fuel_and_the_log_keeps_its_cap() {
    let dir = scratch("log-floods");
    let lua = dir.join("print_flood.lua");
    std::fs::write(
        &lua,
        bot(r#"local line = string.rep("x", 4096)
               while true do print(line) end"#),
    )
    .unwrap();
    // 16 MiB lines from a 17 MiB memory, again and again.
    let wat = dir.join("log_flood.wat");
    std::fs::write(
        &wat,
        r#"(module
            (import "botbox" "log" (func $log (param i32 i32)))
            (memory (export "memory") 272)
            (func (export "botbox_alloc") (param i32) (result i32) (i32.const 1024))
            (func (export "botbox_init") (param i32 i32) (result i32) (i32.const 0))
            (func (export "choose_move") (param i32 i32) (result i64)
              (loop $again (call $log (i32.const 0) (i32.const 16777216)) (br $again))
              (i64.const 0)))"#,
    )
    .unwrap();
    // The default limits: the time backstop is 10 s of CPU, far above what the budget allows.
    let limits = Limits::default();
    for (file, kind) in [(lua, FaultKind::Budget), (wat, FaultKind::Fuel)] {
        let strategy = botbox::hosted::load(&file, &limits).unwrap();
        let (record, replay) = play(&strategy, 4, 1, 7, true);
        let fault = record.fault.expect("the flood faults");
        assert_eq!(fault.kind, kind, "{}: {fault}", file.display());
        let bytes = replay.unwrap().to_bytes();
        let end: serde_json::Value =
            serde_json::from_str(String::from_utf8(bytes).unwrap().lines().last().unwrap())
                .unwrap();
        let lines = end["logs"][0].as_array().unwrap();
        let kept: usize = lines.iter().map(|l| l.as_str().unwrap().len()).sum();
        assert!(
            kept <= limits.log_bytes + 64,
            "{}: {kept} bytes of log",
            file.display()
        );
        assert!(
            lines
                .last()
                .unwrap()
                .as_str()
                .unwrap()
                .starts_with("[log truncated"),
            "{}",
            file.display()
        );
    }
}

//! The limits inside a state: what the interrupt and `print` share with the host, the budget counted
//! in steps of ticks, the time backstop looked at, and the live-memory cap enforced by collecting.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mlua::{Function, Lua, VmState};

use super::super::FaultKind;
use super::super::log::Log;
use super::super::watchdog::Deadline;

/// What the interrupt and `print` share with the host.
pub(super) struct Shared {
    pub(super) ticks: Cell<u64>,
    pub(super) budget: u64,
    /// Sticky: once set, every tick raises an error until the host resets it for the next call.
    pub(super) over: Cell<Option<FaultKind>>,
    pub(super) deadline: Deadline,
    pub(super) log: RefCell<Log>,
    /// The cap on live memory now (the limit, plus what stayed live from earlier games on a reused
    /// state): a heap still above it after a full collection is fault `memory`.
    pub(super) cap: Cell<usize>,
    /// The interrupt runs a full collection once the heap passes this.
    pub(super) collect_at: Cell<usize>,
}

/// The allocator's hard limit for a live-memory cap: room for the garbage made between two
/// interrupts, at which the cap itself is checked after a collection.
pub(super) fn hard_limit(cap: usize) -> usize {
    cap.saturating_mul(2)
}

impl Shared {
    /// Charges `ticks` of library work to the budget (from [`super::costs`]).
    pub(super) fn charge(&self, ticks: f64) -> mlua::Result<()> {
        let ticks = if ticks.is_nan() { 0 } else { ticks as u64 };
        let total = self.ticks.get().saturating_add(ticks);
        self.ticks.set(total);
        if total > self.budget {
            self.over.set(Some(FaultKind::Budget));
            return Err(mlua::Error::runtime(
                "strategy stopped: instruction budget spent",
            ));
        }
        Ok(())
    }
}

/// Our Luau runs the host's interrupt once every this many ticks, counted from the start of each call
/// (vendor/luau0-src/BOTBOX.md): the budget is counted and the heap and the time limit are looked at
/// in steps of this many ticks. Running it at every tick cost a tenth of a BS game (mlua's callback
/// machinery); the allocator's hard limit of twice the cap leaves room for what is made between.
const TICKS_PER_INTERRUPT: u64 = 16;

/// The heap has passed its collection mark: a full collection, then fault `memory` if what is alive
/// is still over the cap. The next collection comes after another quarter of the cap has been
/// allocated, so collections cost at most about the work of allocating that much.
fn collect(lua: &Lua, shared: &Shared) -> mlua::Result<VmState> {
    lua.gc_collect()?;
    let live = lua.used_memory();
    let cap = shared.cap.get();
    if live > cap {
        shared.over.set(Some(FaultKind::Memory));
        return Err(mlua::Error::runtime("strategy stopped: memory cap"));
    }
    shared.collect_at.set(cap.max(live + cap / 4));
    Ok(VmState::Continue)
}

pub(super) fn install_interrupt(lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<()> {
    let shared = shared.clone();
    // Once a call is over its limits the interrupt raises at every tick, not every 16th: one in 16
    // could always fall inside a `pcall` the strategy loops around.
    let every_tick: Function = lua.named_registry_value("botbox.every_tick")?;
    lua.set_interrupt(move |lua| {
        if let Some(kind) = shared.over.get() {
            every_tick.call::<()>(())?;
            return Err(mlua::Error::runtime(format!("strategy stopped: {kind}")));
        }
        let ticks = shared.ticks.get() + TICKS_PER_INTERRUPT;
        shared.ticks.set(ticks);
        if ticks > shared.budget {
            shared.over.set(Some(FaultKind::Budget));
            return Err(mlua::Error::runtime(
                "strategy stopped: instruction budget spent",
            ));
        }
        if shared.deadline.expired() {
            shared.over.set(Some(FaultKind::Timeout));
            return Err(mlua::Error::runtime("strategy stopped: time limit"));
        }
        if lua.used_memory() > shared.collect_at.get() {
            return collect(lua, &shared);
        }
        Ok(VmState::Continue)
    });
    lua.named_registry_value::<Function>("botbox.count_ticks")?
        .call::<()>(TICKS_PER_INTERRUPT)
}

//! Idle Luau states, kept per thread for the next game of the same program.
//!
//! Creating a sandboxed state (the libraries, mlua's set-up, the host's wrapper) and freeing it again
//! cost more than a whole BS game of a light strategy. A state goes back to its thread's pool when its
//! game ends without a fault; the next instance of the same program under the same limits on that
//! thread takes it instead of making one. What makes that safe is in [`super`]: each game runs a copy
//! of the chunk in a new environment over read-only libraries (a heap that has grown is collected
//! first; see `Vm::begin_game`).
//!
//! Threads never share a state (a state is not `Send`), and a pool holds at most [`IDLE`] states,
//! dropping the longest idle one first, so programs that are no longer played (a hot-reloaded bot's
//! old version) are forgotten.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

use super::Vm;
use crate::runtime::Limits;

/// Idle states per thread: enough for a pool tournament's distinct bots, four seats each.
const IDLE: usize = 32;

/// A state whose heap holds more than this share of its cap is not kept: a strategy that uses that
/// much memory gets a new state every game.
const KEEP_BELOW_CAP_SHARE: usize = 8;

thread_local! {
    static IDLE_STATES: RefCell<Vec<Vm>> = const { RefCell::new(Vec::new()) };
}

/// An idle state of `program` made under `limits`, if this thread has one.
pub(super) fn take(program: u64, limits: &Limits) -> Option<Vm> {
    IDLE_STATES.with_borrow_mut(|idle| {
        let i = idle
            .iter()
            .rposition(|vm| vm.program == program && vm.limits == *limits)?;
        Some(idle.remove(i))
    })
}

fn put(vm: Vm) {
    let keep = vm.healthy.get()
        && vm.lua.used_memory() < vm.limits.memory / KEEP_BELOW_CAP_SHARE
        && vm.shared.over.get().is_none();
    if !keep {
        return;
    }
    // The state is dropped outside the borrow: dropping runs no strategy code, but keep it simple.
    let evicted = IDLE_STATES.with_borrow_mut(|idle| {
        idle.push(vm);
        (idle.len() > IDLE).then(|| idle.remove(0))
    });
    drop(evicted);
}

/// A state lent to one game; it goes back to the pool when the game drops it.
pub(super) struct Lease(Option<Vm>);

impl Lease {
    pub(super) fn new(vm: Vm) -> Lease {
        Lease(Some(vm))
    }
}

impl Deref for Lease {
    type Target = Vm;
    fn deref(&self) -> &Vm {
        self.0
            .as_ref()
            .expect("a lease holds its state until dropped")
    }
}

impl DerefMut for Lease {
    fn deref_mut(&mut self) -> &mut Vm {
        self.0
            .as_mut()
            .expect("a lease holds its state until dropped")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(vm) = self.0.take() {
            // During a panic the thread may be unwinding out of a game: do not keep that state.
            if !std::thread::panicking() {
                put(vm);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Instance, Program};
    use super::*;
    use crate::runtime::FaultKind;
    use botbox_sdk::Setup;

    fn setup(seed: u64) -> Setup {
        Setup {
            game: "test".into(),
            seed,
            seat: 0,
            params: Default::default(),
        }
    }

    fn start(program: &Program, seed: u64) -> Instance {
        program
            .instantiate(&setup(seed), &Limits::default())
            .expect("starts")
    }

    fn games_of(instance: &Instance) -> u64 {
        instance.vm.games
    }

    /// Everything a strategy could try to carry into its next game on the same state: globals, the
    /// read-only libraries, the string metatable, upvalues of its table's functions.
    const CARRIER: &str = r#"
count = (count or 0) + 1
local wrote = {}
for _, try in ipairs({
  function() math.carried = (math.carried or 0) + 1 end,
  function() string.carried = true end,
  function() getmetatable("").carried = true end,
  function() rawset(_G, "carried", true) end,
  function() table.insert(table, 1) end,
}) do
  if pcall(try) then wrote[#wrote + 1] = true end
end
local calls = 0
return {
  look = function()
    calls += 1
    return {count = count, calls = calls, wrote = #wrote, math = math.carried or 0,
            random = math.random(1, 1000000)}
  end,
}
"#;

    #[test]
    fn a_reused_state_carries_nothing_from_one_game_to_the_next() {
        let program = Program::compile("carrier.lua", CARRIER.as_bytes(), &[]).unwrap();
        let mut first_random = None;
        for game in 1..=5u64 {
            let mut instance = start(&program, 7);
            let seen: serde_json::Value = instance.call("look", &serde_json::Value::Null).unwrap();
            assert_eq!(games_of(&instance), game, "the state is reused");
            assert_eq!(
                seen,
                serde_json::json!({"count": 1, "calls": 1, "wrote": 0, "math": 0,
                                   "random": seen["random"]}),
                "game {game}"
            );
            // The same seed gives the same random numbers on a reused state.
            assert_eq!(
                *first_random.get_or_insert(seen["random"].clone()),
                seen["random"]
            );
        }
    }

    /// What a game sees of object identities: the order of keys that are objects (new ones and ones
    /// made before the game), the names `tostring` and `print` give, and whether a weak table kept
    /// its entries after much garbage.
    const IDENTITIES: &str = r#"
local weak = setmetatable({}, {__mode = "k"})
weak[{}] = true
return {
  look = function()
    local set = {}
    for i = 1, 40 do set[{}] = i end
    set[math.floor] = 41
    set[string] = 42
    set[coroutine.create(print)] = 43
    set[buffer.create(1)] = 44
    set[function() end] = 45
    local order = {}
    for _, v in pairs(set) do order[#order + 1] = v end
    for i = 1, 20000 do local _ = {i} end
    local held = 0
    for _ in pairs(weak) do held += 1 end
    print({}, math.floor)
    return {order = order, names = {tostring({}), tostring(print), tostring(string),
            string.format("%*", coroutine.running())}, held = held}
  end,
}
"#;

    #[test]
    fn identities_are_the_same_in_every_game_whatever_ran_before_on_the_state() {
        let program = Program::compile("identities.lua", IDENTITIES.as_bytes(), &[]).unwrap();
        let other = Program::compile("carrier.lua", CARRIER.as_bytes(), &[]).unwrap();
        let mut first = None;
        for game in 1..=4u64 {
            // Other work on the thread between games, and a state reused from game 2 on.
            let _ =
                start(&other, game).call::<_, serde_json::Value>("look", &serde_json::Value::Null);
            let mut instance = start(&program, 7);
            let seen: serde_json::Value = instance.call("look", &serde_json::Value::Null).unwrap();
            assert_eq!(games_of(&instance), game, "the state is reused");
            let names = seen["names"].to_string();
            assert!(!names.contains("0x"), "{names}");
            assert!(names.contains("\"table: "), "{names}");
            assert!(names.contains("function: builtin "), "{names}");
            assert_eq!(seen["held"], 1, "the weak table holds its entry");
            assert_eq!(instance.log().len(), 1);
            assert!(!instance.log()[0].contains("0x"), "{:?}", instance.log());
            assert_eq!(first.get_or_insert(seen.clone()), &seen, "game {game}");
        }
    }

    #[test]
    fn the_memory_counters_are_absent() {
        let source = "return { look = function() return {type(gcinfo), type(collectgarbage)} end }";
        let program = Program::compile("counters.lua", source.as_bytes(), &[]).unwrap();
        let seen: serde_json::Value = start(&program, 1)
            .call("look", &serde_json::Value::Null)
            .unwrap();
        assert_eq!(seen, serde_json::json!(["nil", "nil"]));
    }

    #[test]
    fn a_state_that_faulted_is_not_reused() {
        let source = r#"
local M = {}
function M.fine() return 1 end
function M.loop() for i = 1, math.huge do end end
return M
"#;
        let program = Program::compile("faulty.lua", source.as_bytes(), &[]).unwrap();
        let mut first = start(&program, 1);
        assert_eq!(games_of(&first), 1);
        let fault = first
            .call::<_, serde_json::Value>("loop", &serde_json::Value::Null)
            .unwrap_err();
        assert_eq!(
            fault.kind,
            FaultKind::Budget,
            "a numeric for loop meets the budget"
        );
        drop(first);
        let mut second = start(&program, 1);
        assert_eq!(games_of(&second), 1, "a new state after the fault");
        let one: serde_json::Value = second.call("fine", &serde_json::Value::Null).unwrap();
        assert_eq!(one, serde_json::json!(1));
        drop(second);
        assert_eq!(
            games_of(&start(&program, 1)),
            2,
            "a clean game's state is reused"
        );
    }

    #[test]
    fn states_are_kept_per_program_and_limits() {
        let a = Program::compile("a.lua", b"return {}", &[]).unwrap();
        let b = Program::compile("b.lua", b"return {}", &[]).unwrap();
        drop(start(&a, 1));
        assert_eq!(
            games_of(&start(&b, 1)),
            1,
            "another program's state is not used"
        );
        let tight = Limits {
            lua_budget: 1000,
            ..Limits::default()
        };
        let other = a.instantiate(&setup(1), &tight).unwrap();
        assert_eq!(
            games_of(&other),
            1,
            "a state made under other limits is not used"
        );
        assert_eq!(games_of(&start(&a, 1)), 2);
    }
}

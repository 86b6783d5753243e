//! The guest side of the ABI (`docs/wasm-abi.md`), used by [`crate::export_strategy!`] and
//! [`crate::export_bs_strategy!`].
//!
//! The host asks `botbox_alloc` for an input buffer, writes JSON there, then calls `botbox_init` or a
//! decision function (`choose_move`; for BS `play`, `call`, `observe`) with the buffer's address and
//! length. The answer is JSON in an output buffer whose address and length come back packed in one
//! `i64`: `(ptr << 32) | len`. A negative answer is an error the strategy reports itself. Both buffers live in thread-locals (a wasm32 module has one thread), so
//! no raw pointer is ever dereferenced here.

use std::cell::RefCell;

use serde::{Serialize, de::DeserializeOwned};

use crate::{BsStrategy, Setup, Strategy};

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static STRATEGY: RefCell<Option<Box<dyn std::any::Any>>> = const { RefCell::new(None) };
}

/// Negative answers of the decision functions, as documented in `docs/wasm-abi.md`.
const ERR_NOT_INITIALISED: i64 = -1;
const ERR_BAD_INPUT: i64 = -2;
const ERR_ENCODE: i64 = -3;

pub fn alloc(size: i32) -> i32 {
    INPUT.with_borrow_mut(|buf| {
        buf.clear();
        buf.resize(size.max(0) as usize, 0);
        buf.as_ptr() as i32
    })
}

fn with_input<R>(ptr: i32, len: i32, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    INPUT.with_borrow(|buf| {
        (buf.as_ptr() as i32 == ptr && len >= 0 && len as usize <= buf.len())
            .then(|| f(&buf[..len as usize]))
    })
}

/// Builds the strategy from the setup JSON with `new` and keeps it for the calls that follow.
pub fn init_with<S: 'static>(ptr: i32, len: i32, new: impl FnOnce(&Setup) -> S) -> i32 {
    std::panic::set_hook(Box::new(|info| crate::host::log(&format!("panic: {info}"))));
    let setup = with_input(ptr, len, |bytes| serde_json::from_slice::<Setup>(bytes));
    match setup {
        Some(Ok(setup)) => {
            let strategy: Box<dyn std::any::Any> = Box::new(new(&setup));
            STRATEGY.with_borrow_mut(|s| *s = Some(strategy));
            0
        }
        _ => -1,
    }
}

pub fn init<S: Strategy + 'static>(ptr: i32, len: i32) -> i32 {
    init_with(ptr, len, S::new)
}

/// One exported function: decodes the input JSON as `I`, hands it to `f` with the strategy built by
/// `botbox_init`, and encodes `f`'s answer. Every exported decision function (`choose_move`, BS's
/// `play`, `call` and `observe`) is this with a different `f`.
pub fn respond<S: 'static, I: DeserializeOwned, O: Serialize>(
    ptr: i32,
    len: i32,
    f: impl FnOnce(&mut S, I) -> O,
) -> i64 {
    let Some(Ok(input)) = with_input(ptr, len, |bytes| serde_json::from_slice::<I>(bytes)) else {
        return ERR_BAD_INPUT;
    };
    let answer = STRATEGY.with_borrow_mut(|s| {
        s.as_mut()
            .and_then(|s| s.downcast_mut::<S>())
            .map(|s| f(s, input))
    });
    let Some(answer) = answer else {
        return ERR_NOT_INITIALISED;
    };
    OUTPUT.with_borrow_mut(|out| {
        out.clear();
        match serde_json::to_writer(&mut *out, &answer) {
            Ok(()) => ((out.as_ptr() as i64) << 32) | out.len() as i64,
            Err(_) => ERR_ENCODE,
        }
    })
}

pub fn choose_move<S: Strategy + 'static>(ptr: i32, len: i32) -> i64 {
    respond(ptr, len, |s: &mut S, obs| s.choose_move(obs))
}

pub fn bs_play<S: BsStrategy + 'static>(ptr: i32, len: i32) -> i64 {
    respond(ptr, len, |s: &mut S, obs| s.play(obs))
}

pub fn bs_call<S: BsStrategy + 'static>(ptr: i32, len: i32) -> i64 {
    respond(ptr, len, |s: &mut S, obs| s.call(obs))
}

/// `observe` answers `null`: the host ignores the answer of a notification.
pub fn bs_observe<S: BsStrategy + 'static>(ptr: i32, len: i32) -> i64 {
    respond(ptr, len, |s: &mut S, event| s.observe(event))
}

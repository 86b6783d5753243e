//! The guest side of the ABI (`docs/wasm-abi.md`), used by [`crate::export_strategy!`] and
//! [`crate::export_bs_strategy!`].
//!
//! The host asks `botbox_alloc` for an input buffer, writes the input there, then calls `botbox_init`
//! or a decision function (`choose_move`; for BS `play`, `call`, `observe`) with the buffer's address
//! and length. The answer is in an output buffer whose address and length come back packed in one
//! `i64`: `(ptr << 32) | len`. A negative answer is an error the strategy reports itself. Both
//! buffers live in thread-locals (a wasm32 module has one thread), so no raw pointer is ever
//! dereferenced here.
//!
//! The setup is JSON. A decision's input and answer are postcard when the module chose it (`BINARY`,
//! exported as `botbox_encoding`) and the input's type has a postcard form ([`Wire::BINARY`]), else
//! JSON.

use std::cell::RefCell;

use crate::{BsStrategy, Setup, Strategy, Wire};

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

/// `botbox_encoding`: 1 (postcard) for a module that chose the binary encoding, 0 (JSON) otherwise.
pub fn encoding<const BINARY: bool>() -> i32 {
    i32::from(BINARY)
}

/// One exported function: decodes the input as `I`, hands it to `f` with the strategy built by
/// `botbox_init`, and encodes `f`'s answer, as postcard if the module chose it (`BINARY`) and `I`
/// has a postcard form, else as JSON. Every exported decision function (`choose_move`, BS's `play`,
/// `call` and `observe`) is this with a different `f`.
pub fn respond<S: 'static, I: Wire, O: Wire, const BINARY: bool>(
    ptr: i32,
    len: i32,
    f: impl FnOnce(&mut S, I) -> O,
) -> i64 {
    let binary = BINARY && I::BINARY;
    let input = with_input(ptr, len, |bytes| {
        if binary {
            I::from_binary(bytes).ok()
        } else {
            serde_json::from_slice::<I>(bytes).ok()
        }
    });
    let Some(Some(input)) = input else {
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
        let encoded = if binary {
            answer.to_binary(out).is_ok()
        } else {
            serde_json::to_writer(&mut *out, &answer).is_ok()
        };
        if encoded {
            ((out.as_ptr() as i64) << 32) | out.len() as i64
        } else {
            ERR_ENCODE
        }
    })
}

pub fn choose_move<S: Strategy + 'static, const BINARY: bool>(ptr: i32, len: i32) -> i64 {
    respond::<S, _, _, BINARY>(ptr, len, |s: &mut S, obs| s.choose_move(obs))
}

pub fn bs_play<S: BsStrategy + 'static, const BINARY: bool>(ptr: i32, len: i32) -> i64 {
    respond::<S, _, _, BINARY>(ptr, len, |s: &mut S, obs| s.play(obs))
}

pub fn bs_call<S: BsStrategy + 'static, const BINARY: bool>(ptr: i32, len: i32) -> i64 {
    respond::<S, _, _, BINARY>(ptr, len, |s: &mut S, obs| s.call(obs))
}

/// `observe` answers nothing (JSON `null`, postcard's empty unit): the host ignores the answer of a
/// notification.
pub fn bs_observe<S: BsStrategy + 'static, const BINARY: bool>(ptr: i32, len: i32) -> i64 {
    respond::<S, _, _, BINARY>(ptr, len, |s: &mut S, event| s.observe(event))
}

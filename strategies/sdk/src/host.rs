//! Host functions a strategy may import from module `botbox` (see `docs/wasm-abi.md`).
//!
//! On wasm32 these call into the host; natively (tests, benchmarks) logging goes to standard error and
//! the 2048 helpers are not available. The 2048 helpers work on a 4x4 board given as 16 base-2
//! exponents in row-major order (0 for empty), which holds every reachable tile up to 131072.

#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
mod imports {
    #[link(wasm_import_module = "botbox")]
    unsafe extern "C" {
        pub fn log(ptr: i32, len: i32);
        pub fn g2048_move(board_ptr: i32, dir: i32, out_ptr: i32) -> i32;
        pub fn g2048_can_move(board_ptr: i32, dir: i32) -> i32;
        pub fn g2048_empty_cells(board_ptr: i32, out_ptr: i32) -> i32;
        pub fn g2048_place(board_ptr: i32, cell: i32, exponent: i32) -> i32;
        pub fn g2048_row(board_ptr: i32, row: i32) -> i32;
        pub fn g2048_col(board_ptr: i32, col: i32) -> i32;
    }
}

/// Writes a line to this strategy's log, which the host shows to the user (`botbox check`, replays).
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
pub fn log(message: &str) {
    // SAFETY: the pointer and length describe a live, readable `&str`; the host only reads them.
    unsafe { imports::log(message.as_ptr() as i32, message.len() as i32) }
}

/// Writes a line to standard error (the native stand-in for the host's log).
#[cfg(not(target_arch = "wasm32"))]
pub fn log(message: &str) {
    eprintln!("{message}");
}

/// 2048 helpers computed by the host's engine: the course library's primitives.
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
pub mod g2048 {
    use super::imports;
    use crate::g2048::Direction;

    /// A 4x4 board: 16 exponents, row-major, 0 for empty.
    pub type Board = [u8; 16];

    /// Applies a move: the new board and the score it gains, or `None` if the move changes nothing.
    pub fn apply(board: &Board, dir: Direction) -> Option<(Board, u32)> {
        let mut out = [0u8; 16];
        // SAFETY: both pointers address 16 live bytes; the host writes only into `out`.
        let gained = unsafe {
            imports::g2048_move(
                board.as_ptr() as i32,
                dir.index() as i32,
                out.as_mut_ptr() as i32,
            )
        };
        (gained >= 0).then_some((out, gained as u32))
    }

    /// Whether the move changes the board.
    pub fn can_move(board: &Board, dir: Direction) -> bool {
        // SAFETY: the pointer addresses 16 live bytes that the host only reads.
        unsafe { imports::g2048_can_move(board.as_ptr() as i32, dir.index() as i32) == 1 }
    }

    /// The indices (0..16, row-major) of the empty cells.
    pub fn empty_cells(board: &Board) -> Vec<u8> {
        let mut out = [0u8; 16];
        // SAFETY: `board` is 16 readable bytes, `out` 16 writable ones; the host writes at most 16.
        let n =
            unsafe { imports::g2048_empty_cells(board.as_ptr() as i32, out.as_mut_ptr() as i32) };
        out[..n.clamp(0, 16) as usize].to_vec()
    }

    /// Places a tile with the given exponent (1 for a 2, 2 for a 4) on an empty cell; false if the cell
    /// is taken or out of range.
    pub fn place(board: &mut Board, cell: usize, exponent: u8) -> bool {
        // SAFETY: the pointer addresses 16 live, writable bytes.
        unsafe {
            imports::g2048_place(board.as_mut_ptr() as i32, cell as i32, exponent as i32) == 0
        }
    }

    /// Row `r` packed into 16 bits, 4 bits per cell (leftmost cell lowest), exponents capped at 15.
    pub fn row(board: &Board, r: usize) -> u16 {
        // SAFETY: the pointer addresses 16 live bytes that the host only reads.
        unsafe { imports::g2048_row(board.as_ptr() as i32, r as i32) as u16 }
    }

    /// Column `c` packed into 16 bits, 4 bits per cell (top cell lowest), exponents capped at 15.
    pub fn col(board: &Board, c: usize) -> u16 {
        // SAFETY: the pointer addresses 16 live bytes that the host only reads.
        unsafe { imports::g2048_col(board.as_ptr() as i32, c as i32) as u16 }
    }
}

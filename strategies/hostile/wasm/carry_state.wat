;; Hostile: tries to carry a value from one game into the next (botbox WASM ABI v1, 2048). `botbox_init`
;; refuses to play (returns 1, fault `load`) if a global or a word of memory still holds the value an
;; earlier game left there; otherwise it leaves that value in both. `choose_move` answers the first
;; legal move (the first string of the observation's last array, `legal`). Every game gets a fresh
;; instance, so the host must let it play every game to its end without a fault.
(module
  (memory (export "memory") 2)
  (global $played (mut i32) (i32.const 0))

  ;; The input buffer starts at 64 KiB; 2048 observations are far smaller than 64 KiB.
  (func (export "botbox_alloc") (param $size i32) (result i32)
    (i32.const 65536))

  (func (export "botbox_init") (param $ptr i32) (param $len i32) (result i32)
    (if (i32.or (global.get $played) (i32.load (i32.const 1024)))
      (then (return (i32.const 1))))
    (global.set $played (i32.const 1))
    (i32.store (i32.const 1024) (i32.const 1))
    (i32.const 0))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $i i32)
    (local $j i32)
    ;; The last `[` opens the legal moves; the answer is its first string, quotes included.
    (local.set $i (i32.sub (i32.add (local.get $ptr) (local.get $len)) (i32.const 1)))
    (block $found
      (loop $back
        (br_if $found (i32.eq (i32.load8_u (local.get $i)) (i32.const 91)))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (br $back)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (local.set $j (i32.add (local.get $i) (i32.const 1)))
    (block $closed
      (loop $forward
        (br_if $closed (i32.eq (i32.load8_u (local.get $j)) (i32.const 34)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $forward)))
    (i64.or
      (i64.shl (i64.extend_i32_u (local.get $i)) (i64.const 32))
      (i64.extend_i32_u (i32.add (i32.sub (local.get $j) (local.get $i)) (i32.const 1)))))
)

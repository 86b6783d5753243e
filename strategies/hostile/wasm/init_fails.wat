;; Hostile: botbox_init returns 7 (any non-zero value means the strategy failed to start). The host must end the game before the first move: fault `load` (docs/wasm-abi.md: "fails the game with fault `error`").
(module
  (memory (export "memory") 2)

  (data (i32.const 16) "\22left\22")

  ;; The input buffer starts at 64 KiB; memory grows so that `size` bytes fit there.
  (func (export "botbox_alloc") (param $size i32) (result i32)
    (local $pages i32)
    (local.set $pages
      (i32.add (i32.const 1) (i32.shr_u (i32.add (local.get $size) (i32.const 65535)) (i32.const 16))))
    (if (i32.gt_u (local.get $pages) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $pages) (memory.size))))))
    (i32.const 65536))

  (func (export "botbox_init") (param $ptr i32) (param $len i32) (result i32)
    (i32.const 7))

  ;; never reached: the game must end at botbox_init
  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 6)))
)

;; Hostile: `botbox_encoding` answers 7, an encoding that does not exist. The host must refuse the
;; module when the game starts, fault `load`, rather than guess.
(module
  (memory (export "memory") 2)

  ;; The input buffer starts at 64 KiB; memory grows so that `size` bytes fit there.
  (func (export "botbox_alloc") (param $size i32) (result i32)
    (local $pages i32)
    (local.set $pages
      (i32.add (i32.const 1) (i32.shr_u (i32.add (local.get $size) (i32.const 65535)) (i32.const 16))))
    (if (i32.gt_u (local.get $pages) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $pages) (memory.size))))))
    (i32.const 65536))

  (func (export "botbox_init") (param $ptr i32) (param $len i32) (result i32)
    (i32.const 0))

  (func (export "botbox_encoding") (result i32)
    (i32.const 7))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (i64.const -1))
)

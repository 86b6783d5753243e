;; Hostile: answers with 9 bytes that are not JSON (not even UTF-8): \xff\xfe "garbage". The host must record fault `bad-output`.
(module
  (memory (export "memory") 2)

  (data (i32.const 16) "\ff\fegarbage")

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

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    ;; address 16 in the high half, length 9 in the low half
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 9)))
)

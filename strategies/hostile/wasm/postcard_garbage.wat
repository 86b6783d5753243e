;; Hostile: chooses postcard (`botbox_encoding` answers 1), then answers every 2048 decision with the
;; two bytes 09 00: variant 9 of a four-variant enum, and a byte left over. The host must record
;; fault `bad-output`, naming the bytes.
(module
  (memory (export "memory") 2)

  (data (i32.const 16) "\09\00")

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
    (i32.const 1))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 2)))
)

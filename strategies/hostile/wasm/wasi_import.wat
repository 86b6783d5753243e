;; Hostile: imports WASI's fd_write and path_open (to open /etc/passwd and write to stdout). Only module `botbox` may be imported: the host must refuse it at load (a load error, ForbiddenImport) with a message naming the import.
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (memory (export "memory") 2)

  ;; the answer, a path and a message
  (data (i32.const 16) "\22left\22")
  (data (i32.const 32) "/etc/passwd")
  (data (i32.const 48) "pwned\0a")

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
    ;; path_open(dirfd 3, dirflags 0, path, path_len, oflags 0, rights all, inheriting all, fdflags 0, out fd at 64)
    (drop (call $path_open
      (i32.const 3) (i32.const 0) (i32.const 32) (i32.const 11) (i32.const 0)
      (i64.const -1) (i64.const -1) (i32.const 0) (i32.const 64)))
    ;; fd_write(stdout, iovec at 80 = {48, 6}, 1 iovec, nwritten at 96)
    (i32.store (i32.const 80) (i32.const 48))
    (i32.store (i32.const 84) (i32.const 6))
    (drop (call $fd_write (i32.const 1) (i32.const 80) (i32.const 1) (i32.const 96)))
    ;; answer "left": address 16 in the high half, length 6 in the low half
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 6)))
)

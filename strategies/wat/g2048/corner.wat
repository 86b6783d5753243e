;; corner.wat — a 2048 strategy for botbox, written by hand in WebAssembly text.
;;
;; It exists to show that the botbox WASM ABI (docs/wasm-abi.md) is language-neutral: no SDK, no
;; compiler, no imports, only the four exports the ABI asks for. The strategy is the classic "corner"
;; heuristic: play the first of down, left, right, up that is legal, which keeps the big tiles in the
;; bottom-left corner. It reads no board at all, only the observation's "legal" array.
;;
;; Linear memory layout (one 64 KiB page is enough for every observation; a second page is spare):
;;
;;   0    ..  255    unused
;;   256  ..  335    constant strings: the four answers, with their quotes, and the key "legal"
;;   512  ..  1023   output area: choose_move copies its answer here
;;   1024 .. 62463   input buffer: botbox_alloc hands it out for inputs up to 60 KiB
;;   beyond          for larger inputs botbox_alloc grows the memory and hands out fresh pages
(module
  (memory (export "memory") 2)

  ;; The answers, as JSON strings. Their addresses and lengths appear again in choose_move.
  (data (i32.const 256) "\"down\"")   ;; 6 bytes
  (data (i32.const 272) "\"left\"")   ;; 6 bytes
  (data (i32.const 288) "\"right\"")  ;; 7 bytes
  (data (i32.const 304) "\"up\"")     ;; 4 bytes
  ;; The key we look for, and the byte that ends its array.
  (data (i32.const 320) "\"legal\"")  ;; 7 bytes
  (data (i32.const 336) "]")          ;; 1 byte

  (global $INPUT i32 (i32.const 1024))
  (global $INPUT_SIZE i32 (i32.const 61440))
  (global $OUTPUT i32 (i32.const 512))

  ;; The buffer for inputs too large for the fixed one: its address and size, 0 until first needed.
  (global $big_ptr (mut i32) (i32.const 0))
  (global $big_size (mut i32) (i32.const 0))

  ;; botbox_alloc(size) -> address of `size` writable bytes. The host calls it before every call and
  ;; writes its input there, so handing out the same buffer every time is fine.
  (func (export "botbox_alloc") (param $size i32) (result i32)
    (local $pages i32)
    (local $old i32)
    ;; Every real observation fits the fixed buffer (a negative size never comes; treat it as small).
    (if (i32.le_s (local.get $size) (global.get $INPUT_SIZE))
      (then (return (global.get $INPUT))))
    ;; A large buffer obtained earlier may be big enough.
    (if (i32.le_u (local.get $size) (global.get $big_size))
      (then (return (global.get $big_ptr))))
    ;; Otherwise grow the memory by enough whole pages and use them. Growing past the host's memory
    ;; cap fails (-1): trap rather than hand out an address the host cannot write to.
    (local.set $pages
      (i32.shr_u (i32.add (local.get $size) (i32.const 65535)) (i32.const 16)))
    (local.set $old (memory.grow (local.get $pages)))
    (if (i32.eq (local.get $old) (i32.const -1))
      (then (unreachable)))
    (global.set $big_ptr (i32.shl (local.get $old) (i32.const 16)))
    (global.set $big_size (i32.shl (local.get $pages) (i32.const 16)))
    (global.get $big_ptr))

  ;; botbox_init(ptr, len) -> 0. The setup JSON ({"game":"2048","seed":..,"seat":..}) is not needed:
  ;; this strategy has no state and no randomness.
  (func (export "botbox_init") (param $ptr i32) (param $len i32) (result i32)
    (i32.const 0))

  ;; choose_move(ptr, len) -> (answer address << 32) | answer length, or a negative error.
  ;; The observation looks like
  ;;   {"board":[[2,0,0,0],...],"score":0,"moves":0,"legal":["left","right","up","down"]}
  ;; Find the "legal" array, then answer the first preferred direction that occurs inside it.
  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $end i32)    ;; one past the last input byte
    (local $arr i32)    ;; the first byte inside the array, after '['
    (local $close i32)  ;; the array's ']'
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $arr (call $legal_array (local.get $ptr) (local.get $end)))
    (if (i32.lt_s (local.get $arr) (i32.const 0))
      (then (return (i64.const -1))))  ;; no "legal" key: not an observation
    (local.set $close
      (call $find (local.get $arr) (local.get $end) (i32.const 336) (i32.const 1)))
    (if (i32.lt_s (local.get $close) (i32.const 0))
      (then (return (i64.const -1))))  ;; the array never ends: truncated input
    ;; The array holds only direction names, so finding a name with its quotes between '[' and ']'
    ;; means that move is legal. Try them in the corner order.
    (if (call $contains (local.get $arr) (local.get $close) (i32.const 256) (i32.const 6))
      (then (return (call $answer (i32.const 256) (i32.const 6)))))  ;; "down"
    (if (call $contains (local.get $arr) (local.get $close) (i32.const 272) (i32.const 6))
      (then (return (call $answer (i32.const 272) (i32.const 6)))))  ;; "left"
    (if (call $contains (local.get $arr) (local.get $close) (i32.const 288) (i32.const 7))
      (then (return (call $answer (i32.const 288) (i32.const 7)))))  ;; "right"
    (if (call $contains (local.get $arr) (local.get $close) (i32.const 304) (i32.const 4))
      (then (return (call $answer (i32.const 304) (i32.const 4)))))  ;; "up"
    ;; An empty array: the host never asks then, but say so rather than answer nonsense.
    (i64.const -2))

  ;; Copies the answer string (at $src, $n bytes) to the output area and packs its address and length
  ;; into the i64 that choose_move returns. The output area stays valid until the next call.
  (func $answer (param $src i32) (param $n i32) (result i64)
    (local $i i32)
    (block $copied
      (loop $copy
        (br_if $copied (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store8
          (i32.add (global.get $OUTPUT) (local.get $i))
          (i32.load8_u (i32.add (local.get $src) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (i64.or
      (i64.shl (i64.extend_i32_u (global.get $OUTPUT)) (i64.const 32))
      (i64.extend_i32_u (local.get $n))))

  ;; The address just inside the array of the key "legal" in [$p, $end), or -1. The key must be
  ;; followed by ':' and '[', with optional whitespace between, as JSON allows; an occurrence of
  ;; "legal" that is not a key (it would be a string value) is skipped.
  (func $legal_array (param $p i32) (param $end i32) (result i32)
    (local $q i32)
    (loop $search
      (local.set $p (call $find (local.get $p) (local.get $end) (i32.const 320) (i32.const 7)))
      (if (i32.lt_s (local.get $p) (i32.const 0))
        (then (return (i32.const -1))))
      (local.set $q (call $skip_ws (i32.add (local.get $p) (i32.const 7)) (local.get $end)))
      (if (call $byte_is (local.get $q) (local.get $end) (i32.const 58))  ;; ':'
        (then
          (local.set $q (call $skip_ws (i32.add (local.get $q) (i32.const 1)) (local.get $end)))
          (if (call $byte_is (local.get $q) (local.get $end) (i32.const 91))  ;; '['
            (then (return (i32.add (local.get $q) (i32.const 1)))))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $search))
    (i32.const -1))

  ;; 1 if the needle ($needle, $n bytes) occurs in [$p, $end), else 0.
  (func $contains (param $p i32) (param $end i32) (param $needle i32) (param $n i32) (result i32)
    (i32.ge_s
      (call $find (local.get $p) (local.get $end) (local.get $needle) (local.get $n))
      (i32.const 0)))

  ;; The address of the first occurrence of the needle ($needle, $n bytes) that lies wholly inside
  ;; [$p, $end), or -1. A plain byte-by-byte search: observations are a few hundred bytes.
  (func $find (param $p i32) (param $end i32) (param $needle i32) (param $n i32) (result i32)
    (local $i i32)
    (block $not_found
      (loop $scan
        ;; Stop when the needle no longer fits before $end.
        (br_if $not_found (i32.gt_u (i32.add (local.get $p) (local.get $n)) (local.get $end)))
        ;; Compare the needle with the bytes at $p.
        (local.set $i (i32.const 0))
        (block $mismatch
          (loop $compare
            (if (i32.eq (local.get $i) (local.get $n))
              (then (return (local.get $p))))
            (br_if $mismatch
              (i32.ne
                (i32.load8_u (i32.add (local.get $p) (local.get $i)))
                (i32.load8_u (i32.add (local.get $needle) (local.get $i)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $compare)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $scan)))
    (i32.const -1))

  ;; The first address at or after $p (and at most $end) that is not JSON whitespace.
  (func $skip_ws (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (br_if $done
          (i32.eqz
            (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 32))    ;; space
                      (i32.eq (local.get $c) (i32.const 9)))    ;; tab
              (i32.or (i32.eq (local.get $c) (i32.const 10))    ;; line feed
                      (i32.eq (local.get $c) (i32.const 13))))))  ;; carriage return
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (local.get $p))

  ;; 1 if $p is inside the input (before $end) and holds the byte $b, else 0.
  (func $byte_is (param $p i32) (param $end i32) (param $b i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $p) (local.get $end))
      (then (i32.eq (i32.load8_u (local.get $p)) (local.get $b)))
      (else (i32.const 0))))
)

;; A Connect Four bot for botbox, in hand-written WebAssembly text. Check it:
;; botbox check connect4 bot.wat (botbox compiles the text itself; no build step).
;; obs: board (rows * columns cells from the top row, 0 empty, 1 or 2 a mark), rows, columns, inarow,
;; mark (yours), legal (the open columns, from 0), moves. Answer a column number.
;; The contract is docs/wasm-abi.md; the rules are docs/connect4.md.
;;
;; The rule: the open column nearest the centre (the leftmost of two as near).
;;
;; The observation arrives as postcard (botbox_encoding answers 1): fields in this order, no names.
;; A varint is LEB128 (7 bits a byte, low bits first, high bit set on all bytes but the last).
;;   board    varint count (rows * columns), then one raw byte per cell, row-major from the top row
;;   rows     varint
;;   columns  varint
;;   inarow   varint
;;   mark     one raw byte: 1 or 2
;;   legal    count, then one varint per open column, from left to right (never empty)
;;   moves    varint
;; The answer is the column as one varint.
;;
;; Memory: 0..255 the answer; 256..65535 free (log messages, tables of your own); from 65536 the
;; input (botbox_alloc grows memory to fit it).
(module
  ;; The one import a module may have: appends a line (address, length) to the bot's log.
  (import "botbox" "log" (func $log (param i32 i32)))
  (memory (export "memory") 2)

  (global $p (mut i32) (i32.const 0))  ;; the read cursor in the input

  ;; The host asks for room for each input, then writes it there: always at 65536, growing the
  ;; memory to fit (growing past botbox's memory cap is fault `memory`).
  (func (export "botbox_alloc") (param $size i32) (result i32)
    (local $more i32)
    (local.set $more (i32.sub
      (i32.shr_u (i32.add (local.get $size) (i32.const 131071)) (i32.const 16))  ;; pages to 65536 + size
      (memory.size)))
    (if (i32.gt_s (local.get $more) (i32.const 0))
      (then (if (i32.eq (memory.grow (local.get $more)) (i32.const -1)) (then (unreachable)))))
    (i32.const 65536))

  ;; The setup JSON ({"game":"connect4","seed":..,"seat":0}) once per game: not needed here.
  (func (export "botbox_init") (param $ptr i32) (param $len i32) (result i32) (i32.const 0))

  ;; 1: observations and answers are postcard.
  (func (export "botbox_encoding") (result i32) (i32.const 1))

  ;; Reads a varint at $p (up to 64 bits), moves $p past it, returns its low 32 bits.
  (func $u (result i32)
    (local $b i32) (local $x i64) (local $shift i64)
    (loop $more
      (local.set $b (i32.load8_u (global.get $p)))
      (global.set $p (i32.add (global.get $p) (i32.const 1)))
      (local.set $x (i64.or (local.get $x)
        (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (local.get $shift))))
      (local.set $shift (i64.add (local.get $shift) (i64.const 7)))
      (br_if $more (i32.ge_u (local.get $b) (i32.const 128))))
    (i32.wrap_i64 (local.get $x)))

  ;; Writes $x as a varint at address 0 and returns (0 << 32) | its length.
  (func $answer (param $x i32) (result i64)
    (local $q i32)
    (loop $more
      (if (i32.ge_u (local.get $x) (i32.const 128))
        (then
          (i32.store8 (local.get $q) (i32.or (local.get $x) (i32.const 128)))  ;; low 7 bits, more follow
          (local.set $x (i32.shr_u (local.get $x) (i32.const 7)))
          (local.set $q (i32.add (local.get $q) (i32.const 1)))
          (br $more))))
    (i32.store8 (local.get $q) (local.get $x))
    (i64.extend_i32_u (i32.add (local.get $q) (i32.const 1))))

  ;; Twice the distance from column $col to the centre, (columns - 1) / 2: twice, to stay whole.
  (func $distance (param $col i32) (param $columns i32) (result i32)
    (local $d i32)
    (local.set $d (i32.sub (i32.shl (local.get $col) (i32.const 1))
                           (i32.sub (local.get $columns) (i32.const 1))))
    (select (local.get $d) (i32.sub (i32.const 0) (local.get $d)) (i32.ge_s (local.get $d) (i32.const 0))))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $columns i32) (local $count i32) (local $col i32) (local $best i32)
    (global.set $p (local.get $ptr))
    (global.set $p (i32.add (call $u) (global.get $p)))  ;; board: skip its length, then its bytes
    (drop (call $u))                                       ;; rows
    (local.set $columns (call $u))
    (drop (call $u))                                       ;; inarow
    (global.set $p (i32.add (global.get $p) (i32.const 1)))  ;; mark: one byte
    ;; legal: keep the first column, then any strictly nearer the centre.
    (local.set $count (call $u))
    (local.set $best (i32.const -1))
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $count)))
      (local.set $col (call $u))
      (if (i32.or (i32.lt_s (local.get $best) (i32.const 0))
                  (i32.lt_s (call $distance (local.get $col) (local.get $columns))
                            (call $distance (local.get $best) (local.get $columns))))
        (then (local.set $best (local.get $col))))
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each)))
    ;; moves: not needed.
    (call $answer (local.get $best)))
)

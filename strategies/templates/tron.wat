;; A Tron bot for botbox, a wall hugger, in hand-written WebAssembly text. Check it:
;; `botbox check tron bot.wat` (botbox compiles the text itself; no build step).
;; Each turn it sees the whole board (docs/tron.md) and answers north, east, south or west; among the
;; moves that do not crash it takes the one whose new cell touches the most walls (the first of
;; north, east, south, west on a tie; north if every move crashes). The contract is docs/wasm-abi.md.
;;
;; The observation arrives as postcard (botbox_encoding answers 1): fields in this order, no names.
;; A varint is LEB128 (7 bits a byte, low bits first, high bit set on all bytes but the last).
;;   rows      count, then per row: length, then its bytes (`#` wall, `.` free, `1`/`2` the heads)
;;   width     varint
;;   height    varint
;;   you       row, column: two varints (no count: a fixed-size array)
;;   opponent  row, column
;;   player    varint: your mark, 1 or 2
;;   turn      varint
;; The answer is a direction, the single byte north 0, east 1, south 2, west 3.
;;
;; Memory: 0..255 the answer; 256..1023 log messages; 1024..5119 the address of each row's first
;; byte in the input (up to 1024 rows); 5120..65535 free; from 65536 the input (botbox_alloc grows
;; memory to fit it).
(module
  ;; The one import a module may have: appends a line (address, length) to the bot's log.
  (import "botbox" "log" (func $log (param i32 i32)))
  (memory (export "memory") 2)
  (data (i32.const 256) "more than 1024 rows")  ;; 19 bytes

  (global $p (mut i32) (i32.const 0))       ;; the read cursor in the input
  (global $width (mut i32) (i32.const 0))
  (global $height (mut i32) (i32.const 0))

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

  ;; The setup JSON ({"game":"tron","seed":..,"seat":0}) once per game: not needed here.
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

  ;; The step of direction $d (north 0, east 1, south 2, west 3) in rows and in columns.
  (func $dr (param $d i32) (result i32)
    (i32.sub (i32.eq (local.get $d) (i32.const 2)) (i32.eqz (local.get $d))))
  (func $dc (param $d i32) (result i32)
    (i32.sub (i32.eq (local.get $d) (i32.const 1)) (i32.eq (local.get $d) (i32.const 3))))

  ;; 1 if cell ($r, $c) is on the board and free ("."), else 0.
  (func $free (param $r i32) (param $c i32) (result i32)
    (if (i32.or (i32.ge_u (local.get $r) (global.get $height))  ;; unsigned: -1 is out too
                (i32.ge_u (local.get $c) (global.get $width)))
      (then (return (i32.const 0))))
    (i32.eq (i32.const 46)  ;; '.'
      (i32.load8_u (i32.add (local.get $c)
        (i32.load (i32.add (i32.const 1024) (i32.shl (local.get $r) (i32.const 2))))))))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $i i32) (local $count i32) (local $row i32) (local $col i32)
    (local $d i32) (local $e i32) (local $r i32) (local $c i32) (local $walls i32)
    (local $best i32) (local $most i32)
    (global.set $p (local.get $ptr))
    ;; rows: note where each row's bytes start, then skip them.
    (local.set $count (call $u))
    (if (i32.gt_u (local.get $count) (i32.const 1024))
      (then (call $log (i32.const 256) (i32.const 19)) (return (i64.const -1))))
    (block $rows_done (loop $each_row
      (br_if $rows_done (i32.ge_u (local.get $i) (local.get $count)))
      (local.set $c (call $u))  ;; the row's length
      (i32.store (i32.add (i32.const 1024) (i32.shl (local.get $i) (i32.const 2))) (global.get $p))
      (global.set $p (i32.add (global.get $p) (local.get $c)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each_row)))
    (global.set $width (call $u))
    (global.set $height (call $u))
    (local.set $row (call $u))  ;; you: row, column
    (local.set $col (call $u))
    ;; opponent, player, turn: not needed.
    ;; For each direction whose new cell is free, count the walls around that cell; keep the most.
    (local.set $most (i32.const -1))
    (block $dirs_done (loop $each_dir
      (br_if $dirs_done (i32.eq (local.get $d) (i32.const 4)))
      (local.set $r (i32.add (local.get $row) (call $dr (local.get $d))))
      (local.set $c (i32.add (local.get $col) (call $dc (local.get $d))))
      (if (call $free (local.get $r) (local.get $c))
        (then
          (local.set $walls (i32.const 0))
          (local.set $e (i32.const 0))
          (block $around_done (loop $around
            (br_if $around_done (i32.eq (local.get $e) (i32.const 4)))
            (if (i32.eqz (call $free (i32.add (local.get $r) (call $dr (local.get $e)))
                                     (i32.add (local.get $c) (call $dc (local.get $e)))))
              (then (local.set $walls (i32.add (local.get $walls) (i32.const 1)))))
            (local.set $e (i32.add (local.get $e) (i32.const 1)))
            (br $around)))
          (if (i32.gt_s (local.get $walls) (local.get $most))
            (then (local.set $best (local.get $d))
                  (local.set $most (local.get $walls))))))
      (local.set $d (i32.add (local.get $d) (i32.const 1)))
      (br $each_dir)))
    ;; The answer, one byte at address 0: returned as (0 << 32) | 1.
    (i32.store8 (i32.const 0) (local.get $best))
    (i64.const 1))
)

;; A 2048 bot for botbox, in hand-written WebAssembly text. Check it: botbox check 2048 bot.wat
;; (botbox compiles the text itself; no build step). obs: board (rows of tile values, 0 empty),
;; score, moves, legal (the directions that change the board). Answer one of left, right, up, down.
;; The contract is docs/wasm-abi.md; the rules are docs/2048.md.
;;
;; The rule: keep the big tiles in the bottom-left corner: down or left, whichever merges more (down
;; on a tie); right if neither is legal; up only when nothing else is.
;;
;; The observation arrives as postcard (botbox_encoding answers 1): fields in this order, no names.
;; A varint is LEB128 (7 bits a byte, low bits first, high bit set on all bytes but the last).
;;   board   n, then n rows, each: n, then n tiles   all varints; a tile is 0 (empty), 2, 4, 8, ...
;;   score   varint (u64)
;;   moves   varint
;;   legal   count, then one varint each: left 0, right 1, up 2, down 3 (in that order, never empty)
;; The answer is one direction, the single byte 0 to 3.
;;
;; Memory: 0..255 the answer; 256..1023 log messages; 1024..2047 the board, decoded (up to
;; 16 x 16 tiles, row-major, 4 bytes each); 2048..65535 free; from 65536 the input (botbox_alloc
;; grows memory to fit it).
(module
  ;; The one import a module may have: appends a line (address, length) to the bot's log.
  (import "botbox" "log" (func $log (param i32 i32)))
  (memory (export "memory") 2)
  (data (i32.const 256) "board larger than 16 x 16")  ;; 25 bytes

  (global $p (mut i32) (i32.const 0))  ;; the read cursor in the input
  (global $n (mut i32) (i32.const 0))  ;; the board's side

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

  ;; The setup JSON ({"game":"2048","seed":..,"seat":0}) once per game: not needed here.
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

  ;; The tile at (row $r, column $c), both from 0.
  (func $tile (param $r i32) (param $c i32) (result i32)
    (i32.load (i32.add (i32.const 1024)
      (i32.shl (i32.add (i32.mul (local.get $r) (global.get $n)) (local.get $c)) (i32.const 2)))))

  ;; How many merges a move would make: equal tiles meeting along its lines, empty cells between
  ;; them or not. $columns = 0: along rows (left, right); 1: along columns (up, down).
  (func $merges (param $columns i32) (result i32)
    (local $i i32) (local $j i32) (local $v i32) (local $last i32) (local $count i32)
    (block $rows_done (loop $each_line
      (br_if $rows_done (i32.ge_u (local.get $i) (global.get $n)))
      (local.set $last (i32.const 0))
      (local.set $j (i32.const 0))
      (block $line_done (loop $each_tile
        (br_if $line_done (i32.ge_u (local.get $j) (global.get $n)))
        (local.set $v (if (result i32) (local.get $columns)
          (then (call $tile (local.get $j) (local.get $i)))
          (else (call $tile (local.get $i) (local.get $j)))))
        (if (local.get $v)
          (then (if (i32.eq (local.get $v) (local.get $last))
            (then (local.set $count (i32.add (local.get $count) (i32.const 1)))
                  (local.set $last (i32.const 0)))
            (else (local.set $last (local.get $v))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $each_tile)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each_line)))
    (local.get $count))

  ;; Answers the direction $d: its one byte at 0, returned as (0 << 32) | 1.
  (func $answer (param $d i32) (result i64)
    (i32.store8 (i32.const 0) (local.get $d))
    (i64.const 1))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $i i32) (local $count i32) (local $legal i32)
    (global.set $p (local.get $ptr))
    ;; board: n rows of n tiles, stored row-major at 1024. The board is square.
    (global.set $n (call $u))
    (if (i32.gt_u (global.get $n) (i32.const 16))
      (then (call $log (i32.const 256) (i32.const 25)) (return (i64.const -1))))
    (local.set $count (i32.mul (global.get $n) (global.get $n)))
    (block $board_done (loop $each
      (br_if $board_done (i32.ge_u (local.get $i) (local.get $count)))
      (if (i32.eqz (i32.rem_u (local.get $i) (global.get $n)))
        (then (drop (call $u))))  ;; a row's length, before its first tile
      (i32.store (i32.add (i32.const 1024) (i32.shl (local.get $i) (i32.const 2))) (call $u))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
    (drop (call $u))  ;; score
    (drop (call $u))  ;; moves
    ;; legal, as bits: bit d is set when direction d is legal.
    (local.set $count (call $u))
    (block $legal_done (loop $each
      (br_if $legal_done (i32.eqz (local.get $count)))
      (local.set $legal (i32.or (local.get $legal) (i32.shl (i32.const 1) (call $u))))
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each)))
    ;; down (bit 3) and left (bit 0) both legal: left only if it merges more.
    (if (i32.eq (i32.and (local.get $legal) (i32.const 9)) (i32.const 9))
      (then (return (call $answer
        (select (i32.const 0) (i32.const 3)
          (i32.gt_s (call $merges (i32.const 0)) (call $merges (i32.const 1))))))))
    (if (i32.and (local.get $legal) (i32.const 8)) (then (return (call $answer (i32.const 3)))))  ;; down
    (if (i32.and (local.get $legal) (i32.const 1)) (then (return (call $answer (i32.const 0)))))  ;; left
    (if (i32.and (local.get $legal) (i32.const 2)) (then (return (call $answer (i32.const 1)))))  ;; right
    (call $answer (i32.const 2)))  ;; up
)

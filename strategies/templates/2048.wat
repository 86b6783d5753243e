;; A 2048 bot for botbox, in hand-written WebAssembly text. Check it: botbox check 2048 bot.wat
;; (botbox compiles the text itself; no build step). obs: board (rows of tile values, 0 empty),
;; score, moves, legal (the directions that change the board). Answer one of left, right, up, down.
;; The contract is docs/wasm-abi.md; the rules are docs/2048.md.
;;
;; The rule looks two moves ahead, ignoring the tiles that appear: for each of down, left and right
;; that is legal, slide the board that way, then take the best value one more slide (down, left,
;; right or up, any that changes the board) reaches; a board no slide changes is a dead end, worth
;; its own value minus 10^12. The move with the greatest is the answer (down, then left, on a
;; tie); up only when none of the three is legal. A board's value: each tile times its distance in
;; rows and columns from the top right corner (big tiles belong in the bottom left), and 64 for
;; every empty cell.
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
;; 16 x 16 tiles, row-major, 4 bytes each); 2048..3071 the board after the first move, 3072..4095
;; after the second (the same layout); 4096..65535 free; from 65536 the input (botbox_alloc grows
;; memory to fit it).
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

  ;; Where the k-th cell of a line is (both from 0), counted from the side its tiles slide to
  ;; (lines are rows for left and right, columns for up and down): its byte offset in a board.
  (func $cell (param $dir i32) (param $line i32) (param $k i32) (result i32)
    (local $far i32)  ;; n - 1 - k: the k-th cell from the other side
    (local.set $far (i32.sub (i32.sub (global.get $n) (i32.const 1)) (local.get $k)))
    (i32.shl
      (if (result i32) (i32.eq (local.get $dir) (i32.const 0))  ;; left: row line, column k
        (then (i32.add (i32.mul (local.get $line) (global.get $n)) (local.get $k)))
        (else (if (result i32) (i32.eq (local.get $dir) (i32.const 1))  ;; right: column n - 1 - k
          (then (i32.add (i32.mul (local.get $line) (global.get $n)) (local.get $far)))
          (else (if (result i32) (i32.eq (local.get $dir) (i32.const 2))  ;; up: row k, column line
            (then (i32.add (i32.mul (local.get $k) (global.get $n)) (local.get $line)))
            (else  ;; down: row n - 1 - k, column line
              (i32.add (i32.mul (local.get $far) (global.get $n)) (local.get $line))))))))
      (i32.const 2)))

  ;; Writes the board at $from after the move $dir to the board at $to (without the tile that
  ;; appears after it); returns 1 if anything moved, else 0.
  (func $slide (param $from i32) (param $dir i32) (param $to i32) (result i32)
    (local $line i32) (local $k i32) (local $v i32) (local $moved i32)
    (local $filled i32)  ;; cells of the line filled so far
    (local $last i32)    ;; the last tile placed, while it may merge
    (block $lines_done (loop $each_line
      (br_if $lines_done (i32.ge_u (local.get $line) (global.get $n)))
      (local.set $k (i32.const 0))
      (block $cleared (loop $each_cell  ;; the line in $to starts empty
        (br_if $cleared (i32.ge_u (local.get $k) (global.get $n)))
        (i32.store (i32.add (local.get $to)
            (call $cell (local.get $dir) (local.get $line) (local.get $k)))
          (i32.const 0))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each_cell)))
      (local.set $filled (i32.const 0))
      (local.set $last (i32.const 0))
      (local.set $k (i32.const 0))
      (block $line_done (loop $each_tile
        (br_if $line_done (i32.ge_u (local.get $k) (global.get $n)))
        (local.set $v (i32.load (i32.add (local.get $from)
          (call $cell (local.get $dir) (local.get $line) (local.get $k)))))
        (if (local.get $v)
          (then (if (i32.eq (local.get $v) (local.get $last))
            (then  ;; merges with the last tile placed
              (i32.store (i32.add (local.get $to) (call $cell (local.get $dir) (local.get $line)
                  (i32.sub (local.get $filled) (i32.const 1))))
                (i32.shl (local.get $v) (i32.const 1)))
              (local.set $last (i32.const 0))
              (local.set $moved (i32.const 1)))
            (else  ;; goes to the next free cell: moved unless that is where it was
              (i32.store (i32.add (local.get $to)
                  (call $cell (local.get $dir) (local.get $line) (local.get $filled)))
                (local.get $v))
              (local.set $moved
                (i32.or (local.get $moved) (i32.ne (local.get $filled) (local.get $k))))
              (local.set $filled (i32.add (local.get $filled) (i32.const 1)))
              (local.set $last (local.get $v))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each_tile)))
      (local.set $line (i32.add (local.get $line) (i32.const 1)))
      (br $each_line)))
    (local.get $moved))

  ;; How good the board at $b looks: each tile times its distance in rows and columns from the top
  ;; right corner (big tiles belong in the bottom left), and 64 for every empty cell.
  (func $value (param $b i32) (result i64)
    (local $i i32) (local $j i32) (local $v i32) (local $sum i64)
    (block $rows_done (loop $each_row
      (br_if $rows_done (i32.ge_u (local.get $i) (global.get $n)))
      (local.set $j (i32.const 0))
      (block $row_done (loop $each_tile
        (br_if $row_done (i32.ge_u (local.get $j) (global.get $n)))
        (local.set $v (i32.load (i32.add (local.get $b) (i32.shl
          (i32.add (i32.mul (local.get $i) (global.get $n)) (local.get $j)) (i32.const 2)))))
        (local.set $sum (i64.add (local.get $sum)
          (select
            (i64.const 64)
            (i64.mul (i64.extend_i32_u (local.get $v))
              (i64.extend_i32_u (i32.sub  ;; row + (n - 1 - column)
                (i32.add (local.get $i) (i32.sub (global.get $n) (i32.const 1))) (local.get $j))))
            (i32.eqz (local.get $v)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $each_tile)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each_row)))
    (local.get $sum))

  ;; The direction tried $i-th (from 0): down, left, right, up, i.e. 3, 0, 1, 2.
  (func $nth (param $i i32) (result i32)
    (i32.and (i32.add (local.get $i) (i32.const 3)) (i32.const 3)))

  ;; Two moves ahead: the best value the board at $b reaches after one more move (each board it
  ;; tries goes to 3072); a board that no move changes is a dead end and counts below every other.
  (func $ahead (param $b i32) (result i64)
    (local $i i32) (local $v i64) (local $best i64)
    (local.set $best (i64.sub (call $value (local.get $b)) (i64.const 1000000000000)))
    (block $done (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.const 4)))
      (if (call $slide (local.get $b) (call $nth (local.get $i)) (i32.const 3072))
        (then
          (local.set $v (call $value (i32.const 3072)))
          (if (i64.gt_s (local.get $v) (local.get $best)) (then (local.set $best (local.get $v))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
    (local.get $best))

  ;; Answers the direction $d: its one byte at 0, returned as (0 << 32) | 1.
  (func $answer (param $d i32) (result i64)
    (i32.store8 (i32.const 0) (local.get $d))
    (i64.const 1))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $i i32) (local $count i32) (local $legal i32)
    (local $d i32) (local $v i64) (local $best i32) (local $best_value i64)
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
    ;; Down, left or right (the first three of $nth), whichever legal one leads furthest: the first
    ;; with the greatest value two moves ahead; up when none of them is legal.
    (local.set $best (i32.const 2))
    (local.set $best_value (i64.const 0x8000000000000000))  ;; below every value
    (local.set $i (i32.const 0))
    (block $tried (loop $each
      (br_if $tried (i32.ge_u (local.get $i) (i32.const 3)))
      (local.set $d (call $nth (local.get $i)))
      (if (i32.and (local.get $legal) (i32.shl (i32.const 1) (local.get $d)))
        (then
          (drop (call $slide (i32.const 1024) (local.get $d) (i32.const 2048)))
          (local.set $v (call $ahead (i32.const 2048)))
          (if (i64.gt_s (local.get $v) (local.get $best_value))
            (then (local.set $best (local.get $d)) (local.set $best_value (local.get $v))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
    (call $answer (local.get $best)))
)

;; A Wormworld bot for botbox, in hand-written WebAssembly text. Check it: botbox check worms bot.wat
;; (botbox compiles the text itself; no build step). obs: you, board (rows of text), hole, worms (id,
;; owner, cells, direction), legal (each worm, turn). Answer one of obs.legal: a worm id and a turn.
;; The contract is docs/wasm-abi.md; the rules are docs/worms.md.
;;
;; The rule: the move whose worm's new head lands nearest the hole (straight-line steps, walls
;; ignored; the first such move in legal order on a tie).
;;
;; The observation arrives as postcard (botbox_encoding answers 1): fields in this order, no names.
;; A varint is LEB128 (7 bits a byte, low bits first, high bit set on all bytes but the last).
;;   you, turn, turn_limit, width, height   five varints
;;   board      count, then per row: length, then its bytes (`.` free, `#` obstacle, `O` the hole, letters)
;;   hole       row, column: two varints (no count: a fixed-size array)
;;   obstacles  count, then row, column per obstacle
;;   worms      count, then per worm:
;;                id, owner        varints
;;                letter           a string: length, then its UTF-8 bytes
;;                cells            head, middle, tail: three (row, column), six varints
;;                direction        varint: up 0, right 1, down 2, left 3
;;   legal      count, then per move: worm (varint id), turn (varint: left 0, forward 1, right 2)
;; The answer is a move: worm id, turn, two varints.
;;
;; Memory: 0..255 the answer; 256..1023 log messages; 1024..5119 the worms, decoded (up to 256, 16
;; bytes each: id, head row, head column, direction); 5120..65535 free; from 65536 the input
;; (botbox_alloc grows memory to fit it).
(module
  ;; The one import a module may have: appends a line (address, length) to the bot's log.
  (import "botbox" "log" (func $log (param i32 i32)))
  (memory (export "memory") 2)
  (data (i32.const 256) "more than 256 worms")  ;; 19 bytes

  (global $p (mut i32) (i32.const 0))  ;; the read cursor in the input
  (global $q (mut i32) (i32.const 0))  ;; the write cursor in the answer

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

  ;; The setup JSON ({"game":"worms","seed":..,"seat":0}) once per game: not needed here.
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

  ;; Skips a string: its length, then its bytes. ($u runs first, moving $p past the length.)
  (func $skip_string
    (global.set $p (i32.add (call $u) (global.get $p))))

  ;; Writes $x as a varint at $q.
  (func $put_u (param $x i32)
    (loop $more
      (if (i32.ge_u (local.get $x) (i32.const 128))
        (then
          (i32.store8 (global.get $q) (i32.or (local.get $x) (i32.const 128)))  ;; low 7 bits, more follow
          (local.set $x (i32.shr_u (local.get $x) (i32.const 7)))
          (global.set $q (i32.add (global.get $q) (i32.const 1)))
          (br $more))))
    (i32.store8 (global.get $q) (local.get $x))
    (global.set $q (i32.add (global.get $q) (i32.const 1))))

  ;; The address of decoded worm $k's field $f (0 id, 1 head row, 2 head column, 3 direction).
  (func $worm (param $k i32) (param $f i32) (result i32)
    (i32.add (i32.const 1024) (i32.add (i32.shl (local.get $k) (i32.const 4))
                                       (i32.shl (local.get $f) (i32.const 2)))))

  (func $abs (param $x i32) (result i32)
    (select (local.get $x) (i32.sub (i32.const 0) (local.get $x)) (i32.ge_s (local.get $x) (i32.const 0))))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $i i32) (local $count i32) (local $worms i32) (local $hole_r i32) (local $hole_c i32)
    (local $id i32) (local $turn i32) (local $k i32) (local $dir i32) (local $d i32)
    (local $best_id i32) (local $best_turn i32) (local $best_d i32)
    (global.set $p (local.get $ptr))
    (drop (call $u)) (drop (call $u)) (drop (call $u))  ;; you, turn, turn_limit
    (drop (call $u)) (drop (call $u))                   ;; width, height
    (local.set $count (call $u))                        ;; board: skip every row
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $count)))
      (call $skip_string)
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each)))
    (local.set $hole_r (call $u))
    (local.set $hole_c (call $u))
    (local.set $count (call $u))                        ;; obstacles: skip two varints each
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $count)))
      (drop (call $u)) (drop (call $u))
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each)))
    ;; worms: keep id, head and direction of each.
    (local.set $worms (call $u))
    (if (i32.gt_u (local.get $worms) (i32.const 256))
      (then (call $log (i32.const 256) (i32.const 19)) (return (i64.const -1))))
    (block $done (loop $each
      (br_if $done (i32.ge_u (local.get $k) (local.get $worms)))
      (i32.store (call $worm (local.get $k) (i32.const 0)) (call $u))  ;; id
      (drop (call $u))                                                  ;; owner
      (call $skip_string)                                               ;; letter
      (i32.store (call $worm (local.get $k) (i32.const 1)) (call $u))  ;; head row
      (i32.store (call $worm (local.get $k) (i32.const 2)) (call $u))  ;; head column
      (drop (call $u)) (drop (call $u)) (drop (call $u)) (drop (call $u))  ;; middle, tail
      (i32.store (call $worm (local.get $k) (i32.const 3)) (call $u))  ;; direction
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $each)))
    ;; legal: for each move, find its worm, step its head the way it will face, measure to the hole.
    (local.set $count (call $u))
    (local.set $best_d (i32.const 0x7fffffff))  ;; larger than any distance
    (block $done (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
      (local.set $id (call $u))
      (local.set $turn (call $u))
      (if (i32.eqz (local.get $i))  ;; the first move is the answer until a nearer one comes
        (then (local.set $best_id (local.get $id)) (local.set $best_turn (local.get $turn))))
      (local.set $k (i32.const 0))
      (block $worms_done (loop $each_worm
        (br_if $worms_done (i32.ge_u (local.get $k) (local.get $worms)))
        (if (i32.eq (i32.load (call $worm (local.get $k) (i32.const 0))) (local.get $id))
          (then
            ;; The direction after the turn: left is a quarter turn back (+3), right one on (+1).
            (local.set $dir (i32.and (i32.add (i32.add (i32.load (call $worm (local.get $k) (i32.const 3)))
                                                       (local.get $turn))
                                              (i32.const 3))
                                     (i32.const 3)))
            ;; Steps: up -1 row, down +1 row, right +1 column, left -1 column.
            (local.set $d (i32.add
              (call $abs (i32.sub (i32.add (i32.load (call $worm (local.get $k) (i32.const 1)))
                                           (i32.sub (i32.eq (local.get $dir) (i32.const 2))
                                                    (i32.eqz (local.get $dir))))
                                  (local.get $hole_r)))
              (call $abs (i32.sub (i32.add (i32.load (call $worm (local.get $k) (i32.const 2)))
                                           (i32.sub (i32.eq (local.get $dir) (i32.const 1))
                                                    (i32.eq (local.get $dir) (i32.const 3))))
                                  (local.get $hole_c)))))
            (if (i32.lt_s (local.get $d) (local.get $best_d))
              (then (local.set $best_id (local.get $id))
                    (local.set $best_turn (local.get $turn))
                    (local.set $best_d (local.get $d))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each_worm)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
    ;; The answer at address 0: returned as (0 << 32) | its length.
    (global.set $q (i32.const 0))
    (call $put_u (local.get $best_id))
    (call $put_u (local.get $best_turn))
    (i64.extend_i32_u (global.get $q)))
)

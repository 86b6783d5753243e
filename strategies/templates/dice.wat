;; A dice bot (Mensch ärgere Dich nicht, free variant) for botbox, in hand-written WebAssembly text.
;; Check it: botbox check dice bot.wat (botbox compiles the text itself; no build step).
;; You are asked only when the roll leaves a choice. obs: you, turn, face, steps, die, opponent_die,
;; mine, theirs, theirs_on_my_track, legal (each from, to, captures). Answer a move: from, to.
;; The contract is docs/wasm-abi.md; the rules are docs/dice.md.
;;
;; The rule: capture when you can (the first capturing move), else move the piece furthest ahead
;; (the first legal move with the largest from).
;;
;; The observation arrives as postcard (botbox_encoding answers 1): fields in this order, no names.
;; A varint is LEB128 (7 bits a byte, low bits first, high bit set on all bytes but the last); a
;; signed one (i) is zigzag-encoded first: 0, -1, 1, -2, ... are 0, 1, 2, 3, ...
;;   you, turn, face, steps            four varints (face is a u64)
;;   die, opponent_die                 each: count, then one varint per face
;;   mine, theirs, theirs_on_my_track  each: count, then one signed varint per step (-1 waiting)
;;   legal                             count, then per move: from (i), to (i), captures (1 byte, 0/1)
;; The answer is a move: from (i), to (i), two signed varints.
;;
;; Memory: 0..255 the answer; 256..65535 free (log messages, tables of your own); from 65536 the
;; input (botbox_alloc grows memory to fit it).
(module
  ;; The one import a module may have: appends a line (address, length) to the bot's log.
  (import "botbox" "log" (func $log (param i32 i32)))
  (memory (export "memory") 2)

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

  ;; The setup JSON ({"game":"dice","seed":..,"seat":0}) once per game: not needed here.
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

  ;; Reads a signed (zigzag) varint: n -> (n >> 1) ^ -(n & 1).
  (func $i (result i32)
    (local $n i32)
    (local.set $n (call $u))
    (i32.xor (i32.shr_u (local.get $n) (i32.const 1))
             (i32.sub (i32.const 0) (i32.and (local.get $n) (i32.const 1)))))

  ;; Skips a list of varints (signed or not): its count, then the items.
  (func $skip_list
    (local $count i32)
    (local.set $count (call $u))
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $count)))
      (drop (call $u))
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each))))

  ;; Writes $x as a signed varint at $q: zigzag (x << 1) ^ (x >> 31), then 7 bits a byte.
  (func $put_i (param $x i32)
    (local.set $x (i32.xor (i32.shl (local.get $x) (i32.const 1))
                           (i32.shr_s (local.get $x) (i32.const 31))))
    (loop $more
      (if (i32.ge_u (local.get $x) (i32.const 128))
        (then
          (i32.store8 (global.get $q) (i32.or (local.get $x) (i32.const 128)))  ;; low 7 bits, more follow
          (local.set $x (i32.shr_u (local.get $x) (i32.const 7)))
          (global.set $q (i32.add (global.get $q) (i32.const 1)))
          (br $more))))
    (i32.store8 (global.get $q) (local.get $x))
    (global.set $q (i32.add (global.get $q) (i32.const 1))))

  (func (export "choose_move") (param $ptr i32) (param $len i32) (result i64)
    (local $count i32) (local $from i32) (local $to i32) (local $captures i32)
    (local $first i32)                          ;; 1 until the first legal move is read
    (local $best_from i32) (local $best_to i32) ;; the first move furthest ahead
    (local $capture i32)                        ;; 1 once a capturing move is found
    (local $cap_from i32) (local $cap_to i32)   ;; the first capturing move
    (global.set $p (local.get $ptr))
    (drop (call $u)) (drop (call $u)) (drop (call $u)) (drop (call $u))  ;; you, turn, face, steps
    (call $skip_list) (call $skip_list)                                  ;; die, opponent_die
    (call $skip_list) (call $skip_list) (call $skip_list)                ;; mine, theirs, theirs_on_my_track
    (local.set $count (call $u))                                         ;; legal
    (local.set $first (i32.const 1))
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $count)))
      (local.set $from (call $i))
      (local.set $to (call $i))
      (local.set $captures (i32.load8_u (global.get $p)))
      (global.set $p (i32.add (global.get $p) (i32.const 1)))
      (if (i32.and (local.get $captures) (i32.eqz (local.get $capture)))
        (then (local.set $capture (i32.const 1))
              (local.set $cap_from (local.get $from))
              (local.set $cap_to (local.get $to))))
      (if (i32.or (local.get $first) (i32.gt_s (local.get $from) (local.get $best_from)))
        (then (local.set $best_from (local.get $from))
              (local.set $best_to (local.get $to))))
      (local.set $first (i32.const 0))
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each)))
    (if (local.get $capture)
      (then (local.set $best_from (local.get $cap_from))
            (local.set $best_to (local.get $cap_to))))
    ;; The answer at address 0: returned as (0 << 32) | its length.
    (global.set $q (i32.const 0))
    (call $put_i (local.get $best_from))
    (call $put_i (local.get $best_to))
    (i64.extend_i32_u (global.get $q)))
)

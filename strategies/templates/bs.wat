;; A BS (Cheat) bot for botbox, in hand-written WebAssembly text. Check it: botbox check bs bot.wat
;; (botbox compiles the text itself; no build step). The contract is docs/wasm-abi.md ("Games with
;; several functions"); the rules are docs/bs.md.
;; play(obs): obs.rank is the rank you must claim, obs.hand your card ids (rank = id / 4).
;;   Answer a list of 1 to 4 card ids from your hand. This bot plays its cards of that rank (at most
;;   4, in hand order), or lies with its first card when it has none.
;; call(obs): someone played obs.count cards claiming obs.rank. Answer true to call "BS"; this bot
;;   calls when 3 or more were played.
;; observe(event) (optional): every public event, for counting cards. This bot has none: export
;;   "observe" too to get them.
;;
;; The observations arrive as postcard (botbox_encoding answers 1): fields in this order, no names.
;; A varint is LEB128 (7 bits a byte, low bits first, high bit set on all bytes but the last); a
;; list is its count, then the items; a string its length, then its UTF-8 bytes.
;;   play:  you, players (strings), round, turn, rank, hand (card ids), hand_sizes (by seat), pile
;;          answer: the ids to play, a list: count, then one varint each
;;   call:  you, players, round, turn, player, rank, count, player_hand, pile, hand, hand_sizes
;;          answer: a bool, one byte 0 or 1
;;   observe (an event: its variant, then its fields; all varints but the bools, one byte each):
;;          0 play: turn, player, rank, count, hand_size, pile   1 no_call: turn, player
;;          2 call: turn, player, caller, lie (bool), cards (list), taker, taken, reward (bool)
;;          3 round_end: round                                    answer: no bytes at all
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

  ;; The setup JSON ({"game":"bs","seed":..,"seat":0}) once per game: not needed here.
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

  ;; Reads you, players, round and turn, the start of both observations.
  (func $skip_head
    (local $count i32)
    (drop (call $u))              ;; you
    (local.set $count (call $u))  ;; players: skip each name (its length, then its bytes)
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $count)))
      (global.set $p (i32.add (call $u) (global.get $p)))  ;; $u runs first, moving $p past the length
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each)))
    (drop (call $u))              ;; round
    (drop (call $u)))             ;; turn

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

  (func (export "play") (param $ptr i32) (param $len i32) (result i64)
    (local $rank i32) (local $count i32) (local $id i32) (local $first i32) (local $cards i32)
    (global.set $p (local.get $ptr))
    (call $skip_head)
    (local.set $rank (call $u))
    ;; hand: write the ids of that rank after the answer's count byte, at 1, 2, ... (4 at most).
    (global.set $q (i32.const 1))
    (local.set $count (call $u))
    (local.set $first (i32.const -1))
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $count)))
      (local.set $id (call $u))
      (if (i32.lt_s (local.get $first) (i32.const 0)) (then (local.set $first (local.get $id))))
      (if (i32.and (i32.eq (i32.shr_u (local.get $id) (i32.const 2)) (local.get $rank))  ;; id / 4
                   (i32.lt_u (local.get $cards) (i32.const 4)))
        (then (call $put_u (local.get $id))
              (local.set $cards (i32.add (local.get $cards) (i32.const 1)))))
      (local.set $count (i32.sub (local.get $count) (i32.const 1)))
      (br $each)))
    ;; hand_sizes, pile: not needed.
    (if (i32.eqz (local.get $cards))
      (then (call $put_u (local.get $first))  ;; a lie: one card
            (local.set $cards (i32.const 1))))
    ;; The list's count (1 to 4, one byte) at 0; the answer is (0 << 32) | its length.
    (i32.store8 (i32.const 0) (local.get $cards))
    (i64.extend_i32_u (global.get $q)))

  (func (export "call") (param $ptr i32) (param $len i32) (result i64)
    (global.set $p (local.get $ptr))
    (call $skip_head)
    (drop (call $u))  ;; player
    (drop (call $u))  ;; rank
    ;; count: call when 3 or more; the answer is one byte at 0: (0 << 32) | 1.
    (i32.store8 (i32.const 0) (i32.ge_u (call $u) (i32.const 3)))
    (i64.const 1))
)

#!/usr/bin/env bash
# Side by side (BENCHMARKS.md): the previous commit's botbox (OLD) against this one (NEW), alternating,
# in one run, on the CLI as a user runs it. Wall seconds per command; the CPU seconds of the BS run.
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${OLD:-/tmp/oldtarget/release/botbox}
NEW=${NEW:-target/release/botbox}
ROUNDS=${ROUNDS:-3}
secs() { local s=$(date +%s.%N); "$@" >/dev/null 2>&1; local e=$(date +%s.%N); echo "$e - $s" | bc; }
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
for r in $(seq 1 $ROUNDS); do
  for which in OLD NEW; do
    B=${!which}
    bs=$(secs $B tournament bs --players strategies/lua/bs/*.lua --games 20000 --jobs 2 --seed $r)
    bscpu=$(cpu $B tournament bs --players strategies/lua/bs/*.lua --games 20000 --jobs 1 --seed $r)
    worms=$(secs $B tournament worms --players strategies/lua/worms/greedy.lua strategies/lua/worms/random.lua strategies/lua/worms/greedy.lua --maps examples/worms/arena.txt --games 16 --jobs 2 --seed $r)
    lua=$(secs $B bench 2048 strategies/lua/g2048/first_legal.lua --games 300 --jobs 1 --seed $r)
    wasm=$(secs $B bench 2048 strategies/wat/g2048/corner.wat --games 300 --jobs 1 --seed $r)
    dice=$(secs $B dice examples/dice/wuerfel0.txt --games-per-pair 200000 --jobs 1 --seed $r)
    printf "%s round %d: bs 20000 games %.2f s (%.0f games/s), %.2f CPU-s at 1 job | worms rr %.2f s | 2048 lua 300 games %.2f s | 2048 wat 300 games %.2f s | dice strict 200000/pair 1 job %.2f s\n" \
      $which $r $bs $(echo "20000 / $bs" | bc -l) $bscpu $worms $lua $wasm $dice
  done
done

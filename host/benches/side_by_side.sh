#!/usr/bin/env bash
# Side by side (BENCHMARKS.md, issue 14): the previous commit's botbox (OLD) against this one (NEW), alternating, in one run.
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${OLD:-/tmp/oldtarget/release/botbox}
NEW=${NEW:-target/release/botbox}
ROUNDS=${ROUNDS:-3}
secs() { local s=$(date +%s.%N); "$@" >/dev/null 2>&1; local e=$(date +%s.%N); echo "$e - $s" | bc; }
for r in $(seq 1 $ROUNDS); do
  for which in OLD NEW; do
    B=${!which}
    bs=$(secs $B tournament bs --players strategies/lua/bs/*.lua --games 10000 --jobs 2 --seed $r)
    worms=$(secs $B tournament worms --players strategies/lua/worms/greedy.lua strategies/lua/worms/random.lua strategies/lua/worms/greedy.lua --maps examples/worms/arena.txt --games 16 --jobs 2 --seed $r)
    lua=$($B bench 2048 strategies/lua/g2048/first_legal.lua --games 300 --jobs 1 --seed $r 2>&1 | grep "time per move" | grep -oE "[0-9.]+ µs")
    wasm=$($B bench 2048 strategies/wat/g2048/corner.wat --games 300 --jobs 1 --seed $r 2>&1 | grep "time per move" | grep -oE "[0-9.]+ µs")
    printf "%s round %d: bs 10000 games %.2f s (%.0f games/s) | worms rr %.2f s | lua per move %s | wasm per move %s\n" $which $r $bs $(echo "10000 / $bs" | bc -l) $worms "$lua" "$wasm"
  done
done

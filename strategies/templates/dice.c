/* A dice bot (Mensch aergere Dich nicht, free variant) for botbox, in C. Build: sh build.sh (writes
 * bot.wasm). Check it: botbox check dice .
 * You are asked only when the roll leaves a choice. obs: face, steps, die, opponent_die, mine, theirs,
 * theirs_on_my_track, legal (each {from, to, captures}; legal_count of them). Answer a Move
 * {from, to}. The SDK is dice.h and botbox.h; docs/bots/c.md has the whole API. */
#include "dice.h"

Move choose_move(const Observation *obs) {
    /* Capture when you can, else move the piece furthest ahead. */
    for (uint32_t i = 0; i < obs->legal_count; i++) {
        if (obs->legal[i].captures) return (Move){ obs->legal[i].from, obs->legal[i].to };
    }
    LegalMove best = obs->legal[0];
    for (uint32_t i = 0; i < obs->legal_count; i++) {
        if (obs->legal[i].from > best.from) best = obs->legal[i];
    }
    return (Move){ best.from, best.to };
}

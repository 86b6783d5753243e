/* A Wormworld bot for botbox, in C. Build: sh build.sh (writes bot.wasm). Check it:
 * botbox check worms .
 * obs: you, board (rows of text), hole, worms (id, owner, cells, direction), legal (each {worm, turn};
 * legal_count of them). Answer one of obs->legal: {worm id, TURN_LEFT | TURN_FORWARD | TURN_RIGHT}.
 * The SDK is worms.h and botbox.h; docs/bots/c.md has the whole API. */
#include "worms.h"

static int absolute(int x) { return x < 0 ? -x : x; }

Move choose_move(const Observation *obs) {
    /* The move whose worm's new head lands nearest the hole (straight-line steps, walls ignored). */
    Move best = obs->legal[0];
    int best_d = 1 << 30;
    for (uint32_t i = 0; i < obs->legal_count; i++) {
        Move m = obs->legal[i];
        for (uint32_t k = 0; k < obs->worm_count; k++) {
            const Worm *w = &obs->worms[k];
            if (w->id == m.worm) {
                Direction d = turned(w->direction, m.turn);
                int row = (int)w->cells[0][0] + DIRECTION_DR[d], col = (int)w->cells[0][1] + DIRECTION_DC[d];
                int dist = absolute(row - (int)obs->hole[0]) + absolute(col - (int)obs->hole[1]);
                if (dist < best_d) {
                    best = m;
                    best_d = dist;
                }
            }
        }
    }
    return best;
}

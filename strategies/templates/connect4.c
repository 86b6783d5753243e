/* A Connect Four bot for botbox, in C. Build: sh build.sh (writes bot.wasm). Check it:
 * botbox check connect4 .
 * obs: board (rows * columns cells from the top row, 0 empty, 1 or 2 a mark), rows, columns,
 * inarow, mark (yours), legal (the open columns, from 0; legal_count of them). Answer a column.
 * The SDK is connect4.h and botbox.h; docs/bots/c.md has the whole API. */
#include "connect4.h"

/* Twice the distance from col to the centre (columns - 1) / 2: whole numbers, the same order. */
static uint32_t off_centre(const Observation *obs, uint32_t col) {
    int d = 2 * (int)col - ((int)obs->columns - 1);
    return (uint32_t)(d < 0 ? -d : d);
}

Move choose_move(const Observation *obs) {
    /* The open column nearest the centre (the leftmost of two as near). */
    Move best = obs->legal[0];
    for (uint32_t i = 0; i < obs->legal_count; i++) {
        uint32_t col = obs->legal[i];
        if (off_centre(obs, col) < off_centre(obs, best)) best = col;
    }
    return best;
}

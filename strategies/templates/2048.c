/* A 2048 bot for botbox, in C. Build: sh build.sh (writes bot.wasm). Check it: botbox check 2048 .
 * obs: board[row][col] (tile values, 0 empty; obs->size rows and columns), score, moves, legal (the
 * directions that change the board, legal_count of them). Answer one of DIR_LEFT, DIR_RIGHT, DIR_UP,
 * DIR_DOWN. The SDK is 2048.h and botbox.h; docs/bots/c.md has the whole API. */
#include "2048.h"

static bool is_legal(const Observation *obs, Direction d) {
    for (uint32_t i = 0; i < obs->legal_count; i++)
        if (obs->legal[i] == d) return true;
    return false;
}

/* How many merges a move would make: equal tiles meeting along its lines, empty cells between them
 * or not (rows for left and right, columns for up and down). */
static int merges(const Observation *obs, Direction dir) {
    uint32_t n = obs->size;
    int count = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t last = 0;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t v = obs->board[i][j];
            if (dir == DIR_UP || dir == DIR_DOWN) v = obs->board[j][i];
            if (v != 0) {
                if (v == last) {
                    count++;
                    last = 0;
                } else {
                    last = v;
                }
            }
        }
    }
    return count;
}

Direction choose_move(const Observation *obs) {
    /* Keep the big tiles in the bottom-left corner: down or left, whichever merges more (down on a
     * tie); right if neither is legal; up only when nothing else is. */
    bool down = is_legal(obs, DIR_DOWN), left = is_legal(obs, DIR_LEFT);
    if (down && left) {
        if (merges(obs, DIR_LEFT) > merges(obs, DIR_DOWN)) return DIR_LEFT;
        return DIR_DOWN;
    }
    if (down) return DIR_DOWN;
    if (left) return DIR_LEFT;
    if (is_legal(obs, DIR_RIGHT)) return DIR_RIGHT;
    return DIR_UP;
}

/* A Tron bot for botbox, in C: a wall hugger. Build: sh build.sh (writes bot.wasm). Check it:
 * botbox check tron .
 * Each turn it sees the whole board (docs/tron.md: obs->rows[row][col], width, height, you and
 * opponent as {row, col}) and answers NORTH, EAST, SOUTH or WEST; among the moves that do not crash
 * it takes the one whose new cell touches the most walls. The SDK is tron.h and botbox.h;
 * docs/bots/c.md has the whole API. */
#include "tron.h"

static bool is_free(const Observation *obs, int r, int c) {
    if (r < 0 || c < 0 || r >= (int)obs->height || c >= (int)obs->width) return false;
    return obs->rows[r][c] == '.';
}

Move choose_move(const Observation *obs) {
    Move best = NORTH;
    int most = -1;
    for (int d = NORTH; d <= WEST; d++) {
        int r = (int)obs->you[0] + MOVE_DR[d], c = (int)obs->you[1] + MOVE_DC[d];
        if (is_free(obs, r, c)) {
            int walls = 0;
            for (int e = NORTH; e <= WEST; e++) {
                if (!is_free(obs, r + MOVE_DR[e], c + MOVE_DC[e])) walls++;
            }
            if (walls > most) {
                best = (Move)d;
                most = walls;
            }
        }
    }
    return best;
}

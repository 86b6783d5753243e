/* A 2048 bot for botbox, in C. Build: sh build.sh (writes bot.wasm). Check it: botbox check 2048 .
 * obs: board[row][col] (tile values, 0 empty; obs->size rows and columns), score, moves, legal (the
 * directions that change the board, legal_count of them). Answer one of DIR_LEFT, DIR_RIGHT, DIR_UP,
 * DIR_DOWN. The SDK is 2048.h and botbox.h; docs/bots/c.md has the whole API. */
#include "2048.h"

/* A board as the SDK stores it: board[row][col], the first n rows and columns used. The functions
 * below take it flat (&board[0][0]): cell (row, col) is at row * G2048_MAX_SIZE + col. */
typedef uint32_t Board[G2048_MAX_SIZE][G2048_MAX_SIZE];

static bool is_legal(const Observation *obs, Direction d) {
    for (uint32_t i = 0; i < obs->legal_count; i++)
        if (obs->legal[i] == d) return true;
    return false;
}

/* Where the k-th cell of a line is (both from 0), counted from the side its tiles slide to (lines
 * are rows for left and right, columns for up and down): its index in a flat Board. */
static uint32_t cell(uint32_t n, Direction dir, uint32_t line, uint32_t k) {
    switch (dir) {
    case DIR_LEFT: return line * G2048_MAX_SIZE + k;
    case DIR_RIGHT: return line * G2048_MAX_SIZE + (n - 1 - k);
    case DIR_UP: return k * G2048_MAX_SIZE + line;
    default: return (n - 1 - k) * G2048_MAX_SIZE + line;
    }
}

/* The board after a move, written to out (without the tile that appears after it); whether anything
 * moved. */
static bool slide(const uint32_t *board, uint32_t n, Direction dir, uint32_t *out) {
    bool moved = false;
    for (uint32_t line = 0; line < n; line++) {
        /* Cells filled so far; the last tile placed, while it may merge. */
        uint32_t filled = 0, last = 0;
        for (uint32_t k = 0; k < n; k++) out[cell(n, dir, line, k)] = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t v = board[cell(n, dir, line, k)];
            if (v == 0) continue;
            if (v == last) {
                out[cell(n, dir, line, filled - 1)] = v * 2;
                last = 0;
                moved = true;
            } else {
                out[cell(n, dir, line, filled)] = v;
                if (filled != k) moved = true;
                filled++;
                last = v;
            }
        }
    }
    return moved;
}

/* How good a board looks: each tile's value times its distance in rows and columns from the top
 * right corner (big tiles belong in the bottom left), and 64 for every empty cell. */
static int64_t value(const uint32_t *board, uint32_t n) {
    int64_t sum = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint32_t v = board[i * G2048_MAX_SIZE + j];
            sum += v == 0 ? 64 : (int64_t)v * (i + n - 1 - j);
        }
    return sum;
}

/* Two moves ahead, ignoring the tiles that appear: the best value the board can reach after one
 * more move; a board that no move changes is a dead end and counts below every other. */
static int64_t ahead(const uint32_t *board, uint32_t n) {
    static const Direction dirs[4] = { DIR_DOWN, DIR_LEFT, DIR_RIGHT, DIR_UP };
    static Board next;
    int64_t best = value(board, n) - 1000000000000;
    for (int d = 0; d < 4; d++)
        if (slide(board, n, dirs[d], &next[0][0])) {
            int64_t v = value(&next[0][0], n);
            if (v > best) best = v;
        }
    return best;
}

Direction choose_move(const Observation *obs) {
    /* Down, left or right, whichever leads furthest (down, then left, on a tie); up only when none
     * of them is legal. */
    static const Direction dirs[3] = { DIR_DOWN, DIR_LEFT, DIR_RIGHT };
    static Board after;
    Direction best = DIR_UP;
    int64_t best_value = INT64_MIN;
    for (int d = 0; d < 3; d++) {
        if (!is_legal(obs, dirs[d])) continue;
        slide(&obs->board[0][0], obs->size, dirs[d], &after[0][0]);
        int64_t v = ahead(&after[0][0], obs->size);
        if (v > best_value) {
            best = dirs[d];
            best_value = v;
        }
    }
    return best;
}

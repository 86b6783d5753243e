/* connect4.h: the Connect Four part of the C SDK (rules: docs/connect4.md; wire types:
 * strategies/sdk/src/connect4.rs).
 *
 * The bot defines one function, called before each of its moves:
 *     Move choose_move(const Observation *obs);
 * and answers one of obs->legal (a column, from 0 at the left). */
#ifndef BOTBOX_CONNECT4_H
#define BOTBOX_CONNECT4_H
#include "botbox.h"

#define CONNECT4_MAX_CELLS 64   /* (rows + 1) * columns is at most 64 */
#define CONNECT4_MAX_COLUMNS 16

/* The answer: the column to drop a piece into. */
typedef uint32_t Move;

typedef struct {
    uint8_t board[CONNECT4_MAX_CELLS]; /* rows * columns cells, row-major from the TOP row: cell
                                          (row, col) is board[row * columns + col]; 0 empty, 1 a piece
                                          of mark 1 (seat 0), 2 of mark 2 (seat 1) */
    uint32_t rows;                     /* 6 by default */
    uint32_t columns;                  /* 7 by default */
    uint32_t inarow;                   /* pieces in a line that win: 4 by default */
    uint8_t mark;                      /* yours: 1 (seat 0, moves first) or 2 (seat 1) */
    uint32_t legal_count;
    uint32_t legal[CONNECT4_MAX_COLUMNS]; /* the columns that are not full, left to right */
    uint32_t moves;                    /* pieces dropped so far by both players */
} Observation;

Move choose_move(const Observation *obs);

/* The cell at (row, col), row 0 at the top: 0, 1 or 2; 0 outside the board too. */
static inline uint8_t connect4_cell(const Observation *obs, int row, int col) {
    if (row < 0 || col < 0 || (uint32_t)row >= obs->rows || (uint32_t)col >= obs->columns) return 0;
    return obs->board[(uint32_t)row * obs->columns + (uint32_t)col];
}

/* The export: decode the observation, ask the bot, encode its answer. */
static Observation bb_obs;

BOTBOX_EXPORT("choose_move") int64_t bb_choose_move(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    Observation *o = &bb_obs;
    uint32_t cells = bb_len(&r, CONNECT4_MAX_CELLS, "board (CONNECT4_MAX_CELLS)");
    for (uint32_t i = 0; i < cells; i++) o->board[i] = bb_u8(&r);
    o->rows = bb_u32(&r);
    o->columns = bb_u32(&r);
    o->inarow = bb_u32(&r);
    o->mark = bb_u8(&r);
    o->legal_count = bb_len(&r, CONNECT4_MAX_COLUMNS, "legal (CONNECT4_MAX_COLUMNS)");
    for (uint32_t i = 0; i < o->legal_count; i++) o->legal[i] = bb_u32(&r);
    o->moves = bb_u32(&r);
    if (!r.failed && cells != o->rows * o->columns) bb_fail(&r, "board is not rows * columns cells");
    if (!bb_done(&r)) return BB_BAD_INPUT;

    Move m = choose_move(o);
    bb_begin();
    bb_put_u64(m);
    return bb_finish();
}

#endif

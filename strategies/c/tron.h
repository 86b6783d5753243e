/* tron.h: the Tron light cycles part of the C SDK (rules: docs/tron.md; wire types:
 * strategies/sdk/src/tron.rs).
 *
 * The bot defines one function, called every turn (both riders decide on the same board):
 *     Move choose_move(const Observation *obs);
 * and answers a direction; NORTH is towards the top row. */
#ifndef BOTBOX_TRON_H
#define BOTBOX_TRON_H
#include "botbox.h"

#define TRON_MAX_SIZE 100 /* boards are 3 to 100 cells a side */

/* The answer, numbered as on the wire. */
typedef enum { NORTH = 0, EAST = 1, SOUTH = 2, WEST = 3 } Move;

static const char *const MOVE_NAMES[4] = { "north", "east", "south", "west" };
/* The change of row and of column each move makes. */
static const int MOVE_DR[4] = { -1, 0, 1, 0 };
static const int MOVE_DC[4] = { 0, 1, 0, -1 };

typedef struct {
    char rows[TRON_MAX_SIZE][TRON_MAX_SIZE + 1]; /* the board, top row first, each row 0-terminated:
                                                    '#' wall (the map's or a trail), '.' free,
                                                    '1' and '2' the heads of seat 0 and seat 1 */
    uint32_t row_count;                          /* = height */
    uint32_t width, height;
    uint32_t you[2];                             /* your head: {row, column}, from 0 at the top left */
    uint32_t opponent[2];                        /* the opponent's head */
    uint32_t player;                             /* your mark: 1 (seat 0) or 2 (seat 1) */
    uint32_t turn;                               /* turns played so far */
} Observation;

Move choose_move(const Observation *obs);

/* The export: decode the observation, ask the bot, encode its answer. */
static Observation bb_obs;

BOTBOX_EXPORT("choose_move") int64_t bb_choose_move(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    Observation *o = &bb_obs;
    o->row_count = bb_len(&r, TRON_MAX_SIZE, "rows (TRON_MAX_SIZE)");
    for (uint32_t i = 0; i < o->row_count; i++)
        bb_str(&r, o->rows[i], TRON_MAX_SIZE + 1, "a row (TRON_MAX_SIZE)");
    o->width = bb_u32(&r);
    o->height = bb_u32(&r);
    o->you[0] = bb_u32(&r);
    o->you[1] = bb_u32(&r);
    o->opponent[0] = bb_u32(&r);
    o->opponent[1] = bb_u32(&r);
    o->player = bb_u32(&r);
    o->turn = bb_u32(&r);
    if (!bb_done(&r)) return BB_BAD_INPUT;

    Move m = choose_move(o);
    bb_begin();
    bb_put_u64((uint32_t)m);
    return bb_finish();
}

#endif

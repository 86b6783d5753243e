/* 2048.h: the 2048 part of the C SDK (rules: docs/2048.md; wire types: strategies/sdk/src/g2048.rs).
 *
 * The bot defines one function, called before every move:
 *     Direction choose_move(const Observation *obs);
 * and answers one of obs->legal. */
#ifndef BOTBOX_2048_H
#define BOTBOX_2048_H
#include "botbox.h"

#define G2048_MAX_SIZE 8 /* boards are 4x4 unless chosen otherwise, at most 8x8 */

/* A move, numbered as the host numbers them. */
typedef enum { DIR_LEFT = 0, DIR_RIGHT = 1, DIR_UP = 2, DIR_DOWN = 3 } Direction;

static const char *const DIRECTION_NAMES[4] = { "left", "right", "up", "down" };

typedef struct {
    uint32_t size;                                   /* rows and columns: 4 on the usual board */
    uint32_t board[G2048_MAX_SIZE][G2048_MAX_SIZE];  /* board[row][col], row 0 at the top: tile values
                                                        (2, 4, 8, ...), 0 for empty */
    uint64_t score;                                  /* the sum of all merged tiles so far */
    uint32_t moves;                                  /* moves made so far */
    uint32_t legal_count;                            /* 1 to 4 */
    Direction legal[4];                              /* the moves that change the board, in the
                                                        order left, right, up, down */
} Observation;

Direction choose_move(const Observation *obs);

/* The host's fast board functions (docs/wasm-abi.md), on 16 exponent bytes (a 4x4 board, row-major,
 * 0 empty, 1 for a 2, 2 for a 4, ...). Declared only: a bot that calls one imports it. */
__attribute__((import_module("botbox"), import_name("g2048_move")))
int32_t g2048_move(const uint8_t *board, int32_t dir, uint8_t *out); /* score gained, -1: no change */
__attribute__((import_module("botbox"), import_name("g2048_can_move")))
int32_t g2048_can_move(const uint8_t *board, int32_t dir);
__attribute__((import_module("botbox"), import_name("g2048_empty_cells")))
int32_t g2048_empty_cells(const uint8_t *board, uint8_t *out); /* writes the empty cells' indices */
__attribute__((import_module("botbox"), import_name("g2048_place")))
int32_t g2048_place(uint8_t *board, int32_t cell, int32_t exponent);

/* The export: decode the observation, ask the bot, encode its answer. */
static Observation bb_obs;

BOTBOX_EXPORT("choose_move") int64_t bb_choose_move(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    Observation *o = &bb_obs;
    o->size = bb_len(&r, G2048_MAX_SIZE, "board (G2048_MAX_SIZE)");
    for (uint32_t row = 0; row < o->size; row++) {
        if (bb_len(&r, G2048_MAX_SIZE, "a board row (G2048_MAX_SIZE)") != o->size && !r.failed)
            bb_fail(&r, "the board is not square");
        for (uint32_t col = 0; col < o->size; col++) o->board[row][col] = bb_u32(&r);
    }
    o->score = bb_u64(&r);
    o->moves = bb_u32(&r);
    o->legal_count = bb_len(&r, 4, "legal (4)");
    for (uint32_t i = 0; i < o->legal_count; i++) o->legal[i] = (Direction)bb_variant(&r, 4);
    if (!bb_done(&r)) return BB_BAD_INPUT;

    Direction d = choose_move(o);
    bb_begin();
    bb_put_u64((uint32_t)d);
    return bb_finish();
}

#endif

/* worms.h: the Wormworld part of the C SDK (rules: docs/worms.md; wire types:
 * strategies/sdk/src/worms.rs).
 *
 * The bot defines one function, called before each of its moves:
 *     Move choose_move(const Observation *obs);
 * and answers one of obs->legal: which of its worms moves and how its head turns.
 * Cells are {row, col} from 0, row 0 at the top. */
#ifndef BOTBOX_WORMS_H
#define BOTBOX_WORMS_H
#include "botbox.h"

#define WORMS_MAX_SIZE 30   /* maps are at most 30 x 30 */
#define WORMS_MAX_WORMS 52  /* a letter each: A-Z player 1, a-z player 2 */
#define WORMS_MAX_LEGAL (3 * 26)
#define WORMS_MAX_OBSTACLES (WORMS_MAX_SIZE * WORMS_MAX_SIZE)

/* How a head turns, relative to the direction the worm faces (the wire's order). */
typedef enum { TURN_LEFT = 0, TURN_FORWARD = 1, TURN_RIGHT = 2 } Turn;
/* The direction a worm faces, clockwise from up (the wire's order). */
typedef enum { DIR_UP = 0, DIR_RIGHT = 1, DIR_DOWN = 2, DIR_LEFT = 3 } Direction;

static const char *const TURN_NAMES[3] = { "left", "forward", "right" };
static const char *const DIRECTION_NAMES[4] = { "up", "right", "down", "left" };
/* The step {rows, cols} one cell in each direction. */
static const int DIRECTION_DR[4] = { -1, 0, 1, 0 };
static const int DIRECTION_DC[4] = { 0, 1, 0, -1 };

/* The direction a worm facing `d` faces after `turn`. */
static inline Direction turned(Direction d, Turn turn) {
    static const int quarter[3] = { 3, 0, 1 };
    return (Direction)((d + quarter[turn]) % 4);
}

/* The answer: the worm (by id) and its turn. */
typedef struct {
    uint32_t worm;
    Turn turn;
} Move;

typedef struct {
    uint32_t id;          /* fixed for the game */
    uint32_t owner;       /* seat 0 (uppercase letter) or 1 (lowercase) */
    char letter;          /* its letter on the board */
    uint32_t cells[3][2]; /* {row, col} of its head, middle and tail */
    Direction direction;  /* from the middle cell to the head: where TURN_FORWARD goes */
} Worm;

typedef struct {
    uint32_t you;        /* your seat: 0 (uppercase worms) or 1 (lowercase) */
    uint32_t turn;       /* turns played so far by both players, passes included */
    uint32_t turn_limit; /* the game ends when turn reaches it: fewer worms on the board wins */
    uint32_t width, height;
    uint32_t board_rows;
    char board[WORMS_MAX_SIZE][WORMS_MAX_SIZE + 1]; /* height rows, 0-terminated: '.' free, '#'
                                            obstacle, 'O' the hole, a worm's letter on its cells */
    uint32_t hole[2];
    uint32_t obstacle_count;
    uint32_t obstacles[WORMS_MAX_OBSTACLES][2]; /* row-major order */
    uint32_t worm_count;
    Worm worms[WORMS_MAX_WORMS];        /* the worms still on the board, both players', by id */
    uint32_t legal_count;
    Move legal[WORMS_MAX_LEGAL];        /* by worm id, then left, forward, right */
} Observation;

Move choose_move(const Observation *obs);

/* The export: decode the observation, ask the bot, encode its answer. */
static Observation bb_obs;

BOTBOX_EXPORT("choose_move") int64_t bb_choose_move(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    Observation *o = &bb_obs;
    o->you = bb_u32(&r);
    o->turn = bb_u32(&r);
    o->turn_limit = bb_u32(&r);
    o->width = bb_u32(&r);
    o->height = bb_u32(&r);
    o->board_rows = bb_len(&r, WORMS_MAX_SIZE, "board (WORMS_MAX_SIZE)");
    for (uint32_t i = 0; i < o->board_rows; i++)
        bb_str(&r, o->board[i], WORMS_MAX_SIZE + 1, "a board row (WORMS_MAX_SIZE)");
    o->hole[0] = bb_u32(&r);
    o->hole[1] = bb_u32(&r);
    o->obstacle_count = bb_len(&r, WORMS_MAX_OBSTACLES, "obstacles (WORMS_MAX_OBSTACLES)");
    for (uint32_t i = 0; i < o->obstacle_count; i++) {
        o->obstacles[i][0] = bb_u32(&r);
        o->obstacles[i][1] = bb_u32(&r);
    }
    o->worm_count = bb_len(&r, WORMS_MAX_WORMS, "worms (WORMS_MAX_WORMS)");
    for (uint32_t i = 0; i < o->worm_count; i++) {
        Worm *w = &o->worms[i];
        char letter[8];
        w->id = bb_u32(&r);
        w->owner = bb_u32(&r);
        if (bb_str(&r, letter, sizeof letter, "a worm's letter") != 1 && !r.failed)
            bb_fail(&r, "a worm's letter is not one ASCII letter");
        w->letter = letter[0];
        for (int c = 0; c < 3; c++) {
            w->cells[c][0] = bb_u32(&r);
            w->cells[c][1] = bb_u32(&r);
        }
        w->direction = (Direction)bb_variant(&r, 4);
    }
    o->legal_count = bb_len(&r, WORMS_MAX_LEGAL, "legal (WORMS_MAX_LEGAL)");
    for (uint32_t i = 0; i < o->legal_count; i++) {
        o->legal[i].worm = bb_u32(&r);
        o->legal[i].turn = (Turn)bb_variant(&r, 3);
    }
    if (!bb_done(&r)) return BB_BAD_INPUT;

    Move m = choose_move(o);
    bb_begin();
    bb_put_u64(m.worm);
    bb_put_u64((uint32_t)m.turn);
    return bb_finish();
}

#endif

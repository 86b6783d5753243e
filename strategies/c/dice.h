/* dice.h: the dice part of the C SDK, Mensch aergere Dich nicht, free variant (rules: docs/dice.md;
 * wire types: strategies/sdk/src/dice.rs).
 *
 * The bot defines one function, called after a roll that leaves a choice (two or more moves):
 *     Move choose_move(const Observation *obs);
 * and answers one of obs->legal, without its `captures`.
 *
 * Places are counted in the player's own steps: -1 waiting off the board (B), 0 the start field A,
 * 1..39 the track, 40..43 the goal. The opponent's track step s is the asker's (s + 20) % 40. */
#ifndef BOTBOX_DICE_H
#define BOTBOX_DICE_H
#include "botbox.h"

#ifndef DICE_MAX_FACES
#define DICE_MAX_FACES 256 /* faces of a die; #define it before the #include to change it */
#endif
#define DICE_MAX_PIECES 4
#define DICE_MAX_LEGAL 16

#define DICE_WAITING (-1) /* the step of a piece on B */
#define DICE_START 0      /* the start field A */
#define DICE_GOAL 40      /* the first goal field; the track is 1..39 */
#define DICE_LAST 43      /* the last goal field */

/* The answer: the piece on step `from` (-1 for one brought in from B) moves to step `to`. */
typedef struct { int32_t from, to; } Move;

/* A legal move as the observation lists it. */
typedef struct {
    int32_t from, to;
    bool captures; /* it lands on an opponent's piece, sending it back to B */
} LegalMove;

typedef struct {
    uint32_t you;       /* 0 plays die A, 1 die B */
    uint32_t turn;      /* rolls so far, both players', this one not counted */
    uint64_t face;      /* the face rolled */
    uint32_t steps;     /* the steps it moves (the face, or 44 for a face too large to move) */
    uint32_t die_count, opponent_die_count;
    uint64_t die[DICE_MAX_FACES];          /* your die's faces, each equally likely */
    uint64_t opponent_die[DICE_MAX_FACES];
    uint32_t mine_count, theirs_count, theirs_on_my_track_count;
    int32_t mine[DICE_MAX_PIECES];         /* your pieces in your steps, frontmost first */
    int32_t theirs[DICE_MAX_PIECES];       /* the opponent's, in THEIR steps, frontmost first */
    int32_t theirs_on_my_track[DICE_MAX_PIECES]; /* their pieces on the track, in your steps */
    uint32_t legal_count;
    LegalMove legal[DICE_MAX_LEGAL];       /* frontmost piece first */
} Observation;

Move choose_move(const Observation *obs);

/* The export: decode the observation, ask the bot, encode its answer. */
static Observation bb_obs;

BOTBOX_EXPORT("choose_move") int64_t bb_choose_move(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    Observation *o = &bb_obs;
    o->you = bb_u32(&r);
    o->turn = bb_u32(&r);
    o->face = bb_u64(&r);
    o->steps = bb_u32(&r);
    o->die_count = bb_len(&r, DICE_MAX_FACES, "die (DICE_MAX_FACES)");
    for (uint32_t i = 0; i < o->die_count; i++) o->die[i] = bb_u64(&r);
    o->opponent_die_count = bb_len(&r, DICE_MAX_FACES, "opponent_die (DICE_MAX_FACES)");
    for (uint32_t i = 0; i < o->opponent_die_count; i++) o->opponent_die[i] = bb_u64(&r);
    o->mine_count = bb_len(&r, DICE_MAX_PIECES, "mine (DICE_MAX_PIECES)");
    for (uint32_t i = 0; i < o->mine_count; i++) o->mine[i] = bb_i32(&r);
    o->theirs_count = bb_len(&r, DICE_MAX_PIECES, "theirs (DICE_MAX_PIECES)");
    for (uint32_t i = 0; i < o->theirs_count; i++) o->theirs[i] = bb_i32(&r);
    o->theirs_on_my_track_count =
        bb_len(&r, DICE_MAX_PIECES, "theirs_on_my_track (DICE_MAX_PIECES)");
    for (uint32_t i = 0; i < o->theirs_on_my_track_count; i++) o->theirs_on_my_track[i] = bb_i32(&r);
    o->legal_count = bb_len(&r, DICE_MAX_LEGAL, "legal (DICE_MAX_LEGAL)");
    for (uint32_t i = 0; i < o->legal_count; i++) {
        o->legal[i].from = bb_i32(&r);
        o->legal[i].to = bb_i32(&r);
        o->legal[i].captures = bb_bool(&r);
    }
    if (!bb_done(&r)) return BB_BAD_INPUT;

    Move m = choose_move(o);
    bb_begin();
    bb_put_i32(m.from);
    bb_put_i32(m.to);
    return bb_finish();
}

#endif

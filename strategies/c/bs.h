/* bs.h: the BS (Cheat) part of the C SDK (rules: docs/bs.md; wire types: strategies/sdk/src/bs.rs).
 *
 * The bot defines two functions, and a third if it wants the table's public events:
 *     Cards play(const PlayObservation *obs);  your turn: 1 or more distinct card ids from your hand,
 *                                               claimed to be of rank obs->rank
 *     bool call(const CallObservation *obs);    someone else played: true calls "BS"
 *     void observe(const Event *event);         optional: every public event, in game order. To get
 *                                               them, write `#define BS_OBSERVE` before
 *                                               `#include "bs.h"` (else the module does not export
 *                                               observe, and the host sends no events)
 * Card ids are 0..51 and a card's rank is id / 4 (rank(id)). Hands are in hand order: as dealt, with
 * picked-up cards appended at the end. Seats count from 0. */
#ifndef BOTBOX_BS_H
#define BOTBOX_BS_H
#include "botbox.h"

#define BS_CARDS 52
#define BS_RANKS 13
#define BS_MAX_PLAYERS 8   /* a table has 4 */
#ifndef BS_MAX_NAME
#define BS_MAX_NAME 128 /* a player's name with its final 0 (#define it before the #include to change) */
#endif

/* The rank of card `id`: 0 to 12. */
static inline uint32_t rank(uint32_t id) { return id / 4; }

/* A list of card ids: play's answer, and the cards a call turned face up. */
typedef struct {
    uint32_t count;
    uint32_t ids[BS_CARDS];
} Cards;

typedef struct {
    uint32_t you;                                /* your seat */
    uint32_t player_count;
    char players[BS_MAX_PLAYERS][BS_MAX_NAME];   /* the strategies' names by seat */
    uint32_t round;                              /* rounds completed (1000 end the game, no winner) */
    uint32_t turn;                               /* turns played so far, all seats' */
    uint32_t rank;                               /* the rank you must claim */
    Cards hand;                                  /* your hand, in hand order */
    uint32_t hand_sizes_count;
    uint32_t hand_sizes[BS_MAX_PLAYERS];         /* every seat's hand size */
    uint32_t pile;                               /* cards on the discard pile */
} PlayObservation;

typedef struct {
    uint32_t you;
    uint32_t player_count;
    char players[BS_MAX_PLAYERS][BS_MAX_NAME];
    uint32_t round;
    uint32_t turn;
    uint32_t player;                             /* the seat that played */
    uint32_t rank;                               /* the rank claimed */
    uint32_t count;                              /* how many cards were played (always true) */
    uint32_t player_hand;                        /* the player's hand size after the play */
    uint32_t pile;                               /* cards on the pile, the played ones included */
    Cards hand;                                  /* your hand */
    uint32_t hand_sizes_count;
    uint32_t hand_sizes[BS_MAX_PLAYERS];         /* every seat's hand size after the play */
} CallObservation;

typedef enum { EVENT_PLAY = 0, EVENT_NO_CALL = 1, EVENT_CALL = 2, EVENT_ROUND_END = 3 } EventType;

/* A public event: `type` says which member of the union holds it. */
typedef struct {
    EventType type;
    union {
        struct { uint32_t turn, player, rank, count, hand_size, pile; } play; /* hand_size and pile
                                                                                  after the play */
        struct { uint32_t turn, player; } no_call; /* nobody called on the last play */
        struct {
            uint32_t turn, player, caller; /* caller was chosen among those who called */
            bool lie;                      /* some played card was not of the claimed rank */
            Cards cards;                   /* the played cards, turned face up */
            uint32_t taker, taken;         /* who took the pile (the liar, or a wrong caller), how many */
            bool reward;                   /* after a lie the caller put one random card down as the
                                              new pile */
        } call;
        struct { uint32_t round; } round_end; /* `round` rounds are complete */
    };
} Event;

Cards play(const PlayObservation *obs);
bool call(const CallObservation *obs);
#ifdef BS_OBSERVE
void observe(const Event *event);
#endif

/* ---- The exports: decode the input, ask the bot, encode its answer ---- */

static void bb_cards(BbReader *r, Cards *c, const char *what) {
    c->count = bb_len(r, BS_CARDS, what);
    for (uint32_t i = 0; i < c->count; i++) c->ids[i] = bb_u32(r);
}

static uint32_t bb_players(BbReader *r, char names[][BS_MAX_NAME]) {
    uint32_t n = bb_len(r, BS_MAX_PLAYERS, "players (BS_MAX_PLAYERS)");
    for (uint32_t i = 0; i < n; i++) bb_str(r, names[i], BS_MAX_NAME, "a player's name (BS_MAX_NAME)");
    return n;
}

static uint32_t bb_sizes(BbReader *r, uint32_t *sizes) {
    uint32_t n = bb_len(r, BS_MAX_PLAYERS, "hand_sizes (BS_MAX_PLAYERS)");
    for (uint32_t i = 0; i < n; i++) sizes[i] = bb_u32(r);
    return n;
}

static PlayObservation bb_play_obs;
static CallObservation bb_call_obs;

BOTBOX_EXPORT("play") int64_t bb_play(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    PlayObservation *o = &bb_play_obs;
    o->you = bb_u32(&r);
    o->player_count = bb_players(&r, o->players);
    o->round = bb_u32(&r);
    o->turn = bb_u32(&r);
    o->rank = bb_u32(&r);
    bb_cards(&r, &o->hand, "hand (BS_CARDS)");
    o->hand_sizes_count = bb_sizes(&r, o->hand_sizes);
    o->pile = bb_u32(&r);
    if (!bb_done(&r)) return BB_BAD_INPUT;

    Cards cards = play(o);
    bb_begin();
    bb_put_u64(cards.count);
    for (uint32_t i = 0; i < cards.count && i < BS_CARDS; i++) bb_put_u64(cards.ids[i]);
    return bb_finish();
}

BOTBOX_EXPORT("call") int64_t bb_call(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    CallObservation *o = &bb_call_obs;
    o->you = bb_u32(&r);
    o->player_count = bb_players(&r, o->players);
    o->round = bb_u32(&r);
    o->turn = bb_u32(&r);
    o->player = bb_u32(&r);
    o->rank = bb_u32(&r);
    o->count = bb_u32(&r);
    o->player_hand = bb_u32(&r);
    o->pile = bb_u32(&r);
    bb_cards(&r, &o->hand, "hand (BS_CARDS)");
    o->hand_sizes_count = bb_sizes(&r, o->hand_sizes);
    if (!bb_done(&r)) return BB_BAD_INPUT;

    bool answer = call(o);
    bb_begin();
    bb_put_u8(answer ? 1 : 0);
    return bb_finish();
}

#ifdef BS_OBSERVE
static Event bb_event;

/* Events answer nothing: zero bytes. */
BOTBOX_EXPORT("observe") int64_t bb_observe(const uint8_t *ptr, int32_t len) {
    BbReader r = bb_reader(ptr, len);
    Event *e = &bb_event;
    e->type = (EventType)bb_variant(&r, 4);
    switch (e->type) {
    case EVENT_PLAY:
        e->play.turn = bb_u32(&r);
        e->play.player = bb_u32(&r);
        e->play.rank = bb_u32(&r);
        e->play.count = bb_u32(&r);
        e->play.hand_size = bb_u32(&r);
        e->play.pile = bb_u32(&r);
        break;
    case EVENT_NO_CALL:
        e->no_call.turn = bb_u32(&r);
        e->no_call.player = bb_u32(&r);
        break;
    case EVENT_CALL:
        e->call.turn = bb_u32(&r);
        e->call.player = bb_u32(&r);
        e->call.caller = bb_u32(&r);
        e->call.lie = bb_bool(&r);
        bb_cards(&r, &e->call.cards, "cards (BS_CARDS)");
        e->call.taker = bb_u32(&r);
        e->call.taken = bb_u32(&r);
        e->call.reward = bb_bool(&r);
        break;
    case EVENT_ROUND_END:
        e->round_end.round = bb_u32(&r);
        break;
    }
    if (!bb_done(&r)) return BB_BAD_INPUT;

    observe(e);
    bb_begin();
    return bb_finish();
}
#endif

#endif

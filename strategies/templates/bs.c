/* A BS (Cheat) bot for botbox, in C. Build: sh build.sh (writes bot.wasm). Check it: botbox check bs .
 * play(obs): obs->rank is the rank you must claim, obs->hand your card ids (rank = id / 4).
 *   Answer Cards: 1 to 4 card ids from your hand.
 * call(obs): someone played obs->count cards claiming obs->rank. Answer true to call "BS".
 * observe(event) (optional): every public event, for counting cards: #define BS_OBSERVE before the
 *   #include below and define void observe(const Event *event).
 * The SDK is bs.h and botbox.h; docs/bots/c.md has the whole API. */
#include "bs.h"

Cards play(const PlayObservation *obs) {
    Cards cards = { 0 };
    for (uint32_t i = 0; i < obs->hand.count; i++) {
        uint32_t id = obs->hand.ids[i];
        if (id / 4 == obs->rank && cards.count < 4) cards.ids[cards.count++] = id;
    }
    if (cards.count == 0) cards.ids[cards.count++] = obs->hand.ids[0]; /* a lie: one card */
    return cards;
}

bool call(const CallObservation *obs) {
    return obs->count >= 3;
}

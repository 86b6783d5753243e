// botbox: what this copy of Luau changes, so that a game is a function of its program, setup and seed.
// See vendor/luau0-src/BOTBOX.md for the whole list and why.
#pragma once

#include "lobject.h"
#include "lstate.h"

// Every table, function, userdata, thread, buffer, class and class object has an identity (`hid`), a
// number that tables hash instead of its address and that `tostring` prints:
// - objects made while the state is built (libraries, the host's modules and wrappers, the loaded
//   chunk) are numbered when they are made, from BOTBOX_BUILTIN on: the build runs the same code in
//   every process, so they get the same numbers;
// - objects made once the first game began start without one (0) and get the next number of the
//   game's counter when they first become a table key or are printed by `tostring`. The host restarts
//   the counter at 1 at the start of every game (registry["botbox.begin_game"]), so a game's objects
//   are numbered by the order in which the game first used them, whatever else (the host, mlua's own
//   bookkeeping, earlier games on a reused state) made objects in between.
// A lookup with an object that has no number finds nothing, rightly: it was never a key. Two objects
// may share a number (one left from an earlier game on the state): that only puts them in one hash
// chain, in an order that is itself deterministic, and equality is still by address.
#define BOTBOX_BUILTIN 0x80000000u

// `__mode` has no effect: what a weak table held would depend on when the collector last ran.
#define BOTBOX_STRONG_TABLES 1

#define botbox_stamp(L, o) ((o)->hid = (L)->global->botbox_building ? (L)->global->botbox_nextid++ : 0u)

// Where an object keeps its identity; nullptr for strings (hashed by content) and internal objects.
inline uint32_t* botbox_slot(GCObject* o)
{
    switch (o->gch.tt)
    {
    case LUA_TTABLE:
        return &o->h.hid;
    case LUA_TFUNCTION:
        return &o->cl.hid;
    case LUA_TUSERDATA:
        return &o->u.hid;
    case LUA_TTHREAD:
        return &o->th.hid;
    case LUA_TBUFFER:
        return &o->buf.hid;
    case LUA_TCLASS:
        return &o->lclass.hid;
    case LUA_TOBJECT:
        return &o->lobject.hid;
    default:
        return nullptr;
    }
}

// The object's identity, numbering it now if it has none yet.
inline uint32_t botbox_identify(lua_State* L, GCObject* o)
{
    uint32_t* slot = botbox_slot(o);
    if (!slot)
        return uint32_t(uintptr_t(o));
    if (*slot == 0)
        *slot = L->global->botbox_nextid++;
    return *slot;
}

// What a table hashes for a collectable key (never a string).
inline const void* botbox_key(GCObject* o)
{
    uint32_t* slot = botbox_slot(o);
    return slot ? (const void*)uintptr_t(*slot) : (const void*)o;
}

// Registers registry["botbox.begin_game"]; called once while the state is made.
void botbox_open(lua_State* L);

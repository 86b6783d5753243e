// botbox: per-game object identities (lbotbox.h).
#include "lbotbox.h"

#include "lua.h"
#include "lualib.h"

// registry["botbox.begin_game"](): the state is built; this game's objects are numbered from 1.
static int botbox_begingame(lua_State* L)
{
    L->global->botbox_building = 0;
    L->global->botbox_nextid = 1;
    return 0;
}

// The interrupt that counts ticks (function calls, loop iterations) while the host's own runs once
// every `botbox_period` ticks: the host's (mlua's) costs tens of instructions a call, which was a
// tenth of a BS game's time when it ran at every tick. The interpreter calls it at every tick; x64
// native code counts the tick itself (`botbox_countdown`, decremented inline) and calls it only at
// the tick that would bring the count to zero, having undone its decrement (IrLoweringX64.cpp,
// IrCmd::INTERRUPT): either way each tick is counted once and the host's interrupt runs at the same
// ticks. In the every-tick mode the count is kept at 1, so that native code calls it at every tick.
static void botbox_interrupt(lua_State* L, int gc)
{
    global_State* g = L->global;
    if (gc >= 0 || (--g->botbox_countdown > 0 && !g->botbox_everytick))
        return;
    g->botbox_countdown = g->botbox_everytick ? 1 : g->botbox_period;
    g->botbox_inner(L, gc);
}

// registry["botbox.count_ticks"](period): from now on the interrupt the host has set runs once every
// `period` ticks, counted from the last registry["botbox.reset_ticks"](). Call it after setting the
// host's interrupt, and again whenever the host sets another.
static int botbox_countticks(lua_State* L)
{
    int period = luaL_checkinteger(L, 1);
    luaL_argcheck(L, period >= 1, 1, "the period must be at least 1");
    global_State* g = L->global;
    if (g->cb.interrupt != botbox_interrupt)
    {
        luaL_argcheck(L, g->cb.interrupt != NULL, 1, "no interrupt is set");
        g->botbox_inner = g->cb.interrupt;
        g->cb.interrupt = botbox_interrupt;
    }
    g->botbox_period = period;
    g->botbox_countdown = period;
    g->botbox_everytick = 0;
    return 0;
}

// registry["botbox.reset_ticks"](): the host's interrupt runs after `period` more ticks. Called at
// the start of every call into a strategy, so that where it runs depends only on that call.
static int botbox_resetticks(lua_State* L)
{
    L->global->botbox_countdown = L->global->botbox_period;
    L->global->botbox_everytick = 0;
    return 0;
}

// registry["botbox.every_tick"](): the host's interrupt runs at every tick until the next reset. The
// host calls it once a call is over its limits: its interrupt then raises an error at every tick, so
// that no `pcall` can catch them all (one every `period` ticks could always fall inside one).
static int botbox_everytick(lua_State* L)
{
    L->global->botbox_everytick = 1;
    L->global->botbox_countdown = 1;
    return 0;
}

void botbox_open(lua_State* L)
{
    lua_pushcfunction(L, botbox_begingame, "begin_game");
    lua_setfield(L, LUA_REGISTRYINDEX, "botbox.begin_game");
    lua_pushcfunction(L, botbox_countticks, "count_ticks");
    lua_setfield(L, LUA_REGISTRYINDEX, "botbox.count_ticks");
    lua_pushcfunction(L, botbox_resetticks, "reset_ticks");
    lua_setfield(L, LUA_REGISTRYINDEX, "botbox.reset_ticks");
    lua_pushcfunction(L, botbox_everytick, "every_tick");
    lua_setfield(L, LUA_REGISTRYINDEX, "botbox.every_tick");
}

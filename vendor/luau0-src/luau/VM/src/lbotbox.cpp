// botbox: per-game object identities (lbotbox.h).
#include "lbotbox.h"

#include "lua.h"

// registry["botbox.begin_game"](): the state is built; this game's objects are numbered from 1.
static int botbox_begingame(lua_State* L)
{
    L->global->botbox_building = 0;
    L->global->botbox_nextid = 1;
    return 0;
}

void botbox_open(lua_State* L)
{
    lua_pushcfunction(L, botbox_begingame, "begin_game");
    lua_setfield(L, LUA_REGISTRYINDEX, "botbox.begin_game");
}

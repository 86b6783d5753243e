use super::*;
use crate::games::bs::{Game, policy};
use crate::runtime::Payload;
use crate::runtime::lua::convert::lua_to_json;
use mlua::Table;

/// `payload`'s table through the real entry point equals its JSON shape; `fast` says whether it
/// took the packed path.
fn same_shape(lua: &Lua, payload: &impl Payload, fast: bool, packed: Option<Prepared<'_>>) {
    assert_eq!(
        packed.is_some(),
        fast,
        "{}",
        serde_json::to_value(payload).unwrap()
    );
    assert_eq!(
        lua_to_json(&payload.to_lua(lua).unwrap()).unwrap(),
        serde_json::to_value(payload).unwrap()
    );
}

/// Through the call path, `obs.players` is one read-only table for all of a game's calls, and
/// another game (another module) gets its own.
#[test]
fn players_is_one_read_only_table_per_game() {
    let lua = Lua::new();
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let obs = Game::new(3).play_observation(&names);
    let (wrapper, describe): (Function, Function) = lua
        .load("return function(f, obs) return f(obs) end, tostring")
        .eval()
        .unwrap();
    let seen = lua.create_table().unwrap();
    lua.globals().set("seen", &seen).unwrap();
    let module = || -> Table {
        lua.load(
            "return {play = function(obs)
               table.insert(seen, obs.players)
               seen.wrote = pcall(function() obs.players[1] = 'x' end)
               return {obs.hand[1]}
             end}",
        )
        .eval()
        .unwrap()
    };
    let key = lua.create_string("play").unwrap();
    let (first, second) = (module(), module());
    for (game, module) in [(1, &first), (1, &first), (2, &second)] {
        let call = LuaCall {
            lua: &lua,
            wrapper: &wrapper,
            describe: &describe,
            module,
            key: &key,
            game,
            function: 0,
        };
        let (ok, answer) = play_observation(&obs)
            .unwrap()
            .call(&call)
            .unwrap()
            .unwrap();
        assert!(ok);
        assert_eq!(card_list(&answer).unwrap(), [obs.hand[0]]);
    }
    let tables: Vec<Table> = (1..=3).map(|i| seen.get(i).unwrap()).collect();
    assert_eq!(tables[0].to_pointer(), tables[1].to_pointer());
    assert_ne!(tables[0].to_pointer(), tables[2].to_pointer());
    assert!(!seen.get::<bool>("wrote").unwrap());
    assert_eq!(tables[2].get::<String>(1).unwrap(), "a");
}

#[test]
fn the_fast_tables_equal_the_json_shape() {
    let lua = Lua::new();
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let mut game = Game::new(3);
    let mut events = 0;
    policy::play_out(
        &mut game,
        |g| {
            let obs = g.play_observation(&names);
            same_shape(&lua, &obs, true, play_observation(&obs));
            policy::honest_or_oldest(g.hand(g.to_move()), g.required_rank())
        },
        |g, seat, count| {
            let obs = g.call_observation(seat, &names).unwrap();
            same_shape(&lua, &obs, true, call_observation(&obs));
            count >= 2
        },
        |_, r| {
            for e in [Some(r.event()), r.round_end()].into_iter().flatten() {
                same_shape(&lua, &e, true, event(&e));
                events += 1;
            }
        },
    );
    assert!(events > 4);
    let names2: Vec<String> = ["e", "f", "g", "h"].map(String::from).to_vec();
    let rebound = game.play_observation(&names2);
    same_shape(&lua, &rebound, true, play_observation(&rebound));
    let mut odd = game.play_observation(&names);
    odd.turn = 70_000;
    same_shape(&lua, &odd, false, play_observation(&odd));
    odd.players.pop();
    odd.turn = 5;
    same_shape(&lua, &odd, false, play_observation(&odd));
    let call = Event::Call {
        turn: 300,
        player: 3,
        caller: 0,
        lie: true,
        cards: vec![51, 0, 7],
        taker: 3,
        taken: 40,
        reward: true,
    };
    same_shape(&lua, &call, true, event(&call));
    let round = Event::RoundEnd { round: 1000 };
    same_shape(&lua, &round, true, event(&round));
    let play = Event::Play {
        turn: 1,
        player: 1,
        rank: 1,
        count: 2,
        hand_size: 11,
        pile: 2,
    };
    same_shape(&lua, &play, true, event(&play));
}

#[test]
fn card_lists_are_read_strictly() {
    let lua = Lua::new();
    let read = |src: &str| card_list(&lua.load(src).eval::<Value>().unwrap());
    assert_eq!(read("return {3, 7.0, 51}"), Ok(vec![3, 7, 51]));
    assert_eq!(read("return {}"), Ok(vec![]));
    assert!(read("return nil").unwrap_err().contains("nil"));
    assert!(
        read("return {1, 2, x = 3}")
            .unwrap_err()
            .contains("plain list")
    );
    assert!(read("return {1.5}").unwrap_err().contains("1.5"));
    assert!(read("return {-1}").unwrap_err().contains("-1"));
    assert!(read("return {'a'}").unwrap_err().contains("string"));
    assert!(read("return {[1] = 4, [3] = 5}").is_err(), "holes");
}

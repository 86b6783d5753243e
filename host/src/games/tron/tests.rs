//! Tron's rule vectors (docs/tron.md, "Turns"): each names the rule it checks.

use serde_json::json;

use super::contract::TronRules;
use super::{End, Game, Map, Move};
use crate::games::contract::{Rules, Variant};

use Move::{East, North, South, West};

/// A game on `map` (text, `1` and `2` the starts).
fn game(map: &str) -> Game {
    Game::new(&Map::parse(map).unwrap())
}

#[test]
fn a_head_on_meeting_crashes_both_a_draw() {
    // Both step into the middle cell.
    let mut g = game("1.2\n...\n...\n");
    assert_eq!(g.step([Some(East), Some(West)]), [true, true]);
    assert_eq!(g.end(), Some(End::BothCrashed));
}

#[test]
fn two_players_that_swap_cells_both_crash() {
    // Each enters the cell the other just left, which became a wall first.
    let mut g = game("12.\n...\n...\n");
    assert_eq!(g.step([Some(East), Some(West)]), [true, true]);
    assert_eq!(g.end(), Some(End::BothCrashed));
}

#[test]
fn both_crashing_into_walls_on_the_same_turn_is_a_draw() {
    let mut g = game("1#.\n...\n.#2\n");
    assert_eq!(g.step([Some(East), Some(West)]), [true, true]);
    assert_eq!(g.end(), Some(End::BothCrashed));
}

#[test]
fn nobody_enters_the_cell_the_other_is_leaving() {
    // Seat 0 follows seat 1 into the cell seat 1 leaves: it is a wall (seat 1's trail).
    let mut g = game("12.\n...\n...\n");
    assert_eq!(g.step([Some(East), Some(East)]), [true, false]);
    assert_eq!(g.end(), Some(End::Won(1)));
}

#[test]
fn the_edge_is_a_wall() {
    // Outside the grid counts as wall, on every side.
    for (mv, start, other) in [
        (North, "1.2\n...\n...\n", South),
        (West, "1..\n...\n..2\n", West),
    ] {
        let mut g = game(start);
        assert_eq!(g.step([Some(mv), Some(other)]), [true, false], "{mv:?}");
        assert_eq!(g.end(), Some(End::Won(1)));
    }
    let mut g = game("...\n...\n1.2\n");
    assert_eq!(g.step([Some(North), Some(South)]), [false, true]);
    assert_eq!(g.end(), Some(End::Won(0)));
}

#[test]
fn reversing_into_the_cell_you_came_from_crashes() {
    let mut g = game("1....\n.....\n....2\n");
    assert_eq!(g.step([Some(East), Some(West)]), [false, false]);
    assert_eq!(g.step([Some(West), Some(West)]), [true, false]);
    assert_eq!(g.end(), Some(End::Won(1)));
}

#[test]
fn trails_are_walls_for_both() {
    // Seat 1 turns into the trail seat 0 left two turns before.
    let mut g = game(".....\n1....\n.....\n....2\n");
    assert_eq!(g.step([Some(East), Some(North)]), [false, false]);
    assert_eq!(g.step([Some(East), Some(North)]), [false, false]);
    // Seat 1 is at (1, 4); seat 0 at (1, 2), its trail at (1, 0) and (1, 1).
    assert_eq!(g.heads(), [(1, 2), (1, 4)]);
    assert_eq!(g.step([Some(South), Some(West)]), [false, false]);
    assert_eq!(
        g.step([Some(East), Some(West)]),
        [false, true],
        "(1, 2) is a trail"
    );
}

#[test]
fn a_fault_is_a_crash_and_a_draw_if_the_other_crashes_too() {
    let mut g = game("1.2\n...\n...\n");
    assert_eq!(g.step([None, Some(South)]), [true, false]);
    assert_eq!(g.end(), Some(End::Won(1)));
    let mut g = game("1.2\n...\n...\n");
    assert_eq!(g.step([None, Some(North)]), [true, true]);
    assert_eq!(g.end(), Some(End::BothCrashed));
}

#[test]
fn the_turn_limit_is_width_times_height() {
    // Two riders circling forever cannot exist, so shrink the limit's use to a check of its value:
    // a 3 x 3 board has room for 4 turns at most before someone crashes.
    let mut g = game("1..\n...\n..2\n");
    let mut turns = 0;
    while g.end().is_none() {
        let moves = [0, 1].map(|s| g.safe_moves(s).first().copied());
        g.step(moves);
        turns += 1;
    }
    assert!(turns <= 9, "{turns}");
}

#[test]
fn maps_are_checked_with_their_line() {
    for (text, said) in [
        ("1.\n..\n", "the map has 2 rows"),
        ("1..\n....\n..2\n", "line 2: 4 cells"),
        ("1..\n.x.\n..2\n", "line 2: 'x' is not a cell"),
        ("1..\n.1.\n..2\n", "line 2: a second start `1`"),
        ("...\n...\n..2\n", "no start `1`"),
    ] {
        let err = Map::parse(text).unwrap_err();
        assert!(err.contains(said), "{text:?}: {err}");
    }
    // Spaces are free cells, and an unframed map is bounded by the edge.
    let map = Map::parse("1  \n   \n  2\n").unwrap();
    assert_eq!(map.walls().iter().filter(|w| **w).count(), 0);
}

#[test]
fn the_bundled_maps_favour_neither_side() {
    for v in TronRules.variants() {
        let map = TronRules::map(&Variant::named(&v.name)).unwrap();
        assert!(map.point_symmetric(), "{}", v.name);
    }
    assert!(
        TronRules::map(&Variant::named("nowhere"))
            .unwrap_err()
            .contains("arena, pillars, walls")
    );
}

#[test]
fn a_held_answer_is_seen_by_nobody_and_the_second_resolves_the_turn() {
    let mut m = TronRules.start(&Variant::named("arena"), 2, 1).unwrap();
    let before = [m.observation(0), m.observation(1)];
    assert_eq!(m.turn().unwrap().seat, 0);
    assert_eq!(m.apply(&json!("north")).unwrap(), json!({"held": true}));
    assert_eq!(m.turn().unwrap().seat, 1);
    assert_eq!([m.observation(0), m.observation(1)], before);
    let event = m.apply(&json!("south")).unwrap();
    assert_eq!(
        event,
        json!({"moves": ["north", "south"], "crashed": [false, false]})
    );
    assert_eq!(m.observation(0)["turn"], 1);
    assert!(matches!(
        m.apply(&json!("up")),
        Err(crate::games::contract::Refusal::Malformed(_))
    ));
    // A fault is the seat's move: it crashes, and the other wins.
    assert_eq!(
        m.fault_move(0).unwrap(),
        json!({"held": true}),
        "seat 0's crash is held like a move"
    );
    m.apply(&json!("east")).unwrap();
    assert_eq!(m.outcome().unwrap().points, [0.0, 1.0]);
}

/// The whole way, through the driver, the replay and its reader: a rider whose strategy faults
/// crashes on that turn, and when the other crashes on the same turn the game is a draw for both;
/// the replay marks the fault and re-plays.
#[test]
fn a_fault_on_a_turn_the_other_crashes_is_a_draw_and_its_replay_replays() {
    use crate::tournament::runner::{Entry, Playable, Scheduled, record};
    use crate::tournament::versus::Versus;

    let dir = std::env::temp_dir().join(format!("botbox-tron-fault-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bot = |name: &str, body: &str| {
        let file = dir.join(name);
        std::fs::write(
            &file,
            format!("return {{ choose_move = function(obs) {body} end }}\n"),
        )
        .unwrap();
        Entry {
            name: name.trim_end_matches(".lua").into(),
            strategy: crate::hosted::load(&file, &crate::runtime::Limits::default()).unwrap(),
        }
    };
    let faulty = bot("faulty.lua", "error('boom')");
    let north = bot("north.lua", "return 'north'");
    // Both start on the top row: north leaves the grid at once.
    let map = Variant {
        name: "top".into(),
        text: Some("1.2\n...\n...\n".into()),
    };
    let versus = Versus::new(&super::RULES, vec![map], 0, 1).unwrap();
    let game = Scheduled {
        index: 0,
        seed: 7,
        seats: vec![0, 1],
        variant: 0,
        round: 0,
    };
    let entries = [faulty, north];
    let (ending, replay) = versus.play(&game, &[&entries[0], &entries[1]], true);
    assert_eq!(ending.winner, None, "{ending:?}");
    assert_eq!(ending.reason, "both crashed");
    assert!(ending.faults[0].is_some() && ending.faults[1].is_none());
    let game_record = record(&versus, &game, &entries, ending);
    assert_eq!((game_record.points(0), game_record.points(1)), (0.5, 0.5));

    let text = String::from_utf8(replay.unwrap().to_bytes()).unwrap();
    assert!(text.contains(r#""fault":true"#), "{text}");
    let file = crate::replay::parse(&text).unwrap();
    let shown = crate::view::replay::render(&file, None).unwrap();
    assert!(shown.contains("ended by both crashed"), "{shown}");
    // A forged replay that drops the fault's mark is refused.
    let forged = crate::replay::parse(&text.replace(r#","fault":true"#, "")).unwrap();
    assert!(crate::view::replay::render(&forged, None).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

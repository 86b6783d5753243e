//! The map format as tests: every problem the parser reports, with its line and column, then what it
//! accepts (comments, blank lines, CRLF, any order of the keyword lines), the round trip through
//! the text, and the example maps in `examples/worms/`.

use std::path::Path;

use super::*;

/// A valid map; the error cases below are small edits of it.
const VALID: &str = "turns 10\nAAA..\n..O..\n..aaa\nheads A:left a:right\n";

/// Checks that `text` is refused at `line`, `column` for `problem`.
fn check(text: &str, line: usize, column: usize, problem: Problem) {
    let expected = MapError {
        line,
        column,
        problem,
    };
    assert_eq!(Map::parse(text), Err(expected), "{text}");
}

#[test]
fn the_valid_map_parses() {
    let map = Map::parse(VALID).unwrap();
    assert_eq!((map.width(), map.height(), map.turns()), (5, 3, 10));
    assert_eq!(map.hole(), (1, 2));
    let a = WormStart {
        owner: 0,
        letter: 'A',
        cells: [(0, 0), (0, 1), (0, 2)],
    };
    let b = WormStart {
        owner: 1,
        letter: 'a',
        cells: [(2, 4), (2, 3), (2, 2)],
    };
    assert_eq!(map.worms(), [a, b]);
    assert_eq!(
        (a.direction(), b.direction()),
        (Direction::Left, Direction::Right)
    );
}

#[test]
fn the_turn_limit_is_required_once_and_a_positive_whole_number() {
    use Problem::*;
    check(
        "AAA..\n..O..\n..aaa\nheads A:left a:right",
        1,
        1,
        MissingTurns,
    );
    check("turns 10\nturns 12\nAAA..", 2, 1, DuplicateTurns);
    let bad = |text: &str| BadTurns { text: text.into() };
    check("turns x\nAAA..", 1, 7, bad("x"));
    check("turns 0\nAAA..", 1, 7, bad("0"));
    check("turns -3\nAAA..", 1, 7, bad("-3"));
    check("turns\nAAA..", 1, 6, bad(""));
    check("turns  5 6\nAAA..", 1, 8, bad("5 6"));
}

#[test]
fn unknown_characters_are_reported_where_they_are() {
    use Problem::UnknownChar;
    check("turns 10\nAAA..\n..O.?\n", 3, 5, UnknownChar { found: '?' });
    check("turns 10\nAAA..\n..O.o\n", 3, 5, UnknownChar { found: 'o' });
    check("turns 10\nAAA .\n", 2, 4, UnknownChar { found: ' ' });
    check("turns 10\n AAA.\n", 2, 1, UnknownChar { found: ' ' });
    check("turns 10\nAAA..\n..Ö..\n", 3, 3, UnknownChar { found: 'Ö' });
    check(
        "turns 10\nAAA..\n..O..\n1.aaa\n",
        4,
        1,
        UnknownChar { found: '1' },
    );
}

#[test]
fn rows_must_be_equally_long_and_consecutive() {
    use Problem::*;
    check("turns 10\nAAA..\n..O.\n", 3, 5, Ragged { len: 4, width: 5 });
    check(
        "turns 10\nAAA..\n..O...\n",
        3,
        6,
        Ragged { len: 6, width: 5 },
    );
    check("turns 10\nAAA..\n\n..O..\n", 4, 1, SplitGrid);
    check("turns 10\nAAA..\nheads A:left\n..O..\n", 4, 1, SplitGrid);
    check("turns 10\nheads A:left\n", 1, 1, NoGrid);
}

#[test]
fn the_grid_is_at_most_30_by_30() {
    use Problem::*;
    let wide = format!("turns 10\nAAA.O\n{}\n", ".".repeat(31));
    check(&wide, 3, 31, TooWide { width: 31 });
    let tall = format!("turns 10\n{}", "AAA.O\n".repeat(31));
    check(&tall, 32, 1, TooTall { height: 31 });
}

#[test]
fn a_map_has_exactly_one_hole() {
    use Problem::*;
    check(
        "turns 10\nAAA..\n.....\n..aaa\nheads A:left a:right",
        2,
        1,
        NoHole,
    );
    let two = "turns 10\nAAA..\n..O.O\n..aaa\nheads A:left a:right";
    check(two, 3, 5, TwoHoles { line: 3, column: 3 });
}

#[test]
fn a_worm_is_three_orthogonally_connected_cells() {
    use Problem::*;
    let map = |rows: &str| format!("turns 10\n{rows}\nheads A:left a:right");
    check(
        &map("AA...\n..O..\n..aaa"),
        2,
        1,
        WormLength {
            letter: 'A',
            count: 2,
        },
    );
    check(
        &map("AAAA.\n..O..\n..aaa"),
        2,
        4,
        WormLength {
            letter: 'A',
            count: 4,
        },
    );
    check(
        &map("A....\n..O..\n..aaa"),
        2,
        1,
        WormLength {
            letter: 'A',
            count: 1,
        },
    );
    check(&map("AA...\n..A..\nO.aaa"), 2, 1, WormShape { letter: 'A' });
    check(&map("A.A..\nA.O..\n..aaa"), 2, 1, WormShape { letter: 'A' });
    check(&map("AAA..\n..O..\na.a.a"), 4, 1, WormShape { letter: 'a' });
}

#[test]
fn each_player_has_one_to_twenty_worms() {
    use Problem::*;
    check(
        "turns 10\nAAA..\n..O..\n.....\nheads A:left",
        2,
        1,
        NoWorms { player: 2 },
    );
    check(
        "turns 10\naaa..\n..O..\n.....\nheads a:left",
        2,
        1,
        NoWorms { player: 1 },
    );
    // 21 vertical worms of player 1, lettered A to V without O: V is one too many.
    let letters: String = ('A'..='V').filter(|&c| c != 'O').collect();
    let rows = [
        &letters,
        &letters,
        &letters,
        &format!("Oaaa{}", ".".repeat(17)),
    ];
    let text = format!("turns 10\n{}\n", rows.map(String::as_str).join("\n"));
    check(
        &text,
        2,
        21,
        TooManyWorms {
            player: 1,
            count: 21,
        },
    );
}

#[test]
fn every_worm_has_one_head_at_one_of_its_ends() {
    use Problem::*;
    let map = |heads: &str| format!("turns 10\nAAA..\n..O..\n..aaa\nheads {heads}");
    check(&map("A:left"), 4, 3, MissingHead { letter: 'a' });
    check(
        &map("A-left a:right"),
        5,
        7,
        BadHead {
            text: "A-left".into(),
        },
    );
    check(
        &map("A:north a:right"),
        5,
        7,
        BadHead {
            text: "A:north".into(),
        },
    );
    check(
        &map("AB:left a:right"),
        5,
        7,
        BadHead {
            text: "AB:left".into(),
        },
    );
    check(
        &map("A:left a:right B:up"),
        5,
        22,
        UnknownWorm { letter: 'B' },
    );
    check(
        &map("A:left a:right A:left"),
        5,
        22,
        DuplicateHead { letter: 'A' },
    );
    let choices = [Direction::Left, Direction::Right];
    let wrong = HeadNotAnEnd {
        letter: 'A',
        direction: Direction::Up,
        choices,
    };
    check(&map("A:up a:right"), 5, 7, wrong);
}

#[test]
fn errors_name_the_line_the_column_and_the_problem() {
    let error = Map::parse("turns 10\nAAA..\n..O.?\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 3, column 5: '?' is not a cell: use . (free), # (obstacle), O (the hole), A-Z for \
         player 1's worms or a-z for player 2's (not O or o)"
    );
    let error = Map::parse("turns 10\nAAA..\n..O..\n..aaa\nheads A:up a:right").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 5, column 7: worm A cannot face up: its head is one of its end cells, so it faces \
         left or right"
    );
}

#[test]
fn comments_blank_lines_crlf_and_keyword_order_are_accepted() {
    let text = "; a map\r\n\r\nheads a:right\r\n; the grid\r\nAAA..  \r\n; inside\r\n..O..\r\n\
                ..aaa\r\n\r\nturns 10\r\nheads A:left\r\n";
    assert_eq!(Map::parse(text), Map::parse(VALID));
}

#[test]
fn a_map_written_as_text_parses_back_to_itself() {
    for (name, map) in example_maps() {
        let text = map.to_string();
        assert_eq!(Map::parse(&text).as_ref(), Ok(&map), "{name}");
    }
    let map = Map::parse(VALID).unwrap();
    assert_eq!(
        map.to_string(),
        "turns 10\nAAA..\n..O..\n..aaa\nheads A:left\nheads a:right\n"
    );
    assert_eq!(map.with_turns(99).turns(), 99);
}

/// Every map in `examples/worms/`, by file name.
pub(super) fn example_maps() -> Vec<(String, Map)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/worms");
    let mut maps: Vec<(String, Map)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let map = Map::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, map)
        })
        .collect();
    maps.sort_by(|a, b| a.0.cmp(&b.0));
    maps
}

#[test]
fn every_example_map_parses_and_is_fair_to_both_players() {
    let maps = example_maps();
    let names: Vec<&str> = maps.iter().map(|(name, _)| name.as_str()).collect();
    for wanted in ["tutorial.txt", "arena.txt", "maze.txt", "big.txt"] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    assert!(maps.len() >= 6, "only {names:?}");
    for (name, map) in &maps {
        let symmetry = map
            .symmetry()
            .unwrap_or_else(|| panic!("{name} is not symmetric"));
        // The image of worm X is worm x, so ids pair up too.
        for worm in map.worms() {
            let image = worm
                .cells
                .map(|p| symmetry.image(p, map.height(), map.width()));
            let partner = map.worms().iter().find(|w| w.cells == image).unwrap();
            let swapped = if worm.owner == 0 {
                worm.letter.to_ascii_lowercase()
            } else {
                worm.letter.to_ascii_uppercase()
            };
            assert_eq!(partner.letter, swapped, "{name}: worm {}", worm.letter);
        }
        assert_eq!(
            map.turns() % 2,
            0,
            "{name}: an odd limit gives player 1 an extra turn"
        );
    }
}

#[test]
fn the_tutorial_is_tiny_and_the_big_map_is_the_largest_allowed() {
    let maps = example_maps();
    let find = |wanted: &str| &maps.iter().find(|(name, _)| name == wanted).unwrap().1;
    let tutorial = find("tutorial.txt");
    assert_eq!((tutorial.worm_count(0), tutorial.worm_count(1)), (1, 1));
    let big = find("big.txt");
    assert_eq!((big.width(), big.height()), (MAX_SIDE, MAX_SIDE));
    assert_eq!(
        (big.worm_count(0), big.worm_count(1)),
        (MAX_WORMS, MAX_WORMS)
    );
}

//! The rules of `docs/connect4.md`, one named vector each (the docs' table lists the same ones), and
//! the contract: variants, decoding, a whole game through [`RULES`]. The seeded random games are in
//! `playouts.rs`.

use serde_json::{Value, json};

use super::*;
use crate::games::contract::{Refusal, Rules, Variant};
use crate::games::{derive_seed, rng};

/// What a rule vector ends in.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// Seat won with a line through these `[row, col]` cells (rows from the top), after all moves.
    Win(Seat, Vec<[u32; 2]>),
    /// A full board without a line.
    Draw,
    /// The game goes on.
    Open,
    /// The last move is refused and leaves the game as the moves before it made it.
    Refused(IllegalMove),
}

/// The rule vectors of `docs/connect4.md`: name, variant, moves (columns, one digit each), the end.
fn vectors() -> Vec<(&'static str, &'static str, &'static str, Expect)> {
    use Expect::*;
    vec![
        (
            "vertical",
            "standard",
            "0101010",
            Win(0, vec![[5, 0], [4, 0], [3, 0], [2, 0]]),
        ),
        (
            "horizontal",
            "standard",
            "0011223",
            Win(0, vec![[5, 0], [5, 1], [5, 2], [5, 3]]),
        ),
        (
            "diagonal rising to the right",
            "standard",
            "01122323363",
            Win(0, vec![[5, 0], [4, 1], [3, 2], [2, 3]]),
        ),
        (
            "diagonal falling to the right",
            "standard",
            "65544343303",
            Win(0, vec![[2, 3], [3, 4], [4, 5], [5, 6]]),
        ),
        (
            "the second player wins",
            "standard",
            "01010161",
            Win(1, vec![[5, 1], [4, 1], [3, 1], [2, 1]]),
        ),
        (
            "three in a row is not yet a win",
            "standard",
            "010101",
            Open,
        ),
        (
            "a full board without a line is a draw",
            "standard",
            "433333322222244444111111555555000006666660",
            Draw,
        ),
        (
            "the last piece can still win",
            "standard",
            "124652102540654152163404525462636011003333",
            Win(1, vec![[0, 0], [0, 1], [0, 2], [0, 3]]),
        ),
        (
            "a full column is refused",
            "standard",
            "0000000",
            Refused(IllegalMove::ColumnFull { column: 0 }),
        ),
        (
            "a column right of the grid is refused",
            "standard",
            "7",
            Refused(IllegalMove::NoSuchColumn {
                column: 7,
                columns: 7,
            }),
        ),
        (
            "no move after a win",
            "standard",
            "01010103",
            Refused(IllegalMove::GameOver),
        ),
        ("four is not five in 9x6-5", "9x6-5", "00112233", Open),
        (
            "five in a row wins in 9x6-5",
            "9x6-5",
            "001122334",
            Win(0, vec![[5, 0], [5, 1], [5, 2], [5, 3], [5, 4]]),
        ),
        (
            "three in a row wins in 5x4-3",
            "5x4-3",
            "01010",
            Win(0, vec![[3, 0], [2, 0], [1, 0]]),
        ),
    ]
}

pub(super) fn config(variant: &str) -> Config {
    RULES.config(variant).unwrap()
}

fn columns(moves: &str) -> Vec<u32> {
    moves.bytes().map(|b| u32::from(b - b'0')).collect()
}

#[test]
fn every_rule_vector_ends_as_the_docs_say() {
    for (name, variant, moves, expect) in vectors() {
        let mut game = Game::new(config(variant)).unwrap();
        let moves = columns(moves);
        let (last, before) = moves.split_last().unwrap();
        for &col in before {
            game.play(col)
                .unwrap_or_else(|e| panic!("{name}: {col}: {e}"));
        }
        let kept = game.clone();
        let result = game.play(*last);
        match expect {
            Expect::Refused(error) => {
                assert_eq!(result, Err(error), "{name}");
                assert_eq!(game, kept, "{name}: a refused move changed the game");
            }
            Expect::Open => {
                assert!(result.is_ok() && !game.is_over(), "{name}: {result:?}");
                assert_eq!(game.outcome(), None, "{name}");
            }
            Expect::Draw => {
                assert!(result.is_ok(), "{name}");
                let draw = Outcome {
                    winner: None,
                    reason: EndReason::BoardFull,
                };
                assert_eq!(game.outcome(), Some(draw), "{name}");
                assert_eq!(game.legal_moves(), Vec::<u32>::new());
            }
            Expect::Win(seat, line) => {
                let played = result.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(played.seat, seat, "{name}");
                let win = Outcome {
                    winner: Some(seat),
                    reason: EndReason::Line,
                };
                assert_eq!(game.outcome(), Some(win), "{name}");
                assert_eq!(game.winning_line(), Some(line), "{name}");
                assert!(game.legal_moves().is_empty(), "{name}");
            }
        }
    }
}

#[test]
fn a_piece_falls_to_the_lowest_empty_cell() {
    let mut game = Game::standard();
    let rows: Vec<u32> = [3, 3, 3, 0]
        .iter()
        .map(|&col| game.play(col).unwrap().row)
        .collect();
    assert_eq!(rows, [5, 4, 3, 5]);
    assert_eq!(game.cell(5, 3), Some(1));
    assert_eq!(game.cell(4, 3), Some(2));
    assert_eq!(game.cell(3, 3), Some(1));
    assert_eq!(game.cell(2, 3), Some(0));
    assert_eq!(game.cell(5, 0), Some(2));
    assert_eq!(game.cell(6, 0), None);
}

#[test]
fn seat_zero_has_mark_one_and_moves_first() {
    let mut game = Game::standard();
    assert_eq!(game.to_move(), 0);
    assert_eq!(game.observation(0).mark, 1);
    assert_eq!(game.observation(1).mark, 2);
    assert_eq!(game.play(2).unwrap().seat, 0);
    assert_eq!(game.to_move(), 1);
}

#[test]
fn shapes_are_checked_with_clear_errors() {
    assert_eq!(Config::new(7, 6, 4), Ok(Config::STANDARD));
    assert_eq!(Config::parse("7x6-4"), Ok(Config::STANDARD));
    assert_eq!(Config::STANDARD.to_string(), "7x6-4");
    // The largest boards: 8 x 8 bits, 12 x 5, 4 x 16.
    for (c, r) in [(8, 7), (12, 4), (4, 15), (9, 6), (10, 5), (6, 9), (5, 11)] {
        assert!(Config::new(c, r, 4).is_ok(), "{c}x{r}");
    }
    let too_large = Config::new(9, 7, 5).unwrap_err();
    assert_eq!(
        too_large,
        ConfigError::TooLarge {
            columns: 9,
            rows: 7
        }
    );
    assert!(
        too_large
            .to_string()
            .contains("72 is more than the 64 bits")
    );
    assert!(matches!(
        Config::new(3, 6, 3),
        Err(ConfigError::TooSmall { .. })
    ));
    assert!(matches!(
        Config::new(13, 4, 4),
        Err(ConfigError::TooLarge { .. })
    ));
    let inarow = Config::new(7, 6, 7).unwrap_err();
    assert!(inarow.to_string().contains("from 3 to 6"), "{inarow}");
    assert!(Config::new(7, 6, 2).is_err());
    for bad in [
        "7x6",
        "7-6-4",
        "x6-4",
        "7x6-",
        "7x6-4x",
        "+7x6-4",
        "99999x6-4",
        "",
    ] {
        assert_eq!(
            Config::parse(bad),
            Err(ConfigError::Name(bad.into())),
            "{bad}"
        );
    }
    assert!(
        Game::new(Config {
            columns: 20,
            rows: 20,
            inarow: 4
        })
        .is_err()
    );
}

// The contract.

fn start(variant: &str) -> Box<dyn crate::games::contract::Match> {
    RULES.start(&Variant::named(variant), 2, 0).unwrap()
}

#[test]
fn the_registry_lists_connect_four() {
    assert_eq!(RULES.name(), "connect4");
    assert_eq!(RULES.seats(), crate::games::contract::Seats::exactly(2));
    assert_eq!(RULES.functions(), ["choose_move"]);
    let names: Vec<String> = RULES.variants().into_iter().map(|v| v.name).collect();
    assert_eq!(names[0], "standard");
    for name in &names {
        assert!(RULES.start(&Variant::named(name), 2, 0).is_ok(), "{name}");
    }
    assert_eq!(config("7x6-4"), Config::STANDARD);
    assert_eq!(config("10x5-4"), Config::new(10, 5, 4).unwrap());
}

#[test]
fn bad_variants_and_seat_counts_are_refused_with_a_reason() {
    let error = |variant: &str, seats| match RULES.start(&Variant::named(variant), seats, 0) {
        Ok(_) => panic!("{variant} started"),
        Err(e) => e,
    };
    assert!(error("9x7-5", 2).contains("more than the 64 bits"));
    let unknown = error("giant", 2);
    assert!(
        unknown.contains("\"giant\"") && unknown.contains("standard") && unknown.contains("7x6-4"),
        "{unknown}"
    );
    assert!(error("7x6-9", 2).contains("from 3 to 6"));
    assert!(error("standard", 3).contains("2 players"));
    let file = Variant {
        name: "map.txt".into(),
        text: Some("x".into()),
    };
    assert!(RULES.start(&file, 2, 0).is_err());
}

#[test]
fn actions_are_decoded_and_checked() {
    let mut game = start("standard");
    for garbage in [
        json!("3"),
        json!(null),
        json!([3]),
        json!({"column": 3}),
        json!(2.5),
    ] {
        match game.apply(&garbage) {
            Err(Refusal::Malformed(m)) => {
                assert!(m.contains(&garbage.to_string()), "{m}");
                assert!(m.contains("column number from 0 to 6"), "{m}");
            }
            other => panic!("{garbage}: {other:?}"),
        }
    }
    for outside in [json!(7), json!(-1), json!(u64::MAX)] {
        match game.apply(&outside) {
            Err(Refusal::Illegal(m)) => assert!(m.contains("columns are 0 to 6"), "{m}"),
            other => panic!("{outside}: {other:?}"),
        }
    }
    let long = json!("x".repeat(10_000));
    let Err(Refusal::Malformed(m)) = game.apply(&long) else {
        panic!("a long string was not malformed");
    };
    assert!(m.len() < 200, "{m}");
    assert_eq!(game.moves(), 0, "refusals change nothing");
    assert_eq!(
        game.apply(&json!(3)),
        Ok(json!({"seat": 0, "column": 3, "row": 5}))
    );
    assert_eq!(
        game.apply(&json!(3.0)),
        Ok(json!({"seat": 1, "column": 3, "row": 4}))
    );
    for _ in 0..4 {
        game.apply(&json!(3)).unwrap();
    }
    match game.apply(&json!(3)) {
        Err(Refusal::Illegal(m)) => {
            assert_eq!(
                m,
                "column 3 is full: the open columns are [0, 1, 2, 4, 5, 6]"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_observation_has_the_documented_shape() {
    let mut game = start("standard");
    game.apply(&json!(3)).unwrap();
    let obs = game.observation(1);
    let mut board = vec![0; 42];
    board[38] = 1;
    assert_eq!(
        obs,
        json!({"board": board, "rows": 6, "columns": 7, "inarow": 4, "mark": 2,
               "legal": [0, 1, 2, 3, 4, 5, 6], "moves": 1})
    );
    let decoded: Observation = serde_json::from_value(obs).unwrap();
    assert_eq!(decoded.cell(5, 3), Some(1));
}

#[test]
fn random_games_through_the_contract_end_with_an_outcome() {
    for info in RULES.variants() {
        for seed in 0..50 {
            let mut game = RULES.start(&Variant::named(&info.name), 2, seed).unwrap();
            let mut player = rng(derive_seed(seed, 1));
            let mut events = Vec::new();
            while let Some(turn) = game.turn() {
                assert_eq!(turn.function, "choose_move");
                assert_eq!(turn.seat, game.moves() % 2);
                let obs: Observation = serde_json::from_value(game.observation(turn.seat)).unwrap();
                assert_eq!(obs.mark as u32, turn.seat + 1);
                let action = game
                    .random_action(&mut player)
                    .expect("a move while not over");
                let column = action.as_u64().unwrap() as u32;
                assert!(
                    obs.legal.contains(&column),
                    "{action} not in {:?}",
                    obs.legal
                );
                let event = game.apply(&action).unwrap();
                assert_eq!(event["column"], action);
                events.push(event);
            }
            assert!(game.random_action(&mut player).is_none());
            let outcome = game.outcome().expect("an ended game has an outcome");
            let state = game.state();
            assert_eq!(state["history"].as_array().unwrap().len(), events.len());
            assert_eq!(game.moves() as usize, events.len());
            match outcome.reason.as_str() {
                "line" => {
                    let winner = state["outcome"]["winner"].as_u64().unwrap() as usize;
                    assert_eq!(outcome.points[winner], 1.0);
                    assert_eq!(events.last().unwrap()["seat"], json!(winner));
                    assert!(state["outcome"]["line"].is_array());
                }
                "board-full" => {
                    assert_eq!(outcome.points, [0.5, 0.5]);
                    assert!(state["board"].as_array().unwrap().iter().all(|v| v != 0));
                }
                other => panic!("reason {other}"),
            }
            assert!(game.apply(&json!(0)).is_err(), "a move after the end");
        }
    }
}

#[test]
fn the_state_shows_the_whole_game() {
    let mut game = start("5x4-3");
    for col in [0, 1, 0, 1, 0] {
        game.apply(&json!(col)).unwrap();
    }
    let state: Value = game.state();
    assert_eq!(state["variant"], "5x4-3");
    assert_eq!(state["history"], json!([0, 1, 0, 1, 0]));
    assert_eq!(
        state["outcome"],
        json!({"winner": 0, "reason": "line", "line": [[3, 0], [2, 0], [1, 0]]})
    );
    assert_eq!(game.turn(), None);
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.points, outcome.reason),
        (vec![1.0, 0.0], "line".into())
    );
}

#[test]
fn a_forfeit_ends_the_game() {
    let mut game = start("standard");
    game.apply(&json!(3)).unwrap();
    let outcome = game.forfeit(1, "timeout");
    assert_eq!(outcome.points, [1.0, 0.0]);
    assert_eq!(outcome.reason, "timeout");
    assert_eq!(game.turn(), None);
    assert_eq!(game.outcome(), Some(outcome));
    assert!(game.random_action(&mut rng(1)).is_none());
    assert!(matches!(game.apply(&json!(3)), Err(Refusal::Illegal(_))));
    assert_eq!(game.state()["forfeited"], "timeout");
}

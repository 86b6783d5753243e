//! Seeded random games on every shape, checked move by move against a plain reference written here
//! without bitboards.

use super::tests::config;
use super::*;
use crate::games::contract::Rules;
use crate::games::{derive_seed, rng};

/// The plain reference: a grid of marks, row 0 at the top, and a scan of every cell in every
/// direction for a line.
#[derive(Debug, Clone)]
struct Reference {
    config: Config,
    /// `grid[row][col]`, row 0 at the top: 0 empty, 1 or 2.
    grid: Vec<Vec<u8>>,
}

impl Reference {
    fn new(config: Config) -> Reference {
        Reference {
            config,
            grid: vec![vec![0; config.columns as usize]; config.rows as usize],
        }
    }

    fn open(&self) -> Vec<u32> {
        (0..self.config.columns)
            .filter(|&c| self.grid[0][c as usize] == 0)
            .collect()
    }

    /// Drops `mark` into `col`; returns the row (from the top).
    fn drop(&mut self, col: u32, mark: u8) -> u32 {
        let row = (0..self.config.rows)
            .rev()
            .find(|&r| self.grid[r as usize][col as usize] == 0)
            .expect("the column has room");
        self.grid[row as usize][col as usize] = mark;
        row
    }

    fn has_line(&self, mark: u8) -> bool {
        let (rows, cols, k) = (
            self.config.rows as i32,
            self.config.columns as i32,
            self.config.inarow as i32,
        );
        for row in 0..rows {
            for col in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let line = (0..k).all(|i| {
                        let (r, c) = (row + dr * i, col + dc * i);
                        (0..rows).contains(&r)
                            && (0..cols).contains(&c)
                            && self.grid[r as usize][c as usize] == mark
                    });
                    if line {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn full(&self) -> bool {
        self.grid.iter().flatten().all(|&m| m != 0)
    }
}

/// Checks that `game` shows `reference`'s board, that no piece floats, and that the counts of the
/// marks follow from the number of moves.
fn check_position(game: &Game, reference: &Reference) {
    let config = game.config();
    let obs = game.observation(game.to_move());
    let flat: Vec<u8> = reference.grid.iter().flatten().copied().collect();
    assert_eq!(obs.board, flat, "the board differs from the reference");
    let moves = game.moves();
    let count = |mark| obs.board.iter().filter(|&&m| m == mark).count() as u32;
    assert_eq!(count(1), moves.div_ceil(2), "mark 1 pieces");
    assert_eq!(count(2), moves / 2, "mark 2 pieces");
    for col in 0..config.columns {
        let filled: Vec<bool> = (0..config.rows)
            .map(|row| obs.cell(row, col) != Some(0))
            .collect();
        // From the top: empty cells, then pieces down to the bottom.
        assert!(
            filled.windows(2).all(|w| !w[0] || w[1]),
            "a floating piece in column {col}: {filled:?}"
        );
        assert_eq!(
            filled.iter().filter(|&&f| f).count() as u32,
            game.board().height(col)
        );
    }
    let (p0, p1) = (game.board().pieces(0), game.board().pieces(1));
    assert_eq!(p0 & p1, 0, "two pieces on one cell");
    assert_eq!((p0 | p1).count_ones(), moves);
}

/// Plays game `seed` of `config` at random to its end, checking every move against the reference.
fn play_checked(config: Config, seed: u64) -> Outcome {
    let mut game = Game::new(config).unwrap();
    let mut reference = Reference::new(config);
    let mut player = rng(seed);
    check_position(&game, &reference);
    while let Some(played) = game.step_random(&mut player) {
        let mark = played.seat as u8 + 1;
        assert_eq!(
            played.seat as u32,
            (game.moves() - 1) % 2,
            "turns alternate"
        );
        let row = reference.drop(played.column, mark);
        assert_eq!(played.row, row, "where the piece landed");
        check_position(&game, &reference);
        let line = reference.has_line(mark);
        assert!(
            !reference.has_line(3 - mark),
            "the waiting player has a line"
        );
        let expected = if line {
            Some(Outcome {
                winner: Some(played.seat),
                reason: EndReason::Line,
            })
        } else if reference.full() {
            Some(Outcome {
                winner: None,
                reason: EndReason::BoardFull,
            })
        } else {
            None
        };
        assert_eq!(
            game.outcome(),
            expected,
            "seed {seed}, move {}",
            game.moves()
        );
        let open = if expected.is_some() {
            vec![]
        } else {
            reference.open()
        };
        assert_eq!(game.legal_moves(), open);
        if let Some(cells) = game.winning_line() {
            assert_eq!(cells.len() as u32, config.inarow);
            assert!(cells.iter().all(|&[r, c]| game.cell(r, c) == Some(mark)));
        }
    }
    assert!(game.moves() <= config.cells());
    game.outcome().expect("a finished game has an outcome")
}

#[test]
fn random_games_on_the_named_shapes_agree_with_the_reference() {
    for info in RULES.variants() {
        let config = config(&info.name);
        let mut wins = [0; 2];
        for i in 0..300 {
            if let Some(seat) = play_checked(config, derive_seed(7, i)).winner {
                wins[seat] += 1;
            }
        }
        assert!(wins[0] > 0 && wins[1] > 0, "{}: {wins:?}", info.name);
    }
}

#[test]
fn random_games_on_every_shape_agree_with_the_reference() {
    let mut shapes = 0u32;
    for columns in MIN_SIDE..=MAX_COLUMNS {
        for rows in MIN_SIDE..=MAX_ROWS {
            for inarow in MIN_INAROW..=rows.min(columns) {
                let Ok(config) = Config::new(columns, rows, inarow) else {
                    continue;
                };
                shapes += 1;
                for i in 0..4 {
                    play_checked(config, derive_seed(u64::from(shapes), i));
                }
            }
        }
    }
    assert!(shapes > 100, "{shapes} shapes");
}

#[test]
fn random_games_on_4x4_with_4_in_a_row_are_often_drawn() {
    // Random play on 4x4 fills the board without a line in about half the games.
    let config = Config::new(4, 4, 4).unwrap();
    let draws = (0..200)
        .filter(|&i| play_checked(config, i).winner.is_none())
        .count();
    assert!(draws > 20, "{draws} draws");
}

#[test]
fn a_random_game_is_reproducible_from_its_seed() {
    for seed in [0, 1, u64::MAX] {
        let play = || {
            let mut game = Game::standard();
            game.play_random(&mut rng(seed));
            game
        };
        assert_eq!(play(), play());
    }
}

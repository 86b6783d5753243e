//! The 2048 rule book as tests: every example of `docs/2048.md` and many more, each on both
//! boards, along both axes and in every line; then game over, illegal moves, winning, the packed
//! rows and columns, and the errors. The seeded random checks are in `conformance.rs`.

use super::*;
use Direction::{Down, Left, Right, Up};

/// The direction along the other axis that pushes towards the same end of a line.
fn turned(direction: Direction) -> Direction {
    match direction {
        Left => Up,
        Right => Down,
        Up => Left,
        Down => Right,
    }
}

/// A 4x4 board holding `line` as line `k` along `direction`'s axis (row `k` for left and right,
/// column `k` for up and down, listed from its first cell), every other cell empty.
fn board_with_line(line: [u32; 4], direction: Direction, k: usize) -> [u32; 16] {
    let mut cells = [0; 16];
    for (j, &v) in line.iter().enumerate() {
        let idx = if matches!(direction, Left | Right) {
            k * 4 + j
        } else {
            j * 4 + k
        };
        cells[idx] = v;
    }
    cells
}

fn to_rows(cells: &[u32]) -> Vec<Vec<u32>> {
    let size = cells.len().isqrt();
    cells.chunks(size).map(<[u32]>::to_vec).collect()
}

/// Moves `line` towards `direction` on both boards, in every row or column of the 4x4 board, and
/// along both axes, and checks the result; `expected == line` means the move must be refused.
fn check(line: [u32; 4], direction: Direction, expected: [u32; 4], score: u32) {
    for direction in [direction, turned(direction)] {
        for k in 0..4 {
            let before = to_rows(&board_with_line(line, direction, k));
            let after = to_rows(&board_with_line(expected, direction, k));
            let changes = line != expected;
            for board in [
                Board::from_rows(&before).unwrap(),
                Board::General(Grid::from_rows(&before).unwrap()),
            ] {
                let moved = board
                    .apply(direction)
                    .map(|(b, gained)| (b.values(), gained));
                let want = changes.then(|| (after.clone(), score));
                assert_eq!(
                    moved, want,
                    "{line:?} {direction:?} in line {k} on {board:?}"
                );
                assert_eq!(board.can_move(direction), changes);
            }
        }
    }
}

#[test]
fn a_merged_tile_does_not_merge_again() {
    check([2, 2, 2, 2], Right, [0, 0, 4, 4], 8);
    check([2, 2, 2, 2], Left, [4, 4, 0, 0], 8);
    check([4, 4, 8, 0], Left, [8, 8, 0, 0], 8);
    check([0, 8, 4, 4], Right, [0, 0, 8, 8], 8);
    check([2, 2, 4, 8], Left, [4, 4, 8, 0], 4);
    check([4, 2, 2, 8], Right, [0, 4, 4, 8], 4);
}

#[test]
fn the_pair_nearest_the_edge_merges_first() {
    check([0, 2, 2, 2], Right, [0, 0, 2, 4], 4);
    check([0, 2, 2, 2], Left, [4, 2, 0, 0], 4);
    check([2, 2, 2, 0], Left, [4, 2, 0, 0], 4);
    check([2, 2, 2, 0], Right, [0, 0, 2, 4], 4);
    check([8, 8, 8, 16], Left, [16, 8, 16, 0], 16);
    check([8, 8, 8, 16], Right, [0, 8, 16, 16], 16);
}

#[test]
fn tiles_slide_to_the_edge_or_the_next_different_tile() {
    check([0, 0, 0, 2], Left, [2, 0, 0, 0], 0);
    check([2, 0, 0, 0], Right, [0, 0, 0, 2], 0);
    check([0, 4, 0, 2], Left, [4, 2, 0, 0], 0);
    check([2, 0, 4, 0], Right, [0, 0, 2, 4], 0);
    check([2, 0, 0, 2], Left, [4, 0, 0, 0], 4);
    check([2, 0, 0, 2], Right, [0, 0, 0, 4], 4);
    check([4, 0, 4, 4], Left, [8, 4, 0, 0], 8);
}

#[test]
fn pairs_of_different_values_merge_independently() {
    check([2, 2, 4, 4], Left, [4, 8, 0, 0], 12);
    check([2, 2, 4, 4], Right, [0, 0, 4, 8], 12);
    check([4, 4, 8, 8], Right, [0, 0, 8, 16], 24);
    check([1024, 1024, 2, 2], Left, [2048, 4, 0, 0], 2052);
}

#[test]
fn a_move_that_changes_nothing_is_refused() {
    check([0, 0, 0, 0], Left, [0, 0, 0, 0], 0);
    check([2, 0, 0, 0], Left, [2, 0, 0, 0], 0);
    check([0, 0, 0, 2], Right, [0, 0, 0, 2], 0);
    check([2, 4, 2, 4], Left, [2, 4, 2, 4], 0);
    check([2, 4, 8, 16], Right, [2, 4, 8, 16], 0);
    check([4, 2, 0, 0], Left, [4, 2, 0, 0], 0);
}

#[test]
fn the_largest_tiles_merge_exactly() {
    check([32768, 32768, 0, 0], Left, [65536, 0, 0, 0], 65536);
    check(
        [32768, 32768, 32768, 32768],
        Right,
        [0, 0, 65536, 65536],
        131072,
    );
    check([65536, 65536, 0, 0], Left, [131072, 0, 0, 0], 131072);
    check([0, 65536, 0, 65536], Right, [0, 0, 0, 131072], 131072);
    check([65536, 32768, 32768, 0], Left, [65536, 65536, 0, 0], 65536);
    check(
        [131072, 65536, 65536, 2],
        Right,
        [0, 131072, 131072, 2],
        131072,
    );
    check([131072, 0, 65536, 2], Left, [131072, 65536, 2, 0], 0);
    check(
        [16384, 16384, 32768, 65536],
        Left,
        [32768, 32768, 65536, 0],
        32768,
    );
}

#[test]
fn tiles_stop_merging_at_the_largest_exponent() {
    let top = value(MAX_EXPONENT);
    check([top, top, 0, 0], Left, [top, top, 0, 0], 0);
    check([0, top, 0, top], Left, [top, top, 0, 0], 0);
}

/// Moves one line of a board of side `line.len()` left and checks the row that results.
fn check_general(line: &[u32], direction: Direction, expected: &[u32], score: u32) {
    let size = line.len();
    let mut cells = vec![0; size * size];
    cells[..size].copy_from_slice(line);
    let grid = Grid::from_rows(&to_rows(&cells)).unwrap();
    let (moved, gained) = grid.apply(direction).expect("the move changes the board");
    assert_eq!(
        (&moved.rows()[0][..], gained),
        (expected, score),
        "{line:?} {direction:?}"
    );
}

#[test]
fn every_size_follows_the_same_rules() {
    check_general(&[2, 2, 2], Right, &[0, 2, 4], 4);
    check_general(&[2, 2, 2, 2, 2], Right, &[0, 0, 2, 4, 4], 8);
    check_general(&[2, 2, 2, 2, 2], Left, &[4, 4, 2, 0, 0], 8);
    check_general(&[2, 0, 2, 4, 0, 4], Left, &[4, 8, 0, 0, 0, 0], 12);
    check_general(&[8, 8, 8, 0, 0, 0, 4], Right, &[0, 0, 0, 0, 8, 16, 4], 16);
    check_general(
        &[4, 4, 4, 4, 4, 4, 4, 4],
        Left,
        &[8, 8, 8, 8, 0, 0, 0, 0],
        32,
    );
}

const FULL_AND_STUCK: [u32; 16] = [2, 4, 2, 4, 8, 16, 8, 16, 2, 4, 2, 4, 8, 16, 8, 16];

#[test]
fn a_full_board_without_equal_neighbours_is_over() {
    for board in [
        Board::from_rows(&to_rows(&FULL_AND_STUCK)).unwrap(),
        Board::General(Grid::from_rows(&to_rows(&FULL_AND_STUCK)).unwrap()),
    ] {
        assert!(board.is_over());
        assert_eq!(board.legal(), [false; 4]);
        let game = Game::with_board(board, 0);
        assert!(game.is_over());
        assert_eq!(game.observation().legal, vec![]);
    }
}

#[test]
fn a_full_board_with_equal_neighbours_is_not_over() {
    let mut horizontal = FULL_AND_STUCK;
    horizontal[1] = 2; // now equal to its left and right neighbours, not to the 16 below it
    let mut vertical = FULL_AND_STUCK;
    vertical[4] = 2; // now equal to the cells above and below it, not to the 16 on its right
    for (cells, legal) in [
        (horizontal, [true, true, false, false]),
        (vertical, [false, false, true, true]),
    ] {
        for board in [
            Board::from_rows(&to_rows(&cells)).unwrap(),
            Board::General(Grid::from_rows(&to_rows(&cells)).unwrap()),
        ] {
            assert!(!board.is_over());
            assert_eq!(board.legal(), legal);
        }
    }
}

#[test]
fn an_illegal_move_leaves_the_game_untouched() {
    let rows = to_rows(&[2, 0, 0, 0, 4, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0]);
    for board in [
        Board::from_rows(&rows).unwrap(),
        Board::General(Grid::from_rows(&rows).unwrap()),
    ] {
        let mut game = Game::with_board(board, 7);
        for direction in [Left, Up, Down] {
            assert_eq!(game.step(direction), Err(IllegalMove { direction }));
        }
        assert_eq!(
            (game.board_values(), game.score(), game.moves()),
            (rows.clone(), 0, 0)
        );
        assert_eq!(game.legal(), vec![Right]);
        // The refused moves drew nothing: the next tile is the one a fresh game would spawn.
        let mut fresh = Game::with_board(Board::from_rows(&rows).unwrap(), 7);
        assert_eq!(game.step(Right), fresh.step(Right));
    }
}

#[test]
fn a_legal_move_spawns_one_tile_on_an_empty_cell() {
    let rows = to_rows(&[2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let mut game = Game::with_board(Board::from_rows(&rows).unwrap(), 3);
    let step = game.step(Left).unwrap();
    let (idx, tile) = step.spawned.unwrap();
    assert_eq!(step.gained, 4);
    assert!(idx != 0 && (tile == 2 || tile == 4));
    let mut expected = vec![0; 16];
    expected[0] = 4;
    expected[idx] = tile;
    assert_eq!(game.board_values(), to_rows(&expected));
    assert_eq!((game.score(), game.moves()), (4, 1));
}

#[test]
fn rows_and_columns_pack_four_bits_per_cell_first_cell_lowest() {
    let board = Board4::from_exponents(std::array::from_fn(|i| i as u8));
    assert_eq!(
        [0, 1, 2, 3].map(|r| board.row(r)),
        [0x3210, 0x7654, 0xBA98, 0xFEDC]
    );
    assert_eq!(
        [0, 1, 2, 3].map(|c| board.col(c)),
        [0xC840, 0xD951, 0xEA62, 0xFB73]
    );
    let general = Board::General(Grid::from_exponents(4, board.exponents().to_vec()).unwrap());
    assert_eq!(general.row(2), Some(0xBA98));
    assert_eq!(general.col(1), Some(0xD951));
}

#[test]
fn packed_lines_cap_exponents_at_15() {
    let mut exponents = [0; 16];
    exponents[..4].copy_from_slice(&[16, 17, 15, 1]);
    let board = Board4::from_exponents(exponents);
    assert_eq!(board.row(0), 0x1FFF);
    assert_eq!(board.col(1), 0x000F);
    let grid = Grid::from_exponents(4, exponents.to_vec()).unwrap();
    assert_eq!(grid.row(0), Some(0x1FFF));
}

#[test]
fn packed_lines_exist_only_up_to_four_cells() {
    let grid = Grid::from_rows(&to_rows(&[2, 4, 8, 0, 0, 0, 0, 0, 2])).unwrap();
    assert_eq!((grid.row(0), grid.col(2)), (Some(0x321), Some(0x103)));
    assert_eq!(Grid::new(5).unwrap().row(0), None);
}

#[test]
fn exponents_round_trip_through_the_packed_board() {
    let exponents: [u8; 16] = std::array::from_fn(|i| [0, 1, 11, 15, 16, 17, 31][i % 7]);
    let board = Board4::from_exponents(exponents);
    assert_eq!(board.exponents(), exponents);
    assert_eq!(board.max_exponent(), 31);
    assert_eq!(board.empty_mask(), 0b0100_0000_1000_0001);
    assert_eq!(board.empty_count(), 3);
}

#[test]
fn boards_are_3_to_8_cells_wide() {
    for size in [0, 1, 2, 9, 100] {
        assert_eq!(Game::new(size, 1).err(), Some(SizeError { size }));
    }
    for size in MIN_SIZE..=MAX_SIZE {
        let game = Game::new(size, 1).unwrap();
        let tiles: Vec<u32> = game
            .board_values()
            .concat()
            .into_iter()
            .filter(|&v| v > 0)
            .collect();
        assert_eq!((game.size(), tiles.len()), (size, 2));
        assert!(tiles.iter().all(|&v| v == 2 || v == 4));
        assert_eq!((game.score(), game.moves(), game.won()), (0, 0, false));
    }
    assert!(matches!(Game::new(4, 1).unwrap().board(), Board::Fast(_)));
}

#[test]
fn boards_given_as_rows_must_be_square_grids_of_tiles() {
    let error = |rows: &[Vec<u32>]| Board::from_rows(rows).err();
    assert_eq!(
        error(&to_rows(&[0; 4])),
        Some(BoardError::Size(SizeError { size: 2 }))
    );
    assert_eq!(
        error(&[vec![0; 3], vec![0; 3], vec![0; 2]]),
        Some(BoardError::Ragged {
            row: 2,
            len: 2,
            size: 3
        })
    );
    assert_eq!(
        error(&to_rows(&[0, 0, 0, 0, 3, 0, 0, 0, 0])),
        Some(BoardError::Tile { value: 3 })
    );
    assert_eq!(
        error(&to_rows(&[0, 0, 0, 0, 1, 0, 0, 0, 0])),
        Some(BoardError::Tile { value: 1 })
    );
    assert_eq!(
        Grid::from_exponents(3, vec![0; 8]).err(),
        Some(BoardError::Cells { len: 8, size: 3 })
    );
    assert_eq!(
        Grid::from_exponents(3, vec![32; 9]).err(),
        Some(BoardError::Exponent { exponent: 32 })
    );
}

#[test]
fn making_2048_wins_and_play_goes_on() {
    let rows = to_rows(&[1024, 1024, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    let mut game = Game::with_board(Board::from_rows(&rows).unwrap(), 11);
    assert!(!game.won());
    game.step(Right).unwrap();
    assert!(game.won() && !game.is_over());
    assert_eq!((game.max_tile(), game.score()), (2048, 2048));
    // Winning is a fact of the game's history, not of the current board.
    let later = game.legal()[0];
    game.step(later).unwrap();
    assert!(game.won());
}

#[test]
fn the_observation_shows_values_score_moves_and_legal_moves_in_order() {
    let rows = to_rows(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4]);
    let mut game = Game::with_board(Board::from_rows(&rows).unwrap(), 5);
    let seen = game.observation();
    assert_eq!((seen.board, seen.score, seen.moves), (rows, 0, 0));
    assert_eq!(seen.legal, vec![Left, Right, Up]);
    game.step(Left).unwrap();
    let seen = game.observation();
    assert_eq!((seen.board[3][0], seen.score, seen.moves), (8, 8, 1));
    assert_eq!(seen.legal, game.legal());
}

//! The position of a Wormworld game, laid out for speed: where every worm is and which cells can be
//! entered, with the moves that change it.
//!
//! The grid is a flat byte array with a one-cell wall all around it, so the cell next to any grid
//! cell is always inside the array and a move is checked by one look-up, with no bounds tests: a
//! border cell is a wall like an obstacle. The array holds the largest map (30x30 plus the border
//! fits 32x32), and worms are a fixed array of at most 40, so a board is one plain value that
//! copies without allocating and a move allocates nothing.

use std::ops::{Deref, Range};

use super::map::{MAX_SIDE, MAX_WORMS, Map, Pos, Terrain};
use super::{Direction, Move, Seat, Turn};

/// Cells in the padded array: the largest side plus a border on both ends, squared.
const CELLS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 2);
const _: () = assert!(
    CELLS.is_power_of_two(),
    "`enterable` masks indices with CELLS - 1"
);
/// Worms on the largest map: [`MAX_WORMS`] per player.
const WORMS: usize = 2 * MAX_WORMS;

/// What a cell of the padded array holds. Only `FREE` and `HOLE` can be entered, so `<= HOLE` is
/// the whole legality test.
pub(super) const FREE: u8 = 0;
pub(super) const HOLE: u8 = 1;
/// An obstacle, or the border around the grid.
pub(super) const WALL: u8 = 2;
pub(super) const WORM: u8 = 3;

/// One worm: its cells as indices into the padded array, head first, and the direction it faces
/// (as [`Direction::index`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct WormState {
    cells: [u16; 3],
    facing: u8,
    on_board: bool,
}

/// The worms and the cells of one position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    pub(super) cells: [u8; CELLS],
    /// The padded row length: the width plus two.
    stride: usize,
    /// The index step of each direction (up, right, down, left) as a wrapping `usize`: up is
    /// minus a row. A table rather than a `match` keeps the move test free of branches.
    steps: [usize; 4],
    width: usize,
    height: usize,
    worms: [WormState; WORMS],
    /// The map letter of each worm.
    letters: [u8; WORMS],
    /// The hole's index.
    hole: usize,
    /// How many worms the map has, and the first id of player 2's.
    count: usize,
    split: usize,
    /// Worms still on the board, per seat.
    left: [usize; 2],
}

impl Board {
    /// The start position of `map`.
    pub fn new(map: &Map) -> Board {
        let stride = map.width() + 2;
        let mut board = Board {
            cells: [WALL; CELLS],
            stride,
            steps: [stride.wrapping_neg(), 1, stride, usize::MAX],
            width: map.width(),
            height: map.height(),
            worms: [WormState::default(); WORMS],
            letters: [0; WORMS],
            hole: 0,
            count: map.worms().len(),
            split: map.worm_count(0),
            left: [map.worm_count(0), map.worm_count(1)],
        };
        board.lay_terrain(map);
        for (id, start) in map.worms().iter().enumerate() {
            let cells = start.cells.map(|pos| board.index(pos) as u16);
            for &cell in &cells {
                board.cells[usize::from(cell)] = WORM;
            }
            board.worms[id] = WormState {
                cells,
                facing: start.direction().index() as u8,
                on_board: true,
            };
            board.letters[id] = start.letter as u8;
        }
        board
    }

    fn lay_terrain(&mut self, map: &Map) {
        for row in 0..map.height() {
            for col in 0..map.width() {
                self.cells[self.index((row, col))] = match map.terrain((row, col)) {
                    Terrain::Free => FREE,
                    Terrain::Obstacle => WALL,
                    Terrain::Hole => HOLE,
                };
            }
        }
        self.hole = self.index(map.hole());
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The index in the padded array of a grid cell.
    pub(super) fn index(&self, (row, col): Pos) -> usize {
        (row + 1) * self.stride + col + 1
    }

    /// The grid cell of an index in the padded array.
    pub(super) fn pos(&self, index: usize) -> Pos {
        (index / self.stride - 1, index % self.stride - 1)
    }

    /// The cell next to `index` in direction `facing` ([`Direction::index`]).
    fn step(&self, index: usize, facing: u8) -> usize {
        index.wrapping_add(self.steps[usize::from(facing & 3)])
    }

    /// The ids of `seat`'s worms, on the board or not: a map lists player 1's worms first.
    pub fn ids(&self, seat: Seat) -> Range<usize> {
        if seat == 0 {
            0..self.split
        } else {
            self.split..self.count
        }
    }

    /// How many worms the map started with, both players together.
    pub fn worm_total(&self) -> usize {
        self.count
    }

    pub fn hole(&self) -> Pos {
        self.pos(self.hole)
    }

    /// The seat a worm belongs to.
    pub fn owner(&self, id: usize) -> Seat {
        usize::from(id >= self.split)
    }

    pub fn letter(&self, id: usize) -> char {
        char::from(self.letters[id])
    }

    /// How many of `seat`'s worms are still on the board.
    pub fn worms_left(&self, seat: Seat) -> usize {
        self.left[seat]
    }

    /// Whether worm `id` is still on the board (it has not fallen into the hole).
    pub fn on_board(&self, id: usize) -> bool {
        self.worms.get(id).is_some_and(|w| w.on_board)
    }

    /// The cells of worm `id`, head first, and the direction it faces; `None` once it has fallen.
    pub fn worm_cells(&self, id: usize) -> Option<([Pos; 3], Direction)> {
        let worm = self.worms.get(id).filter(|w| w.on_board)?;
        let cells = worm.cells.map(|i| self.pos(usize::from(i)));
        Some((cells, Direction::ALL[usize::from(worm.facing)]))
    }

    /// Where worm `id`'s head goes on `turn`: the cell and the new facing.
    pub(super) fn target(&self, id: usize, turn: Turn) -> (usize, u8) {
        let worm = &self.worms[id];
        let facing = (worm.facing + quarters(turn)) & 3;
        (self.step(usize::from(worm.cells[0]), facing), facing)
    }

    /// Whether worm `id` (on the board) can make `turn`: its head's new cell is free or the hole.
    pub(super) fn allows(&self, id: usize, turn: Turn) -> bool {
        self.can_turn(&self.worms[id], turn)
    }

    fn can_turn(&self, worm: &WormState, turn: Turn) -> bool {
        let head = usize::from(worm.cells[0]);
        self.enterable(self.step(head, worm.facing + quarters(turn)))
    }

    /// Whether a head may enter the cell `index`. Every index a step from a grid cell reaches is
    /// inside the array, whose length is a power of two, so masking the index changes nothing but
    /// lets the compiler drop the bounds check from the hottest line of the engine.
    fn enterable(&self, index: usize) -> bool {
        self.cells[index & (CELLS - 1)] <= HOLE
    }

    /// Whether `seat` has any legal move.
    pub fn can_move(&self, seat: Seat) -> bool {
        self.worms[self.ids(seat)]
            .iter()
            .any(|worm| worm.on_board && Turn::ALL.into_iter().any(|t| self.can_turn(worm, t)))
    }

    /// `seat`'s legal moves into `moves` (cleared first), by worm id, then left, forward, right.
    pub fn legal_into(&self, seat: Seat, moves: &mut MoveList) {
        moves.len = 0;
        let ids = self.ids(seat);
        for (id, worm) in (ids.start..).zip(&self.worms[ids]) {
            for turn in Turn::ALL {
                if worm.on_board && self.can_turn(worm, turn) {
                    let worm = id as u32;
                    moves.moves[moves.len] = Move { worm, turn };
                    moves.len += 1;
                }
            }
        }
    }

    /// Makes the move `turn` of worm `id`, which must be legal: the head enters the new cell and the
    /// tail cell is freed, or, when the new cell is the hole, the worm leaves and frees all three.
    pub(super) fn play(&mut self, id: usize, turn: Turn) {
        let (target, facing) = self.target(id, turn);
        debug_assert!(
            self.cells[target] <= HOLE,
            "worm {id} moved into a blocked cell"
        );
        let worm = &mut self.worms[id];
        if self.cells[target] == HOLE {
            for cell in worm.cells {
                self.cells[usize::from(cell)] = FREE;
            }
            worm.on_board = false;
            self.left[usize::from(id >= self.split)] -= 1;
        } else {
            let [head, middle, tail] = worm.cells;
            self.cells[usize::from(tail)] = FREE;
            self.cells[target] = WORM;
            worm.cells = [target as u16, head, middle];
            worm.facing = facing;
        }
    }

    /// The grid as text rows, as in the map format (worms drawn with their letters).
    pub fn rows(&self) -> Vec<String> {
        let mut rows: Vec<Vec<u8>> = (0..self.height)
            .map(|row| {
                (0..self.width)
                    .map(|col| match self.cells[self.index((row, col))] {
                        HOLE => b'O',
                        WALL => b'#',
                        _ => b'.',
                    })
                    .collect()
            })
            .collect();
        for id in 0..self.count {
            if let Some((cells, _)) = self.worm_cells(id) {
                for (row, col) in cells {
                    rows[row][col] = self.letters[id];
                }
            }
        }
        rows.into_iter()
            .map(|row| String::from_utf8(row).expect("map characters are ASCII"))
            .collect()
    }

    /// The obstacle cells in row-major order.
    pub fn obstacles(&self) -> Vec<Pos> {
        (0..self.height)
            .flat_map(|row| (0..self.width).map(move |col| (row, col)))
            .filter(|&pos| self.cells[self.index(pos)] == WALL)
            .collect()
    }
}

/// The quarter turns clockwise that `turn` makes.
fn quarters(turn: Turn) -> u8 {
    match turn {
        Turn::Left => 3,
        Turn::Forward => 0,
        Turn::Right => 1,
    }
}

/// A list of moves that lives on the stack: at most three per worm of one player.
#[derive(Debug, Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; 3 * MAX_WORMS],
}

impl MoveList {
    pub fn new() -> MoveList {
        let none = Move {
            worm: 0,
            turn: Turn::Forward,
        };
        MoveList {
            len: 0,
            moves: [none; 3 * MAX_WORMS],
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

//! A game of 2048 in progress: the board, the score, the move count and the game's own random
//! number generator, behind the legal-move check.
//!
//! [`Game`] is what the host runs and replays. It takes the fast [`Board4`] at size 4 and the
//! general [`Grid`] otherwise (or at size 4 on request, to check one against the other), and it
//! owns the generator that spawns tiles, so a game is reproducible from its size and seed alone.

use rand::RngExt;

use super::{
    Board4, BoardError, DEFAULT_SIZE, Direction, Grid, IllegalMove, Observation, SizeError,
    WIN_EXPONENT, value,
};
use crate::games::{Rng, rng, seat_seed};

/// Either board, with one API: each method delegates to the board it holds.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Board {
    /// The packed 4x4 board.
    Fast(Board4),
    /// The general board, any supported size.
    General(Grid),
}

impl Board {
    /// An empty board of side `size`, on the fast path when it is 4.
    pub fn empty(size: usize) -> Result<Board, SizeError> {
        if size == DEFAULT_SIZE {
            Ok(Board::Fast(Board4::EMPTY))
        } else {
            Grid::new(size).map(Board::General)
        }
    }

    /// A board from rows of tile values (0 for empty), on the fast path when it is 4x4.
    pub fn from_rows(rows: &[Vec<u32>]) -> Result<Board, BoardError> {
        Grid::from_rows(rows).map(Board::from)
    }

    pub fn size(&self) -> usize {
        match self {
            Board::Fast(_) => DEFAULT_SIZE,
            Board::General(grid) => grid.size(),
        }
    }

    /// The board after moving `direction` and the score gained, or `None` if nothing would change.
    pub fn apply(&self, direction: Direction) -> Option<(Board, u32)> {
        match self {
            Board::Fast(board) => board.apply(direction).map(|(b, g)| (Board::Fast(b), g)),
            Board::General(grid) => grid.apply(direction).map(|(b, g)| (Board::General(b), g)),
        }
    }

    pub fn can_move(&self, direction: Direction) -> bool {
        match self {
            Board::Fast(board) => board.can_move(direction),
            Board::General(grid) => grid.can_move(direction),
        }
    }

    /// Which moves change the board, indexed by [`Direction::index`].
    pub fn legal(&self) -> [bool; 4] {
        match self {
            Board::Fast(board) => board.legal(),
            Board::General(grid) => grid.legal(),
        }
    }

    pub fn is_over(&self) -> bool {
        match self {
            Board::Fast(board) => board.is_over(),
            Board::General(grid) => grid.is_over(),
        }
    }

    pub fn empty_count(&self) -> u32 {
        match self {
            Board::Fast(board) => board.empty_count(),
            Board::General(grid) => grid.empty_count(),
        }
    }

    pub fn place(&mut self, idx: usize, exponent: u8) {
        match self {
            Board::Fast(board) => board.place(idx, exponent),
            Board::General(grid) => grid.place(idx, exponent),
        }
    }

    pub fn spawn<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Option<(usize, u8)> {
        match self {
            Board::Fast(board) => board.spawn(rng),
            Board::General(grid) => grid.spawn(rng),
        }
    }

    pub fn exponent(&self, idx: usize) -> u8 {
        match self {
            Board::Fast(board) => board.exponent(idx),
            Board::General(grid) => grid.exponent(idx),
        }
    }

    /// The exponents of all cells in row-major order.
    pub fn exponents(&self) -> Vec<u8> {
        match self {
            Board::Fast(board) => board.exponents().to_vec(),
            Board::General(grid) => grid.exponents(),
        }
    }

    pub fn max_exponent(&self) -> u8 {
        match self {
            Board::Fast(board) => board.max_exponent(),
            Board::General(grid) => grid.max_exponent(),
        }
    }

    /// Row `r` packed into 16 bits (see [`Board4::row`]), or `None` on a board wider than 4.
    pub fn row(&self, r: usize) -> Option<u16> {
        match self {
            Board::Fast(board) => Some(board.row(r)),
            Board::General(grid) => grid.row(r),
        }
    }

    /// Column `c` packed into 16 bits (see [`Board4::col`]), or `None` on a board wider than 4.
    pub fn col(&self, c: usize) -> Option<u16> {
        match self {
            Board::Fast(board) => Some(board.col(c)),
            Board::General(grid) => grid.col(c),
        }
    }

    /// The rows of tile values, top to bottom, each left to right (0 for empty).
    pub fn values(&self) -> Vec<Vec<u32>> {
        let size = self.size();
        self.exponents()
            .chunks(size)
            .map(|row| row.iter().map(|&e| value(e)).collect())
            .collect()
    }
}

/// A grid of side 4 becomes the fast board; any other stays general.
impl From<Grid> for Board {
    fn from(grid: Grid) -> Board {
        match <[u8; 16]>::try_from(grid.exponents()) {
            Ok(exponents) => Board::Fast(Board4::from_exponents(exponents)),
            Err(_) => Board::General(grid),
        }
    }
}

/// What one legal move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The score the move's merges gained.
    pub gained: u32,
    /// The new tile: its cell (row-major) and its value. A legal move always leaves an empty cell,
    /// so this is `None` only on a board that was built full and could still move.
    pub spawned: Option<(usize, u32)>,
}

/// The outcome of a game played to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Playout {
    pub score: u64,
    pub moves: u32,
    pub max_tile: u32,
}

/// A game of 2048: the board, the score, and the generator of its random tiles.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    score: u64,
    moves: u32,
    won: bool,
    rng: Rng,
}

impl Game {
    /// A new game of side `size` seeded with `seed`: two random tiles on an empty board.
    pub fn new(size: usize, seed: u64) -> Result<Game, SizeError> {
        Ok(Game::start(Board::empty(size)?, seed))
    }

    /// A new game on `board` (normally empty): two random tiles are spawned on it first.
    pub fn start(board: Board, seed: u64) -> Game {
        let mut game = Game::with_board(board, seed);
        for _ in 0..2 {
            game.board.spawn(&mut game.rng);
        }
        game.won = game.board.max_exponent() >= WIN_EXPONENT;
        game
    }

    /// A game resumed on `board` as it is, score 0 and no move made; `seed` drives later tiles.
    pub fn with_board(board: Board, seed: u64) -> Game {
        let won = board.max_exponent() >= WIN_EXPONENT;
        Game {
            board,
            score: 0,
            moves: 0,
            won,
            rng: rng(seed),
        }
    }

    /// Moves `direction` and spawns the random tile, or refuses a move that changes nothing and
    /// leaves the game untouched.
    pub fn step(&mut self, direction: Direction) -> Result<Step, IllegalMove> {
        let (board, gained) = self
            .board
            .apply(direction)
            .ok_or(IllegalMove { direction })?;
        self.board = board;
        self.score += u64::from(gained);
        self.moves += 1;
        // A new 2048 or larger tile adds at least 2048 to the score, so the board is scanned
        // only after such moves, not after every one.
        if !self.won && gained >= value(WIN_EXPONENT) {
            self.won = self.board.max_exponent() >= WIN_EXPONENT;
        }
        let spawned = self
            .board
            .spawn(&mut self.rng)
            .map(|(idx, e)| (idx, value(e)));
        Ok(Step { gained, spawned })
    }

    /// Plays a random move the way a naive player would: a random direction, and if it changes
    /// nothing another among those not yet tried. Returns `None`, having changed nothing, when
    /// the game is over.
    pub fn step_random<R: rand::Rng + ?Sized>(
        &mut self,
        player: &mut R,
    ) -> Option<(Direction, Step)> {
        let mut untried = Direction::ALL;
        let mut left = untried.len();
        while left > 0 {
            let pick = player.random_range(0..left as u32) as usize;
            let direction = untried[pick];
            if let Ok(step) = self.step(direction) {
                return Some((direction, step));
            }
            left -= 1;
            untried.swap(pick, left);
        }
        None
    }

    /// Plays random moves (see [`Game::step_random`]) until the game is over.
    pub fn play_random<R: rand::Rng + ?Sized>(&mut self, player: &mut R) -> Playout {
        while self.step_random(player).is_some() {}
        Playout {
            score: self.score,
            moves: self.moves,
            max_tile: self.max_tile(),
        }
    }

    /// What a strategy sees: tile values, score, moves, and the legal moves in the order left,
    /// right, up, down.
    pub fn observation(&self) -> Observation {
        Observation {
            board: self.board_values(),
            score: self.score,
            moves: self.moves,
            legal: self.legal(),
        }
    }

    /// The moves that change the board, in the order left, right, up, down.
    pub fn legal(&self) -> Vec<Direction> {
        let legal = self.board.legal();
        Direction::ALL
            .into_iter()
            .filter(|d| legal[d.index()])
            .collect()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn board_values(&self) -> Vec<Vec<u32>> {
        self.board.values()
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn is_over(&self) -> bool {
        self.board.is_over()
    }

    pub fn score(&self) -> u64 {
        self.score
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The value of the largest tile on the board.
    pub fn max_tile(&self) -> u32 {
        value(self.board.max_exponent())
    }

    /// Whether a 2048 tile has existed in this game (play goes on after it).
    pub fn won(&self) -> bool {
        self.won
    }

    /// Shuffle mode: rearranges all tiles at random over the board, drawing from the game's own
    /// generator (so a shuffled game stays reproducible). Score and move count are unchanged.
    pub fn shuffle(&mut self) {
        let mut cells = self.board.exponents();
        super::evil::shuffle_cells(&mut cells, &mut self.rng);
        self.board = match &self.board {
            Board::Fast(_) => {
                let mut packed = [0u8; 16];
                packed.copy_from_slice(&cells);
                Board::Fast(Board4::from_exponents(packed))
            }
            Board::General(grid) => Board::General(
                Grid::from_exponents(grid.size(), cells).expect("a permutation of a valid board"),
            ),
        };
    }
}

/// Plays one 4x4 game seeded with `seed` with random moves, the player seeded as seat 0 is
/// (`seat_seed(seed, 0)`), and returns how it ended.
pub fn play_random(seed: u64) -> Playout {
    let mut game = Game::start(Board::Fast(Board4::EMPTY), seed);
    game.play_random(&mut rng(seat_seed(seed, 0)))
}

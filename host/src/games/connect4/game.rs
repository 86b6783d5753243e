//! A game of Connect Four in progress: the [`Board`], the columns played so far and how the game
//! ended, behind the legality checks.

use rand::RngExt;

use super::board::Board;
use super::{Config, ConfigError, EndReason, IllegalMove, Observation, Outcome, Seat};

/// A Connect Four game. Seat 0 (mark 1) moves first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    board: Board,
    /// The columns played, in order.
    history: Vec<u8>,
    outcome: Option<Outcome>,
}

/// One move of a game: who dropped a piece, into which column, and the row it landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Played {
    pub seat: Seat,
    pub column: u32,
    /// The row the piece landed on, counted **from the top** (0 the top row), as on the wire.
    pub row: u32,
}

impl Game {
    /// An empty board of `config`'s shape, if the engine can play it.
    pub fn new(config: Config) -> Result<Game, ConfigError> {
        Ok(Game {
            board: Board::new(config)?,
            history: Vec::with_capacity(config.cells() as usize),
            outcome: None,
        })
    }

    /// A game of the standard 7x6 board, 4 in a row.
    pub fn standard() -> Game {
        Game::new(Config::STANDARD).expect("the standard shape is valid")
    }

    pub fn config(&self) -> Config {
        self.board.config()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seat whose turn it is: seat 0 after an even number of moves (after the end: the seat that
    /// would have moved next).
    pub fn to_move(&self) -> Seat {
        self.history.len() % 2
    }

    /// Pieces dropped so far by both players.
    pub fn moves(&self) -> u32 {
        self.history.len() as u32
    }

    /// The columns played, in order.
    pub fn history(&self) -> &[u8] {
        &self.history
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The seat that won, if the game ended with a line.
    pub fn winner(&self) -> Option<Seat> {
        self.outcome.and_then(|o| o.winner)
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The columns with room, from left to right; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<u32> {
        let open = self.legal_mask();
        (0..self.config().columns)
            .filter(|col| open & 1 << col != 0)
            .collect()
    }

    /// [`Game::legal_moves`] as bits: bit `col` set when column `col` may be played.
    pub fn legal_mask(&self) -> u32 {
        if self.is_over() {
            0
        } else {
            self.board.open_columns()
        }
    }

    /// Why dropping into `column` is refused now, if it is.
    pub fn check(&self, column: i64) -> Result<u32, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let columns = self.config().columns;
        let col = u32::try_from(column)
            .ok()
            .filter(|&c| c < columns)
            .ok_or(IllegalMove::NoSuchColumn { column, columns })?;
        if !self.board.can_drop(col) {
            return Err(IllegalMove::ColumnFull { column: col });
        }
        Ok(col)
    }

    /// Drops a piece of the player to move into `column`, or refuses it and changes nothing.
    pub fn play(&mut self, column: u32) -> Result<Played, IllegalMove> {
        let col = self.check(i64::from(column))?;
        Ok(self.drop(col))
    }

    /// Plays an open column (checked by the caller) and judges the end.
    fn drop(&mut self, col: u32) -> Played {
        let seat = self.to_move();
        let row = self.board.drop(col, seat);
        self.history.push(col as u8);
        if self.board.has_line(self.board.pieces(seat)) {
            self.outcome = Some(Outcome {
                winner: Some(seat),
                reason: EndReason::Line,
            });
        } else if self.board.is_full() {
            self.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::BoardFull,
            });
        }
        Played {
            seat,
            column: col,
            row: self.config().rows - 1 - row,
        }
    }

    /// The winning line's cells as `[row, col]`, rows from the top, if the game ended with one.
    pub fn winning_line(&self) -> Option<Vec<[u32; 2]>> {
        let seat = self.winner()?;
        let rows = self.config().rows;
        let line = self.board.line(self.board.pieces(seat))?;
        Some(
            line.into_iter()
                .map(|(col, row)| [rows - 1 - row, col])
                .collect(),
        )
    }

    /// The mark on the cell at `row` (from the top) and `col`: 0, 1 or 2; `None` outside.
    pub fn cell(&self, row: u32, col: u32) -> Option<u8> {
        let Config { columns, rows, .. } = self.config();
        (row < rows && col < columns).then(|| self.board.mark(col, rows - 1 - row))
    }

    /// Plays a uniformly random open column for the player to move. Returns `None`, changing
    /// nothing, when the game is over.
    pub fn step_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Played> {
        let col = self.random_column(rng)?;
        Some(self.drop(col))
    }

    /// A uniformly random open column, or `None` when the game is over.
    pub fn random_column<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<u32> {
        let open = self.legal_mask();
        if open == 0 {
            return None;
        }
        let nth = rng.random_range(0..open.count_ones());
        // Clear the `nth` lowest open columns; the next one is the pick.
        Some(
            (0..nth)
                .fold(open, |bits, _| bits & (bits - 1))
                .trailing_zeros(),
        )
    }

    /// Plays random moves (see [`Game::step_random`]) to the end.
    pub fn play_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        while self.step_random(rng).is_some() {}
        self.outcome
            .expect("a game played to its end has an outcome")
    }

    /// What `seat` sees: the whole board (nothing is hidden), the shape, its mark and the open
    /// columns (none once the game is over).
    pub fn observation(&self, seat: Seat) -> Observation {
        let Config {
            columns,
            rows,
            inarow,
        } = self.config();
        Observation {
            board: self.board.cells(),
            rows,
            columns,
            inarow,
            mark: seat as u8 + 1,
            legal: self.legal_moves(),
            moves: self.moves(),
        }
    }
}

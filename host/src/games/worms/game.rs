//! A game of Wormworld in progress: the [`Board`], whose turn it is, how many turns have been played,
//! and how the game ended, behind the legality checks.
//!
//! The end of the game is judged after every turn, and once at the start (a map can begin in a
//! deadlock): see `judge` for the order in which the rules apply.

use rand::RngExt;

use super::board::{Board, MoveList};
use super::map::Map;
use super::{EndReason, IllegalMove, Move, Observation, Outcome, Seat, Verdict, Worm};

/// A Wormworld game: the position, the turn count, and the player to move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    board: Board,
    /// Turns played so far, both players', passes included.
    turn: u32,
    turn_limit: u32,
    to_move: Seat,
    outcome: Option<Outcome>,
}

/// One turn of a game: the player and what they did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Played {
    pub seat: Seat,
    /// The move, or `None` for a pass.
    pub action: Option<Move>,
}

impl Game {
    /// The start of a game on `map`, with the map's turn limit; player 1 (seat 0) moves first.
    pub fn new(map: &Map) -> Game {
        let mut game = Game {
            board: Board::new(map),
            turn: 0,
            turn_limit: map.turns(),
            to_move: 0,
            outcome: None,
        };
        game.outcome = game.judge_position();
        game
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seat whose turn it is (after the end: the seat that would have moved next).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Turns played so far by both players, passes included.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// How many of `seat`'s worms are still on the board.
    pub fn worms_left(&self, seat: Seat) -> usize {
        self.board.worms_left(seat)
    }

    /// `seat`'s legal moves, by worm id, then left, forward, right; empty once the game is over.
    pub fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.legal_into(seat, &mut moves);
        moves.to_vec()
    }

    /// [`Game::legal_moves`] without allocating.
    pub fn legal_into(&self, seat: Seat, moves: &mut MoveList) {
        self.board.legal_into(seat, moves);
        if self.is_over() {
            moves.clear();
        }
    }

    /// Makes a move for the player to move, or refuses it and changes nothing.
    pub fn apply(&mut self, action: Move) -> Result<(), IllegalMove> {
        self.check(action)?;
        self.board.play(action.worm as usize, action.turn);
        self.end_turn();
        Ok(())
    }

    /// Passes for the player to move, which is allowed only when they have no legal move.
    pub fn pass(&mut self) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let seat = self.to_move;
        if self.board.can_move(seat) {
            let moves = self.legal_moves(seat).len();
            return Err(IllegalMove::PassWithMoves { seat, moves });
        }
        self.end_turn();
        Ok(())
    }

    /// Why `action` is not a legal move for the player to move, if it is not.
    fn check(&self, action: Move) -> Result<(), IllegalMove> {
        let (worm, seat) = (action.worm, self.to_move);
        let id = worm as usize;
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if id >= self.board.worm_total() {
            return Err(IllegalMove::NoSuchWorm { worm });
        }
        if self.board.owner(id) != seat {
            return Err(IllegalMove::NotYours { worm, seat });
        }
        if !self.board.on_board(id) {
            return Err(IllegalMove::Fallen { worm });
        }
        if !self.board.allows(id, action.turn) {
            let turn = action.turn;
            return Err(IllegalMove::Blocked { worm, turn });
        }
        Ok(())
    }

    fn end_turn(&mut self) {
        let mover = self.to_move;
        self.turn += 1;
        self.to_move = 1 - mover;
        self.outcome = self.judge(mover);
    }

    /// The outcome after `mover`'s turn. In order: a mover whose last worm just fell wins, even on
    /// the last turn (the turn limit applies only "when nobody has won"); a deadlock on the last
    /// turn is judged by worm count; any other deadlock is a draw; reaching the turn limit is judged
    /// by worm count.
    fn judge(&self, mover: Seat) -> Option<Outcome> {
        if self.board.worms_left(mover) == 0 {
            return Some(Outcome::win(mover, EndReason::AllWormsHome));
        }
        self.judge_position()
    }

    /// The deadlock and turn-limit rules, which need no knowledge of the last move.
    fn judge_position(&self) -> Option<Outcome> {
        let last = self.turn >= self.turn_limit;
        // The player to move can almost always move, so the other is rarely looked at.
        let deadlock = !self.board.can_move(self.to_move) && !self.board.can_move(1 - self.to_move);
        match (deadlock, last) {
            (true, true) => Some(self.by_worm_count(EndReason::DeadlockOnLastTurn)),
            (true, false) => Some(Outcome {
                result: Verdict::Draw,
                reason: EndReason::Deadlock,
            }),
            (false, true) => Some(self.by_worm_count(EndReason::TurnLimit)),
            (false, false) => None,
        }
    }

    /// Fewer worms on the board wins; equal counts draw.
    fn by_worm_count(&self, reason: EndReason) -> Outcome {
        let (first, second) = (self.worms_left(0), self.worms_left(1));
        let result = match first.cmp(&second) {
            std::cmp::Ordering::Less => Verdict::Win(0),
            std::cmp::Ordering::Greater => Verdict::Win(1),
            std::cmp::Ordering::Equal => Verdict::Draw,
        };
        Outcome { result, reason }
    }

    /// Plays one turn for the player to move with a uniformly random legal move, or a pass when
    /// there is none. Returns `None`, changing nothing, when the game is over.
    pub fn step_random<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        moves: &mut MoveList,
    ) -> Option<Played> {
        if self.is_over() {
            return None;
        }
        let seat = self.to_move;
        self.board.legal_into(seat, moves);
        let action = (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())]);
        if let Some(action) = action {
            self.board.play(action.worm as usize, action.turn);
        }
        self.end_turn();
        Some(Played { seat, action })
    }

    /// Plays random turns (see [`Game::step_random`]) to the end.
    pub fn play_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        let mut moves = MoveList::new();
        while self.step_random(rng, &mut moves).is_some() {}
        self.outcome
            .expect("a game played to its end has an outcome")
    }

    /// What `seat` sees: the board, every worm on it, the turn count and `seat`'s legal moves.
    pub fn observation(&self, seat: Seat) -> Observation {
        let board = &self.board;
        let coords = |(row, col): (usize, usize)| [row as u32, col as u32];
        let worms = (0..board.worm_total())
            .filter_map(|id| {
                let (cells, direction) = board.worm_cells(id)?;
                Some(Worm {
                    id: id as u32,
                    owner: board.owner(id) as u32,
                    letter: board.letter(id),
                    cells: cells.map(coords),
                    direction,
                })
            })
            .collect();
        Observation {
            you: seat as u32,
            turn: self.turn,
            turn_limit: self.turn_limit,
            width: board.width() as u32,
            height: board.height() as u32,
            board: board.rows(),
            hole: coords(board.hole()),
            obstacles: board.obstacles().into_iter().map(coords).collect(),
            worms,
            legal: self.legal_moves(seat),
        }
    }
}

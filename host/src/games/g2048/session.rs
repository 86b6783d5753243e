//! The interactive game of the course (`botbox play 2048`), as pure state: undo of up to x moves,
//! shuffle mode, evil mode, and the "won" notice shown once. The terminal UI only draws a
//! [`Session`] and turns keys into its methods, so every rule here is testable without a terminal.

use std::collections::VecDeque;

use super::evil::{self, EVIL, EvilGame};
use super::{Direction, Game, IllegalMove, Observation, SizeError, Step, exponent_of};
use crate::games::derive_seed;

/// How a session plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub size: usize,
    /// How many moves can be undone (0: no undo).
    pub undo: usize,
    /// Shuffles allowed per game (0: shuffle mode off).
    pub shuffles: u32,
    pub evil: bool,
    /// Game `k` of the session (from 0) is seeded with `derive_seed(seed, k)`.
    pub seed: u64,
}

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    Empty,
    Value(u32),
    Evil,
}

#[derive(Clone, Debug)]
enum Mode {
    Classic(Game),
    Evil(EvilGame),
}

#[derive(Clone, Debug)]
struct Snapshot {
    mode: Mode,
    shuffles_left: u32,
}

/// A player's sessions of games, one after another.
#[derive(Clone, Debug)]
pub struct Session {
    options: Options,
    mode: Mode,
    games_started: u64,
    shuffles_left: u32,
    history: VecDeque<Snapshot>,
    won_noticed: bool,
}

impl Session {
    pub fn new(options: Options) -> Result<Session, SizeError> {
        let mode = Self::fresh(&options, 0)?;
        Ok(Session {
            shuffles_left: options.shuffles,
            options,
            mode,
            games_started: 1,
            history: VecDeque::new(),
            won_noticed: false,
        })
    }

    fn fresh(options: &Options, game: u64) -> Result<Mode, SizeError> {
        let seed = derive_seed(options.seed, game);
        Ok(if options.evil {
            Mode::Evil(EvilGame::new(options.size, seed)?)
        } else {
            Mode::Classic(Game::new(options.size, seed)?)
        })
    }

    /// Starts the next game (`n`).
    pub fn restart(&mut self) {
        self.mode =
            Self::fresh(&self.options, self.games_started).expect("the size was checked at start");
        self.games_started += 1;
        self.shuffles_left = self.options.shuffles;
        self.history.clear();
        self.won_noticed = false;
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            mode: self.mode.clone(),
            shuffles_left: self.shuffles_left,
        }
    }

    /// Keeps the state before a change for undo, forgetting the oldest beyond the undo limit.
    fn remember(&mut self, before: Snapshot) {
        if self.options.undo == 0 {
            return;
        }
        if self.history.len() == self.options.undo {
            self.history.pop_front();
        }
        self.history.push_back(before);
    }

    /// Plays a move; an illegal move changes nothing and is not remembered for undo.
    pub fn step(&mut self, dir: Direction) -> Result<Step, IllegalMove> {
        let before = self.snapshot();
        let step = match &mut self.mode {
            Mode::Classic(g) => g.step(dir)?,
            Mode::Evil(g) => g.step(dir)?,
        };
        self.remember(before);
        Ok(step)
    }

    /// Takes back the last move or shuffle; false when there is nothing left to undo.
    pub fn undo(&mut self) -> bool {
        match self.history.pop_back() {
            Some(s) => {
                self.mode = s.mode;
                self.shuffles_left = s.shuffles_left;
                true
            }
            None => false,
        }
    }

    /// Shuffles the tiles if shuffles are left; false otherwise.
    pub fn shuffle(&mut self) -> bool {
        if self.shuffles_left == 0 {
            return false;
        }
        self.remember(self.snapshot());
        self.shuffles_left -= 1;
        match &mut self.mode {
            Mode::Classic(g) => g.shuffle(),
            Mode::Evil(g) => g.shuffle(),
        }
        true
    }

    /// True exactly once per game: the first time it is asked after a 2048 tile appeared.
    pub fn take_won_notice(&mut self) -> bool {
        if self.won() && !self.won_noticed {
            self.won_noticed = true;
            return true;
        }
        false
    }

    /// The board's cells as rows.
    pub fn tiles(&self) -> Vec<Vec<Tile>> {
        let size = self.size();
        let cells: Vec<Tile> = match &self.mode {
            Mode::Classic(g) => g
                .board_values()
                .into_iter()
                .flatten()
                .map(tile_of_value)
                .collect(),
            Mode::Evil(g) => g
                .cells()
                .iter()
                .map(|&c| {
                    if c == EVIL {
                        Tile::Evil
                    } else {
                        tile_of_value(evil::cell_value(c))
                    }
                })
                .collect(),
        };
        cells.chunks(size).map(<[Tile]>::to_vec).collect()
    }

    /// What a strategy asked for a hint sees (evil tiles appear as the value 1).
    pub fn observation(&self) -> Observation {
        match &self.mode {
            Mode::Classic(g) => g.observation(),
            Mode::Evil(g) => g.observation(),
        }
    }

    pub fn size(&self) -> usize {
        self.options.size
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn score(&self) -> u64 {
        match &self.mode {
            Mode::Classic(g) => g.score(),
            Mode::Evil(g) => g.score(),
        }
    }

    pub fn moves(&self) -> u32 {
        match &self.mode {
            Mode::Classic(g) => g.moves(),
            Mode::Evil(g) => g.moves(),
        }
    }

    pub fn won(&self) -> bool {
        match &self.mode {
            Mode::Classic(g) => g.won(),
            Mode::Evil(g) => g.won(),
        }
    }

    pub fn is_over(&self) -> bool {
        match &self.mode {
            Mode::Classic(g) => g.is_over(),
            Mode::Evil(g) => g.is_over(),
        }
    }

    pub fn undo_available(&self) -> usize {
        self.history.len()
    }

    pub fn shuffles_left(&self) -> u32 {
        self.shuffles_left
    }

    /// The seed of the current game: game `k` (from 1) is seeded with `derive_seed(seed, k - 1)`.
    pub fn game_seed(&self) -> u64 {
        derive_seed(self.options.seed, self.games_started - 1)
    }

    /// The number of the current game in this session, from 1.
    pub fn game_number(&self) -> u64 {
        self.games_started
    }
}

fn tile_of_value(v: u32) -> Tile {
    match exponent_of(v) {
        Some(0) => Tile::Empty,
        _ => Tile::Value(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(undo: usize, shuffles: u32, evil: bool) -> Session {
        Session::new(Options {
            size: 4,
            undo,
            shuffles,
            evil,
            seed: 3,
        })
        .unwrap()
    }

    fn some_legal(s: &Session) -> Direction {
        s.observation().legal[0]
    }

    #[test]
    fn the_first_game_is_the_engine_game_of_the_derived_seed() {
        let mut s = session(0, 0, false);
        let mut g = Game::new(4, derive_seed(3, 0)).unwrap();
        for _ in 0..20 {
            let d = some_legal(&s);
            s.step(d).unwrap();
            g.step(d).unwrap();
        }
        assert_eq!((s.score(), s.moves()), (g.score(), g.moves()));
        assert_eq!(s.observation(), g.observation());
    }

    #[test]
    fn undo_goes_back_at_most_x_moves() {
        let mut s = session(2, 0, false);
        let start = s.observation();
        let d = some_legal(&s);
        s.step(d).unwrap();
        let after_one = s.observation();
        for _ in 0..3 {
            let d = some_legal(&s);
            s.step(d).unwrap();
        }
        assert_eq!(s.undo_available(), 2);
        assert!(s.undo() && s.undo());
        assert!(!s.undo(), "only two moves can be undone");
        assert_eq!(s.moves(), 2);
        let mut again = session(2, 0, false);
        again.step(d).unwrap();
        assert_eq!(again.observation(), after_one);
        assert_ne!(start, after_one);
    }

    #[test]
    fn without_undo_nothing_is_remembered() {
        let mut s = session(0, 0, false);
        let d = some_legal(&s);
        s.step(d).unwrap();
        assert!(!s.undo());
        assert_eq!(s.moves(), 1);
    }

    #[test]
    fn shuffles_keep_the_tiles_and_are_limited() {
        let mut s = session(1, 1, false);
        let mut before: Vec<Tile> = s.tiles().concat();
        assert!(s.shuffle());
        assert!(!s.shuffle(), "one shuffle allowed");
        let mut after: Vec<Tile> = s.tiles().concat();
        let key = |t: &Tile| match t {
            Tile::Empty => 0,
            Tile::Value(v) => *v,
            Tile::Evil => 1,
        };
        before.sort_by_key(key);
        after.sort_by_key(key);
        assert_eq!(before, after);
        assert!(s.undo());
        assert_eq!(s.shuffles_left(), 1, "undo gives the shuffle back");
    }

    #[test]
    fn restart_starts_the_next_seeded_game() {
        let mut s = session(3, 0, false);
        let first = s.observation();
        s.restart();
        assert_eq!(s.game_number(), 2);
        assert_eq!(s.moves(), 0);
        assert_eq!(
            s.observation(),
            Game::new(4, derive_seed(3, 1)).unwrap().observation()
        );
        assert_ne!(s.observation(), first);
        assert!(!s.undo());
    }

    #[test]
    fn reaching_2048_is_noticed_once_and_play_goes_on() {
        let mut s = session(1, 0, false);
        let board = super::super::Board::from_rows(&[
            vec![1024, 1024, 0, 0],
            vec![0; 4],
            vec![0; 4],
            vec![0; 4],
        ])
        .unwrap();
        s.mode = Mode::Classic(Game::with_board(board, 1));
        assert!(!s.take_won_notice());
        s.step(Direction::Left).unwrap();
        assert!(s.won() && s.take_won_notice());
        assert!(!s.take_won_notice(), "noticed only once");
        assert!(!s.is_over());
        s.step(s.observation().legal[0]).unwrap();
    }

    #[test]
    fn evil_sessions_show_evil_tiles() {
        let mut s = session(0, 0, true);
        let mut seen = false;
        while !s.is_over() && !seen {
            let d = some_legal(&s);
            s.step(d).unwrap();
            seen = s.tiles().concat().contains(&Tile::Evil);
        }
        assert!(seen, "an evil tile appears within a game");
    }
}

//! A compact Wormworld simulator, built from an observation: the rules of `docs/worms.md` on a flat
//! byte grid, with moves that are made and unmade in place so the search never copies a position.
//!
//! The grid has a one-cell wall all around it, so the cell next to any grid cell is inside the array
//! and a move is checked by one look-up. A cell holds [`FREE`], [`HOLE`], [`WALL`] or, for a worm's
//! cell, [`WORM`] plus the worm's id. The position keeps a Zobrist hash of the worms and the player to
//! move, updated with every move, for the search's transposition table.

use std::sync::OnceLock;

use botbox_sdk::worms::{Direction, Move, Observation, Turn};

/// The largest side of a map.
pub const MAX_SIDE: usize = 30;
/// Cells of the padded array: the largest side plus a border on both ends, squared.
pub const CELLS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 2);
/// Worm ids run below this: 20 per player.
pub const MAX_WORMS: usize = 40;

pub const FREE: u8 = 0;
pub const HOLE: u8 = 1;
/// An obstacle or the border.
pub const WALL: u8 = 2;
/// A worm's cell holds `WORM + id`.
pub const WORM: u8 = 3;

/// A move as the search stores it: the worm's id and the turn (0 left, 1 forward, 2 right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Mv {
    pub worm: u8,
    pub turn: u8,
}

impl Mv {
    pub fn from_move(m: Move) -> Mv {
        let turn = Turn::ALL.iter().position(|&t| t == m.turn).unwrap_or(1);
        Mv {
            worm: m.worm as u8,
            turn: turn as u8,
        }
    }

    pub fn to_move(self) -> Move {
        Move {
            worm: u32::from(self.worm),
            turn: Turn::ALL[usize::from(self.turn)],
        }
    }
}

/// The quarter turns clockwise of each turn: left, forward, right.
const QUARTERS: [u8; 3] = [3, 0, 1];

/// One worm: its cells as indices into the padded array, head first, and the direction it faces
/// (0 up, 1 right, 2 down, 3 left).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WormState {
    pub cells: [u16; 3],
    pub facing: u8,
    pub owner: u8,
    pub alive: bool,
}

/// What [`Position::play`] changed, for [`Position::undo`].
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    worm: u8,
    cells: [u16; 3],
    facing: u8,
    hash: u64,
}

impl Undo {
    /// The worm that moved.
    pub fn worm(&self) -> u8 {
        self.worm
    }
}

/// How a finished game ended, from the view of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Won,
    Lost,
    Draw,
}

/// A Wormworld position: the grid, the worms, the turn count and the player to move.
#[derive(Debug, Clone)]
pub struct Position {
    pub cells: [u8; CELLS],
    /// The padded row length: the width plus two.
    pub stride: usize,
    /// The index step of each direction (up, right, down, left), wrapping: up is minus a row.
    pub steps: [usize; 4],
    pub width: usize,
    pub height: usize,
    pub hole: usize,
    pub worms: [WormState; MAX_WORMS],
    /// One more than the largest worm id.
    pub count: usize,
    /// Each seat's worm ids (on the board at the root; some may fall during a search).
    pub ids: [[u8; MAX_WORMS / 2]; 2],
    pub owned: [usize; 2],
    /// Worms still on the board, per seat.
    pub left: [u32; 2],
    /// Turns played, both players', passes included.
    pub turn: u32,
    pub limit: u32,
    pub to_move: u8,
    pub hash: u64,
}

/// Why an observation cannot be simulated (the strategy then falls back to a legal move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub &'static str);

impl Position {
    /// The position an observation describes, with its player to move.
    pub fn from_observation(obs: &Observation) -> Result<Position, Unreadable> {
        let (width, height) = (obs.width as usize, obs.height as usize);
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(Unreadable("the grid is not 1..30 cells on a side"));
        }
        if obs.board.len() != height || obs.board.iter().any(|row| row.len() != width) {
            return Err(Unreadable("the board does not match the width and height"));
        }
        let stride = width + 2;
        let mut pos = Position {
            cells: [WALL; CELLS],
            stride,
            steps: [stride.wrapping_neg(), 1, stride, usize::MAX],
            width,
            height,
            hole: 0,
            worms: [WormState::default(); MAX_WORMS],
            count: 0,
            ids: [[0; MAX_WORMS / 2]; 2],
            owned: [0; 2],
            left: [0; 2],
            turn: obs.turn,
            limit: obs.turn_limit,
            to_move: (obs.you & 1) as u8,
            hash: 0,
        };
        for (r, row) in obs.board.iter().enumerate() {
            for (c, byte) in row.bytes().enumerate() {
                pos.cells[pos.index(r, c)] = match byte {
                    b'#' => WALL,
                    b'O' => HOLE,
                    _ => FREE,
                };
            }
        }
        let [hr, hc] = obs.hole.map(|x| x as usize);
        if hr >= height || hc >= width {
            return Err(Unreadable("the hole is outside the grid"));
        }
        pos.hole = pos.index(hr, hc);
        pos.cells[pos.hole] = HOLE;
        for worm in &obs.worms {
            pos.add_worm(worm)?;
        }
        pos.hash = pos.full_hash();
        Ok(pos)
    }

    fn add_worm(&mut self, worm: &botbox_sdk::worms::Worm) -> Result<(), Unreadable> {
        let id = worm.id as usize;
        if id >= MAX_WORMS || worm.owner > 1 {
            return Err(Unreadable("a worm id or owner out of range"));
        }
        let mut cells = [0u16; 3];
        for (k, &[r, c]) in worm.cells.iter().enumerate() {
            let (r, c) = (r as usize, c as usize);
            if r >= self.height || c >= self.width {
                return Err(Unreadable("a worm cell outside the grid"));
            }
            cells[k] = self.index(r, c) as u16;
            self.cells[usize::from(cells[k])] = WORM + id as u8;
        }
        self.worms[id] = WormState {
            cells,
            facing: direction_index(worm.direction),
            owner: worm.owner as u8,
            alive: true,
        };
        let seat = worm.owner as usize;
        if self.owned[seat] == MAX_WORMS / 2 {
            return Err(Unreadable("more than 20 worms for one player"));
        }
        self.ids[seat][self.owned[seat]] = id as u8;
        self.owned[seat] += 1;
        self.count = self.count.max(id + 1);
        self.left[seat] += 1;
        Ok(())
    }

    /// The index in the padded array of grid cell `(r, c)`.
    pub fn index(&self, r: usize, c: usize) -> usize {
        (r + 1) * self.stride + c + 1
    }

    /// The cell next to `index` in direction `facing`.
    pub fn step(&self, index: usize, facing: u8) -> usize {
        index.wrapping_add(self.steps[usize::from(facing & 3)])
    }

    /// Where worm `id`'s head goes on `turn`, and the direction it then faces.
    pub fn target(&self, id: usize, turn: u8) -> (usize, u8) {
        let worm = &self.worms[id];
        let facing = (worm.facing + QUARTERS[usize::from(turn)]) & 3;
        (self.step(usize::from(worm.cells[0]), facing), facing)
    }

    /// Whether a head may enter `index`: a free cell or the hole.
    pub fn enterable(&self, index: usize) -> bool {
        self.cells[index] <= HOLE
    }

    /// `seat`'s worms, on the board or fallen during a search.
    pub fn worm_ids(&self, seat: u8) -> &[u8] {
        &self.ids[usize::from(seat)][..self.owned[usize::from(seat)]]
    }

    /// `seat`'s legal moves into `out` (cleared first): by worm id, then left, forward, right, the
    /// host's order.
    pub fn legal_into(&self, seat: u8, out: &mut Vec<Mv>) {
        out.clear();
        for &id in self.worm_ids(seat) {
            if !self.worms[usize::from(id)].alive {
                continue;
            }
            for turn in 0..3 {
                if self.enterable(self.target(usize::from(id), turn).0) {
                    out.push(Mv { worm: id, turn });
                }
            }
        }
    }

    /// Whether `seat` has any legal move.
    pub fn can_move(&self, seat: u8) -> bool {
        self.worm_ids(seat).iter().any(|&id| {
            let id = usize::from(id);
            self.worms[id].alive && (0..3).any(|turn| self.enterable(self.target(id, turn).0))
        })
    }

    /// Makes a legal move for the player to move: the head enters the new cell and the tail cell is
    /// freed, or, when the new cell is the hole, the worm leaves and frees all three.
    pub fn play(&mut self, mv: Mv) -> Undo {
        let id = usize::from(mv.worm);
        let (target, facing) = self.target(id, mv.turn);
        let worm = self.worms[id];
        let undo = Undo {
            worm: mv.worm,
            cells: worm.cells,
            facing: worm.facing,
            hash: self.hash,
        };
        self.hash ^= worm_key(id, worm.cells);
        if self.cells[target] == HOLE {
            for cell in worm.cells {
                self.cells[usize::from(cell)] = FREE;
            }
            self.worms[id].alive = false;
            self.left[usize::from(worm.owner)] -= 1;
        } else {
            let [head, middle, tail] = worm.cells;
            self.cells[usize::from(tail)] = FREE;
            self.cells[target] = WORM + mv.worm;
            let cells = [target as u16, head, middle];
            self.worms[id].cells = cells;
            self.worms[id].facing = facing;
            self.hash ^= worm_key(id, cells);
        }
        self.end_turn();
        undo
    }

    /// Takes back the move that returned `undo`.
    pub fn undo(&mut self, undo: Undo) {
        let id = usize::from(undo.worm);
        let worm = self.worms[id];
        if worm.alive {
            self.cells[usize::from(worm.cells[0])] = FREE;
            self.cells[usize::from(undo.cells[2])] = WORM + undo.worm;
        } else {
            for cell in undo.cells {
                self.cells[usize::from(cell)] = WORM + undo.worm;
            }
            self.worms[id].alive = true;
            self.left[usize::from(worm.owner)] += 1;
        }
        self.worms[id].cells = undo.cells;
        self.worms[id].facing = undo.facing;
        self.turn -= 1;
        self.to_move ^= 1;
        self.hash = undo.hash;
    }

    /// Passes for the player to move (who must have no legal move).
    pub fn pass(&mut self) {
        self.end_turn();
    }

    pub fn unpass(&mut self) {
        self.turn -= 1;
        self.to_move ^= 1;
        self.hash ^= SIDE_KEY;
    }

    fn end_turn(&mut self) {
        self.turn += 1;
        self.to_move ^= 1;
        self.hash ^= SIDE_KEY;
    }

    /// How the game has ended, seen by the player to move, or `None` while it goes on. `can_move`
    /// says whether the player to move has a legal move (the caller has just listed them). The order
    /// is the host's: a player whose last worm fell has won; a deadlock on the last turn and the
    /// turn limit go by worm count; any other deadlock is a draw.
    pub fn end(&self, can_move: bool) -> Option<End> {
        let me = usize::from(self.to_move);
        if self.left[1 - me] == 0 {
            return Some(End::Lost);
        }
        let deadlock = !can_move && !self.can_move(self.to_move ^ 1);
        let last = self.turn >= self.limit;
        match (deadlock, last) {
            (_, true) => Some(self.by_worm_count()),
            (true, false) => Some(End::Draw),
            (false, false) => None,
        }
    }

    /// Fewer worms on the board wins, seen by the player to move.
    fn by_worm_count(&self) -> End {
        let me = usize::from(self.to_move);
        match self.left[me].cmp(&self.left[1 - me]) {
            std::cmp::Ordering::Less => End::Won,
            std::cmp::Ordering::Greater => End::Lost,
            std::cmp::Ordering::Equal => End::Draw,
        }
    }

    fn full_hash(&self) -> u64 {
        let worms = (0..self.count)
            .filter(|&id| self.worms[id].alive)
            .fold(0, |h, id| h ^ worm_key(id, self.worms[id].cells));
        if self.to_move == 1 {
            worms ^ SIDE_KEY
        } else {
            worms
        }
    }
}

fn direction_index(d: Direction) -> u8 {
    d.index() as u8
}

/// Hashed in when player 2 is to move.
const SIDE_KEY: u64 = 0x9D39_247E_3377_6D41;

/// The Zobrist key of a worm lying on `cells`, head first: one random number per worm and cell,
/// rotated by the cell's place in the worm so that the same cells in another order hash apart.
fn worm_key(id: usize, cells: [u16; 3]) -> u64 {
    let keys = keys();
    let key = |cell: u16| keys[id * CELLS + usize::from(cell)];
    key(cells[0]) ^ key(cells[1]).rotate_left(21) ^ key(cells[2]).rotate_left(42)
}

fn keys() -> &'static [u64] {
    static KEYS: OnceLock<Box<[u64]>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = botbox_sdk::Rng::new(0x005E_ED0F_3044);
        (0..MAX_WORMS * CELLS).map(|_| rng.next_u64()).collect()
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use botbox_sdk::worms::Worm;

    /// A position from text rows (`.` free, `#` obstacle, `O` the hole, letters for worms: uppercase
    /// player 1's) and each worm's cells head first; worm ids follow the order given.
    pub(crate) fn position(
        rows: &[&str],
        worms: &[[[u32; 2]; 3]],
        you: u32,
        turn: u32,
        limit: u32,
    ) -> Position {
        let hole = rows
            .iter()
            .enumerate()
            .find_map(|(r, row)| row.find('O').map(|c| [r as u32, c as u32]))
            .expect("a hole");
        let worms = worms
            .iter()
            .enumerate()
            .map(|(id, &cells)| {
                let [[hr, hc], [mr, mc], _] = cells;
                let letter = rows[hr as usize].as_bytes()[hc as usize] as char;
                let direction = match (hr as i32 - mr as i32, hc as i32 - mc as i32) {
                    (-1, 0) => Direction::Up,
                    (1, 0) => Direction::Down,
                    (0, -1) => Direction::Left,
                    _ => Direction::Right,
                };
                let owner = u32::from(letter.is_ascii_lowercase());
                Worm {
                    id: id as u32,
                    owner,
                    letter,
                    cells,
                    direction,
                }
            })
            .collect();
        let obs = Observation {
            you,
            turn,
            turn_limit: limit,
            width: rows[0].len() as u32,
            height: rows.len() as u32,
            board: rows.iter().map(|r| r.to_string()).collect(),
            hole,
            obstacles: Vec::new(),
            worms,
            legal: Vec::new(),
        };
        Position::from_observation(&obs).expect("a readable position")
    }

    fn legal(pos: &Position) -> Vec<(u8, u8)> {
        let mut moves = Vec::new();
        pos.legal_into(pos.to_move, &mut moves);
        moves.into_iter().map(|m| (m.worm, m.turn)).collect()
    }

    #[test]
    fn a_worm_that_enters_the_hole_leaves_and_undo_brings_it_back() {
        let mut pos = position(
            &["AAAO", "...a", "...a", "...a"],
            &[[[0, 2], [0, 1], [0, 0]], [[1, 3], [2, 3], [3, 3]]],
            0,
            0,
            10,
        );
        let before = pos.clone();
        let undo = pos.play(Mv { worm: 0, turn: 1 });
        assert_eq!(
            (pos.left, pos.to_move, pos.worms[0].alive),
            ([0, 1], 1, false)
        );
        assert!(
            [0, 1, 2]
                .iter()
                .all(|&c| pos.cells[pos.index(0, c)] == FREE)
        );
        assert_eq!(pos.end(true), Some(End::Lost), "player 1's last worm fell");
        pos.undo(undo);
        assert_eq!(
            (pos.cells, pos.hash, pos.worms),
            (before.cells, before.hash, before.worms)
        );
    }

    #[test]
    fn every_worm_cell_blocks_tails_included() {
        // B faces A's tail: it may not enter it, though the tail would move away with A's move.
        let rows = [".....", ".AAA.", ".B...", ".B.O.", ".B..."];
        let worms = [[[1, 3], [1, 2], [1, 1]], [[2, 1], [3, 1], [4, 1]]];
        let pos = position(&rows, &worms, 0, 0, 10);
        assert_eq!(legal(&pos), vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)]);
    }

    #[test]
    fn a_deadlock_is_a_draw() {
        // Both worms face walls: neither player can move.
        let rows = ["AAA#", "####", "O###", "#aaa"];
        let worms = [[[0, 2], [0, 1], [0, 0]], [[3, 1], [3, 2], [3, 3]]];
        let pos = position(&rows, &worms, 0, 3, 10);
        assert_eq!(legal(&pos), vec![]);
        assert!(!pos.can_move(1));
        assert_eq!(pos.end(false), Some(End::Draw));
        let last = position(&rows, &worms, 0, 10, 10);
        assert_eq!(
            last.end(false),
            Some(End::Draw),
            "equal counts at the limit"
        );
    }

    #[test]
    fn at_the_turn_limit_fewer_worms_win() {
        let rows = ["AA.O", "A...", "BBB.", "...a", "...a", "...a"];
        let worms = [
            [[0, 1], [0, 0], [1, 0]],
            [[2, 2], [2, 1], [2, 0]],
            [[3, 3], [4, 3], [5, 3]],
        ];
        assert_eq!(position(&rows, &worms, 0, 9, 10).end(true), None);
        assert_eq!(
            position(&rows, &worms, 0, 10, 10).end(true),
            Some(End::Lost)
        );
        assert_eq!(position(&rows, &worms, 1, 10, 10).end(true), Some(End::Won));
    }
}

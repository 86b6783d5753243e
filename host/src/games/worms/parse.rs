//! The map parser: text in, a valid [`Map`] or the first problem with its line and column out.
//!
//! It works in passes, each on what the one before it checked: the lines are sorted into the
//! `turns` line, the grid rows and the `heads` entries; the grid's characters and shape are checked;
//! then the hole; then the worms (three connected cells, a head that is an end, at most
//! [`MAX_WORMS`] a player). A line is a keyword line when its first word is `turns` or `heads`,
//! a comment when it starts with `;`, and otherwise a grid row, so a stray space in a row is
//! reported as the character it is rather than as an unknown keyword.

use std::collections::BTreeMap;

use super::Direction;
use super::map::{
    MAX_SIDE, MAX_WORMS, Map, MapError, Pos, Problem, Terrain, WormStart, direction_between,
    worm_owner,
};

/// Reads a map; see the module docs.
pub(super) fn parse(text: &str) -> Result<Map, MapError> {
    let lines = Lines::read(text)?;
    let turns = lines.turns.ok_or(at(1, 1, Problem::MissingTurns))?;
    let grid = Grid::check(&lines.rows)?;
    let hole = grid.hole()?;
    let worms = grid.worms(&lines.heads)?;
    let terrain = grid.cells.iter().map(|&c| terrain_of(c)).collect();
    Ok(Map {
        width: grid.width,
        height: grid.height,
        terrain,
        hole,
        worms,
        turns,
    })
}

fn at(line: usize, column: usize, problem: Problem) -> MapError {
    MapError {
        line,
        column,
        problem,
    }
}

/// The column (from 1) where `token`, a slice of `line`, starts.
fn column_of(line: &str, token: &str) -> usize {
    let offset = token.as_ptr() as usize - line.as_ptr() as usize;
    line[..offset].chars().count() + 1
}

/// One `LETTER:DIRECTION` entry of a `heads` line.
#[derive(Debug, Clone, Copy)]
struct Head {
    line: usize,
    column: usize,
    letter: char,
    direction: Direction,
}

/// The lines of a map sorted by kind.
#[derive(Debug, Default)]
struct Lines<'a> {
    turns: Option<u32>,
    /// The grid rows with their line numbers.
    rows: Vec<(usize, &'a str)>,
    heads: Vec<Head>,
    grid_ended: bool,
}

impl<'a> Lines<'a> {
    fn read(text: &'a str) -> Result<Lines<'a>, MapError> {
        let mut lines = Lines::default();
        for (i, line) in text.lines().enumerate() {
            let (n, line) = (i + 1, line.trim_end());
            match line.split_whitespace().next() {
                None => lines.end_grid(),
                Some(word) if word.starts_with(';') => {}
                Some("turns") => lines.turns(n, line)?,
                Some("heads") => lines.heads(n, line)?,
                Some(_) => lines.row(n, line)?,
            }
        }
        Ok(lines)
    }

    fn end_grid(&mut self) {
        self.grid_ended = !self.rows.is_empty();
    }

    fn row(&mut self, n: usize, line: &'a str) -> Result<(), MapError> {
        if self.grid_ended {
            return Err(at(n, 1, Problem::SplitGrid));
        }
        self.rows.push((n, line));
        Ok(())
    }

    fn turns(&mut self, n: usize, line: &str) -> Result<(), MapError> {
        self.end_grid();
        if self.turns.is_some() {
            return Err(at(n, 1, Problem::DuplicateTurns));
        }
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let bad = |column| {
            let text = words.join(" ");
            at(n, column, Problem::BadTurns { text })
        };
        let [value] = words[..] else {
            let column = words
                .first()
                .map_or(line.chars().count() + 1, |w| column_of(line, w));
            return Err(bad(column));
        };
        match value.parse::<u32>() {
            Ok(turns) if turns >= 1 => self.turns = Some(turns),
            _ => return Err(bad(column_of(line, value))),
        }
        Ok(())
    }

    fn heads(&mut self, n: usize, line: &str) -> Result<(), MapError> {
        self.end_grid();
        for token in line.split_whitespace().skip(1) {
            let column = column_of(line, token);
            let head = read_head(token).ok_or_else(|| {
                let text = token.to_string();
                at(n, column, Problem::BadHead { text })
            })?;
            let (letter, direction) = head;
            self.heads.push(Head {
                line: n,
                column,
                letter,
                direction,
            });
        }
        Ok(())
    }
}

/// `A:left` as the letter and the direction.
fn read_head(token: &str) -> Option<(char, Direction)> {
    let (letter, direction) = token.split_once(':')?;
    let mut chars = letter.chars();
    let (Some(letter), None) = (chars.next(), chars.next()) else {
        return None;
    };
    worm_owner(letter)?;
    Some((letter, Direction::from_name(direction)?))
}

/// The map character of a cell without its worm.
fn terrain_of(c: char) -> Terrain {
    match c {
        '#' => Terrain::Obstacle,
        'O' => Terrain::Hole,
        _ => Terrain::Free,
    }
}

fn is_cell(c: char) -> bool {
    matches!(c, '.' | '#' | 'O') || worm_owner(c).is_some()
}

/// A rectangular grid of known characters, at most [`MAX_SIDE`] a side.
#[derive(Debug)]
struct Grid {
    width: usize,
    height: usize,
    /// Row-major characters.
    cells: Vec<char>,
    /// The text line of each row.
    lines: Vec<usize>,
}

impl Grid {
    fn check(rows: &[(usize, &str)]) -> Result<Grid, MapError> {
        let Some(&(_, first_row)) = rows.first() else {
            return Err(at(1, 1, Problem::NoGrid));
        };
        let width = first_row.chars().count();
        let mut grid = Grid {
            width,
            height: rows.len(),
            cells: Vec::with_capacity(width * rows.len()),
            lines: Vec::with_capacity(rows.len()),
        };
        for (i, &(n, row)) in rows.iter().enumerate() {
            if i == MAX_SIDE {
                let height = rows.len();
                return Err(at(n, 1, Problem::TooTall { height }));
            }
            grid.push_row(n, row)?;
        }
        Ok(grid)
    }

    fn push_row(&mut self, n: usize, row: &str) -> Result<(), MapError> {
        if let Some((i, found)) = row.chars().enumerate().find(|&(_, c)| !is_cell(c)) {
            return Err(at(n, i + 1, Problem::UnknownChar { found }));
        }
        let len = row.chars().count();
        if len > MAX_SIDE {
            return Err(at(n, MAX_SIDE + 1, Problem::TooWide { width: len }));
        }
        if len != self.width {
            let (width, column) = (self.width, len.min(self.width) + 1);
            return Err(at(n, column, Problem::Ragged { len, width }));
        }
        self.cells.extend(row.chars());
        self.lines.push(n);
        Ok(())
    }

    /// The text line and column of a cell.
    fn place(&self, (row, col): Pos) -> (usize, usize) {
        (self.lines[row], col + 1)
    }

    fn error(&self, pos: Pos, problem: Problem) -> MapError {
        let (line, column) = self.place(pos);
        at(line, column, problem)
    }

    /// Every cell holding `wanted`, in row-major order.
    fn find(&self, wanted: impl Fn(char) -> bool) -> impl Iterator<Item = (Pos, char)> {
        let width = self.width;
        self.cells
            .iter()
            .enumerate()
            .filter(move |&(_, &c)| wanted(c))
            .map(move |(i, &c)| ((i / width, i % width), c))
    }

    fn hole(&self) -> Result<Pos, MapError> {
        let mut holes = self.find(|c| c == 'O').map(|(pos, _)| pos);
        let hole = holes
            .next()
            .ok_or_else(|| self.error((0, 0), Problem::NoHole))?;
        if let Some(second) = holes.next() {
            let (line, column) = self.place(hole);
            return Err(self.error(second, Problem::TwoHoles { line, column }));
        }
        Ok(hole)
    }

    /// The worms, player 1's by letter and then player 2's, each head first.
    fn worms(&self, heads: &[Head]) -> Result<Vec<WormStart>, MapError> {
        let mut drawn: BTreeMap<char, Vec<Pos>> = BTreeMap::new();
        for (pos, letter) in self.find(|c| worm_owner(c).is_some()) {
            drawn.entry(letter).or_default().push(pos);
        }
        let mut chains = BTreeMap::new();
        for (&letter, cells) in &drawn {
            chains.insert(letter, self.chain(letter, cells)?);
        }
        self.check_counts(&chains)?;
        let facing = self.facing(heads, &chains)?;
        chains
            .into_iter()
            .map(|(letter, chain)| self.orient(letter, chain, facing.get(&letter).copied()))
            .collect()
    }

    /// A worm's cells as `[end, middle, end]`.
    fn chain(&self, letter: char, cells: &[Pos]) -> Result<[Pos; 3], MapError> {
        let &[a, b, c] = cells else {
            // Too long: point at the fourth cell; too short: at the first.
            let (count, at) = (cells.len(), cells[if cells.len() > 3 { 3 } else { 0 }]);
            return Err(self.error(at, Problem::WormLength { letter, count }));
        };
        let touches = |p: Pos, q: Pos| p.0.abs_diff(q.0) + p.1.abs_diff(q.1) == 1;
        [[a, b, c], [b, a, c], [a, c, b]]
            .into_iter()
            .find(|&[e, m, f]| touches(e, m) && touches(m, f))
            .ok_or_else(|| self.error(a, Problem::WormShape { letter }))
    }

    fn check_counts(&self, chains: &BTreeMap<char, [Pos; 3]>) -> Result<(), MapError> {
        for seat in 0..2 {
            let player = seat + 1;
            let mut worms = chains.iter().filter(|(l, _)| worm_owner(**l) == Some(seat));
            if let Some((_, chain)) = worms.clone().nth(MAX_WORMS) {
                let count = worms.clone().count();
                return Err(self.error(chain[0], Problem::TooManyWorms { player, count }));
            }
            if worms.next().is_none() {
                return Err(self.error((0, 0), Problem::NoWorms { player }));
            }
        }
        Ok(())
    }

    /// The `heads` entry of each worm.
    fn facing<'h>(
        &self,
        heads: &'h [Head],
        chains: &BTreeMap<char, [Pos; 3]>,
    ) -> Result<BTreeMap<char, &'h Head>, MapError> {
        let mut facing = BTreeMap::new();
        for head in heads {
            let (letter, here) = (head.letter, |p| at(head.line, head.column, p));
            if !chains.contains_key(&letter) {
                return Err(here(Problem::UnknownWorm { letter }));
            }
            if facing.insert(letter, head).is_some() {
                return Err(here(Problem::DuplicateHead { letter }));
            }
        }
        Ok(facing)
    }

    /// The worm with its head at the end its `heads` entry says it faces.
    fn orient(
        &self,
        letter: char,
        [e, middle, f]: [Pos; 3],
        head: Option<&Head>,
    ) -> Result<WormStart, MapError> {
        let owner = worm_owner(letter).expect("worms are drawn with worm letters");
        let first_drawn = e.min(middle).min(f);
        let head = head.ok_or_else(|| self.error(first_drawn, Problem::MissingHead { letter }))?;
        let towards = |end| direction_between(middle, end).expect("a chain is connected");
        let (direction, choices) = (head.direction, [towards(e), towards(f)]);
        let cells = match direction {
            d if d == choices[0] => [e, middle, f],
            d if d == choices[1] => [f, middle, e],
            _ => {
                let problem = Problem::HeadNotAnEnd {
                    letter,
                    direction,
                    choices,
                };
                return Err(at(head.line, head.column, problem));
            }
        };
        Ok(WormStart {
            owner,
            letter,
            cells,
        })
    }
}

//! How Connect Four looks (its [`View`], named by the registry): the grid after every move, seat 0's
//! discs `X` and seat 1's `O`, the winning four marked `[X]`, made by re-playing the contract's
//! moves (the contract's reader checks them first, [`crate::view::replay::render`]).

use serde_json::Value;

use crate::games::connect4::RULES;
use crate::games::contract::Rules;
use crate::replay::ReplayFile;
use crate::view::frames::{Board, Frame};
use crate::view::games::GameView;

/// A disc's letter: seat 0 `X`, seat 1 `O`, an empty cell `.`.
pub fn disc(mark: u64) -> &'static str {
    match mark {
        1 => "X",
        2 => "O",
        _ => ".",
    }
}

/// A position as the contract's state tells it: rows from the top, each cell 0, 1 or 2, and the
/// winning four as `[row, col]` (rows from the top) once there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    pub rows: Vec<Vec<u64>>,
    pub line: Vec<[u64; 2]>,
}

impl Grid {
    /// The grid of the contract's state `state`.
    fn of(state: &Value) -> Grid {
        let columns = state["columns"].as_u64().unwrap_or(1).max(1) as usize;
        let cells: Vec<u64> = state["board"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        let line = state["outcome"]["line"]
            .as_array()
            .map(|cells| {
                cells
                    .iter()
                    .filter_map(|c| Some([c[0].as_u64()?, c[1].as_u64()?]))
                    .collect()
            })
            .unwrap_or_default();
        Grid {
            rows: cells.chunks(columns).map(<[u64]>::to_vec).collect(),
            line,
        }
    }

    /// Whether the cell at `row` (from the top) and `col` is in the winning four.
    pub fn winning(&self, row: usize, col: usize) -> bool {
        self.line.contains(&[row as u64, col as u64])
    }

    /// The grid as text lines, a cell three columns wide, the column numbers under it.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(c, &mark)| match self.winning(r, c) {
                        true => format!("[{}]", disc(mark)),
                        false => format!(" {} ", disc(mark)),
                    })
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect();
        let columns = self.rows.first().map_or(0, Vec::len);
        let numbers: String = (0..columns).map(|c| format!("{c:^3}")).collect();
        lines.push(numbers.trim_end().to_string());
        lines
    }
}

/// The grid at the start and after every move of a Connect Four replay, re-played through the
/// contract from the header's variant.
pub fn grids(file: &ReplayFile) -> anyhow::Result<Vec<Grid>> {
    let h = &file.header;
    let variant = h.variant();
    let mut game = RULES
        .start(&variant, 2, h.seed)
        .map_err(|e| file.bad(file.header_line, e))?;
    let mut grids = vec![Grid::of(&game.state())];
    for (i, t) in file.turns.iter().enumerate() {
        let seat = t["seat"].as_u64().unwrap_or_default() as u32;
        crate::view::replay::contract::apply_turn(game.as_mut(), seat, t)
            .map_err(|e| file.bad(file.turn_line(i), e))?;
        grids.push(Grid::of(&game.state()));
    }
    Ok(grids)
}

/// The contract's text of a Connect Four replay (its last `last` moves) with the grid after each
/// move drawn under it: `X` for seat 0, `O` for seat 1, the winning four in brackets.
pub fn print_connect4(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    let text = crate::view::replay::contract::print_contract(file, last)?;
    let grids = grids(file)?;
    let names: Vec<&str> = file
        .header
        .strategies
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    let mut out = String::new();
    for (k, line) in text.lines().enumerate() {
        out.push_str(line);
        out.push('\n');
        if k == 0 {
            let sides: Vec<String> = names
                .iter()
                .enumerate()
                .map(|(seat, name)| format!("{} {name}", disc(seat as u64 + 1)))
                .collect();
            out.push_str(&format!("discs: {}\n", sides.join(", ")));
        }
        // `move    N  seat ...`: the grid after move N.
        let moved = line
            .strip_prefix("move ")
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(grid) = moved.and_then(|n| grids.get(n)) {
            for row in grid.lines() {
                out.push_str("    ");
                out.push_str(&row);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// Connect Four: the grid after every move, the winning four marked (recorded through its
/// contract only).
#[derive(Debug)]
pub struct View;

impl GameView for View {
    fn text(
        &self,
        file: &ReplayFile,
        _contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        print_connect4(file, last)
    }

    fn frames(
        &self,
        file: &ReplayFile,
        _contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        Ok((connect4_frames(file)?, file.turns.clone()))
    }
}

/// Connect Four: the grid at the start and after every move, seat 0's discs `X` and seat 1's `O`,
/// the winning four marked `[X]`.
pub(crate) fn connect4_frames(file: &ReplayFile) -> anyhow::Result<Vec<Frame>> {
    // Each seat's discs in its colour (`p1`, `p2`), the winning four marked `win` as well.
    let board = |grid: &Grid| {
        Board::styled(
            grid.rows
                .iter()
                .enumerate()
                .map(|(r, row)| {
                    row.iter()
                        .enumerate()
                        .map(|(c, &mark)| match (mark, grid.winning(r, c)) {
                            (0, _) => (String::new(), String::new()),
                            (m, true) => (format!("[{}]", disc(m)), format!("p{m} win")),
                            (m, false) => (disc(m).to_string(), format!("p{m}")),
                        })
                        .collect()
                })
                .collect(),
        )
    };
    let grids = grids(file)?;
    let mut frames = vec![Frame::new(0, None, "start", board(&grids[0]))];
    for (i, (t, grid)) in file.turns.iter().zip(&grids[1..]).enumerate() {
        let seat = t["seat"].as_u64().map(|s| s as usize);
        let opening = if t["opening"] == true {
            " (opening)"
        } else {
            ""
        };
        let text = format!(
            "{} drops in column {}{opening}",
            disc(seat.map_or(0, |s| s as u64 + 1)),
            t["action"]
        );
        frames.push(Frame::new(i + 1, seat, text, board(grid)));
    }
    Ok(frames)
}

//! How Tron looks (its [`View`], named by the registry): the grid after every move, each rider's
//! trail in its colour and its head marked, made by re-playing the contract's moves (the contract's
//! reader checks them first, [`crate::view::replay::render`]). The terminal replay ends with the
//! last board in text: `1` and `2` the heads, `a` and `b` their trails, `#` the map's walls.

use std::fmt::Write as _;

use serde_json::Value;

use crate::games::contract::Rules;
use crate::replay::ReplayFile;
use crate::view::frames::{Board, Frame};
use crate::view::games::GameView;

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Free,
    /// A wall of the map.
    Wall,
    /// Seat `0` or `1`'s trail.
    Trail(usize),
    /// Seat `0` or `1`'s head.
    Head(usize),
}

/// The board at the start and after every recorded move, each wall told apart as the map's or a
/// rider's trail (the cells its head has been on).
pub fn boards(file: &ReplayFile) -> anyhow::Result<Vec<Vec<Vec<Cell>>>> {
    let h = &file.header;
    let rules = &super::RULES;
    let variant = h.variant();
    let mut game = rules
        .start(&variant, h.strategies.len() as u32, h.seed)
        .map_err(anyhow::Error::msg)?;
    let mut trails: Vec<Vec<Option<usize>>> = Vec::new();
    let mut board = |state: &Value| -> Vec<Vec<Cell>> {
        let rows: Vec<Vec<char>> = state["rows"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .map(|r| r.as_str().unwrap_or_default().chars().collect())
                    .collect()
            })
            .unwrap_or_default();
        // The walls at the start are the map's (owner 2); a cell a head has been on is its
        // rider's trail once it is a wall.
        if trails.is_empty() {
            trails = rows
                .iter()
                .map(|r| r.iter().map(|&ch| (ch == '#').then_some(2)).collect())
                .collect();
        }
        rows.iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(c, &ch)| match ch {
                        '1' | '2' => {
                            let seat = usize::from(ch == '2');
                            trails[r][c].get_or_insert(seat);
                            Cell::Head(seat)
                        }
                        '#' => match trails[r][c] {
                            Some(seat @ (0 | 1)) => Cell::Trail(seat),
                            _ => Cell::Wall,
                        },
                        _ => Cell::Free,
                    })
                    .collect()
            })
            .collect()
    };
    let mut boards = vec![board(&game.state())];
    for (i, t) in file.turns.iter().enumerate() {
        let seat = t["seat"].as_u64().unwrap_or_default() as u32;
        crate::view::replay::contract::apply_turn(game.as_mut(), seat, t)
            .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
        boards.push(board(&game.state()));
    }
    Ok(boards)
}

/// Tron's view.
#[derive(Debug)]
pub struct View;

impl GameView for View {
    fn text(
        &self,
        file: &ReplayFile,
        _contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        let mut text = crate::view::replay::contract::print_contract(file, last)?;
        if let Some(board) = boards(file)?.last() {
            writeln!(
                text,
                "the board after the last move (1 and 2 the heads, a and b their trails):"
            )?;
            for row in board {
                let line: String = row
                    .iter()
                    .map(|cell| match cell {
                        Cell::Free => '.',
                        Cell::Wall => '#',
                        Cell::Trail(seat) => [b'a', b'b'][*seat] as char,
                        Cell::Head(seat) => [b'1', b'2'][*seat] as char,
                    })
                    .collect();
                writeln!(text, "  {line}")?;
            }
        }
        Ok(text)
    }

    fn frames(
        &self,
        file: &ReplayFile,
        _contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let draw = |board: &Vec<Vec<Cell>>| {
            Board::styled(
                board
                    .iter()
                    .map(|row| {
                        row.iter()
                            .map(|cell| match cell {
                                Cell::Free => (String::new(), String::new()),
                                Cell::Wall => (String::new(), "wall".to_string()),
                                Cell::Trail(s) => (String::new(), format!("p{}", s + 1)),
                                Cell::Head(s) => ((s + 1).to_string(), format!("p{} head", s + 1)),
                            })
                            .collect()
                    })
                    .collect(),
            )
        };
        let boards = boards(file)?;
        let mut frames = vec![Frame::new(0, None, "start", draw(&boards[0]))];
        for (i, (t, board)) in file.turns.iter().zip(&boards[1..]).enumerate() {
            let seat = t["seat"].as_u64().map(|s| s as usize);
            let text = match t["fault"] == true {
                true => "faults: crashes".to_string(),
                false => format!("turns {}", t["action"].as_str().unwrap_or("?")),
            };
            frames.push(Frame::new(i + 1, seat, text, draw(board)));
        }
        Ok((frames, file.turns.clone()))
    }
}

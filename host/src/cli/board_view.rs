//! Drawing a 2048 board in the terminal: equal, visually square tiles (twice as wide as tall, since
//! terminal cells are about twice as tall as wide), large enough for every label up to 131072, with
//! gaps between them, a colour per tile value, and the largest tile size that fits the terminal. The
//! view only draws; the game lives in `crate::games::g2048::session`.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::games::g2048::session::Tile;

/// The smallest tile: six characters for "131072" plus a margin each side, four rows tall.
const MIN_TILE_HEIGHT: u16 = 4;
/// Horizontal and vertical gap between tiles.
const GAP_X: u16 = 2;
const GAP_Y: u16 = 1;
/// Lines above and below the board: title, status, keys.
const CHROME_LINES: u16 = 3;

/// The geometry of a board of side `n` with tiles `tile_h` rows tall.
fn board_size(n: u16, tile_h: u16) -> (u16, u16) {
    let tile_w = 2 * tile_h;
    (
        n * tile_w + (n - 1) * GAP_X + 2,
        n * tile_h + (n - 1) * GAP_Y + 2,
    )
}

/// The tallest tile that lets the whole board fit in `area`, or `None` if even the smallest does not.
pub fn tile_height(n: u16, area: Rect) -> Option<u16> {
    (MIN_TILE_HEIGHT..=12).rev().find(|&h| {
        let (w, hh) = board_size(n, h);
        w <= area.width && hh + CHROME_LINES <= area.height
    })
}

/// The terminal size the smallest board of side `n` needs.
pub fn minimum_size(n: u16) -> (u16, u16) {
    let (w, h) = board_size(n, MIN_TILE_HEIGHT);
    (w, h + CHROME_LINES)
}

/// What the screen shows around the board.
pub struct Chrome<'a> {
    pub title: String,
    pub status: Line<'a>,
    pub keys: &'a str,
}

/// Draws the whole screen: title, board (or a "too small" message), status and keys.
pub fn draw(frame: &mut Frame, tiles: &[Vec<Tile>], chrome: &Chrome) {
    let area = frame.area();
    let n = tiles.len() as u16;
    let Some(tile_h) = tile_height(n, area) else {
        let (w, h) = minimum_size(n);
        let text = format!(
            "The terminal is too small for a {n}x{n} board: it needs {w}x{h}, this one is {}x{}.\nEnlarge the window (or press ESC to quit).",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    };
    let (bw, bh) = board_size(n, tile_h);
    let left = area.x + (area.width - bw) / 2;
    let top = area.y + (area.height - bh - CHROME_LINES) / 2;
    // Text lines span the whole width, centred, so long messages are not cut at the board's edge.
    let line = |y: u16| Rect {
        x: area.x,
        y,
        width: area.width,
        height: 1,
    };
    let title =
        Paragraph::new(chrome.title.as_str()).style(Style::new().add_modifier(Modifier::BOLD));
    frame.render_widget(title.alignment(Alignment::Center), line(top));
    let board = Rect {
        x: left,
        y: top + 1,
        width: bw,
        height: bh,
    };
    frame.render_widget(
        Block::new()
            .borders(Borders::ALL)
            .style(Style::new().bg(Color::Rgb(187, 173, 160))),
        board,
    );
    for (r, row) in tiles.iter().enumerate() {
        for (c, tile) in row.iter().enumerate() {
            let x = board.x + 1 + c as u16 * (2 * tile_h + GAP_X);
            let y = board.y + 1 + r as u16 * (tile_h + GAP_Y);
            draw_tile(
                frame,
                Rect {
                    x,
                    y,
                    width: 2 * tile_h,
                    height: tile_h,
                },
                *tile,
            );
        }
    }
    let status = Paragraph::new(chrome.status.clone()).alignment(Alignment::Center);
    frame.render_widget(status, line(board.y + bh));
    let keys = Paragraph::new(chrome.keys)
        .style(Style::new().fg(Color::DarkGray))
        .alignment(Alignment::Center);
    frame.render_widget(keys, line(board.y + bh + 1));
}

fn draw_tile(frame: &mut Frame, area: Rect, tile: Tile) {
    let (label, style) = look(tile);
    let mut lines = vec![Line::raw(""); (area.height as usize - 1) / 2];
    lines.push(Line::from(Span::styled(
        label,
        style.add_modifier(Modifier::BOLD),
    )));
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .style(style),
        area,
    );
}

/// The label and colours of a tile: the classic palette up to 2048, then darker hues, each value its own.
pub fn look(tile: Tile) -> (String, Style) {
    const DARK: Color = Color::Rgb(119, 110, 101);
    const LIGHT: Color = Color::Rgb(249, 246, 242);
    let (label, bg, fg) = match tile {
        Tile::Empty => (String::new(), Color::Rgb(205, 193, 180), DARK),
        Tile::Evil => (
            "evil".to_string(),
            Color::Rgb(20, 20, 20),
            Color::Rgb(255, 60, 60),
        ),
        Tile::Value(v) => {
            let bg = match v {
                2 => Color::Rgb(238, 228, 218),
                4 => Color::Rgb(237, 224, 200),
                8 => Color::Rgb(242, 177, 121),
                16 => Color::Rgb(245, 149, 99),
                32 => Color::Rgb(246, 124, 95),
                64 => Color::Rgb(246, 94, 59),
                128 => Color::Rgb(237, 207, 114),
                256 => Color::Rgb(237, 204, 97),
                512 => Color::Rgb(237, 200, 80),
                1024 => Color::Rgb(237, 197, 63),
                2048 => Color::Rgb(237, 194, 46),
                4096 => Color::Rgb(183, 132, 171),
                8192 => Color::Rgb(170, 96, 166),
                16384 => Color::Rgb(125, 60, 152),
                32768 => Color::Rgb(91, 44, 111),
                65536 => Color::Rgb(27, 79, 114),
                131072 => Color::Rgb(17, 122, 101),
                _ => Color::Rgb(60, 58, 50),
            };
            (v.to_string(), bg, if v <= 4 { DARK } else { LIGHT })
        }
    };
    (label, Style::new().bg(bg).fg(fg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_label_up_to_131072_fits_with_a_margin() {
        assert!("131072".len() as u16 + 2 <= 2 * MIN_TILE_HEIGHT);
    }

    #[test]
    fn each_tile_value_has_its_own_colour() {
        let colours: HashSet<String> = (1..=17)
            .map(|e| format!("{:?}", look(Tile::Value(1 << e)).1.bg))
            .collect();
        assert_eq!(colours.len(), 17);
    }

    #[test]
    fn the_4x4_board_fits_an_80x24_terminal_and_8x8_needs_more() {
        assert_eq!(tile_height(4, Rect::new(0, 0, 80, 24)), Some(4));
        assert_eq!(tile_height(8, Rect::new(0, 0, 80, 24)), None);
        assert!(tile_height(8, Rect::new(0, 0, 80, 44)).is_some());
        assert_eq!(minimum_size(4), (40, 24));
    }
}

//! Tron maps: text, one line per row, top row first. `#` is a wall, ` ` (space) or `.` a free cell,
//! `1` and `2` the players' starting cells (free). Exactly one `1` and one `2`; every row the same
//! width; 3 to 100 cells a side. Outside the grid counts as wall, so a map need not be framed.

/// The smallest and largest side of a map.
pub const MIN_SIDE: usize = 3;
pub const MAX_SIDE: usize = 100;

/// A parsed map: its size, its walls (row-major) and the two starts `(row, column)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    width: usize,
    height: usize,
    walls: Vec<bool>,
    starts: [(usize, usize); 2],
}

impl Map {
    /// Reads a map; the error names the line (from 1) where it is wrong.
    pub fn parse(text: &str) -> Result<Map, String> {
        let lines: Vec<&str> = text.lines().collect();
        let height = lines.len();
        if !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(format!(
                "the map has {height} rows; a map has {MIN_SIDE} to {MAX_SIDE}"
            ));
        }
        let width = lines[0].chars().count();
        let mut walls = Vec::with_capacity(width * height);
        let mut starts: [Option<(usize, usize)>; 2] = [None, None];
        for (row, line) in lines.iter().enumerate() {
            let n = row + 1;
            let cells = line.chars().count();
            if cells != width {
                return Err(format!(
                    "line {n}: {cells} cells where the first row has {width}; every row is as wide"
                ));
            }
            if !(MIN_SIDE..=MAX_SIDE).contains(&width) {
                return Err(format!(
                    "line {n}: {width} cells a row; a map has {MIN_SIDE} to {MAX_SIDE}"
                ));
            }
            for (col, c) in line.chars().enumerate() {
                match c {
                    '#' => walls.push(true),
                    ' ' | '.' => walls.push(false),
                    '1' | '2' => {
                        let seat = usize::from(c == '2');
                        if starts[seat].is_some() {
                            return Err(format!("line {n}: a second start `{c}`"));
                        }
                        starts[seat] = Some((row, col));
                        walls.push(false);
                    }
                    other => {
                        return Err(format!(
                            "line {n}: {other:?} is not a cell (`#` wall, `.` or space free, `1` \
                             and `2` the starts)"
                        ));
                    }
                }
            }
        }
        match starts {
            [Some(a), Some(b)] => Ok(Map {
                width,
                height,
                walls,
                starts: [a, b],
            }),
            [None, _] => Err("the map has no start `1`".into()),
            [_, None] => Err("the map has no start `2`".into()),
        }
    }

    /// An empty `width` x `height` arena with the starts point-symmetric about the centre.
    pub fn empty(width: usize, height: usize) -> Map {
        let start = (height / 2, width / 4);
        Map {
            width,
            height,
            walls: vec![false; width * height],
            starts: [start, (height - 1 - start.0, width - 1 - start.1)],
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn walls(&self) -> &[bool] {
        &self.walls
    }

    pub fn starts(&self) -> [(usize, usize); 2] {
        self.starts
    }

    /// Whether the map looks the same turned half a turn about its centre, the starts swapped:
    /// neither side is favoured.
    pub fn point_symmetric(&self) -> bool {
        let (w, h) = (self.width, self.height);
        let turned = |(r, c): (usize, usize)| (h - 1 - r, w - 1 - c);
        (0..h).all(|r| {
            (0..w).all(|c| {
                let (tr, tc) = turned((r, c));
                self.walls[r * w + c] == self.walls[tr * w + tc]
            })
        }) && turned(self.starts[0]) == self.starts[1]
    }
}

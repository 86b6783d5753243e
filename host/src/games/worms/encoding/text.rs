//! The Wormworld text protocol for external programs (`docs/protocols/worms.md`), in the spirit of the
//! 1997 contest: the start position on standard input, then before each of the program's moves the
//! turns played since its last one and `go`; the program answers one line, `ID left|forward|right`.
//! Every token is a word or a whole number, so a C program reads it all with `scanf("%s")` and
//! `scanf("%d")`.
//!
//! Wormworld's encoding (`super::Encoding`) speaks it to a program in a game: the start position
//! when the game starts ([`start_message`]), the turns since the program's last move and `go`
//! ([`go_message`]) at each of its moves, and the answer read ([`read_move`]). A [`TextBot`] speaks
//! it over a program's [`Process`] outside a game (the runtime's tests): [`TextBot::start`] sends the
//! start position, [`TextBot::record`] queues each turn played, and [`TextBot::choose`] sends the
//! queue and `go` and reads the move. Whether the move is legal is the caller's to check.

use std::fmt::Write;

use crate::games::worms::{Game, Move, Seat, Turn};
use crate::runtime::program::{Process, quote};
use crate::runtime::{Fault, FaultKind, Instance};

/// The first line of the start position: the protocol's name and version.
pub const HEADER: &str = "botbox-worms 1";

/// An external program playing Wormworld through the text protocol.
#[derive(Debug)]
pub struct TextBot {
    instance: Instance,
    seat: Seat,
    /// Lines for the program, sent with the next `go`.
    pending: String,
}

impl TextBot {
    /// Sends the program the start position of `game` for `seat` (see [`start_message`]). Fails if
    /// `instance` is not an external program, or if the program cannot take its input.
    pub fn start(mut instance: Instance, game: &Game, seat: Seat) -> Result<TextBot, Fault> {
        let process = instance.process().ok_or_else(|| {
            Fault::new(
                FaultKind::Load,
                "the Wormworld text protocol is for external programs only",
            )
        })?;
        process.send(&start_message(game, seat))?;
        Ok(TextBot {
            instance,
            seat,
            pending: String::new(),
        })
    }

    /// Queues a turn that `seat` played (`None`: a pass) for the program: the opponent's moves and
    /// passes, and the passes the host made for the program itself. Its own moves it knows.
    pub fn record(&mut self, seat: Seat, played: Option<Move>) {
        if let Some(line) = turn_line(self.seat, seat, played) {
            self.pending.push_str(&line);
            self.pending.push('\n');
        }
    }

    /// Sends the queued turns and `go`, and reads the program's move. A line that is not a move is
    /// fault `bad-output`; the move's legality is not checked here.
    pub fn choose(&mut self) -> Result<Move, Fault> {
        self.pending.push_str("go\n");
        let message = std::mem::take(&mut self.pending);
        let line = self.process().exchange(&message)?;
        read_move(&line)
    }

    /// The program's log (its standard error).
    pub fn log(&self) -> Vec<String> {
        self.instance.log()
    }

    pub fn instance(&self) -> &Instance {
        &self.instance
    }

    pub fn into_instance(self) -> Instance {
        self.instance
    }

    fn process(&mut self) -> &mut Process {
        self.instance
            .process()
            .expect("start checked that the instance is a program")
    }
}

/// The start position as the program for `seat` reads it:
/// ```text
/// botbox-worms 1
/// player P                          1 (uppercase worms, moves first) or 2
/// size W H
/// turns LIMIT                       the game ends after LIMIT turns of both players, passes included
///                                   (the turns left, in a game played on from a recorded one)
/// row ROW                           H lines of W characters: . # O and worm letters
/// worms N
/// worm ID LETTER PLAYER HR HC MR MC TR TC    N lines: head, middle, tail as row col from 0
/// start
/// ```
pub fn start_message(game: &Game, seat: Seat) -> String {
    let obs = game.observation(seat);
    let mut text = format!(
        "{HEADER}\nplayer {}\nsize {} {}\nturns {}\n",
        seat + 1,
        obs.width,
        obs.height,
        // The turns left: all of them at the start.
        obs.turn_limit.saturating_sub(obs.turn)
    );
    for row in &obs.board {
        let _ = writeln!(text, "row {row}");
    }
    let _ = writeln!(text, "worms {}", obs.worms.len());
    for worm in &obs.worms {
        let _ = write!(text, "worm {} {} {}", worm.id, worm.letter, worm.owner + 1);
        for [row, col] in worm.cells {
            let _ = write!(text, " {row} {col}");
        }
        text.push('\n');
    }
    text.push_str("start\n");
    text
}

/// The line that tells the program for seat `me` about a turn `by` played (`None`: a pass), if any:
/// `opponent ID TURN`, `opponent pass`, `you pass`, and nothing for its own moves.
pub fn turn_line(me: Seat, by: Seat, played: Option<Move>) -> Option<String> {
    match (by == me, played) {
        (true, Some(_)) => None,
        (true, None) => Some("you pass".to_string()),
        (false, None) => Some("opponent pass".to_string()),
        (false, Some(m)) => Some(format!("opponent {}", move_text(m))),
    }
}

/// What the program for seat `me` is sent before its move: the lines of the `turns` played since
/// its last move (seat and move, `None` for a pass; see [`turn_line`]), then `go`.
pub fn go_message(me: Seat, turns: &[(Seat, Option<Move>)]) -> String {
    let mut message = String::new();
    for &(by, played) in turns {
        if let Some(line) = turn_line(me, by, played) {
            message.push_str(&line);
            message.push('\n');
        }
    }
    message.push_str("go\n");
    message
}

/// A program's answer line read as a move; one that is not a move is fault `bad-output`.
pub fn read_move(line: &str) -> Result<Move, Fault> {
    parse_move(line).map_err(|e| {
        Fault::new(
            FaultKind::BadOutput,
            format!("answered {}: {e}", quote(line)),
        )
    })
}

/// A move as the protocol writes it: `ID TURN`.
pub fn move_text(m: Move) -> String {
    format!("{} {}", m.worm, m.turn.name())
}

/// Reads a program's answer, `ID left|forward|right`: a worm id in decimal digits, one space, a
/// turn. Whitespace around the answer is ignored; anything else says what is wrong.
pub fn parse_move(line: &str) -> Result<Move, String> {
    const SHAPE: &str = "expected a worm id and left, forward or right, as in \"3 left\"";
    let (id, turn) = line.trim().split_once(' ').ok_or(SHAPE)?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{id:?} is not a worm id ({SHAPE})"));
    }
    let worm = id
        .parse()
        .map_err(|_| format!("{id} is too large for a worm id"))?;
    let turn =
        Turn::from_name(turn).ok_or_else(|| format!("{turn:?} is not left, forward or right"))?;
    Ok(Move { worm, turn })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::worms::Map;

    #[test]
    fn the_start_message_describes_the_tutorial_map() {
        let map = Map::parse(include_str!("../../../../../examples/worms/tutorial.txt")).unwrap();
        let expected = "\
botbox-worms 1
player 2
size 7 7
turns 40
row AAA....
row .......
row ..#.#..
row ...O...
row ..#.#..
row .......
row ....aaa
worms 2
worm 0 A 1 0 2 0 1 0 0
worm 1 a 2 6 4 6 5 6 6
start
";
        assert_eq!(start_message(&Game::new(&map), 1), expected);
    }

    #[test]
    fn moves_parse_leniently_only_about_surrounding_whitespace() {
        let check = |line: &str, expected: Result<(u32, Turn), &str>| {
            let got = parse_move(line).map(|m| (m.worm, m.turn));
            match (got, expected) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{line:?}"),
                (Err(e), Err(needle)) => assert!(e.contains(needle), "{line:?}: {e}"),
                (got, want) => panic!("{line:?}: got {got:?}, expected {want:?}"),
            }
        };
        check("0 left", Ok((0, Turn::Left)));
        check("  12 forward\t\r", Ok((12, Turn::Forward)));
        check("3 right", Ok((3, Turn::Right)));
        check("3  right", Err("is not left, forward or right"));
        check("3 Right", Err("is not left, forward or right"));
        check("3 left x", Err("is not left, forward or right"));
        check("-1 left", Err("is not a worm id"));
        check("+1 left", Err("is not a worm id"));
        check("one left", Err("is not a worm id"));
        check("99999999999 left", Err("too large"));
        check("3", Err("expected a worm id"));
        check("", Err("expected a worm id"));
        check("left 3", Err("is not a worm id"));
    }

    #[test]
    fn turns_are_told_from_the_programs_point_of_view() {
        let m = |worm, turn| Some(Move { worm, turn });
        let check = |by: Seat, played, expected: Option<&str>| {
            assert_eq!(
                turn_line(1, by, played).as_deref(),
                expected,
                "{by} {played:?}"
            );
        };
        check(0, m(0, Turn::Left), Some("opponent 0 left"));
        check(0, None, Some("opponent pass"));
        check(1, None, Some("you pass"));
        check(1, m(1, Turn::Right), None);
    }
}

//! The terminal game end to end: the real `botbox play` in a pseudo-terminal, driven by keys, its
//! screen read back through a terminal emulator. The expected scores come from the library's own
//! session with the same seed, so the screen is checked against the rules, not against itself.

use crate::util;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use botbox::games::g2048::Direction;
use botbox::games::g2048::session::{Options, Session};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 30;
const COLS: u16 = 100;

/// A program running in a pseudo-terminal, with its screen kept up to date by a reader thread.
struct Tty {
    screen: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Tty {
    fn spawn(args: &[&str]) -> Tty {
        Tty::spawn_sized(ROWS, COLS, args)
    }

    fn spawn_sized(rows: u16, cols: u16, args: &[&str]) -> Tty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("opening a pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_botbox"));
        cmd.args(args);
        cmd.cwd(util::repo());
        cmd.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(cmd).expect("spawning botbox");
        drop(pair.slave);
        let nonzero = |n: u16| std::num::NonZeroU16::new(n).expect("a real terminal size");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            nonzero(rows),
            nonzero(cols),
            0,
        )));
        let mut reader = pair.master.try_clone_reader().unwrap();
        let sink = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().process(&buf[..n]);
            }
        });
        let writer = pair.master.take_writer().unwrap();
        Tty {
            screen,
            writer,
            child,
            master: pair.master,
        }
    }

    /// Resizes the terminal, as a person dragging the window would.
    /// The emulated screen takes the new size before the program can draw for it: the screen stays
    /// locked (the reader thread waits) until both have the new size, or a redraw read at the old
    /// size would leave a garbled screen.
    fn resize(&mut self, rows: u16, cols: u16) {
        let nonzero = |n: u16| std::num::NonZeroU16::new(n).expect("a real terminal size");
        let mut screen = self.screen.lock().unwrap();
        screen.set_size(nonzero(rows), nonzero(cols));
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        drop(screen);
    }

    fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen contains `needle`, failing with the screen after 15 s.
    fn expect(&self, needle: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(15) {
            if self.text().contains(needle) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the screen never showed {needle:?}:\n{}", self.text());
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }
}

fn arrow(d: Direction) -> &'static str {
    match d {
        Direction::Up => "\x1b[A",
        Direction::Down => "\x1b[B",
        Direction::Right => "\x1b[C",
        Direction::Left => "\x1b[D",
    }
}

fn header(s: &Session) -> String {
    format!(
        "game {}  score {}  moves {}  undo {}/2",
        s.game_number(),
        s.score(),
        s.moves(),
        s.undo_available()
    )
}

#[test]
fn a_person_plays_undoes_restarts_and_quits() {
    let mut tty = Tty::spawn(&["play", "2048", "--seed", "5", "--undo", "2"]);
    let mut expected = Session::new(Options {
        size: 4,
        undo: 2,
        shuffles: 0,
        evil: false,
        seed: 5,
    })
    .unwrap();
    tty.expect(&header(&expected));

    // Play six legal moves chosen by the rules, checking score and move counter after each.
    for _ in 0..6 {
        let d = *expected.observation().legal.last().unwrap();
        expected.step(d).unwrap();
        tty.send(arrow(d));
        tty.expect(&header(&expected));
    }
    assert!(expected.score() > 0, "six moves merged something");

    // Undo twice (the limit), then once more: nothing left.
    tty.send("u");
    expected.undo();
    tty.expect(&header(&expected));
    tty.send("u");
    expected.undo();
    tty.expect(&header(&expected));
    tty.send("u");
    tty.expect("nothing to undo");

    // A new game, then quit with ESC.
    tty.send("n");
    expected.restart();
    tty.expect(&header(&expected));
    tty.send("\x1b");
    let status = tty.child.wait().expect("botbox exits");
    assert!(status.success(), "exit status {status:?}");

    // The terminal is restored: main screen, cursor visible.
    std::thread::sleep(Duration::from_millis(100));
    let parser = tty.screen.lock().unwrap();
    assert!(
        !parser.screen().alternate_screen(),
        "still on the alternate screen"
    );
    assert!(!parser.screen().hide_cursor(), "the cursor is still hidden");
}

#[test]
fn ctrl_c_quits_and_restores_the_terminal() {
    let mut tty = Tty::spawn(&["play", "2048", "--seed", "1"]);
    tty.expect("score 0  moves 0");
    tty.send("\x03");
    assert!(tty.child.wait().unwrap().success());
    std::thread::sleep(Duration::from_millis(100));
    assert!(!tty.screen.lock().unwrap().screen().alternate_screen());
}

#[test]
fn a_terminal_too_small_gets_a_message() {
    let mut tty = Tty::spawn_sized(20, 30, &["play", "2048", "--seed", "1"]);
    tty.expect("too small");
    // Enlarging the window redraws the board.
    tty.resize(ROWS, COLS);
    tty.expect("score 0  moves 0");
    tty.send("\x1b");
    assert!(tty.child.wait().unwrap().success());
}

#[test]
fn hints_come_from_a_strategy_under_its_limits() {
    let mut tty = Tty::spawn(&[
        "play",
        "2048",
        "--seed",
        "2",
        "--hint",
        "strategies/lua/g2048/first_legal.lua",
    ]);
    tty.expect("score 0  moves 0");
    let expected = Session::new(Options {
        size: 4,
        undo: 0,
        shuffles: 0,
        evil: false,
        seed: 2,
    })
    .unwrap();
    tty.send("h");
    tty.expect(&format!(
        "hint: {} (first_legal",
        expected.observation().legal[0].name()
    ));
    tty.send("\x1b");
    assert!(tty.child.wait().unwrap().success());
}

#[test]
fn a_lost_game_says_so() {
    let mut tty = Tty::spawn(&["play", "2048", "--seed", "4", "--size", "3"]);
    let mut expected = Session::new(Options {
        size: 3,
        undo: 0,
        shuffles: 0,
        evil: false,
        seed: 4,
    })
    .unwrap();
    tty.expect("score 0  moves 0");
    while !expected.is_over() {
        let d = expected.observation().legal[0];
        expected.step(d).unwrap();
        tty.send(arrow(d));
        tty.expect(&format!("moves {}", expected.moves()));
    }
    tty.expect(&format!("Game over: score {}", expected.score()));
    tty.send("\x1b");
    assert!(tty.child.wait().unwrap().success());
}

#[test]
fn watching_a_strategy_pauses_and_steps() {
    let mut tty = Tty::spawn(&[
        "show",
        "2048",
        "strategies/lua/g2048/first_legal.lua",
        "--seed",
        "3",
        "--speed",
        "200",
    ]);
    tty.expect("first_legal at 200.0 moves/s");
    tty.send(" ");
    tty.expect("PAUSED");
    let moves_on_screen = |text: &str| -> u32 {
        let after = text.split("moves ").nth(1).expect("a move counter");
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    std::thread::sleep(Duration::from_millis(200));
    let paused_at = moves_on_screen(&tty.text());
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        moves_on_screen(&tty.text()),
        paused_at,
        "moves went on while paused"
    );
    tty.send(".");
    tty.expect(&format!("moves {}", paused_at + 1));
    tty.send("+");
    tty.expect("at 400.0 moves/s");
    tty.send("\x1b");
    assert!(tty.child.wait().unwrap().success());
}

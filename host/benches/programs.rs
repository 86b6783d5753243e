//! What it costs to ask an external program for a move, through real processes and pipes.
//!
//! - `round_trip::echo`: one `Process::exchange` with a Python program that echoes each line: resuming
//!   the program (`SIGCONT`), the write, its answer through the reader thread, pausing it again
//!   (`SIGSTOP`). The protocol's own cost, whatever the program thinks.
//! - `round_trip::greedy_tutorial`: `TextBot::choose` of `strategies/programs/worms/greedy.py` against
//!   itself on `examples/worms/tutorial.txt`: the last five moves of the game (counted as items),
//!   after each program has answered its first move, so that start-up is not counted.
//! - `start::echo`: starting a Python program and getting its first answer (what every game pays
//!   once per program; `python3` through a version manager's shim costs more than a bare binary).
//!
//! Run with `cargo bench -p botbox --bench programs`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use botbox::games::worms::encoding::text::TextBot;
use botbox::games::worms::{Game, Map};
use botbox::runtime::{Instance, Limits, Setup, Strategy};
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A Python program that answers every line with the same line.
static ECHO: LazyLock<Strategy> = LazyLock::new(|| {
    let dir = repo().join("target/bench-programs");
    std::fs::create_dir_all(&dir).expect("creating target/bench-programs");
    let file = dir.join("echo.py");
    let text = "#!/usr/bin/env python3\nimport sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n";
    std::fs::write(&file, text).expect("writing echo.py");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    botbox::hosted::load(&file, &Limits::default()).expect("loading echo.py")
});

static GREEDY: LazyLock<Strategy> = LazyLock::new(|| {
    let path = repo().join("strategies/programs/worms/greedy.py");
    botbox::hosted::load(&path, &Limits::default()).expect("loading greedy.py")
});

fn tutorial() -> Game {
    let text = include_str!("../../examples/worms/tutorial.txt");
    Game::new(&Map::parse(text).expect("tutorial.txt is a valid map"))
}

fn start(strategy: &Strategy, seat: u32) -> Instance {
    strategy
        .instantiate(&Setup::new("worms", 1, seat))
        .expect("starting the program")
}

/// Plays one turn: the bot to move chooses, the engine applies, both bots hear of it.
fn turn(game: &mut Game, bots: &mut [TextBot; 2]) {
    let seat = game.to_move();
    let choice = bots[seat].choose().expect("greedy answers");
    game.apply(choice).expect("greedy plays legal moves");
    for bot in bots.iter_mut() {
        bot.record(seat, Some(choice));
    }
}

mod round_trip {
    use super::*;

    #[divan::bench]
    fn echo(bencher: Bencher) {
        let mut instance = start(&ECHO, 0);
        let process = instance.process().expect("a program");
        process.exchange("warm up\n").expect("echo answers");
        bencher.bench_local(|| process.exchange("0 forward\n").expect("echo answers"));
    }

    /// Turns the tutorial game has after each greedy program's first move.
    const TIMED_TURNS: u64 = 5;

    #[divan::bench(sample_count = 30, sample_size = 1)]
    fn greedy_tutorial(bencher: Bencher) {
        bencher
            .counter(ItemsCount::new(TIMED_TURNS))
            .with_inputs(|| {
                let mut game = tutorial();
                let mut bots = [0, 1].map(|seat| {
                    TextBot::start(start(&GREEDY, seat as u32), &game, seat).expect("start")
                });
                turn(&mut game, &mut bots);
                turn(&mut game, &mut bots);
                (game, bots)
            })
            .bench_local_values(|(mut game, mut bots)| {
                for _ in 0..TIMED_TURNS {
                    turn(&mut game, &mut bots);
                }
                assert!(game.is_over(), "the tutorial game takes seven turns");
                // Returned, so that killing the programs is not timed.
                bots
            });
    }
}

mod start {
    use super::*;

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn echo(bencher: Bencher) {
        bencher.bench_local(|| {
            let mut instance = start(&ECHO, 0);
            let process = instance.process().expect("a program");
            process.exchange("0 forward\n").expect("echo answers");
            instance
        });
    }
}

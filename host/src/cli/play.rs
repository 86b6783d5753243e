//! `botbox play 2048` and `botbox show 2048`: the course's terminal game, and a strategy
//! playing it while you watch. The game is `crate::games::g2048::session`; this file only reads keys
//! and draws. The terminal is restored on exit, on error, on Ctrl-C and on panic.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::games::g2048::session::{Options, Session};
use crate::games::g2048::{Direction, check_size};
use crate::games::seat_seed;
use crate::runtime::{Instance, Setup, Strategy};
use anyhow::Context;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::G2048Only;
use super::board_view::{self, Chrome};
use super::limits::LimitArgs;

/// Play 2048 in the terminal: arrow keys move, u undoes, s shuffles, h asks a strategy, n restarts, ESC quits
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox play 2048                          # arrow keys, ESC quits, n starts a new game
  botbox play 2048 --undo 5 --size 5        # up to 5 moves of undo on a 5x5 board
  botbox play 2048 --hint strategies/lua/g2048/expectimax.lua    # h shows the strategy's move
  botbox play 2048 --evil --shuffles 3      # evil tiles (docs/evil-mode.md) and 3 shuffles per game")]
pub struct PlayArgs {
    /// The game (only 2048 has a terminal game)
    #[arg(value_parser = super::g2048_only, value_name = "GAME")]
    game: G2048Only,
    /// How many moves can be undone with u (0: no undo)
    #[arg(long, default_value_t = 0, value_name = "X")]
    undo: usize,
    /// Board side, 3 to 8
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// Evil mode: valueless evil tiles that block, never merge, and vanish when two collide
    #[arg(long)]
    evil: bool,
    /// Shuffles allowed per game with s (redistribute all tiles at random)
    #[arg(long, default_value_t = 0, value_name = "N")]
    shuffles: u32,
    /// A strategy to ask for a hint with h (.lua, .wasm, .wat or a bot's directory)
    #[arg(long, value_name = "STRATEGY")]
    hint: Option<PathBuf>,
    /// Seed of the session's games (default: from the clock)
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Show a strategy playing 2048 in the terminal: space pauses, . steps, + and - change speed, n restarts
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox show 2048 strategies/lua/g2048/expectimax.lua
  botbox show 2048 my_bot.wasm --speed 20        # 20 moves per second
  botbox show 2048 strategies/lua/g2048/greedy.lua --size 5 --seed 7")]
pub struct WatchArgs {
    /// The game (only 2048 for now)
    #[arg(value_parser = super::g2048_only, value_name = "GAME")]
    game: G2048Only,
    /// The strategy to watch
    strategy: PathBuf,
    /// Moves per second
    #[arg(long, default_value_t = 10.0)]
    speed: f64,
    /// Board side, 3 to 8
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// Seed of the games (default: from the clock)
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
}

const PLAY_KEYS: &str = "arrows move  u undo  s shuffle  h hint  n new game  ESC quit";
const WATCH_KEYS: &str = "space pause  . step  + faster  - slower  n new game  ESC quit";

/// Restores the terminal however the command ends (ratatui's panic hook covers panics).
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn is_quit(key: &KeyEvent) -> bool {
    key.code == KeyCode::Esc
        || (key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL))
}

/// The next key press; `None` for other events (releases, resizes: the loop redraws anyway).
fn read_press() -> std::io::Result<Option<KeyEvent>> {
    Ok(match event::read()? {
        Event::Key(key) if key.kind == KeyEventKind::Press => Some(key),
        _ => None,
    })
}

fn direction(code: KeyCode) -> Option<Direction> {
    match code {
        KeyCode::Left => Some(Direction::Left),
        KeyCode::Right => Some(Direction::Right),
        KeyCode::Up => Some(Direction::Up),
        KeyCode::Down => Some(Direction::Down),
        _ => None,
    }
}

/// A strategy with one instance per game of the session, made when first needed.
struct Advisor {
    strategy: Strategy,
    instance: Option<(u64, Instance)>,
}

impl Advisor {
    fn new(strategy: Strategy) -> Advisor {
        Advisor {
            strategy,
            instance: None,
        }
    }

    /// The strategy's move for the session's position, with the time it took, or why there is none.
    fn advise(&mut self, session: &Session) -> Result<(Direction, Duration), String> {
        let game = session.game_number();
        if self.instance.as_ref().is_none_or(|(g, _)| *g != game) {
            let seed = seat_seed(session.game_seed(), 0);
            let setup = Setup::new(
                crate::games::contract::Rules::name(&crate::games::g2048::RULES),
                seed,
                0,
            );
            let instance = self
                .strategy
                .instantiate(&setup)
                .map_err(|f| f.to_string())?;
            self.instance = Some((game, instance));
        }
        let (_, instance) = self.instance.as_mut().expect("made above");
        let started = Instant::now();
        let result = instance.call::<_, Direction>("choose_move", &session.observation());
        if result.is_err() {
            self.instance = None;
        }
        result
            .map(|d| (d, started.elapsed()))
            .map_err(|f| f.to_string())
    }
}

fn title(session: &Session, extra: &str) -> String {
    let o = session.options();
    let mut t = format!(
        "2048  game {}  score {}  moves {}",
        session.game_number(),
        session.score(),
        session.moves()
    );
    if o.undo > 0 {
        t += &format!("  undo {}/{}", session.undo_available(), o.undo);
    }
    if o.shuffles > 0 {
        t += &format!("  shuffles {}", session.shuffles_left());
    }
    if o.evil {
        t += "  evil";
    }
    t + extra
}

/// The status line: the game's state first (won, over), then the last message.
fn status(session: &mut Session, message: &str) -> Line<'static> {
    if session.take_won_notice() {
        return Line::from(Span::styled(
            "You made 2048! Play on.",
            Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        ));
    }
    if session.is_over() {
        let text = format!(
            "Game over: score {}. n new game{}",
            session.score(),
            if session.undo_available() > 0 {
                ", u undo"
            } else {
                ""
            }
        );
        return Line::from(Span::styled(
            text,
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    }
    Line::raw(message.to_string())
}

fn session(
    size: usize,
    undo: usize,
    shuffles: u32,
    evil: bool,
    seed: Option<u64>,
) -> anyhow::Result<Session> {
    check_size(size).context("--size")?;
    Ok(Session::new(Options {
        size,
        undo,
        shuffles,
        evil,
        seed: seed.unwrap_or_else(clock_seed),
    })?)
}

pub fn execute_play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let G2048Only = args.game;
    let mut session = session(args.size, args.undo, args.shuffles, args.evil, args.seed)?;
    let mut advisor = match &args.hint {
        Some(path) => Some(Advisor::new(super::load(path, &args.limits)?)),
        None => None,
    };
    let mut terminal = ratatui::try_init().context("setting up the terminal")?;
    let _restore = Restore;
    let mut message = String::new();
    loop {
        let status = status(&mut session, &message);
        draw(&mut terminal, &session, status, "", PLAY_KEYS)?;
        let Some(key) = read_press()? else { continue };
        if is_quit(&key) {
            return Ok(ExitCode::SUCCESS);
        }
        message = match (direction(key.code), key.code) {
            (Some(d), _) => match session.step(d) {
                Ok(_) => String::new(),
                Err(e) => e.to_string(),
            },
            (None, KeyCode::Char('n')) => {
                session.restart();
                "new game".into()
            }
            (None, KeyCode::Char('u')) if session.undo() => "undone".into(),
            (None, KeyCode::Char('u')) => "nothing to undo".into(),
            (None, KeyCode::Char('s')) if session.shuffle() => "shuffled".into(),
            (None, KeyCode::Char('s')) => "no shuffles left".into(),
            (None, KeyCode::Char('h')) => match advisor.as_mut() {
                None => "no hint strategy: start with --hint STRATEGY".into(),
                Some(a) => match a.advise(&session) {
                    Ok((d, took)) => format!(
                        "hint: {} ({} in {:.1} ms)",
                        d.name(),
                        a.strategy.name(),
                        took.as_secs_f64() * 1e3
                    ),
                    Err(e) => format!("hint failed: {e}"),
                },
            },
            _ => message,
        };
    }
}

pub fn execute_watch(args: WatchArgs) -> anyhow::Result<ExitCode> {
    let G2048Only = args.game;
    let mut session = session(args.size, 0, 0, false, args.seed)?;
    let mut advisor = Advisor::new(super::load(&args.strategy, &args.limits)?);
    let mut terminal = ratatui::try_init().context("setting up the terminal")?;
    let _restore = Restore;
    let mut speed = args.speed.clamp(0.1, 1000.0);
    let (mut paused, mut step_once) = (false, false);
    let mut message = String::new();
    let mut next = Instant::now();
    loop {
        let extra = format!(
            "  {} at {speed:.1} moves/s{}",
            advisor.strategy.name(),
            if paused { "  PAUSED" } else { "" }
        );
        let status = status(&mut session, &message);
        draw(&mut terminal, &session, status, &extra, WATCH_KEYS)?;
        let running = (!paused || step_once) && !session.is_over() && !message.starts_with("fault");
        let wait = if running {
            next.saturating_duration_since(Instant::now())
        } else {
            Duration::from_secs(3600)
        };
        if event::poll(wait)? {
            let Some(key) = read_press()? else { continue };
            if is_quit(&key) {
                return Ok(ExitCode::SUCCESS);
            }
            match key.code {
                KeyCode::Char(' ') => paused = !paused,
                KeyCode::Char('.') => (paused, step_once) = (true, true),
                KeyCode::Char('+') => speed = (speed * 2.0).min(1000.0),
                KeyCode::Char('-') => speed = (speed / 2.0).max(0.1),
                KeyCode::Char('n') => {
                    session.restart();
                    message.clear();
                }
                _ => {}
            }
            continue;
        }
        step_once = false;
        next = Instant::now() + Duration::from_secs_f64(1.0 / speed);
        message = match advisor.advise(&session) {
            Ok((d, took)) => match session.step(d) {
                Ok(_) => format!("{} ({:.1} ms)", d.name(), took.as_secs_f64() * 1e3),
                Err(e) => format!("fault: illegal: {e}"),
            },
            Err(e) => format!("fault: {e}"),
        };
    }
}

fn draw(
    terminal: &mut DefaultTerminal,
    session: &Session,
    status: Line<'static>,
    extra: &str,
    keys: &str,
) -> anyhow::Result<()> {
    let tiles = session.tiles();
    let chrome = Chrome {
        title: title(session, extra),
        status,
        keys,
    };
    terminal.draw(|frame| board_view::draw(frame, &tiles, &chrome))?;
    Ok(())
}

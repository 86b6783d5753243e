//! Watching Wormworld: the board in the terminal (a colour per player, the hole, obstacles, the last
//! move marked), live during `botbox match worms --live` and animated by `botbox replay`.
//!
//! On a terminal the view takes the screen and reads keys; anywhere else (a pipe, a file, a test) it
//! prints the same boards as plain text, one after another.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::games::worms::{Game, Move, Verdict};
use crate::play::Ending;
use crate::play::generic::{self, Opening, Player, Step};
use crate::replay::ReplayFile;
use crate::runtime::Strategy;
use crate::tournament::runner::{Entry, Format, GameRecord, Plan};
use crate::tournament::summary;

use super::run::RunArgs;
use crate::games::worms::setup::NamedMap;
use crate::games::worms::view::{
    Cell, Replayed, Turn, arrow, board_text, cells, describe, end_text, last_head, replay_names,
    replayed,
};

const PLAYER_COLOURS: [Color; 2] = [Color::Blue, Color::Red];

/// The board in colour, two terminal columns per cell, the glyph in the first (a free cell `·`, a
/// worm's letter) and a head's arrow in the second, so every column lines up.
fn board_lines(game: &Game, turn: Option<&Turn>) -> Vec<Line<'static>> {
    let marked = last_head(game, turn);
    cells(game)
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let spans = row.iter().enumerate().map(|(c, cell)| match *cell {
                Cell::Free => Span::styled("· ", Style::new().fg(Color::DarkGray)),
                Cell::Obstacle => Span::styled("██", Style::new().fg(Color::Gray)),
                Cell::Hole => Span::styled(
                    "()",
                    Style::new()
                        .fg(Color::Black)
                        .bg(Color::Yellow)
                        .add_modifier(Modifier::BOLD),
                ),
                Cell::Worm { letter, seat, head } => {
                    let mut style = Style::new().fg(Color::White).bg(PLAYER_COLOURS[seat]);
                    if head.is_some() {
                        style = style.add_modifier(Modifier::BOLD);
                    }
                    if marked == Some([r as u32, c as u32]) {
                        style = style.bg(Color::LightYellow).fg(Color::Black);
                    }
                    let text = match head {
                        Some(direction) => format!("{letter}{}", arrow(direction)),
                        None => format!("{letter} "),
                    };
                    Span::styled(text, style)
                }
            });
            Line::from(spans.collect::<Vec<_>>())
        })
        .collect()
}

fn title(game: &Game, names: &[String; 2], header: &str) -> Line<'static> {
    let player = |seat: usize| {
        Span::styled(
            format!(" {} {} worms ", names[seat], game.worms_left(seat)),
            Style::new().fg(Color::White).bg(PLAYER_COLOURS[seat]),
        )
    };
    Line::from(vec![
        Span::raw(format!("{header}  ")),
        player(0),
        Span::raw(" vs "),
        player(1),
        Span::raw(format!("  turn {}/{}", game.turn(), game.turn_limit())),
    ])
}

fn result_text(game: &Game, names: &[String; 2]) -> Option<String> {
    let outcome = game.outcome()?;
    Some(match outcome.result {
        Verdict::Win(seat) => format!(
            "{} (player {}) wins: {}",
            names[seat],
            seat + 1,
            outcome.reason.name()
        ),
        Verdict::Draw => format!("draw: {}", outcome.reason.name()),
    })
}

/// Restores the terminal however the view ends.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

fn draw(
    terminal: &mut DefaultTerminal,
    title: Line<'static>,
    board: Vec<Line<'static>>,
    status: String,
    keys: &str,
) -> anyhow::Result<()> {
    let mut lines = vec![title, Line::raw("")];
    lines.extend(board);
    lines.push(Line::raw(""));
    lines.push(Line::raw(status));
    lines.push(Line::styled(
        keys.to_string(),
        Style::new().fg(Color::DarkGray),
    ));
    terminal.draw(|frame| frame.render_widget(Paragraph::new(lines), frame.area()))?;
    Ok(())
}

/// A key the viewers understand.
enum Key {
    Quit,
    Pause,
    Step,
    Back,
    Faster,
    Slower,
    Start,
    End,
}

/// Waits up to `wait` for a key.
fn key(wait: Duration) -> anyhow::Result<Option<Key>> {
    if !event::poll(wait)? {
        return Ok(None);
    }
    let Event::Key(k) = event::read()? else {
        return Ok(None);
    };
    if k.kind != KeyEventKind::Press {
        return Ok(None);
    }
    Ok(match k.code {
        KeyCode::Esc | KeyCode::Char('q') => Some(Key::Quit),
        KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => Some(Key::Quit),
        KeyCode::Char(' ') => Some(Key::Pause),
        KeyCode::Right | KeyCode::Char('.') => Some(Key::Step),
        KeyCode::Left | KeyCode::Char(',') => Some(Key::Back),
        KeyCode::Char('+') | KeyCode::Up => Some(Key::Faster),
        KeyCode::Char('-') | KeyCode::Down => Some(Key::Slower),
        KeyCode::Home => Some(Key::Start),
        KeyCode::End => Some(Key::End),
        _ => None,
    })
}

const WATCH_KEYS: &str = "space pause  + faster  - slower  q quit";
const REPLAY_KEYS: &str =
    "space pause  → step  ← back  + faster  - slower  Home start  End end  q quit";

/// `botbox match worms --live`: plays the match's games one at a time, drawing every turn, then
/// prints the standings.
pub fn live_match(
    maps: &[NamedMap],
    openings: u32,
    entries: &[Entry],
    games: usize,
    run: &RunArgs,
    delay_ms: u64,
) -> anyhow::Result<ExitCode> {
    let plan = Plan {
        format: Format::RoundRobin,
        games,
        seed: run.seed,
        seats: 2,
        repeat: false,
    };
    let schedule = crate::tournament::runner::schedule(&plan, entries.len(), maps.len());
    let tty = std::io::stdout().is_terminal();
    let mut terminal = if tty {
        Some(ratatui::try_init().context("setting up the terminal")?)
    } else {
        None
    };
    let restore = tty.then_some(Restore);
    let mut delay = Duration::from_millis(delay_ms);
    let (mut paused, mut quit) = (false, false);
    let mut records = Vec::new();
    for game in &schedule {
        if quit {
            break;
        }
        let map = &maps[game.variant];
        let names: [String; 2] = [0, 1].map(|s| entries[game.seats[s]].name.clone());
        let header = format!("game {}/{} on {}", game.index + 1, schedule.len(), map.name);
        let mut failure = None;
        let ending = play_watched(
            map,
            [
                &entries[game.seats[0]].strategy,
                &entries[game.seats[1]].strategy,
            ],
            game.seed,
            Opening::for_pair(openings, run.seed, game.round),
            &mut |state, turn| {
                let mut status = describe(turn, &names);
                if let Some(result) = result_text(state, &names) {
                    status = format!("{status}   —   {result}");
                }
                let Some(terminal) = terminal.as_mut() else {
                    println!(
                        "{header}  turn {}/{}  {status}",
                        state.turn(),
                        state.turn_limit()
                    );
                    for line in board_text(state, turn) {
                        println!("{line}");
                    }
                    println!();
                    return;
                };
                if quit || failure.is_some() {
                    return;
                }
                let shown = draw(
                    terminal,
                    title(state, &names, &header),
                    board_lines(state, turn),
                    status,
                    WATCH_KEYS,
                );
                let deadline = Instant::now() + delay;
                let waited = shown.and_then(|()| {
                    loop {
                        let left = deadline.saturating_duration_since(Instant::now());
                        let wait = if paused {
                            Duration::from_secs(3600)
                        } else {
                            left
                        };
                        match key(wait)? {
                            Some(Key::Quit) => {
                                quit = true;
                                break Ok(());
                            }
                            Some(Key::Pause) => paused = !paused,
                            Some(Key::Faster) => delay /= 2,
                            Some(Key::Slower) => delay = (delay * 2).max(Duration::from_millis(10)),
                            Some(Key::Step) if paused => break Ok(()),
                            _ if !paused && Instant::now() >= deadline => break Ok(()),
                            _ => {}
                        }
                    }
                });
                if let Err(e) = waited {
                    failure = Some(e);
                }
            },
        )?;
        if let Some(e) = failure {
            return Err(e);
        }
        let verdict = match ending.winner {
            Some(seat) => format!("{} wins ({})", names[seat], ending.reason),
            None => format!("draw ({})", ending.reason),
        };
        let faults: Vec<String> = ending
            .faults
            .iter()
            .flatten()
            .map(|f| f.to_string())
            .collect();
        let line = format!("game {}: {verdict} {}", game.index + 1, faults.join("; "));
        match terminal.as_mut() {
            Some(t) if !quit => {
                draw(t, Line::raw(line), Vec::new(), String::new(), "")?;
                std::thread::sleep(Duration::from_millis(800));
            }
            _ => println!("{line}"),
        }
        records.push(GameRecord {
            number: game.index + 1,
            seed: game.seed,
            variant: map.name.clone(),
            winner: ending.winner.map(|s| names[s].clone()),
            winner_seat: ending.winner,
            sha256: game
                .seats
                .iter()
                .map(|&e| entries[e].strategy.hash().to_string())
                .collect(),
            players: names.to_vec(),
            reason: ending.reason,
            turns: ending.turns,
            faults: ending.faults,
            figures: ending.figures,
        });
    }
    drop(restore);
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    println!("{} games watched", records.len());
    for s in summary::standings(&names, 2, &records) {
        println!(
            "  {}: {} wins, {} draws, {} losses, score {:.1}%",
            s.name, s.wins, s.draws, s.losses, s.score
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays one game on `map` through the one driver, as a run plays it, and shows `watch` the board
/// before the first turn and after every turn, the passes for a seat with no legal move included.
fn play_watched(
    map: &NamedMap,
    players: [&Strategy; 2],
    seed: u64,
    opening: Option<Opening>,
    watch: &mut dyn FnMut(&Game, Option<&Turn>),
) -> anyhow::Result<Ending> {
    let rules = &crate::games::worms::RULES;
    let mut board = Game::new(&map.map);
    watch(&board, None);
    pass_stuck(&mut board, watch);
    let mut shown = |step: &Step| {
        let Ok(mv) = serde_json::from_value::<Move>(step.action.clone()) else {
            return;
        };
        let seat = board.to_move();
        let before = board.worms_left(seat);
        if board.apply(mv).is_err() {
            return;
        }
        let turn = Turn {
            n: board.turn(),
            seat,
            mv: Some(mv),
            fell: board.worms_left(seat) < before,
            opening: step.opening,
        };
        watch(&board, Some(&turn));
        pass_stuck(&mut board, watch);
    };
    let played = generic::play(
        rules,
        &map.variant(),
        &players.map(Player::Bot),
        &[],
        seed,
        opening,
        true,
        Some(&mut shown),
    )
    .map_err(anyhow::Error::msg)?;
    Ok(Ending {
        figures: crate::play::Figures {
            moves_sha256: played.moves_sha256,
            ..Default::default()
        },
        ..Ending::new(
            played.outcome.winner(),
            played.outcome.reason,
            played.turns,
            played.faults,
        )
    })
}

/// Passes on `board` for every seat to move that has no legal move, as the game does, showing
/// each pass to `watch`.
fn pass_stuck(board: &mut Game, watch: &mut dyn FnMut(&Game, Option<&Turn>)) {
    while !board.is_over() && board.legal_moves(board.to_move()).is_empty() {
        let seat = board.to_move();
        board.pass().expect("a player without legal moves may pass");
        let turn = Turn {
            n: board.turn(),
            seat,
            mv: None,
            fell: false,
            opening: false,
        };
        watch(board, Some(&turn));
    }
}

/// Animates a Wormworld replay in the terminal: step, pause, change speed.
pub fn animate_replay(file: &ReplayFile) -> anyhow::Result<()> {
    let Replayed { games, turns, end } = replayed(file)?;
    let names = replay_names(file);
    let header = format!(
        "game {} on {}",
        file.header.number,
        file.header.params["map"].as_str().unwrap_or("?")
    );
    let mut terminal = ratatui::try_init().context("setting up the terminal")?;
    let _restore = Restore;
    let (mut at, mut paused) = (0usize, false);
    let mut delay = Duration::from_millis(200);
    loop {
        let turn = at.checked_sub(1).map(|i| &turns[i]);
        let mut status = describe(turn, &names);
        if at == turns.len() {
            status = format!("{status}   —   {}", end_text(end.as_deref()));
        }
        draw(
            &mut terminal,
            title(&games[at], &names, &header),
            board_lines(&games[at], turn),
            status,
            REPLAY_KEYS,
        )?;
        let running = !paused && at < turns.len();
        let wait = if running {
            delay
        } else {
            Duration::from_secs(3600)
        };
        match key(wait)? {
            None if running => at += 1,
            None => {}
            Some(Key::Quit) => return Ok(()),
            Some(Key::Pause) => paused = !paused,
            Some(Key::Step) => (paused, at) = (true, (at + 1).min(turns.len())),
            Some(Key::Back) => (paused, at) = (true, at.saturating_sub(1)),
            Some(Key::Faster) => delay = (delay / 2).max(Duration::from_millis(5)),
            Some(Key::Slower) => delay = (delay * 2).min(Duration::from_secs(5)),
            Some(Key::Start) => (paused, at) = (true, 0),
            Some(Key::End) => at = turns.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::worms::Map;

    #[test]
    fn heads_point_the_way_their_worms_face_and_every_cell_is_two_columns() {
        let map = Map::parse(include_str!("../../../examples/worms/arena.txt")).unwrap();
        let game = Game::new(&map);
        let lines = board_lines(&game, None);
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        let width = game.board().rows()[0].chars().count();
        for line in &text {
            assert_eq!(line.chars().count(), 2 * width, "{line:?}");
        }
        for worm in game.observation(0).worms {
            let [r, c] = worm.head();
            let cell: String = text[r as usize]
                .chars()
                .skip(2 * c as usize)
                .take(2)
                .collect();
            assert_eq!(
                cell,
                format!("{}{}", worm.letter, arrow(worm.direction)),
                "worm {}",
                worm.id
            );
        }
    }
}

//! botbox: a host that owns the rules of several games and runs untrusted strategies, written as Lua
//! scripts or WebAssembly modules, under deterministic limits.
//!
//! The crate is a library first; the `botbox` binary is a thin command line over it. To run a strategy
//! from your own program:
//!
//! ```no_run
//! use botbox::runtime::{Limits, Setup};
//! use botbox::games::g2048::{Direction, Game};
//!
//! let strategy = botbox::hosted::load("strategies/lua/g2048/corner.lua".as_ref(), &Limits::default())?;
//! let mut game = Game::new(4, 1)?;
//! let mut bot = strategy.instantiate(&Setup::new("2048", 7, 0))?;
//! while !game.is_over() {
//!     let dir: Direction = bot.call("choose_move", &game.observation())?;
//!     game.step(dir)?;
//! }
//! println!("score {}", game.score());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The map of the crate: [`games`] holds the pure rules engines; [`runtime`] is the only door to
//! strategy code; [`play`] plays one game between the two; [`tournament`] runs many games in parallel
//! and summarises them; [`replay`] records and reads games; [`reload`] watches strategy files for new versions; [`schema`] publishes the wire types.

#![deny(unsafe_code)]

/// The `botbox` command line: its subcommands, each with `--help` and examples. In the library so the
/// fuzz targets reach the parsers it owns (tournament files, the replay readers); not an API.
#[doc(hidden)]
pub mod cli;
pub mod games;
pub mod hosted;
pub mod league;
pub mod play;
pub mod reload;
pub mod replay;
pub mod runtime;
pub mod schema;
pub mod tournament;
pub mod view;

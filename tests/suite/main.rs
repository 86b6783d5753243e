//! The end-to-end tests, one binary with a module per area (as ripgrep does), so the test build
//! links once. Each module reads like the specification of its area; `util` holds the helpers.

mod bot_faults;
mod browser;
mod bs;
mod cli;
mod closed_stdout;
mod determinism;
mod dice;
mod embed;
mod hostile;
mod kits;
mod layers;
mod layout;
mod league;
mod league_edges;
mod league_holds;
mod league_signup;
mod league_strangers;
mod play;
mod program_time;
mod programs;
mod registry;
mod reload;
mod replay_text;
mod sandbox;
mod sprt;
mod util;
mod watching;
mod what_if;
mod worms;
mod worms_bots;

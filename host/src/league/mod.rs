//! The league (issue 16), its pure parts first: how a game's result moves the ratings of the bots
//! that played it ([`rating`]), and who plays next ([`matchmaker`]). Neither does I/O; the server,
//! the storage and the workers build on them.

pub mod matchmaker;
pub mod rating;

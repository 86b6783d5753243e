//! What a game looks like to a person, for every front end: a replay re-played and told as text
//! (`replay`), the viewer's frames (`frames`), each game's own view of both (`games`), the viewer
//! page they are embedded in (`page`), and the charts (`chart`). The CLI (`replay`, `view`, `report`) and the league's pages both draw with it;
//! it imports neither.

pub mod chart;
pub mod frames;
pub mod games;
pub mod page;
pub mod replay;

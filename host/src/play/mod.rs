//! Playing one game between a rules engine and strategy instances. This is where the two meet: the
//! engine decides what is legal, the strategy only ever sees its observation, and every fault ends
//! the game with its reason recorded.

pub mod bs;
pub mod dice;
pub mod dice_free;
pub mod g2048;
pub mod generic;
pub mod worms;
pub mod worms_text;

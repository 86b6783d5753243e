//! The two encodings of a decision's input and answer at the WASM boundary (`docs/wasm-abi.md`,
//! "Encodings"): JSON, which every module understands, and **postcard**, a compact binary form of the
//! same serde types that a module chooses by exporting `botbox_encoding` (the SDK's macros do).
//!
//! postcard (<https://postcard.jamesmunns.com/wire-format>) writes a struct's fields in declaration
//! order without names, integers as LEB128 varints (signed ones zigzagged), sequences and strings with
//! a varint length first, and an enum as the varint index of its variant followed by its fields. It is
//! not self-describing, so both sides must know the type: only the typed payloads below have a binary
//! form (every game's decisions), and a payload without one (a strategy's own JSON type) goes as JSON
//! both ways even to a module that chose postcard.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// What went wrong decoding or encoding postcard, in words.
pub type Error = String;

/// A type that crosses the WASM boundary. `BINARY` says whether it has a postcard form: when it has
/// and the module chose postcard, a call whose input is this type exchanges postcard both ways.
///
/// A strategy that declares observation types of its own for the JSON it reads implements this with
/// `const BINARY: bool = false;` and exports itself with `export_strategy!(MyBot, json)`.
pub trait Wire: Serialize + DeserializeOwned {
    /// Whether this type crosses as postcard to a module that chose it: it must agree with the host,
    /// which sends postcard for exactly the types listed in this module.
    const BINARY: bool;

    /// Appends the postcard form of `self` to `out`.
    fn to_binary(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        append(self, out)
    }

    /// Decodes the postcard form, all of `bytes` and nothing more.
    fn from_binary(bytes: &[u8]) -> Result<Self, Error> {
        exact(bytes)
    }
}

/// Appends the postcard form of `value` to `out`.
fn append<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
    let buffer = std::mem::take(out);
    *out = postcard::to_extend(value, buffer).map_err(|e| e.to_string())?;
    Ok(())
}

/// Decodes `bytes` as one `T`, refusing trailing bytes.
fn exact<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    match postcard::take_from_bytes::<T>(bytes) {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(format!("{} bytes left over after the value", rest.len())),
        Err(e) => Err(e.to_string()),
    }
}

macro_rules! binary {
    ($($ty:ty),* $(,)?) => {$(impl Wire for $ty {
        const BINARY: bool = true;
    })*};
}

binary!(
    crate::g2048::Observation,
    crate::g2048::Direction,
    crate::worms::Observation,
    crate::worms::Move,
    crate::dice::Observation,
    crate::dice::Move,
    crate::bs::PlayObservation,
    crate::bs::CallObservation,
    crate::connect4::Observation,
    crate::connect4::Move,
    crate::tron::Observation,
    crate::tron::Move,
    Vec<u32>,
    bool,
    (),
);

impl Wire for serde_json::Value {
    const BINARY: bool = false;
}

/// BS's event is an internally tagged enum in JSON (`{"type":"play",...}`), which postcard cannot
/// decode; its postcard form is the same variants as a plain enum (variant index, then the fields).
impl Wire for crate::bs::Event {
    const BINARY: bool = true;

    fn to_binary(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        append(&Tagged::from(self.clone()), out)
    }

    fn from_binary(bytes: &[u8]) -> Result<Self, Error> {
        exact::<Tagged>(bytes).map(Into::into)
    }
}

/// [`crate::bs::Event`] with serde's default (external) tagging, for postcard.
#[derive(Serialize, Deserialize)]
enum Tagged {
    Play {
        turn: u32,
        player: u32,
        rank: u32,
        count: u32,
        hand_size: u32,
        pile: u32,
    },
    NoCall {
        turn: u32,
        player: u32,
    },
    Call {
        turn: u32,
        player: u32,
        caller: u32,
        lie: bool,
        cards: Vec<u32>,
        taker: u32,
        taken: u32,
        reward: bool,
    },
    RoundEnd {
        round: u32,
    },
}

/// One conversion each way, both spelled out by the one macro so the variant lists cannot drift.
macro_rules! tagged {
    ($($variant:ident { $($field:ident),* }),* $(,)?) => {
        impl From<crate::bs::Event> for Tagged {
            fn from(event: crate::bs::Event) -> Tagged {
                match event {
                    $(crate::bs::Event::$variant { $($field),* } => Tagged::$variant { $($field),* },)*
                }
            }
        }

        impl From<Tagged> for crate::bs::Event {
            fn from(event: Tagged) -> crate::bs::Event {
                match event {
                    $(Tagged::$variant { $($field),* } => crate::bs::Event::$variant { $($field),* },)*
                }
            }
        }
    };
}

tagged!(
    Play {
        turn,
        player,
        rank,
        count,
        hand_size,
        pile
    },
    NoCall { turn, player },
    Call {
        turn,
        player,
        caller,
        lie,
        cards,
        taker,
        taken,
        reward
    },
    RoundEnd { round },
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bs::Event;

    fn round_trip<T: Wire + PartialEq + std::fmt::Debug>(value: T) -> Vec<u8> {
        let mut bytes = Vec::new();
        value.to_binary(&mut bytes).unwrap();
        assert_eq!(T::from_binary(&bytes).unwrap(), value);
        bytes
    }

    #[test]
    fn events_cross_as_a_plain_enum() {
        let call = Event::Call {
            turn: 5,
            player: 1,
            caller: 2,
            lie: true,
            cards: vec![8, 300],
            taker: 1,
            taken: 7,
            reward: false,
        };
        // Variant 2, then the fields in order; 300 is the varint ac 02.
        assert_eq!(round_trip(call), [2, 5, 1, 2, 1, 2, 8, 0xac, 0x02, 1, 7, 0]);
        assert_eq!(round_trip(Event::RoundEnd { round: 3 }), [3, 3]);
        round_trip(Event::NoCall { turn: 1, player: 0 });
        round_trip(Event::Play {
            turn: 0,
            player: 0,
            rank: 0,
            count: 2,
            hand_size: 11,
            pile: 2,
        });
    }

    /// The example of `docs/wasm-abi.md`, "Encodings", byte for byte.
    #[test]
    fn the_documented_2048_example() {
        use crate::g2048::{Direction, Observation};
        let obs: Observation = serde_json::from_str(
            r#"{"board":[[0,0,2,0],[0,0,0,0],[0,4,0,0],[0,0,0,2]],"score":4,"moves":3,
                "legal":["left","right","up","down"]}"#,
        )
        .unwrap();
        let mut bytes = Vec::new();
        obs.to_binary(&mut bytes).unwrap();
        assert_eq!(
            bytes,
            [
                4, 4, 0, 0, 2, 0, 4, 0, 0, 0, 0, 4, 0, 4, 0, 0, 4, 0, 0, 0, 2, 4, 3, 4, 0, 1, 2, 3
            ]
        );
        assert_eq!(Observation::from_binary(&bytes).unwrap(), obs);
        let mut answer = Vec::new();
        Direction::Up.to_binary(&mut answer).unwrap();
        assert_eq!(answer, [2]);
    }

    #[test]
    fn a_direction_is_its_index_and_trailing_bytes_are_refused() {
        use crate::g2048::Direction;
        assert_eq!(round_trip(Direction::Up), [2]);
        assert!(Direction::from_binary(&[4]).is_err());
        assert!(Direction::from_binary(&[]).is_err());
        assert!(
            Direction::from_binary(&[1, 0])
                .unwrap_err()
                .contains("left over")
        );
        assert_eq!(round_trip(vec![1u32, 51]), [2, 1, 51]);
        assert_eq!(round_trip(true), [1]);
        assert!(bool::from_binary(&[2]).is_err());
    }
}

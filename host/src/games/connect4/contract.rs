//! Connect Four behind the game contract ([`crate::games::contract`]): [`RULES`] lists the game and
//! starts a [`Match`], which speaks the JSON shapes of `botbox_sdk::connect4` (`docs/connect4.md`).
//!
//! - Variants: `standard` (7x6, 4 in a row, the default), a few named shapes, and any name written
//!   `COLSxROWS-INAROW` that the engine can play ([`Config::parse`]). No variant comes from a file.
//! - An action is a JSON integer, the column. Anything else is [`Refusal::Malformed`]; a column
//!   outside the grid or a full one is [`Refusal::Illegal`].
//! - The replay event of a move: `{"seat":0,"column":3,"row":5}`, the row counted from the top.
//! - Outcomes: [`Outcome::two_player`] with reason `line` (the mover completed a line) or
//!   `board-full` (a draw). A forfeit ends the game: the faulting seat loses, with its reason.
//! - No chance: the seed is not used, and a game is a function of its moves.

use serde_json::{Value, json};

use super::{Config, Game, IllegalMove};
use crate::games::Rng;
use crate::games::contract::{
    GameInfo, Match, Outcome, Refusal, Rules, SeatIndex, Seats, Turn, Variant, VariantInfo,
    with_forfeits,
};
use crate::games::contract::{Templates, WireDecision};
use botbox_sdk::connect4 as wire;

/// The function a Connect Four strategy answers.
const CHOOSE_MOVE: &str = "choose_move";

/// The variants known by name, the default first: name, shape, description.
const NAMED: [(&str, Config, &str); 5] = [
    (
        "standard",
        Config::STANDARD,
        "7 columns, 6 rows, 4 in a row (Kaggle's ConnectX default)",
    ),
    (
        "6x5-4",
        Config {
            columns: 6,
            rows: 5,
            inarow: 4,
        },
        "6 columns, 5 rows, 4 in a row",
    ),
    (
        "8x7-4",
        Config {
            columns: 8,
            rows: 7,
            inarow: 4,
        },
        "8 columns, 7 rows, 4 in a row (the largest 8-column board)",
    ),
    (
        "9x6-5",
        Config {
            columns: 9,
            rows: 6,
            inarow: 5,
        },
        "9 columns, 6 rows, 5 in a row",
    ),
    (
        "5x4-3",
        Config {
            columns: 5,
            rows: 4,
            inarow: 3,
        },
        "5 columns, 4 rows, 3 in a row: short games",
    ),
];

/// Connect Four in the registry.
#[derive(Debug, Clone, Copy, Default)]
pub struct Connect4Rules;

/// The registry's Connect Four.
pub static RULES: Connect4Rules = Connect4Rules;

impl Connect4Rules {
    /// The shape of the variant called `name`: a named one, or `COLSxROWS-INAROW`.
    pub fn config(&self, name: &str) -> Result<Config, String> {
        if let Some((_, config, _)) = NAMED.iter().find(|(n, _, _)| *n == name) {
            return Ok(*config);
        }
        Config::parse(name).map_err(|e| match e {
            super::ConfigError::Name(_) => {
                let names: Vec<&str> = NAMED.iter().map(|(n, _, _)| *n).collect();
                format!(
                    "unknown Connect Four variant {name:?}: name one of {} or write COLUMNSxROWS-INAROW, as 7x6-4",
                    names.join(", ")
                )
            }
            other => format!("Connect Four variant {name:?}: {other}"),
        })
    }
}

/// What the registry lists of the game.
const INFO: GameInfo = GameInfo {
    name: "connect4",
    title: "Connect Four (Kaggle ConnectX rules): drop pieces into columns, line up four",
    seats: Seats::exactly(2),
    functions: &[CHOOSE_MOVE],
    bots: &[
        "strategies/lua/connect4/center.lua",
        "strategies/lua/connect4/random.lua",
    ],
    setup_example: "--openings 4",
    templates: Templates {
        lua: Some(include_str!(
            "../../../../strategies/templates/connect4.lua"
        )),
        rust: Some(include_str!("../../../../strategies/templates/connect4.rs")),
        wat: Some(include_str!(
            "../../../../strategies/templates/connect4.wat"
        )),
        c: Some(include_str!("../../../../strategies/templates/connect4.c")),
        zig: Some(include_str!(
            "../../../../strategies/templates/connect4.zig"
        )),
        assemblyscript: Some(include_str!("../../../../strategies/templates/connect4.ts")),
    },
    sparring: Some((
        "center",
        include_str!("../../../../strategies/lua/connect4/center.lua"),
    )),
    wire: &[WireDecision::of::<wire::Observation, wire::Move>(
        CHOOSE_MOVE,
        "connect4",
    )],
};

impl Rules for Connect4Rules {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn variants(&self) -> Vec<VariantInfo> {
        NAMED
            .iter()
            .map(|(name, _, description)| VariantInfo {
                name: name.to_string(),
                description: description.to_string(),
            })
            .collect()
    }

    fn start(&self, variant: &Variant, seats: u32, _seed: u64) -> Result<Box<dyn Match>, String> {
        if !self.seats().contains(seats) {
            return Err(format!("Connect Four is played by 2 players, not {seats}"));
        }
        if variant.text.is_some() {
            return Err(format!(
                "Connect Four variants are named, not read from a file: {:?} (try standard or 7x6-4)",
                variant.name
            ));
        }
        let config = self.config(&variant.name)?;
        let game = Game::new(config).map_err(|e| e.to_string())?;
        Ok(with_forfeits(Connect4Match { game }))
    }
}

/// One Connect Four game seen through the contract.
#[derive(Debug, Clone)]
pub struct Connect4Match {
    game: Game,
}

impl Connect4Match {
    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The column `action` names, or why it is not a column at all. Whole numbers are columns,
    /// even out of range or negative (the rules refuse those); `3.0` is taken as `3`.
    fn decode(&self, action: &Value) -> Result<i64, Refusal> {
        let columns = self.game.config().columns;
        let column = match action {
            Value::Number(n) => n.as_i64().or_else(|| {
                if n.is_u64() {
                    Some(i64::MAX)
                } else {
                    n.as_f64()
                        .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                        .map(|f| f as i64)
                }
            }),
            _ => None,
        };
        column.ok_or_else(|| {
            let mut sent = action.to_string();
            if sent.len() > 80 {
                let cut = (0..=80)
                    .rev()
                    .find(|&i| sent.is_char_boundary(i))
                    .unwrap_or(0);
                sent.truncate(cut);
                sent.push_str("...");
            }
            Refusal::Malformed(format!(
                "sent {sent}, expected a column number from 0 to {}",
                columns - 1
            ))
        })
    }
}

impl Match for Connect4Match {
    fn turn(&self) -> Option<Turn> {
        (!self.is_over()).then(|| Turn {
            seat: self.game.to_move() as SeatIndex,
            function: CHOOSE_MOVE,
        })
    }

    fn observation(&self, seat: SeatIndex) -> Value {
        serde_json::to_value(self.game.observation(seat as usize)).expect("observations serialize")
    }

    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        let column = self.decode(action)?;
        let col = self.game.check(column).map_err(|e| match e {
            IllegalMove::ColumnFull { .. } => Refusal::Illegal(format!(
                "{e}: the open columns are {:?}",
                self.game.legal_moves()
            )),
            other => Refusal::Illegal(other.to_string()),
        })?;
        let played = self.game.play(col).expect("a checked column plays");
        Ok(json!({"seat": played.seat, "column": played.column, "row": played.row}))
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        self.game.random_column(rng).map(|col| json!(col))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game
            .outcome()
            .map(|o| Outcome::two_player(o.winner.map(|s| s as SeatIndex), o.reason.name()))
    }

    fn seat_count(&self) -> u32 {
        2
    }

    fn moves(&self) -> u32 {
        self.game.moves()
    }

    fn state(&self) -> Value {
        let config = self.game.config();
        let outcome = self.game.outcome().map(|o| {
            json!({
                "winner": o.winner,
                "reason": o.reason.name(),
                "line": self.game.winning_line(),
            })
        });
        json!({
            "variant": config.to_string(),
            "columns": config.columns,
            "rows": config.rows,
            "inarow": config.inarow,
            "board": self.game.board().cells(),
            "to_move": self.game.to_move(),
            "history": self.game.history(),
            "outcome": outcome,
        })
    }
}

//! Any registered two-player game, scheduled by the runner through the game contract: round
//! robins, gauntlets, Elo, shards and replays for a game with no code of its own here (Connect Four
//! first). Each game is played by [`crate::play::generic`].

use serde_json::json;

use crate::games::contract::{Rules, Variant};
use crate::play::generic::{self, Opening, Player, Step};
use crate::replay::{FORMAT, Header, Replay, StrategyRef, VERSION};
use crate::runtime::Strategy;
use crate::tournament::runner::{Ending, Entry, Figures, Playable, Scheduled};

/// A two-player registered game over a list of variants.
#[derive(Clone)]
pub struct Versus {
    pub rules: &'static dyn Rules,
    pub variants: Vec<Variant>,
    /// Random opening moves before the strategies play (0: none), the same for both games of a pair.
    pub openings: u32,
    /// The run's seed, from which the openings are drawn.
    pub seed: u64,
}

impl std::fmt::Debug for Versus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Versus")
            .field("game", &self.rules.name())
            .field("variants", &self.variants)
            .field("openings", &self.openings)
            .finish()
    }
}

impl Versus {
    /// The game over `variants`; every variant is started once here, so a bad one is refused before
    /// any game is scheduled.
    pub fn new(
        rules: &'static dyn Rules,
        variants: Vec<Variant>,
        openings: u32,
        seed: u64,
    ) -> Result<Versus, String> {
        if !rules.seats().contains(2) {
            return Err(format!(
                "{} is played by {} players, not two",
                rules.name(),
                rules.seats()
            ));
        }
        if variants.is_empty() {
            return Err("no variants".into());
        }
        for v in &variants {
            rules.start(v, 2, 0).map(drop)?;
        }
        Ok(Versus {
            rules,
            variants,
            openings,
            seed,
        })
    }
}

impl Playable for Versus {
    fn game(&self) -> &str {
        self.rules.name()
    }

    fn seats(&self) -> usize {
        2
    }

    fn variants(&self) -> usize {
        self.variants.len()
    }

    fn variant_name(&self, variant: usize) -> String {
        self.variants[variant].name.clone()
    }

    fn setup(&self) -> String {
        self.variants
            .iter()
            .map(|v| format!("variant {}\n{}\n", v.name, v.text.as_deref().unwrap_or("")))
            .chain(std::iter::once(format!("openings {}\n", self.openings)))
            .collect()
    }

    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        let variant = &self.variants[game.variant];
        let strategies = super::hosted::two(players);
        let mut turns = Vec::new();
        // How many lines each seat had logged by each recorded turn.
        let mut logged = [0; 2];
        let seats = strategies.map(Player::Bot);
        let opening = Opening::for_pair(self.openings, self.seed, game.round);
        let played = generic::play(
            self.rules,
            variant,
            &seats,
            game.seed,
            opening,
            record,
            &mut |step: &Step| {
                if record {
                    logged[step.seat as usize] += step.log.len();
                    let mut turn = json!({
                        "n": step.n,
                        "seat": step.seat,
                        "function": step.function,
                        "action": step.action,
                        "event": step.event,
                        "opening": step.opening,
                    });
                    // A fault taken as the seat's move in a round of simultaneous moves.
                    if step.fault {
                        turn["fault"] = true.into();
                    }
                    turns.push((turn, logged));
                }
            },
        )
        .expect("the variants were started when the run was set up");
        let p = &played.outcome.points;
        let winner = if p[0] > p[1] {
            Some(0)
        } else if p[1] > p[0] {
            Some(1)
        } else {
            None
        };
        let ending = Ending {
            figures: Figures {
                moves_sha256: Some(played.moves_sha256),
                ..Figures::default()
            },
            ..Ending::new(
                winner,
                played.outcome.reason.clone(),
                played.moves,
                played.faults,
            )
        };
        let replay = record.then(|| {
            let number = game.index + 1;
            let start = played.start;
            let mut r = Replay::new(header(
                self.rules, variant, strategies, number, game.seed, start,
            ));
            for (turn, logged) in &turns {
                r.turn_logged(turn, logged);
            }
            r.logs = played.logs;
            r.finish(&json!({ "outcome": played.outcome, "ending": ending }));
            r
        });
        (ending, replay)
    }
}

/// The replay header of one game: the variant by name (and text, when it came from a file).
fn header(
    rules: &dyn Rules,
    variant: &Variant,
    players: [&Strategy; 2],
    number: usize,
    seed: u64,
    start: serde_json::Value,
) -> Header {
    Header {
        format: FORMAT.into(),
        version: VERSION,
        game: rules.name().to_string(),
        params: json!({ "variant": variant.name, "text": variant.text }),
        number,
        seed,
        strategies: players.iter().map(|s| StrategyRef::of(s)).collect(),
        limits: serde_json::to_value(players.map(Strategy::limits)).expect("limits serialize"),
        start,
    }
}

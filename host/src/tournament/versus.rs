//! Any registered game, scheduled by the runner through the game contract: round robins,
//! gauntlets, Elo, shards and replays for two players, pool tables for more (BS), for a game with
//! no code of its own here. Each game is played by [`crate::play::generic`], through the game's
//! typed encoding where it has one.

use serde_json::json;

use crate::games::contract::{Rules, Variant};
use crate::play::generic::{self, Opening, Player, Step};
use crate::replay::{FORMAT, Header, Replay, StrategyRef, VERSION};
use crate::runtime::Strategy;
use crate::tournament::runner::{Ending, Entry, Figures, Playable, Scheduled};

/// A registered game over a list of variants, at two seats if it can be played by two, else at
/// its fewest.
#[derive(Clone)]
pub struct Versus {
    pub rules: &'static dyn Rules,
    /// Players at every game.
    pub seats: usize,
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
        let seats = if rules.seats().contains(2) {
            2
        } else {
            rules.seats().min
        };
        if variants.is_empty() {
            return Err("no variants".into());
        }
        for v in &variants {
            rules.start(v, seats, 0).map(drop)?;
        }
        Ok(Versus {
            rules,
            seats: seats as usize,
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
        self.seats
    }

    fn variants(&self) -> usize {
        self.variants.len()
    }

    fn variant_name(&self, variant: usize) -> String {
        self.variants[variant].name.clone()
    }

    /// The variants' set-up and, for a game that would otherwise repeat, the openings.
    fn setup(&self) -> String {
        let variants = self.variants.iter().map(|v| self.rules.setup_text(v));
        let openings = self
            .rules
            .repeats()
            .then(|| format!("openings {}\n", self.openings));
        variants.chain(openings).collect()
    }

    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        let variant = &self.variants[game.variant];
        let strategies: Vec<&Strategy> = players.iter().map(|e| &e.strategy).collect();
        // A game of more than two seats shows its players by their entries' names.
        let names: Vec<String> = if self.seats > 2 {
            players.iter().map(|e| e.name.clone()).collect()
        } else {
            Vec::new()
        };
        let mut turns = Vec::new();
        // How many lines each seat had logged by each recorded turn.
        let mut logged = vec![0; self.seats];
        let seats: Vec<Player> = strategies.iter().map(|s| Player::Bot(s)).collect();
        let opening = Opening::for_pair(self.openings, self.seed, game.round);
        let mut record_turn = |step: &Step| {
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
            turns.push((turn, logged.clone()));
        };
        let played = generic::play(
            self.rules,
            variant,
            &seats,
            &names,
            game.seed,
            opening,
            record,
            record.then_some(&mut record_turn as &mut dyn FnMut(&Step)),
        )
        .expect("the variants were started when the run was set up");
        let winner = played.outcome.winner();
        let ending = Ending {
            figures: Figures {
                moves_sha256: played.moves_sha256,
                // A solo game's points are its score.
                score: (self.seats == 1).then(|| played.outcome.points[0]),
                details: played.details,
            },
            ..Ending::new(
                winner,
                played.outcome.reason.clone(),
                played.turns,
                played.faults,
            )
        };
        let replay = record.then(|| {
            let number = game.index + 1;
            let start = played.start;
            let mut r = Replay::new(header(
                self.rules,
                variant,
                &strategies,
                &names,
                number,
                game.seed,
                start,
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

/// The replay header of one game: the variant by name (and text, when it came from a file), the
/// players named `names` if the game shows names.
fn header(
    rules: &dyn Rules,
    variant: &Variant,
    players: &[&Strategy],
    names: &[String],
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
        strategies: players
            .iter()
            .enumerate()
            .map(|(seat, s)| match names.get(seat) {
                Some(name) => StrategyRef {
                    name: name.clone(),
                    ..StrategyRef::of(s)
                },
                None => StrategyRef::of(s),
            })
            .collect(),
        limits: serde_json::to_value(players.iter().map(|s| s.limits()).collect::<Vec<_>>())
            .expect("limits serialize"),
        start,
    }
}

//! The registry: every game botbox hosts, by the name the command line, tournament files, replays and
//! the league use. Adding a game is one line here (and its folder under `games/`).

use super::contract::{Rules, Variant};
use super::{bs, connect4, dice, g2048, tron, worms};
use crate::hosted::Encoding;
use crate::runtime::Extension;
use crate::tournament::setup::SetUp;
use crate::view::games::GameView;

/// A game and what it brings besides its rules, each part kept in the game's folder: the registry is
/// the one place that names them all (`games/<game>/encoding.rs` is the game's glue to the
/// runtimes, `games/<game>/view.rs` how it looks, `games/<game>/setup.rs` how a run sets it up).
pub struct Game {
    /// Its rules through the contract, which every command plays.
    pub rules: &'static dyn Rules,
    /// Its typed encoding, for speed (else its seats cross as its contract's JSON).
    pub encoding: Option<&'static dyn Encoding>,
    /// What it adds to every strategy's environment (2048's Lua module and WASM imports).
    pub extension: Option<&'static dyn Extension>,
    /// How its replays are told and drawn (`games/<game>/view.rs`; else from its contract's moves).
    pub view: Option<&'static dyn GameView>,
    /// How it is set up for a run from the command line's options and for the league's ladder
    /// (`games/<game>/setup.rs`; else by its variants and openings,
    /// [`crate::tournament::setup::Contract`]).
    pub setup: Option<&'static dyn SetUp>,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("rules", &self.rules.name())
            .field("encoding", &self.encoding.is_some())
            .field("extension", &self.extension.is_some())
            .field("view", &self.view.is_some())
            .field("setup", &self.setup.is_some())
            .finish()
    }
}

impl Game {
    /// A game played through its contract's JSON alone.
    pub const fn rules(rules: &'static dyn Rules) -> Game {
        Game {
            rules,
            encoding: None,
            extension: None,
            view: None,
            setup: None,
        }
    }
}

/// Every registered game, in the order `botbox games` lists them: adding a game is a line here.
static GAMES: [Game; 6] = [
    Game {
        encoding: Some(&g2048::encoding::Encoding),
        extension: Some(&g2048::encoding::G2048),
        view: Some(&g2048::view::View),
        setup: Some(&g2048::setup::SetUp),
        ..Game::rules(&g2048::RULES)
    },
    Game {
        encoding: Some(&dice::encoding::Encoding),
        view: Some(&dice::view::View),
        setup: Some(&dice::setup::SetUp),
        ..Game::rules(&dice::RULES)
    },
    Game {
        encoding: Some(&bs::encoding::Encoding),
        view: Some(&bs::view::View),
        ..Game::rules(&bs::RULES)
    },
    Game {
        encoding: Some(&worms::encoding::Encoding),
        view: Some(&worms::view::View),
        setup: Some(&worms::setup::SetUp),
        ..Game::rules(&worms::RULES)
    },
    Game {
        view: Some(&connect4::view::View),
        ..Game::rules(&connect4::RULES)
    },
    Game {
        view: Some(&tron::view::View),
        ..Game::rules(&tron::RULES)
    },
];

/// Every registered game with what it brings.
pub fn games() -> &'static [Game] {
    &GAMES
}

/// The registered game called `name`, with what it brings.
pub fn game(name: &str) -> Option<&'static Game> {
    GAMES.iter().find(|g| g.rules.name() == name)
}

/// Every registered game's rules, in the order `botbox games` lists them.
pub fn all() -> [&'static dyn Rules; 6] {
    std::array::from_fn(|i| GAMES[i].rules)
}

/// The names of every registered game, for messages.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|g| g.name()).collect()
}

/// The game called `name`; the error suggests the closest name and lists the games there are.
pub fn find(name: &str) -> Result<&'static dyn Rules, String> {
    all().into_iter().find(|g| g.name() == name).ok_or_else(|| {
        let closest = names()
            .into_iter()
            .map(|n| (strsim::damerau_levenshtein(n, &name.to_lowercase()), n))
            .min()
            .filter(|(distance, n)| *distance <= 2 && *distance < n.len());
        let hint = closest.map_or_else(String::new, |(_, n)| format!(" (did you mean {n}?)"));
        format!(
            "unknown game {name:?}{hint}: the games are {}",
            names().join(", ")
        )
    })
}

/// The default variant of `rules` (the first it lists).
pub fn default_variant(rules: &dyn Rules) -> Variant {
    let name = rules
        .variants()
        .first()
        .map_or_else(String::new, |v| v.name.clone());
    Variant::named(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        let names = names();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} twice");
            assert_eq!(find(name).unwrap().name(), *name);
        }
        let err = find("chess").err().unwrap();
        assert!(err.contains("2048") && err.contains("connect4"), "{err}");
        assert!(!err.contains("did you mean"), "{err}");
        assert!(
            find("wroms")
                .err()
                .unwrap()
                .contains("(did you mean worms?)")
        );
        assert!(
            find("conect4")
                .err()
                .unwrap()
                .contains("(did you mean connect4?)")
        );
        assert!(find("BS").err().unwrap().contains("(did you mean bs?)"));
    }

    #[test]
    fn every_game_lists_a_default_variant_that_starts() {
        for rules in all() {
            let variants = rules.variants();
            assert!(!variants.is_empty(), "{}", rules.name());
            let seats = rules.seats().min;
            let game = rules.start(&default_variant(rules), seats, 1);
            assert!(game.is_ok(), "{}: {:?}", rules.name(), game.err());
        }
    }
}

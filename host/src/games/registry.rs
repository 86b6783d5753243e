//! The registry: every game botbox hosts, by the name the command line, tournament files, replays and
//! the league use. Adding a game is one line here (and its folder under `games/`).

use super::contract::{Rules, Variant};
use super::{bs, connect4, dice, g2048, worms};

/// Every registered game, in the order `botbox games` lists them.
pub fn all() -> [&'static dyn Rules; 5] {
    [
        &g2048::RULES,
        &dice::RULES,
        &bs::RULES,
        &worms::RULES,
        &connect4::RULES,
    ]
}

/// The names of every registered game, for messages.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|g| g.name()).collect()
}

/// The game called `name`; the error lists the games there are.
pub fn find(name: &str) -> Result<&'static dyn Rules, String> {
    all().into_iter().find(|g| g.name() == name).ok_or_else(|| {
        format!(
            "unknown game {name:?}: the games are {}",
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

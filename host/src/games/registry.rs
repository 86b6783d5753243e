//! The registry: every game botbox hosts, by the name the command line, tournament files, replays and
//! the league use. Adding a game is one line here (and its folder under `games/`).

use super::contract::{Rules, Variant};
use super::{bs, connect4, dice, g2048, tron, worms};

/// Every registered game, in the order `botbox games` lists them.
pub fn all() -> [&'static dyn Rules; 6] {
    [
        &g2048::RULES,
        &dice::RULES,
        &bs::RULES,
        &worms::RULES,
        &connect4::RULES,
        &tron::RULES,
    ]
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

//! Who plays next on a ladder. The seed bot is chosen where a game informs most: a new version
//! first, then a bot whose rating is still uncertain, then a settled one ([`Need`]), and within
//! those the one with the fewest games; its opponents are the closest in rating among the bots of
//! other owners (so games are informative), never two bots of one owner at a table. Ties are broken
//! by a generator the caller seeds, so a league's schedule is reproducible from its seed.

use rand::RngExt;

use crate::games::Rng;

/// A bot version that may play.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The version's id (the caller's).
    pub id: u64,
    /// Its owner: two bots of one owner never meet in a rated game.
    pub owner: u64,
    /// The rating the ladder sorts by ([`super::rating::Rating::conservative`]).
    pub rating: f64,
    /// Games played recently (the caller chooses the window).
    pub recent_games: u32,
    /// How much its rating needs games.
    pub need: Need,
}

/// How much a bot's rating needs games, most first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Need {
    /// A version with fewer than [`NEW_GAMES`] games.
    New,
    /// A rating that has not settled ([`super::rating::Rating::settled`]).
    Uncertain,
    /// A settled rating: it gets a slow maintenance rate.
    Settled,
}

/// A version is new until it has played this many games.
pub const NEW_GAMES: i64 = 10;

impl Need {
    /// The need of a version with `games` games and a rating that has or has not `settled`.
    pub fn of(games: i64, settled: bool) -> Need {
        match (games < NEW_GAMES, settled) {
            (true, _) => Need::New,
            (false, false) => Need::Uncertain,
            (false, true) => Need::Settled,
        }
    }
}

/// The next table of `seats` candidates, as indices into `candidates` with the seed bot first, or
/// `None` when there are not enough bots (of distinct owners, for two players). The caller alternates the sides and the
/// variant by the game's number.
pub fn pick(candidates: &[Candidate], seats: usize, rng: &mut Rng) -> Option<Vec<usize>> {
    if seats == 0 || candidates.is_empty() {
        return None;
    }
    let first = candidates.iter().map(|c| (c.need, c.recent_games)).min()?;
    let seeds: Vec<usize> = (0..candidates.len())
        .filter(|&i| (candidates[i].need, candidates[i].recent_games) == first)
        .collect();
    let seed = seeds[rng.random_range(0..seeds.len())];
    let mut table = vec![seed];
    // The others by rating distance from the seed; equal distances in a random order.
    let mut others: Vec<(f64, u64, usize)> = (0..candidates.len())
        .filter(|&i| i != seed)
        .map(|i| {
            let distance = (candidates[i].rating - candidates[seed].rating).abs();
            (distance, rng.random::<u64>(), i)
        })
        .collect();
    others.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for &(_, _, i) in &others {
        if table.len() == seats {
            break;
        }
        if table
            .iter()
            .all(|&t| candidates[t].owner != candidates[i].owner)
        {
            table.push(i);
        }
    }
    // A table of more than two seats with fewer owners than seats (a BS table of two people's
    // bots): fill it with the closest bots whose owner has the fewest seats at the table, so no
    // owner holds more than their share. Two-player games never meet their own owner.
    while seats > 2 && table.len() < seats {
        let seated = |owner: u64| {
            table
                .iter()
                .filter(|&&t| candidates[t].owner == owner)
                .count()
        };
        let next = others
            .iter()
            .filter(|(_, _, i)| !table.contains(i))
            .min_by_key(|(_, _, i)| seated(candidates[*i].owner))
            .map(|&(_, _, i)| i);
        match next {
            Some(i) => table.push(i),
            None => break,
        }
    }
    (table.len() == seats).then_some(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rng;

    fn bot(id: u64, owner: u64, rating: f64, recent_games: u32) -> Candidate {
        Candidate {
            id,
            owner,
            rating,
            recent_games,
            need: Need::Uncertain,
        }
    }

    #[test]
    fn new_versions_come_first_then_uncertain_ratings_then_settled_ones() {
        let mut bots = [
            bot(1, 1, 1500.0, 0),
            bot(2, 2, 1500.0, 40),
            bot(3, 3, 1500.0, 30),
        ];
        bots[0].need = Need::Settled;
        bots[2].need = Need::New;
        assert_eq!(pick(&bots, 2, &mut rng(1)).unwrap()[0], 2, "the new one");
        bots[2].need = Need::Settled;
        assert_eq!(
            pick(&bots, 2, &mut rng(1)).unwrap()[0],
            1,
            "the uncertain one"
        );
        bots[1].need = Need::Settled;
        assert_eq!(
            pick(&bots, 2, &mut rng(1)).unwrap()[0],
            0,
            "the fewest games"
        );
        assert_eq!(Need::of(3, true), Need::New);
        assert_eq!(Need::of(NEW_GAMES, false), Need::Uncertain);
        assert_eq!(Need::of(NEW_GAMES, true), Need::Settled);
    }

    #[test]
    fn the_seed_has_the_fewest_games_and_meets_the_closest_rating_of_another_owner() {
        let bots = [
            bot(1, 1, 1500.0, 10),
            bot(2, 1, 1510.0, 10), // the seed's owner: never its opponent
            bot(3, 2, 1400.0, 10),
            bot(4, 3, 1600.0, 0), // the seed: fewest games
            bot(5, 4, 1590.0, 10),
        ];
        let table = pick(&bots, 2, &mut rng(1)).unwrap();
        assert_eq!(table, [3, 4], "bot 4 against bot 5, 10 points away");
        let table = pick(&bots, 4, &mut rng(1)).unwrap();
        assert_eq!(table[0], 3);
        let owners: std::collections::HashSet<u64> = table.iter().map(|&i| bots[i].owner).collect();
        assert_eq!(owners.len(), 4, "one bot per owner at a table: {table:?}");
        let five = pick(&bots, 5, &mut rng(1)).unwrap();
        let owner1 = five.iter().filter(|&&i| bots[i].owner == 1).count();
        assert_eq!(owner1, 2, "five seats, four owners: one owner sits twice");
        assert_eq!(
            pick(&bots, 6, &mut rng(1)),
            None,
            "five bots cannot fill six seats"
        );
    }

    #[test]
    fn a_table_of_four_from_two_owners_seats_each_twice() {
        let c = [
            bot(1, 1, 1500.0, 0),
            bot(2, 1, 1500.0, 3),
            bot(3, 1, 1500.0, 3),
            bot(4, 2, 1500.0, 3),
            bot(5, 2, 1500.0, 3),
        ];
        let table = pick(&c, 4, &mut rng(7)).unwrap();
        assert_eq!(table[0], 0);
        let owners: Vec<u64> = table.iter().map(|&i| c[i].owner).collect();
        assert_eq!(owners.iter().filter(|&&o| o == 1).count(), 2, "{owners:?}");
        assert_eq!(owners.iter().filter(|&&o| o == 2).count(), 2, "{owners:?}");
        // Two players: never one owner's two bots, even with nobody else.
        assert_eq!(pick(&c[..3], 2, &mut rng(7)), None);
    }

    #[test]
    fn ties_are_broken_by_the_seeded_generator_alone() {
        let bots: Vec<Candidate> = (0..6).map(|i| bot(i, i, 1500.0, 0)).collect();
        let picks = |seed| pick(&bots, 2, &mut rng(seed)).unwrap();
        assert_eq!(picks(7), picks(7), "same seed, same table");
        let seeds: std::collections::HashSet<usize> = (0..40).map(|s| picks(s)[0]).collect();
        assert!(
            seeds.len() > 3,
            "every tied bot gets to be the seed: {seeds:?}"
        );
        assert_eq!(pick(&[], 2, &mut rng(1)), None);
    }
}

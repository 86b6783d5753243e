//! A BS (Cheat) strategy that counts cards: `knowledge` keeps a rank distribution for every card it
//! cannot see, updated from the public events (plays, calls and the cards they show), and gives the
//! chance that a claim is a lie; this file decides.
//!
//! - **Play**: every card of the required rank when it holds any (a true claim cannot be called
//!   with profit); otherwise a lie with the card it will need furthest ahead (its own turns ask for
//!   c, c+4, c+8, ... mod 13), so the cards it keeps are the ones it can play truthfully soonest,
//!   and with a big hand the next such card too.
//! - **Call**: when the player has just emptied its hand (nothing to lose: a true play wins anyway);
//!   when the claim is impossible; and otherwise when the expected gain of a call is positive: a
//!   caught lie costs the liar the pile and lets the caller shed a card (the last one wins the game:
//!   the reward-card win), a wrong call costs the caller the pile. Gains are measured on a guessed
//!   win chance by hand size ([`Tuning::value`]).
//!
//! See README.md for the design, the measurements and how to tune it.

pub mod knowledge;

use botbox_sdk::bs::{CallObservation, Event, PlayObservation, RANKS, rank};
use botbox_sdk::{BsStrategy, Setup};

use knowledge::{Knowledge, Model};

/// The decision parameters (all can be set with `--param name=value`).
#[derive(Clone, Debug)]
pub struct Tuning {
    /// The guessed win chance with one card left (with none it is 1).
    pub one_card: f64,
    /// The scale of the guessed win chance with two cards or more: `level * e^(-(n - 1) / decay)`.
    pub level: f64,
    /// How fast the win chance falls with more cards: a factor e per `decay` cards.
    pub decay: f64,
    /// The share of a liar's loss that counts as the bot's gain.
    pub others: f64,
    /// A lie puts down two cards (rather than one) when the hand holds at least this many.
    pub lie2_hand: f64,
    pub model: Model,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            one_card: 0.9,
            level: 0.9,
            decay: 7.0,
            others: 0.25,
            lie2_hand: 6.0,
            model: Model::default(),
        }
    }
}

impl Tuning {
    /// Reads the parameters present in `setup.params`.
    pub fn from_setup(setup: &Setup) -> Tuning {
        let mut t = Tuning::default();
        let get = |name: &str| setup.params.get(name).and_then(|v| v.as_f64());
        let set = |slot: &mut f64, name: &str| {
            if let Some(v) = get(name) {
                *slot = v;
            }
        };
        set(&mut t.one_card, "one_card");
        t.level = t.one_card;
        set(&mut t.level, "level");
        set(&mut t.decay, "decay");
        set(&mut t.others, "others");
        set(&mut t.lie2_hand, "lie2_hand");
        set(&mut t.model.floor, "floor");
        if let Some(v) = get("fitting") {
            t.model.fitting = v as u32;
        }
        for (i, slot) in t.model.lie_prior.iter_mut().enumerate() {
            set(slot, &format!("lie{}", i + 1));
        }
        t
    }

    /// The guessed chance of winning with `cards` cards in hand.
    pub fn value(&self, cards: u32) -> f64 {
        match cards {
            0 => 1.0,
            1 => self.one_card,
            _ => self.level * (-(f64::from(cards) - 1.0) / self.decay).exp(),
        }
    }
}

/// How many of its own turns from now the rank `r` is needed when the current rank is `c`: the k
/// with c + 4k = r (mod 13); 10 is the inverse of 4 modulo 13.
pub fn turns_ahead(r: u32, c: u32) -> u32 {
    ((r + RANKS - c) * 10) % RANKS
}

/// The strategy: its knowledge of the cards (from its first observation on) and its parameters.
#[derive(Debug)]
pub struct Counter {
    seat: u32,
    knowledge: Option<Knowledge>,
    tuning: Tuning,
    /// The chance of a lie the last call decision worked with (for calibration in tuning runs).
    pub last_estimate: Option<f64>,
}

impl Counter {
    pub fn with_tuning(seat: u32, tuning: Tuning) -> Counter {
        Counter {
            seat,
            knowledge: None,
            tuning,
            last_estimate: None,
        }
    }

    pub fn knowledge(&self) -> Option<&Knowledge> {
        self.knowledge.as_ref()
    }

    fn knowledge_mut(&mut self, hand: &[u32]) -> &mut Knowledge {
        let (seat, model) = (self.seat, &self.tuning.model);
        self.knowledge
            .get_or_insert_with(|| Knowledge::new(seat, hand, model.clone()))
    }

    /// The cards to play on rank `c` from `hand`: all of rank `c`; without any, a lie with the
    /// card needed furthest ahead (the first in hand order among cards of that rank), and with a
    /// big hand also the next one.
    fn choose_cards(&self, hand: &[u32], c: u32) -> Vec<u32> {
        let mut cards: Vec<u32> = hand.iter().copied().filter(|&id| rank(id) == c).collect();
        if !cards.is_empty() {
            return cards;
        }
        let lie = if hand.len() as f64 >= self.tuning.lie2_hand {
            2
        } else {
            1
        };
        while cards.len() < lie {
            let mut best: Option<u32> = None;
            for &id in hand.iter().filter(|id| !cards.contains(id)) {
                if best.is_none_or(|b| turns_ahead(rank(id), c) > turns_ahead(rank(b), c)) {
                    best = Some(id);
                }
            }
            match best {
                Some(card) => cards.push(card),
                None => break,
            }
        }
        cards
    }

    /// Whether calling the play in `obs` gains more than it risks, given `lie`, the chance it is a lie.
    fn worth_calling(&self, obs: &CallObservation, lie: f64) -> bool {
        let t = &self.tuning;
        let mine = obs.hand.len() as u32;
        let pile = obs.pile;
        let now = t.value(mine);
        let caught = t.value(mine - 1) - now
            + t.others * (t.value(obs.player_hand) - t.value(obs.player_hand + pile));
        let wrong = now - t.value(mine + pile);
        lie * caught > (1.0 - lie) * wrong
    }
}

impl BsStrategy for Counter {
    fn new(setup: &Setup) -> Counter {
        Counter::with_tuning(setup.seat, Tuning::from_setup(setup))
    }

    fn play(&mut self, obs: PlayObservation) -> Vec<u32> {
        let knowledge = self.knowledge_mut(&obs.hand);
        knowledge.sync(&obs.hand, &obs.hand_sizes, obs.pile);
        let cards = self.choose_cards(&obs.hand, obs.rank);
        self.knowledge_mut(&obs.hand).own_play(&cards, obs.rank);
        cards
    }

    fn call(&mut self, obs: CallObservation) -> bool {
        let knowledge = self.knowledge_mut(&obs.hand);
        knowledge.play(obs.player, obs.rank, obs.count, obs.player_hand, obs.pile);
        knowledge.sync(&obs.hand, &obs.hand_sizes, obs.pile);
        let lie = knowledge.last_lie();
        self.last_estimate = None;
        if obs.player_hand == 0 {
            return true;
        }
        self.last_estimate = Some(lie);
        lie >= 1.0 || self.worth_calling(&obs, lie)
    }

    fn observe(&mut self, event: Event) {
        let Some(knowledge) = self.knowledge.as_mut() else {
            return; // before its first observation the bot does not know its hand yet
        };
        match event {
            Event::Play {
                player,
                rank,
                count,
                hand_size,
                pile,
                ..
            } => knowledge.play(player, rank, count, hand_size, pile),
            Event::Call {
                player,
                caller,
                lie,
                cards,
                taker,
                reward,
                ..
            } => knowledge.call(player, caller, lie, &cards, taker, reward),
            Event::NoCall { .. } | Event::RoundEnd { .. } => {}
        }
    }
}

botbox_sdk::export_bs_strategy!(Counter);

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 4] = ["a", "b", "c", "d"];

    fn counter(seat: u32) -> Counter {
        Counter::new(&Setup::new("bs", 7, seat))
    }

    fn play_obs(seat: u32, rank: u32, hand: &[u32], sizes: [u32; 4], pile: u32) -> PlayObservation {
        PlayObservation {
            you: seat,
            players: NAMES.map(String::from).to_vec(),
            round: 0,
            turn: 0,
            rank,
            hand: hand.to_vec(),
            hand_sizes: sizes.to_vec(),
            pile,
        }
    }

    /// Seat 0 is asked about seat 1's play of `count` cards of `rank`, leaving it `left`.
    fn call_obs(hand: &[u32], rank: u32, count: u32, left: u32, pile: u32) -> CallObservation {
        CallObservation {
            you: 0,
            players: NAMES.map(String::from).to_vec(),
            round: 0,
            turn: 1,
            player: 1,
            rank,
            count,
            player_hand: left,
            pile,
            hand: hand.to_vec(),
            hand_sizes: vec![hand.len() as u32, left, 13, 13],
        }
    }

    #[test]
    fn turns_ahead_follows_the_plus_four_cycle() {
        assert_eq!(turns_ahead(5, 5), 0);
        assert_eq!(turns_ahead(9, 5), 1);
        assert_eq!(turns_ahead(0, 5), 2);
        assert_eq!(turns_ahead(1, 5), 12);
    }

    #[test]
    fn it_plays_every_card_of_the_required_rank() {
        let mut bot = counter(0);
        let hand = [8, 1, 40, 3, 22];
        assert_eq!(
            bot.play(play_obs(0, 0, &hand, [5, 13, 13, 13], 0)),
            vec![1, 3]
        );
    }

    #[test]
    fn without_the_rank_it_lies_with_the_card_needed_furthest_ahead() {
        // Rank 0 now; its next turns ask for 4, 8, 12, 3, 7, 11, 2, 6, 10, 1, 5, 9: rank 9 (cards
        // 36-39) comes last, then rank 5, then rank 1.
        let mut bot = counter(0);
        let hand = [4, 37, 21, 38];
        assert_eq!(
            bot.play(play_obs(0, 0, &hand, [4, 13, 13, 13], 0)),
            vec![37]
        );
        // With a big hand it puts down the next one too.
        let mut bot = counter(0);
        let hand = [4, 37, 21, 8, 12, 16, 5];
        assert_eq!(
            bot.play(play_obs(0, 0, &hand, [7, 13, 13, 13], 0)),
            vec![37, 21]
        );
    }

    #[test]
    fn it_calls_a_claim_of_cards_it_holds() {
        let mut bot = counter(0);
        // I hold three cards of rank 1 (ids 4, 5, 6); seat 1 claims two.
        assert!(bot.call(call_obs(&[4, 5, 6, 20, 24], 1, 2, 11, 2)));
    }

    #[test]
    fn it_calls_a_player_who_goes_out() {
        let mut bot = counter(0);
        assert!(bot.call(call_obs(&[20, 24, 28], 1, 1, 0, 1)));
    }

    #[test]
    fn it_lets_a_plausible_claim_pass() {
        let mut bot = counter(0);
        assert!(!bot.call(call_obs(&[20, 24, 28, 32, 36], 1, 1, 12, 1)));
    }

    #[test]
    fn holding_one_card_it_calls_a_likely_lie() {
        // Seat 1 has had to play rank 1 with three cards left; I hold one card and have seen
        // nothing of rank 1, so the claim is a coin toss or worse, and a right call wins.
        let mut bot = counter(0);
        let obs = call_obs(&[20], 1, 1, 2, 1);
        assert!(bot.call(obs));
        assert!(bot.last_estimate.is_some_and(|q| q > 0.3));
    }

    #[test]
    fn parameters_come_from_the_setup() {
        let mut setup = Setup::new("bs", 1, 2);
        setup.params.insert("one_card".into(), 0.5.into());
        setup.params.insert("lie1".into(), 9.into());
        let t = Tuning::from_setup(&setup);
        assert_eq!((t.one_card, t.level, t.model.lie_prior[0]), (0.5, 0.5, 9.0));
    }
}

//! What the bot believes about the cards it cannot see, as a rank distribution per card.
//!
//! Every card outside the bot's own hand is a **slot**: a card in another seat's hand or on the pile,
//! with a probability for each of the 13 ranks. A card the bot saw face up (its own, or one a call
//! showed) is a slot that is certain of its rank. The slots are updated as the public events come:
//!
//! - **A play of k cards claimed as rank r**: k slots of the player move to the pile. Each becomes
//!   "rank r" if the claim is true and "one of the player's other cards" if it is a lie, weighted by
//!   the chance of a lie (see [`Knowledge::lie_probability`]). Every bot of the reference pool plays
//!   all its cards of the required rank when it has any, so after the play the player holds no card
//!   of rank r either way: its remaining slots lose rank r. This is the strongest inference of the
//!   model: a seat that has had its turn at rank r holds that rank again only through a pickup.
//! - **A call**: the played cards are shown; the whole pile, slot by slot, goes to the taker's hand;
//!   a caller who rewards puts one of its slots on the pile.
//!
//! After each update the slots are rescaled so that, for every rank, their probabilities add up to
//! the number of cards of that rank outside the bot's hand (iterative proportional fitting).
//!
//! The bot may learn of a play twice (from its call observation and from the public `Play` event,
//! in whichever order the host sends them) or only once (a host that sends no events); the updates
//! are idempotent, and slot counts are re-synchronised with the observed sizes.

use botbox_sdk::bs::{PLAYERS, RANKS, rank};

const R: usize = RANKS as usize;

/// A rank distribution.
pub type Dist = [f64; R];

fn one_hot(r: u32) -> Dist {
    let mut d = [0.0; R];
    d[r as usize] = 1.0;
    d
}

fn normalised(mut d: Dist) -> Dist {
    let total: f64 = d.iter().sum();
    if total > 0.0 {
        for p in &mut d {
            *p /= total;
        }
    }
    d
}

/// One card on the pile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub dist: Dist,
    /// The rank claimed for it; `None` for a reward card.
    pub claimed: Option<u32>,
    pub player: u8,
}

/// A play as it was registered, to recognise it when it is reported again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PlayKey {
    player: u8,
    rank: u32,
    count: u32,
    pile: u32,
}

/// Lie sizes with a weight: 1, 2, 3, 4, 5, and 6 or more cards.
pub const LIE_SIZES: usize = 6;

/// The parameters of the inference.
#[derive(Clone, Debug)]
pub struct Model {
    /// Prior weights of a lie of 1, 2, 3, 4, 5 and 6+ cards, before calls show a player's lies.
    pub lie_prior: [f64; LIE_SIZES],
    /// Added to each slot's chance of the claimed rank (times the share of that rank's cards still
    /// out) when judging a claim, against overconfidence.
    pub floor: f64,
    /// Rounds of proportional fitting after an update.
    pub fitting: u32,
}

impl Default for Model {
    fn default() -> Model {
        Model {
            lie_prior: [3.0, 1.5, 0.3, 0.2, 0.2, 0.3],
            floor: 0.01,
            fitting: 3,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Knowledge {
    pub me: u8,
    model: Model,
    /// The slots of each seat's hand (the bot's own stays empty: its hand is known).
    hands: [Vec<Dist>; PLAYERS],
    pile: Vec<Entry>,
    /// Where the last registered play starts in `pile`.
    play_start: usize,
    last_play: Option<PlayKey>,
    /// The chance of a lie of the last registered play (another seat's).
    last_lie: f64,
    hand: Vec<u32>,
    /// The bot's hand before it gave a reward card; which one shows in its next hand.
    gave_reward: Option<Vec<u32>>,
    /// Per seat: the sizes of the lies shown by calls (1, 2, 3, 4, 5, 6+ cards).
    lies: [[u32; LIE_SIZES]; PLAYERS],
}

impl Knowledge {
    /// The state at the deal: the bot holds `hand`; the other 39 cards are in the three other hands.
    pub fn new(me: u32, hand: &[u32], model: Model) -> Knowledge {
        let mut k = Knowledge {
            me: me as u8,
            model,
            hands: Default::default(),
            pile: Vec::with_capacity(64),
            play_start: 0,
            last_play: None,
            last_lie: 0.0,
            hand: hand.to_vec(),
            gave_reward: None,
            lies: [[0; LIE_SIZES]; PLAYERS],
        };
        let outside = k.outside();
        let total: f64 = outside.iter().sum();
        let prior = outside.map(|n| n / total.max(1.0));
        for seat in 0..PLAYERS {
            if seat != me as usize {
                k.hands[seat] = vec![prior; 13];
            }
        }
        k
    }

    /// The cards of each rank outside the bot's hand.
    fn outside(&self) -> Dist {
        let mut out = [4.0; R];
        for &c in &self.hand {
            out[rank(c) as usize] -= 1.0;
        }
        out
    }

    pub fn hand(&self) -> &[u32] {
        &self.hand
    }

    pub fn pile(&self) -> &[Entry] {
        &self.pile
    }

    /// The slots of `seat`'s hand.
    pub fn slots(&self, seat: usize) -> &[Dist] {
        &self.hands[seat]
    }

    /// The lie sizes that calls have shown for `seat` (1, 2, 3, 4, 5, 6+ cards).
    pub fn lies_shown(&self, seat: usize) -> [u32; LIE_SIZES] {
        self.lies[seat]
    }

    /// The chance that the last play registered (another seat's) is a lie.
    pub fn last_lie(&self) -> f64 {
        self.last_lie
    }

    /// Expected cards of rank `r` in `seat`'s hand.
    pub fn expected(&self, seat: usize, r: u32) -> f64 {
        self.hands[seat].iter().map(|d| d[r as usize]).sum()
    }

    /// Takes in the bot's hand, the hand sizes and the pile size of an observation (after the play
    /// being asked about, if any, was registered), and repairs any slot count that disagrees.
    pub fn sync(&mut self, hand: &[u32], sizes: &[u32], pile: u32) {
        if let Some(before) = self.gave_reward.take()
            && let Some(given) = before.iter().copied().find(|c| !hand.contains(c))
            && let Some(first) = self.pile.first_mut()
            && first.claimed.is_none()
        {
            first.dist = one_hot(rank(given));
        }
        let mut repaired = self.hand.len() != hand.len();
        self.hand.clear();
        self.hand.extend_from_slice(hand);
        for (seat, &size) in sizes.iter().enumerate().take(PLAYERS) {
            if seat != self.me as usize && self.hands[seat].len() != size as usize {
                let average = self.average(seat);
                self.hands[seat].resize(size as usize, average);
                repaired = true;
            }
        }
        if self.pile.len() != pile as usize {
            let entry = Entry {
                dist: self.average_unknown(),
                claimed: None,
                player: self.me,
            };
            self.pile.resize(pile as usize, entry);
            self.play_start = self.play_start.min(self.pile.len());
            repaired = true;
        }
        if repaired {
            self.fit();
        }
    }

    /// The average slot of `seat` (or of all unknown cards if it has none).
    fn average(&self, seat: usize) -> Dist {
        let slots = &self.hands[seat];
        if slots.is_empty() {
            return self.average_unknown();
        }
        let mut avg = [0.0; R];
        for d in slots {
            for (a, p) in avg.iter_mut().zip(d) {
                *a += p / slots.len() as f64;
            }
        }
        avg
    }

    fn average_unknown(&self) -> Dist {
        normalised(self.outside())
    }

    /// The bot's own play: the cards are known.
    pub fn own_play(&mut self, cards: &[u32], claimed: u32) {
        self.play_start = self.pile.len();
        for &card in cards {
            self.pile.push(Entry {
                dist: one_hot(rank(card)),
                claimed: Some(claimed),
                player: self.me,
            });
        }
        self.hand.retain(|c| !cards.contains(c));
        self.last_play = Some(PlayKey {
            player: self.me,
            rank: claimed,
            count: cards.len() as u32,
            pile: self.pile.len() as u32,
        });
    }

    /// Another seat's play of `count` cards claimed as rank `claimed`, leaving it `hand_after`
    /// cards and the pile `pile` cards.
    pub fn play(&mut self, player: u32, claimed: u32, count: u32, hand_after: u32, pile: u32) {
        let key = PlayKey {
            player: player as u8,
            rank: claimed,
            count,
            pile,
        };
        if self.last_play == Some(key) && self.pile.len() == pile as usize {
            return;
        }
        self.last_play = Some(key);
        let seat = player as usize;
        if seat == self.me as usize {
            return; // registered by own_play; `sync` repairs the pile if that went wrong
        }
        let before = (hand_after + count) as usize;
        if self.hands[seat].len() != before {
            let average = self.average(seat);
            self.hands[seat].resize(before, average);
        }
        let lie = self.lie_probability(seat, claimed, count);
        self.last_lie = lie;
        let r = claimed as usize;
        // What a lie would have put down: the player's cards other than rank r.
        let mut other = self.average(seat);
        other[r] = 0.0;
        let other = normalised(other);
        // The played slots: those most likely of rank r (all of them, if the claim is true).
        let slots = &mut self.hands[seat];
        slots.sort_by(|a, b| b[r].total_cmp(&a[r]));
        slots.drain(..count as usize);
        for d in slots.iter_mut() {
            d[r] = 0.0;
            *d = if d.iter().sum::<f64>() > 0.0 {
                normalised(*d)
            } else {
                other
            };
        }
        self.play_start = self.pile.len();
        let mut dist = [0.0; R];
        for (i, p) in dist.iter_mut().enumerate() {
            *p = lie * other[i];
        }
        dist[r] += 1.0 - lie;
        for _ in 0..count {
            self.pile.push(Entry {
                dist,
                claimed: Some(claimed),
                player: player as u8,
            });
        }
        self.fit();
    }

    /// A call on the last play: the played cards are shown, `taker` takes the whole pile, and after
    /// a lie the caller puts one random card of its own face down as the new pile.
    pub fn call(
        &mut self,
        player: u32,
        caller: u32,
        lie: bool,
        cards: &[u32],
        taker: u32,
        reward: bool,
    ) {
        if self.last_play.is_none() {
            return; // already resolved (or never seen): `sync` repairs the counts
        }
        let start = self.play_start.min(self.pile.len());
        for (entry, &card) in self.pile[start..].iter_mut().zip(cards) {
            entry.dist = one_hot(rank(card));
        }
        if lie {
            let size = (cards.len().max(1) - 1).min(LIE_SIZES - 1);
            self.lies[player as usize][size] += 1;
        }
        // The bot's own pickup shows in its next hand.
        let taken: Vec<Entry> = std::mem::take(&mut self.pile);
        let mine = taker as u8 == self.me;
        if !mine {
            self.hands[taker as usize].extend(taken.iter().map(|e| e.dist));
        }
        self.play_start = 0;
        self.last_play = None;
        if reward {
            let seat = caller as usize;
            if caller as u8 == self.me {
                self.gave_reward = Some(self.hand.clone());
                self.pile.push(Entry {
                    dist: self.average_unknown(),
                    claimed: None,
                    player: self.me,
                });
            } else {
                // A random card of the caller: on average its average slot. The slot most like the
                // average leaves its hand, so the known cards stay.
                let average = self.average(seat);
                let slots = &mut self.hands[seat];
                let distance = |d: &Dist| {
                    d.iter()
                        .zip(&average)
                        .map(|(a, b)| (a - b).abs())
                        .sum::<f64>()
                };
                if let Some(i) = (0..slots.len())
                    .min_by(|&a, &b| distance(&slots[a]).total_cmp(&distance(&slots[b])))
                {
                    slots.swap_remove(i);
                }
                self.pile.push(Entry {
                    dist: average,
                    claimed: None,
                    player: caller as u8,
                });
            }
        }
        // The bot's own pickup or reward changes its hand: `sync` fits the slots when it shows.
        let own_hand_changes = mine || (reward && caller as u8 == self.me);
        if !own_hand_changes {
            self.fit();
        }
    }

    /// Rescales the slots so that every rank's probabilities add up to its cards outside the bot's
    /// hand, keeping each slot a distribution.
    fn fit(&mut self) {
        let target = self.outside();
        for _ in 0..self.model.fitting {
            let mut total = [0.0; R];
            for d in self
                .hands
                .iter()
                .flatten()
                .chain(self.pile.iter().map(|e| &e.dist))
            {
                for (t, p) in total.iter_mut().zip(d) {
                    *t += p;
                }
            }
            let scale: Dist = std::array::from_fn(|r| {
                if total[r] > 0.0 {
                    target[r] / total[r]
                } else {
                    0.0
                }
            });
            let rescale = |d: &mut Dist| {
                for (p, s) in d.iter_mut().zip(&scale) {
                    *p *= s;
                }
                let sum: f64 = d.iter().sum();
                if sum > 0.0 {
                    for p in d.iter_mut() {
                        *p /= sum;
                    }
                }
            };
            for d in self.hands.iter_mut().flatten() {
                rescale(d);
            }
            for e in &mut self.pile {
                rescale(&mut e.dist);
            }
        }
    }

    /// The chance that `seat`, holding its slots as they are before the play, lies when it claims
    /// `count` cards of rank `r`: a lie means it held none of the rank, a true claim that it held
    /// exactly `count` (the pool's bots play all their matching cards).
    pub fn lie_probability(&self, seat: usize, r: u32, count: u32) -> f64 {
        let out = self.outside()[r as usize];
        if f64::from(count) > out {
            return 1.0;
        }
        // P(exactly x of rank r) for x = 0..=count, a Poisson-binomial over the slots.
        let floor = self.model.floor * out / 4.0;
        let k = count as usize;
        let mut dist = vec![0.0; k + 2];
        dist[0] = 1.0;
        for slot in &self.hands[seat] {
            let p = (slot[r as usize] + floor).min(1.0);
            for x in (0..=k + 1).rev() {
                let stay = dist[x] * (1.0 - p);
                let from = if x > 0 { dist[x - 1] * p } else { 0.0 };
                dist[x] = stay + from;
            }
        }
        let shown = self.lies[seat];
        let size = (k.max(1) - 1).min(LIE_SIZES - 1);
        let prior = &self.model.lie_prior;
        let total = prior.iter().sum::<f64>() + shown.iter().map(|&n| f64::from(n)).sum::<f64>();
        let lie_size = (prior[size] + f64::from(shown[size])) / total;
        let lie = dist[0] * lie_size;
        let truth = dist[k];
        if lie + truth <= 0.0 {
            return 0.5;
        }
        lie / (lie + truth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: [u32; 4] = [13, 13, 13, 13];

    fn dealt(hand: &[u32]) -> Knowledge {
        Knowledge::new(0, hand, Model::default())
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn at_the_deal_each_rank_is_spread_over_the_other_hands() {
        let k = dealt(&[0, 1, 2, 3, 4, 8, 12, 16, 20, 24, 28, 32, 36]);
        // Rank 0: all four in my hand. Rank 1: three out, a quarter... of 39 cards each.
        assert!(close(k.expected(1, 0), 0.0));
        assert!(close(k.expected(1, 1), 1.0));
    }

    #[test]
    fn a_claim_of_cards_the_bot_holds_is_a_lie() {
        let k = dealt(&[4, 5, 6, 20]);
        assert_eq!(k.lie_probability(1, 1, 2), 1.0);
    }

    #[test]
    fn after_its_turn_a_seat_holds_none_of_that_rank() {
        // Thirteen cards, none of rank 1: 39 slots for the 39 other cards.
        let mut k = dealt(&[0, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 2]);
        k.play(1, 1, 1, 12, 1);
        assert!(close(k.expected(1, 1), 0.0));
        // The rank's other cards went to the other hands and the pile.
        // (Proportional fitting converges quickly but not exactly.)
        let elsewhere = k.expected(2, 1) + k.expected(3, 1) + k.pile()[0].dist[1];
        assert!((elsewhere - 4.0).abs() < 0.02, "{elsewhere}");
    }

    #[test]
    fn a_play_reported_twice_is_registered_once() {
        let mut k = dealt(&[0, 5, 9]);
        k.play(1, 1, 2, 11, 2);
        k.sync(&[0, 5, 9], &SIZES, 2);
        k.play(1, 1, 2, 11, 2);
        assert_eq!(k.pile().len(), 2);
    }

    #[test]
    fn a_call_sends_the_pile_and_the_shown_cards_to_the_taker() {
        let mut k = dealt(&[0, 5, 9]);
        k.own_play(&[0], 0);
        k.play(1, 1, 1, 12, 2);
        // Seat 2 calls: seat 1 lied with card 40 and takes the pile; seat 2 gives a reward card.
        k.call(1, 2, true, &[40], 1, true);
        assert_eq!(k.slots(1).len(), 14);
        // It holds my card 0 for sure, and maybe others of rank 0.
        assert!(k.expected(1, 0) > 1.0, "{}", k.expected(1, 0));
        assert!(k.expected(1, 10) >= 1.0);
        assert_eq!(k.pile().len(), 1);
        assert_eq!(k.slots(2).len(), 12);
        assert_eq!(k.lies_shown(1), [1, 0, 0, 0, 0, 0]);
        // Seat 1 claims rank 0 later: it holds card 0, so the claim is no lie.
        assert!(k.lie_probability(1, 0, 1) < 0.01);
    }

    #[test]
    fn a_reward_card_of_mine_is_found_in_the_next_hand() {
        let mut k = dealt(&[0, 5, 9]);
        k.play(1, 1, 1, 12, 1);
        k.call(1, 0, true, &[40], 1, true);
        k.sync(&[0, 9], &[2, 14, 13, 13], 1);
        assert!(close(k.pile()[0].dist[1], 1.0));
    }

    #[test]
    fn a_small_hand_lies_more_often() {
        let mut big = dealt(&[20]);
        big.sync(&[20], &[1, 13, 13, 13], 0);
        let mut small = dealt(&[20]);
        small.sync(&[20], &[1, 3, 13, 13], 0);
        assert!(small.lie_probability(1, 1, 1) > big.lie_probability(1, 1, 1));
    }

    #[test]
    fn a_missed_event_resynchronises_the_counts() {
        let mut k = dealt(&[0, 5, 9]);
        k.sync(&[0, 5, 9], &[3, 12, 13, 13], 1);
        assert_eq!(k.pile().len(), 1);
        assert_eq!(k.slots(1).len(), 12);
    }
}

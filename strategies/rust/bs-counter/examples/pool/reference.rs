//! The reference pool of docs/bs.md ("The contest's reference bots") ported to Rust, decision for
//! decision the same as the Lua files in strategies/lua/bs (Player2 included: like player2.lua it
//! calls on its own `java.util.Random` seeded with 20 in every game), so that tuning runs natively at
//! full speed and a pool plays the same games in both.

use botbox_sdk::bs::{CallObservation, PlayObservation, rank};

pub trait Bot {
    fn play(&mut self, obs: &PlayObservation) -> Vec<u32>;
    fn call(&mut self, obs: &CallObservation) -> bool;
}

/// The reference bot called `name` (a Lua file stem), if there is one, new for a game. `_seed` is the
/// seat's seed, unused: no reference bot draws from it (Player2's generator always starts from 20).
pub fn by_name(name: &str, _seed: u64) -> Option<Box<dyn Bot>> {
    Some(match name {
        "player1" => Box::new(Simple::new(1)),
        "player2" => Box::new(Simple::new(2)),
        "player3" => Box::new(Simple::new(3)),
        "player4" => Box::new(Simple::new(4)),
        "hoarder" => Box::new(Hoarder),
        "calculating_liar" => Box::new(CalculatingLiar::default()),
        "player_conman" => Box::new(ConMan::new()),
        _ => return None,
    })
}

fn matching(hand: &[u32], c: u32) -> Vec<u32> {
    hand.iter().copied().filter(|&id| rank(id) == c).collect()
}

fn ahead(r: u32, c: u32) -> u32 {
    ((r + 13 - c) * 10) % 13
}

/// `java.util.Random`, the 48-bit linear congruential generator of the Java specification, as
/// player2.lua ports it: `setSeed` scrambles the seed with the multiplier, `next(bits)` steps the
/// state and keeps its top `bits` bits, `nextDouble()` joins `next(26)` and `next(27)` into 53 bits.
struct JavaRandom(u64);

impl JavaRandom {
    const MULTIPLIER: u64 = 0x5DEECE66D;
    const ADDEND: u64 = 0xB;
    const MASK: u64 = (1 << 48) - 1;

    /// `new Random(seed)`: state = (seed XOR 0x5DEECE66D) mod 2^48.
    fn new(seed: u64) -> JavaRandom {
        JavaRandom((seed ^ Self::MULTIPLIER) & Self::MASK)
    }

    /// `next(bits)` for bits from 1 to 32, unsigned: state = (state * 0x5DEECE66D + 0xB) mod 2^48,
    /// then state >> (48 - bits).
    fn next(&mut self, bits: u32) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(Self::MULTIPLIER)
            .wrapping_add(Self::ADDEND)
            & Self::MASK;
        self.0 >> (48 - bits)
    }

    /// `nextDouble()`: ((next(26) << 27) + next(27)) * 2^-53, in [0, 1).
    fn next_double(&mut self) -> f64 {
        let high = self.next(26);
        ((high << 27) + self.next(27)) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Player2's seed: the contest's controller made `new Random(20)` for every game.
const PLAYER2_SEED: u64 = 20;
/// Player2 calls when a draw is below this.
const PLAYER2_CALL_PROBABILITY: f64 = 0.2;

/// Player1 to Player4.
struct Simple {
    kind: u8,
    /// Player2's generator, new for each game (the others do not draw).
    rng: JavaRandom,
}

impl Simple {
    fn new(kind: u8) -> Simple {
        Simple {
            kind,
            rng: JavaRandom::new(PLAYER2_SEED),
        }
    }
}

impl Bot for Simple {
    fn play(&mut self, obs: &PlayObservation) -> Vec<u32> {
        let mut cards = matching(&obs.hand, obs.rank);
        if cards.is_empty() {
            let n = if self.kind <= 2 { 1 } else { 2 };
            cards.extend(obs.hand.iter().take(n));
        }
        cards
    }

    fn call(&mut self, obs: &CallObservation) -> bool {
        match self.kind {
            1 => obs.count >= 3,
            2 => self.rng.next_double() < PLAYER2_CALL_PROBABILITY,
            3 => false,
            _ => obs.player_hand == 0 || matching(&obs.hand, obs.rank).len() as u32 + obs.count > 4,
        }
    }
}

struct Hoarder;

impl Bot for Hoarder {
    fn play(&mut self, obs: &PlayObservation) -> Vec<u32> {
        let mut counts = [0u32; 13];
        for &id in &obs.hand {
            counts[rank(id) as usize] += 1;
        }
        let mut r = obs.rank;
        for _ in 0..obs.hand.len() {
            if counts[r as usize] == 0 {
                return obs.hand.clone();
            }
            counts[r as usize] -= 1;
            r = (r + 4) % 13;
        }
        matching(&obs.hand, obs.rank)
    }

    fn call(&mut self, obs: &CallObservation) -> bool {
        obs.player_hand <= obs.count
    }
}

#[derive(Default)]
struct CalculatingLiar {
    on_pile: [u32; 13],
    last_pile: u32,
}

impl CalculatingLiar {
    fn look(&mut self, pile: u32) {
        if self.last_pile > pile {
            self.on_pile = [0; 13];
        }
        self.last_pile = pile;
    }
}

impl Bot for CalculatingLiar {
    fn play(&mut self, obs: &PlayObservation) -> Vec<u32> {
        let mut cards = matching(&obs.hand, obs.rank);
        if cards.is_empty() {
            let mut best = obs.hand[0];
            for &id in &obs.hand {
                if ahead(rank(id), obs.rank) > ahead(rank(best), obs.rank) {
                    best = id;
                }
            }
            cards.push(best);
        }
        self.look(obs.pile);
        for &id in &cards {
            self.on_pile[rank(id) as usize] += 1;
        }
        self.last_pile = obs.pile + cards.len() as u32;
        cards
    }

    fn call(&mut self, obs: &CallObservation) -> bool {
        let mut mine = matching(&obs.hand, obs.rank).len() as u32;
        self.look(obs.pile);
        mine += self.on_pile[obs.rank as usize];
        let left = obs.player_hand;
        left == 0 || obs.count > 4 || mine + obs.count > 4 || (left < 5 && obs.hand.len() == 1)
    }
}

const DISCARD: u8 = 4;
const UNKNOWN: u8 = 5;

/// PlayerConMan, as player_conman.lua ports it (summed up in docs/bs.md, "PlayerConMan").
struct ConMan {
    me: u32,
    loc: [u8; 52],
    conf: [f64; 52],
    card_of: [i32; 52],
    slot_of_card: [usize; 52],
    /// The walk order: order[rank * 4 + j].
    order: [usize; 52],
    seen_pile: u32,
    seen_hand: [u32; 4],
    my_hand: Vec<usize>,
    my_ranks: [bool; 13],
    first_truth: i32,
    last_truth: i32,
    path_turns: u32,
    any_lie: bool,
    is_truth: [bool; 13],
    is_lie: [bool; 13],
}

fn factorial(x: f64) -> f64 {
    let tmp = (x - 0.5) * (x + 4.5).ln() - (x + 4.5);
    let ser = 1.0 + 76.18009173 / (x + 0.0) - 86.50532033 / (x + 1.0) + 24.01409822 / (x + 2.0)
        - 1.231739516 / (x + 3.0)
        + 0.00120858003 / (x + 4.0)
        - 0.00000536382 / (x + 5.0);
    x * (tmp + (ser * (2.0 * std::f64::consts::PI).sqrt()).ln()).exp()
}

fn choose(n: f64, k: f64) -> f64 {
    if n == k || k == 0.0 {
        return 1.0;
    }
    if k < 0.0 || k > n {
        return 0.0;
    }
    factorial(n) / (factorial(n - k) * factorial(k))
}

impl ConMan {
    fn new() -> ConMan {
        ConMan {
            me: 0,
            loc: [UNKNOWN; 52],
            conf: [1.0; 52],
            card_of: [-1; 52],
            slot_of_card: [usize::MAX; 52],
            order: std::array::from_fn(|i| i),
            seen_pile: 0,
            seen_hand: [0; 4],
            my_hand: Vec::new(),
            my_ranks: [false; 13],
            first_truth: -1,
            last_truth: -1,
            path_turns: 0,
            any_lie: false,
            is_truth: [false; 13],
            is_lie: [false; 13],
        }
    }

    fn rank_of(s: usize) -> u32 {
        (s / 4) as u32
    }

    fn bind(&mut self, id: u32) -> usize {
        if self.slot_of_card[id as usize] != usize::MAX {
            return self.slot_of_card[id as usize];
        }
        let (mut chosen, mut best) = (usize::MAX, 1.0);
        let base = rank(id) as usize * 4;
        for j in base..base + 4 {
            let s = self.order[j];
            if self.card_of[s] < 0 {
                if self.loc[s] == UNKNOWN {
                    chosen = s;
                    best = 0.0;
                } else if self.conf[s] < best || chosen == usize::MAX {
                    chosen = s;
                    best = self.conf[s];
                }
            }
        }
        self.card_of[chosen] = id as i32;
        self.slot_of_card[id as usize] = chosen;
        chosen
    }

    fn next_rank(&self, player: u32, c: u32) -> u32 {
        (c + (self.me + 4 - player) % 4) % 13
    }

    fn rebuild(&mut self, hand: &[u32], start: u32) {
        self.my_ranks = [false; 13];
        self.is_truth = [false; 13];
        self.is_lie = [false; 13];
        self.my_hand.clear();
        let mut distinct = 0;
        for &id in hand {
            let s = self.bind(id);
            self.loc[s] = self.me as u8;
            self.conf[s] = 1.0;
            self.my_hand.push(s);
            let r = Self::rank_of(s) as usize;
            if !self.my_ranks[r] {
                self.my_ranks[r] = true;
                distinct += 1;
            }
        }
        let mut r = start;
        self.first_truth = -1;
        self.last_truth = -1;
        self.path_turns = 0;
        self.any_lie = false;
        while distinct > 0 {
            self.path_turns += 1;
            if self.my_ranks[r as usize] {
                distinct -= 1;
                self.is_truth[r as usize] = true;
                if self.first_truth < 0 {
                    self.first_truth = r as i32;
                }
                self.last_truth = r as i32;
            } else {
                self.is_lie[r as usize] = true;
                self.any_lie = true;
            }
            r = (r + 4) % 13;
        }
    }

    fn refresh(&mut self, player: u32, c: u32, claim: u32, pile: u32, sizes: &[u32], hand: &[u32]) {
        if self.seen_pile + claim != pile {
            let mut loser = player;
            let mut winner: i32 = -1;
            for p in 0..4u32 {
                let size = sizes[p as usize];
                let adjusted = if p == player { size + claim } else { size };
                if size > self.seen_hand[p as usize] {
                    loser = p;
                } else if adjusted < self.seen_hand[p as usize] {
                    winner = p as i32;
                }
            }
            let mut winners = Vec::new();
            let me = self.me as u8;
            for i in 0..52 {
                let s = self.order[i];
                let l = self.loc[s];
                if l == DISCARD {
                    if loser == self.me {
                        self.loc[s] = UNKNOWN;
                        self.conf[s] = 1.0;
                    } else {
                        self.loc[s] = loser as u8;
                    }
                } else if l == me && winner == self.me as i32 {
                    self.loc[s] = DISCARD;
                    self.conf[s] = 1.0;
                } else if i32::from(l) == winner {
                    winners.push(s);
                }
            }
            if winner >= 0 && winner != self.me as i32 {
                let mut size = sizes[winner as usize];
                if winner as u32 == player {
                    size += claim;
                }
                if size == 1 {
                    for s in winners {
                        self.conf[s] = 0.0;
                    }
                }
            }
        }
        self.seen_pile = pile;
        self.seen_hand.copy_from_slice(&sizes[..4]);
        if self.my_hand.len() != hand.len() {
            let start = self.next_rank(player, c);
            self.rebuild(hand, start);
        }
    }

    fn sort_rank(&mut self, c: u32) {
        let base = c as usize * 4;
        let key = |s: usize, loc: &[u8; 52], conf: &[f64; 52]| {
            if loc[s] == UNKNOWN {
                conf[s] - 10.0
            } else {
                conf[s]
            }
        };
        let mut keys: Vec<f64> = (0..4)
            .map(|j| key(self.order[base + j], &self.loc, &self.conf))
            .collect();
        for i in 1..4 {
            let (s, k) = (self.order[base + i], keys[i]);
            let mut j = i;
            while j >= 1 && keys[j - 1] > k {
                self.order[base + j] = self.order[base + j - 1];
                keys[j] = keys[j - 1];
                j -= 1;
            }
            self.order[base + j] = s;
            keys[j] = k;
        }
    }
}

impl Bot for ConMan {
    fn play(&mut self, obs: &PlayObservation) -> Vec<u32> {
        self.me = obs.you;
        let c = obs.rank;
        self.refresh(self.me, c, 0, obs.pile, &obs.hand_sizes, &obs.hand);
        let (pick, all) = if self.first_truth != c as i32 {
            (self.last_truth as u32, false)
        } else {
            (c, true)
        };
        let mut cards = Vec::new();
        for i in 0..self.my_hand.len() {
            let s = self.my_hand[i];
            if Self::rank_of(s) == pick {
                self.loc[s] = DISCARD;
                cards.push(self.card_of[s] as u32);
                if !all {
                    break;
                }
            }
        }
        self.seen_pile = obs.pile + cards.len() as u32;
        self.seen_hand[self.me as usize] = self.my_hand.len() as u32 - cards.len() as u32;
        cards
    }

    fn call(&mut self, obs: &CallObservation) -> bool {
        self.me = obs.you;
        let (player, c, count, pile) = (obs.player, obs.rank, obs.count, obs.pile);
        self.refresh(player, c, count, pile, &obs.hand_sizes, &obs.hand);
        let hand_size = obs.player_hand + count;
        let (mut total_unknown, mut player_unknown, mut held, mut not_held) =
            (0.0, f64::from(hand_size), 0.0, 0.0);
        let mut player_hand = Vec::new();
        let mut pile_list = Vec::new();
        let rank_start = c as usize * 4;
        let in_rank = |i: usize| i >= rank_start && i < rank_start + 4;
        for i in 0..52 {
            let s = self.order[i];
            let l = self.loc[s];
            if l == UNKNOWN {
                total_unknown += 1.0;
            } else if u32::from(l) == player {
                player_hand.push(s);
                let cf = self.conf[s];
                player_unknown -= cf;
                total_unknown += 1.0 - cf;
                if in_rank(i) {
                    held += cf;
                }
            } else {
                if l == DISCARD {
                    pile_list.push(s);
                }
                let cf = self.conf[s];
                total_unknown += 1.0 - cf;
                if in_rank(i) {
                    not_held += cf;
                }
            }
        }
        let mut call = false;
        let possible = (4.0 - not_held + 0.5f64).floor();
        let needed = (f64::from(count) - held + 0.5f64).floor();
        let mut prob;
        if needed > possible {
            prob = 0.0;
            call = true;
        } else if needed <= 0.0 {
            prob = 1.0;
        } else {
            let mut successes = 0.0;
            let mut i = needed;
            while i <= possible {
                successes +=
                    choose(possible, i) * choose(total_unknown - possible, player_unknown - i);
                i += 1.0;
            }
            prob = successes / choose(total_unknown, player_unknown);
            if prob.is_nan() {
                prob = 0.0;
                call = true;
            }
        }
        let mut moved = 0;
        let mut kept = Vec::new();
        for s in player_hand {
            if moved < count && Self::rank_of(s) == c {
                self.loc[s] = DISCARD;
                pile_list.push(s);
                moved += 1;
            } else {
                kept.push(s);
            }
        }
        if moved < count {
            let (left, need) = (f64::from(hand_size - moved), f64::from(count - moved));
            if left == need {
                call = true;
                for &s in &kept {
                    self.loc[s] = DISCARD;
                }
            } else {
                let chosen = choose(left - 1.0, need - 1.0) / choose(left, need);
                let factor = (1.0 - chosen) * (1.0 - prob) + prob;
                for &s in &kept {
                    self.conf[s] *= factor;
                }
            }
            self.sort_rank(c);
            for i in rank_start..rank_start + 4 {
                let s = self.order[i];
                if self.loc[s] == UNKNOWN || self.conf[s] < prob {
                    self.loc[s] = DISCARD;
                    self.conf[s] = prob;
                    moved += 1;
                    pile_list.push(s);
                    if moved >= count {
                        break;
                    }
                }
            }
        }
        let mut pile_conf = 1.0;
        for &s in &pile_list {
            pile_conf *= self.conf[s];
        }
        pile_conf *= 0.5f64.powf(f64::from(pile) - pile_list.len() as f64);
        if pile_conf > 0.5 && pile_list.len() == pile as usize {
            let (mut lies, mut unknown) = (0.0, 0.0);
            for &s in &pile_list {
                let r = Self::rank_of(s) as usize;
                if self.is_truth[r] {
                    unknown += 1.0 - self.conf[s];
                } else if self.is_lie[r] {
                    lies += self.conf[s];
                    unknown += 1.0 - self.conf[s];
                } else {
                    unknown += 1.0;
                    break;
                }
            }
            if lies > 0.0 && unknown < 1.0 {
                call = true;
            }
        }
        let start = self.next_rank(player, c);
        let mut furthest: i32 = -1;
        for r in 0..13u32 {
            if self.my_ranks[r as usize] {
                furthest = furthest.max(ahead(r, start) as i32);
            }
        }
        for &s in &pile_list {
            furthest = furthest.max(ahead(Self::rank_of(s), start) as i32);
        }
        let lose = f64::from(furthest + 1);
        let expected = lose * pile_conf + lose.max(7.0) * (1.0 - pile_conf);
        let mut threshold = (f64::from(self.path_turns) - expected) / 13.0;
        if !self.any_lie {
            threshold /= 2.0;
        }
        call || prob < threshold
    }
}

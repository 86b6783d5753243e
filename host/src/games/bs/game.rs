//! A game of BS in progress: the hands, the pile, the turn, and the two steps of a turn, [`Game::play`]
//! and [`Game::resolve`], behind the legality checks. Also what each player may see of it.
//!
//! A card's place is kept in a 52-byte table next to the ordered hands, so that checking a play is
//! one read per card and a turn allocates nothing.

use rand::RngExt;

use super::{
    CARDS, CallObservation, Card, Cards, End, Event, HAND, Illegal, PLAYERS, PlayObservation,
    RANKS, Seat, TURN_LIMIT, rank,
};
use crate::games::{Rng, rng};

/// Where a card is, in [`Game::place`]: a seat's hand, or the pile.
const PILE: u8 = PLAYERS as u8;

/// A BS game: four ordered hands, the pile, the turn count, and a play waiting for its calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    hands: [Cards; PLAYERS],
    /// Bottom card first.
    pile: Cards,
    /// Each card's place: a seat, or [`PILE`].
    place: [u8; CARDS],
    /// Turns completed so far.
    turn: u32,
    /// The play made this turn, waiting for [`Game::resolve`].
    pending: Option<Pending>,
    end: Option<End>,
    rng: Rng,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pending {
    count: u8,
    lie: bool,
}

/// A play just made, as everyone saw it (the cards stay face down).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayInfo {
    /// The turn's number, from 0.
    pub turn: u32,
    pub player: Seat,
    /// The claimed rank: the turn's required rank.
    pub rank: u32,
    pub count: u32,
    /// The player's hand size after the play.
    pub hand_size: u32,
    /// The pile's size after the play.
    pub pile: u32,
}

impl PlayInfo {
    /// The public event of this play.
    pub fn event(&self) -> Event {
        Event::Play {
            turn: self.turn,
            player: self.player as u32,
            rank: self.rank,
            count: self.count,
            hand_size: self.hand_size,
            pile: self.pile,
        }
    }
}

/// How a turn ended: the calls and what followed. The host sees all of it; players see only
/// [`Resolution::event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolution {
    /// The turn's number, from 0.
    pub turn: u32,
    pub player: Seat,
    pub rank: u32,
    /// Who said yes to calling (the mover never counts).
    pub callers: [bool; PLAYERS],
    /// The caller chosen among them, if any.
    pub caller: Option<Seat>,
    /// Whether some played card was not of the claimed rank (known to players only after a call).
    pub lie: bool,
    /// The played cards, in the order they went on the pile.
    pub cards: Cards,
    /// Who took the pile: the liar, or the caller of a true play; `None` without a call.
    pub taker: Option<Seat>,
    /// How many cards the taker picked up.
    pub taken: u32,
    /// After a called lie, the caller's card that became the new pile (never shown to players).
    pub reward: Option<Card>,
    /// How the game ended with this turn, if it did.
    pub end: Option<End>,
}

impl Resolution {
    /// The public event of the call or its absence: after a call, the played cards are revealed;
    /// the reward card never is.
    pub fn event(&self) -> Event {
        let player = self.player as u32;
        match (self.caller, self.taker) {
            (Some(caller), Some(taker)) => Event::Call {
                turn: self.turn,
                player,
                caller: caller as u32,
                lie: self.lie,
                cards: self.cards.iter().map(u32::from).collect(),
                taker: taker as u32,
                taken: self.taken,
                reward: self.reward.is_some(),
            },
            _ => Event::NoCall {
                turn: self.turn,
                player,
            },
        }
    }

    /// The end of a round, if this turn was the last of one (seat 3's).
    pub fn round_end(&self) -> Option<Event> {
        let done = self.turn + 1;
        done.is_multiple_of(PLAYERS as u32)
            .then(|| Event::RoundEnd {
                round: done / PLAYERS as u32,
            })
    }
}

impl Game {
    /// A new game seeded with `seed`: the deck shuffled and dealt one card at a time round the
    /// table, seat 0 first, 13 each; seat 0 to play rank 0.
    pub fn new(seed: u64) -> Game {
        Game::with_rng(rng(seed))
    }

    /// A new game drawing from `rng` (see [`Game::new`]).
    pub fn with_rng(mut rng: Rng) -> Game {
        let mut deck: [Card; CARDS] = std::array::from_fn(|i| i as Card);
        for i in (1..CARDS).rev() {
            deck.swap(i, rng.random_range(0..=i));
        }
        let mut hands = [Cards::new(); PLAYERS];
        let mut place = [0; CARDS];
        for (k, &card) in deck.iter().enumerate() {
            hands[k % PLAYERS].push(card);
            place[usize::from(card)] = (k % PLAYERS) as u8;
        }
        debug_assert!(hands.iter().all(|h| h.len() == HAND));
        Game {
            hands,
            pile: Cards::new(),
            place,
            turn: 0,
            pending: None,
            end: None,
            rng,
        }
    }

    /// A position for tests and tools: the hands, the pile (bottom first) and the turns completed,
    /// with `seed` for the calls' draws. Every card must be in exactly one place, and nobody may
    /// have won already.
    pub fn from_position(
        hands: [&[Card]; PLAYERS],
        pile: &[Card],
        turn: u32,
        seed: u64,
    ) -> Result<Game, String> {
        let mut place = [u8::MAX; CARDS];
        let places = hands.iter().enumerate().map(|(s, h)| (s as u8, *h));
        for (at, cards) in places.chain([(PILE, pile)]) {
            for &card in cards {
                let slot = place
                    .get_mut(usize::from(card))
                    .ok_or_else(|| format!("card {card} does not exist"))?;
                if *slot != u8::MAX {
                    return Err(format!("card {card} is in two places"));
                }
                *slot = at;
            }
        }
        if let Some(missing) = place.iter().position(|&p| p == u8::MAX) {
            return Err(format!("card {missing} is nowhere"));
        }
        if hands.iter().any(|h| h.is_empty()) {
            return Err("a player with no cards has won already".into());
        }
        if turn >= TURN_LIMIT {
            return Err(format!("turn {turn} is past the limit of {TURN_LIMIT}"));
        }
        Ok(Game {
            hands: hands.map(Cards::from_slice),
            pile: Cards::from_slice(pile),
            place,
            turn,
            pending: None,
            end: None,
            rng: rng(seed),
        })
    }

    /// The seat to play now (or whose play waits for its calls).
    pub fn to_move(&self) -> Seat {
        (self.turn % PLAYERS as u32) as Seat
    }

    /// The rank the current turn's play claims: 0 on the first turn, then up by one, mod 13.
    pub fn required_rank(&self) -> u32 {
        self.turn % RANKS
    }

    /// Turns completed so far (the current turn's number, from 0).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Rounds completed so far.
    pub fn round(&self) -> u32 {
        self.turn / PLAYERS as u32
    }

    /// `seat`'s hand, in hand order.
    pub fn hand(&self, seat: Seat) -> &Cards {
        &self.hands[seat]
    }

    pub fn hand_sizes(&self) -> [u32; PLAYERS] {
        self.hands.map(|h| h.len() as u32)
    }

    /// The pile, bottom card first.
    pub fn pile(&self) -> &Cards {
        &self.pile
    }

    pub fn pile_len(&self) -> u32 {
        self.pile.len() as u32
    }

    /// Whether a play waits for [`Game::resolve`].
    pub fn awaiting_calls(&self) -> bool {
        self.pending.is_some()
    }

    pub fn end(&self) -> Option<End> {
        self.end
    }

    pub fn winner(&self) -> Option<Seat> {
        self.end.and_then(End::winner)
    }

    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Puts `cards` from the mover's hand on the pile, in that order, claimed to be of the required
    /// rank; the turn then waits for [`Game::resolve`]. Refuses, changing nothing, an empty play, an
    /// unknown id, a card the mover does not hold, or a card listed twice.
    pub fn play(&mut self, cards: &[u32]) -> Result<PlayInfo, Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        if self.pending.is_some() {
            return Err(Illegal::AwaitingCalls);
        }
        let mover = self.to_move();
        let mask = self.check(mover, cards)?;
        let required = self.required_rank();
        self.hands[mover].retain(|c| mask & (1 << c) == 0);
        let mut lie = false;
        for &card in cards {
            let card = card as Card;
            self.pile.push(card);
            self.place[usize::from(card)] = PILE;
            lie |= rank(card) != required;
        }
        let count = cards.len() as u8;
        self.pending = Some(Pending { count, lie });
        Ok(PlayInfo {
            turn: self.turn,
            player: mover,
            rank: required,
            count: u32::from(count),
            hand_size: self.hands[mover].len() as u32,
            pile: self.pile_len(),
        })
    }

    /// The set of `cards` as a bit mask, if `seat` may play them.
    fn check(&self, seat: Seat, cards: &[u32]) -> Result<u64, Illegal> {
        if cards.is_empty() {
            return Err(Illegal::Empty);
        }
        let mut mask = 0u64;
        for &card in cards {
            if card >= CARDS as u32 {
                return Err(Illegal::NoSuchCard { card });
            }
            if self.place[card as usize] != seat as u8 {
                return Err(Illegal::NotHeld { card });
            }
            if mask & (1 << card) != 0 {
                return Err(Illegal::Repeated { card });
            }
            mask |= 1 << card;
        }
        Ok(mask)
    }

    /// Ends the turn with the other players' answers (`calls[seat]`; the mover's entry is ignored):
    /// picks a caller, moves the pile, then judges the end of the game.
    pub fn resolve(&mut self, calls: [bool; PLAYERS]) -> Result<Resolution, Illegal> {
        let Some(Pending { count, lie }) = self.pending.take() else {
            return Err(if self.is_over() {
                Illegal::GameOver
            } else {
                Illegal::NoPlay
            });
        };
        let player = self.to_move();
        let mut callers = calls;
        callers[player] = false;
        let cards = Cards::from_slice(self.pile.top(usize::from(count)));
        let mut resolution = Resolution {
            turn: self.turn,
            player,
            rank: self.required_rank(),
            callers,
            caller: None,
            lie,
            cards,
            taker: None,
            taken: 0,
            reward: None,
            end: None,
        };
        let n = callers.iter().filter(|&&c| c).count();
        if n > 0 {
            let k = self.rng.random_range(0..n);
            let caller = (0..PLAYERS).filter(|&s| callers[s]).nth(k);
            let caller = caller.expect("k counts the callers");
            let taker = if lie { player } else { caller };
            resolution.caller = Some(caller);
            resolution.taker = Some(taker);
            resolution.taken = self.pile_len();
            self.take_pile(taker);
            if lie {
                let hand = &mut self.hands[caller];
                let card = hand.remove(self.rng.random_range(0..hand.len()));
                self.pile.push(card);
                self.place[usize::from(card)] = PILE;
                resolution.reward = Some(card);
            }
        }
        self.turn += 1;
        self.end = self.judge();
        resolution.end = self.end;
        Ok(resolution)
    }

    /// Moves the whole pile to the end of `seat`'s hand, bottom card first.
    fn take_pile(&mut self, seat: Seat) {
        for card in self.pile.iter() {
            self.place[usize::from(card)] = seat as u8;
        }
        self.hands[seat].extend(self.pile.as_slice());
        self.pile.clear();
    }

    /// A player without cards has won; else the round limit may have been reached.
    fn judge(&self) -> Option<End> {
        if let Some(seat) = self.hands.iter().position(Cards::is_empty) {
            return Some(End::Won(seat));
        }
        (self.turn >= TURN_LIMIT).then_some(End::RoundLimit)
    }

    /// What the mover sees before playing. `players` are the strategies' names by seat.
    pub fn play_observation(&self, players: &[String]) -> PlayObservation {
        let mut obs = PlayObservation {
            you: 0,
            players: players.to_vec(),
            round: 0,
            turn: 0,
            rank: 0,
            hand: Vec::with_capacity(CARDS),
            hand_sizes: Vec::with_capacity(PLAYERS),
            pile: 0,
        };
        self.update_play_observation(&mut obs);
        obs
    }

    /// Makes `obs` what the mover sees now, reusing its lists; `players` is left as it is.
    pub fn update_play_observation(&self, obs: &mut PlayObservation) {
        let seat = self.to_move();
        obs.you = seat as u32;
        obs.round = self.round();
        obs.turn = self.turn;
        obs.rank = self.required_rank();
        self.fill_lists(seat, &mut obs.hand, &mut obs.hand_sizes);
        obs.pile = self.pile_len();
    }

    /// What `seat`, another player than the mover, sees when asked whether to call on the play
    /// waiting for its calls. `None` if no play waits or `seat` made it.
    pub fn call_observation(&self, seat: Seat, players: &[String]) -> Option<CallObservation> {
        let mut obs = CallObservation {
            you: 0,
            players: players.to_vec(),
            round: 0,
            turn: 0,
            player: 0,
            rank: 0,
            count: 0,
            player_hand: 0,
            pile: 0,
            hand: Vec::with_capacity(CARDS),
            hand_sizes: Vec::with_capacity(PLAYERS),
        };
        self.update_call_observation(seat, &mut obs).then_some(obs)
    }

    /// Makes `obs` what `seat` sees when asked to call (see [`Game::call_observation`]), reusing
    /// its lists; `players` is left as it is. Returns `false`, changing nothing, when `seat` is not
    /// to be asked.
    pub fn update_call_observation(&self, seat: Seat, obs: &mut CallObservation) -> bool {
        let (Some(pending), player) = (self.pending, self.to_move()) else {
            return false;
        };
        if seat == player {
            return false;
        }
        obs.you = seat as u32;
        obs.round = self.round();
        obs.turn = self.turn;
        obs.player = player as u32;
        obs.rank = self.required_rank();
        obs.count = u32::from(pending.count);
        obs.player_hand = self.hands[player].len() as u32;
        obs.pile = self.pile_len();
        self.fill_lists(seat, &mut obs.hand, &mut obs.hand_sizes);
        true
    }

    /// `seat`'s hand and every hand size, into reused lists.
    fn fill_lists(&self, seat: Seat, hand: &mut Vec<u32>, sizes: &mut Vec<u32>) {
        hand.clear();
        hand.extend(self.hands[seat].iter().map(u32::from));
        sizes.clear();
        sizes.extend(self.hands.iter().map(|h| h.len() as u32));
    }
}

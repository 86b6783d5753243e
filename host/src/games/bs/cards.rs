//! [`Cards`]: an ordered list of at most 52 distinct cards in a fixed array, so that hands, the pile
//! and plays are copied and changed without allocating.

use std::fmt;

use super::{CARDS, Card};

/// An ordered list of at most 52 cards: a hand (in hand order), the pile (bottom first) or a play.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cards {
    ids: [Card; CARDS],
    len: u8,
}

impl Default for Cards {
    fn default() -> Self {
        Cards::new()
    }
}

impl Cards {
    pub const fn new() -> Cards {
        Cards {
            ids: [0; CARDS],
            len: 0,
        }
    }

    /// The cards of `ids`, in that order. Panics past 52 cards.
    pub fn from_slice(ids: &[Card]) -> Cards {
        let mut cards = Cards::new();
        cards.extend(ids);
        cards
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Card] {
        &self.ids[..self.len()]
    }

    pub fn iter(&self) -> std::iter::Copied<std::slice::Iter<'_, Card>> {
        self.as_slice().iter().copied()
    }

    /// Appends a card at the end. Panics past 52 cards.
    pub fn push(&mut self, card: Card) {
        self.ids[self.len()] = card;
        self.len += 1;
    }

    /// Appends `cards` at the end, in their order.
    pub fn extend(&mut self, cards: &[Card]) {
        let start = self.len();
        self.ids[start..start + cards.len()].copy_from_slice(cards);
        self.len += cards.len() as u8;
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Removes and returns the card at `index`, keeping the order of the rest.
    pub fn remove(&mut self, index: usize) -> Card {
        let card = self.ids[index];
        let len = self.len();
        self.ids.copy_within(index + 1..len, index);
        self.len -= 1;
        card
    }

    /// Keeps the cards for which `keep` holds, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Card) -> bool) {
        let mut kept = 0;
        for i in 0..self.len() {
            let card = self.ids[i];
            if keep(card) {
                self.ids[kept] = card;
                kept += 1;
            }
        }
        self.len = kept as u8;
    }

    /// The last `n` cards (of the pile: the top `n`).
    pub fn top(&self, n: usize) -> &[Card] {
        &self.as_slice()[self.len() - n..]
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removals_keep_the_order_of_the_rest() {
        let mut hand = Cards::from_slice(&[9, 3, 40, 7, 12]);
        assert_eq!(hand.remove(1), 3);
        assert_eq!(hand.as_slice(), [9, 40, 7, 12]);
        hand.retain(|c| c != 40 && c != 12);
        assert_eq!(hand.as_slice(), [9, 7]);
        hand.extend(&[5, 1]);
        hand.push(0);
        assert_eq!(hand.as_slice(), [9, 7, 5, 1, 0]);
        assert_eq!(hand.top(2), [1, 0]);
        hand.clear();
        assert!(hand.is_empty());
    }

    #[test]
    fn a_full_deck_fits() {
        let all: Vec<Card> = (0..52).collect();
        let deck = Cards::from_slice(&all);
        assert_eq!(deck.len(), 52);
        assert_eq!(deck.as_slice().last(), Some(&51));
    }
}

"""Independent card helpers for the tests of the 32-card reference engines.

tests/test_naive_klaverjassen.py and tests/test_naive_boonaken.py check the engines'
orders, points, trick winners and deals against these second formulations, written from
the text of docs/rules.md (§2 Klaverjassen, §4 Boonaken) and not from tests/naive_*.py.
Only the counter-based random numbers (`deal_key`, `below`) come from the reference code.
"""
from typing import NamedTuple

import naive_boerenbridge as bb

SUITS = "SHDC"
RANKS = "789TJQKA"
DECK = [r + s for s in SUITS for r in RANKS]


def code(card):
    return 16 * SUITS.index(card[1]) + "23456789TJQKA".index(card[0])


def spec_shuffle(seed, deal, places):
    """DECK (card strings) with its first `places` places shuffled by the formula of the
    spec: for i in 0 .. places - 1, j = i + below(dkey, i, 32 - i), swap."""
    dkey = bb.deal_key(seed, deal)
    cards = list(DECK)
    for i in range(places):
        j = i + bb.below(dkey, i, 32 - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def point_totals(card_points, trump):
    """Under card_points(card, trump): the points of the whole deck, of the trump suit's
    8 cards, and of each other suit's 8 cards (a list, in suit order)."""
    deck = sum(card_points(c, trump) for c in DECK)
    trump_suit = sum(card_points(c, trump) for c in DECK if c[1] == trump)
    plain = [sum(card_points(c, trump) for c in DECK if c[1] == s) for s in SUITS if s != trump]
    return deck, trump_suit, plain


class Tables(NamedTuple):
    """A game's tables, high to low, as the rules text gives them."""

    trump_high_to_low: str  # rank characters from the highest trump down
    plain_high_to_low: str  # the same in a plain suit
    points_trump: dict  # rank character -> card points of a trump
    points_plain: dict  # rank character -> card points of a plain card

    def power(self, card, trump):
        """A trick-taking power: trumps above everything, then the order of the rules."""
        if card[1] == trump:
            return 100 - self.trump_high_to_low.index(card[0])
        return 50 - self.plain_high_to_low.index(card[0])

    def pts(self, card, trump):
        if card[1] == trump:
            return self.points_trump[card[0]]
        return self.points_plain[card[0]]

    def winner_index(self, cards, trump):
        """Index of the winning card: a trump beats a non-trump; otherwise only a higher
        card of the same suit takes over."""
        best = 0
        for i in range(1, len(cards)):
            c, b = cards[i], cards[best]
            if c[1] == trump and b[1] != trump:
                best = i
            elif c[1] == b[1] and self.power(c, trump) > self.power(b, trump):
                best = i
        return best


# Klaverjassen, docs/rules.md §2.
KLAVERJASSEN = Tables(trump_high_to_low="J9ATKQ87", plain_high_to_low="ATKQJ987",
                      points_trump={"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0,
                                    "7": 0},
                      points_plain={"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0,
                                    "7": 0})

# Boonaken, docs/rules.md §4.
BOONAKEN = Tables(trump_high_to_low="J9AKQT87", plain_high_to_low="AKQJT987",
                  points_trump={"J": 20, "9": 14, "A": 11, "K": 3, "Q": 2, "T": 10, "8": 0, "7": 0},
                  points_plain={"A": 11, "K": 3, "Q": 2, "J": 1, "T": 10, "9": 0, "8": 0, "7": 0})

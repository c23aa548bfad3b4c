import numpy as np
import pytest

from fastsim.cards import parse_cards, parse_suit
from fastsim.trick import NATURAL_ORDER, resolve_tricks, trick_winner_nb


def naive_winner(cards, trump):
    """Highest trump, else highest card of the led suit (docs/rules.md §0), the slow way."""
    led = cards[0] // 16
    best = 0
    for i, c in enumerate(cards):
        b = cards[best]
        c_trump, b_trump = c // 16 == trump, b // 16 == trump
        if c_trump and not b_trump:
            best = i
        elif c_trump == b_trump and c // 16 == b // 16 and c % 16 > b % 16:
            best = i
        elif not b_trump and not c_trump and c // 16 == led and b // 16 != led:
            best = i
    return best


@pytest.mark.parametrize("trick,trump,winner", [
    ("KH QH JH 7S", "H", 0),
    ("KH QH AH 7S", "H", 2),
    ("KH 2S AH 7S", "S", 3),   # higher trump wins
    ("KH 2S AH 3S", "S", 3),
    ("5D AC KC 6D", "H", 3),   # off-suit aces never win
    ("5D AC KC 6D", None, 3),
    ("2C 3C", "D", 1),
])
def test_scripted(trick, trump, winner):
    cards = np.array([parse_cards(trick)])
    t = -1 if trump is None else parse_suit(trump)
    assert resolve_tricks(cards, t)[0] == winner
    assert trick_winner_nb(cards[0].astype(np.int64), cards.shape[1], t, NATURAL_ORDER) == winner


def test_batch_matches_naive_on_random_tricks():
    rng = np.random.default_rng(5)
    n_tricks, width = 20_000, 5
    codes = np.array([16 * s + r for s in range(4) for r in range(13)])
    cards = np.stack([rng.choice(codes, width, replace=False) for _ in range(n_tricks)])
    lens = rng.integers(2, width + 1, n_tricks)
    trump = rng.integers(-1, 4, n_tricks)
    padded = cards.copy()
    for i, ln in enumerate(lens):
        padded[i, ln:] = -1
    got = resolve_tricks(padded, trump)
    for i in range(n_tricks):
        exp = naive_winner(list(cards[i, :lens[i]]), trump[i])
        assert got[i] == exp
        assert trick_winner_nb(cards[i].astype(np.int64), lens[i], trump[i], NATURAL_ORDER) == exp


def test_rank_order_and_explicit_led_suit():
    # a Klaverjassen-style trump order: J > 9 > A > T > K > Q > 8 > 7
    order = np.zeros(13, dtype=np.int64)
    for strength, rank in enumerate([5, 6, 10, 11, 8, 12, 7, 9]):  # 7 8 Q K T A 9 J
        order[rank] = strength
    cards = np.array([parse_cards("AH 9H JH 7H")])
    assert resolve_tricks(cards, parse_suit("H"), rank_order=order)[0] == 2
    assert resolve_tricks(cards, parse_suit("H"))[0] == 0
    assert resolve_tricks(np.array([parse_cards("AH 2S")]), -1, led_suit=[0])[0] == 1


def test_bad_input():
    with pytest.raises(ValueError):
        resolve_tricks(np.array([1, 2, 3]), 0)
    with pytest.raises(ValueError):
        resolve_tricks(np.array([[-1, 2]]), 0)
    with pytest.raises(ValueError):
        resolve_tricks(np.array([[13, 2]]), 0)

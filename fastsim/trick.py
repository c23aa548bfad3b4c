"""Trick resolution, shared by every game.

Two forms:

* :func:`trick_key_nb` — the inline form used inside game kernels: a card's strength in
  the current trick (higher wins), from its code, the led suit and the trump suit.
* :func:`resolve_tricks` — the public, vectorised batch resolver: arrays of cards for many
  tricks plus the trump per trick → the index of each trick's winning card.

A trick is won by the highest trump in it; with no trump in it, by the highest card of
the suit led (docs/rules.md §0). Games with their own trump order (Klaverjassen, Boonaken) pass a
rank-strength table; the default is the natural order 2 < 3 < … < A.
"""
import numpy as np
from ._jit import njit

from .cards import SUIT_BITS

NO_TRUMP = -1
NO_CARD = -1

NATURAL_ORDER = np.arange(13, dtype=np.int64)


@njit(cache=True, inline="always")
def trick_key_nb(card, led_suit, trump, order):
    """Strength of ``card`` in a trick: 0 if it can never win, else ordered so that any
    trump beats any card of the led suit and higher ranks (by ``order``) beat lower."""
    suit = card // SUIT_BITS
    rank = order[card % SUIT_BITS]
    if suit == trump:
        return 64 + rank
    if suit == led_suit:
        return 32 + rank
    return 0


@njit(cache=True)
def trick_winner_nb(cards, n_cards, trump, order):
    """Index of the winning card among ``cards[:n_cards]`` (played in order)."""
    led = cards[0] // SUIT_BITS
    best = 0
    best_key = trick_key_nb(cards[0], led, trump, order)
    for i in range(1, n_cards):
        k = trick_key_nb(cards[i], led, trump, order)
        if k > best_key:
            best_key = k
            best = i
    return best


def resolve_tricks(cards, trump, led_suit=None, rank_order=None):
    """Vectorised trick resolver.

    ``cards``: int array ``(n_tricks, n_seats)`` of card codes in play order, ``-1`` for an
    empty slot (shorter tricks); ``trump``: scalar or ``(n_tricks,)`` suit index, ``-1`` for
    no trump; ``led_suit``: optional ``(n_tricks,)``, default the first card's suit;
    ``rank_order``: optional length-13 strength per rank index for the trump suit's and the
    plain suits' ordering (same table for both). Returns ``(n_tricks,)`` int64 winner indices.
    """
    cards = np.asarray(cards)
    if cards.ndim != 2 or cards.shape[1] == 0:
        raise ValueError("cards must be a 2-D array (tricks x cards)")
    cards = cards.astype(np.int64)
    present = cards >= 0
    if not present[:, 0].all():
        raise ValueError("every trick needs a first (led) card")
    if (cards >= 64).any() or ((cards % SUIT_BITS >= 13) & present).any():
        raise ValueError("invalid card code in cards")
    trump = np.broadcast_to(np.asarray(trump, dtype=np.int64), (cards.shape[0],))
    suits = np.where(present, cards // SUIT_BITS, -2)
    if led_suit is None:
        led = suits[:, 0]
    else:
        led = np.broadcast_to(np.asarray(led_suit, dtype=np.int64), (cards.shape[0],))
    order = NATURAL_ORDER if rank_order is None else np.asarray(rank_order, dtype=np.int64)
    ranks = order[np.where(present, cards % SUIT_BITS, 0)]
    key = np.where(suits == trump[:, None], 64 + ranks,
                   np.where(suits == led[:, None], 32 + ranks, 0))
    key = np.where(present, key, -1)
    return np.argmax(key, axis=1).astype(np.int64)


@njit(cache=True)
def trick_so_far_nb(cards, n_cards, leader, n, trump, order):
    """State of a trick in progress from its first ``n_cards`` cards (led by position
    ``leader`` of ``n``): (led suit, winning card, winner's position, its key, card mask);
    (-1, -1, leader, -1, 0) for an empty trick."""
    led = -1
    winner = -1
    win_pos = leader
    best_key = -1
    mask = np.int64(0)
    for j in range(n_cards):
        c = cards[j]
        if j == 0:
            led = c // SUIT_BITS
        key = trick_key_nb(c, led, trump, order)
        if key > best_key:
            best_key = key
            winner = c
            win_pos = (leader + j) % n
        mask |= np.int64(1) << c
    return led, winner, win_pos, best_key, mask


@njit(cache=True, inline="always")
def table_value_nb(card, trump, trump_table, plain_table):
    """A per-rank table lookup that depends on whether ``card`` is a trump (card
    strengths and points of the 32-card games)."""
    if card // SUIT_BITS == trump:
        return trump_table[card % SUIT_BITS]
    return plain_table[card % SUIT_BITS]


@njit(cache=True, inline="always")
def beats_ranked_nb(card, winner, trump, trump_strength, plain_strength):
    """Does ``card`` beat the trick's current ``winner`` under the given rank orders? A
    trump beats any non-trump; otherwise only a stronger card of the winner's suit."""
    cs = card // SUIT_BITS
    ws = winner // SUIT_BITS
    if cs == trump:
        return ws != trump or trump_strength[card % SUIT_BITS] > trump_strength[winner % SUIT_BITS]
    if ws == trump:
        return False
    return cs == ws and plain_strength[card % SUIT_BITS] > plain_strength[winner % SUIT_BITS]


@njit(cache=True, inline="always")
def trick_add_nb(card, j, pos, led, winner, win_pos, best_key, trump, order):
    """A trick in progress (led suit, winning card, its position, its key: as
    :func:`trick_so_far_nb` gives them) once position ``pos`` plays ``card`` as its
    ``j``-th card: the updated ``(led, winner, win_pos, best_key)``."""
    if j == 0:
        led = card // SUIT_BITS
    key = trick_key_nb(card, led, trump, order)
    if key > best_key:
        return led, card, pos, key
    return led, winner, win_pos, best_key

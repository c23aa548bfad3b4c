"""Boonaken's ``strong`` policy: pimc card play over more worlds, equivalent cards once.

``strong`` plays its cards as ``pimc`` does (:func:`fastsim.boonaken_nb.pimc_card_nb`: every
legal card scored over sampled deals of what the player cannot see, each finished by the
heuristic for everyone, common random numbers) but over ``STRONG_CARD_FACTOR × worlds``
worlds, and scores cards that are exactly equivalent only once (the lowest of them is
played): two legal cards of one suit, both worth no card points and adjacent in that suit's
order once the cards between them are played or in the same hand (the plain 7 8 9 and the
trump 7 8 — where the rank order of a trump suit is the natural one), win and lose the same
tricks and points in every continuation. The worlds are *not* weighted by the auction (the
other games' strong does that); the auction, exchange and trump naming are the heuristic's.

Keys: a card decision of ``me`` at trick ``t`` draws its worlds from
``deal_key(deal key, KEY_STRONG_PLAY + 8·t + me)`` (fastsim.rng), so results are
bit-identical for any thread count. Compiled; numpy arrays and scalars in, a card out.
"""
import numpy as np
from numba import njit

from .bits import suit_mask_nb
from .boonaken_nb import FULL32, card_scores_nb, world_capacity_nb
from .pimc_nb import best_index_nb, distinct_cards_nb, list_cards_nb
from .rng import KEY_STRONG_PLAY, deal_key_nb

# the zero-point cards whose order is the natural rank order: plain 7 8 9 (ranks 5..7) and
# trump 7 8 (ranks 5, 6) of every suit
LOW_PLAIN = np.int64(0xE0) * np.int64(0x0001000100010001)
LOW_TRUMP = np.int64(0x60)


@njit(cache=True)
def strong_cards_nb(legal, unseen, trump, out):
    """The legal cards to score, in increasing code, into ``out``: of equivalent zero-point
    low cards (see the module) only the lowest; ``unseen``: every card that may lie in
    another hand (or the stock). Returns how many."""
    low = LOW_PLAIN
    if trump >= 0:
        low = (low & ~suit_mask_nb(trump)) | (LOW_TRUMP << (16 * trump))
    eq = legal & low
    k = distinct_cards_nb(eq, unseen, out)
    rest = np.empty(15, dtype=np.int64)
    m = list_cards_nb(legal & ~eq, rest)
    for i in range(m):          # merge, keeping increasing code
        j = k
        while j > 0 and out[j - 1] > rest[i]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = rest[i]
        k += 1
    return k


@njit(cache=True)
def strong_card_nb(dkey, n, preset, me, hand, legal, hands, deck, stock_pos, trump, t, leader,
                   tc, tn, played, known_out, pinned, decl, contract, bid, my_roem, in_mis, won,
                   cpts, voids, worlds):
    """The strong policy's card for position ``me``: the arguments of
    :func:`fastsim.boonaken_nb.pimc_card_nb`, ``worlds`` already multiplied by the
    engine (``STRONG_CARD_FACTOR``)."""
    unseen = FULL32 & ~(hand | played | known_out | pinned)
    cards = np.empty(15, dtype=np.int64)
    n_legal = strong_cards_nb(legal, unseen | (pinned & ~hand), trump, cards)
    if n_legal == 1:
        return cards[0]
    cap = world_capacity_nb(n, preset, me, hands, stock_pos, pinned, decl, unseen)
    totals = np.zeros(15, dtype=np.int64)
    card_scores_nb(deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + me), n, preset, me, hand, cards,
                   n_legal, hands, deck, stock_pos, trump, t, leader, tc, tn, played, unseen,
                   cap, pinned, decl, contract, bid, my_roem, in_mis, won, cpts, voids, worlds,
                   totals)
    return cards[best_index_nb(totals, n_legal)]

"""``strongl`` (issue #14, sixth push): Boerenbridge's ``strong`` whose rollouts play the
learned card model (:mod:`fastsim.cardmodel_nb`) for the positions a *mode* names instead of
the heuristic: ``ROLL_OTHERS`` the other players, ``ROLL_ME`` the deciding player's own later
cards, ``ROLL_BIDS`` in the bids' rollouts too (else strong's bid exactly). The worlds, keys,
equivalent cards and objective are strong's (:mod:`fastsim.boerenbridge_strong_nb`); the
model adds no randomness. Mode 0 is strong exactly (tested).
"""
import numpy as np
from ._jit import njit

from .bits import suit_mask_nb
from .boerenbridge_nb import (add_card_scores_nb, best_bid_nb, deal_score_nb,
                              forbidden_bid_nb, heuristic_bid_nb, play_on_nb)
from .boerenbridge_schema import MAX_SEATS
from .boerenbridge_strong_nb import (bid_worlds_nb, bids_forbidden_nb, card_worlds_nb,
                                     scored_cards_nb)
from .cardmodel_nb import learned_card_nb, winner_pos_nb
from .pimc_nb import best_index_nb
from .play_nb import FULL52, branch_nb, heuristic_play_nb
from .refs_nb import borrow_nb, keep_nb
from .rng import KEY_STRONG_BID, KEY_STRONG_PLAY, deal_key_nb

# who plays the learned card inside strongl's rollouts (mode bits)
ROLL_OTHERS = 1      # the other positions
ROLL_ME = 2          # the deciding player's own later cards
ROLL_BIDS = 4        # the bids' rollouts too (else the heuristic there)


@njit(cache=True, inline="always")
def learned_hook_nb(ctx, n, p, hand, j, led, winner, trump, t, leader, tc, played, bids, won,
                    voids, pl_by):
    """Card hook of strongl's rollouts: the learned card for the positions ``mode`` names
    (``ROLL_OTHERS``, ``ROLL_ME``), the heuristic's for the rest (``ctx = (h, me, mode)``)."""
    h, me, mode = ctx
    need = bids[p] - won[p]
    use = (mode & ROLL_ME) != 0 if p == me else (mode & ROLL_OTHERS) != 0
    if use:
        legal = hand
        if j > 0:
            fl = hand & suit_mask_nb(led)
            if fl:
                legal = fl
        wn = 0
        if j > 0:
            wp = winner_pos_nb(tc, j, leader, n, winner)
            wn = bids[wp] - won[wp]
        return learned_card_nb(hand, legal, j, n, h, t, led, winner, wn, trump, need, played)
    return heuristic_play_nb(hand, j, n, led, winner, trump, need, FULL52 & ~(hand | played))


@njit(cache=True)
def learned_rollout_nb(n, h, me, mode, hands, trump, bids, won, played, t0, leader, tc, tn,
                       scratch):
    """Finish a deal from trick ``t0`` with the learned card for the positions ``mode``
    names and the heuristic's for the rest (``tc[:tn]`` on the table; ``scratch``: two
    rows of ``MAX_SEATS`` for the tracked voids and plays, which the hook does not read)."""
    play_on_nb(learned_hook_nb, (h, me, mode), n, h, hands, trump, bids, won, played, t0,
               leader, tc, tn, scratch[0], scratch[1], True)


@njit(cache=True)
def add_learned_scores_nb(n, h, me, mode, world, hand, cards, n_legal, trump, played, bids, won,
                          t, leader, tc, tn, rv, forbidden, is_blind, hands2, won2, tc2,
                          scratch, totals):
    """:func:`fastsim.boerenbridge_nb.add_card_scores_nb` with the learned rollouts."""
    for k in range(n_legal):
        c = cards[k]
        branch_nb(n, world, me, hand, c, won, tc, tn, hands2, won2, tc2)
        learned_rollout_nb(n, h, me, mode, hands2, trump, bids, won2,
                           played | (np.int64(1) << c), t, leader, tc2, tn + 1, scratch)
        totals[k] += deal_score_nb(bids[me], won2[me], rv, me == n - 1, forbidden, is_blind)


@njit(cache=True)
def strongl_card_nb(dkey, n, h, me, hand, legal, trump, played, bids, won, t, leader, tc, tn,
                    voids, pl_by, rv, is_blind, worlds, cand, lam, shift, mode):
    """strong's card decision (:func:`fastsim.boerenbridge_strong_nb.strong_card_nb`: the
    same worlds, keys and equivalent cards) with the learned rollouts of ``mode``."""
    bids, won, tc = borrow_nb(bids), borrow_nb(won), borrow_nb(tc)
    unseen = FULL52 & ~(hand | played)
    own = np.zeros(26 + 3 * MAX_SEATS, dtype=np.int64)
    buf = borrow_nb(own)
    sc_own = np.zeros((2, MAX_SEATS), dtype=np.int64)
    scratch = borrow_nb(sc_own)
    cards = buf[0:13]
    totals_i = buf[13:26]
    hands2 = buf[26:26 + MAX_SEATS]
    won2 = buf[26 + MAX_SEATS:26 + 2 * MAX_SEATS]
    tc2 = buf[26 + 2 * MAX_SEATS:26 + 3 * MAX_SEATS]
    
    n_legal = scored_cards_nb(legal, unseen, tc, tn, cards)
    if n_legal == 1:
        c = cards[0]
        keep_nb(own)
        return c
    ws_own = np.empty((worlds, MAX_SEATS), dtype=np.int64)
    ws = borrow_nb(ws_own)
    card_worlds_nb(deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + me), n, h, me, hand, unseen, t,
                   leader, tn, voids, pl_by, trump, bids, rv, is_blind, worlds, cand,
                   lam, shift, ws)
    forbidden = bids_forbidden_nb(n, h, bids, rv) if me == n - 1 else -1
    for w in range(worlds):
        if mode & (ROLL_OTHERS | ROLL_ME):
            add_learned_scores_nb(n, h, me, mode, ws[w], hand, cards, n_legal, trump, played,
                                  bids, won, t, leader, tc, tn, rv, forbidden, is_blind,
                                  hands2, won2, tc2, scratch, totals_i)
        else:
            add_card_scores_nb(n, h, me, ws[w], hand, cards, n_legal, trump, played, bids, won,
                               t, leader, tc, tn, rv, forbidden, is_blind, hands2, won2,
                               tc2, totals_i)
    c = cards[best_index_nb(totals_i, n_legal)]
    keep_nb(own)
    keep_nb(sc_own)
    keep_nb(ws_own)
    return c


@njit(cache=True)
def strongl_bid_nb(dkey, n, h, me, hand, turned, trump, bids, bid_sum, forbidden, rv,
                   is_blind, worlds, cand, lam, shift, mode):
    """strong's bid (:func:`fastsim.boerenbridge_strong_nb.strong_bid_nb`: the same worlds
    and keys) whose rollouts play the learned card for the positions ``mode`` names."""
    bids = borrow_nb(bids)
    ws_own = np.empty((worlds, MAX_SEATS), dtype=np.int64)
    ws = borrow_nb(ws_own)
    bid_worlds_nb(deal_key_nb(dkey, KEY_STRONG_BID + me), n, h, me, hand, turned, trump, bids,
                  rv, is_blind, worlds, cand, lam, shift, ws)
    own = np.zeros(6 * MAX_SEATS + h + 1, dtype=np.int64)
    buf = borrow_nb(own)
    sc_own = np.zeros((2, MAX_SEATS), dtype=np.int64)
    scratch = borrow_nb(sc_own)
    hands2 = buf[0:MAX_SEATS]
    won2 = buf[MAX_SEATS:2 * MAX_SEATS]
    bids2 = buf[2 * MAX_SEATS:3 * MAX_SEATS]
    tc2 = buf[3 * MAX_SEATS:4 * MAX_SEATS]
    
    totals = buf[6 * MAX_SEATS:]
    fb = forbidden if me == n - 1 else -1
    for w in range(worlds):
        world = ws[w]
        for b in range(h + 1):
            if b == forbidden:
                continue
            s = bid_sum + b
            for q in range(n):
                bids2[q] = bids[q] if q < me else -1
            bids2[me] = b
            for q in range(me + 1, n):
                f = forbidden_bid_nb(h, s, rv) if q == n - 1 else -1
                bids2[q] = heuristic_bid_nb(world[q], trump, n, h, q, s, f, is_blind)
                s += bids2[q]
            for q in range(n):
                hands2[q] = world[q]
                won2[q] = 0
            learned_rollout_nb(n, h, me, mode, hands2, trump, bids2, won2,
                               np.int64(1) << turned, 0, 0, tc2, 0, scratch)
            totals[b] += deal_score_nb(b, won2[me], rv, me == n - 1, fb, is_blind)
    b = best_bid_nb(totals, h, forbidden)
    keep_nb(own)
    keep_nb(sc_own)
    keep_nb(ws_own)
    return b

"""Boerenbridge's ``strong`` policy: pimc whose worlds are drawn from what the bidding said.

``pimc`` samples worlds that agree with what its player has *seen* (cards, shown voids).
``strong`` also weighs what the others *bid*: it draws ``cand × worlds`` candidate worlds,
gives each the likelihood of every other player's bid under the soft bidder of
:mod:`fastsim.bidmodel_nb` (around :func:`model_bid_nb`: the heuristic's bid on that player's
hand as dealt — its hidden cards in the world plus the cards it has played — with ``shift``
hundredths of a trick added to the hand value; slope ``lam``),
resamples ``worlds`` of them in proportion (:func:`fastsim.pimc_nb.resample_nb`) and
scores every legal card or bid on those by finishing the deal with the heuristic for
everyone (common random numbers); of cards that are equivalent (adjacent in rank once the
cards between them are gone) only the lowest is scored, and played. A bid decision weighs
the bids made before it the same way. The objective is the player's own deal score, as for pimc.

``strongl`` (issue #14, sixth push) is the same card decision with another rollout *mode*
(:func:`strong_card_nb`'s ``mode``, bits ``ROLL_OTHERS`` and ``ROLL_ME``): in every rollout
the other players (and with ``ROLL_ME`` the deciding player's own later cards) play the
learned card model (:mod:`fastsim.cardmodel_nb`) instead of the heuristic; mode 0 is strong.
``strongi`` (issue #14, seventh push) is strongl with the model fitted to OpenSpiel IS-MCTS's
cards (the model index in the mode's higher bits, ``MODEL_SHIFT``).
The model adds no randomness; strongl's bid is strong's.

Keys: a card decision of ``me`` at trick ``t`` draws from
``deal_key(deal key, KEY_STRONG_PLAY + 8·t + me)``, a bid from
``deal_key(deal key, KEY_STRONG_BID + me)`` (fastsim.rng), so results are bit-identical for
any thread count. Compiled; numpy arrays and scalars in, a card or bid out.
"""
import numpy as np
from ._jit import njit

from .bidmodel_nb import bid_loglik_nb
from .bits import suit_mask_nb
from .boerenbridge_nb import (add_bid_scores_nb, add_card_scores_nb, best_bid_nb,
                              bid_of_value_nb, deal_score_nb, forbidden_bid_nb, play_on_nb,
                              world_capacity_nb, sample_world_nb)
from .boerenbridge_schema import MAX_SEATS
from .cardmodel_nb import model_card_nb, winner_pos_nb
from .pimc_nb import best_index_nb, distinct_cards_nb, draw_world_nb, resample_nb
from .play_nb import FULL52, branch_nb, hand_value_nb, heuristic_play_nb
from .refs_nb import borrow_nb, keep_nb
from .rng import KEY_STRONG_BID, KEY_STRONG_PLAY, deal_key_nb


@njit(cache=True)
def model_bid_nb(hand, trump, n, h, pos, bid_sum, forbidden, blind, shift):
    """The bid strong expects of another player: the heuristic's bid
    (fastsim.boerenbridge_nb.heuristic_bid_nb, docs/boerenbridge.md) with ``shift``
    hundredths of a trick added to the hand value (``shift = 0``: the heuristic's bid
    exactly, tested). The bid rule is the heuristic's own, :func:`fastsim.boerenbridge_nb.bid_of_value_nb`."""
    if blind:
        e = 100 // n
    else:
        e = hand_value_nb(hand, trump)
    return bid_of_value_nb(e + shift, n, h, pos, bid_sum, forbidden)


@njit(cache=True)
def bids_loglik_nb(n, h, me, upto, dealt, trump, bids, rv, is_blind, lam, shift):
    """log P(the bids of positions ``0..upto-1`` other than ``me`` | their dealt hands
    ``dealt[q]``) under the soft bidder with slope ``lam`` around :func:`model_bid_nb`
    with ``shift``."""
    lw = 0.0
    s = 0
    for q in range(upto):
        f = forbidden_bid_nb(h, s, rv) if q == n - 1 else -1
        if q != me:
            hb = model_bid_nb(dealt[q], trump, n, h, q, s, f, is_blind, shift)
            lw += bid_loglik_nb(bids[q], hb, h, f, lam)
        s += bids[q]
    return lw


@njit(cache=True)
def keep_worlds_nb(key, cw, logw, m, worlds, out):
    """Resample ``worlds`` of the ``m`` candidate worlds ``cw`` by their log weights into
    ``out``; returns the Kish effective sample size (fastsim.pimc_nb.resample_nb)."""
    idx = np.empty(worlds, dtype=np.int64)
    ess = resample_nb(key, logw, m, worlds, idx)
    for w in range(worlds):
        for q in range(MAX_SEATS):
            out[w, q] = cw[idx[w], q]
    return ess


@njit(cache=True)
def card_worlds_nb(key, n, h, me, hand, unseen, t, leader, tn, voids, pl_by, trump, bids,
                   rv, is_blind, worlds, cand, lam, shift, out):
    """The worlds of a strong card decision: ``cand × worlds`` candidates drawn from ``key``
    (as pimc draws its worlds), weighed by the likelihood of everyone else's bid under the
    soft bidder with slope ``lam`` (0: no weighting; ``inf``: the exact model bidder) around
    :func:`model_bid_nb` with ``shift``, on the hand each held as dealt (``out`` hidden
    cards plus ``pl_by`` played ones), and ``worlds`` of them resampled into
    ``out[:worlds]``. Returns the Kish effective sample
    size of the candidates' weights (0.0: none fits the bids, the candidates are taken
    unweighted)."""
    voids, pl_by, bids, out = borrow_nb(voids), borrow_nb(pl_by), borrow_nb(bids), borrow_nb(out)
    cap_own = world_capacity_nb(n, h, me, unseen, t, leader, tn)
    cap = borrow_nb(cap_own)
    m = cand * worlds
    cw_own = np.empty((m, MAX_SEATS), dtype=np.int64)
    cw = borrow_nb(cw_own)       # a row per candidate, without reference counts
    logw_own = np.zeros(m, dtype=np.float64)
    logw = borrow_nb(logw_own)
    dealt_own = np.empty(MAX_SEATS, dtype=np.int64)
    dealt = borrow_nb(dealt_own)
    for i in range(m):
        draw_world_nb(deal_key_nb(key, i), n, me, hand, unseen, cap, voids, cw[i])
        if lam > 0.0:
            for q in range(n):
                dealt[q] = cw[i, q] | pl_by[q]
            logw[i] = bids_loglik_nb(n, h, me, n, dealt, trump, bids, rv, is_blind,
                                     lam, shift)
    ess = keep_worlds_nb(key, cw, logw, m, worlds, out)
    keep_nb(cap_own)
    keep_nb(cw_own)
    keep_nb(logw_own)
    keep_nb(dealt_own)
    return ess


@njit(cache=True)
def scored_cards_nb(legal, unseen, tc, tn, out):
    """The legal cards strong scores, into ``out`` (how many returned): of cards equivalent
    in every continuation only the lowest (fastsim.pimc_nb.distinct_cards_nb), where a card
    ``unseen`` *or on the table* (``tc[:tn]``) between two cards of a suit separates them:
    with the 9 on the table the 8 and the jack are not equivalent, whatever else is gone."""
    table = np.int64(0)
    for j in range(tn):
        table |= np.int64(1) << tc[j]
    return distinct_cards_nb(legal, unseen | table, out)


# strongl's rollout modes (strong_card_nb's ``mode``): who plays the learned card, and which
# model (fastsim.cardmodel_nb.W's index: mode >> MODEL_SHIFT; 0 strong's, 1 IS-MCTS's)
ROLL_OTHERS = 1      # the other positions
ROLL_ME = 2          # the deciding player's own later cards
MODEL_SHIFT = 2


@njit(cache=True, inline="always")
def learned_hook_nb(ctx, n, p, hand, j, led, winner, trump, t, leader, tc, played, bids, won,
                    voids, pl_by):
    """Card hook of strongl's rollouts: the card of the learned model ``mode >> MODEL_SHIFT``
    for the positions ``mode`` names (``ROLL_OTHERS``, ``ROLL_ME``), the heuristic's for the
    rest (``ctx = (h, me, mode)``)."""
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
        return model_card_nb(mode >> MODEL_SHIFT, hand, legal, j, n, h, t, led, winner, wn,
                             trump, need, played)
    return heuristic_play_nb(hand, j, n, led, winner, trump, need, FULL52 & ~(hand | played))


@njit(cache=True)
def add_learned_scores_nb(n, h, me, mode, world, hand, cards, n_legal, trump, played, bids, won,
                          t, leader, tc, tn, rv, forbidden, is_blind, hands2, won2, tc2,
                          sv, sp, totals):
    """:func:`fastsim.boerenbridge_nb.add_card_scores_nb` with strongl's rollouts: the
    learned card for the positions ``mode`` names, the heuristic's for the rest (``sv``,
    ``sp``: scratch for the tracked voids and plays, which the hook does not read)."""
    for k in range(n_legal):
        c = cards[k]
        branch_nb(n, world, me, hand, c, won, tc, tn, hands2, won2, tc2)
        play_on_nb(learned_hook_nb, (h, me, mode), n, h, hands2, trump, bids, won2,
                   played | (np.int64(1) << c), t, leader, tc2, tn + 1, sv, sp, True)
        totals[k] += deal_score_nb(bids[me], won2[me], rv, me == n - 1, forbidden, is_blind)


@njit(cache=True)
def strong_card_nb(dkey, n, h, me, hand, legal, trump, played, bids, won, t, leader, tc, tn,
                   voids, pl_by, rv, is_blind, worlds, cand, lam, shift, mode):
    """The strong policy's card for position ``me`` (``pl_by[q]``: the cards position q has
    played so far; everything else as :func:`fastsim.boerenbridge_nb.pimc_card_nb`);
    ``mode``: strongl's rollout mode (0: strong's heuristic rollouts)."""
    bids, won, tc = borrow_nb(bids), borrow_nb(won), borrow_nb(tc)
    unseen = FULL52 & ~(hand | played)
    own = np.zeros(26 + 5 * MAX_SEATS, dtype=np.int64)   # one allocation, borrowed views
    buf = borrow_nb(own)
    cards = buf[0:13]
    totals = buf[13:26]
    hands2 = buf[26:26 + MAX_SEATS]
    won2 = buf[26 + MAX_SEATS:26 + 2 * MAX_SEATS]
    tc2 = buf[26 + 2 * MAX_SEATS:26 + 3 * MAX_SEATS]
    sv = buf[26 + 3 * MAX_SEATS:26 + 4 * MAX_SEATS]
    sp = buf[26 + 4 * MAX_SEATS:26 + 5 * MAX_SEATS]
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
        if mode == 0:
            add_card_scores_nb(n, h, me, ws[w], hand, cards, n_legal, trump, played, bids, won,
                               t, leader, tc, tn, rv, forbidden, is_blind, hands2, won2,
                               tc2, totals)
        else:
            add_learned_scores_nb(n, h, me, mode, ws[w], hand, cards, n_legal, trump, played,
                                  bids, won, t, leader, tc, tn, rv, forbidden, is_blind,
                                  hands2, won2, tc2, sv, sp, totals)
    c = cards[best_index_nb(totals, n_legal)]
    keep_nb(own)
    keep_nb(ws_own)
    return c


@njit(cache=True, inline="always")
def bids_forbidden_nb(n, h, bids, rv):
    """The dealer's forbidden bid once the others have bid (−1: none)."""
    s = 0
    for q in range(n - 1):
        s += bids[q]
    return forbidden_bid_nb(h, s, rv)


@njit(cache=True)
def bid_worlds_nb(key, n, h, me, hand, turned, trump, bids, rv, is_blind, worlds,
                  cand, lam, shift, out):
    """The worlds of a strong bid: ``cand × worlds`` deals of the cards ``me`` cannot see
    (only ``worlds`` for the first bidder, who has nothing to condition on), weighed by the
    likelihood of the bids ``bids[:me]`` already made under the soft bidder with slope
    ``lam`` around :func:`model_bid_nb` with ``shift``, and ``worlds`` of them resampled
    into ``out[:worlds]``. Returns the Kish effective sample size (0.0: none fits, the candidates are taken unweighted)."""
    bids, out = borrow_nb(bids), borrow_nb(out)
    unseen = FULL52 & ~(hand | (np.int64(1) << turned))
    m = cand * worlds if me > 0 else worlds
    cw_own = np.empty((m, MAX_SEATS), dtype=np.int64)
    cw = borrow_nb(cw_own)       # a row per candidate, without reference counts
    logw_own = np.zeros(m, dtype=np.float64)
    logw = borrow_nb(logw_own)
    novoids_own = np.zeros(MAX_SEATS, dtype=np.int64)
    novoids = borrow_nb(novoids_own)
    for i in range(m):
        sample_world_nb(deal_key_nb(key, i), n, h, me, hand, unseen, 0, 0, 0, novoids, cw[i])
        if lam > 0.0 and me > 0:
            logw[i] = bids_loglik_nb(n, h, me, me, cw[i], trump, bids, rv, is_blind,
                                     lam, shift)
    ess = keep_worlds_nb(key, cw, logw, m, worlds, out)
    keep_nb(cw_own)
    keep_nb(logw_own)
    keep_nb(novoids_own)
    return ess


@njit(cache=True)
def strong_bid_nb(dkey, n, h, me, hand, turned, trump, bids, bid_sum, forbidden, rv,
                  is_blind, worlds, cand, lam, shift):
    """The strong policy's bid for position ``me``: every legal bid scored on ``worlds``
    worlds resampled from ``cand × worlds`` candidates by the likelihood of the bids made
    before it (``bids[:me]``); the later players bid with the heuristic and everyone plays
    the heuristic (as :func:`fastsim.boerenbridge_nb.pimc_bid_nb`)."""
    bids = borrow_nb(bids)
    ws_own = np.empty((worlds, MAX_SEATS), dtype=np.int64)
    ws = borrow_nb(ws_own)
    bid_worlds_nb(deal_key_nb(dkey, KEY_STRONG_BID + me), n, h, me, hand, turned, trump, bids,
                  rv, is_blind, worlds, cand, lam, shift, ws)
    own = np.zeros(4 * MAX_SEATS + h + 1, dtype=np.int64)   # one allocation, borrowed views
    buf = borrow_nb(own)
    hands2 = buf[0:MAX_SEATS]
    won2 = buf[MAX_SEATS:2 * MAX_SEATS]
    bids2 = buf[2 * MAX_SEATS:3 * MAX_SEATS]
    tc2 = buf[3 * MAX_SEATS:4 * MAX_SEATS]
    totals = buf[4 * MAX_SEATS:]
    for w in range(worlds):
        add_bid_scores_nb(n, h, me, ws[w], turned, trump, bids, bid_sum, forbidden, rv,
                          is_blind, hands2, won2, bids2, tc2, totals)
    b = best_bid_nb(totals, h, forbidden)
    keep_nb(own)
    keep_nb(ws_own)
    return b

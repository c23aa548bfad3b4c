"""Boonaken's ``strong`` policy: pimc card play over more worlds, equivalent cards once.

``strong`` plays its cards as ``pimc`` does (:func:`fastsim.boonaken_nb.pimc_card_nb`: every
legal card scored over sampled deals of what the player cannot see, each finished by the
heuristic for everyone, common random numbers) but over ``STRONG_CARD_FACTOR × worlds``
worlds, and scores cards that are exactly equivalent only once (the lowest of them is
played): two legal cards of one suit, both worth no card points and adjacent in that suit's
order once the cards between them are played or in the same hand (the plain 7 8 9 and the
trump 7 8 — where the rank order of a trump suit is the natural one), win and lose the same
tricks and points in every continuation. The auction, exchange and trump naming are the
heuristic's.

**Worlds weighted by the auction.** A decision draws ``CANDIDATES`` times its worlds from the
pimc sampler, weights each candidate by the likelihood of the auction under a soft
heuristic bidder (:func:`auction_loglik_nb`) evaluated on the hands the other players held
when they spoke (:func:`auction_hands_nb`), and keeps its worlds by systematic resampling
(:func:`fastsim.pimc_nb.resample_nb`, which also gives the Kish effective sample size).
The exact model is in ``docs/inference.md`` (Boonaken).

Keys: a card decision of ``me`` at trick ``t`` draws candidate ``i`` from
``deal_key(base, i)``, ``base = deal_key(deal key, KEY_STRONG_PLAY + 8·t + me)``
(fastsim.rng), the random past of a candidate's draws from the same key, and the
resampling offset from ``deal_key(base, RESAMPLE_OFFSET)``, so results are bit-identical
for any thread count. Compiled; numpy arrays and scalars in, a card out.
"""
import numpy as np
from ._jit import njit

from .bits import lowest_nb, suit_mask_nb
from .boonaken_nb import (FULL32, NO_WISH, estimate_nb, next_level_nb, wanted_call_nb,
                          wants_nb, world_capacity_nb, world_scores_nb)
from .boonaken_schema import (AUCTION_EPS, AUCTION_TAU, LADDER_VALUE, MISERE,  # noqa: F401
                              PRESET_SEED)
from .pimc_nb import best_index_nb, distinct_cards_nb, draw_world_nb, list_cards_nb, resample_nb
from .rng import KEY_STRONG_PLAY, below_nb, deal_key_nb

CANDIDATES = 4         # candidate worlds drawn per world kept
RESAMPLE_OFFSET = 1 << 30   # deal_key(base, this): the resampling key (above every candidate)
CTR_PAST = 5000        # counters of a candidate's random past of draws (5000 + 8·k + q)

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
def action_prob_nb(wb, wz, wm, est, standing, can_join, action, tau, eps):
    """P(action) of a bidder whose hand wants boonaak / zwabber / misère (``wb``, ``wz``,
    ``wm``: :func:`fastsim.boonaken_nb.wants_nb`) and has the estimate ``est``, at the standing level
    ``standing`` (-1: none; ``can_join``: a misère stands that it may join) under the soft
    heuristic bidder: ``eps + (1 − 2·eps)·p``, p the heuristic's choice made soft: a wanted
    boonaak / zwabber / misère is taken with p = 1 (every other action p = 0); otherwise
    the next point level with p = σ((est − value + ½)/tau) and a pass with 1 − that
    (no point level left: a pass with p = 1); every other action p = 0."""
    star = wanted_call_nb(wb, wz, wm, standing, can_join)
    p = 0.0
    if star != NO_WISH:
        p = 1.0 if action == star else 0.0
    else:
        lvl = next_level_nb(standing)
        pb = 0.0
        if lvl >= 0:
            pb = 1.0 / (1.0 + np.exp(-(est - LADDER_VALUE[lvl] + 0.5) / tau))
        if action == -1:
            p = 1.0 - pb
        elif lvl >= 0 and action == lvl:
            p = pb
    return eps + (1.0 - 2.0 * eps) * p


@njit(cache=True)
def auction_loglik_nb(n, preset, me, ahands, open_mask, auc, nauc, tau, eps):
    """log likelihood of the auction ``auc[:nauc]`` ((position, level or -1 = pass) rows,
    as the engine records them; a misère row while a misère stands is a join) given the
    auction hands ``ahands`` of everyone but ``me``: the sum of log
    :func:`action_prob_nb` over their actions, replaying the standing level and the misère
    players as the engine does; the estimate is the heuristic's,
    ``(4·E) // 5`` with E the best value of six of hand + open table cards."""
    est = np.zeros(5, dtype=np.int64)
    wants = np.zeros((5, 3), dtype=np.bool_)
    for q in range(n):
        if q != me:
            est[q] = estimate_nb(ahands[q], open_mask, n, preset)
            wants[q, 0], wants[q, 1], wants[q, 2] = wants_nb(ahands[q])
    in_mis = np.zeros(5, dtype=np.bool_)
    standing = -1
    ll = 0.0
    for k in range(nauc):
        q = auc[k, 0]
        a = auc[k, 1]
        can_join = standing == MISERE and not in_mis[q]
        if q != me:
            ll += np.log(action_prob_nb(wants[q, 0], wants[q, 1], wants[q, 2], est[q], standing,
                                        can_join, a, tau, eps))
        if a < 0:
            continue
        if a == MISERE and can_join:
            in_mis[q] = True
        else:
            standing = a
            for p in range(n):
                in_mis[p] = False
            if a == MISERE:
                in_mis[q] = True
    return ll


@njit(cache=True)
def auction_hands_nb(wkey, n, preset, me, world, open_mask, stock_pos, rest_at,
                     played_at, played_by, out):
    """The hand each other position held in the auction, as far as the world ``world``
    tells: the cards it holds now and has played, less (seed preset) the cards it drew —
    one random past per world: the draw after trick k (k from the last draw down to 0) is
    a uniform choice, keyed ``(wkey, CTR_PAST + 8·k + q)``, among its cards not yet chosen
    that it played after trick k or holds now (never an open table card: the declarer took it).
    The declarer's is its hand after the exchange (for the heuristic declarer of the seed
    preset, whose best six of hand + open cards that is, the same estimate). ``played_by[q]``:
    the cards q has played; ``played_at[c]``: the trick card c was played in (-1: not)."""
    draws = (stock_pos - rest_at) // n if preset == PRESET_SEED else 0
    cards = np.empty(16, dtype=np.int64)
    for q in range(n):
        out[q] = 0
        if q == me:
            continue
        h = world[q] | played_by[q]
        for k in range(draws - 1, -1, -1):
            m = 0
            x = h
            while x:
                c = lowest_nb(x)
                x &= x - 1
                if (played_at[c] < 0 or played_at[c] > k) and not (open_mask >> c) & 1:
                    cards[m] = c
                    m += 1
            if m == 0:
                break
            h &= ~(np.int64(1) << cards[below_nb(wkey, CTR_PAST + 8 * k + q, m)])
        out[q] = h


@njit(cache=True)
def candidates_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                  open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps, m, cand,
                  ahands, logw):
    """``m`` candidate worlds (``cand[i, q]``: position q's hand now, ``cand[i, n]``: the
    stock) drawn by the pimc sampler from keys ``deal_key(base, i)`` (the declarer keeps the
    table cards it took), their auction hands ``ahands[i]`` and log weights ``logw[i]``
    (the auction's log likelihood; 0 for every candidate when ``nauc`` is 0)."""
    world = np.zeros(8, dtype=np.int64)
    vv = np.zeros(8, dtype=np.int64)
    for q in range(n):
        vv[q] = voids[q]
    ah = np.zeros(5, dtype=np.int64)
    played_by = np.zeros(5, dtype=np.int64)     # per position: the cards it has played
    for c in range(64):
        if played_pos[c] >= 0:
            played_by[played_pos[c]] |= np.int64(1) << c
    for i in range(m):
        wkey = deal_key_nb(base, i)
        draw_world_nb(wkey, n + 1, me, hand, unseen, cap, vv, world)
        if decl != me:
            world[decl] |= pinned & hands[decl]
        for q in range(n + 1):
            cand[i, q] = world[q]
        if nauc > 0:
            auction_hands_nb(wkey, n, preset, me, world, open_mask, stock_pos,
                             rest_at, played_at, played_by, ah)
            logw[i] = auction_loglik_nb(n, preset, me, ah, open_mask, auc, nauc, tau, eps)
        else:
            logw[i] = 0.0
        for q in range(n):
            ahands[i, q] = ah[q]


@njit(cache=True)
def kept_worlds_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                   open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps, worlds, idx,
                   cand):
    """``CANDIDATES × worlds`` candidates (:func:`candidates_nb`, into ``cand``) resampled
    to ``worlds`` indices ``idx`` (increasing, repeats adjacent); returns the Kish
    effective sample size of the weights."""
    m = CANDIDATES * worlds
    ahands = np.zeros((m, 5), dtype=np.int64)
    logw = np.empty(m, dtype=np.float64)
    candidates_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                  open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps, m, cand,
                  ahands, logw)
    return resample_nb(deal_key_nb(base, RESAMPLE_OFFSET), logw, m, worlds, idx)


@njit(cache=True)
def strong_card_nb(dkey, n, preset, me, hand, legal, hands, deck, stock_pos, trump, t, leader,
                   tc, tn, played, known_out, pinned, decl, contract, bid, my_roem, in_mis, won,
                   cpts, voids, worlds, open_mask, rest_at, auc, nauc, played_at, played_pos):
    """The strong policy's card for position ``me``: the arguments of
    :func:`fastsim.boonaken_nb.pimc_card_nb`, ``worlds`` already multiplied by the
    engine (``STRONG_CARD_FACTOR``), then what the auction weighting reads: the open table
    cards, where the stock starts, the auction ``auc[:nauc]`` and per card the trick
    (``played_at``) and position (``played_pos``) it was played by (-1: not played)."""
    unseen = FULL32 & ~(hand | played | known_out | pinned)
    cards = np.empty(15, dtype=np.int64)
    n_legal = strong_cards_nb(legal, unseen | (pinned & ~hand), trump, cards)
    if n_legal == 1:
        return cards[0]
    cap = world_capacity_nb(n, preset, me, hands, stock_pos, pinned, decl, unseen)
    base = deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + me)
    cand = np.zeros((CANDIDATES * worlds, 6), dtype=np.int64)
    idx = np.empty(worlds, dtype=np.int64)
    kept_worlds_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                   open_mask, rest_at, auc, nauc, played_at, played_pos, AUCTION_TAU,
                   AUCTION_EPS, worlds, idx, cand)
    totals = np.zeros(15, dtype=np.int64)
    v = np.zeros(15, dtype=np.int64)
    deck2 = deck.copy()
    for j in range(worlds):
        i = idx[j]
        if j == 0 or i != idx[j - 1]:     # a repeated world scores the same
            world_scores_nb(deal_key_nb(base, i), cand[i], n, preset, me, hand, cards, n_legal,
                            deck2, stock_pos, trump, t, leader, tc, tn, played, decl, contract,
                            bid, my_roem, in_mis, won, cpts, v)
        for k in range(n_legal):
            totals[k] += v[k]
    return cards[best_index_nb(totals, n_legal)]

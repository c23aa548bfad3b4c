"""Boerenbridge play-query kernels: "which card should I play now?".

A query position is one player's information state in the middle of a deal. These
kernels sample the cards that player cannot see (:func:`fastsim.sample_nb.hidden_deal_nb`,
exact-uniform through importance weights), optionally keep only the worlds in which the other players'
heuristic bids equal the bids they made, and finish every world once per candidate card
with one policy for everyone (common random numbers: the same worlds for every card).

The card rules themselves are not repeated here: the rollouts call the engine's own
:func:`fastsim.boerenbridge_nb.policy_card_nb` (the simulator's one card dispatch) and
:func:`fastsim.boerenbridge_nb.rollout_nb`, so a query can never drift from the simulator.
numpy in, numpy out.
"""
import numpy as np
from ._jit import njit, prange

from .bits import popcount_nb
from .boerenbridge_nb import (deal_score_nb, follow_nb, forbidden_bid_nb, forbidden_of,
                              heuristic_bid_nb, play_on_nb, policy_card_nb, rollout_nb,
                              world_capacity_nb)
from .boerenbridge_nb import is_blind_nb  # noqa: F401 (the Python layer's rule, fastsim/aot.py)
from .boerenbridge_schema import MAX_SEATS, POLICY_HEURISTIC
from .play_nb import (FULL52, WORLD_SALT, heuristic_play_nb, query_chunk_nb,  # noqa: F401
                      voids_after_nb)
from .sample_nb import hidden_deal_nb
from .rng import below_nb, deal_key_nb, rand_nb, run_key_nb
from .bidmodel_nb import CTR_THIN, bid_loglik_nb, uniform_nb
from .trick import NATURAL_ORDER, trick_so_far_nb



@njit(cache=True)
def bids_loglik_nb(world, played_by, n, h, me, trump, bids, rv, is_blind, lam):
    """The log likelihood of the other positions' ``bids`` when they hold their sampled
    cards plus those they already played, under the soft heuristic bidder with slope
    ``lam`` (:func:`fastsim.bidmodel_nb.bid_loglik_nb`; ``inf``: the exact heuristic, 0 or
    −inf), with the same arguments as the engine's bidding."""
    s = 0
    lw = 0.0
    for p in range(n):
        if p != me:
            f = forbidden_bid_nb(h, s, rv) if p == n - 1 else -1
            hb = heuristic_bid_nb(world[p] | played_by[p], trump, n, h, p, s, f, is_blind)
            lw += bid_loglik_nb(bids[p], hb, h, f, lam)
            if lw == -np.inf:
                return lw
        s += bids[p]
    return lw


@njit(cache=True)
def sample_world_weight_nb(wkey, n, h, me, hand, unseen, t, leader, tn, voids, played_by,
                           trump, bids, condition, lam, rv, is_blind, world):
    """One sampled world for the query and its log importance weight (-inf: rejected).
    Nobody void: a uniform deal position by position (partial Fisher–Yates), each one
    weighed by the likelihood of its bid as soon as it is dealt; otherwise
    :func:`hidden_deal_nb`. With ``condition`` the weight includes the log likelihood of
    the others' bids under the soft heuristic bidder of slope ``lam`` (``inf``: exact)."""
    cap = world_capacity_nb(n, h, me, unseen, t, leader, tn)
    novoid = True
    for q in range(n):
        if q != me and voids[q] != 0:
            novoid = False
    if novoid:
        deck = np.empty(64, dtype=np.int64)
        m = 0
        x = unseen
        while x:
            c = x & -x
            x ^= c
            deck[m] = popcount_nb(c - 1)
            m += 1
        k = 0
        s = 0
        lw = 0.0
        for p in range(n):
            if p == me:
                world[p] = hand
            else:
                hm = np.int64(0)
                for _ in range(cap[p]):
                    j = k + below_nb(wkey, k, m - k)
                    c = deck[j]
                    deck[j] = deck[k]
                    deck[k] = c
                    hm |= np.int64(1) << c
                    k += 1
                world[p] = hm
                if condition:
                    f = forbidden_bid_nb(h, s, rv) if p == n - 1 else -1
                    hb = heuristic_bid_nb(hm | played_by[p], trump, n, h, p, s, f, is_blind)
                    lw += bid_loglik_nb(bids[p], hb, h, f, lam)
                    if lw == -np.inf:
                        return lw
            s += bids[p]
        return lw
    logw = hidden_deal_nb(wkey, n, me, hand, unseen, cap, voids, world)
    if logw == -np.inf:
        return logw
    if condition:
        logw += bids_loglik_nb(world, played_by, n, h, me, trump, bids, rv,
                               is_blind, lam)
    return logw


@njit(cache=True, parallel=True)
def sample_worlds_nb(seed, n, h, me, hand, played, t, leader, tn, voids, played_by, trump,
                     bids, condition, lam, rv, is_blind, start, count, out_world,
                     out_logw, out_u):
    """Worlds ``start .. start+count`` exactly as :func:`play_query_nb` draws them, their
    log weights and their thinning uniforms."""
    rkey = run_key_nb(seed)
    unseen = FULL52 & ~(hand | played)
    for i in prange(count):
        world = np.empty(MAX_SEATS, dtype=np.int64)
        wkey = deal_key_nb(rkey, start + i)
        out_logw[i] = sample_world_weight_nb(wkey, n, h, me, hand,
                                             unseen, t, leader, tn, voids, played_by, trump,
                                             bids, condition, lam, rv, is_blind, world)
        out_u[i] = uniform_nb(rand_nb(wkey, CTR_THIN))
        for q in range(n):
            out_world[i, q] = world[q]


@njit(cache=True)
def rollout_policy_nb(dkey, n, h, hands, turned, trump, pol, bids, won, played, t0, leader,
                      tc, tn, voids, pl_by, rv, is_blind, worlds):
    """Finish a deal from trick ``t0`` led by ``leader`` with ``tc[:tn]`` on the table,
    everyone playing policy ``pol`` exactly as the engine's play loop does
    (:func:`fastsim.boerenbridge_nb.bid_play_nb`); ``hands``, ``won``, ``voids``, ``pl_by``
    (the cards each position played) and ``tc`` are updated."""
    play_on_nb(policy_hook_nb, (pol, dkey, h, turned, rv, is_blind,
                                worlds), n, h, hands, trump, bids, won, played, t0, leader, tc,
               tn, voids, pl_by, True)


@njit(cache=True, inline="always")
def policy_hook_nb(ctx, n, p, hand, j, led, winner, trump, t, leader, tc, played, bids, won,
                   voids, pl_by):
    """Card hook (:func:`fastsim.boerenbridge_nb.play_on_nb`): one policy for everyone
    (``ctx``: the policy and the deal's constants)."""
    pol, dkey, h, turned, rv, is_blind, worlds = ctx
    return policy_card_nb(pol, dkey, n, h, p, hand, follow_nb(hand, j, led), turned, trump,
                          played, bids, won, t, leader, tc, j, led, winner, voids, pl_by, rv,
                          is_blind, worlds)


@njit(cache=True, inline="always")
def world_hook_nb(wctx, rv, wkey, world):
    """World hook of the play query (:func:`fastsim.play_nb.query_chunk_nb`)."""
    (n, h, me, hand, unseen, t, leader, tn, voids, played_by, trump, bids, condition, lam,
     is_blind) = wctx
    return sample_world_weight_nb(wkey, n, h, me, hand, unseen, t, leader, tn, voids, played_by,
                                  trump, bids, condition, lam, rv, is_blind, world)


@njit(cache=True, inline="always")
def query_nb(finish_fn, fctx, seed, n, h, me, hand, cards, trump, played, bids, won, t, leader,
             tc, tn, voids, played_by, condition, lam, rv, is_blind,
             deals, chunk, out_logw, out_tricks, out_scores):
    """The play query (:func:`play_query_nb`, :func:`play_query_policy_nb`) through the
    games' one query loop (:func:`fastsim.play_nb.query_chunk_nb`): worlds ``deals[i]`` of
    :func:`sample_world_weight_nb`, finished by the hook ``finish_fn`` (its contexts: the
    position ``(n, h, me, trump, bids, t, leader, voids, played_by, forbidden, is_blind)``,
    ``fctx`` and the variant tuple ``rv``; it returns my deal score)."""
    unseen = FULL52 & ~(hand | played)
    forbidden = forbidden_of(n, n - 1, bids, h, rv)
    rkey = run_key_nb(seed)
    count = deals.shape[0]
    for ci in prange((count + chunk - 1) // chunk):
        query_chunk_nb(world_hook_nb, (n, h, me, hand, unseen, t, leader, tn, voids, played_by,
                                       trump, bids, condition, lam, is_blind),
                       finish_fn, (n, h, me, trump, bids, t, leader, voids, played_by,
                                   forbidden, is_blind), fctx, rv,
                       rkey, MAX_SEATS, n, me, hand, cards, won, tc, tn, played, deals, ci * chunk,
                       min((ci + 1) * chunk, count), out_logw, out_tricks, out_scores)


@njit(cache=True, inline="always")
def heuristic_finish_nb(pos, fctx, rv, pkey, c, hands, won, played, tc, tn, scratch):
    """Finish hook: the heuristic for everyone; my deal score."""
    n, h, me, trump, bids, t, leader, _v, _p, forbidden, is_blind = pos
    rollout_nb(n, h, hands, trump, bids, won, played, t, leader, tc, tn)
    return deal_score_nb(bids[me], won[me], rv, me == n - 1, forbidden, is_blind)


@njit(cache=True, inline="always")
def policy_finish_nb(pos, fctx, rv, pkey, c, hands, won, played, tc, tn, scratch):
    """Finish hook: policy ``pol`` for everyone (its own key ``pkey``), with the shown
    voids and the cards each position played once I play ``c``; my deal score."""
    n, h, me, trump, bids, t, leader, voids, played_by, forbidden, is_blind = pos
    pol, turned, worlds = fctx
    if pol == POLICY_HEURISTIC:
        rollout_nb(n, h, hands, trump, bids, won, played, t, leader, tc, tn)
    else:
        voids2 = scratch[0]
        pl_by2 = scratch[1]
        voids_after_nb(n, voids, me, c, tc, tn - 1, voids2)
        for q in range(n):
            pl_by2[q] = played_by[q]
        pl_by2[me] |= np.int64(1) << c
        rollout_policy_nb(pkey, n, h, hands, turned, trump, pol, bids, won, played, t, leader, tc,
                          tn, voids2, pl_by2, rv, is_blind, worlds)
    return deal_score_nb(bids[me], won[me], rv, me == n - 1, forbidden, is_blind)


@njit(cache=True, parallel=True)
def play_query_nb(seed, n, h, me, hand, cards, turned, trump, played, bids, won, t, leader,
                  tc, tn, voids, played_by, condition, lam, pol, rv, is_blind, worlds, deals, chunk, out_logw, out_tricks, out_scores):
    """(Heuristic only: ``pol`` and ``worlds`` are ignored, so that this kernel stays small and
    compiles fast; :func:`play_query_policy_nb` takes any policy.) Sample worlds ``deals[i]``
    (world indices) for the player at position ``me`` (to move, ``tc[:tn]`` on the table) and
    finish each once per candidate card ``cards[k]`` with policy ``pol`` for everyone (the
    same world and policy randomness for every card). ``out_logw[i]``: log importance weight
    of world i (-inf: inconsistent, not played); ``out_tricks[i, k]``/``out_scores[i, k]``:
    my tricks and deal score after card k. Results depend only on the seed and the world
    index, never on ``chunk`` or threads."""
    query_nb(heuristic_finish_nb, 0, seed, n, h, me, hand, cards, trump, played, bids, won, t,
             leader, tc, tn, voids, played_by, condition, lam, rv, is_blind, deals, chunk, out_logw, out_tricks, out_scores)


@njit(cache=True, parallel=True)
def play_query_policy_nb(seed, n, h, me, hand, cards, turned, trump, played, bids, won, t, leader,
                         tc, tn, voids, played_by, condition, lam, pol, rv, is_blind, worlds, deals, chunk, out_logw, out_tricks, out_scores):
    """(Any policy; :func:`play_query_nb` is the small, fast-compiling heuristic-only twin with the
    same arguments.) Sample worlds ``deals[i]`` for the player at position
    ``me`` (to move, ``tc[:tn]`` on the table) and finish each once per candidate card
    ``cards[k]`` with policy ``pol`` for everyone (the same world and policy randomness for
    every card). ``out_logw[i]``: log importance weight of world i (-inf: inconsistent, not
    played); ``out_tricks[i, k]``/``out_scores[i, k]``: my tricks and deal score after card
    k. Results depend only on the seed and the world index, never on ``chunk`` or threads."""
    query_nb(policy_finish_nb, (pol, turned, worlds),
             seed, n, h, me, hand, cards, trump, played, bids, won, t, leader, tc, tn, voids,
             played_by, condition, lam, rv, is_blind, deals, chunk,
             out_logw, out_tricks, out_scores)


@njit(cache=True)
def decide_card_nb(pol, seed, deal, n, h, p, hand, legal, turned, trump, played, bids, won, t,
                   leader, tc, tn, voids, pl_by, rv, is_blind, worlds):
    """The card policy ``pol`` plays for position ``p`` with ``tc[:tn]`` on the table: the
    engine's own dispatch (:func:`fastsim.boerenbridge_nb.policy_card_nb`) with the same
    arguments; ``seed`` and ``deal`` (the global deal index) give the deal's key as in the
    simulator."""
    dkey = deal_key_nb(run_key_nb(seed), deal)
    led, winner, _, _, _ = trick_so_far_nb(tc, tn, leader, n, trump, NATURAL_ORDER)
    return policy_card_nb(pol, dkey, n, h, p, hand, legal, turned, trump, played, bids, won, t,
                          leader, tc, tn, led, winner, voids, pl_by, rv, is_blind, worlds)


@njit(cache=True)
def decide_heuristic_nb(n, p, hand, trump, played, bids, won, leader, tc, tn):
    """The heuristic's card (the engine's call, :func:`decide_card_nb`'s last branch) in a
    small kernel that compiles fast."""
    led, winner, _, _, _ = trick_so_far_nb(tc, tn, leader, n, trump, NATURAL_ORDER)
    return heuristic_play_nb(hand, tn, n, led, winner, trump, bids[p] - won[p],
                             FULL52 & ~(hand | played))

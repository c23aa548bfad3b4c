"""Bonken play-query kernels (trick contracts): "which card should I play now?".

The hidden cards are sampled by :func:`fastsim.sample_nb.hidden_deal_nb` (importance
weights, uniform over the deals consistent with the shown voids) and every world is
finished once per candidate card with one policy for everyone, through the engine's own
card functions (:mod:`fastsim.bonken_nb`), so the query cannot drift from the simulator.
"""
import numpy as np
from ._jit import njit, prange

from .bonken_nb import (domino_move_nb, domino_on_nb, domino_place_nb,
                        heuristic_card_nb, hidden_cap_nb, penalty_mask_nb,
                        play_on_nb, rollout_nb, seat_card_nb, trump_of_nb)
from .bonken_nb import legal_bonken_nb  # noqa: F401 (the Python layer's legal cards, fastsim/aot.py)
from .bonken_schema import POLICY_HEURISTIC
from .play_nb import FULL52, WORLD_SALT, query_chunk_nb, voids_after_nb
from .rng import deal_key_nb, run_key_nb
from .sample_nb import hidden_deal_forbid_nb, hidden_deal_nb
from .trick import NATURAL_ORDER, trick_so_far_nb



@njit(cache=True)
def decide_card_nb(pol, seed, deal, contract, p, hand, legal, rv, t, leader, tc, tn,
                   played, broken, taken, scores, voids, worlds):
    """The card policy ``pol`` plays for position ``p`` with ``tc[:tn]`` on the table, keyed
    like the simulator's deal ``deal`` of run ``seed``."""
    dkey = deal_key_nb(run_key_nb(seed), deal)
    trump = trump_of_nb(contract)
    led, winner, _, _, _ = trick_so_far_nb(tc, tn, leader, 4, trump, NATURAL_ORDER)
    return seat_card_nb(pol, dkey, contract, p, hand, legal, tn, led, winner, trump,
                        penalty_mask_nb(contract), rv, t, leader, tc, played, broken,
                        taken, scores, voids, worlds)


@njit(cache=True, inline="always")
def policy_hook_nb(ctx, contract, p, hand, legal, j, led, winner, win_pos, trump, danger,
                   rv, t, leader, tc, played, broken, taken, scores, voids,
                   chooser_played, pols):
    """Card hook: one policy for everyone (``ctx``: policy, deal key, worlds)."""
    pol, dkey, worlds = ctx
    return seat_card_nb(pol, dkey, contract, p, hand, legal, j, led, winner, trump, danger,
                        rv, t, leader, tc, played, broken, taken, scores, voids, worlds)


@njit(cache=True)
def rollout_policy_nb(dkey, pol, contract, hands, rv, t0, leader, tc, tn, played,
                      broken, taken, scores, voids, worlds):
    """Finish a round from trick ``t0`` exactly as the engine's play loop does, everyone
    playing ``pol``; adds the remaining penalties/gains to ``scores``."""
    play_on_nb(policy_hook_nb, (pol, dkey, worlds), contract, hands, tc, rv, t0,
               leader, tc, tn, played, broken, taken, np.int64(0), scores, voids, True)


@njit(cache=True)
def _world_nb(wkey, me, hand, unseen, t, leader, tn, voids, contract, chosen_from,
              chooser_played, world):
    """One world of the play query and its log weight: the sampler's, plus, when the
    contracts the chooser chose from are known (``chosen_from``, a bit set; 0: unknown) and
    I am not the chooser, the log probability of its choice under the soft chooser model
    (:func:`fastsim.bonken_strong_nb.chooser_logp_nb`) on its hand as dealt (held in the
    world plus ``chooser_played``)."""
    cap = hidden_cap_nb(me, t, leader, tn)
    lw = hidden_deal_nb(wkey, 4, me, hand, unseen, cap, voids, world)
    if chosen_from != 0 and me != strong.CHOOSER and lw != -np.inf:
        lw += strong.chooser_logp_nb(world[strong.CHOOSER] | chooser_played, chosen_from,
                                     contract, strong.TEMP_NEGATIVE, strong.TEMP_TRUMP)
    return lw


@njit(cache=True, parallel=True)
def sample_worlds_nb(seed, me, hand, played, t, leader, tn, voids, contract, chosen_from,
                     chooser_played, start, count, out_world, out_logw):
    """Worlds ``start .. start+count`` exactly as :func:`play_query_nb` draws them."""
    rkey = run_key_nb(seed)
    unseen = FULL52 & ~(hand | played)
    for i in prange(count):     # each world straight into its row
        out_logw[i] = _world_nb(deal_key_nb(rkey, start + i), me, hand, unseen, t, leader, tn,
                                voids, contract, chosen_from, chooser_played, out_world[i])


@njit(cache=True, inline="always")
def world_hook_nb(wctx, rv, wkey, world):
    """World hook of the play query (:func:`fastsim.play_nb.query_chunk_nb`)."""
    me, hand, unseen, t, leader, tn, svoids, contract, chosen_from, chooser_played = wctx
    return _world_nb(wkey, me, hand, unseen, t, leader, tn, svoids, contract, chosen_from,
                     chooser_played, world)


@njit(cache=True, inline="always")
def query_nb(finish_fn, fctx, seed, contract, me, hand, cards, rv, t, leader, tc, tn,
             played, broken, taken, scores, voids, svoids, start, count, chunk, out_logw,
             out_scores, chosen_from, chooser_played):
    """The play query (:func:`play_query_nb`, :func:`play_query_policy_nb`,
    :func:`fastsim.bonken_strong_nb.play_query_strong_nb`) through the games' one query loop
    (:func:`fastsim.play_nb.query_chunk_nb`): worlds ``start .. start+count``
    (:func:`_world_nb`), finished by the hook ``finish_fn`` (its context: the position
    ``(contract, me, t, leader, broken, taken, voids, chooser_played)``, ``fctx`` and the
    variant tuple ``rv``; it returns my round score, ``out_scores[i, k]`` for card k: here the count the
    loop writes down is the score too, so both its outputs are ``out_scores``)."""
    unseen = FULL52 & ~(hand | played)
    rkey = run_key_nb(seed)
    deals = np.arange(start, start + count)
    for ci in prange((count + chunk - 1) // chunk):
        query_chunk_nb(world_hook_nb, (me, hand, unseen, t, leader, tn, svoids, contract,
                                       chosen_from, chooser_played),
                       finish_fn, (contract, me, t, leader, broken, taken, voids,
                                   chooser_played), fctx, rv,
                       rkey, 4, 4, me, hand, cards, scores, tc, tn, played, deals, ci * chunk,
                       min((ci + 1) * chunk, count), out_logw, out_scores, out_scores)


@njit(cache=True, inline="always")
def heuristic_finish_nb(pos, fctx, rv, pkey, c, hands, scores, played, tc, tn, scratch):
    """Finish hook: the heuristic for everyone."""
    contract, me, t, leader, broken, taken, _v, _c = pos
    rollout_nb(contract, hands, rv, t, leader, tc, tn, played, broken, taken, scores)
    return scores[me]


@njit(cache=True, inline="always")
def policy_finish_nb(pos, fctx, rv, pkey, c, hands, scores, played, tc, tn, scratch):
    """Finish hook: policy ``pol`` for everyone (its own key ``pkey``), with the voids shown
    once I play ``c``."""
    contract, me, t, leader, broken, taken, voids, _c = pos
    pol, worlds = fctx
    if pol == POLICY_HEURISTIC:
        rollout_nb(contract, hands, rv, t, leader, tc, tn, played, broken, taken,
                   scores)
    else:
        v2 = scratch[0]
        voids_after_nb(4, voids, me, c, tc, tn - 1, v2)
        rollout_policy_nb(pkey, pol, contract, hands, rv, t, leader, tc, tn, played,
                          broken, taken, scores, v2, worlds)
    return scores[me]


@njit(cache=True, parallel=True)
def play_query_nb(seed, contract, me, hand, cards, rv, t, leader, tc, tn, played,
                  broken, taken, scores, voids, svoids, pol, worlds, start, count, chunk,
                  out_logw, out_scores, chosen_from, chooser_played):
    """(Heuristic only: ``pol`` and ``worlds`` are ignored, so that this kernel stays small and
    compiles fast; :func:`play_query_policy_nb` takes any policy.) Sample worlds ``start ..
    start+count`` for position ``me`` (to move) and finish each once per candidate card
    ``cards[k]`` with policy ``pol`` for everyone (same world and policy randomness for
    every card). ``out_scores[i, k]``: my round score (points so far included) after card k;
    ``out_logw[i]``: the world's log importance weight. ``voids``: the suits shown by not
    following (the engine's bookkeeping, for pimc); ``svoids``: everything known, for
    sampling (a restricted heart lead shows a hand of hearts only); ``chosen_from``,
    ``chooser_played``: the chooser's choice that weighs the worlds (:func:`_world_nb`)."""
    query_nb(heuristic_finish_nb, 0, seed, contract, me, hand, cards, rv, t, leader,
             tc, tn, played, broken, taken, scores, voids, svoids, start, count, chunk, out_logw,
             out_scores, chosen_from, chooser_played)


@njit(cache=True, parallel=True)
def play_query_policy_nb(seed, contract, me, hand, cards, rv, t, leader, tc, tn, played,
                         broken, taken, scores, voids, svoids, pol, worlds, start, count, chunk,
                         out_logw, out_scores, chosen_from, chooser_played):
    """(Any policy; :func:`play_query_nb` is the small, fast-compiling heuristic-only twin with the
    same arguments.) Sample worlds ``start .. start+count`` for position ``me`` (to move)
    and finish each once per candidate card ``cards[k]`` with policy ``pol`` for everyone
    (same world and policy randomness for every card). ``out_scores[i, k]``: my round score
    (points so far included) after card k; ``out_logw[i]``: the world's log importance
    weight. ``voids``: the suits shown by not following (the engine's bookkeeping, for
    pimc); ``svoids``: everything known, for sampling (a restricted heart lead shows a hand
    of hearts only); ``chosen_from``, ``chooser_played``: as :func:`play_query_nb`'s."""
    query_nb(policy_finish_nb, (pol, worlds), seed, contract, me, hand, cards, rv, t,
             leader, tc, tn, played, broken, taken, scores, voids, svoids, start, count, chunk,
             out_logw, out_scores, chosen_from, chooser_played)


@njit(cache=True)
def decide_heuristic_nb(contract, hand, legal, leader, tc, tn, played):
    """The heuristic's card (the engine's call) in a small kernel that compiles fast."""
    trump = trump_of_nb(contract)
    led, winner, _, _, _ = trick_so_far_nb(tc, tn, leader, 4, trump, NATURAL_ORDER)
    return heuristic_card_nb(contract, hand, legal, tn, led, winner, trump,
                             penalty_mask_nb(contract), played)


# ----------------------------------------------------------------------------- domino

@njit(cache=True)
def _domino_world_nb(wkey, me, hand, unseen, cap, forbid, world):
    return hidden_deal_forbid_nb(wkey, 4, me, hand, unseen, cap, forbid, world)


@njit(cache=True, parallel=True)
def domino_sample_worlds_nb(seed, me, hand, unseen, cap, forbid, start, count, out_world,
                            out_logw):
    """Worlds ``start .. start+count`` exactly as :func:`domino_query_nb` draws them."""
    rkey = run_key_nb(seed)
    for i in prange(count):     # each world straight into its row
        out_logw[i] = _domino_world_nb(deal_key_nb(rkey, start + i), me, hand, unseen, cap,
                                       forbid, out_world[i])


@njit(cache=True, parallel=True)
def domino_query_nb(seed, me, hand, moves, unseen, cap, forbid, lo, hi, m, out, pol, start,
                    count, chunk, out_logw, out_lose):
    """Domino: for worlds ``start .. start+count`` and each of my candidate ``moves`` (a
    card, or -1 for a pass), play on with ``pol`` for everyone; ``out_lose[i, k]``: am I
    the last player holding cards."""
    rkey = run_key_nb(seed)
    K = moves.shape[0]
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        rows = np.empty((4, 4), dtype=np.int64)
        world, h2, lo2, hi2 = rows[0], rows[1], rows[2], rows[3]
        pols = np.full(4, pol, dtype=np.int64)
        dm = np.empty((1, 2), dtype=np.int8)
        d1 = np.empty(1, dtype=np.int8)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            wkey = deal_key_nb(rkey, start + i)
            logw = _domino_world_nb(wkey, me, hand, unseen, cap, forbid, world)
            out_logw[i] = logw
            if logw == -np.inf:
                continue
            pkey = deal_key_nb(wkey, WORLD_SALT)
            for k in range(K):
                c = moves[k]
                o = out
                for q in range(4):
                    h2[q] = world[q]
                    lo2[q] = lo[q]
                    hi2[q] = hi[q]
                if c >= 0:
                    domino_place_nb(c, lo2, hi2)
                    h2[me] = hand & ~(np.int64(1) << c)
                    if h2[me] == 0:
                        o += 1
                _, loser = domino_on_nb(pkey, pols, h2, lo2, hi2, (me + 1) & 3, m + 1, o, dm, d1,
                                        False)
                out_lose[i, k] = loser == me


@njit(cache=True)
def domino_decide_nb(pol, seed, deal, hand, lo, hi, m):
    """:func:`fastsim.bonken_nb.domino_move_nb` keyed like the simulator's deal ``deal`` of run
    ``seed``."""
    return domino_move_nb(pol, deal_key_nb(run_key_nb(seed), deal), hand, lo, hi, m)


# the soft chooser model that weighs the worlds (this module and bonken_strong_nb import
# each other: the module object here, its names resolved when a kernel is first compiled)
from . import bonken_strong_nb as strong  # noqa: E402

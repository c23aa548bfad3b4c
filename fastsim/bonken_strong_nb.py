"""Bonken ``strong`` policy kernels: contract choice by search, card play with inference.

* **Contract choice** (:func:`strong_choose_nb`): the chooser samples ``worlds`` deals of
  the 39 unseen cards (uniform), plays every available contract on each of them (the same
  worlds for every contract: common random numbers) with the heuristic for everyone (Domino:
  the Domino heuristic), scores it with the engine's own scoring and takes the contract with
  the best total of the objective (:data:`RELATIVE`: my score minus the others' mean).
* **Card play** (:func:`strong_card_nb`): as pimc, but a player other than the chooser draws
  ``CANDIDATES × worlds`` candidate worlds, weights each by the likelihood that the chooser,
  holding the world's hand, chose the contract being played (a softmax over the heuristic
  chooser's values, temperatures :data:`TEMP_NEGATIVE` / :data:`TEMP_TRUMP`), and resamples
  ``worlds`` of them (:func:`fastsim.pimc_nb.resample_nb`). The chooser itself has nothing to
  infer and plays exactly as pimc would with as many worlds; so does everyone when nobody
  chose (``fixed_order``, a run of one contract: ``chosen_from`` 0). strong's card play
  uses :data:`PLAY_WORLDS` × the engine's ``worlds`` (pimc: ``worlds``).

Keys (reproducible for any thread count): the choice's worlds from
``deal_key(deal_key(deal key, KEY_STRONG_BID + 1), w)``; a card decision of ``me`` at trick
``t`` draws candidate ``i`` from ``deal_key(deal_key(deal key, KEY_STRONG_PLAY + 8t + me), i)``
and its resampling offset from the same decision key at :data:`RESAMPLE_SALT`.
Exact rules: ``docs/bonken.md`` ("The strong policy").

This module imports :mod:`fastsim.bonken_nb`, which imports this module at its end (its
dispatch calls these kernels), and :mod:`fastsim.bonken_play_nb` at its own end: import any
of them first.
"""
import numpy as np
from ._jit import njit

from .bits import popcount_nb, lowest_nb
from .bonken_nb import (CHOOSER, choose_contract_nb, heuristic_card_nb, hidden_cap_nb,
                        negative_cost_nb, pimc_card_nb, play_domino_nb,
                        play_on_nb, rollout_nb, best_card_nb, trump_of_nb)
from .bonken_schema import (BASELINE, DOMINO, N_NEGATIVE, POLICY_HEURISTIC, TEMP_NEGATIVE,  # noqa: F401
                            TEMP_TRUMP)
from .pimc_nb import draw_world_nb, resample_nb
from .refs_nb import borrow_nb, keep_nb
from .play_nb import FULL52, hand_value_nb, voids_after_nb
from .rng import KEY_STRONG_BID, KEY_STRONG_PLAY, deal_key_nb, run_key_nb

# the reproducibility contract of strong (changing one changes every strong result);
# ``worlds`` is the engine's (--worlds, default PIMC_WORLDS = 16)
PLAY_WORLDS = 4          # a card decision evaluates PLAY_WORLDS × worlds worlds (default 64)
CHOICE_WORLDS = 8        # the contract search samples CHOICE_WORLDS × worlds deals (128)
CANDIDATES = 4           # of CANDIDATES × those card worlds drawn as candidates (256)
RESAMPLE_SALT = 1 << 40  # key offset of the resampling (above every candidate index)
# the soft chooser model's temperatures: bonken_schema.TEMP_NEGATIVE / TEMP_TRUMP
RELATIVE = True          # the search's objective: my score − the others' mean (else mine)


@njit(cache=True)
def chooser_logp_nb(hand, avail, chosen, t_neg, t_trump):
    """Log-probability that a chooser holding ``hand`` picks ``chosen`` from the bit set
    ``avail`` under the soft chooser model (temperatures in the heuristic's units; a
    temperature <= 0 means the heuristic's own choice: 0.0 or -inf)."""
    temp = t_neg if chosen < N_NEGATIVE else t_trump
    if temp <= 0:
        return 0.0 if choose_contract_nb(np.uint64(0), hand, avail, POLICY_HEURISTIC) == chosen \
            else -np.inf
    vals = np.empty(12, dtype=np.float64)
    top = -np.inf
    for c in range(12):
        if (avail >> c) & 1:
            if c < N_NEGATIVE:
                v = BASELINE[c] - negative_cost_nb(hand, c)
            else:
                v = hand_value_nb(hand, trump_of_nb(c))
            vals[c] = v / temp
            if vals[c] > top:
                top = vals[c]
    s = 0.0
    for c in range(12):
        if (avail >> c) & 1:
            s += np.exp(vals[c] - top)
    return vals[chosen] - top - np.log(s)


@njit(cache=True)
def choice_values_nb(dkey, hand, avail, rv, n_worlds, relative, out):
    """``out[c]``: the summed objective of contract ``c`` (bit of ``avail``) over the choice
    search's ``n_worlds`` worlds (relative: 4·mine − the round's sum, i.e. 3 × my score
    minus the others' mean; else my score)."""
    key = deal_key_nb(dkey, KEY_STRONG_BID + CHOOSER)
    unseen = FULL52 & ~hand
    cap_own = hidden_cap_nb(CHOOSER, 0, 0, 0)
    cap = borrow_nb(cap_own)
    rows_own = np.zeros((5, 4), dtype=np.int64)    # voids (none) and the trick stay zero
    rows = borrow_nb(rows_own)                     # no reference counts per world
    voids, world, h2, sc, tc = rows[0], rows[1], rows[2], rows[3], rows[4]
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    dm = np.empty((1, 2), dtype=np.int8)
    d1 = np.empty(1, dtype=np.int8)
    for c in range(12):
        out[c] = 0
    for w in range(n_worlds):
        draw_world_nb(deal_key_nb(key, w), 4, CHOOSER, hand, unseen, cap, voids, world)
        for c in range(12):
            if not (avail >> c) & 1:
                continue
            for q in range(4):
                h2[q] = world[q]
                sc[q] = 0
            if c == DOMINO:
                play_domino_nb(dkey, h2, pol, sc, dm, d1, False)
            else:
                rollout_nb(c, h2, rv, 0, 0, tc, 0, np.int64(0), False, np.int64(0), sc)
            if relative:
                out[c] += 4 * sc[CHOOSER] - (sc[0] + sc[1] + sc[2] + sc[3])
            else:
                out[c] += sc[CHOOSER]
    keep_nb(cap_own)
    keep_nb(rows_own)


@njit(cache=True)
def strong_choose_nb(dkey, hand, avail, rv, n_worlds, relative):
    """The contract strong chooses from the bit set ``avail`` (ties: the lowest id)."""
    if popcount_nb(avail) == 1:
        return lowest_nb(avail)
    vals = np.empty(12, dtype=np.int64)
    choice_values_nb(dkey, hand, avail, rv, n_worlds, relative, vals)
    best = -1
    for c in range(12):
        if (avail >> c) & 1 and (best < 0 or vals[c] > vals[best]):
            best = c
    return best


@njit(cache=True)
def strong_worlds_nb(dkey, contract, me, hand, t, leader, tn, played, voids, worlds,
                     chosen_from, chooser_played, t_neg, t_trump, out_worlds, out_mult):
    """The worlds of ``me``'s strong card decision at trick ``t`` (``tn`` cards on the
    table): ``CANDIDATES × worlds`` candidates (voids respected), weighted by
    :func:`chooser_logp_nb` of the chooser's dealt hand (its hand in the world plus
    ``chooser_played``), resampled to ``worlds``. Writes the distinct kept worlds to
    ``out_worlds[:k]`` and how often each was drawn to ``out_mult[:k]``; returns
    ``(k, Kish ESS of the candidates' weights)``."""
    voids, out_worlds, out_mult = borrow_nb(voids), borrow_nb(out_worlds), borrow_nb(out_mult)
    unseen = FULL52 & ~(hand | played)
    cap_own = hidden_cap_nb(me, t, leader, tn)
    cap = borrow_nb(cap_own)
    m = CANDIDATES * worlds
    cand_own = np.empty((m, 4), dtype=np.int64)
    cand = borrow_nb(cand_own)
    logw_own = np.empty(m, dtype=np.float64)
    logw = borrow_nb(logw_own)
    own = np.empty(4 + worlds, dtype=np.int64)      # the world and the resampled indices
    buf = borrow_nb(own)
    world, idx = buf[0:4], buf[4:]
    base = deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + me)
    for i in range(m):
        draw_world_nb(deal_key_nb(base, i), 4, me, hand, unseen, cap, voids, world)
        for q in range(4):
            cand[i, q] = world[q]
        logw[i] = chooser_logp_nb(world[CHOOSER] | chooser_played, chosen_from, contract,
                                  t_neg, t_trump)
    ess = resample_nb(deal_key_nb(base, RESAMPLE_SALT), logw, m, worlds, idx)
    k = 0
    for j in range(worlds):      # idx is increasing: equal indices are neighbours
        if k > 0 and idx[j] == idx[j - 1]:
            out_mult[k - 1] += 1
            continue
        for q in range(4):
            out_worlds[k, q] = cand[idx[j], q]
        out_mult[k] = 1
        k += 1
    keep_nb(cap_own)
    keep_nb(cand_own)
    keep_nb(logw_own)
    keep_nb(own)
    return k, ess


@njit(cache=True)
def strong_card_nb(dkey, contract, me, hand, legal, rv, t, leader, tc, tn, played,
                   broken, taken, scores, voids, worlds, chosen_from, chooser_played):
    """strong's card: pimc over the ``PLAY_WORLDS × worlds`` worlds of
    :func:`strong_worlds_nb` (each finished by the heuristic, my own round score); exactly
    pimc with that many worlds for the chooser or when nobody chose."""
    worlds = PLAY_WORLDS * worlds
    if me == CHOOSER or popcount_nb(chosen_from) <= 1:
        return pimc_card_nb(dkey, contract, me, hand, legal, rv, t, leader, tc, tn,
                            played, broken, taken, scores, voids, worlds)
    kept_own = np.empty((worlds, 4), dtype=np.int64)
    kept = borrow_nb(kept_own)       # no reference counts per world
    mult_own = np.empty(worlds, dtype=np.int64)
    mult = borrow_nb(mult_own)
    k, _ = strong_worlds_nb(dkey, contract, me, hand, t, leader, tn, played, voids, worlds,
                            chosen_from, chooser_played, TEMP_NEGATIVE, TEMP_TRUMP, kept, mult)
    c = best_card_nb(contract, me, hand, legal, kept, mult, k, rv, t, leader, tc, tn,
                     played, broken, taken, scores)
    keep_nb(kept_own)
    keep_nb(mult_own)
    return c


@njit(cache=True)
def strong_decide_nb(seed, deal, contract, me, hand, legal, rv, t, leader, tc, tn,
                     played, broken, taken, scores, voids, worlds, chosen_from, chooser_played):
    """:func:`strong_card_nb` keyed like the simulator's deal ``deal`` of run ``seed`` (the
    engine's branch: a single legal card is played without search)."""
    if popcount_nb(legal) == 1:
        return lowest_nb(legal)
    return strong_card_nb(deal_key_nb(run_key_nb(seed), deal), contract, me, hand, legal,
                          rv, t, leader, tc, tn, played, broken, taken, scores, voids,
                          worlds, chosen_from, chooser_played)


@njit(cache=True)
def strong_choose_decide_nb(seed, deal, hand, avail, rv, worlds):
    """The engine's strong contract choice for deal ``deal`` of run ``seed`` (``worlds``:
    the card-play worlds; the search uses ``CHOICE_WORLDS ×`` that)."""
    return strong_choose_nb(deal_key_nb(run_key_nb(seed), deal), hand, avail, rv,
                            CHOICE_WORLDS * worlds, RELATIVE)


# ----------------------------------------------------------------------------- play query

@njit(cache=True, inline="always")
def strong_hook_nb(ctx, contract, p, hand, legal, j, led, winner, win_pos, trump, danger,
                   rv, t, leader, tc, played, broken, taken, scores, voids,
                   chooser_played, pol):
    """Card hook: strong for everyone (``ctx``: deal key, worlds, the contracts the chooser
    chose from); a single legal card without search, as in the engine."""
    dkey, worlds, chosen_from = ctx
    if popcount_nb(legal) > 1:
        return strong_card_nb(dkey, contract, p, hand, legal, rv, t, leader, tc, j,
                              played, broken, taken, scores, voids, worlds, chosen_from,
                              chooser_played)
    return heuristic_card_nb(contract, hand, legal, j, led, winner, trump, danger, played)


@njit(cache=True)
def rollout_strong_nb(dkey, contract, hands, rv, t0, leader, tc, tn, played, broken,
                      taken, scores, voids, worlds, chosen_from, chooser_played):
    """Finish a round from trick ``t0`` as the engine's play loop does with everyone playing
    strong (:func:`fastsim.bonken_play_nb.rollout_policy_nb` for strong); adds the remaining
    penalties/gains to ``scores``."""
    play_on_nb(strong_hook_nb, (dkey, worlds, chosen_from), contract, hands, tc, rv,
               t0, leader, tc, tn, played, broken, taken, chooser_played, scores, voids, True)


@njit(cache=True, inline="always")
def strong_finish_nb(pos, fctx, rv, pkey, c, hands, scores, played, tc, tn, scratch):
    """Finish hook of the play query (:func:`fastsim.bonken_play_nb.query_nb`): strong for
    everyone (my card ``c`` counts as the chooser's when I am the chooser)."""
    contract, me, t, leader, broken, taken, voids, chooser_played = pos
    worlds, chosen_from = fctx
    v2 = scratch[0]
    voids_after_nb(4, voids, me, c, tc, tn - 1, v2)
    cp = chooser_played | ((np.int64(1) << c) if me == CHOOSER else np.int64(0))
    rollout_strong_nb(pkey, contract, hands, rv, t, leader, tc, tn, played, broken,
                      taken, scores, v2, worlds, chosen_from, cp)
    return scores[me]


@njit(cache=True, parallel=True)
def play_query_strong_nb(seed, contract, me, hand, cards, rv, t, leader, tc, tn, played,
                         broken, taken, scores, voids, svoids, worlds, chosen_from,
                         chooser_played, start, count, chunk, out_logw, out_scores):
    """:func:`fastsim.bonken_play_nb.play_query_policy_nb` with everyone playing strong (the
    same worlds, weights and policy keys); ``chosen_from`` / ``chooser_played`` as in
    :func:`strong_card_nb`, and, as there, they weigh the query's own worlds."""
    query.query_nb(strong_finish_nb, (worlds, chosen_from), seed, contract, me, hand, cards,
                   rv, t, leader, tc, tn, played, broken, taken, scores, voids, svoids,
                   start, count, chunk, out_logw, out_scores, chosen_from, chooser_played)


# the play query's world sampler and policy salt (its module imports bonken_nb, which imports
# this one: the module object here, its names resolved when the kernel is first compiled)
from . import bonken_play_nb as query  # noqa: E402

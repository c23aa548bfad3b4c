"""Klaverjassen's ``strong`` policy (docs/klaverjassen.md, "The strong policy"): the trump
call by search and the card play by pimc over worlds that fit the calling round.

* **Worlds.** A decision draws ``CANDIDATES * W`` candidate deals of the cards it cannot
  see (the pimc sampler: own hand, cards played, shown voids), weights each by the
  likelihood of the calling round so far under the soft heuristic caller (every pass:
  :func:`fastsim.bidmodel_nb.pass_loglik_nb`; the call itself: :func:`call_loglik_nb`),
  evaluated on the hands the players held when they spoke (hidden cards plus the cards
  each has played since), and resamples ``W`` of them (:func:`fastsim.pimc_nb.resample_nb`).
* **Call.** Every option (pass, or each suit) is scored on the same ``CALL_FACTOR * W``
  worlds: after a pass the later players call as the heuristic would (all passing:
  position 0's forced call by the heuristic); the deal is finished by the heuristic for
  everyone and scored (nat, pit, roem). The best expected team margin wins (ties: pass,
  then the lowest suit).
* **Card.** As pimc (:func:`fastsim.klaverjassen_nb.pimc_card_nb`) on ``PLAY_FACTOR * W``
  resampled worlds.

Keys (part of the reproducibility contract): a card decision of position ``me`` in trick
``t`` draws candidate ``i`` from ``deal_key(deal_key(dkey, KEY_STRONG_PLAY + 8·t + me), i)``;
the call of ``me`` from ``deal_key(dkey, KEY_STRONG_BID + me)`` (the forced call of
position 0: ``KEY_STRONG_BID + FORCED_OFFSET``); the resampling offset from
``deal_key(base, RESAMPLE_OFFSET)``. Nothing depends on threads or chunking.

Calls are given as the engine records them: ``calls[k]`` for k < ``ncalls`` is the suit
named (-1: pass) by position k, and ``calls[4]`` the forced call of position 0 after four
passes (``ncalls = 5``).
"""
import numpy as np
from ._jit import njit

from .bidmodel_nb import pass_loglik_nb
from .klaverjassen_nb import (FULL32, call_value_nb, card_margins_nb, heuristic_call_nb,
                              final_scores_nb, rollout_nb)
from .klaverjassen_schema import CALL_THRESHOLD
from .pimc_nb import REST, best_index_nb, draw_world_nb, list_cards_nb, resample_nb
from .refs_nb import borrow_nb, keep_nb
from .rng import KEY_STRONG_BID, KEY_STRONG_PLAY, deal_key_nb, run_key_nb

STRONG_TAU = 10.0      # logistic scale of the soft caller, in call-value points (as the trump query's)
CANDIDATES = 4         # candidate worlds drawn per world kept
CALL_FACTOR = 16       # a call is searched on CALL_FACTOR × W worlds (W: --worlds)
PLAY_FACTOR = 4        # a card decision on PLAY_FACTOR × W worlds
FORCED_OFFSET = 4      # KEY_STRONG_BID + 4: position 0's forced call (its second call)
RESAMPLE_OFFSET = 1 << 30   # deal_key(base, this): the resampling key (above every candidate index)

TEAM4 = np.array([0, 1, 0, 1], dtype=np.int64)


@njit(cache=True)
def best_value_nb(hand):
    """The heuristic's best call value of ``hand`` (over the four suits)."""
    best = call_value_nb(hand, 0)
    for s in range(1, 4):
        v = call_value_nb(hand, s)
        if v > best:
            best = v
    return best


@njit(cache=True)
def call_loglik_nb(hand, pos, suit, forced, tau):
    """log P(position ``pos`` holding ``hand`` names ``suit``) under the soft heuristic
    caller: it calls with probability 1 − P(pass) (:func:`pass_loglik_nb`; always when
    ``forced``) and names suit ``s`` with probability ∝ exp(value(s) / tau). ``tau = 0``:
    the heuristic exactly (0 or −inf: the value must reach the threshold, the suit be the
    heuristic's)."""
    v = np.empty(4, dtype=np.float64)
    best = 0
    for s in range(4):
        v[s] = call_value_nb(hand, s)
        if v[s] > v[best]:
            best = s
    top = v[best]
    if tau <= 0.0:
        if suit != best:
            return -np.inf
        if not forced and top < CALL_THRESHOLD[pos]:
            return -np.inf
        return 0.0
    z = 0.0
    for s in range(4):
        z += np.exp((v[s] - top) / tau)
    ll = (v[suit] - top) / tau - np.log(z)
    if not forced:
        # log(1 − P(pass)) = log(1 / (1 + exp(−x))), x = (top − T + ½) / tau
        ll += pass_loglik_nb(CALL_THRESHOLD[pos], top + 1.0, tau)
    return ll


@njit(cache=True)
def round_loglik_nb(orig, me, calls, ncalls, tau, model_call):
    """log likelihood of the calling round ``calls[:ncalls]`` given the hands ``orig``
    (per position, as dealt) of everyone but ``me``; ``model_call``: include the call
    itself (else only the passes)."""
    ll = 0.0
    for k in range(ncalls):
        q = k if k < 4 else 0
        if q == me:
            continue
        if calls[k] < 0:
            ll += pass_loglik_nb(best_value_nb(orig[q]), CALL_THRESHOLD[q], tau)
        elif model_call:
            ll += call_loglik_nb(orig[q], q, calls[k], k == 4, tau)
        if ll == -np.inf:
            break
    return ll


@njit(cache=True)
def kept_worlds_nb(base, me, hand, unseen, cap, voids, played_by, calls, ncalls, tau,
                   worlds, out):
    """``worlds`` worlds into ``out[:worlds]`` (rows of hands per position, in increasing
    candidate order, repeats adjacent): ``CANDIDATES * worlds`` candidates from the pimc
    sampler keyed ``deal_key(base, i)``, weighted by the calling round, resampled. Returns
    the Kish effective sample size of the weights (0.0: no candidate fits; the candidates
    are then kept evenly, unweighted)."""
    cap, voids, played_by = borrow_nb(cap), borrow_nb(voids), borrow_nb(played_by)
    calls, out = borrow_nb(calls), borrow_nb(out)
    m = CANDIDATES * worlds
    cand_own = np.empty((m, 4), dtype=np.int64)
    cand = borrow_nb(cand_own)
    logw_own = np.empty(m, dtype=np.float64)
    logw = borrow_nb(logw_own)
    own = np.empty(8 + worlds, dtype=np.int64)      # world, orig, idx
    buf = borrow_nb(own)
    world, orig, idx = buf[0:4], buf[4:8], buf[8:]
    for i in range(m):
        draw_world_nb(deal_key_nb(base, i), 4, me, hand, unseen, cap, voids, world)
        for q in range(4):
            cand[i, q] = world[q]
            orig[q] = world[q] | played_by[q]
        logw[i] = round_loglik_nb(orig, me, calls, ncalls, tau, True)
    ess = resample_nb(deal_key_nb(base, RESAMPLE_OFFSET), logw, m, worlds, idx)
    for j in range(worlds):
        for q in range(4):
            out[j, q] = cand[idx[j], q]
    keep_nb(cand_own)
    keep_nb(logw_own)
    keep_nb(own)
    return ess


@njit(cache=True)
def strong_call_nb(dkey, me, hand, forced, rv, worlds, tau):
    """The strong call of position ``me`` holding ``hand`` (positions 0 … me−1 passed;
    ``forced``: all four passed and position 0 must name): a suit, or −1 to pass."""
    base = deal_key_nb(dkey, KEY_STRONG_BID + (FORCED_OFFSET if forced else me))
    w_call = CALL_FACTOR * worlds
    # scratch: one allocation, borrowed (fastsim.refs_nb), and the worlds
    own = np.zeros(REST + 1 + 4 + 5 + 5 + 5 + 4 + 4 + 4 * 2 + 4, dtype=np.int64)
    buf = borrow_nb(own)
    cap, zeros4, calls = buf[0:REST + 1], buf[REST + 1:REST + 5], buf[REST + 5:REST + 10]
    totals, margin = buf[REST + 10:REST + 15], buf[REST + 15:REST + 20]
    h2, won = buf[REST + 20:REST + 24], buf[REST + 24:REST + 28]
    cp, rm, tt, sc = (buf[REST + 28:REST + 30], buf[REST + 30:REST + 32],
                      buf[REST + 32:REST + 34], buf[REST + 34:REST + 36])
    tc = buf[REST + 36:REST + 40]
    for q in range(4):
        if q != me:
            cap[q] = 8
    for k in range(5):
        calls[k] = -1
    ncalls = 4 if forced else me
    kept_own = np.empty((w_call, 4), dtype=np.int64)
    kept = borrow_nb(kept_own)
    kept_worlds_nb(base, me, hand, FULL32 & ~hand, cap, zeros4, zeros4, calls, ncalls, tau,
                   w_call, kept)
    n_opt = 4 if forced else 5          # option k: suit k − (n_opt − 4); pass is option 0
    first = 0 if forced else 1
    mine = me & 1
    for j in range(w_call):
        same = j > 0
        if same:
            for q in range(4):
                if kept[j, q] != kept[j - 1, q]:
                    same = False
        if not same:
            for k in range(n_opt):
                if k < first:           # pass: the later players call as the heuristic
                    trump = -1
                    cpos = 0
                    for p in range(me + 1, 4):
                        s = heuristic_call_nb(kept[j, p], p, False)
                        if s >= 0:
                            trump = s
                            cpos = p
                            break
                    if trump < 0:
                        trump = heuristic_call_nb(kept[j, 0], 0, True)
                        cpos = 0
                else:
                    trump = k - first
                    cpos = me
                for q in range(4):
                    h2[q] = kept[j, q]
                    won[q] = 0
                cp[0] = 0
                cp[1] = 0
                rm[0] = 0
                rm[1] = 0
                playing = cpos & 1
                rollout_nb(h2, trump, TEAM4, playing, 0, 0, tc, 0, np.int64(0), rv, won, cp, rm)
                final_scores_nb(won, cp, rm, TEAM4, playing, tt, sc)
                margin[k] = sc[mine] - sc[1 - mine]
        for k in range(n_opt):
            totals[k] += margin[k]
    k = best_index_nb(totals, n_opt)
    keep_nb(own)
    keep_nb(kept_own)
    return -1 if k < first else k - first


@njit(cache=True)
def strong_card_nb(dkey, me, hand, legal, trump, team_of_pos, playing, t, leader, tc, tn,
                   played, won, team_cp, team_rm, voids, played_by, calls, ncalls, rv, worlds,
                   tau):
    """The strong card: pimc's search (every legal card, each world finished by the
    heuristic, best mean team margin) over ``PLAY_FACTOR * worlds`` worlds resampled to fit
    the calling round. ``played_by[q]``: the cards position q has played this deal."""
    # the arguments, one allocation of scratch and the worlds, borrowed (fastsim.refs_nb)
    team_of_pos, tc, won = borrow_nb(team_of_pos), borrow_nb(tc), borrow_nb(won)
    team_cp, team_rm, voids = borrow_nb(team_cp), borrow_nb(team_rm), borrow_nb(voids)
    played_by, calls = borrow_nb(played_by), borrow_nb(calls)
    own = np.zeros(REST + 1 + 3 * 8 + 2 * 4 + 4 * 2 + 4, dtype=np.int64)
    buf = borrow_nb(own)
    cap, cards = buf[0:REST + 1], buf[REST + 1:REST + 9]
    totals, margin = buf[REST + 9:REST + 17], buf[REST + 17:REST + 25]
    h2, w2 = buf[REST + 25:REST + 29], buf[REST + 29:REST + 33]
    cp, rm, tt, sc = (buf[REST + 33:REST + 35], buf[REST + 35:REST + 37],
                      buf[REST + 37:REST + 39], buf[REST + 39:REST + 41])
    tc2 = buf[REST + 41:REST + 45]
    unseen = FULL32 & ~(hand | played)
    for q in range(4):
        if q != me:
            cap[q] = 8 - t - (1 if ((q - leader) & 3) < tn else 0)
    n = PLAY_FACTOR * worlds
    kept_own = np.empty((n, 4), dtype=np.int64)
    kept = borrow_nb(kept_own)
    kept_worlds_nb(deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + me), me, hand, unseen, cap,
                   voids, played_by, calls, ncalls, tau, n, kept)
    n_legal = list_cards_nb(legal, cards)
    for w in range(n):
        same = w > 0
        if same:
            for q in range(4):
                if kept[w, q] != kept[w - 1, q]:
                    same = False
        if not same:
            card_margins_nb(kept[w], me, hand, cards, n_legal, trump, team_of_pos, playing, t,
                            leader, tc, tn, played, won, team_cp, team_rm, rv, h2, w2, cp, rm, tt,
                            sc, tc2, margin)
        for k in range(n_legal):
            totals[k] += margin[k]
    c = cards[best_index_nb(totals, n_legal)]
    keep_nb(own)
    keep_nb(kept_own)
    return c


# ----------------------------------------------------------------------------- for Python

@njit(cache=True)
def decide_call_nb(seed, deal, me, hand, forced, rv, worlds):
    """The strong call exactly as the simulator's deal ``deal`` of run ``seed`` makes it."""
    return strong_call_nb(deal_key_nb(run_key_nb(seed), deal), me, hand, forced, rv, worlds,
                          STRONG_TAU)


@njit(cache=True)
def call_worlds_nb(seed, deal, me, hand, forced, tau, worlds, out):
    """The worlds (``out[:worlds]``) a strong call of ``me`` would search, with the pass
    model ``tau``; returns the effective sample size (for tests and tools). ``worlds``:
    the number kept (the engine's call keeps ``CALL_FACTOR`` × its ``worlds``)."""
    base = deal_key_nb(deal_key_nb(run_key_nb(seed), deal),
                       KEY_STRONG_BID + (FORCED_OFFSET if forced else me))
    cap = np.zeros(REST + 1, dtype=np.int64)
    for q in range(4):
        if q != me:
            cap[q] = 8
    zeros4 = np.zeros(4, dtype=np.int64)
    calls = np.full(5, -1, dtype=np.int64)
    return kept_worlds_nb(base, me, hand, FULL32 & ~hand, cap, zeros4, zeros4, calls,
                          4 if forced else me, tau, worlds, out)


@njit(cache=True)
def card_worlds_nb(seed, deal, me, hand, played, t, leader, tn, voids, played_by, calls,
                   ncalls, tau, worlds, out):
    """The worlds (``out[:worlds]``) a strong card decision of ``me`` would search, with
    the pass model ``tau``; returns the effective sample size (for tests and tools).
    ``worlds``: the number kept (the engine's card keeps ``PLAY_FACTOR`` × its ``worlds``)."""
    cap = np.zeros(REST + 1, dtype=np.int64)
    for q in range(4):
        if q != me:
            cap[q] = 8 - t - (1 if ((q - leader) & 3) < tn else 0)
    base = deal_key_nb(deal_key_nb(run_key_nb(seed), deal), KEY_STRONG_PLAY + t * 8 + me)
    return kept_worlds_nb(base, me, hand, FULL32 & ~(hand | played), cap, voids, played_by,
                          calls, ncalls, tau, worlds, out)

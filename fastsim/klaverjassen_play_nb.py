"""Klaverjassen play-query kernels: "which card should I play now?".

Hidden cards are sampled by :func:`fastsim.sample_nb.hidden_deal_forbid_nb` with
card-level constraints (shown voids, and what the Rotterdam trumping duties reveal: a
player who did not overtrump holds no higher trump, one who undertrumped holds nothing
else, …), importance-weighted so worlds are uniform over the consistent deals. Every world
is finished once per candidate card with one policy for everyone through the engine's own
functions (:mod:`fastsim.klaverjassen_nb`). Teams are per position (``team_of_pos``).
"""
import numpy as np
from ._jit import njit, prange

from .bits import popcount_nb
from .klaverjassen_nb import (FULL32, bank_trick_nb, follow_nb, heuristic_play_nb, legal_nb,
                              my_card_nb, nat_defence_nb, pimc_card_nb, points_nb, roem_nb,
                              rollout_nb, final_scores_nb)
from .klaverjassen_schema import (CTR_PLAY, POLICY_HEURISTIC, POLICY_PIMC,
                                  POLICY_RANDOM, POLICY_STRONG)
from .klaverjassen_strong_nb import STRONG_TAU, round_loglik_nb, strong_card_nb
from .pimc_nb import REST
from .play_nb import random_card_nb
from .rng import deal_key_nb, run_key_nb
from .sample_nb import hidden_deal_forbid_nb

WORLD_SALT = 7_000_000


@njit(cache=True, inline="always")
def trick_state_nb(tc, tn, leader, trump):
    """(led, winner card, winner position, highest trump, trick mask, trick points) of
    ``tc[:tn]`` exactly as the engine's play loop tracks them (-1s when empty)."""
    led = -1
    winner = -1
    win_pos = -1
    hi = -1
    trick = np.int64(0)
    tp = 0
    for j in range(tn):
        c = tc[j]
        p = (leader + j) & 3
        trick |= np.int64(1) << c
        tp += points_nb(c, trump)
        led, winner, win_pos, hi = follow_nb(c, j, p, led, winner, win_pos, hi, trump)
    return led, winner, win_pos, hi, trick, tp


@njit(cache=True, inline="always")
def policy_card_nb(pol, dkey, p, hand, legal, j, led, winner, win_pos, trick, tp, trump,
                   team_of_pos, playing, t, leader, tc, played, won, team_cp, team_rm, voids,
                   played_by, calls, ncalls, rv, worlds):
    """The engine's policy branch of :func:`fastsim.klaverjassen_nb.play_out_nb`
    (``played_by``, ``calls[:ncalls]``: for strong, as the engine keeps them)."""
    pw = win_pos >= 0 and team_of_pos[win_pos] == team_of_pos[p]
    if pol == POLICY_RANDOM:
        return random_card_nb(dkey, CTR_PLAY + 8 * t + p, legal)
    if pol == POLICY_PIMC and popcount_nb(legal) > 1:
        return pimc_card_nb(dkey, p, hand, legal, trump, team_of_pos, playing, t, leader, tc, j,
                            played, won, team_cp, team_rm, voids, rv, worlds)
    if pol == POLICY_STRONG and popcount_nb(legal) > 1:
        return strong_card_nb(dkey, p, hand, legal, trump, team_of_pos, playing, t, leader, tc,
                              j, played, won, team_cp, team_rm, voids, played_by, calls,
                              ncalls, rv, worlds, STRONG_TAU)
    return heuristic_play_nb(hand, legal, j, led, trump, winner, pw, pw and win_pos != p, trick,
                             tp, team_of_pos[p] == playing, FULL32 & ~(hand | played), rv,
                             nat_defence_nb(team_cp, team_rm, playing, team_of_pos[p]))


@njit(cache=True)
def legal_here_nb(hand, tc, tn, leader, trump, team_of_pos, p, rv):
    """Legal cards of position ``p`` holding ``hand`` with ``tc[:tn]`` on the table."""
    led, winner, win_pos, hi, trick, tp = trick_state_nb(tc, tn, leader, trump)
    pw = win_pos >= 0 and team_of_pos[win_pos] == team_of_pos[p]
    return legal_nb(hand, led, trump, hi, pw, rv)


@njit(cache=True)
def revealed_nb(card, led, trump, hi, partner_winning, rv):
    """Cards a player cannot hold once it legally played ``card`` to a trick led in ``led``
    (-1: it led) whose highest trump so far is ``hi`` (-1: none) with its partner winning
    or not: every card ``x`` of the deck with which ``card`` would have been illegal in the
    hand {card, x}. This is :func:`legal_nb` inverted, so a variant that changes the legal
    cards changes what a play reveals with it (legality here only ever narrows the choice to
    a class of cards the hand holds, so one such card makes ``card`` illegal in every hand)."""
    out = np.int64(0)
    if led < 0:
        return out
    c = np.int64(1) << card
    for x in range(64):
        b = np.int64(1) << x
        if FULL32 & b and b != c and not legal_nb(c | b, led, trump, hi, partner_winning, rv) & c:
            out |= b
    return out


@njit(cache=True)
def decide_card_nb(pol, seed, deal, p, hand, trump, team_of_pos, playing, t, leader, tc, tn,
                   played, won, team_cp, team_rm, voids, rv, worlds):
    """The card policy ``pol`` (not strong: :func:`decide_strong_card_nb`) plays for
    position ``p`` (keyed like the simulator's deal ``deal`` of run ``seed``)."""
    none = np.zeros(4, dtype=np.int64)
    return decide_strong_card_nb(pol, seed, deal, p, hand, trump, team_of_pos, playing, t,
                                 leader, tc, tn, played, won, team_cp, team_rm, voids, none,
                                 none, 0, rv, worlds)


@njit(cache=True)
def decide_strong_card_nb(pol, seed, deal, p, hand, trump, team_of_pos, playing, t, leader,
                          tc, tn, played, won, team_cp, team_rm, voids, played_by, calls,
                          ncalls, rv, worlds):
    """:func:`decide_card_nb` for any policy: ``played_by`` (cards each position played
    this deal) and the calling round ``calls[:ncalls]`` as the engine keeps them."""
    dkey = deal_key_nb(run_key_nb(seed), deal)
    led, winner, win_pos, hi, trick, tp = trick_state_nb(tc, tn, leader, trump)
    pw = win_pos >= 0 and team_of_pos[win_pos] == team_of_pos[p]
    legal = legal_nb(hand, led, trump, hi, pw, rv)
    return policy_card_nb(pol, dkey, p, hand, legal, tn, led, winner, win_pos, trick, tp, trump,
                          team_of_pos, playing, t, leader, tc, played, won, team_cp, team_rm,
                          voids, played_by, calls, ncalls, rv, worlds)


@njit(cache=True)
def rollout_policy_nb(dkey, pol, hands, trump, team_of_pos, playing, t0, leader, tc, tn,
                      played, rv, worlds, voids, played_by, calls, ncalls, won, team_cp,
                      team_rm):
    """Finish the deal from trick ``t0`` (``tc[:tn]`` on the table) exactly as the engine's
    play loop does, everyone playing ``pol``; adds to ``won``, ``team_cp``, ``team_rm``
    (``voids`` and ``played_by`` are kept up to date)."""
    for t in range(t0, 8):
        start = tn if t == t0 else 0
        led, winner, win_pos, hi, trick, tp = trick_state_nb(tc, start, leader, trump)
        for j in range(start, 4):
            p = (leader + j) & 3
            hand = hands[p]
            pw = win_pos >= 0 and team_of_pos[win_pos] == team_of_pos[p]
            legal = legal_nb(hand, led, trump, hi, pw, rv)
            c = policy_card_nb(pol, dkey, p, hand, legal, j, led, winner, win_pos, trick, tp,
                               trump, team_of_pos, playing, t, leader, tc, played, won,
                               team_cp, team_rm, voids, played_by, calls, ncalls, rv, worlds)
            if j > 0 and (c >> 4) != led:
                voids[p] |= 1 << led
            tc[j] = c
            bit = np.int64(1) << c
            hands[p] = hand & ~bit
            played_by[p] |= bit
            played |= bit
            trick |= bit
            tp += points_nb(c, trump)
            led, winner, win_pos, hi = follow_nb(c, j, p, led, winner, win_pos, hi, trump)
        bank_trick_nb(t, tp, trick, win_pos, trump, rv, team_of_pos, won, team_cp, team_rm)
        leader = win_pos


@njit(cache=True)
def _world_nb(wkey, me, hand, unseen, t, leader, tn, forbid, played_by, calls, ncalls, tau,
              world):
    """One world of the play query and its log weight: the sampler's, plus the log
    likelihood of the calling round ``calls[:ncalls]`` (the others' passes and call) under
    the soft heuristic caller of scale ``tau`` on the hands as dealt (held + played);
    ``ncalls = 0``: not weighed by the calls."""
    cap = np.zeros(REST + 1, dtype=np.int64)
    for q in range(4):
        if q != me:
            cap[q] = 8 - t - (1 if ((q - leader) & 3) < tn else 0)
    lw = hidden_deal_forbid_nb(wkey, 4, me, hand, unseen, cap, forbid, world)
    if ncalls > 0 and lw != -np.inf:
        orig = np.empty(4, dtype=np.int64)
        for q in range(4):
            orig[q] = world[q] | played_by[q]
        lw += round_loglik_nb(orig, me, calls, ncalls, tau, True)
    return lw


@njit(cache=True, parallel=True)
def sample_worlds_nb(seed, me, hand, played, t, leader, tn, forbid, played_by, calls, ncalls,
                     tau, start, count, out_world, out_logw):
    """Worlds ``start .. start+count`` exactly as :func:`play_query_nb` draws them."""
    rkey = run_key_nb(seed)
    unseen = FULL32 & ~(hand | played)
    for i in prange(count):
        world = np.empty(4, dtype=np.int64)
        out_logw[i] = _world_nb(deal_key_nb(rkey, start + i), me, hand, unseen, t, leader, tn,
                                forbid, played_by, calls, ncalls, tau, world)
        for q in range(4):
            out_world[i, q] = world[q]


@njit(cache=True, parallel=True)
def play_query_nb(seed, me, hand, cards, trump, team_of_pos, playing, t, leader, tc, tn, played,
                  won, team_cp, team_rm, voids, forbid, pol, rv, worlds, start, count, chunk,
                  out_logw, out_mine, out_theirs, out_made, played_by, calls, ncalls, tau):
    """(Heuristic only: ``pol`` and ``worlds`` are ignored, so that this kernel stays small and
    compiles fast; :func:`play_query_policy_nb` takes any policy.) Sample worlds ``start ..
    start+count`` for position ``me`` (to move) and finish each once per candidate card
    ``cards[k]`` with policy ``pol`` for everyone. Per world and card: my team's and the
    other team's banked score (nat and pit included) and whether the playing team made it
    (no nat). ``voids``: the engine's bookkeeping (for pimc); ``forbid``: every card each
    position is known not to hold (for sampling); ``played_by``, ``calls[:ncalls]``,
    ``tau``: the calling round that weighs each world (:func:`_world_nb`)."""
    rkey = run_key_nb(seed)
    unseen = FULL32 & ~(hand | played)
    K = cards.shape[0]
    mine = team_of_pos[me]
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        world = np.empty(4, dtype=np.int64)
        h2 = np.empty(4, dtype=np.int64)
        w2 = np.empty(4, dtype=np.int64)
        v2 = np.empty(4, dtype=np.int64)
        tc2 = np.empty(4, dtype=np.int64)
        cp = np.empty(2, dtype=np.int64)
        rm = np.empty(2, dtype=np.int64)
        tt = np.empty(2, dtype=np.int64)
        sc = np.empty(2, dtype=np.int64)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            wkey = deal_key_nb(rkey, start + i)
            logw = _world_nb(wkey, me, hand, unseen, t, leader, tn, forbid, played_by, calls,
                             ncalls, tau, world)
            out_logw[i] = logw
            if logw == -np.inf:
                continue
            for k in range(K):
                c = cards[k]
                pl = my_card_nb(c, me, hand, world, won, team_cp, team_rm, tc, tn, played, h2,
                                w2, cp, rm, tc2)
                for q in range(4):
                    v2[q] = voids[q]
                if tn > 0 and (c >> 4) != (tc[0] >> 4):
                    v2[me] |= 1 << (tc[0] >> 4)
                rollout_nb(h2, trump, team_of_pos, playing, t, leader, tc2, tn + 1, pl,
                           rv, w2, cp, rm)
                nat, pit = final_scores_nb(w2, cp, rm, team_of_pos, playing, tt, sc)
                out_mine[i, k] = sc[mine]
                out_theirs[i, k] = sc[1 - mine]
                out_made[i, k] = not nat


@njit(cache=True, parallel=True)
def play_query_policy_nb(seed, me, hand, cards, trump, team_of_pos, playing, t, leader, tc, tn,
                         played, won, team_cp, team_rm, voids, forbid, pol, rv, worlds, start,
                         count, chunk, out_logw, out_mine, out_theirs, out_made, played_by,
                         calls, ncalls, tau):
    """(Any policy; :func:`play_query_nb` is the small, fast-compiling heuristic-only twin with the
    same arguments.) Sample worlds ``start .. start+count`` for position ``me`` (to move)
    and finish each once per candidate card ``cards[k]`` with policy ``pol`` for everyone.
    Per world and card: my team's and the other team's banked score (nat and pit included)
    and whether the playing team made it (no nat). ``voids``: the engine's bookkeeping (for
    pimc and strong; ``played_by``, ``calls[:ncalls]``: the engine's, for strong, and the
    calling round that weighs each world with the soft caller of scale ``tau``,
    :func:`_world_nb`); ``forbid``: every card each position is known not to hold (for
    sampling)."""
    rkey = run_key_nb(seed)
    unseen = FULL32 & ~(hand | played)
    K = cards.shape[0]
    mine = team_of_pos[me]
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        world = np.empty(4, dtype=np.int64)
        h2 = np.empty(4, dtype=np.int64)
        w2 = np.empty(4, dtype=np.int64)
        v2 = np.empty(4, dtype=np.int64)
        b2 = np.empty(4, dtype=np.int64)
        tc2 = np.empty(4, dtype=np.int64)
        cp = np.empty(2, dtype=np.int64)
        rm = np.empty(2, dtype=np.int64)
        tt = np.empty(2, dtype=np.int64)
        sc = np.empty(2, dtype=np.int64)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            wkey = deal_key_nb(rkey, start + i)
            logw = _world_nb(wkey, me, hand, unseen, t, leader, tn, forbid, played_by, calls,
                             ncalls, tau, world)
            out_logw[i] = logw
            if logw == -np.inf:
                continue
            pkey = deal_key_nb(wkey, WORLD_SALT)
            for k in range(K):
                c = cards[k]
                pl = my_card_nb(c, me, hand, world, won, team_cp, team_rm, tc, tn, played, h2,
                                w2, cp, rm, tc2)
                for q in range(4):
                    v2[q] = voids[q]
                if tn > 0 and (c >> 4) != (tc[0] >> 4):
                    v2[me] |= 1 << (tc[0] >> 4)
                for q in range(4):
                    b2[q] = played_by[q]
                b2[me] |= np.int64(1) << c
                if pol == POLICY_HEURISTIC:
                    rollout_nb(h2, trump, team_of_pos, playing, t, leader, tc2, tn + 1, pl,
                               rv, w2, cp, rm)
                else:
                    rollout_policy_nb(pkey, pol, h2, trump, team_of_pos, playing, t, leader,
                                      tc2, tn + 1, pl, rv, worlds, v2, b2, calls, ncalls, w2,
                                      cp, rm)
                nat, pit = final_scores_nb(w2, cp, rm, team_of_pos, playing, tt, sc)
                out_mine[i, k] = sc[mine]
                out_theirs[i, k] = sc[1 - mine]
                out_made[i, k] = not nat


@njit(cache=True)
def decide_heuristic_nb(p, hand, trump, team_of_pos, playing, leader, tc, tn, played,
                        team_cp, team_rm, rv):
    """The heuristic's card (the engine's call) in a small kernel that compiles fast
    (``team_cp``/``team_rm``: per team, banked so far; for the defenders' nat rule)."""
    led, winner, win_pos, hi, trick, tp = trick_state_nb(tc, tn, leader, trump)
    pw = win_pos >= 0 and team_of_pos[win_pos] == team_of_pos[p]
    legal = legal_nb(hand, led, trump, hi, pw, rv)
    return heuristic_play_nb(hand, legal, tn, led, trump, winner, pw, pw and win_pos != p, trick,
                             tp, team_of_pos[p] == playing, FULL32 & ~(hand | played), rv,
                             nat_defence_nb(team_cp, team_rm, playing, team_of_pos[p]))

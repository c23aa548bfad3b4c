"""Boonaken play-query kernels: "which card should I play now?".

Hidden cards (the other hands, the stock of the ``seed`` preset, and what lies out of
play unseen: discards, blind and sleeping cards) are sampled by
:func:`fastsim.sample_nb.hidden_deal_forbid_nb` with card-level constraints (shown voids
that no later draw can have undone, table cards only the declarer can hold), importance-
weighted so worlds are uniform over the consistent deals. In the ``seed`` preset players
refill from the stock, so a void shown before a draw may no longer hold: such worlds are
proposed without that constraint and weighted by the number of orders of dealing and
drawing that explain every card the player has held (:func:`pasts_nb`; zero: rejected),
which keeps the weighted worlds uniform over whole deals. With an auction given (``nauc`` > 0)
every world is also weighted by the auction's likelihood under the strong policy's soft
heuristic bidder (:func:`auction_world_nb`). Every world is finished once per candidate
card with one policy for everyone through the engine's own functions
(:mod:`fastsim.boonaken_nb`).
"""
import numpy as np
from ._jit import njit, prange

from .bits import lowest_nb, popcount_nb
from .boonaken_nb import (FULL32, best_meld_nb, end_trick_nb, heuristic_card_nb, lay_card_nb,
                          lay_stock_nb, legal_nb, mask_points_nb, plain_card_nb, play_mode_nb,
                          resume_nb, roem_sum_nb, rollout_nb, search_card_nb, searches_nb,
                          trick_begin_nb, trick_state_nb, turn_nb, world_capacity_nb)
from .boonaken_strong_nb import (auction_hands_nb, auction_loglik_nb, candidates_nb,
                                 kept_worlds_nb)
from .boonaken_schema import (CONTRACT_MISERE, CONTRACT_POINTS, MAX_TRICKS, POLICY_HEURISTIC,
                              PRESET_LEIMUIDEN, PRESET_SEED, ROEM_GIVEN, ROEM_MELD,  # noqa: F401
                              ROEM_SUM)
from .rng import KEY_STRONG_PLAY, deal_key_nb, run_key_nb
from .sample_nb import hidden_deal_forbid_nb

WORLD_SALT = 7_000_000
AUCTION_SALT = 7_000_001   # deal_key(world key, this): the random past of a world's auction hands
STOCK_SALT = 5000
FILLER = np.int64(0x001F001F001F001F)     # bits outside the 32-card deck (hand-size fillers)


@njit(cache=True)
def legal_here_nb(hand, tc, tn, trump, preset):
    """Legal cards of a player holding ``hand`` with ``tc[:tn]`` on the table."""
    led, winner, wj, hi, trick = trick_state_nb(tc, tn, trump)
    return legal_nb(hand, led, trump, hi, preset)


@njit(cache=True)
def revealed_nb(card, led, trump, hi, preset):
    """Cards a player cannot hold once it legally played ``card`` to a trick led in ``led``
    (-1: it led) whose strongest trump so far is ``hi`` (-1: none): every card ``x`` of the
    deck with which ``card`` would have been illegal in the hand {card, x} -- :func:`legal_nb`
    inverted (as :func:`fastsim.klaverjassen_play_nb.revealed_nb`)."""
    out = np.int64(0)
    if led < 0:
        return out
    c = np.int64(1) << card
    for x in range(64):
        b = np.int64(1) << x
        if FULL32 & b and b != c and not legal_nb(c | b, led, trump, hi, preset) & c:
            out |= b
    return out


@njit(cache=True)
def trick_result_nb(tc, tn, trump):
    """(winner's index in the trick, card points) of a finished trick."""
    led, winner, wj, hi, trick = trick_state_nb(tc, tn, trump)
    return wj, mask_points_nb(trick, trump)


@njit(cache=True)
def decide_heuristic_nb(n, p, hand, trump, tc, tn, played, contract, in_mis, leader, preset):
    """The heuristic's card (the engine's call) in a small kernel that compiles fast."""
    led, winner, wj, hi, trick = trick_state_nb(tc, tn, trump)
    legal = legal_nb(hand, led, trump, hi, preset)
    mode = play_mode_nb(contract, in_mis, p, tn, n, leader, (leader + wj) % n if wj >= 0 else -1)
    return heuristic_card_nb(hand, legal, tn, n, led, winner, trump, mode,
                             FULL32 & ~(hand | played))


@njit(cache=True)
def sim_hands_nb(n, p, hand, sizes, pinned, decl):
    """The engine's hands as a pimc decision of ``p`` reads them: ``p``'s own, the others'
    only as sizes (filler bits outside the deck), the declarer's with its ``pinned`` cards."""
    hands = np.zeros(5, dtype=np.int64)
    for q in range(n):
        if q == p:
            hands[q] = hand
            continue
        m = pinned if q == decl else np.int64(0)
        x = FILLER
        while popcount_nb(m) < sizes[q]:
            m |= x & -x
            x &= x - 1
        hands[q] = m
    return hands


@njit(cache=True)
def strong_worlds_nb(seed, deal, n, preset, p, hand, sizes, t, played, stock_pos, known, pinned,
                     decl, voids, open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps,
                     m, cand, ahands, logw):
    """The ``m`` first candidate worlds of the strong card decision of ``p`` at trick ``t``
    in deal ``deal`` of run ``seed`` (the arguments of :func:`decide_card_nb`), their
    auction hands and log weights under the bidder model (``tau``, ``eps``): see
    :func:`fastsim.boonaken_strong_nb.candidates_nb` (for tests and tools)."""
    dkey = deal_key_nb(run_key_nb(seed), deal)
    hands = sim_hands_nb(n, p, hand, sizes, pinned, decl)
    unseen = FULL32 & ~(hand | played | known | pinned)
    cap = world_capacity_nb(n, preset, p, hands, stock_pos, pinned, decl, unseen)
    base = deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + p)
    candidates_nb(base, n, preset, p, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                  open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps, m, cand,
                  ahands, logw)


@njit(cache=True)
def strong_kept_nb(seed, deal, n, preset, p, hand, sizes, t, played, stock_pos, known, pinned,
                   decl, voids, open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps,
                   worlds, idx, cand, ahands, logw):
    """The worlds the strong card decision of ``p`` (the arguments of
    :func:`strong_worlds_nb`) keeps under the bidder model ``tau``, ``eps``:
    :func:`fastsim.boonaken_strong_nb.kept_worlds_nb` itself, its kept indices into
    ``idx``, the ``CANDIDATES × worlds`` candidates, auction hands and log weights into
    ``cand``, ``ahands``, ``logw``; returns the Kish effective sample size (0.0: no
    candidate fits). For tests and tools."""
    dkey = deal_key_nb(run_key_nb(seed), deal)
    hands = sim_hands_nb(n, p, hand, sizes, pinned, decl)
    unseen = FULL32 & ~(hand | played | known | pinned)
    cap = world_capacity_nb(n, preset, p, hands, stock_pos, pinned, decl, unseen)
    base = deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + p)
    return kept_worlds_nb(base, n, preset, p, hand, hands, stock_pos, unseen, cap, pinned, decl,
                          voids, open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps,
                          worlds, idx, cand, ahands, logw)


@njit(cache=True)
def decide_card_nb(pol, seed, deal, n, preset, p, hand, sizes, trump, named, t, leader, tc, tn,
                   played, stock_pos, known, pinned, decl, contract, bid, my_roem, in_mis, won,
                   cpts, voids, worlds, open_mask, rest_at, auc, nauc, played_at, played_pos):
    """The card policy ``pol`` plays for position ``p`` exactly as the simulator's deal
    ``deal`` of run ``seed`` would (``sizes``: every hand's size now; ``pinned``: the
    table cards the declarer still holds as the engine's pimc is told them; the last six:
    what strong's auction weighting reads, see
    :func:`fastsim.boonaken_strong_nb.strong_card_nb`; ``nauc = 0``: no auction known)."""
    dkey = deal_key_nb(run_key_nb(seed), deal)
    led, winner, wj, hi, trick = trick_state_nb(tc, tn, trump)
    legal = legal_nb(hand, led, trump, hi, preset)
    if searches_nb(pol, legal, named, t, tn):
        return search_card_nb(pol, dkey, n, preset, p, hand, legal,
                              sim_hands_nb(n, p, hand, sizes, pinned, decl),
                              np.zeros(32, dtype=np.int64), stock_pos, trump, t, leader, tc, tn,
                              played, known, pinned, decl, contract, bid, my_roem, in_mis, won,
                              cpts, voids, worlds, open_mask, rest_at, auc, nauc, played_at,
                              played_pos)
    mode = play_mode_nb(contract, in_mis, p, tn, n, leader, (leader + wj) % n if wj >= 0 else -1)
    return plain_card_nb(pol, dkey, p, hand, legal, tn, n, t, led, winner, trump, mode, played)


# ----------------------------------------------------------------------------- sampling

MAX_TRACKED = 14     # cards followed one by one in the count of pasts (2**14 states)


@njit(cache=True)
def pasts_nb(world, n, me, played_at, played_pos, vq, vt, vf, nv, draws):
    """log of the number of ways the other players' cards can have come to them (6 dealt
    plus one drawn after each of the first ``draws`` tricks; a card drawn after trick k is
    held from trick k + 1 on) with every shown void (``vq[i]`` showed at trick ``vt[i]``
    it held none of ``vf[i]``) true at its time; ``-inf``: none, the world contradicts the
    history. Only players with a void shown before a draw are counted: for the others the
    number is the same in every world. The count weights the world so that worlds are
    uniform over whole deals (deck orders), not just over the hands they leave now.

    Cards without a void constraint are interchangeable (counted, not tracked); the
    others are tracked in a bit mask while the draws are swept from the last to the
    first (``MAX_TRACKED`` of them at most; beyond that the count is replaced by a
    greedy feasibility test)."""
    if draws == 0 or nv == 0:
        return 0.0
    total = 0.0
    lo = np.empty(32, dtype=np.int64)
    hi = np.empty(32, dtype=np.int64)
    for q in range(n):
        if q == me:
            continue
        has = False
        for i in range(nv):
            if vq[i] == q and vt[i] < draws:
                has = True
        if not has:
            continue
        x = world[q]
        for c in range(64):
            if played_pos[c] == q:
                x |= np.int64(1) << c
        m = 0            # tracked (constrained) cards
        free_hi = np.zeros(MAX_TRICKS + 2, dtype=np.int64)   # free cards by last time
        n_free = 0
        while x:
            c = lowest_nb(x)
            x &= x - 1
            a = 0
            b = played_at[c] if played_pos[c] == q else 1000
            for i in range(nv):
                if vq[i] == q and (vf[i] >> c) & 1 and b > vt[i]:
                    a = max(a, vt[i] + 1)
            b = min(b, draws)
            if a > b:
                return -np.inf
            if a == 0:
                free_hi[b] += 1
                n_free += 1
            else:
                lo[m] = a
                hi[m] = b
                m += 1
        if m > MAX_TRACKED:
            if not _greedy_nb(lo, hi, m, free_hi, draws):
                return -np.inf
            continue
        size = 1 << m
        dp = np.zeros(size, dtype=np.float64)
        nxt = np.zeros(size, dtype=np.float64)
        dp[0] = 1.0
        entered = 0
        for k in range(draws, 0, -1):
            entered += free_hi[k]
            for mask in range(size):
                nxt[mask] = 0.0
            for mask in range(size):
                v = dp[mask]
                if v == 0.0:
                    continue
                used = popcount_nb(np.int64(mask))
                avail = entered - ((draws - k) - used)
                if avail > 0:
                    nxt[mask] += v * avail
                for i in range(m):
                    if not (mask >> i) & 1 and lo[i] <= k and k <= hi[i]:
                        nxt[mask | (1 << i)] += v
            for mask in range(size):
                dp[mask] = nxt[mask]
        cnt = dp[size - 1]
        if cnt <= 0.0:
            return -np.inf
        total += np.log(cnt)
    return total


@njit(cache=True)
def _greedy_nb(lo, hi, m, free_hi, draws):
    """Feasibility only (many constrained cards): earliest-deadline-first matching of the
    tracked cards to the draw slots, the free cards filling what is left."""
    used = np.zeros(MAX_TRICKS + 2, dtype=np.bool_)
    done = np.zeros(32, dtype=np.bool_)
    for _ in range(m):
        best = -1
        for i in range(m):
            if not done[i] and (best < 0 or hi[i] < hi[best]):
                best = i
        done[best] = True
        ok = False
        for k in range(lo[best], hi[best] + 1):
            if k >= 1 and not used[k]:
                used[k] = True
                ok = True
                break
        if not ok:
            return False
    # the free cards must fill the remaining draw slots, each slot k by a card held by k
    need = 0
    have = 0
    for k in range(draws, 0, -1):
        have += free_hi[k]
        if not used[k]:
            need += 1
        if need > have:
            return False
    return True


@njit(cache=True)
def _log_choose(a, b):
    if b < 0 or b > a:
        return -np.inf
    v = 0.0
    for i in range(b):
        v += np.log((a - i) / (i + 1.0))
    return v


@njit(cache=True)
def world_nb(wkey, n, me, hand, unseen, cap, forbid, pinned, decl, open_rest, table_k,
             played_at, played_pos, vq, vt, vf, nv, draws, world):
    """One world (``world[q]`` hands, ``world[n]`` the stock) and its log weight
    (``-inf``: rejected). ``open_rest``/``table_k`` >= 0: the pagat/leimuiden view of a
    player who does not know the declarer's discards: the face-up table cards may lie
    among the unseen out-of-play cards only as discards, weight C(|rest| - m, k - m)."""
    logw = hidden_deal_forbid_nb(wkey, n + 1, me, hand, unseen, cap, forbid, world)
    if logw == -np.inf:
        return logw
    world[decl] |= pinned
    if table_k >= 0:
        rest = unseen
        for q in range(n + 1):
            if q != me:
                rest &= ~world[q]
        mm = popcount_nb(rest & open_rest)
        logw += _log_choose(popcount_nb(rest) - mm, table_k - mm)
    return logw + pasts_nb(world, n, me, played_at, played_pos, vq, vt, vf, nv, draws)


@njit(cache=True)
def auction_world_nb(wkey, n, preset, me, world, open_mask, stock_pos, rest_at, played_at,
                     played_by, auc, nauc, tau, eps, ah):
    """log likelihood of the auction ``auc[:nauc]`` in the world ``world`` (keyed
    ``wkey``) under the soft heuristic bidder (``tau``, ``eps``) of
    :func:`fastsim.boonaken_strong_nb.auction_loglik_nb`, on the auction hands of
    :func:`fastsim.boonaken_strong_nb.auction_hands_nb` (into ``ah``; in the seed preset one
    random past of draws per world, keyed ``deal_key(wkey, AUCTION_SALT)``); 0 without an
    auction."""
    if nauc == 0:
        for q in range(5):
            ah[q] = 0
        return 0.0
    auction_hands_nb(deal_key_nb(wkey, AUCTION_SALT), n, preset, me, world, open_mask,
                     stock_pos, rest_at, played_at, played_by, ah)
    return auction_loglik_nb(n, preset, me, ah, open_mask, auc, nauc, tau, eps)


@njit(cache=True, parallel=True)
def sample_worlds_nb(seed, n, me, hand, unseen, cap, forbid, pinned, decl, open_rest, table_k,
                     played_at, played_pos, vq, vt, vf, nv, draws, start, count, out_world,
                     out_logw, preset, open_mask, stock_pos, rest_at, played_by, auc, nauc, tau,
                     eps, out_ahands):
    """Worlds ``start .. start+count`` exactly as the play query draws them, with their
    log weights (the auction's included) and auction hands (``out_ahands``; zeros without
    an auction or for a rejected world)."""
    rkey = run_key_nb(seed)
    for i in prange(count):
        world = np.zeros(n + 1, dtype=np.int64)
        ah = np.zeros(5, dtype=np.int64)
        wkey = deal_key_nb(rkey, start + i)
        out_logw[i] = weighted_world_nb(wkey, n, preset, me, hand, unseen, cap, forbid, pinned,
                                        decl, open_rest, table_k, played_at, played_pos, vq,
                                        vt, vf, nv, draws, world, open_mask, stock_pos,
                                        rest_at, played_by, auc, nauc, tau, eps, ah)
        for q in range(n + 1):
            out_world[i, q] = world[q]
        for q in range(5):
            out_ahands[i, q] = ah[q]


# ----------------------------------------------------------------------------- outcomes

@njit(cache=True)
def deal_roem_nb(mode, given, n, preset, trump, decl, start_hands):
    """The declarer's counted roem of a point contract (``start_hands``: everyone's hand
    at the start of play)."""
    lm = 1 if preset == PRESET_LEIMUIDEN else 0
    if mode == ROEM_GIVEN or trump < 0:
        return given
    if mode == ROEM_SUM:
        return roem_sum_nb(start_hands[decl], trump, lm)
    mine = best_meld_nb(start_hands[decl], trump, lm)
    for q in range(n):
        if q != decl and best_meld_nb(start_hands[q], trump, lm) > mine:
            return 0
    return mine


@njit(cache=True, inline="always")
def outcome_nb(n, me, decl, contract, bid, roem, in_mis, won, cpts):
    """(declarer made it, declarer's points, my mark: +1/-1 per contract on my side / the
    others' side)."""
    total = 0
    for q in range(n):
        total += won[q]
    pts = cpts[decl] + (roem if contract == CONTRACT_POINTS else 0)
    if contract == CONTRACT_POINTS:
        made = pts >= bid
    elif contract == CONTRACT_MISERE:
        made = won[decl] == 0
    else:
        made = won[decl] == total
    val = 0
    if contract == CONTRACT_MISERE:
        if in_mis[me]:
            val = 1 if won[me] == 0 else -1
        else:
            for q in range(n):
                if in_mis[q]:
                    val += -1 if won[q] == 0 else 1
    elif me == decl:
        val = 1 if made else -1
    else:
        val = -1 if made else 1
    return made, pts, val


@njit(cache=True)
def rollout_policy_nb(pkey, pol, n, preset, hands, deck, stock_pos, trump, named, t0, leader,
                      tc, tn, played, known_pub, decl_known, pinned, decl, contract, bid,
                      decl_roem, in_mis, won, cpts, voids, worlds):
    """Finish the deal exactly as the engine's play loop does, everyone playing ``pol``
    (with drawing in the seed preset); returns the final trump. Strong players here know
    no auction (the query gives none): their worlds are not weighted."""
    no_auc = np.zeros((1, 2), dtype=np.int64)
    no_at = np.full(64, -1, dtype=np.int64)
    t = t0
    while hands[leader] != 0 or (t == t0 and tn > 0):
        start, led, winner, wpos, hi, trick = trick_begin_nb(tc, tn, t, t0, leader, n, trump)
        for j in range(start, n):
            p, h, legal = turn_nb(hands, leader, j, n, led, trump, hi, preset)
            if searches_nb(pol, legal, named, t, j):
                known = known_pub | (decl_known if p == decl else np.int64(0))
                c = search_card_nb(pol, pkey, n, preset, p, h, legal, hands, deck, stock_pos,
                                   trump, t, leader, tc, j, played, known, pinned & ~played,
                                   decl, contract, bid, decl_roem, in_mis, won, cpts, voids,
                                   worlds, np.int64(0), 0, no_auc, 0, no_at, no_at)
            else:
                c = plain_card_nb(pol, pkey, p, h, legal, j, n, t, led, winner, trump,
                                  play_mode_nb(contract, in_mis, p, j, n, leader, wpos), played)
            tc[j] = c
            trump, played, led, winner, wpos, hi, trick, hands[p], voids[p] = lay_card_nb(
                c, j, t, named, trump, led, winner, wpos, p, hi, trick, h, voids[p], played)
        stock_pos, leader = end_trick_nb(n, preset, hands, deck, stock_pos, leader, wpos, trick,
                                         trump, won, cpts)
        t += 1
        if t >= MAX_TRICKS:
            break
    return trump


@njit(cache=True, inline="always")
def _setup_world_nb(wkey, n, me, hand, c, world, played_by, tc, tn, won, cpts, voids, h2, w2,
                    p2, v2, tc2, deck2, stock_pos, starts):
    resume_nb(n, me, hand, c, world, tc, tn, won, cpts, h2, w2, p2, tc2)
    for q in range(n):
        v2[q] = voids[q]
        starts[q] = world[q] | played_by[q]
    if tn > 0 and (c >> 4) != (tc[0] >> 4):
        v2[me] |= 1 << (tc[0] >> 4)
    lay_stock_nb(wkey, STOCK_SALT, world[n], deck2, stock_pos)


@njit(cache=True, inline="always")
def _query_buffers_nb(n):
    """A chunk's scratch of the play query: (world, h2, w2, p2, v2, starts, tc2, deck2, ah)."""
    return (np.zeros(n + 1, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.zeros(5, dtype=np.int64), np.zeros(32, dtype=np.int64),
            np.zeros(5, dtype=np.int64))


@njit(cache=True, inline="always")
def weighted_world_nb(wkey, n, preset, me, hand, unseen, cap, forbid, pinned, decl, open_rest,
                      table_k, played_at, played_pos, vq, vt, vf, nv, draws, world, open_mask,
                      stock_pos, rest_at, played_by, auc, nauc, tau, eps, ah):
    """World ``wkey`` (:func:`world_nb`, into ``world``) and its log weight, the auction's
    included (:func:`auction_world_nb`, auction hands into ``ah``; ``-inf``: rejected)."""
    logw = world_nb(wkey, n, me, hand, unseen, cap, forbid, pinned, decl, open_rest, table_k,
                    played_at, played_pos, vq, vt, vf, nv, draws, world)
    if logw != -np.inf and nauc > 0:
        logw += auction_world_nb(wkey, n, preset, me, world, open_mask, stock_pos, rest_at,
                                 played_at, played_by, auc, nauc, tau, eps, ah)
    return logw


@njit(cache=True, inline="always")
def _score_nb(i, k, roem_mode, roem_given, n, preset, me, tr, decl, starts, contract, bid,
              in_mis, w2, p2, out_made, out_pts, out_val):
    """Row ``i``, card ``k`` of the play query's outputs from a finished rollout."""
    roem = deal_roem_nb(roem_mode, roem_given, n, preset, tr, decl, starts) \
        if contract == CONTRACT_POINTS else 0
    made, pts, val = outcome_nb(n, me, decl, contract, bid, roem, in_mis, w2, p2)
    out_made[i, k] = made
    out_pts[i, k] = pts
    out_val[i, k] = val


@njit(cache=True, parallel=True)
def play_query_nb(seed, n, preset, me, hand, cards, trump, named, t, leader, tc, tn, played,
                  played_by, stock_pos, unseen, cap, forbid, pinned, decl, open_rest, table_k,
                  played_at, played_pos, vq, vt, vf, nv, draws, contract, bid, roem_mode,
                  roem_given, in_mis, won, cpts, voids, known_pub, decl_known, pol, worlds,
                  start, count, chunk, out_logw, out_made, out_pts, out_val, open_mask, rest_at,
                  auc, nauc, tau, eps):
    """(Heuristic only: ``pol`` and the pimc arguments are ignored, so that this kernel
    stays small; :func:`play_query_policy_nb` takes any policy with the same arguments.)
    Sample worlds ``start .. start+count`` for position ``me`` (to move) and finish each
    once per candidate card ``cards[k]``. Per world and card: did the declarer make it, the
    declarer's points (card points, + counted roem in a point contract) and my mark. The
    last six: the auction weighting (:func:`auction_world_nb`; ``nauc = 0``: none)."""
    rkey = run_key_nb(seed)
    K = cards.shape[0]
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        world, h2, w2, p2, v2, starts, tc2, deck2, ah = _query_buffers_nb(n)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            wkey = deal_key_nb(rkey, start + i)
            logw = weighted_world_nb(wkey, n, preset, me, hand, unseen, cap, forbid, pinned,
                                     decl, open_rest, table_k, played_at, played_pos, vq, vt,
                                     vf, nv, draws, world, open_mask, stock_pos, rest_at,
                                     played_by, auc, nauc, tau, eps, ah)
            out_logw[i] = logw
            if logw == -np.inf:
                continue
            for k in range(K):
                c = cards[k]
                _setup_world_nb(wkey, n, me, hand, c, world, played_by, tc, tn, won, cpts,
                                voids, h2, w2, p2, v2, tc2, deck2, stock_pos, starts)
                tr = trump if named or t > 0 or tn > 0 else c >> 4
                rollout_nb(n, preset, h2, deck2, stock_pos, tr, t, leader, tc2, tn + 1,
                           played | (np.int64(1) << c), contract, in_mis, w2, p2)
                _score_nb(i, k, roem_mode, roem_given, n, preset, me, tr, decl, starts, contract,
                          bid, in_mis, w2, p2, out_made, out_pts, out_val)


@njit(cache=True, parallel=True)
def play_query_policy_nb(seed, n, preset, me, hand, cards, trump, named, t, leader, tc, tn,
                         played, played_by, stock_pos, unseen, cap, forbid, pinned, decl,
                         open_rest, table_k, played_at, played_pos, vq, vt, vf, nv, draws,
                         contract, bid, roem_mode, roem_given, in_mis, won, cpts, voids,
                         known_pub, decl_known, pol, worlds, start, count, chunk, out_logw,
                         out_made, out_pts, out_val, open_mask, rest_at, auc, nauc, tau, eps):
    """:func:`play_query_nb` for any policy (``pol``: random, heuristic or pimc for
    everyone; pimc with ``worlds`` deals per decision, told what the simulator tells it:
    ``known_pub`` out of play for all, ``decl_known`` for the declarer, the declarer's
    roem from the world's hand)."""
    rkey = run_key_nb(seed)
    K = cards.shape[0]
    lm = 1 if preset == PRESET_LEIMUIDEN else 0
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        world, h2, w2, p2, v2, starts, tc2, deck2, ah = _query_buffers_nb(n)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            wkey = deal_key_nb(rkey, start + i)
            logw = weighted_world_nb(wkey, n, preset, me, hand, unseen, cap, forbid, pinned,
                                     decl, open_rest, table_k, played_at, played_pos, vq, vt,
                                     vf, nv, draws, world, open_mask, stock_pos, rest_at,
                                     played_by, auc, nauc, tau, eps, ah)
            out_logw[i] = logw
            if logw == -np.inf:
                continue
            pkey = deal_key_nb(wkey, WORLD_SALT)
            dk = decl_known
            if me != decl:      # the declarer knows what it put away: the world's rest
                rest = unseen
                for q in range(n + 1):
                    if q != me:
                        rest &= ~world[q]
                dk = rest
            for k in range(K):
                c = cards[k]
                _setup_world_nb(wkey, n, me, hand, c, world, played_by, tc, tn, won, cpts,
                                voids, h2, w2, p2, v2, tc2, deck2, stock_pos, starts)
                tr = trump if named or t > 0 or tn > 0 else c >> 4
                pl = played | (np.int64(1) << c)
                if pol == POLICY_HEURISTIC:
                    rollout_nb(n, preset, h2, deck2, stock_pos, tr, t, leader, tc2, tn + 1, pl,
                               contract, in_mis, w2, p2)
                else:
                    dr = 0
                    if contract == CONTRACT_POINTS and tr >= 0:
                        dr = best_meld_nb(starts[decl], tr, lm) if preset == PRESET_SEED \
                            else roem_sum_nb(starts[decl], tr, lm)
                    # the engine's pimc is told the table cards the declarer kept
                    pin = pinned | (starts[decl] & open_rest)
                    rollout_policy_nb(pkey, pol, n, preset, h2, deck2, stock_pos, tr,
                                      named or t > 0 or tn > 0, t, leader, tc2, tn + 1, pl,
                                      known_pub, dk, pin, decl, contract, bid, dr, in_mis, w2,
                                      p2, v2, worlds)
                _score_nb(i, k, roem_mode, roem_given, n, preset, me, tr, decl, starts, contract,
                          bid, in_mis, w2, p2, out_made, out_pts, out_val)

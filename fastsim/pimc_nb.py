"""Shared pieces of the pimc (perfect-information Monte Carlo) policies of every game.

A pimc player samples *worlds*: deals of the cards it cannot see that agree with what it has
seen — its own hand, the cards played, the table cards, and the suits other players showed
themselves void in — then scores each legal move by finishing every world with the
heuristic policy and plays the best average. The worlds are drawn from counter-based keys
of (deal, decision, world), so results are reproducible for any thread count.
"""
import numpy as np
from ._jit import njit

from .bits import lowest_nb
from .refs_nb import borrow_nb, keep_nb
from .rng import KEY_PIMC_PLAY, below_nb, deal_key_nb, rand_nb, shuffle_nb

CTR_RESAMPLE = 9_000_002   # counter of the resampling offset (no engine decision uses it)

from .common import REST  # noqa: E402,F401  (the "nobody's / not dealt" bucket)


@njit(cache=True, inline="always")
def decision_key_nb(dkey, t, me):
    """The key of the worlds of ``me``'s pimc decision at trick ``t`` of a deal."""
    return deal_key_nb(dkey, KEY_PIMC_PLAY + t * 8 + me)


@njit(cache=True)
def deal_hidden_nb(wkey, n, me, my_hand, unseen, cap, voids, out):
    """Deal the ``unseen`` cards: position q (q != me) receives ``cap[q]`` of them, the
    rest (``cap[REST]``) goes nowhere; nobody gets a suit of ``voids[q]`` (bit per suit).
    Cards are taken in random order, the most constrained suits first, and each goes to an
    eligible holder with probability proportional to its free room. ``out[me]`` = my hand.
    Returns False when stuck (the caller retries with another key). Its scratch is one
    allocation, used through borrowed views (fastsim.refs_nb)."""
    own = np.empty(64 + cap.shape[0] + 4, dtype=np.int64)
    buf = borrow_nb(own)
    cap = borrow_nb(cap)
    voids = borrow_nb(voids)
    out = borrow_nb(out)
    cards = buf[:64]
    room = buf[64:64 + cap.shape[0]]
    for q in range(cap.shape[0]):
        room[q] = cap[q]
    m = list_cards_nb(unseen, cards)
    shuffle_nb(wkey, 0, cards, 0, m - 1, m)
    nvoid = buf[64 + cap.shape[0]:]
    for s in range(4):
        nvoid[s] = 0
    for q in range(n):
        if q != me:
            for s in range(4):
                nvoid[s] += (voids[q] >> s) & 1
    k = 0
    for v in range(n, -1, -1):
        for i in range(k, m):
            if nvoid[cards[i] >> 4] == v:
                c = cards[k]
                cards[k] = cards[i]
                cards[i] = c
                k += 1
    for q in range(n):
        out[q] = 0
    out[me] = my_hand
    for i in range(m):
        c = cards[i]
        s = c >> 4
        weight = room[REST]
        for q in range(n):
            if q != me and room[q] > 0 and not (voids[q] >> s) & 1:
                weight += room[q]
        if weight == 0:
            keep_nb(own)
            return False
        r = below_nb(wkey, 64 + i, weight)
        if r < room[REST]:
            room[REST] -= 1
            continue
        r -= room[REST]
        for q in range(n):
            if q != me and room[q] > 0 and not (voids[q] >> s) & 1:
                if r < room[q]:
                    out[q] |= np.int64(1) << c
                    room[q] -= 1
                    break
                r -= room[q]
    keep_nb(own)
    return True


@njit(cache=True)
def draw_world_nb(wkey, n, me, my_hand, unseen, cap, voids, out):
    """One pimc world: up to 8 tries of :func:`deal_hidden_nb` with keys derived from
    ``wkey``; if every try gets stuck, a world that ignores the voids."""
    for attempt in range(8):
        if deal_hidden_nb(deal_key_nb(wkey, attempt), n, me, my_hand, unseen, cap, voids, out):
            return
    deal_hidden_nb(wkey, n, me, my_hand, unseen, cap, np.zeros(REST, dtype=np.int64), out)


@njit(cache=True, inline="always")
def list_cards_nb(mask, out):
    """The cards of ``mask`` into ``out`` in increasing code; returns how many."""
    k = 0
    while mask:
        out[k] = lowest_nb(mask)
        mask &= mask - 1
        k += 1
    return k


@njit(cache=True)
def distinct_cards_nb(legal, unseen, out):
    """The cards of ``legal`` into ``out`` in increasing code, less those equivalent to a
    lower one: a card whose next lower legal card of the same suit has no ``unseen`` card
    between them (every card between is played or in the same hand) wins and loses exactly
    the same tricks in every continuation, so only the lowest of such a run is kept. Natural
    rank order within a suit (codes suit·16 + rank). Returns how many."""
    k = 0
    prev = -1
    while legal:
        c = lowest_nb(legal)
        legal &= legal - 1
        if prev >= 0 and (prev >> 4) == (c >> 4):
            between = ((np.int64(1) << c) - 1) & ~((np.int64(1) << (prev + 1)) - 1)
            if (between & unseen) == 0:
                prev = c
                continue
        out[k] = c
        k += 1
        prev = c
    return k


@njit(cache=True, inline="always")
def best_index_nb(totals, n):
    """Index of the largest of ``totals[:n]`` (ties: the first)."""
    best = 0
    for k in range(1, n):
        if totals[k] > totals[best]:
            best = k
    return best


@njit(cache=True)
def resample_nb(key, logw, m, k, out):
    """Systematic resampling: ``k`` indices into ``logw[:m]`` (log weights), each drawn with
    probability proportional to ``exp(logw)``, into ``out[:k]`` in increasing order (one
    uniform offset from ``key``). Returns the Kish effective sample size of the weights;
    when every weight is zero (all ``-inf``) the indices are ``0..k-1`` spread evenly over
    the candidates and the result is 0.0."""
    top = -np.inf
    for i in range(m):
        if logw[i] > top:
            top = logw[i]
    if top == -np.inf:
        for j in range(k):
            out[j] = (j * m) // k
        return 0.0
    total = 0.0
    sq = 0.0
    for i in range(m):
        w = np.exp(logw[i] - top)
        total += w
        sq += w * w
    u = ((rand_nb(key, CTR_RESAMPLE) >> np.uint64(11)) + 0.5) / 9007199254740992.0
    step = total / k
    target = u * step
    acc = 0.0
    i = 0
    for j in range(k):
        while i < m - 1 and acc + np.exp(logw[i] - top) <= target:
            acc += np.exp(logw[i] - top)
            i += 1
        out[j] = i
        target += step
    return total * total / sq

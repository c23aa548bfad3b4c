"""Sampling the cards a player cannot see, shared by the play queries of every game.

:func:`hidden_deal_nb` deals the unseen cards to the other players' free slots (and to an
"undealt" rest) respecting the suits each showed itself void in, never gets stuck, and
returns the log importance weight that makes the weighted worlds exactly uniform over all
deals consistent with what the player has seen.
"""
import numpy as np
from ._jit import njit

from .bits import popcount_nb, suit_mask_nb
from .pimc_nb import REST
from .rng import below_nb


@njit(cache=True)
def hidden_deal_nb(wkey, n, me, my_hand, unseen, cap, voids, out):
    """Deal the ``unseen`` cards: position q (q != me) receives ``cap[q]`` of them, the rest
    (``cap[REST]``) was never dealt; nobody gets a suit of ``voids[q]`` (bit per suit).

    Cards go in a fixed order (suits with the most void holders first, then by code), each
    to a holder (the undealt rest counts as one) with probability proportional to its free
    room, among the holders that keep the rest of the deal possible (Hall's condition over
    the 15 sets of suits), so a draw never gets stuck. Returns ``log(1 / q)`` where ``q``
    is the probability of this outcome: with ``exp`` of it as the importance weight,
    weighted worlds are exactly uniform over the deals consistent with the voids.
    ``-inf``: no consistent deal exists. ``out[me]`` = my hand."""
    room = np.empty(REST + 1, dtype=np.int64)
    elig = np.empty(REST + 1, dtype=np.int64)   # suits each holder may still receive
    for q in range(REST + 1):
        room[q] = 0
        elig[q] = 0
    for q in range(n):
        if q != me:
            room[q] = cap[q]
            elig[q] = 15 & ~voids[q]
    room[REST] = cap[REST]
    elig[REST] = 15
    nvoid = np.zeros(4, dtype=np.int64)
    supply = np.zeros(4, dtype=np.int64)
    constrained = False
    for q in range(n):
        if q != me:
            for s in range(4):
                nvoid[s] += (voids[q] >> s) & 1
                if (voids[q] >> s) & 1:
                    constrained = True
    for s in range(4):
        supply[s] = popcount_nb(unseen & suit_mask_nb(s))
    slack = np.zeros(16, dtype=np.int64)
    ok = np.empty(REST + 1, dtype=np.bool_)
    for q in range(n):
        out[q] = 0
    out[me] = my_hand
    logw = 0.0
    i = 0
    for v in range(n, -1, -1):
        for s in range(4):
            if nvoid[s] != v:
                continue
            x = unseen & suit_mask_nb(s)
            while x:
                c = (x & -x)
                x ^= c
                if constrained:
                    for S in range(1, 16):
                        t = 0
                        for q in range(REST + 1):
                            if elig[q] & S:
                                t += room[q]
                        for u in range(4):
                            if (S >> u) & 1:
                                t -= supply[u]
                        slack[S] = t
                        if t < 0:
                            return -np.inf
                weight = 0
                for q in range(REST + 1):
                    ok[q] = room[q] > 0 and (elig[q] >> s) & 1
                    if ok[q] and constrained:
                        for S in range(1, 16):
                            if not (S >> s) & 1 and elig[q] & S and slack[S] < 1:
                                ok[q] = False
                                break
                    if ok[q]:
                        weight += room[q]
                if weight == 0:
                    return -np.inf
                r = below_nb(wkey, i, weight)
                i += 1
                for q in range(REST + 1):
                    if ok[q]:
                        if r < room[q]:
                            logw += np.log(weight / room[q])
                            if q != REST:
                                out[q] |= c
                            room[q] -= 1
                            break
                        r -= room[q]
                supply[s] -= 1
    return logw


@njit(cache=True)
def hidden_deal_forbid_nb(wkey, n, me, my_hand, unseen, cap, forbid, out):
    """:func:`hidden_deal_nb` with card-level constraints: position q (q != me) cannot hold
    the cards of ``forbid[q]`` (a mask: shown voids, and e.g. "no trump above the J" in
    games with trumping duties). Holders are the other positions and the undealt rest
    (bit ``n``); Hall's condition over the holder sets keeps every draw completable.
    Cards go most constrained first (fewest eligible holders), then by code. Returns the
    log importance weight (uniform over consistent deals), ``-inf`` when none exists."""
    nh = n + 1
    full = (1 << nh) - 1
    room = np.zeros(nh, dtype=np.int64)
    for q in range(n):
        if q != me:
            room[q] = cap[q]
    room[n] = cap[REST]
    # eligible holder set per unseen card
    cards = np.empty(64, dtype=np.int64)
    elig = np.empty(64, dtype=np.int64)
    m = 0
    x = unseen
    constrained = False
    while x:
        c = x & -x
        x ^= c
        code = popcount_nb(c - 1)
        e = np.int64(0)
        for q in range(n):
            if q != me and room[q] > 0 and not (forbid[q] & c):
                e |= np.int64(1) << q
            elif q != me and room[q] > 0:
                constrained = True
        if room[n] > 0:
            e |= np.int64(1) << n
        cards[m] = code
        elig[m] = e
        m += 1
    # most constrained first (stable: by code within a class size)
    order = np.empty(m, dtype=np.int64)
    k = 0
    for size in range(nh + 1):
        for i in range(m):
            if popcount_nb(elig[i]) == size:
                order[k] = i
                k += 1
    cls = np.zeros(1 << nh, dtype=np.int64)      # remaining cards per eligible set
    for i in range(m):
        cls[elig[i]] += 1
    sub = np.empty(1 << nh, dtype=np.int64)
    roomT = np.empty(1 << nh, dtype=np.int64)
    for q in range(n):
        out[q] = 0
    out[me] = my_hand
    logw = 0.0
    for step in range(m):
        i = order[step]
        c = cards[i]
        e = elig[i]
        if constrained:
            # slack(T) = room(T) - #cards whose eligible set lies inside T
            for T in range(1 << nh):
                sub[T] = cls[T]
                r = 0
                for q in range(nh):
                    if (T >> q) & 1:
                        r += room[q]
                roomT[T] = r
            for b in range(nh):
                for T in range(1 << nh):
                    if (T >> b) & 1:
                        sub[T] += sub[T ^ (1 << b)]
            if step == 0:
                for T in range(1 << nh):
                    if roomT[T] - sub[T] < 0:
                        return -np.inf
        weight = 0
        for q in range(nh):
            if (e >> q) & 1 and room[q] > 0:
                ok = True
                if constrained:
                    for T in range(1 << nh):
                        if (T >> q) & 1 and (e & ~T & full) and roomT[T] - sub[T] < 1:
                            ok = False
                            break
                if ok:
                    weight += room[q]
                else:
                    e &= ~(np.int64(1) << q)
            else:
                e &= ~(np.int64(1) << q)
        if weight == 0:
            return -np.inf
        r = below_nb(wkey, step, weight)
        for q in range(nh):
            if (e >> q) & 1:
                if r < room[q]:
                    logw += np.log(weight / room[q])
                    if q < n:
                        out[q] |= np.int64(1) << c
                    room[q] -= 1
                    break
                r -= room[q]
        cls[elig[i]] -= 1
    return logw

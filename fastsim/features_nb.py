"""Hand features of the tidy results tables, compiled: one pass over the hands instead of
a dozen numpy passes, so a chunk's table is built at kernel speed. Serial and ``nogil``:
it may run in an encoding thread beside a parallel simulation kernel."""
import numpy as np
from numba import njit

from .bits import popcount_nb
from .play_nb import hand_value_nb

RANK_MASK = 0x1FFF
# rows of hand_features_nb's int8 output, in this order
SMALL_FEATURES = ("trump_count", "high_trumps", "aces", "kings", "voids", "longest_suit")


@njit(cache=True, nogil=True)
def hand_features_nb(hands, trumps):
    """Boerenbridge hand features of ``hands`` (int64 masks) under ``trumps`` (suit per
    hand, −1 = none) → ((6, n) int8 rows in SMALL_FEATURES order, (n,) float32 strength
    = the heuristic's hand value in tricks)."""
    n = hands.shape[0]
    small = np.empty((6, n), dtype=np.int8)
    strength = np.empty(n, dtype=np.float32)
    for i in range(n):
        h = hands[i]
        t = trumps[i]
        longest = 0
        voids = 0
        aces = 0
        kings = 0
        for s in range(4):
            ranks = (h >> (16 * s)) & RANK_MASK
            length = popcount_nb(ranks)
            if length > longest:
                longest = length
            if length == 0 and s != t:
                voids += 1
            aces += (ranks >> 12) & 1
            kings += (ranks >> 11) & 1
        tc = 0
        ht = 0
        if t >= 0:
            tr = (h >> (16 * t)) & RANK_MASK
            tc = popcount_nb(tr)
            ht = popcount_nb(tr >> 9)
        small[0, i] = tc
        small[1, i] = ht
        small[2, i] = aces
        small[3, i] = kings
        small[4, i] = voids
        small[5, i] = longest
        strength[i] = np.float32(hand_value_nb(h, t) / 100.0)
    return small, strength

"""A plain double-dummy reference for Klaverjassen (tests only): recursive alpha-beta with a
table of trick-boundary results, the Rotterdam rules (no variants) written out again from
RULES §2. Slow (a second or so a full deal) and meant to be obviously right; it shares no
code with ``fastsim``.

Cards use the project's codes, 16 * suit + rank with rank 5..12 = 7 8 9 T J Q K A; a hand
is a bit mask. ``value(hands, leader, trump, team)`` is the margin of ``team`` (its card
points + roem − the other team's, the last trick's 10 included) over the tricks still to
play from a trick boundary, both sides playing perfectly.
"""
import numpy as np
from numba import njit

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(5, 13)
# strength within a suit (higher wins); a trump beats every other card
PLAIN_STRENGTH = np.zeros(13, dtype=np.int64)
TRUMP_STRENGTH = np.zeros(13, dtype=np.int64)
for _i, _r in enumerate([SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE]):
    PLAIN_STRENGTH[_r] = _i
for _i, _r in enumerate([SEVEN, EIGHT, QUEEN, KING, TEN, ACE, NINE, JACK]):
    TRUMP_STRENGTH[_r] = _i
PLAIN_POINTS = np.zeros(13, dtype=np.int64)
TRUMP_POINTS = np.zeros(13, dtype=np.int64)
for _r, _p in {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2}.items():
    PLAIN_POINTS[_r] = _p
for _r, _p in {JACK: 20, NINE: 14, ACE: 11, TEN: 10, KING: 4, QUEEN: 3}.items():
    TRUMP_POINTS[_r] = _p
TABLE_BITS = 20


@njit
def points(card, trump):
    return TRUMP_POINTS[card % 16] if card // 16 == trump else PLAIN_POINTS[card % 16]


@njit
def power(card, led, trump):
    """How strongly ``card`` stands in a trick led in suit ``led``: -1 if it cannot win."""
    s, r = card // 16, card % 16
    if s == trump:
        return 100 + TRUMP_STRENGTH[r]
    if s == led:
        return PLAIN_STRENGTH[r]
    return -1


@njit
def winner(trick, trump):
    """Index (0..3) of the card that wins a complete trick."""
    led = trick[0] // 16
    best = 0
    for i in range(1, 4):
        if power(trick[i], led, trump) > power(trick[best], led, trump):
            best = i
    return best


@njit
def roem(trick, trump):
    """Roem of a complete trick: runs (natural order 7..A), stuk, four of a kind."""
    total = 0
    for s in range(4):
        ranks = 0
        for c in trick:
            if c // 16 == s:
                ranks |= 1 << (c % 16)
        longest = 0
        run = 0
        for r in range(SEVEN, ACE + 1):
            run = run + 1 if ranks >> r & 1 else 0
            longest = max(longest, run)
        if longest >= 4:
            total += 50
        elif longest == 3:
            total += 20
    has_k = False
    has_q = False
    for c in trick:
        if c == 16 * trump + KING:
            has_k = True
        if c == 16 * trump + QUEEN:
            has_q = True
    if has_k and has_q:
        total += 20
    r = trick[0] % 16
    if trick[1] % 16 == r and trick[2] % 16 == r and trick[3] % 16 == r:
        if r == JACK:
            total += 200
        elif r == TEN or r == QUEEN or r == KING or r == ACE:
            total += 100
    return total


@njit
def cards_of(mask, trick, n, trump):
    """The cards of ``mask``, strongest in the trick first (a plain move ordering), and how
    many."""
    out = np.zeros(8, dtype=np.int64)
    key = np.zeros(8, dtype=np.int64)
    led = trick[0] // 16 if n > 0 else -1
    k = 0
    for s in range(4):
        for r in range(SEVEN, ACE + 1):
            c = 16 * s + r
            if mask >> c & 1:
                p = power(c, s if n == 0 else led, trump)
                out[k] = c
                key[k] = p * 16 + points(c, trump)
                j = k
                while j > 0 and key[j] > key[j - 1]:
                    key[j], key[j - 1] = key[j - 1], key[j]
                    out[j], out[j - 1] = out[j - 1], out[j]
                    j -= 1
                k += 1
    return out, k


@njit
def legal(hand, trick, n, trump):
    """The legal cards (mask) of a hand, ``trick[:n]`` played so far (RULES §2, 1.-4.)."""
    if n == 0:
        return hand
    led = trick[0] // 16
    suit = np.int64(0)
    trumps = np.int64(0)
    high = -1       # strength of the highest trump in the trick
    for j in range(n):
        if trick[j] // 16 == trump:
            high = max(high, TRUMP_STRENGTH[trick[j] % 16])
    higher = np.int64(0)
    for c in range(64):
        if not hand >> c & 1:
            continue
        if c // 16 == led:
            suit |= np.int64(1) << c
        if c // 16 == trump:
            trumps |= np.int64(1) << c
            if TRUMP_STRENGTH[c % 16] > high:
                higher |= np.int64(1) << c
    if led != trump and suit:
        return suit                                   # 1. follow suit
    if led == trump:
        if trumps:
            return higher if higher else trumps       # 2. overtrump if able
        return hand
    if trumps == 0:
        return hand                                   # 4. nothing to trump with
    if higher:
        return higher                                 # 3. trump (over) if able
    others = hand & ~trumps
    return others if others else trumps               # 3. undertrump only if forced


@njit
def search(hands, trick, n, leader, trump, team, alpha, beta, keys, lows, highs):
    """Alpha-beta value (fail-soft) of the rest of the deal for ``team``."""
    left = hands[0] | hands[1] | hands[2] | hands[3]
    if n == 0 and left == 0:
        return 0
    slot = -1
    if n == 0:
        key = (left << 2) | leader
        mixed = (key ^ (key >> 23) ^ (key >> 41)) * 0x2545F4914F6CDD1D
        slot = (mixed >> 30) & ((1 << TABLE_BITS) - 1)
        if keys[slot] == key:
            if lows[slot] >= beta:
                return lows[slot]
            if highs[slot] <= alpha:
                return highs[slot]
            if lows[slot] == highs[slot]:
                return lows[slot]
            alpha = max(alpha, lows[slot])
            beta = min(beta, highs[slot])
    a0, b0 = alpha, beta
    player = (leader + n) % 4
    maximising = player % 2 == team
    best = -10 ** 6 if maximising else 10 ** 6
    moves, count = cards_of(legal(hands[player], trick, n, trump), trick, n, trump)
    for i in range(count):
        c = moves[i]
        hands[player] &= ~(np.int64(1) << c)
        trick[n] = c
        if n == 3:
            w = (leader + winner(trick, trump)) % 4
            gain = roem(trick, trump)
            for x in trick:
                gain += points(x, trump)
            if (hands[0] | hands[1] | hands[2] | hands[3]) == 0:
                gain += 10
            if w % 2 != team:
                gain = -gain
            saved = trick.copy()
            v = gain + search(hands, trick, 0, w, trump, team, alpha - gain, beta - gain,
                              keys, lows, highs)
            trick[:] = saved
        else:
            v = search(hands, trick, n + 1, leader, trump, team, alpha, beta, keys, lows, highs)
        hands[player] |= np.int64(1) << c
        if maximising:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    if slot >= 0:
        lo, hi = -10 ** 6, 10 ** 6
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        keys[slot] = (left << 2) | leader
        lows[slot] = lo
        highs[slot] = hi
    return best


def value(hands, leader, trump, team):
    """Exact margin of ``team`` from a trick boundary (hands: 4 masks)."""
    size = 1 << TABLE_BITS
    keys = np.full(size, -1, dtype=np.int64)
    lows = np.zeros(size, dtype=np.int64)
    highs = np.zeros(size, dtype=np.int64)
    return int(search(np.array(hands, dtype=np.int64), np.zeros(4, dtype=np.int64), 0, leader,
                      trump, team, -10 ** 6, 10 ** 6, keys, lows, highs))

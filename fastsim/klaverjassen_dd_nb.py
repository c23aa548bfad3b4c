"""Double-dummy solver for Klaverjassen (all hands known), compiled.

Value of a position: the *maxteam*'s card points + roem − the other team's over the tricks
still to play (mode 0, with maxteam = the playing team: the margin), or the number of tricks
maxteam takes (mode 1, used for "can this team force a pit?"). Both sides play perfectly;
the game is zero-sum in these values.

The search (``_ab_nb``) is fail-soft alpha-beta on bitboards, written as a loop over an
explicit stack of plies (numba cannot cache recursive functions: a cached recursive kernel
crashes when loaded, numba issue #6061). What makes it fast, all of it exact:

* a transposition table at trick boundaries with four tricks or more left, keyed by the cards still out (with the hands
  fixed, that is the whole position) in a canonical form (``canon_table_nb``: positions that
  differ only in which of some interchangeable 0-point cards are gone share an entry; 13-16%
  fewer positions), the leader and a generation number (so the table is
  reused across searches; cleared only when the generation's high bits change); 2^17
  entries of one 64-bit word each (1 MiB, aligned to cache lines: the table's reads are
  most of the cache misses, and the 16-byte entries of before, 2 MiB, were about 10%
  slower): the position's check bits (the key is lossless: a bijective hash of the 34-bit
  position gives the bucket and the check bits), the generation's low bits, the tricks
  left, an 11-bit lower and upper bound (beyond +-1022 stored weaker, never stronger), and
  no move (a stored best lead ordered worse than the killer cards below); buckets of two:
  one kept for the position with the most tricks left, one always replaced;
* bounds at each trick boundary on what the tricks left can still be worth: their card
  points and the last trick's 10, the roem still possible (a run, the stuk or four of a
  kind needs its cards in different hands), and the points of the top trumps, which their
  team takes for sure; a window they cannot reach is cut at once;
* the last three tricks are solved by ``three_tricks_nb``: fixed nested loops over the
  first of them (interchangeable cards once, a move order of ``_order``'s guesses without
  the history, the last card by the trick's result, cut where the trick's result and the
  most the two tricks after it can be worth already decide), the two tricks after it by a
  small direct alpha-beta (``two_tricks_nb``) whose bounds are kept in a small table of
  their own (``t2``: 2^14 one-word entries, lossless keys, made by ``search_nb`` for one
  call: the hands, trump, team and mode are fixed there, so no generation is needed); the
  positions with three tricks left keep their bounds in another such table (``t3``, 2^15
  entries, 256 KiB; also read by the enhanced cut-offs of the trick before), not in the
  main table: these small tables stay in the core's cache where the main table's reads
  miss (about 20% less CPU time than the general search down to two tricks with every
  position in the main table); the last trick by playing it out;
* interchangeable cards are searched once: two 0-point cards of one suit (7 8 9 plain, 7 8
  trump) in one hand with no unplayed card between them, neither able to take part in roem
  (the main and the three-trick table's keys treat such cards alike across positions);
* enhanced transposition cut-offs: at the last card of a trick, the table entries of the
  positions each card leads to are looked up first; one that already decides the window
  ends the node (about 16% fewer nodes);
* move ordering: a killer card per ply (the lead or third card that last caused a cut-off
  at that ply, kept across the driver's tests) first, then top cards of their suit (plain
  before trump), a history of the leads that caused cut-offs, and for the other cards a
  history of their own and a guess (winners before losers; points onto a partner's trick
  that the last player cannot beat; cheapest winner first); the last card of a trick by
  the exact trick result (ordered in the enhanced cut-offs' loop where they run: it has
  each card's trick result). A cut-off at ply p adds 2^(32 - p) to its card's history, so
  a card that cut near the root comes before the top-card rule and the guesses (14% fewer
  nodes than 2^(8 - p/4), under which the histories only broke ties).

``search_nb`` returns the fail-soft value for any window: a null window is one search; a
wider one is narrowed by null-window searches, all sharing the table: the first at a guess
(the value of a quick search that tries only the first two cards of each position, about
2% of the nodes, under a generation of its own), then in steps away from it that double
while the tests fail on the same side, then bisection of what is left (about 7 searches
for an exact value where bisection from 0 took 8.6, 14% fewer nodes).
"""
import numpy as np
from ._jit import njit, prange

from .bits import popcount_nb, lowest_nb, RANK_MASK
from .klaverjassen_nb import (legal_nb, beats_nb, strength_nb, points_nb, above_nb,
                              follow_nb, four_value_nb)
from .klaverjassen_schema import LAST_TRICK, TRUMP_POINTS, PLAIN_POINTS

# card points of a 13-bit rank set of one suit, as trump and as a plain suit
TRUMP_MASK_POINTS = np.array([sum(int(TRUMP_POINTS[r]) for r in range(13) if x >> r & 1)
                              for x in range(1 << 13)], dtype=np.int64)
PLAIN_MASK_POINTS = np.array([sum(int(PLAIN_POINTS[r]) for r in range(13) if x >> r & 1)
                              for x in range(1 << 13)], dtype=np.int64)

INF = 1 << 20
ZERO_POINT_CARDS = np.int64(0xE0 * 0x0001000100010001)   # 7 8 9 of every suit
TT_BITS = 17
TT_SIZE = 1 << TT_BITS
# a table entry is one 64-bit word: the position's check bits (the low bits of a bijective
# hash of the 34-bit position whose high bits give the bucket: lossless), the generation's
# low bits, the number of tricks left less one (never 0 in an entry: an all-zero word is empty), the
# lower and the upper bound (the top 5 bits are unused)
POS_BITS = 34
POS_MASK = (1 << POS_BITS) - 1
HASH_MUL = 0x9E3779B97F4A7C15 & POS_MASK     # odd: multiplying by it permutes 0 .. 2^34 - 1
CHECK_BITS = POS_BITS - (TT_BITS - 1)
CHECK_MASK = (1 << CHECK_BITS) - 1
GEN_BITS = 34 - CHECK_BITS          # with 3 bits left, 11 + 11 bounds and 5 unused: 64 bits
GEN_FIELD = (1 << GEN_BITS) - 1
LEFT_SHIFT = 34
LO_SHIFT = 37
HI_SHIFT = 48
KEY_MASK = (1 << LO_SHIFT) - 1      # check bits, generation and tricks left
GUESS_GEN = 1 << 28     # the generation bit of the guessing search (the callers' below it)
GUESS_WIDTH = 2         # cards searched per position by the guessing search
GUESS_STEP = 2          # the driver's first step away from the guess (doubling)
_NO_LO = -1024       # stored bounds (11 bits): these mean "none"
_NO_HI = 1023
MAX_PLY = 34
ETC_MIN_CARDS = 8     # enhanced transposition cut-offs where the next trick boundary has
                      # more cards than this (two tricks or more left: it has a table entry)
# the small tables of one ``search_nb`` call (``t2``: two-trick endings, ``t3``: positions
# with three tricks left): an entry is the check bits of the position's hash (the index is
# its top bits: lossless), the lower and the upper bound (11 bits each, as ``_pack``) and a
# bit that marks it used; only exact bounds are stored there (``three_tricks_nb`` is exact
# in the guessing search too), so they need no generation
T2_BITS = 14          # the three-trick solver's own table of two-trick endings
T2_SIZE = 1 << T2_BITS
T2_CHECK = POS_BITS - T2_BITS
T2_LO = T2_CHECK
T2_VALID = np.int64(1) << (T2_CHECK + 22)
T2_KEY = T2_VALID | ((np.int64(1) << T2_CHECK) - 1)
T3_BITS = 15          # the positions with three tricks left: a table of their own
                      # (2^14 and 2^16 entries were no faster)
T3_SIZE = 1 << T3_BITS
T3_CHECK = POS_BITS - T3_BITS
T3_VALID = np.int64(1) << (T3_CHECK + 22)
T3_KEY = T3_VALID | ((np.int64(1) << T3_CHECK) - 1)
TRUMP_DESC = np.array([9, 7, 12, 8, 11, 10, 6, 5], dtype=np.int64)   # J 9 A T K Q 8 7


def new_table():
    """A transposition table (a 1-tuple, passed on as ``*table``): TT_SIZE one-word entries
    (all zero is empty) and, after them, the generation epoch the entries belong to."""
    # np.ones then zero: every page is written now, so the search pays no first-touch faults
    t = np.ones(TT_SIZE + 8, dtype=np.int64)
    t[:] = 0
    return (_aligned(t),)


@njit(cache=True)
def _aligned(t):
    """The TT_SIZE + 1 words of ``t`` (TT_SIZE + 8 words) that start on a 64-byte boundary:
    a bucket (two entries) then lies within one cache line (numpy aligns to 16 bytes only)."""
    k = ((64 - (t.ctypes.data & 63)) & 63) >> 3
    return t[k:k + TT_SIZE + 1]


@njit(cache=True, inline="always")
def _compress(rem):
    """The 32 cards of the 32-card deck in a mask as 32 bits (ranks 7..A of each suit)."""
    return (((rem >> 5) & 0xFF) | ((rem >> 13) & 0xFF00) | ((rem >> 21) & 0xFF0000)
            | ((rem >> 29) & 0xFF000000))


@njit(cache=True)
def canon_table_nb(hands, trump, rv):
    """The rank-equivalence of one ``search_nb`` call (the hands fixed): by suit and the
    suit's ranks 7 8 9 T J still out (5 bits: ``_compress``'s low bits of the suit), the
    bits to flip among its low cards (7 8 9 plain, 7 8 trump: 0 points, the weakest of the
    suit) to reach the position's canonical form. Two sets of low cards still out, held
    in rank order by the same hands, are interchangeable when no run could take any of
    them in either (a run of three needs its cards in three hands; four of a kind of
    these ranks scores nothing unless the variant says so, then nothing is flipped):
    strengths, points and legality keep the same order, so the positions have the same
    value. The canonical form is the smallest such set: positions differing only in
    which of these cards are gone then share a table entry.

    Returned as ``_ckey``'s table: for suit s and the suit's 8 ranks still out (bits
    16 s + 5 .. 16 s + 12 of the mask), at 256 s + those bits, the canonical form of them
    in place (bits 8 s .. 8 s + 7 of the key)."""
    ct = np.zeros(128, dtype=np.int64)
    if not (four_value_nb(5, rv) or four_value_nb(6, rv) or four_value_nb(7, rv)):
        _canon_flips(hands, trump, ct)
    out = np.empty(1024, dtype=np.int64)
    for s in range(4):
        for b in range(256):
            out[256 * s + b] = (b ^ ct[32 * s + (b & 31)]) << (8 * s)
    return out


@njit(cache=True)
def _canon_flips(hands, trump, ct):
    """``canon_table_nb``'s flips: by suit and the suit's ranks 7 8 9 T J still out, the
    bits to flip among its low cards, into ``ct`` (128 words)."""
    own = np.full(5, -1, dtype=np.int64)
    for s in range(4):
        for k in range(5):
            for p in range(4):
                if (hands[p] >> (16 * s + 5 + k)) & 1:
                    own[k] = p
                    break
            else:
                own[k] = -1
        nlow = 2 if s == trump else 3
        lowm = (1 << nlow) - 1
        for b in range(32):
            if not _run_free(b, own, nlow):
                continue
            low = b & lowm
            for cand in range(lowm + 1):
                if cand == low:
                    break       # the smallest interchangeable set is b's own
                if popcount_nb(cand) != popcount_nb(low) or \
                        not _run_free((b & ~lowm) | cand, own, nlow):
                    continue
                x = low
                y = cand
                same = True
                while x:
                    if own[lowest_nb(x)] != own[lowest_nb(y)]:
                        same = False
                        break
                    x &= x - 1
                    y &= y - 1
                if same:
                    ct[32 * s + b] = low ^ cand
                    break


@njit(cache=True, inline="always")
def _run_free(b, own, nlow):
    """No run of three (ranks in ``b``, 7 = bit 0, held by three different hands ``own``)
    can take one of the suit's ``nlow`` low cards."""
    for st in range(nlow):
        if (b >> st) & 7 == 7 and own[st] != own[st + 1] and own[st] != own[st + 2] and \
                own[st + 1] != own[st + 2]:
            return False
    return True


@njit(cache=True, inline="always")
def _ckey(rem, ct):
    """The cards still out (as ``_compress``) in their canonical form (``canon_table_nb``)."""
    return ct[(rem >> 5) & 255] | ct[256 + ((rem >> 21) & 255)] | \
        ct[512 + ((rem >> 37) & 255)] | ct[768 + ((rem >> 53) & 255)]


@njit(cache=True, inline="always")
def _hash(pos):
    """A permutation of the 34-bit positions: its high bits pick the bucket, the others are
    the entry's check bits (together they give the position back: the key is lossless)."""
    return (pos * HASH_MUL) & POS_MASK


@njit(cache=True, inline="always")
def _bucket(x):
    return (x >> CHECK_BITS) << 1


@njit(cache=True, inline="always")
def _key(x, genf, left):
    # tricks left 2 .. 8 as 1 .. 7 (never 0: an all-zero word matches no key)
    return (x & CHECK_MASK) | genf | (np.int64(left - 1) << LEFT_SHIFT)


@njit(cache=True, inline="always")
def _tt_find(tt, b, key):
    if (tt[b] & KEY_MASK) == key:
        return b
    if (tt[b + 1] & KEY_MASK) == key:
        return b + 1
    return -1


@njit(cache=True, inline="always")
def _unpack_lo(data):
    v = ((data >> LO_SHIFT) & 2047) - 1024
    return -INF if v == _NO_LO else v


@njit(cache=True, inline="always")
def _unpack_hi(data):
    v = ((data >> HI_SHIFT) & 2047) - 1024
    return INF if v == _NO_HI else v


@njit(cache=True, inline="always")
def _pack(lo, hi):
    """Bounds beyond 11 bits are stored weaker, never stronger: a lower bound above 1022
    as 1022, below -1023 as none; an upper bound below -1023 as -1023, above 1022 as none
    (values that large need huge roem; an exact value there is only a weaker entry)."""
    lo = max(min(lo, _NO_HI - 1), _NO_LO)
    hi = max(min(hi, _NO_HI), _NO_LO + 1)
    return (np.int64(lo + 1024) << LO_SHIFT) | (np.int64(hi + 1024) << HI_SHIFT)


@njit(cache=True, inline="always")
def _small_lo(e, shift):
    v = ((e >> shift) & 2047) - 1024
    return -INF if v == _NO_LO else v


@njit(cache=True, inline="always")
def _small_hi(e, shift):
    v = ((e >> (shift + 11)) & 2047) - 1024
    return INF if v == _NO_HI else v


@njit(cache=True, inline="always")
def _small_entry(k, elo, ehi, r, lo, hi, shift):
    """The entry of key ``k`` (bounds elo, ehi before) after a search of window (lo, hi)
    returned ``r``: the bounds in 11 bits each from bit ``shift`` (stored as ``_pack``)."""
    if r <= lo:
        ehi = min(ehi, r)
    elif r >= hi:
        elo = max(elo, r)
    else:
        elo = r
        ehi = r
    elo = max(min(elo, _NO_HI - 1), _NO_LO)
    ehi = max(min(ehi, _NO_HI), _NO_LO + 1)
    return k | (np.int64(elo + 1024) << shift) | (np.int64(ehi + 1024) << (shift + 11))


@njit(cache=True)
def _tt_store(tt, b, key, best, a0, b0):
    """Record a search result ``best`` found with window (a0, b0) at bucket ``b``."""
    e = _tt_find(tt, b, key)
    if e >= 0:
        lo = _unpack_lo(tt[e])
        hi = _unpack_hi(tt[e])
    else:
        lo = -INF
        hi = INF
        # slot b keeps the bigger position (more tricks left), slot b + 1 is always replaced
        k0 = tt[b]
        gmask = np.int64(GEN_FIELD) << CHECK_BITS
        if (k0 & gmask) != (key & gmask) or (k0 >> LEFT_SHIFT & 7) <= (key >> LEFT_SHIFT):
            tt[b + 1] = k0
            e = b
        else:
            e = b + 1
    if best <= a0:
        hi = min(hi, best)
    elif best >= b0:
        lo = max(lo, best)
    else:
        lo = best
        hi = best
    tt[e] = key | _pack(lo, hi)


@njit(cache=True, inline="always")
def trick_roem_nb(mask, trump, rv):
    """Roem of one complete trick (mask of its 4 cards); the same as ``roem_nb``, faster: a
    run needs 3 cards of one suit (of 4 cards, one suit at most: its ``RUN_VALUE``, 20 for
    three in a row, 50 for four, found with masks: the ranks above a suit's 13 are empty, so
    no window crosses into the next suit), four of a kind one card of every suit."""
    w = mask & (mask >> 1) & (mask >> 2)
    v = 0
    if w:
        v = 50 if (w & (mask >> 3)) else 20
    if ((mask >> (16 * trump + 10)) & 3) == 3:
        v += 20
    common = mask & (mask >> 16) & (mask >> 32) & (mask >> 48) & RANK_MASK
    if common:
        v += four_value_nb(lowest_nb(common), rv)
    return v


@njit(cache=True, inline="always")
def _bad_windows(h):
    """Start ranks of the 3- and 4-windows of consecutive ranks holding two cards of ``h``."""
    a = h & (h >> 1)
    b = h & (h >> 2)
    c = h & (h >> 3)
    return a | (a >> 1) | b, a | (a >> 1) | (a >> 2) | b | (b >> 1) | c


@njit(cache=True)
def bounds_nb(h0, h1, h2, h3, rem, left, trump, maxteam, rv):
    """(lower, upper) bounds on the value (mode 0) of the tricks still to play at a trick
    boundary: the card points still out, the last trick's 10, the roem still possible (a
    run, the stuk or four of a kind needs its cards in different hands), and the points of
    the top trumps, which their team takes for sure."""
    pts = LAST_TRICK
    run_total = 0
    run_max = 0
    for s in range(4):
        r = (rem >> (16 * s)) & RANK_MASK
        pts += TRUMP_MASK_POINTS[r] if s == trump else PLAIN_MASK_POINTS[r]
        n = popcount_nb(r)
        if n >= 3:
            bad3 = np.int64(0)
            bad4 = np.int64(0)
            for p in range(4):
                b3, b4 = _bad_windows((_pick(p, h0, h1, h2, h3) >> (16 * s)) & RANK_MASK)
                bad3 |= b3
                bad4 |= b4
            w3 = r & (r >> 1) & (r >> 2) & ~bad3
            if w3:
                v = 20
                if r & (r >> 1) & (r >> 2) & (r >> 3) & ~bad4:
                    v = 50
                run_total += v * (n // 3)
                run_max = max(run_max, v)
    roem = min(run_total, left * run_max)
    tb = 16 * trump
    if ((rem >> (tb + 10)) & 3) == 3:
        for p in range(4):
            if ((_pick(p, h0, h1, h2, h3) >> (tb + 10)) & 3) == 3:
                break
        else:
            roem += 20
    common = (rem & (rem >> 16) & (rem >> 32) & (rem >> 48)) & RANK_MASK
    while common:
        q = lowest_nb(common)
        common &= common - 1
        ok = True
        for p in range(4):
            m = _pick(p, h0, h1, h2, h3) >> q
            if popcount_nb(m & 0x0001000100010001) != 1:
                ok = False
        if ok:
            roem += four_value_nb(q, rv)
    # the top trumps
    mine = ((h0 | h2) if maxteam == 0 else (h1 | h3)) >> tb
    sure = 0
    side = -1
    for k in range(8):
        q = TRUMP_DESC[k]
        if (rem >> (tb + q)) & 1:
            t = (mine >> q) & 1
            if side < 0:
                side = t
            elif t != side:
                break
            sure += TRUMP_POINTS[q]
    tot = pts + roem
    if side == 1:
        return 2 * sure - tot, tot
    if side == 0:
        return -tot, tot - 2 * sure
    return -tot, tot


@njit(cache=True)
def last_trick_nb(q0, q1, q2, q3, leader, trump, maxteam, mode, rv):
    """Value of the last trick (one card in each hand), led by ``leader``."""
    c = lowest_nb(_pick(leader, q0, q1, q2, q3))
    led = c >> 4
    winner = c
    wseat = leader
    pts = points_nb(c, trump)
    mask = np.int64(1) << c
    for j in range(1, 4):
        s = (leader + j) & 3
        c = lowest_nb(_pick(s, q0, q1, q2, q3))
        if beats_nb(c, winner, led, trump):
            winner = c
            wseat = s
        pts += points_nb(c, trump)
        mask |= np.int64(1) << c
    if mode == 1:
        return 1 if (wseat & 1) == maxteam else 0
    v = pts + trick_roem_nb(mask, trump, rv) + LAST_TRICK
    return v if (wseat & 1) == maxteam else -v


@njit(cache=True, inline="always")
def _pick(seat, a0, a1, a2, a3):
    if seat == 0:
        return a0
    if seat == 1:
        return a1
    if seat == 2:
        return a2
    return a3


@njit(cache=True, inline="always")
def _last4(ls, a0, a1, a2, a3, trump, maxteam, mode, rv):
    """Value of the last trick led by seat ``ls``, seat q playing card ``a_q``. Only the
    led card's seat matters: the winner is the strongest card over the led one whatever
    order the others are compared in (a card that neither follows nor trumps beats none),
    so they are taken in seat order, with no seat to pick."""
    winner = _pick(ls, a0, a1, a2, a3)
    led = winner >> 4
    wseat = ls
    pts = 0
    mask = np.int64(0)
    for s in range(4):
        c = a0 if s == 0 else (a1 if s == 1 else (a2 if s == 2 else a3))
        if beats_nb(c, winner, led, trump):
            winner = c
            wseat = s
        pts += points_nb(c, trump)
        mask |= np.int64(1) << c
    if mode == 1:
        return 1 if (wseat & 1) == maxteam else 0
    v = pts + trick_roem_nb(mask, trump, rv) + LAST_TRICK
    return v if (wseat & 1) == maxteam else -v


@njit(cache=True, inline="always")
def two_tricks_nb(q0, q1, q2, q3, leader, trump, maxteam, mode, rv, alpha, beta):
    """Value of the last two tricks (two cards in each hand), fail-soft alpha-beta over the
    (at most 16) ways to play the first of them."""
    p0 = leader
    p1 = (leader + 1) & 3
    p2 = (leader + 2) & 3
    p3 = (leader + 3) & 3
    sg = 1 if (p0 & 1) == maxteam else -1     # values below are from p0's side
    A = alpha if sg == 1 else -beta
    B = beta if sg == 1 else -alpha
    h0 = _pick(p0, q0, q1, q2, q3)
    h1 = _pick(p1, q0, q1, q2, q3)
    h2 = _pick(p2, q0, q1, q2, q3)
    h3 = _pick(p3, q0, q1, q2, q3)
    best0 = -INF
    x0 = h0
    while x0:
        c0 = lowest_nb(x0)
        x0 &= x0 - 1
        led = c0 >> 4
        hi0 = c0 if led == trump else -1
        pt0 = points_nb(c0, trump)
        a = max(A, best0)
        best1 = INF
        x1 = legal_nb(h1, led, trump, hi0, False, rv)
        while x1:
            c1 = lowest_nb(x1)
            x1 &= x1 - 1
            if beats_nb(c1, c0, led, trump):
                w1 = c1
                s1 = p1
            else:
                w1 = c0
                s1 = p0
            hi1 = hi0
            if (c1 >> 4) == trump and (hi1 < 0 or strength_nb(c1, trump) > strength_nb(hi1, trump)):
                hi1 = c1
            pt1 = pt0 + points_nb(c1, trump)
            b = min(B, best1)
            best2 = -INF
            x2 = legal_nb(h2, led, trump, hi1, s1 == p0, rv)
            while x2:
                c2 = lowest_nb(x2)
                x2 &= x2 - 1
                if beats_nb(c2, w1, led, trump):
                    w2 = c2
                    s2 = p2
                else:
                    w2 = w1
                    s2 = s1
                hi2 = hi1
                if (c2 >> 4) == trump and (hi2 < 0 or strength_nb(c2, trump) > strength_nb(hi2, trump)):
                    hi2 = c2
                pt2 = pt1 + points_nb(c2, trump)
                a2 = max(a, best2)
                best3 = INF
                x3 = legal_nb(h3, led, trump, hi2, s2 == p1,
                              rv)
                m2 = (np.int64(1) << c0) | (np.int64(1) << c1) | (np.int64(1) << c2)
                while x3:
                    c3 = lowest_nb(x3)
                    x3 &= x3 - 1
                    s3 = p3 if beats_nb(c3, w2, led, trump) else s2
                    if mode == 0:
                        v = pt2 + points_nb(c3, trump) + \
                            trick_roem_nb(m2 | (np.int64(1) << c3), trump, rv)
                        if (s3 & 1) != maxteam:
                            v = -v
                    else:
                        v = 1 if (s3 & 1) == maxteam else 0
                    r0 = h0 ^ (np.int64(1) << c0)
                    r1 = h1 ^ (np.int64(1) << c1)
                    r2 = h2 ^ (np.int64(1) << c2)
                    r3 = h3 ^ (np.int64(1) << c3)
                    # the last trick in seats counted from p0 (r0 .. r3: no seat to pick;
                    # a seat's team is its parity flipped by p0's)
                    v += _last4((s3 - p0) & 3, lowest_nb(r0), lowest_nb(r1), lowest_nb(r2),
                                lowest_nb(r3), trump, maxteam ^ (p0 & 1), mode, rv)
                    v *= sg
                    if v < best3:
                        best3 = v
                        if best3 <= a2:
                            break
                if best3 > best2:
                    best2 = best3
                    if best2 >= b:
                        break
            if best2 < best1:
                best1 = best2
                if best1 <= a:
                    break
        if best1 > best0:
            best0 = best1
            if best0 >= B:
                break
    return sg * best0


@njit(cache=True)
def _two_tricks_call(q0, q1, q2, q3, leader, trump, maxteam, mode, rv, alpha, beta):
    """``two_tricks_nb`` as a call (it is inlined where it is hot, in ``three_tricks_nb``;
    the general search meets two tricks left only from a root that late)."""
    return two_tricks_nb(q0, q1, q2, q3, leader, trump, maxteam, mode, rv, alpha, beta)


@njit(cache=True, inline="always")
def _ordered3(x, tn, winner, wseat, player, trump, unplayed, next_hand):
    """The cards of ``x`` (a hand's legal cards in a three-trick ending: at most 3) most
    promising first, 6 bits each, and their number (``_order``'s guesses, no history)."""
    beat4 = False
    if tn == 2:
        beat4 = (next_hand & above_nb(winner, trump)) != 0 or \
            ((winner >> 4) != trump and ((next_hand >> (16 * trump)) & RANK_MASK) != 0)
    n = 0
    c0 = 0
    c1 = 0
    c2 = 0
    k0 = 0
    k1 = 0
    k2 = 0
    while x:
        c = lowest_nb(x)
        x &= x - 1
        st = strength_nb(c, trump)
        pt = points_nb(c, trump)
        if tn == 0:
            k = 16 * st + pt
            if (above_nb(c, trump) & unplayed) == 0:     # the top card of its suit
                k += 2048 if (c >> 4) == trump else 4096
        elif (wseat & 1) == (player & 1) and (tn == 1 or not beat4):
            k = 100 + pt - (40 if (c >> 4) == trump else 0)
        elif beats_nb(c, winner, winner >> 4, trump):
            k = 200 - st + pt
        else:
            k = -pt - 16 * st
        if n == 0 or k > k0:
            c2, k2 = c1, k1
            c1, k1 = c0, k0
            c0, k0 = c, k
        elif n == 1 or k > k1:
            c2, k2 = c1, k1
            c1, k1 = c, k
        else:
            c2, k2 = c, k
        n += 1
    return c0 | (c1 << 6) | (c2 << 12), n


@njit(cache=True)
def three_tricks_nb(q0, q1, q2, q3, leader, trump, maxteam, mode, rv, alpha, beta, span,
                    t2):
    """Value of the last three tricks (three cards in each hand), fail-soft alpha-beta over
    the ways to play the first of them (interchangeable cards once, the cards in the order
    of ``_order``'s guesses, the last card by the trick's result), the two tricks after it
    by ``two_tricks_nb``. ``span``: a bound on the absolute value of the three tricks in
    mode 0 (card points, the last trick's 10 and the roem possible: ``bounds_nb``); the
    two tricks after the first are worth at most it less the first trick's card points.
    No table: called at a trick boundary with three tricks left, its result kept there."""
    p0 = leader
    p1 = (leader + 1) & 3
    p2 = (leader + 2) & 3
    p3 = (leader + 3) & 3
    sg = 1 if (p0 & 1) == maxteam else -1     # values below are from p0's side
    A = alpha if sg == 1 else -beta
    B = beta if sg == 1 else -alpha
    h0 = _pick(p0, q0, q1, q2, q3)
    h1 = _pick(p1, q0, q1, q2, q3)
    h2 = _pick(p2, q0, q1, q2, q3)
    h3 = _pick(p3, q0, q1, q2, q3)
    unplayed = q0 | q1 | q2 | q3
    x0 = h0
    if mode == 0:
        x0 = reduce_equivalent_nb(x0, h0, unplayed, trump, rv)
    o0, n0 = _ordered3(x0, 0, -1, -1, p0, trump, unplayed, h1)
    best0 = -INF
    for i0 in range(n0):
        c0 = (o0 >> (6 * i0)) & 63
        led = c0 >> 4
        hi0 = c0 if led == trump else -1
        pt0 = points_nb(c0, trump)
        a = max(A, best0)
        best1 = INF
        x1 = legal_nb(h1, led, trump, hi0, False, rv)
        if mode == 0:
            x1 = reduce_equivalent_nb(x1, h1, unplayed, trump, rv)
        o1, n1 = _ordered3(x1, 1, c0, p0, p1, trump, unplayed, h2)
        for i1 in range(n1):
            c1 = (o1 >> (6 * i1)) & 63
            if beats_nb(c1, c0, led, trump):
                w1 = c1
                s1 = p1
            else:
                w1 = c0
                s1 = p0
            hi1 = hi0
            if (c1 >> 4) == trump and (hi1 < 0 or strength_nb(c1, trump) > strength_nb(hi1, trump)):
                hi1 = c1
            pt1 = pt0 + points_nb(c1, trump)
            b = min(B, best1)
            best2 = -INF
            x2 = legal_nb(h2, led, trump, hi1, s1 == p0, rv)
            if mode == 0:
                x2 = reduce_equivalent_nb(x2, h2, unplayed, trump, rv)
            o2, n2 = _ordered3(x2, 2, w1, s1, p2, trump, unplayed, h3)
            for i2 in range(n2):
                c2 = (o2 >> (6 * i2)) & 63
                if beats_nb(c2, w1, led, trump):
                    w2 = c2
                    s2 = p2
                else:
                    w2 = w1
                    s2 = s1
                hi2 = hi1
                if (c2 >> 4) == trump and (hi2 < 0 or strength_nb(c2, trump) > strength_nb(hi2, trump)):
                    hi2 = c2
                pt2 = pt1 + points_nb(c2, trump)
                a2 = max(a, best2)
                x3 = legal_nb(h3, led, trump, hi2, s2 == p1, rv)
                if mode == 0:
                    x3 = reduce_equivalent_nb(x3, h3, unplayed, trump, rv)
                m2 = (np.int64(1) << c0) | (np.int64(1) << c1) | (np.int64(1) << c2)
                # the last card: each one's trick result (p0's side), smallest first, and
                # a bound on the two tricks after it
                n3 = 0
                ca = 0
                cb = 0
                cc = 0
                ta = 0
                tb = 0
                tc = 0
                sa = 0
                sb = 0
                sc = 0
                ra = 0
                rb = 0
                rc = 0
                while x3:
                    c3 = lowest_nb(x3)
                    x3 &= x3 - 1
                    s3 = p3 if beats_nb(c3, w2, led, trump) else s2
                    if mode == 0:
                        tp = pt2 + points_nb(c3, trump)
                        v = tp + trick_roem_nb(m2 | (np.int64(1) << c3), trump, rv)
                        if (s3 & 1) != (p0 & 1):
                            v = -v
                        rr = span - tp
                    else:
                        v = 1 if (s3 & 1) == maxteam else 0
                        v *= sg
                        rr = 2
                    # insertion by v ascending
                    if n3 == 0 or v < ta:
                        cc, tc, sc, rc = cb, tb, sb, rb
                        cb, tb, sb, rb = ca, ta, sa, ra
                        ca, ta, sa, ra = c3, v, s3, rr
                    elif n3 == 1 or v < tb:
                        cc, tc, sc, rc = cb, tb, sb, rb
                        cb, tb, sb, rb = c3, v, s3, rr
                    else:
                        cc, tc, sc, rc = c3, v, s3, rr
                    n3 += 1
                r0 = h0 ^ (np.int64(1) << c0)
                r1 = h1 ^ (np.int64(1) << c1)
                r2 = h2 ^ (np.int64(1) << c2)
                best3 = INF
                for k in range(n3):
                    if k == 0:
                        c3, t, s3, rr = ca, ta, sa, ra
                    elif k == 1:
                        c3, t, s3, rr = cb, tb, sb, rb
                    else:
                        c3, t, s3, rr = cc, tc, sc, rc
                    bb = min(b, best3)
                    if t - rr >= bb:
                        # at least t - rr: cannot come below the window
                        best3 = min(best3, t - rr)
                        continue
                    if t + rr <= a2:
                        # at most t + rr: fails low, a cut-off
                        best3 = min(best3, t + rr)
                        break
                    r3 = h3 ^ (np.int64(1) << c3)
                    # the two tricks after it, maxteam's side: the window, then the
                    # ending's entry in t2 (lossless key: its cards and leader)
                    if sg == 1:
                        lo = a2 - t
                        hi = bb - t
                    else:
                        lo = t - bb
                        hi = t - a2
                    x = _hash(_compress(unplayed ^ m2 ^ (np.int64(1) << c3)) |
                              (np.int64(s3) << 32))
                    slot = x >> T2_CHECK
                    e = t2[slot]
                    k2 = (x & (T2_KEY ^ T2_VALID)) | T2_VALID
                    elo = -INF
                    ehi = INF
                    r = 0
                    done = False
                    if (e & T2_KEY) == k2:
                        elo = _small_lo(e, T2_LO)
                        ehi = _small_hi(e, T2_LO)
                        if elo >= hi or elo == ehi:
                            r = elo
                            done = True
                        elif ehi <= lo:
                            r = ehi
                            done = True
                        else:
                            lo = max(lo, elo)
                            hi = min(hi, ehi)
                    if not done:
                        # (in seats counted from p0, as ``two_tricks_nb``'s last trick)
                        r = two_tricks_nb(r0, r1, r2, r3, (s3 - p0) & 3, trump,
                                          maxteam ^ (p0 & 1), mode, rv, lo, hi)
                        t2[slot] = _small_entry(k2, elo, ehi, r, lo, hi, T2_LO)
                    if sg != 1:
                        r = -r
                    v = t + r
                    if v < best3:
                        best3 = v
                        if best3 <= a2:
                            break
                if best3 > best2:
                    best2 = best3
                    if best2 >= b:
                        break
            if best2 < best1:
                best1 = best2
                if best1 <= a:
                    break
        if best1 > best0:
            best0 = best1
            if best0 >= B:
                break
    return sg * best0

@njit(cache=True, inline="always")
def _roem_free(r, s, hand, unplayed, rv):
    """Can the card of rank ``r`` in suit ``s`` (held by ``hand``) never be part of any roem
    (a run, or four of a kind of a rank that scores: ``four_value_nb``)? Its partners must
    be unplayed cards in other hands."""
    a = ((unplayed & ~hand) >> (16 * s)) & RANK_MASK | (np.int64(1) << r)
    w = a & (a >> 1) & (a >> 2)
    if (w >> (r - 2)) & 7:
        return False
    if four_value_nb(r, rv) > 0:
        for s2 in range(4):
            if s2 != s:
                b = np.int64(1) << (16 * s2 + r)
                if (unplayed & b) == 0 or (hand & b) != 0:
                    return True
        return False
    return True


@njit(cache=True, inline="always")
def reduce_equivalent_nb(legal, hand, unplayed, trump, rv):
    """Drop a legal card that is interchangeable with the next stronger card of its suit
    still unplayed: both legal, both worth 0 points (7 8 9 plain, 7 8 trump: the weakest
    cards, consecutive in rank and strength), held by the same hand, and neither able to
    take part in roem. Inlined: most calls end at the first test (no such pair of legal
    cards: the card above, or the one above that when the card between is played)."""
    z = legal & ZERO_POINT_CARDS & ~(np.int64(0x80) << (16 * trump))
    if ((z & (z >> 1)) | (z & (z >> 2) & ~(unplayed >> 1))) == 0:
        return legal
    return _reduce_equivalent(legal, hand, unplayed, trump, rv)


@njit(cache=True)
def _reduce_equivalent(legal, hand, unplayed, trump, rv):
    """``reduce_equivalent_nb`` past its first test."""
    out = legal
    for s in range(4):
        z = (legal >> (16 * s)) & (0x60 if s == trump else 0xE0)
        if popcount_nb(z) < 2:
            continue
        u = (unplayed >> (16 * s)) & RANK_MASK
        x = z
        while x:
            r = lowest_nb(x)
            x &= x - 1
            above = u & ~((np.int64(2) << r) - 1)
            if above == 0:
                continue
            r2 = lowest_nb(above)
            if (z >> r2) & 1 and _roem_free(r, s, hand, unplayed, rv) and \
                    _roem_free(r2, s, hand, unplayed, rv):
                out &= ~(np.int64(1) << (16 * s + r))
    return out


@njit(cache=True, inline="always")
def _insert(out, d, keys, n, c, k):
    i = n
    while i > 0 and keys[i - 1] < k:
        keys[i] = keys[i - 1]
        out[d, i] = out[d, i - 1]
        i -= 1
    keys[i] = k
    out[d, i] = c


@njit(cache=True, inline="always")
def _order(player, legal, tn, led, trump, winner, wseat, pts, mask, last_trick, maxteam, mode,
           rv, killer, out, d, keys, hist, rem, next_hand):
    """Fill ``out[d]`` with the legal cards, most promising first; returns their number.
    ``killer``: the card that last caused a cut-off at this ply (leads and third cards
    only; 0, no card: none), tried first."""
    n = 0
    my_team = player & 1
    sign = 1 if my_team == maxteam else -1
    # may the last player still beat the trick's winner (the 3rd hand's partner)?
    beat4 = False
    if tn == 2:
        # a card of next_hand beats the winner: a stronger one of its suit, or any trump
        # over a plain winner
        beat4 = (next_hand & above_nb(winner, trump)) != 0 or \
            ((winner >> 4) != trump and ((next_hand >> (16 * trump)) & RANK_MASK) != 0)
    x = legal
    while x:
        c = lowest_nb(x)
        x &= x - 1
        st = strength_nb(c, trump)
        pt = points_nb(c, trump)
        if c == killer:
            k = np.int64(1) << 50
        elif tn == 3:
            wins = beats_nb(c, winner, led, trump)
            team = my_team if wins else (wseat & 1)
            if mode == 0:
                v = pts + pt + trick_roem_nb(mask | (np.int64(1) << c), trump, rv)
                v += LAST_TRICK if last_trick else 0
            else:
                v = 1
            v = v if team == maxteam else -v
            k = sign * v * 64 - st
        elif tn == 0:
            k = hist[player, c] * 1024 + 16 * st + pt
            if (above_nb(c, trump) & rem) == 0:     # the top card of its suit
                k += (np.int64(1) << 29) if (c >> 4) == trump else (np.int64(1) << 30)
        elif (wseat & 1) == my_team and (tn == 1 or not beat4):
            k = (100 + pt - (40 if (c >> 4) == trump else 0)) * 1000000 + hist[player + 4, c]
        elif beats_nb(c, winner, led, trump):
            k = (200 - st + pt) * 1000000 + hist[player + 4, c]
        else:
            k = (-pt - 16 * st) * 1000000 + hist[player + 4, c]
        _insert(out, d, keys, n, c, k)
        n += 1
    return n


@njit(cache=True)
def _ab_nb(hands0, trick, tn0, leader0, alpha0, beta0, trump, maxteam, mode, rv, tt, gen,
           counter, hist, width, t2, t3, ct):
    """Fail-soft alpha-beta from a position: ``hands0`` per seat (cards still held),
    ``trick[:tn0]`` the trick in progress led by seat ``leader0``. Returns the value of the
    rest of the deal from maxteam's side (see the module doc): exact when strictly inside
    (alpha0, beta0), else a bound on the same side of the window.

    ``width`` < 8 searches only the first ``width`` cards in each position (by the move
    order): a guess, not a value, for the exact-value driver; such a search must have a
    generation of its own (its table entries are guesses too; positions with three tricks
    left or fewer are still solved exactly). ``t2``, ``t3``: the small tables of one
    ``search_nb`` call (module doc). ``hist``: 9 rows of 64, the leads' and the following
    cards' histories (rows 0-3, 4-7, by player) and the killer cards per ply (row 8).
    ``counter[0]`` counts the positions this search enters (not those inside
    ``three_tricks_nb`` and ``two_tricks_nb``)."""
    D = MAX_PLY
    hands = hands0.copy()
    mv = np.empty((D, 8), dtype=np.int64)
    keys = np.empty(8, dtype=np.int64)
    killer = hist[8]    # per ply: the card that cut last there (kept across the driver's tests)
    # the plies' state: one row of S per field (one block of memory: the rows' addresses are
    # fixed offsets from one base, not 21 pointers to keep in registers or reload)
    S = np.zeros((21, D), dtype=np.int64)
    P_player = S[0]
    P_n = S[1]
    P_i = S[2]
    P_best = S[3]
    P_alpha = S[4]
    P_beta = S[5]
    P_a0 = S[6]
    P_b0 = S[7]
    P_slot = S[8]
    P_key = S[9]
    P_tn = S[10]
    P_leader = S[11]
    P_led = S[12]
    P_win = S[13]
    P_wseat = S[14]
    P_hi = S[15]
    P_pts = S[16]
    P_mask = S[17]
    P_rem = S[18]
    P_vt = S[19]
    P_max = S[20]
    # the generation's field: its low bits and whether it is the guessing search's
    genf = (((np.int64(gen) & GUESS_GEN) >> (28 - GEN_BITS + 1)) |
            (np.int64(gen) & (GEN_FIELD >> 1))) << CHECK_BITS

    # the root's trick state
    led = -1
    winner = -1
    wseat = -1
    hi = -1
    pts = 0
    mask = np.int64(0)
    for j in range(tn0):
        c = trick[j]
        s = (leader0 + j) & 3
        led, winner, wseat, hi = follow_nb(c, j, s, led, winner, wseat, hi, trump)
        pts += points_nb(c, trump)
        mask |= np.int64(1) << c

    d = 0
    tn = tn0
    leader = leader0
    alpha = alpha0
    beta = beta0
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    ret = 0
    returning = False
    while True:
        if not returning:
            # ---- enter a node at ply d with (tn, leader, trick state, rem, alpha, beta)
            counter[0] += 1
            slot = -1
            key = np.int64(0)
            span = INF
            if tn == 0:
                left = popcount_nb(rem) >> 2
                if left <= 1:
                    if left == 1:
                        ret = last_trick_nb(hands[0], hands[1], hands[2], hands[3], leader, trump,
                                            maxteam, mode, rv)
                    else:
                        ret = 0
                    returning = True
                elif mode == 1 and left <= alpha:
                    ret = left
                    returning = True
                if not returning and left == 3:
                    # three tricks left: the positions' own table (exact values only, from
                    # every search of this call, the guessing one too), the bounds, then
                    # ``three_tricks_nb``
                    x = _hash(_ckey(rem, ct) | (np.int64(leader) << 32))
                    s3 = x >> T3_CHECK
                    k3 = (x & (T3_KEY ^ T3_VALID)) | T3_VALID
                    e3 = t3[s3]
                    elo = -INF
                    ehi = INF
                    if (e3 & T3_KEY) == k3:
                        elo = _small_lo(e3, T3_CHECK)
                        ehi = _small_hi(e3, T3_CHECK)
                        if elo >= beta or elo == ehi:
                            ret = elo
                            returning = True
                        elif ehi <= alpha:
                            ret = ehi
                            returning = True
                        else:
                            alpha = max(alpha, elo)
                            beta = min(beta, ehi)
                    if not returning and mode == 0:
                        lb, ub = bounds_nb(hands[0], hands[1], hands[2], hands[3], rem, left,
                                           trump, maxteam, rv)
                        span = max(ub, -lb)
                        if ub <= alpha:
                            ret = ub
                            returning = True
                        elif lb >= beta:
                            ret = lb
                            returning = True
                    if not returning:
                        ret = three_tricks_nb(hands[0], hands[1], hands[2], hands[3], leader,
                                              trump, maxteam, mode, rv, alpha, beta, span, t2)
                        t3[s3] = _small_entry(k3, elo, ehi, ret, alpha, beta, T3_CHECK)
                        returning = True
                if not returning:
                    x = _hash(_ckey(rem, ct) | (np.int64(leader) << 32))
                    key = _key(x, genf, left)
                    slot = _bucket(x)
                    e = _tt_find(tt, slot, key)
                    if e >= 0:
                        data = tt[e]
                        lo = _unpack_lo(data)
                        hb = _unpack_hi(data)
                        if lo >= beta or lo == hb:
                            ret = lo
                            returning = True
                        elif hb <= alpha:
                            ret = hb
                            returning = True
                        else:
                            if lo > alpha:
                                alpha = lo
                            if hb < beta:
                                beta = hb
                    if not returning and mode == 0 and left >= 3:
                        # (after the table: a table hit saves computing the bounds)
                        lb, ub = bounds_nb(hands[0], hands[1], hands[2], hands[3], rem, left,
                                           trump, maxteam, rv)
                        span = max(ub, -lb)     # the bound on the tricks' absolute value
                        if ub <= alpha:
                            ret = ub
                            returning = True
                        elif lb >= beta:
                            ret = lb
                            returning = True
                    if not returning and left == 2:
                        # the last two tricks: solved directly, the result kept in the table
                        ret = _two_tricks_call(hands[0], hands[1], hands[2], hands[3], leader,
                                               trump, maxteam, mode, rv, alpha, beta)
                        _tt_store(tt, slot, key, ret, alpha, beta)
                        returning = True
            if returning:
                continue
            player = (leader + tn) & 3
            pw = tn > 0 and (wseat & 1) == (player & 1)
            legal = legal_nb(hands[player], led if tn > 0 else -1, trump, hi, pw,
                             rv)
            if mode == 0:
                legal = reduce_equivalent_nb(legal, hands[player], rem | mask, trump, rv)
            ebest = -INF if (player & 1) == maxteam else INF
            if tn == 3 and popcount_nb(rem) > ETC_MIN_CARDS:
                # enhanced transposition cut-off: before searching the last card of a trick,
                # look up each card's next position (a trick boundary) in the table; one
                # whose stored bound plus the trick's value already reaches the window's
                # far side ends the node with that bound (fail-soft, exact as any cut-off);
                # a card whose next position would answer from the table at once (its entry
                # exact, or a bound outside the window) is not entered: its answer is folded
                # into the node's best (and window) here, and the other cards are searched
                emax = (player & 1) == maxteam
                eleft = (popcount_nb(rem) - 1) >> 2
                # the move order comes with it (as ``_order`` for the last card: by the
                # trick's exact result, then the weaker card)
                osign = 64 if emax else -64
                n = 0
                y = legal
                while y:
                    c = lowest_nb(y)
                    y &= y - 1
                    ws = player if beats_nb(c, winner, led, trump) else wseat
                    if mode == 0:
                        v = pts + points_nb(c, trump) + \
                            trick_roem_nb(mask | (np.int64(1) << c), trump, rv)
                        if (ws & 1) != maxteam:
                            v = -v
                        ok = osign * v - strength_nb(c, trump)
                    else:
                        v = 1 if (ws & 1) == maxteam else 0
                        ok = osign * (2 * v - 1) - strength_nb(c, trump)
                    x = _hash(_ckey(rem ^ (np.int64(1) << c), ct) | (np.int64(ws) << 32))
                    lo = -INF
                    hb = INF
                    if eleft == 3:
                        e3 = t3[x >> T3_CHECK]
                        if (e3 & T3_KEY) == ((x & (T3_KEY ^ T3_VALID)) | T3_VALID):
                            lo = _small_lo(e3, T3_CHECK)
                            hb = _small_hi(e3, T3_CHECK)
                    else:
                        e = _tt_find(tt, _bucket(x), _key(x, genf, eleft))
                        if e >= 0:
                            data = tt[e]
                            lo = _unpack_lo(data)
                            hb = _unpack_hi(data)
                    if emax:
                        if lo > -INF and v + lo >= beta:
                            ret = v + lo
                            returning = True
                            break
                    elif hb < INF and v + hb <= alpha:
                        ret = v + hb
                        returning = True
                        break
                    if mode == 0 and width >= 8:
                        # the child's value is known from the table: what entering it would
                        # return (its own look-up's answer), taken without entering it
                        kv = INF + 1
                        if lo == hb or (lo > -INF and v + lo >= beta):
                            kv = v + lo
                        elif hb < INF and v + hb <= alpha:
                            kv = v + hb
                        if kv != INF + 1:
                            if emax:
                                ebest = max(ebest, kv)
                                alpha = max(alpha, kv)
                            else:
                                ebest = min(ebest, kv)
                                beta = min(beta, kv)
                            continue
                    _insert(mv, d, keys, n, c, ok)
                    n += 1
                if not returning and n == 0:
                    ret = ebest
                    returning = True
                if returning:
                    continue
            elif (legal & (legal - 1)) == 0:
                mv[d, 0] = lowest_nb(legal)
                n = 1
            else:
                n = _order(player, legal, tn, led, trump, winner, wseat, pts, mask,
                           popcount_nb(rem) <= 4, maxteam, mode, rv, killer[d], mv, d, keys,
                           hist, rem, hands[(player + 1) & 3])
            P_player[d] = player
            if n > width:
                n = width
            P_n[d] = n
            P_i[d] = 0
            ismax = (player & 1) == maxteam
            P_max[d] = ismax
            P_best[d] = ebest
            P_alpha[d] = alpha
            P_beta[d] = beta
            P_a0[d] = alpha
            P_b0[d] = beta
            P_slot[d] = slot
            P_key[d] = key
            P_tn[d] = tn
            P_leader[d] = leader
            P_led[d] = led
            P_win[d] = winner
            P_wseat[d] = wseat
            P_hi[d] = hi
            P_pts[d] = pts
            P_mask[d] = mask
            P_rem[d] = rem
        else:
            # ---- a child of ply d - 1 returned ``ret`` (or the root is done)
            if d == 0:
                return ret
            d -= 1
            c = mv[d, P_i[d]]
            hands[P_player[d]] ^= np.int64(1) << c
            val = ret + P_vt[d]
            if P_max[d]:
                if val > P_best[d]:
                    P_best[d] = val
                    if val > P_alpha[d]:
                        P_alpha[d] = val
            else:
                if val < P_best[d]:
                    P_best[d] = val
                    if val < P_beta[d]:
                        P_beta[d] = val
            P_i[d] += 1
            returning = False
            if P_alpha[d] >= P_beta[d]:
                P_i[d] = P_n[d]  # cut-off
                # a cut-off near the root weighs 2^(32 - ply), outweighing the move order's
                # guesses (few nodes are near the root, so the sums stay far below 2^63; a
                # wrap-around would change only the order, never a value)
                if P_tn[d] == 0:
                    hist[P_player[d], c] += np.int64(1) << max(0, 32 - d)
                    killer[d] = c
                else:       # the cards that followed: a history of their own
                    hist[P_player[d] + 4, c] += np.int64(1) << max(0, 32 - d)
                    if P_tn[d] == 2:    # (second cards' killers did not pay)
                        killer[d] = c
        # ---- at ply d: try the next move, or finish the node
        if P_i[d] >= P_n[d]:
            best = P_best[d]
            if P_slot[d] >= 0:
                _tt_store(tt, P_slot[d], P_key[d], best, P_a0[d], P_b0[d])
            ret = best
            returning = True
            continue
        # play move i at ply d and enter the child
        c = mv[d, P_i[d]]
        player = P_player[d]
        bit = np.int64(1) << c
        hands[player] ^= bit
        rem = P_rem[d] ^ bit
        ptn = P_tn[d]
        pled = P_led[d]
        if ptn == 0:
            led = c >> 4
            winner = c
            wseat = player
        elif beats_nb(c, P_win[d], pled, trump):
            led = pled
            winner = c
            wseat = player
        else:
            led = pled
            winner = P_win[d]
            wseat = P_wseat[d]
        hi = P_hi[d]
        if (c >> 4) == trump and (hi < 0 or strength_nb(c, trump) > strength_nb(hi, trump)):
            hi = c
        pts = P_pts[d] + points_nb(c, trump)
        mask = P_mask[d] | bit
        alpha = P_alpha[d]
        beta = P_beta[d]
        if ptn == 3:
            if mode == 0:
                v = pts + trick_roem_nb(mask, trump, rv) + (LAST_TRICK if rem == 0 else 0)
                if (wseat & 1) != maxteam:
                    v = -v
            else:
                v = 1 if (wseat & 1) == maxteam else 0
            P_vt[d] = v
            alpha -= v
            beta -= v
            tn = 0
            leader = wseat
            led = -1
            winner = -1
            wseat = -1
            hi = -1
            pts = 0
            mask = np.int64(0)
        else:
            P_vt[d] = 0
            tn = ptn + 1
            leader = P_leader[d]
        d += 1


@njit(cache=True)
def _range_nb(hands, trick, tn, leader, trump, maxteam, rv):
    """Bounds on the value of a position (for the search driver)."""
    h = hands.copy()
    for j in range(tn):
        s = (leader + j) & 3
        h[s] |= np.int64(1) << trick[j]
    rem = h[0] | h[1] | h[2] | h[3]
    left = popcount_nb(rem) >> 2
    if left == 0:
        return 0, 0
    lb, ub = bounds_nb(h[0], h[1], h[2], h[3], rem, left, trump, maxteam, rv)
    if tn > 0:      # the top trumps of the trick in progress may be lost: points alone
        ub = max(ub, -lb)
        lb = -ub
    return lb, ub


@njit(cache=True)
def search_nb(hands0, trick, tn0, leader0, alpha0, beta0, trump, maxteam, mode, rv, tt, gen,
              counter):
    """The fail-soft value of a position for the window (alpha0, beta0) (see ``_ab_nb``):
    one search for a null window; a wider window is narrowed by null-window searches from
    a guess (module doc), sharing the table. ``gen`` must be below ``GUESS_GEN``."""
    gen = np.int64(gen) & (GUESS_GEN - 1)
    # the entries keep only the generation's low bits: a new epoch of generations starts
    # from an empty table (an old entry can never pass for a new one)
    epoch = (gen >> (GEN_BITS - 1)) + 1
    if tt[TT_SIZE] != epoch:
        tt[:TT_SIZE] = 0
        tt[TT_SIZE] = epoch
    hist = np.zeros((9, 64), dtype=np.int64)     # leads; following cards; killers per ply
    t2 = np.zeros(T2_SIZE, dtype=np.int64)       # two-trick endings (``three_tricks_nb``)
    t3 = np.zeros(T3_SIZE, dtype=np.int64)       # positions with three tricks left
    ct = canon_table_nb(hands0, trump, rv)        # the positions' canonical form
    if beta0 - alpha0 <= 1:
        return _ab_nb(hands0, trick, tn0, leader0, alpha0, beta0, trump, maxteam, mode,
                      rv, tt, gen, counter, hist, 8, t2, t3, ct)
    if mode == 0:
        lo, hi = _range_nb(hands0, trick, tn0, leader0, trump, maxteam, rv)
        # a guess: the value when every position searches only its first GUESS_WIDTH cards
        b = _ab_nb(hands0, trick, tn0, leader0, -INF, INF, trump, maxteam, mode, rv, tt,
                   gen | GUESS_GEN, counter, hist, GUESS_WIDTH, t2, t3, ct)
        hist[:] = 0
    else:
        lo = 0
        hi = (popcount_nb(hands0[0] | hands0[1] | hands0[2] | hands0[3]) + tn0) >> 2
        b = hi
    # null-window tests from the guess, in steps that double while they fail on the same
    # side, then bisection; lo and hi are what has been proved
    step = GUESS_STEP
    while lo < hi:
        if hi <= alpha0:
            return hi
        if lo >= beta0:
            return lo
        b = max(b, lo + 1, alpha0 + 1)
        b = min(b, hi, beta0)
        g = _ab_nb(hands0, trick, tn0, leader0, b - 1, b, trump, maxteam, mode, rv, tt, gen,
                   counter, hist, 8, t2, t3, ct)
        if g < b:
            hi = min(hi, g)
            b = hi - step
        else:
            lo = max(lo, g)
            b = lo + step + 1
        step *= 2
        if mode == 1 or hi - lo <= 2 * step:
            b = (lo + hi + 1) >> 1
    return lo


@njit(cache=True, parallel=True)
def solve_batch_nb(hands, trumps, teams, leaders, rv, chunk,
                   out_margin, out_pit):
    """Solve many full deals in parallel: the playing team's margin and whether it can
    force a pit. Each chunk of deals has its own transposition table."""
    n = hands.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        tt = _aligned(np.zeros(TT_SIZE + 8, dtype=np.int64))
        empty = np.full(4, -1, dtype=np.int64)
        counter = np.zeros(1, dtype=np.int64)
        gen = 0
        for i in range(ci * chunk, min((ci + 1) * chunk, n)):
            h = hands[i].copy()
            gen += 1
            out_margin[i] = search_nb(h, empty, 0, leaders[i], -INF, INF, trumps[i], teams[i], 0,
                                      rv, tt, gen, counter)
            gen += 1
            left = popcount_nb(h[0] | h[1] | h[2] | h[3]) // 4
            out_pit[i] = search_nb(h, empty, 0, leaders[i], left - 1, left, trumps[i], teams[i],
                                   1, rv, tt, gen,
                                   counter) >= left

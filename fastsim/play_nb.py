"""Trick-play kernels shared by the games: shuffling, the trick-count estimate of a hand,
and the card rule of the trick-taking heuristic (win tricks while short, duck once made).

The rules of the heuristic are written out in ``docs/boerenbridge.md``; Bonken's trump
rounds reuse them (``docs/bonken.md``). Hands are ``int64`` bit masks (:mod:`fastsim.bits`).
"""
import numpy as np
from ._jit import njit

from .bits import (popcount_nb, lowest_nb, highest_nb, suit_mask_nb, nth_card_nb,
                   low_card_nb, high_card_nb, RANK_MASK)
from .cards import FULL52 as _FULL52
from .rng import below_nb, deal_key_nb, shuffle_nb

DECK52 = np.array([16 * s + r for s in range(4) for r in range(13)], dtype=np.int64)
FULL52 = np.int64(_FULL52)
ACE, KING, QUEEN = 12, 11, 10

# the hand value (expected tricks, hundredths of a trick)
TRUMP_VALUE = np.array([25, 25, 25, 25, 25, 25, 25, 30, 40, 55, 70, 85, 100], dtype=np.int64)
# the summed TRUMP_VALUE of every set of the 7 lowest ranks and of the 6 highest (a trump
# holding's value in two table look-ups)
TRUMP_VALUE_LO = np.array([sum(int(TRUMP_VALUE[r]) for r in range(7) if m >> r & 1)
                           for m in range(1 << 7)], dtype=np.int64)
TRUMP_VALUE_HI = np.array([sum(int(TRUMP_VALUE[7 + r]) for r in range(6) if m >> r & 1)
                           for m in range(1 << 6)], dtype=np.int64)
SIDE_ACE, SIDE_KING_LONG, SIDE_KING_SHORT, SIDE_QUEEN_LONG, SIDE_QUEEN_SHORT = 85, 45, 20, 20, 5
# a non-trump suit's value by its queen, king and ace (bits 2..0 of ``top``: A, K, Q) and its
# length capped at 3 (what the king's and queen's values depend on): index 4 * top + length
SIDE_VALUE = np.array([(SIDE_ACE if top & 4 else 0)
                       + ((SIDE_KING_LONG if length >= 2 else SIDE_KING_SHORT) if top & 2 else 0)
                       + ((SIDE_QUEEN_LONG if length >= 3 else SIDE_QUEEN_SHORT) if top & 1 else 0)
                       for top in range(8) for length in range(4)], dtype=np.int64)
LONG_TRUMP_BONUS = 30
VOID_BONUS = 30


@njit(cache=True, inline="always")
def shuffle_prefix_nb(dkey, deck, m):
    """Partial Fisher–Yates: the first ``m`` entries of ``deck`` become a uniform sample."""
    for i in range(52):          # not ``deck[:52] = DECK52``: an array-to-slice copy makes
        deck[i] = DECK52[i]      # numba compile its shape-error message (~3-7 s cold)
    shuffle_nb(dkey, 0, deck, 0, m, 52)


@njit(cache=True, inline="always")
def hand_value_inline_nb(hand, trump):
    """:func:`hand_value_nb`, inlined into its caller (the heuristic-only deal loop).
    Branch-free per suit: a non-trump suit's value is one look-up in :data:`SIDE_VALUE`, a
    trump holding's two in :data:`TRUMP_VALUE_LO` / :data:`TRUMP_VALUE_HI`."""
    e = 0
    nt = 0
    voids = 0
    for s in range(4):
        ranks = (hand >> (16 * s)) & RANK_MASK
        length = popcount_nb(ranks)
        if s == trump:
            nt = length
            e += trump_suit_value_nb(ranks)
        else:
            voids += length == 0
            e += side_suit_value_nb(ranks, length)
    return e + trump_bonus_nb(nt, voids)


# the hand value's parts, written once (the heuristic's bid and the tables' strength column,
# fastsim.features_nb, call them)
@njit(cache=True, inline="always")
def side_suit_value_nb(ranks, length):
    """A non-trump suit's part of the hand value (its ace, king and queen; ``ranks``: the
    suit's 13-bit rank set, ``length`` its card count): one look-up in :data:`SIDE_VALUE`."""
    return SIDE_VALUE[((ranks >> (QUEEN - 2)) & 0x1C) | min(length, 3)]


@njit(cache=True, inline="always")
def trump_suit_value_nb(ranks):
    """The trump suit's part of the hand value: two look-ups."""
    return TRUMP_VALUE_LO[ranks & 0x7F] + TRUMP_VALUE_HI[ranks >> 7]


@njit(cache=True, inline="always")
def trump_bonus_nb(nt, voids):
    """The hand value's bonus for ``nt`` trumps with ``voids`` void side suits."""
    e = 0
    if nt > 3:
        e += LONG_TRUMP_BONUS * (nt - 3)
    if nt >= 1:
        e += VOID_BONUS * min(voids, nt)
    return e


@njit(cache=True)
def hand_value_nb(hand, trump):
    """Expected tricks of a hand in hundredths (docs/boerenbridge.md, heuristic bid)."""
    return hand_value_inline_nb(hand, trump)


@njit(cache=True, inline="always")
def above_nb(card):
    """Mask of the cards of ``card``'s suit ranked above it."""
    s = card >> 4
    return suit_mask_nb(s) & ~((np.int64(2) << card) - 1)


@njit(cache=True)
def heuristic_play_nb(hand, j, n, led, winner, trump, need, unseen):
    """Card for the player to act (``j`` = index in the trick, ``winner`` = current
    winning card or -1 when leading). ``unseen``: cards neither in my hand, played,
    nor the turned card."""
    return heuristic_play_inline_nb(hand, j, n, led, winner, trump, need, unseen)


@njit(cache=True, inline="always")
def heuristic_play_inline_nb(hand, j, n, led, winner, trump, need, unseen):
    """:func:`heuristic_play_nb`, inlined into its caller (the heuristic-only deal loops
    call :func:`heuristic_lead_nb` and :func:`heuristic_follow_nb` themselves; every other
    caller calls the compiled function)."""
    tmask = suit_mask_nb(trump) if trump >= 0 else np.int64(0)
    if j == 0:
        return heuristic_lead_nb(hand, trump, tmask, need, unseen)
    return heuristic_follow_nb(hand, j == n - 1, led, winner, trump, tmask, need)


# each suit's ranks below its top rank (the masks a shift by 1, 2, 4, 8 may move down
# without crossing into the suit below): :func:`heuristic_lead_nb` smears the unseen cards
# down their suits with them
_BELOW1 = np.int64(0x1FFE1FFE1FFE1FFE)
_BELOW2 = np.int64(0x1FFC1FFC1FFC1FFC)
_BELOW4 = np.int64(0x1FF01FF01FF01FF0)
_BELOW8 = np.int64(0x1F001F001F001F00)


@njit(cache=True, inline="always")
def heuristic_lead_nb(hand, trump, tmask, need, unseen):
    """The heuristic's lead (``tmask``: the trump suit's mask, 0 in a no-trump deal)."""
    trumps = hand & tmask
    side = hand & ~tmask
    if need > 0:
        if trumps:
            c = highest_nb(trumps)
            if (above_nb(c) & unseen) == 0:
                return c
        if side:
            # my top cards are those above every unseen card of their suit: smear each
            # unseen card down its suit (at most 12 ranks) and keep what it does not cover
            u = unseen
            u |= (u & _BELOW1) >> 1
            u |= (u & _BELOW2) >> 2
            u |= (u & _BELOW4) >> 4
            u |= (u & _BELOW8) >> 8
            top = side & ~u
            if top:
                return high_card_nb(top)
            best_len = 0
            best_s = -1
            for s in range(4):
                if s == trump:
                    continue
                ln = popcount_nb(side & suit_mask_nb(s))
                if ln > best_len:
                    best_len = ln
                    best_s = s
            return lowest_nb(side & suit_mask_nb(best_s))
        return low_card_nb(hand)
    if side:
        return low_card_nb(side)
    return low_card_nb(hand)


@njit(cache=True, inline="always")
def heuristic_follow_nb(hand, last, led, winner, trump, tmask, need):
    """The heuristic's card when not leading (``last``: the last to play to the trick)."""
    follow = hand & suit_mask_nb(led)
    winner_suit = winner >> 4
    if follow:
        if winner_suit == led:
            w = follow & above_nb(winner)
        else:
            w = np.int64(0)  # trumped: nothing of the led suit can win
        if need > 0:
            if w:
                return lowest_nb(w) if last else highest_nb(w)
            return lowest_nb(follow)
        u = follow & ~w
        if u:
            return highest_nb(u)
        return highest_nb(follow) if last else lowest_nb(follow)
    # void in the led suit
    trumps = hand & tmask
    side = hand & ~tmask
    if winner_suit == trump:
        w = trumps & above_nb(winner)
    else:
        w = trumps
    if need > 0:
        if w:
            return lowest_nb(w)
        if side:
            return low_card_nb(side)
        return low_card_nb(hand)
    if side:
        return high_card_nb(side)
    u = trumps & ~w
    if u:
        return highest_nb(u)
    return low_card_nb(hand)


@njit(cache=True, inline="always")
def random_card_nb(dkey, counter, legal):
    """A uniformly random card of ``legal`` (in increasing card code) for ``counter``."""
    return nth_card_nb(legal, below_nb(dkey, counter, popcount_nb(legal)))


# ----------------------------------------------------------------------------- shared pieces
# of the trick loops, the rollouts' branch set-up and the dealing of Boerenbridge and Bonken
# (inlined: each kernel compiles them into its own loop)

@njit(cache=True, inline="always")
def hand_of_cards_nb(deck, first, count):
    """The hand of the ``count`` cards ``deck[first:first + count]``."""
    m = np.int64(0)
    for i in range(first, first + count):
        m |= np.int64(1) << deck[i]
    return m


@njit(cache=True, inline="always")
def show_card_nb(c, j, p, led, voids, tc):
    """The bookkeeping the searching policies read when position ``p`` plays ``c`` as the
    ``j``-th card of the trick: a suit shown void by not following, the trick so far."""
    if j > 0 and (c >> 4) != led:
        voids[p] |= 1 << led
    tc[j] = c


@njit(cache=True, inline="always")
def branch_nb(n, world, me, hand, c, counts, tc, tn, h2, counts2, tc2):
    """The state after my candidate card ``c`` in ``world`` (hands by position): ``h2`` its
    hands with ``c`` out of mine, ``counts2`` a copy of the per-position ``counts`` (tricks
    won, scores so far), ``tc2`` the trick ``tc[:tn]`` with ``c`` added."""
    for q in range(n):
        h2[q] = world[q]
        counts2[q] = counts[q]
    h2[me] = hand & ~(np.int64(1) << c)
    for j in range(tn):
        tc2[j] = tc[j]
    tc2[tn] = c


@njit(cache=True, inline="always")
def voids_after_nb(n, voids, me, c, tc, tn, v2):
    """``v2``: the shown ``voids`` once I play ``c`` to the trick ``tc[:tn]``."""
    for q in range(n):
        v2[q] = voids[q]
    if tn > 0 and (c >> 4) != (tc[0] >> 4):
        v2[me] |= 1 << (tc[0] >> 4)


WORLD_SALT = 7_000_000   # deal-key index of a play-query world's policy randomness


@njit(cache=True, inline="always")
def query_chunk_nb(world_fn, wctx, finish_fn, pos, fctx, rv, rkey, seats, n, me, hand, cards,
                   counts, tc, tn, played, deals, lo, hi, out_logw, out_counts, out_values):
    """The play queries' loop over a chunk of worlds, written once (Boerenbridge's and
    Bonken's; the kernel runs the chunks ``lo .. hi`` in parallel, its contexts built in the
    parallel loop): world ``deals[i]`` of the run key ``rkey`` drawn by ``world_fn(wctx, rv,
    wkey, world)`` (its log weight into ``out_logw[i]``; -inf: not played), then finished
    once per candidate card ``c = cards[k]`` by ``finish_fn(pos, fctx, rv, pkey, c, hands,
    counts, played, tc, tn, scratch)`` (``rv``: the game's variant tuple) (``pos``: the position, the game's tuple), which returns my value (``out_values[i, k]``; my count, as
    the finish left it: ``out_counts[i, k]``), from the state after ``c`` (:func:`branch_nb`:
    ``hands`` and the per-position ``counts`` copied, ``tc[:tn]`` the trick with ``c``;
    ``pkey``: the world's policy key, the same for every card; ``scratch``: two rows of
    ``seats``; ``n`` of them are the positions). The outputs are arguments, not parts of a
    context tuple (numba drops writes through a tuple's array inside a parallel loop), and
    the contexts are flat tuples (a tuple taken from a tuple there trips numba's array
    analysis: so the variant tuple is an argument of its own)."""
    buf = np.empty((6, seats), dtype=np.int64)   # world, hands, counts, trick, scratch
    world, h2, counts2, tc2 = buf[0], buf[1], buf[2], buf[3]
    for i in range(lo, hi):
        wkey = deal_key_nb(rkey, deals[i])
        logw = world_fn(wctx, rv, wkey, world)
        out_logw[i] = logw
        if logw == -np.inf:
            continue
        pkey = deal_key_nb(wkey, WORLD_SALT)
        for k in range(cards.shape[0]):
            c = cards[k]
            branch_nb(n, world, me, hand, c, counts, tc, tn, h2, counts2, tc2)
            v = finish_fn(pos, fctx, rv, pkey, c, h2, counts2, played | (np.int64(1) << c), tc2,
                          tn + 1, buf[4:6])
            out_counts[i, k] = counts2[me]
            out_values[i, k] = v

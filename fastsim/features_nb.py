"""Hand features and per-row columns of the tidy results tables, and the summary sums of a
chunk, compiled: one pass over a chunk's arrays instead of a dozen numpy passes (each with
its temporaries), so a chunk's table and summary are built at kernel speed. Serial and
``nogil``: they may run in an encoding thread beside a parallel simulation kernel."""
import numpy as np
from ._jit import njit

from .bits import popcount_nb
from .play_nb import (ACE, KING, QUEEN, side_suit_value_nb, trump_bonus_nb,
                      trump_suit_value_nb)

RANK_MASK = 0x1FFF
# rows of hand_features_nb's int8 output, in this order
SMALL_FEATURES = ("trump_count", "high_trumps", "aces", "kings", "voids", "longest_suit")


@njit(cache=True, nogil=True, inline="always")
def _features_into(h, t, small, strength, i):
    """The features of hand ``h`` under trump ``t`` (−1 = none) into column ``i``; the
    strength is :func:`fastsim.play_nb.hand_value_nb`'s value computed in the same pass
    over the suits, from the same parts (``tests/test_stream_table.py`` checks it against
    ``hand_value_nb`` on every suit layout)."""
    longest = voids = aces = kings = 0
    tc = 0
    ht = 0
    e = 0
    for s in range(4):
        ranks = (h >> (16 * s)) & RANK_MASK
        length = popcount_nb(ranks)
        if length > longest:
            longest = length
        aces += (ranks >> ACE) & 1
        kings += (ranks >> KING) & 1
        if s == t:
            tc = length
            ht = popcount_nb(ranks >> 9)
            e += trump_suit_value_nb(ranks)
        else:
            voids += length == 0
            e += side_suit_value_nb(ranks, length)
    e += trump_bonus_nb(tc, voids)
    small[0, i] = tc
    small[1, i] = ht
    small[2, i] = aces
    small[3, i] = kings
    small[4, i] = voids
    small[5, i] = longest
    strength[i] = np.float32(e / 100.0)


@njit(cache=True, nogil=True)
def hand_features_nb(hands, trumps):
    """Boerenbridge hand features of ``hands`` (int64 masks) under ``trumps`` (suit per
    hand, −1 = none) → ((6, n) int8 rows in SMALL_FEATURES order, (n,) float32 strength
    = the heuristic's hand value in tricks)."""
    n = hands.shape[0]
    small = np.empty((6, n), dtype=np.int8)
    strength = np.empty(n, dtype=np.float32)
    for i in range(n):
        _features_into(hands[i], trumps[i], small, strength, i)
    return small, strength


@njit(cache=True, nogil=True)
def boerenbridge_rows_nb(deal, game, deal_no, hand_size, dealer, trump, trump_card,
                         forbidden, bids, tricks):
    """The per-(deal, seat) columns of Boerenbridge's tidy table in one pass over a chunk's
    deal arrays (``bids``, ``tricks``: (rows, n)) → (deal, game_index, deal_no, hand_size,
    dealer, seat, position, trump code (0..3, 4 = no trump), trump_card, forbidden,
    exact), each of rows·n entries (the features: :func:`hand_features_2d_nb`; one loop
    doing both measured slower than the two)."""
    rows, n = bids.shape
    m = rows * n
    o_deal = np.empty(m, dtype=np.int64)
    o_game = np.empty(m, dtype=np.int64)
    o_no = np.empty(m, dtype=np.int16)
    o_hs = np.empty(m, dtype=np.int8)
    o_dealer = np.empty(m, dtype=np.int8)
    o_seat = np.empty(m, dtype=np.int8)
    o_pos = np.empty(m, dtype=np.int8)
    o_trump = np.empty(m, dtype=np.int8)
    o_card = np.empty(m, dtype=np.int8)
    o_forb = np.empty(m, dtype=np.int8)
    o_exact = np.empty(m, dtype=np.bool_)
    for r in range(rows):
        t = np.int64(trump[r])
        code = t if t >= 0 else 4
        p = (n - 1 - np.int64(dealer[r])) % n     # position of seat 0
        for s in range(n):
            i = r * n + s
            o_deal[i] = deal[r]
            o_game[i] = game[r]
            o_no[i] = deal_no[r]
            o_hs[i] = hand_size[r]
            o_dealer[i] = dealer[r]
            o_seat[i] = s
            o_pos[i] = p
            p = p + 1 if p + 1 < n else 0
            o_trump[i] = code
            o_card[i] = trump_card[r]
            o_forb[i] = forbidden[r]
            o_exact[i] = bids[r, s] == tricks[r, s]
    return (o_deal, o_game, o_no, o_hs, o_dealer, o_seat, o_pos, o_trump, o_card, o_forb,
            o_exact)


@njit(cache=True, nogil=True)
def hand_features_2d_nb(hands, trump):
    """:func:`hand_features_nb` of (rows, n) ``hands`` under one trump suit per row
    (−1 = none), flattened row by row: no repeated trump array."""
    rows, n = hands.shape
    m = rows * n
    small = np.empty((6, m), dtype=np.int8)
    strength = np.empty(m, dtype=np.float32)
    for r in range(rows):
        t = np.int64(trump[r])
        for s in range(n):
            _features_into(hands[r, s], t, small, strength, r * n + s)
    return small, strength


@njit(cache=True, nogil=True)
def position_sums_nb(dealer, bids, tricks, scores):
    """Per position (0 = left of the dealer) the player-deal count and the sums of bids,
    tricks, scores and exact bids of (rows, n) arrays → (5, n) int64 in that order."""
    rows, n = bids.shape
    out = np.zeros((5, n), dtype=np.int64)
    for r in range(rows):
        d = np.int64(dealer[r])
        for s in range(n):
            p = s - d - 1
            while p < 0:
                p += n
            p = p % n
            b = np.int64(bids[r, s])
            k = np.int64(tricks[r, s])
            out[0, p] += 1
            out[1, p] += b
            out[2, p] += k
            out[3, p] += np.int64(scores[r, s])
            out[4, p] += b == k
    return out


@njit(cache=True, nogil=True)
def seat_sums_nb(totals, exact, winners):
    """Whole games: per seat the sums of ``totals`` and ``exact`` ((games, n) arrays), and
    the win counts by number of co-winners → ((n,) int64, (n,) int64, (n, n) int64 with
    ``wins[k-1, s]`` = games seat s won with k winners in all)."""
    games, n = totals.shape
    tot = np.zeros(n, dtype=np.int64)
    ex = np.zeros(n, dtype=np.int64)
    wins = np.zeros((n, n), dtype=np.int64)
    for g in range(games):
        k = 0
        for s in range(n):
            tot[s] += np.int64(totals[g, s])
            ex[s] += np.int64(exact[g, s])
            if winners[g, s]:
                k += 1
        if k > 0:
            for s in range(n):
                if winners[g, s]:
                    wins[k - 1, s] += 1
    return tot, ex, wins


# rows of bonken_features_nb's int8 output, in this order
BONKEN_FEATURES = ("hearts", "aces", "kings", "queens", "jacks", "king_of_hearts",
                   "longest_suit", "voids")


@njit(cache=True, nogil=True)
def bonken_features_nb(hands):
    """Bonken hand features of (rows, 4) ``hands`` flattened row by row → ((8, m) int8 rows
    in BONKEN_FEATURES order (king_of_hearts 0/1), (m,) float32 strength = the heuristic's
    hand value at no trump in tricks, (m,) int16 Domino spread = sum of |rank − 8| over
    the cards, in rank steps)."""
    rows, n = hands.shape
    m = rows * n
    small = np.empty((8, m), dtype=np.int8)
    strength = np.empty(m, dtype=np.float32)
    spread = np.empty(m, dtype=np.int16)
    for r in range(rows):
        for s in range(n):
            i = r * n + s
            h = hands[r, s]
            longest = voids = aces = kings = queens = jacks = 0
            sp = 0
            e = 0
            for u in range(4):
                ranks = (h >> (16 * u)) & RANK_MASK
                length = popcount_nb(ranks)
                if length > longest:
                    longest = length
                voids += length == 0
                aces += (ranks >> ACE) & 1
                kings += (ranks >> KING) & 1
                queens += (ranks >> QUEEN) & 1
                jacks += (ranks >> 9) & 1
                for k in range(13):
                    sp += ((ranks >> k) & 1) * abs(k - 6)
                e += side_suit_value_nb(ranks, length)
            small[0, i] = popcount_nb((h >> 16) & RANK_MASK)
            small[1, i] = aces
            small[2, i] = kings
            small[3, i] = queens
            small[4, i] = jacks
            small[5, i] = (h >> 27) & 1
            small[6, i] = longest
            small[7, i] = voids
            strength[i] = np.float32(e / 100.0)     # no trump: no trump bonuses
            spread[i] = sp
    return small, strength, spread


@njit(cache=True, nogil=True)
def bonken_sums_nb(dealer, contract, scores, tricks, loser, n_contracts):
    """Bonken's summary sums of a chunk: per contract the rounds, per (contract,
    position) the score and trick sums, per position the Domino losers (the seat left
    holding cards, positions 0 = left of the dealer) → (rounds (C,), score (C, 4),
    tricks (C, 4), losers (4,)), int64; a Domino round is one whose ``loser`` seat is
    ≥ 0 (−1 in every other contract)."""
    rows, n = scores.shape
    rounds = np.zeros(n_contracts, dtype=np.int64)
    sc = np.zeros((n_contracts, n), dtype=np.int64)
    tr = np.zeros((n_contracts, n), dtype=np.int64)
    losers = np.zeros(n, dtype=np.int64)
    for r in range(rows):
        c = np.int64(contract[r])
        d = np.int64(dealer[r])
        rounds[c] += 1
        for s in range(n):
            p = (s - d - 1) % n
            sc[c, p] += np.int64(scores[r, s])
            tr[c, p] += np.int64(tricks[r, s])
        if loser[r] >= 0:
            losers[(np.int64(loser[r]) - d - 1) % n] += 1
    return rounds, sc, tr, losers

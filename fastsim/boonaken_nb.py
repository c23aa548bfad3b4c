"""Boonaken kernels (docs/rules.md §4, presets seed / pagat / leimuiden): roem and melds, the deal
layout, the auction, exchange and trump, play with drawing, results, matches.

In short: 32 cards, 2–5 players each for themselves, 6 cards each plus open/blind table cards.
Trump J 9 A K Q T 8 7 (20 14 11 3 2 10), plain A K Q J T 9 8 7 (11 3 2 1 10). Players bid
points (25..380), misère (no trick; others may join), zwabber (all tricks, no trump) or
boonaak (all tricks, own trump); the declarer exchanges with the table, names trump and
leads. A point bid is made when card points + roem reach it. Exact details and the policies:
``docs/boonaken.md``. Per-player arrays are indexed by *position* (0 = left of the dealer).
"""
import numpy as np
from ._jit import njit, prange

from .bits import popcount_nb, lowest_nb, suit_mask_nb, RANK_MASK
from .play_nb import branch_nb, random_card_nb
from .trick import table_value_nb, beats_ranked_nb
from .rng import run_key_nb, deal_key_nb, below_nb, shuffle_nb
from .refs_nb import borrow_nb, keep_nb
from .pimc_nb import decision_key_nb, draw_world_nb, list_cards_nb, best_index_nb
from .boonaken_schema import (
    TRUMP_STRENGTH, PLAIN_STRENGTH, TRUMP_POINTS, PLAIN_POINTS, LADDER_VALUE, MISERE, ZWABBER,
    BOONAAK, LAYOUT_OPEN, LAYOUT_BLIND, POLICY_RANDOM, POLICY_PIMC, POLICY_STRONG,
    STRONG_CARD_FACTOR, CTR_AUCTION, CTR_AUCTION_PICK,
    CTR_EXCHANGE, CTR_TRUMP, CTR_PLAY, PRESET_SEED, PRESET_LEIMUIDEN, MAX_AUCTION, MAX_TRICKS,
    CONTRACT_POINTS, CONTRACT_MISERE, CONTRACT_ZWABBER, CONTRACT_BOONAAK, MATCH_STRIDE,
    MAX_MATCH_DEALS,
)

TRUMP_STRENGTH8 = TRUMP_STRENGTH + 8   # a trump outranks every plain card
from .cards import DECK32, FULL32 as _FULL32  # noqa: E402
FULL32 = np.int64(_FULL32)


def _run_tables():
    """Per 13-bit rank set: (sum of maximal runs, largest run, run holding Q and K), for the
    normal run values and for leimuiden (6 in a row = 100)."""
    vals = [{3: 20, 4: 50, 5: 100, 6: 200}, {3: 20, 4: 50, 5: 100, 6: 100}]
    tsum = np.zeros((2, 1 << 13), dtype=np.int64)
    tmax = np.zeros((2, 1 << 13), dtype=np.int64)
    tkq = np.zeros((2, 1 << 13), dtype=np.int64)
    for x in range(1 << 13):
        runs = []
        r = 0
        while r < 13:
            if x >> r & 1:
                s = r
                while r < 13 and x >> r & 1:
                    r += 1
                runs.append((s, r - s))
            else:
                r += 1
        for k in range(2):
            for s, ln in runs:
                if ln >= 3:
                    v = vals[k][min(ln, 6)]
                    tsum[k, x] += v
                    tmax[k, x] = max(tmax[k, x], v)
                    if s <= 10 and s + ln - 1 >= 11:
                        tkq[k, x] = v
    return tsum, tmax, tkq


RUN_SUM, RUN_MAX, RUN_KQ = _run_tables()


# ----------------------------------------------------------------------------- cards

@njit(cache=True, inline="always")
def strength_nb(card, trump):
    """0..7 within the suit, +8 for a trump."""
    return table_value_nb(card, trump, TRUMP_STRENGTH8, PLAIN_STRENGTH)


@njit(cache=True, inline="always")
def points_nb(card, trump):
    return table_value_nb(card, trump, TRUMP_POINTS, PLAIN_POINTS)


@njit(cache=True, inline="always")
def beats_nb(card, winner, led, trump):
    return beats_ranked_nb(card, winner, trump, TRUMP_STRENGTH, PLAIN_STRENGTH)


@njit(cache=True)
def mask_points_nb(cards, trump):
    p = 0
    x = cards
    while x:
        p += points_nb(lowest_nb(x), trump)
        x &= x - 1
    return p


@njit(cache=True)
def _fours_nb(cards):
    v = 0
    common = cards & (cards >> 16) & (cards >> 32) & (cards >> 48) & RANK_MASK
    while common:
        r = lowest_nb(common)
        common &= common - 1
        if r == 9:
            v += 200
        elif r >= 10:
            v += 100
    return v


@njit(cache=True)
def roem_sum_nb(cards, trump, lm):
    """All runs + all four-of-a-kinds + stuk (pagat/leimuiden roem of the kept hand)."""
    v = _fours_nb(cards)
    for s in range(4):
        v += RUN_SUM[lm, (cards >> (16 * s)) & RANK_MASK]
    if trump >= 0 and ((cards >> (16 * trump + 10)) & 3) == 3:
        v += 20
    return v


@njit(cache=True)
def best_meld_nb(cards, trump, lm):
    """The largest single meld: a run (+20 with the trump K and Q in it), a four of a kind,
    or a lone stuk."""
    best = 0
    common = cards & (cards >> 16) & (cards >> 32) & (cards >> 48) & RANK_MASK
    while common:
        r = lowest_nb(common)
        common &= common - 1
        v = 200 if r == 9 else (100 if r >= 10 else 0)
        best = max(best, v)
    for s in range(4):
        ranks = (cards >> (16 * s)) & RANK_MASK
        best = max(best, RUN_MAX[lm, ranks])
        if s == trump and ((ranks >> 10) & 3) == 3:
            kq = RUN_KQ[lm, ranks]
            best = max(best, kq + 20 if kq > 0 else 20)
    return best


# ----------------------------------------------------------------------------- heuristics

@njit(cache=True, inline="always")
def _bonus_nb(card, trump, n):
    r = card & 15
    if card >> 4 == trump:
        return 4 * (n - 1) if (r == 9 or r == 7 or r == 12) else 0
    return 4 * (n - 1) if r == 12 else 0


# what _six_nb keeps (the key it ranks the cards by, ties: lower card code)
SIX_BEST = 0     # the largest points + win bonus, ties: stronger
SIX_LOW = 1      # the weakest plain cards
SIX_HIGH = 2     # the strongest plain cards


@njit(cache=True, inline="always")
def _six_nb(holding, trump, n, mode):
    """The 6 cards of ``holding`` with the largest key of ``mode`` (one of ``SIX_*``)."""
    keep = np.int64(0)
    for _ in range(min(6, popcount_nb(holding))):
        best = -1
        best_k = -1
        x = holding & ~keep
        while x:
            c = lowest_nb(x)
            x &= x - 1
            if mode == SIX_BEST:
                k = ((points_nb(c, trump) + _bonus_nb(c, trump, n)) * 16 + strength_nb(c, trump)) * 64 + (63 - c)
            else:
                st = PLAIN_STRENGTH[c & 15]
                k = ((7 - st) if mode == SIX_LOW else st) * 64 + (63 - c)
            if k > best_k:
                best_k = k
                best = c
        keep |= np.int64(1) << best
    return keep


@njit(cache=True)
def best_six_nb(holding, trump, n):
    """The 6 cards of ``holding`` with the largest points + win bonus (ties: stronger, then
    lower card code)."""
    return _six_nb(holding, trump, n, SIX_BEST)


@njit(cache=True)
def extreme_six_nb(holding, low):
    """The 6 weakest (``low``) or strongest plain cards (ties: lower card code)."""
    return _six_nb(holding, -1, 0, SIX_LOW if low else SIX_HIGH)


@njit(cache=True)
def value_nb(cards, trump, n, preset):
    v = 0
    x = cards
    while x:
        c = lowest_nb(x)
        x &= x - 1
        v += points_nb(c, trump) + _bonus_nb(c, trump, n)
    lm = 1 if preset == PRESET_LEIMUIDEN else 0
    if preset == PRESET_SEED:
        v += best_meld_nb(cards, trump, lm)
    else:
        v += roem_sum_nb(cards, trump, lm)
    return v


@njit(cache=True)
def best_trump_nb(holding, n, preset):
    """(suit, E) with the largest value of the best six under it (ties: lower suit)."""
    bt = 0
    be = -1
    for t in range(4):
        e = value_nb(best_six_nb(holding, t, n), t, n, preset)
        if e > be:
            be = e
            bt = t
    return bt, be


@njit(cache=True)
def wants_nb(hand):
    """(boonaak, zwabber, misère) wishes of the heuristic bidder."""
    boon = False
    for s in range(4):
        if ((hand >> (16 * s + 9)) & 1) and ((hand >> (16 * s + 7)) & 1) and ((hand >> (16 * s + 12)) & 1):
            other = hand & ~(np.int64(1) << (16 * s + 9)) & ~(np.int64(1) << (16 * s + 7)) \
                & ~(np.int64(1) << (16 * s + 12))
            ok = True
            x = other
            while x:
                c = lowest_nb(x)
                x &= x - 1
                if (c >> 4) != s and (c & 15) != 12:
                    ok = False
            if ok:
                boon = True
    # zwabber: with every card, every stronger plain rank (up to A) of its suit; enough to
    # test each suit's lowest card
    zw = True
    for s in range(4):
        ranks = (hand >> (16 * s)) & RANK_MASK
        if ranks:
            above = RANK_MASK & ~((2 << lowest_nb(ranks)) - 1) & (0x1FE0)
            if (ranks & above) != above:
                zw = False
    mis = True
    nines = 0
    x = hand
    while x:
        c = lowest_nb(x)
        x &= x - 1
        r = c & 15
        if r > 7:
            mis = False
        if r == 7:
            nines += 1
    if nines > 1:
        mis = False
    return boon, zw, mis


NO_WISH = -2      # wanted_call_nb: no boonaak, zwabber or misère to call


@njit(cache=True, inline="always")
def wanted_call_nb(wb, wz, wm, standing, can_join):
    """The heuristic bidder's all-tricks / no-trick call at the standing level ``standing``
    for the wishes of :func:`wants_nb` (``can_join``: a misère stands that it may join), or
    ``NO_WISH``."""
    call = NO_WISH
    if wb and standing < BOONAAK:
        call = BOONAAK
    elif wz and standing < ZWABBER:
        call = ZWABBER
    elif wm and (standing < MISERE or can_join):
        call = MISERE
    return call


@njit(cache=True, inline="always")
def next_level_nb(standing):
    """The next point level above ``standing`` (-1: none left)."""
    lvl = standing + 1
    while lvl <= 73 and (lvl == MISERE or lvl == ZWABBER):
        lvl += 1
    return lvl if standing < 73 and lvl <= 73 else -1


@njit(cache=True, inline="always")
def declarer_roem_nb(n, preset, decl, mine, hands, keep, trump):
    """The roem a points contract's declarer counts: in the seed preset the best meld of
    ``mine`` when no other position's ``hands[p]`` holds a better one (else none); in the
    other presets the roem of the kept cards ``keep``."""
    lm = 1 if preset == PRESET_LEIMUIDEN else 0
    if preset == PRESET_SEED:
        best = best_meld_nb(mine, trump, lm)
        for p in range(n):
            if p != decl and best_meld_nb(hands[p], trump, lm) > best:
                return 0
        return best
    return roem_sum_nb(keep, trump, lm)


@njit(cache=True, inline="always")
def heuristic_call_nb(wb, wz, wm, est, standing, can_join):
    """The heuristic bidder's call at the standing level: its all-tricks / no-trick wish
    (:func:`wanted_call_nb`), else the next point level while that level's value is at most
    its estimate ``est``, else a pass (-1)."""
    action = wanted_call_nb(wb, wz, wm, standing, can_join)
    if action == NO_WISH:
        lvl = next_level_nb(standing)
        action = lvl if lvl >= 0 and LADDER_VALUE[lvl] <= est else -1
    return action


@njit(cache=True, inline="always")
def auction_next_nb(n, passed, in_mis, standing, holder, turn):
    """Who calls next in the auction, from position ``turn`` on: -2 when everyone has passed
    (no game), -1 when it is over (only the standing bid's holder, or its misère players,
    have not passed), else the position."""
    n_active = 0
    n_open_players = 0
    for p in range(n):
        if not passed[p]:
            n_active += 1
            if not (standing >= 0 and (p == holder or (standing == MISERE and in_mis[p]))):
                n_open_players += 1
    if n_active == 0:
        return -2
    if standing >= 0 and n_open_players == 0:
        return -1
    q = turn % n
    while passed[q] or (standing >= 0 and (q == holder or (standing == MISERE and in_mis[q]))):
        q = (q + 1) % n
    return q


@njit(cache=True, inline="always")
def apply_call_nb(n, q, action, passed, in_mis, mis, standing, holder, n_mis):
    """Position ``q``'s call ``action`` applied to the auction (-1: a pass; ``MISERE`` while
    a misère stands that ``q`` has not bid: a join; else a new standing level); ``passed``,
    ``in_mis`` and ``mis`` (the misère players in order) change in place. Returns
    (standing, holder, n_mis). The engine, strong's replay and its look-ahead call it."""
    can_join = standing == MISERE and not in_mis[q]
    if action < 0:
        passed[q] = True
    elif action == MISERE and can_join:
        mis[n_mis] = q
        n_mis += 1
        in_mis[q] = True
    else:
        standing = action
        holder = q
        for p in range(n):
            in_mis[p] = False
        n_mis = 0
        if action == MISERE:
            mis[0] = q
            n_mis = 1
            in_mis[q] = True
    return standing, holder, n_mis


@njit(cache=True, inline="always")
def estimate_nb(hand, open_mask, n, preset):
    """The heuristic bidder's estimate: (4·E) // 5, E the best value of six of ``hand`` and
    the open table cards."""
    t, e = best_trump_nb(hand | open_mask, n, preset)
    return (e * 4) // 5


# ----------------------------------------------------------------------------- rules

@njit(cache=True)
def legal_nb(hand, led, trump, hi, preset):
    """Legal cards; ``hi`` = the strongest trump in the trick so far (-1 if none)."""
    if led < 0:
        return hand
    tm = suit_mask_nb(trump) if trump >= 0 else np.int64(0)
    trumps = hand & tm
    if preset != PRESET_LEIMUIDEN:
        follow = hand & suit_mask_nb(led)
        if follow:
            return follow
        if trumps:
            return trumps
        return hand
    if led == trump:
        jack = np.int64(1) << (16 * trump + 9)
        return trumps if (trumps & ~jack) else hand
    follow = hand & suit_mask_nb(led)
    legal = (follow | trumps) if follow else hand
    if trump >= 0 and hi >= 0:
        low = np.int64(0)
        x = trumps
        while x:
            c = lowest_nb(x)
            x &= x - 1
            if strength_nb(c, trump) < strength_nb(hi, trump):
                low |= np.int64(1) << c
        if legal & ~low:
            legal &= ~low
    return legal


@njit(cache=True, inline="always")
def _pick(cards, trump, mode):
    """mode 0: lowest strength; 1: highest strength; 2: fewest points; 3: most points (ties:
    lower strength, then lower card code)."""
    best = -1
    best_k = 0
    x = cards
    while x:
        c = lowest_nb(x)
        x &= x - 1
        st = strength_nb(c, trump)
        if mode == 0:
            k = -st * 64 - c
        elif mode == 1:
            k = st * 64 - c
        elif mode == 2:
            k = -(points_nb(c, trump) * 16 + st) * 64 - c
        else:
            k = (points_nb(c, trump) * 16 - st) * 64 - c
        if best < 0 or k > best_k:
            best_k = k
            best = c
    return best


# what the heuristic plays for (``mode`` of heuristic_card_nb; docs/boonaken.md)
PLAY_TAKE = 0          # take tricks: point bids, zwabber, boonaak (either side)
PLAY_AVOID = 1         # a misère player: take no trick
PLAY_FEED_WINNER = 2   # a misère defender, a misère player winning this trick: let him
PLAY_FEED_AFTER = 3    # a misère defender, a misère player still to play: keep the trick low
PLAY_FEED_DONE = 4     # a misère defender, the misère players beaten in this trick: unload


@njit(cache=True, inline="always")
def play_mode_nb(contract, in_mis, p, j, n, leader, wpos):
    """The heuristic's aim for position ``p``, ``j``-th to play in a trick led by
    ``leader`` and won so far by ``wpos``: in a misère the defenders try to hand the misère
    players a trick."""
    if contract != CONTRACT_MISERE:
        return PLAY_TAKE
    if in_mis[p]:
        return PLAY_AVOID
    if j > 0 and in_mis[wpos]:
        return PLAY_FEED_WINNER
    for k in range(j + 1, n):
        if in_mis[(leader + k) % n]:
            return PLAY_FEED_AFTER
    return PLAY_FEED_DONE


@njit(cache=True, inline="always")
def _not_beating(legal, winner, led, trump):
    u = np.int64(0)
    x = legal
    while x:
        c = lowest_nb(x)
        x &= x - 1
        if not beats_nb(c, winner, led, trump):
            u |= np.int64(1) << c
    return u


@njit(cache=True)
def heuristic_card_nb(hand, legal, j, n, led, winner, trump, mode, unseen):
    if mode == PLAY_AVOID:
        if j == 0:
            return _pick(hand, trump, 0)
        u = _not_beating(legal, winner, led, trump)
        if u:
            return _pick(u, trump, 1)
        return _pick(legal, trump, 1 if j == n - 1 else 0)
    if mode >= PLAY_FEED_WINNER:
        if j == 0:                      # lead low: the misère player must go under it
            return _pick(legal, trump, 0)
        u = _not_beating(legal, winner, led, trump)
        if mode == PLAY_FEED_WINNER:    # he wins it: stay under, unloading high cards
            return _pick(u if u else legal, trump, 1)
        if mode == PLAY_FEED_AFTER:     # keep the card to beat as low as it is
            return _pick(u, trump, 1) if u else _pick(legal, trump, 0)
        return _pick(legal, trump, 1)   # the trick is lost for him: unload the highest
    if j == 0:
        top = np.int64(0)
        x = hand
        while x:
            c = lowest_nb(x)
            x &= x - 1
            s = c >> 4
            st = strength_nb(c, trump)
            y = unseen & suit_mask_nb(s)
            stronger = False
            while y:
                d = lowest_nb(y)
                y &= y - 1
                if strength_nb(d, trump) > st:
                    stronger = True
                    break
            if not stronger:
                top |= np.int64(1) << c
        if top:
            return _pick(top, trump, 3)
        return _pick(hand, trump, 2)
    w = np.int64(0)
    x = legal
    while x:
        c = lowest_nb(x)
        x &= x - 1
        if beats_nb(c, winner, led, trump):
            w |= np.int64(1) << c
    if w:
        return _pick(w, trump, 0)
    return _pick(legal, trump, 2)


# ----------------------------------------------------------------------------- the trick loop
# The pieces of a trick every Boonaken play loop is made of (the engine's play_contract_nb,
# the heuristic rollout_nb, the play query's rollout_policy_nb and decide_card_nb): inlined
# where they are called (numba IR), so one text serves them all at no cost in speed.

@njit(cache=True, inline="always")
def trick_step_nb(c, j, p, led, winner, wpos, hi, trick, trump):
    """The trick's (led suit, winning card, winner, highest trump, card mask) after card
    ``c``, the ``j``-th of the trick, played by ``p``."""
    trick |= np.int64(1) << c
    if j == 0:
        led = c >> 4
        winner = c
        wpos = p
    elif beats_nb(c, winner, led, trump):
        winner = c
        wpos = p
    if trump >= 0 and (c >> 4) == trump and (hi < 0 or strength_nb(c, trump) > strength_nb(hi, trump)):
        hi = c
    return led, winner, wpos, hi, trick


@njit(cache=True, inline="always")
def trick_state_nb(tc, tn, trump):
    """(led, winner card, winner's index in the trick, highest trump, trick mask) of
    ``tc[:tn]`` exactly as the play loops track them (-1s when empty)."""
    led = -1
    winner = -1
    wj = -1
    hi = -1
    trick = np.int64(0)
    for j in range(tn):
        led, winner, wj, hi, trick = trick_step_nb(tc[j], j, j, led, winner, wj, hi, trick, trump)
    return led, winner, wj, hi, trick


@njit(cache=True, inline="always")
def trick_begin_nb(tc, tn, t, t0, leader, n, trump):
    """A trick of a loop resumed at trick ``t0`` with ``tc[:tn]`` on the table: (first
    index to play, led, winner card, winner's position, highest trump, trick mask)."""
    start = tn if t == t0 else 0
    led, winner, wj, hi, trick = trick_state_nb(tc, start, trump)
    return start, led, winner, (leader + wj) % n if wj >= 0 else -1, hi, trick


@njit(cache=True, inline="always")
def turn_nb(hands, leader, j, n, led, trump, hi, preset):
    """Who plays the ``j``-th card of a trick led by ``leader``: (position, hand, legal
    cards)."""
    p = (leader + j) % n
    h = hands[p]
    return p, h, legal_nb(h, led, trump, hi, preset)


@njit(cache=True, inline="always")
def lay_card_nb(c, j, t, named, trump, led, winner, wpos, p, hi, trick, h, void, played):
    """``p`` (holding ``h``, shown ``void``) plays ``c`` as the ``j``-th card of trick ``t``:
    an unnamed trump is the suit of the first card, a shown void is noted, the card leaves
    the hand. Returns (trump, played, led, winner, wpos, hi, trick, hand, void); scalars
    only, so that no array is handed on in the loop."""
    if t == 0 and j == 0 and not named:
        trump = c >> 4
    if j > 0 and (c >> 4) != led:
        void |= 1 << led
    played |= np.int64(1) << c
    led, winner, wpos, hi, trick = trick_step_nb(c, j, p, led, winner, wpos, hi, trick, trump)
    return trump, played, led, winner, wpos, hi, trick, h & ~(np.int64(1) << c), void


@njit(cache=True, inline="always")
def end_trick_nb(n, preset, hands, deck, stock_pos, leader, wpos, trick, trump, won, cpts):
    """The trick goes to ``wpos``; in the seed preset, while the stock lasts, everyone draws
    one card from ``deck[stock_pos:]`` in playing order. Returns (stock_pos, next leader)."""
    won[wpos] += 1
    cpts[wpos] += mask_points_nb(trick, trump)
    if preset == PRESET_SEED and 32 - stock_pos >= n:
        for j in range(n):
            hands[(leader + j) % n] |= np.int64(1) << deck[stock_pos]
            stock_pos += 1
    return stock_pos, wpos


@njit(cache=True, inline="always")
def searches_nb(pol, legal, named, t, j):
    """Does policy ``pol`` search (pimc, strong) for this card? Not with one legal card, nor
    for the first card of a deal whose trump it names."""
    return (pol == POLICY_PIMC or pol == POLICY_STRONG) and popcount_nb(legal) > 1 \
        and (named or t > 0 or j > 0)


@njit(cache=True)
def search_card_nb(pol, dkey, n, preset, p, h, legal, hands, deck, stock_pos, trump, t, leader,
                   tc, j, played, known, pinned, decl, contract, bid, my_roem, in_mis, won,
                   cpts, voids, worlds, open_mask, rest_at, auc, nauc, played_at, played_pos):
    """The card of a searching policy (:func:`searches_nb`): pimc, or strong over
    ``STRONG_CARD_FACTOR × worlds`` worlds (its auction weighting reads the last six).
    Not inlined: a call of more than 30 arguments cannot be (CPython passes them as
    ``*args``), and next to a search the call costs nothing."""
    if pol == POLICY_PIMC:
        return pimc_card_nb(dkey, n, preset, p, h, legal, hands, deck, stock_pos, trump, t,
                            leader, tc, j, played, known, pinned, decl, contract, bid, my_roem,
                            in_mis, won, cpts, voids, worlds)
    return strong.strong_card_nb(dkey, n, preset, p, h, legal, hands, deck, stock_pos, trump, t,
                                 leader, tc, j, played, known, pinned, decl, contract, bid,
                                 my_roem, in_mis, won, cpts, voids, STRONG_CARD_FACTOR * worlds,
                                 open_mask, rest_at, auc, nauc, played_at, played_pos)


@njit(cache=True, inline="always")
def plain_card_nb(pol, dkey, p, h, legal, j, n, t, led, winner, trump, mode, played):
    """The card of a policy that does not search here: random, else the heuristic (aiming
    for ``mode``, :func:`play_mode_nb`)."""
    if pol == POLICY_RANDOM:
        return random_card_nb(dkey, CTR_PLAY + 8 * t + p, legal)
    return heuristic_card_nb(h, legal, j, n, led, winner, trump, mode, FULL32 & ~(h | played))


# ----------------------------------------------------------------------------- one deal

# fields of the per-deal integer record ``info``
I_VOID, I_CONTRACT, I_LEVEL, I_BID, I_DECL, I_NMIS, I_TRUMP, I_NAMED, I_ROEM, I_NTRICKS, \
    I_NAUCTION, I_TAKEN, I_DISCARDED, I_OPEN, I_BLIND, I_STOCK, I_SLEEP = range(17)
N_INFO = 17


@njit(cache=True)
def play_deal_nb(dkey, n, preset, pol, worlds, deck, hands, info, mis, won, cpts, result,
                 rec_auction, rec_cards, rec_lead, rec_win, rec_draw, rec_deck, record):
    """Deal, auction, exchange, play and judge one deal among ``n`` positions. Every field
    of ``info`` starts at 0, so a passed-out deal leaves no field of an earlier one (the
    caller reuses the buffer within a chunk)."""
    info[:] = 0
    for i in range(32):          # a loop, not ``deck[:] = DECK32``: numba compiles a
        deck[i] = DECK32[i]      # shape-error message for an array-to-slice copy (seconds)
    shuffle_nb(dkey, 0, deck, 0, 31, 32)
    if record:
        for i in range(32):
            rec_deck[i] = deck[i]
    for p in range(n):
        m = np.int64(0)
        for i in range(6 * p, 6 * p + 6):
            m |= np.int64(1) << deck[i]
        hands[p] = m
        won[p] = 0
        cpts[p] = 0
        result[p] = -1
    base = 6 * n
    n_open = LAYOUT_OPEN[preset, n]
    n_blind = LAYOUT_BLIND[preset, n]
    if preset == 1 and n <= 4:          # pagat: blind cards first, then the open ones
        blind_at = base
        open_at = base + n_blind
    else:
        open_at = base
        blind_at = base + n_open
    open_mask = np.int64(0)
    for i in range(open_at, open_at + n_open):
        open_mask |= np.int64(1) << deck[i]
    blind_mask = np.int64(0)
    for i in range(blind_at, blind_at + n_blind):
        blind_mask |= np.int64(1) << deck[i]
    rest_at = base + n_open + n_blind
    rest = np.int64(0)
    for i in range(rest_at, 32):
        rest |= np.int64(1) << deck[i]
    info[I_OPEN] = open_mask
    info[I_BLIND] = blind_mask
    if preset == PRESET_SEED:
        info[I_STOCK] = rest
        info[I_SLEEP] = 0
    else:
        info[I_STOCK] = 0
        info[I_SLEEP] = rest

    # ---- auction
    passed = np.zeros(5, dtype=np.bool_)
    in_mis = np.zeros(5, dtype=np.bool_)
    wants = np.zeros((5, 3), dtype=np.bool_)      # wants_nb: boonaak, zwabber, misère
    est = np.zeros(5, dtype=np.int64)
    # the auction as the strong policy's world weighting reads it (only with strong seats)
    any_strong = False
    for p in range(n):
        if pol[p] == POLICY_STRONG:
            any_strong = True
    auc = np.empty((MAX_AUCTION if any_strong else 1, 2), dtype=np.int64)
    for p in range(n):
        if pol[p] != POLICY_RANDOM:
            wants[p, 0], wants[p, 1], wants[p, 2] = wants_nb(hands[p])
            est[p] = estimate_nb(hands[p], open_mask, n, preset)
    standing = -1
    holder = -1
    n_mis = 0
    k = 0
    turn = 0
    void = False
    while True:
        q = auction_next_nb(n, passed, in_mis, standing, holder, turn)
        if q < 0:
            void = q == -2
            break
        can_join = standing == MISERE and not in_mis[q]
        action = -1      # -1 pass, 0..74 a level (16 as a join when can_join)
        if pol[q] == POLICY_STRONG:
            action = strong.strong_bid_nb(dkey, n, preset, q, hands[q], open_mask, auc, k,
                                          worlds)
        elif pol[q] == POLICY_RANDOM:
            if below_nb(dkey, CTR_AUCTION + k, 2) == 1:
                count = (1 if can_join else 0) + (74 - standing)
                if count > 0:
                    i = below_nb(dkey, CTR_AUCTION_PICK + k, count)
                    if can_join:
                        action = MISERE if i == 0 else standing + i
                    else:
                        action = standing + 1 + i
        else:
            action = heuristic_call_nb(wants[q, 0], wants[q, 1], wants[q, 2], est[q], standing,
                                       can_join)
        if record and k < MAX_AUCTION:
            rec_auction[k, 0] = q
            rec_auction[k, 1] = action
        if k < auc.shape[0]:
            auc[k, 0] = q
            auc[k, 1] = action
        standing, holder, n_mis = apply_call_nb(n, q, action, passed, in_mis, mis, standing,
                                                holder, n_mis)
        k += 1
        turn = q + 1
    info[I_NAUCTION] = k
    info[I_VOID] = void
    if void:
        return
    decl = holder
    if standing == MISERE:
        contract = CONTRACT_MISERE
    elif standing == ZWABBER:
        contract = CONTRACT_ZWABBER
    elif standing == BOONAAK:
        contract = CONTRACT_BOONAAK
    else:
        contract = CONTRACT_POINTS
    info[I_CONTRACT] = contract
    info[I_LEVEL] = standing
    info[I_BID] = LADDER_VALUE[standing]
    info[I_DECL] = decl
    info[I_NMIS] = n_mis

    play_contract_nb(dkey, n, preset, pol, deck, hands, info, mis, n_mis, in_mis, won, cpts,
                     result, decl, contract, standing, open_mask, blind_mask, open_at, n_open,
                     rest_at, -2, worlds, rec_cards, rec_lead, rec_win, rec_draw, record, auc,
                     min(k, auc.shape[0]) if any_strong else 0)


@njit(cache=True)
def rollout_nb(n, preset, hands, deck, stock_pos, trump, t0, leader, tc, tn, played, contract,
               in_mis, won, cpts):
    """Finish a deal with the heuristic for everyone (drawing from ``deck`` in the seed
    preset) from trick ``t0`` led by ``leader`` with ``tc[:tn]`` on the table."""
    t = t0
    while hands[leader] != 0 or (t == t0 and tn > 0):
        start, led, winner, wpos, hi, trick = trick_begin_nb(tc, tn, t, t0, leader, n, trump)
        for j in range(start, n):
            p, h, legal = turn_nb(hands, leader, j, n, led, trump, hi, preset)
            c = heuristic_card_nb(h, legal, j, n, led, winner, trump,
                                  play_mode_nb(contract, in_mis, p, j, n, leader, wpos),
                                  FULL32 & ~(h | played))
            hands[p] = h & ~(np.int64(1) << c)
            played |= np.int64(1) << c
            led, winner, wpos, hi, trick = trick_step_nb(c, j, p, led, winner, wpos, hi, trick,
                                                        trump)
        stock_pos, leader = end_trick_nb(n, preset, hands, deck, stock_pos, leader, wpos, trick,
                                         trump, won, cpts)
        t += 1
        if t >= MAX_TRICKS:
            break


@njit(cache=True)
def world_capacity_nb(n, preset, me, hands, stock_pos, pinned, decl, unseen):
    """How many ``unseen`` cards each holder gets in a pimc world: the other hands at their
    sizes (less the declarer's ``pinned`` table cards), the stock (index ``n``, seed
    preset) and the rest out of play (index 8)."""
    cap = np.zeros(9, dtype=np.int64)
    for q in range(n):
        if q != me:
            cap[q] = popcount_nb(hands[q])
    if decl != me:
        cap[decl] -= popcount_nb(pinned & hands[decl])
    n_stock = 32 - stock_pos if preset == PRESET_SEED else 0
    cap[n] = n_stock                      # the stock as an extra holder
    total = 0
    for q in range(n + 1):
        if q != me:
            total += cap[q]
    cap[8] = popcount_nb(unseen) - total
    return cap


@njit(cache=True, inline="always")
def lay_stock_nb(wkey, salt, stock, deck2, stock_pos):
    """A world's sampled ``stock`` into ``deck2[stock_pos:]``, in an order shuffled by key
    ``wkey`` from counter ``salt``."""
    list_cards_nb(stock, deck2[stock_pos:])
    shuffle_nb(wkey, salt, deck2, stock_pos, 31, 32)


@njit(cache=True, inline="always")
def resume_nb(n, me, hand, c, world, tc, tn, won, cpts, h2, w2, p2, tc2):
    """Where a rollout of ``me`` playing ``c`` starts: the world's hands (``me``'s own
    ``hand`` less ``c``) into ``h2``, the tricks and points so far into ``w2``/``p2``, the
    trick ``tc[:tn]`` with ``c`` added into ``tc2`` (:func:`fastsim.play_nb.branch_nb`, with
    the points as a second count)."""
    branch_nb(n, world, me, hand, c, won, tc, tn, h2, w2, tc2)
    for q in range(n):
        p2[q] = cpts[q]


@njit(cache=True)
def world_scores_nb(wkey, world, n, preset, me, hand, cards, n_legal, deck2, stock_pos, trump, t,
                    leader, tc, tn, played, decl, contract, bid, my_roem, in_mis, won, cpts,
                    out):
    """``out[k]`` = the score of ``cards[k]`` (k < ``n_legal``) in one world (``world[q]``:
    position q's hand, ``world[n]``: the stock, laid in ``deck2`` in an order shuffled by
    ``wkey``), the deal finished by the heuristic for everyone. The arguments and the
    scratch (one allocation) are borrowed: no reference counts per card (fastsim.refs_nb)."""
    world, cards, deck2, tc = borrow_nb(world), borrow_nb(cards), borrow_nb(deck2), borrow_nb(tc)
    in_mis, won, cpts, out = borrow_nb(in_mis), borrow_nb(won), borrow_nb(cpts), borrow_nb(out)
    own = np.zeros(20, dtype=np.int64)
    buf = borrow_nb(own)
    h2, w2, p2, tc2 = buf[0:5], buf[5:10], buf[10:15], buf[15:20]
    lay_stock_nb(wkey, 1000, world[n], deck2, stock_pos)
    for kk in range(n_legal):
        c = cards[kk]
        resume_nb(n, me, hand, c, world, tc, tn, won, cpts, h2, w2, p2, tc2)
        rollout_nb(n, preset, h2, deck2, stock_pos, trump, t, leader, tc2, tn + 1,
                   played | (np.int64(1) << c), contract, in_mis, w2, p2)
        tricks_all = 0
        for q in range(n):
            tricks_all += w2[q]
        made = 0
        if contract == CONTRACT_POINTS:
            made = 1 if p2[decl] + (my_roem if me == decl else 0) >= bid else 0
        elif contract == CONTRACT_MISERE:
            for q in range(n):
                if in_mis[q] and w2[q] == 0 and (q == me or not in_mis[me]):
                    made += 1
        else:
            made = 1 if w2[decl] == tricks_all else 0
        mine = (me == decl and contract != CONTRACT_MISERE) or (contract == CONTRACT_MISERE and in_mis[me])
        if contract == CONTRACT_MISERE and in_mis[me]:
            v = 1000 * (1 if w2[me] == 0 else 0)
        elif mine:
            v = 1000 * made + (p2[decl] if contract == CONTRACT_POINTS else 0)
        else:
            v = -1000 * made - (p2[decl] if contract == CONTRACT_POINTS else 0)
        out[kk] = v
    keep_nb(own)


@njit(cache=True)
def card_scores_nb(base, n, preset, me, hand, cards, n_legal, hands, deck, stock_pos, trump, t,
                   leader, tc, tn, played, unseen, cap, pinned, decl, contract, bid, my_roem,
                   in_mis, won, cpts, voids, worlds, totals):
    """Add to ``totals[k]`` the score of ``cards[k]`` (k < ``n_legal``) over ``worlds``
    worlds drawn from key ``base`` (``unseen`` cards dealt to the holders' capacities
    ``cap``), each finished by the heuristic (the body of :func:`pimc_card_nb`). The
    arguments and the scratch are borrowed: no reference counts per world (fastsim.refs_nb)."""
    cards, hands, tc, cap = borrow_nb(cards), borrow_nb(hands), borrow_nb(tc), borrow_nb(cap)
    in_mis, won, cpts = borrow_nb(in_mis), borrow_nb(won), borrow_nb(cpts)
    voids, totals = borrow_nb(voids), borrow_nb(totals)
    own = np.zeros(8 + 8 + 15, dtype=np.int64)
    buf = borrow_nb(own)
    world, vv, v = buf[0:8], buf[8:16], buf[16:31]
    deck2_own = deck.copy()
    deck2 = borrow_nb(deck2_own)
    for q in range(n):
        vv[q] = voids[q]
    for w in range(worlds):
        wkey = deal_key_nb(base, w)
        draw_world_nb(wkey, n + 1, me, hand, unseen, cap, vv, world)
        if decl != me:
            world[decl] |= pinned & hands[decl]
        world_scores_nb(wkey, world, n, preset, me, hand, cards, n_legal, deck2, stock_pos,
                        trump, t, leader, tc, tn, played, decl, contract, bid, my_roem, in_mis,
                        won, cpts, v)
        for kk in range(n_legal):
            totals[kk] += v[kk]
    keep_nb(own)
    keep_nb(deck2_own)


@njit(cache=True)
def pimc_card_nb(dkey, n, preset, me, hand, legal, hands, deck, stock_pos, trump, t, leader, tc,
                 tn, played, known_out, pinned, decl, contract, bid, my_roem, in_mis, won, cpts,
                 voids, worlds):
    """pimc: every legal card scored over ``worlds`` sampled deals of what ``me`` cannot see
    (the other hands at their sizes, the stock in a random order, the rest out of play; shown
    voids respected; cards the declarer took from the open table stay in the declarer's
    hand), each finished by the heuristic. Objective: a declarer (or misère player) wants to
    make it (and card points on a point bid); everyone else wants the contracts to fail."""
    unseen = FULL32 & ~(hand | played | known_out | pinned)
    cap = world_capacity_nb(n, preset, me, hands, stock_pos, pinned, decl, unseen)
    cards = np.empty(15, dtype=np.int64)
    totals = np.zeros(15, dtype=np.int64)
    n_legal = list_cards_nb(legal, cards)
    card_scores_nb(decision_key_nb(dkey, t, me), n, preset, me, hand, cards, n_legal, hands,
                   deck, stock_pos, trump, t, leader, tc, tn, played, unseen, cap, pinned, decl,
                   contract, bid, my_roem, in_mis, won, cpts, voids, worlds, totals)
    return cards[best_index_nb(totals, n_legal)]


@njit(cache=True, inline="always")
def trump_named_nb(contract, preset, n_mis):
    """Does the declarer name trump in this contract? Point bids and boonaak; a lone
    misère in leimuiden."""
    return contract == CONTRACT_POINTS or contract == CONTRACT_BOONAAK or (
        contract == CONTRACT_MISERE and preset == PRESET_LEIMUIDEN and n_mis == 1)


@njit(cache=True)
def fewest_suit_nb(keep):
    """The suit with the fewest cards of ``keep`` (ties: the lowest): the heuristic's trump
    of a lone leimuiden misère."""
    bt = 0
    bc = 99
    for s in range(4):
        cnt = popcount_nb(keep & suit_mask_nb(s))
        if cnt < bc:
            bc = cnt
            bt = s
    return bt


@njit(cache=True)
def heuristic_exchange_nb(holding, contract, n, preset, n_mis, fixed_trump):
    """The heuristic declarer's (six kept cards, trump; -1: none) from ``holding`` (its
    hand and the table cards it may take): point bids and boonaak keep the best six under
    the suit with the best estimate (or ``fixed_trump`` >= 0) and name it; misère keeps the
    six weakest plain cards (a lone leimuiden misère names the suit it holds fewest of);
    zwabber the six strongest."""
    if contract == CONTRACT_POINTS or contract == CONTRACT_BOONAAK:
        if fixed_trump >= 0:
            t = fixed_trump
        else:
            t, e = best_trump_nb(holding, n, preset)
        return best_six_nb(holding, t, n), t
    if contract == CONTRACT_MISERE:
        keep = extreme_six_nb(holding, True)
        if preset == PRESET_LEIMUIDEN and n_mis == 1:
            return keep, fewest_suit_nb(keep)
        return keep, -1
    return extreme_six_nb(holding, False), -1


@njit(cache=True)
def play_contract_nb(dkey, n, preset, pol, deck, hands, info, mis, n_mis, in_mis, won, cpts,
                     result, decl, contract, standing, open_mask, blind_mask, open_at, n_open,
                     rest_at, fixed_trump, worlds, rec_cards, rec_lead, rec_win, rec_draw,
                     record, auc, nauc):
    """Exchange, trump, play and results of a contract won by position ``decl``.
    ``fixed_trump`` >= 0 makes a heuristic declarer of a point bid or boonaak exchange for
    and name that suit (the bid query evaluates every suit); -2: the policy decides.
    ``auc[:nauc]``: the auction as (position, level or -1) rows, for strong seats."""
    # the arguments, borrowed (fastsim.refs_nb): no reference counts for the policies' calls
    pol, deck, hands, info = borrow_nb(pol), borrow_nb(deck), borrow_nb(hands), borrow_nb(info)
    mis, in_mis, won, cpts = borrow_nb(mis), borrow_nb(in_mis), borrow_nb(won), borrow_nb(cpts)
    result, rec_cards, rec_lead = borrow_nb(result), borrow_nb(rec_cards), borrow_nb(rec_lead)
    rec_win, rec_draw, auc = borrow_nb(rec_win), borrow_nb(rec_draw), borrow_nb(auc)
    lm = 1 if preset == PRESET_LEIMUIDEN else 0
    for p in range(n):
        won[p] = 0
        cpts[p] = 0
        result[p] = -1
    # ---- exchange and trump
    hand = hands[decl]
    table = open_mask | (blind_mask if preset != PRESET_SEED else np.int64(0))
    holding = hand | table
    trump = -1
    named = True
    if pol[decl] == POLICY_RANDOM:
        if preset == PRESET_SEED:
            cur = hand
            for i in range(n_open):          # the open cards in deal order
                c = deck[open_at + i]
                if below_nb(dkey, CTR_EXCHANGE + 2 * i, 2) == 1:
                    idx = below_nb(dkey, CTR_EXCHANGE + 2 * i + 1, 6)
                    y = cur
                    for _ in range(idx):
                        y &= y - 1
                    cur = (cur & ~(np.int64(1) << lowest_nb(y))) | (np.int64(1) << c)
            keep = cur
        else:
            cur = holding
            kk = popcount_nb(table)
            for i in range(kk):
                idx = below_nb(dkey, CTR_EXCHANGE + i, popcount_nb(cur))
                y = cur
                for _ in range(idx):
                    y &= y - 1
                cur &= ~(np.int64(1) << lowest_nb(y))
            keep = cur
        if contract == CONTRACT_POINTS or contract == CONTRACT_BOONAAK:
            t = below_nb(dkey, CTR_TRUMP, 5)
            if t < 4:
                trump = t
            else:
                named = False
        elif contract == CONTRACT_MISERE and preset == PRESET_LEIMUIDEN and n_mis == 1:
            trump = below_nb(dkey, CTR_TRUMP, 4)
    elif pol[decl] == POLICY_STRONG and fixed_trump == -2:
        # the exchange searched, then the trump for the six kept (same worlds)
        blind = table & ~open_mask
        keep = strong.strong_exchange_nb(dkey, n, preset, decl, hand, open_mask, blind, contract,
                                         standing, mis, n_mis, auc, nauc, worlds)
        if trump_named_nb(contract, preset, n_mis):
            trump = strong.strong_trump_nb(dkey, n, preset, decl, hand, open_mask, blind,
                                           contract, standing, mis, n_mis, auc, nauc, worlds,
                                           keep)
    else:
        keep, trump = heuristic_exchange_nb(holding, contract, n, preset, n_mis, fixed_trump)
    info[I_TAKEN] = keep & table
    info[I_DISCARDED] = hand & ~keep
    hands_now_own = hands.copy()
    hands_now = borrow_nb(hands_now_own)
    hands_now[decl] = keep

    # ---- play
    played = np.int64(0)
    stock_pos = rest_at
    leader = decl if contract != CONTRACT_MISERE else mis[0]
    t = 0
    # scratch: one allocation, borrowed (fastsim.refs_nb)
    nh = hands_now.shape[0]
    own = np.empty(nh + 5 + 5 + 64 + 64, dtype=np.int64)
    buf = borrow_nb(own)
    first_hands, voids, tc = buf[0:nh], buf[nh:nh + 5], buf[nh + 5:nh + 10]
    # per card: the trick it was played in and by whom (-1: not played), for strong seats
    played_at, played_pos = buf[nh + 10:nh + 74], buf[nh + 74:nh + 138]
    for q in range(nh):
        first_hands[q] = hands_now[q]
    for q in range(5):
        voids[q] = 0
    for c in range(64):
        played_at[c] = -1
        played_pos[c] = -1
    untaken = open_mask & ~keep
    pinned = keep & table
    my_roem = 0
    if contract == CONTRACT_POINTS and trump >= 0:
        my_roem = best_meld_nb(keep, trump, lm) if preset == PRESET_SEED else roem_sum_nb(keep, trump, lm)
    bid = LADDER_VALUE[standing]
    while hands_now[leader] != 0 and t < MAX_TRICKS:
        led, winner, wpos, hi, trick = trick_state_nb(tc, 0, trump)     # an empty trick
        for j in range(n):
            p, h, legal = turn_nb(hands_now, leader, j, n, led, trump, hi, preset)
            if searches_nb(pol[p], legal, named, t, j):
                known = untaken | (info[I_DISCARDED] if p == decl else np.int64(0))
                c = search_card_nb(pol[p], dkey, n, preset, p, h, legal, hands_now, deck,
                                   stock_pos, trump, t, leader, tc, j, played, known,
                                   pinned & ~played, decl, contract, bid, my_roem, in_mis, won,
                                   cpts, voids, worlds, open_mask, rest_at, auc, nauc, played_at,
                                   played_pos)
            else:
                c = plain_card_nb(pol[p], dkey, p, h, legal, j, n, t, led, winner, trump,
                                  play_mode_nb(contract, in_mis, p, j, n, leader, wpos), played)
            played_at[c] = t
            played_pos[c] = p
            if record:
                rec_cards[t, j] = c
            tc[j] = c
            trump, played, led, winner, wpos, hi, trick, hands_now[p], voids[p] = lay_card_nb(
                c, j, t, named, trump, led, winner, wpos, p, hi, trick, h, voids[p], played)
        if record:
            rec_lead[t] = leader
            rec_win[t] = wpos
        drawn_at = stock_pos
        stock_pos, leader = end_trick_nb(n, preset, hands_now, deck, stock_pos, leader, wpos,
                                         trick, trump, won, cpts)
        if record:
            for j in range(stock_pos - drawn_at):
                rec_draw[t, j] = deck[drawn_at + j]
        t += 1
    info[I_NTRICKS] = t
    info[I_TRUMP] = trump
    info[I_NAMED] = named

    # ---- results
    roem = 0
    if contract == CONTRACT_POINTS:
        roem = declarer_roem_nb(n, preset, decl, first_hands[decl], first_hands, keep, trump)
        result[decl] = 1 if cpts[decl] + roem >= LADDER_VALUE[standing] else 0
    elif contract == CONTRACT_MISERE:
        for i in range(n_mis):
            result[mis[i]] = 1 if won[mis[i]] == 0 else 0
    else:
        result[decl] = 1 if won[decl] == t else 0
    info[I_ROEM] = roem
    keep_nb(own)
    keep_nb(hands_now_own)


# ----------------------------------------------------------------------------- runs

@njit(cache=True, inline="always")
def deal_buffers_nb():
    """A chunk's scratch for play_deal_nb: (deck, hands, info, mis, won, cpts, result, pol)."""
    return (np.empty(32, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.zeros(N_INFO, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64))


@njit(cache=True, parallel=True)
def run_deals_nb(seed, n, preset, dealer, seat_pol, worlds, start, count, chunk,
                 o_info, o_hands, o_mis, o_won, o_cpts, o_result,
                 record, r_auction, r_cards, r_lead, r_win, r_draw, r_deck):
    """Independent deals ``start ..`` with a fixed dealer; per-seat outputs."""
    rkey = run_key_nb(seed)
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        deck, hands, info, mis, won, cpts, res, pol = deal_buffers_nb()
        for p in range(n):
            pol[p] = seat_pol[(dealer + 1 + p) % n]
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            dkey = deal_key_nb(rkey, start + i)
            ri = i if record else 0
            play_deal_nb(dkey, n, preset, pol, worlds, deck, hands, info, mis, won, cpts, res,
                         r_auction[ri], r_cards[ri], r_lead[ri], r_win[ri], r_draw[ri],
                         r_deck[ri], record)
            for f in range(N_INFO):
                o_info[i, f] = info[f]
            for p in range(n):
                s = (dealer + 1 + p) % n
                o_hands[i, s] = hands[p]
                o_won[i, s] = won[p]
                o_cpts[i, s] = cpts[p]
                o_result[i, s] = res[p]
            for q in range(info[I_NMIS]):
                o_mis[i, q] = (dealer + 1 + mis[q]) % n
            for q in range(info[I_NMIS], 5):
                o_mis[i, q] = -1


@njit(cache=True, parallel=True)
def run_matches_nb(seed, n0, preset, first_dealer, seat_pol, worlds, start, count, chunk,
                   m_deals, m_winner, m_status, m_plus, m_walk, m_first_dealer):
    """Whole matches. seed/pagat: the first seat to two + wins (``m_winner``); leimuiden:
    the ±1 walk, ``m_status`` 1 safe, −1 pays, 0 undecided. Matches start with the dealer
    rotating from ``first_dealer`` by match index so positions are balanced."""
    rkey = run_key_nb(seed)
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        deck, hands, info, mis, won, cpts, res, pol = deal_buffers_nb()
        seats = np.zeros(5, dtype=np.int64)
        plus = np.zeros(5, dtype=np.int64)
        walk = np.zeros(5, dtype=np.int64)
        active = np.zeros(5, dtype=np.bool_)
        da = np.zeros((1, 2), dtype=np.int64)
        dc = np.zeros((1, 5), dtype=np.int64)
        dl = np.zeros(1, dtype=np.int64)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            m = start + i
            dealer = (first_dealer + m) % n0
            m_first_dealer[i] = dealer
            for s in range(n0):
                plus[s] = 0
                walk[s] = 0
                active[s] = True
            winner = -1
            k = 0
            while k < MAX_MATCH_DEALS:
                # the active seats, listed from left of the dealer
                n = 0
                for off in range(1, n0 + 1):
                    s = (dealer + off) % n0
                    if active[s]:
                        seats[n] = s
                        n += 1
                if preset == PRESET_LEIMUIDEN and n <= 1:
                    break
                for p in range(n):
                    pol[p] = seat_pol[seats[p]]
                dkey = deal_key_nb(rkey, m * MATCH_STRIDE + k)
                play_deal_nb(dkey, n, preset, pol, worlds, deck, hands, info, mis, won, cpts, res,
                             da, dc, dl, dl, dc, dl, False)
                k += 1
                if info[I_VOID]:
                    continue      # the same dealer redeals
                if preset != PRESET_LEIMUIDEN:
                    for p in range(n):
                        if res[p] == 1:
                            plus[seats[p]] += 1
                    for p in range(n):      # nearest the dealer's left first
                        if plus[seats[p]] >= 2:
                            winner = seats[p]
                            break
                    if winner >= 0:
                        break
                else:
                    if info[I_CONTRACT] == CONTRACT_MISERE and info[I_NMIS] > 1:
                        for q in range(info[I_NMIS]):
                            p = mis[q]
                            walk[seats[p]] += 1 if res[p] == 1 else -1
                    else:
                        d = info[I_DECL]
                        made = res[d] == 1
                        for p in range(n):
                            if p == d:
                                walk[seats[p]] += 1 if made else -1
                            else:
                                walk[seats[p]] += -1 if made else 1
                    for p in range(n):
                        s = seats[p]
                        if walk[s] >= 2 or walk[s] <= -2:
                            active[s] = False
                # the deal passes to the next active player
                nd = (dealer + 1) % n0
                while not active[nd] and nd != dealer:
                    nd = (nd + 1) % n0
                dealer = nd
            m_deals[i] = k
            m_winner[i] = winner
            for s in range(n0):
                m_plus[i, s] = plus[s]
                m_walk[i, s] = walk[s]
                m_status[i, s] = 1 if walk[s] >= 2 else (-1 if walk[s] <= -2 else 0)


# ----------------------------------------------------------------------------- bid advice

@njit(cache=True, parallel=True)
def bid_query_nb(seed, n, preset, my_hand, open_cards, unseen, others_pol, worlds, start, count,
                 chunk,
                 out_points, out_allwin, out_misere, out_zwabber):
    """For sample ``start + i``: deal ``unseen`` to the other positions, the blind and the
    rest; I (position 0) declare and lead. Plays: a point bid with each suit as trump
    (``out_points[i, t]`` = my card points + counted roem, ``out_allwin[i, t]`` = I took every
    trick: the boonaak test), a misère alone and a zwabber."""
    rkey = run_key_nb(seed)
    U = unseen.shape[0]
    n_open = open_cards.shape[0]
    n_blind = LAYOUT_BLIND[preset, n]
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        pool = np.empty(U, dtype=np.int64)
        deck, hands, info, mis, won, cpts, res, pol = deal_buffers_nb()
        dealt = np.zeros(5, dtype=np.int64)
        in_mis = np.zeros(5, dtype=np.bool_)
        pol[:] = others_pol
        pol[0] = 1 - POLICY_RANDOM
        d2 = np.zeros((1, 5), dtype=np.int64)
        d1 = np.zeros(1, dtype=np.int64)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            dkey = deal_key_nb(rkey, start + i)
            pool[:] = unseen
            shuffle_nb(dkey, 0, pool, 0, U - 1, U)
            # lay the deck out as the deal would: hands, table, rest
            x = my_hand
            for k in range(6):
                deck[k] = lowest_nb(x)
                x &= x - 1
            q = 0
            for k in range(6, 6 * n):
                deck[k] = pool[q]
                q += 1
            base = 6 * n
            if preset == 1 and n <= 4:
                open_at = base + n_blind
                blind_at = base
            else:
                open_at = base
                blind_at = base + n_open
            for k in range(n_open):
                deck[open_at + k] = open_cards[k]
            for k in range(n_blind):
                deck[blind_at + k] = pool[q]
                q += 1
            rest_at = base + n_open + n_blind
            for k in range(rest_at, 32):
                deck[k] = pool[q]
                q += 1
            open_mask = np.int64(0)
            for k in range(n_open):
                open_mask |= np.int64(1) << open_cards[k]
            blind_mask = np.int64(0)
            for k in range(n_blind):
                blind_mask |= np.int64(1) << deck[blind_at + k]
            for p in range(n):
                m = np.int64(0)
                for k in range(6 * p, 6 * p + 6):
                    m |= np.int64(1) << deck[k]
                dealt[p] = m
            for p in range(5):
                in_mis[p] = False
            for ev in range(6):
                for p in range(n):
                    hands[p] = dealt[p]
                n_mis = 0
                if ev < 4:
                    contract = CONTRACT_POINTS
                    ft = ev
                elif ev == 4:
                    contract = CONTRACT_MISERE
                    ft = -2
                    mis[0] = 0
                    n_mis = 1
                    in_mis[0] = True
                else:
                    contract = CONTRACT_ZWABBER
                    ft = -2
                    in_mis[0] = False
                play_contract_nb(dkey, n, preset, pol, deck, hands, info, mis, n_mis, in_mis,
                                 won, cpts, res, 0, contract, 0, open_mask, blind_mask, open_at,
                                 n_open, rest_at, ft, worlds, d2, d1, d1, d2, False, d2, 0)
                if ev < 4:
                    out_points[i, ev] = cpts[0] + info[I_ROEM]
                    out_allwin[i, ev] = won[0] == info[I_NTRICKS]
                elif ev == 4:
                    out_misere[i] = won[0] == 0
                else:
                    out_zwabber[i] = won[0] == info[I_NTRICKS]


@njit(cache=True, parallel=True)
def mask_points_many_nb(hands, trumps):
    """Card points of many card sets, each under its trump (-1: none)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in prange(hands.shape[0]):
        out[i] = mask_points_nb(hands[i], trumps[i])
    return out


@njit(cache=True, nogil=True)
def mask_points_serial_nb(hands, trumps):
    """:func:`mask_points_many_nb` on one thread, ``nogil``: the results path runs it in an
    encoding thread beside a parallel simulation kernel (which numba's workqueue layer
    does not allow for a second parallel kernel)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = mask_points_nb(hands[i], trumps[i])
    return out


# the strong policy uses the functions above; its module is imported last so that both
# modules load without a cycle at import time
from . import boonaken_strong_nb as strong  # noqa: E402

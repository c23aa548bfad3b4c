"""Klaverjassen kernels (Rotterdam rules, docs/rules.md §2): legality, roem, the deal, calling,
play policies, scoring and the 16-deal boompje.

In short: 32 cards, 4 players in teams 0+2 / 1+3, 8 cards each. Trump order J 9 A T K Q 8 7
(20 14 11 10 4 3 0 0 points), plain A T K Q J 9 8 7 (11 10 4 3 2). Players name trump or pass
from left of the dealer (forced call when all pass); left of the dealer leads. Follow suit;
when trump is led, overtrump if able; when void, trump — overtrumping if able, even over
the partner — and undertrump only when holding nothing else. Roem in each trick goes to
its winner. Playing team not strictly ahead: *nat* (0 for them, 162 + all roem for the
defenders); all 8 tricks: *pit*, +100. Variants: amsterdam, undertrump=forced,
four_of_a_kind=all_100. Exact details: ``docs/klaverjassen.md``.

Arrays are per *position* (0 = left of the dealer) unless named per seat or per team.
"""
import numpy as np
from ._jit import njit, prange

from .bits import popcount_nb, lowest_nb, suit_mask_nb, RANK_MASK
from .play_nb import random_card_nb
from .trick import table_value_nb, beats_ranked_nb
from .rng import run_key_nb, deal_key_nb, below_nb, rand_nb, shuffle_nb
from .bidmodel_nb import CTR_THIN, pass_loglik_nb, uniform_nb
from .refs_nb import borrow_nb, keep_nb
from .pimc_nb import decision_key_nb, draw_world_nb, list_cards_nb, best_index_nb
from .klaverjassen_schema import (
    TRUMP_STRENGTH, PLAIN_STRENGTH, TRUMP_POINTS, PLAIN_POINTS, TRUMP_ABOVE, PLAIN_ABOVE,
    CALL_TRUMP_VALUE, CALL_THRESHOLD, POLICY_RANDOM, POLICY_PIMC, POLICY_STRONG, CTR_CALL, CTR_FORCED, CTR_PLAY,
    LAST_TRICK, TOTAL_POINTS, PIT_BONUS, GAME_DEALS, MAX_GAME_DEALS, GAME_STRIDE,
    F_AMSTERDAM, F_UNDERTRUMP_FORCED, F_ALL_100,
)

def _run_value(x):
    longest = 0
    while x:
        x &= x << 1
        longest += 1
    return 50 if longest >= 4 else (20 if longest == 3 else 0)


# roem of a run, by the 13-bit rank set of one suit in a trick
RUN_VALUE = np.array([_run_value(x) for x in range(1 << 13)], dtype=np.int64)
TRUMP_STRENGTH8 = TRUMP_STRENGTH + 8   # a trump outranks every plain card
from .cards import DECK32, FULL32 as _FULL32  # noqa: E402
FULL32 = np.int64(_FULL32)


# ----------------------------------------------------------------------------- cards

@njit(cache=True, inline="always")
def strength_nb(card, trump):
    """0..7 within the suit, +8 for a trump."""
    return table_value_nb(card, trump, TRUMP_STRENGTH8, PLAIN_STRENGTH)


@njit(cache=True, inline="always")
def points_nb(card, trump):
    return table_value_nb(card, trump, TRUMP_POINTS, PLAIN_POINTS)


@njit(cache=True, inline="always")
def above_nb(card, trump):
    """Cards of ``card``'s suit that are stronger (by this game's orders)."""
    s = card >> 4
    r = card & 15
    if s == trump:
        return TRUMP_ABOVE[r] << (16 * s)
    return PLAIN_ABOVE[r] << (16 * s)


@njit(cache=True, inline="always")
def beats_nb(card, winner, led, trump):
    """Does ``card`` beat the current winning ``winner`` card (trick led in ``led``)?"""
    return beats_ranked_nb(card, winner, trump, TRUMP_STRENGTH, PLAIN_STRENGTH)


# ----------------------------------------------------------------------------- rules

@njit(cache=True)
def legal_nb(hand, led, trump, hi_trump, partner_winning, rv):
    """Legal cards (mask). ``led`` = -1 when leading; ``hi_trump`` = the highest trump in
    the trick so far (card code) or -1; ``rv``: the variant tuple (``Rules.flags``; every
    kernel takes it whole and passes it down, and the rule that a variant changes reads
    its entry where it is applied, as here ``rv[F_AMSTERDAM]``)."""
    if led < 0:
        return hand
    tmask = suit_mask_nb(trump)
    trumps = hand & tmask
    follow = hand & suit_mask_nb(led)
    if led != trump and follow:
        return follow
    if led == trump:
        if trumps:
            above = trumps & above_nb(hi_trump, trump)
            return above if above else trumps
        return hand
    if not trumps:
        return hand
    above = trumps if hi_trump < 0 else trumps & above_nb(hi_trump, trump)
    side = hand & ~tmask
    if rv[F_AMSTERDAM] and partner_winning:
        return (side | above) if side else trumps
    if above:
        return above
    if rv[F_UNDERTRUMP_FORCED]:
        return trumps
    return side if side else trumps


@njit(cache=True, inline="always")
def four_value_nb(r, rv):
    """Roem of the four cards of rank index ``r`` (0 = two … 12 = ace): four jacks 200; four
    tens, queens, kings or aces 100; four sevens, eights or nines nothing; every four 100
    under ``four_of_a_kind=all_100``. The one place this rule is written: the double-dummy
    solver's trick roem, bounds and equivalent-card test call it too."""
    if rv[F_ALL_100]:
        return 100
    if r == 9:
        return 200
    if r >= 8:                 # T Q K A (J above)
        return 100
    return 0


@njit(cache=True)
def roem_parts_nb(cards, trump, rv):
    """Roem of the cards (mask) of one trick: (run value, stuk value, four-of-a-kind value)."""
    s0 = cards & RANK_MASK
    s1 = (cards >> 16) & RANK_MASK
    s2 = (cards >> 32) & RANK_MASK
    s3 = (cards >> 48) & RANK_MASK
    run = max(max(RUN_VALUE[s0], RUN_VALUE[s1]), max(RUN_VALUE[s2], RUN_VALUE[s3]))
    stuk = 0
    if trump >= 0 and ((cards >> (16 * trump + 10)) & 3) == 3:
        stuk = 20
    four = 0
    common = s0 & s1 & s2 & s3
    if common:
        four = four_value_nb(lowest_nb(common), rv)
    return run, stuk, four


@njit(cache=True, inline="always")
def roem_nb(cards, trump, rv):
    a, b, c = roem_parts_nb(cards, trump, rv)
    return a + b + c


# ----------------------------------------------------------------------------- policies

@njit(cache=True, inline="always")
def follow_nb(c, j, p, led, winner, win_pos, hi, trump):
    """The trick once position ``p`` plays card ``c`` as its ``j``-th card: (suit led,
    winning card, its position, highest trump; -1 where none). The one rule by which every
    play loop tracks a trick."""
    if j == 0:
        led = c >> 4
        winner = c
        win_pos = p
    elif beats_nb(c, winner, led, trump):
        winner = c
        win_pos = p
    if c >> 4 == trump and (hi < 0 or strength_nb(c, trump) > strength_nb(hi, trump)):
        hi = c
    return led, winner, win_pos, hi


@njit(cache=True, inline="always")
def bank_trick_nb(t, tp, trick, win_pos, trump, rv, team_of_pos, won, team_cp, team_rm):
    """Bank trick ``t`` (cards ``trick``, card points ``tp``) to its winner ``win_pos``:
    its trick, its points (the last trick's 10 added) and roem. Returns (points, roem)."""
    if t == 7:
        tp += LAST_TRICK
    rm = roem_nb(trick, trump, rv)
    won[win_pos] += 1
    team_cp[team_of_pos[win_pos]] += tp
    team_rm[team_of_pos[win_pos]] += rm
    return tp, rm


@njit(cache=True)
def call_value_nb(hand, s):
    """The heuristic's value of ``hand`` with suit ``s`` as trump."""
    v = 0
    nt = 0
    for q in range(4):
        ranks = (hand >> (16 * q)) & RANK_MASK
        if q == s:
            nt = popcount_nb(ranks)
            x = ranks
            while x:
                v += CALL_TRUMP_VALUE[lowest_nb(x)]
                x &= x - 1
        else:
            if ranks & (1 << 12):
                v += 20
            if ranks & (1 << 8):
                v += 10 if ranks & (1 << 12) else 5
            if ranks & (1 << 11):
                v += 2
    if nt > 3:
        v += 10 * (nt - 3)
    return v


@njit(cache=True)
def heuristic_call_nb(hand, pos, forced):
    """Suit named, or -1 to pass."""
    best = 0
    best_v = call_value_nb(hand, 0)
    for s in range(1, 4):
        v = call_value_nb(hand, s)
        if v > best_v:
            best_v = v
            best = s
    if forced or best_v >= CALL_THRESHOLD[pos]:
        return best
    return -1


@njit(cache=True, inline="always")
def _better(v, st, c, best_v, best_st, best_c):
    """Is (v, strength, card) preferred: larger v, then lower strength, then lower code."""
    if v != best_v:
        return v > best_v
    if st != best_st:
        return st < best_st
    return c < best_c


@njit(cache=True, inline="always")
def nat_defence_nb(team_cp, team_rm, playing, team):
    """Does a player of ``team`` defend for nat now: ``team`` defends and the playing team's
    banked card points and roem do not exceed half of 162 + the roem made so far
    (``2 cp[P] + rm[P] <= 162 + rm[D]``, completed tricks only; docs/klaverjassen.md)."""
    return team != playing and \
        2 * team_cp[playing] + team_rm[playing] <= TOTAL_POINTS + team_rm[1 - playing]


@njit(cache=True)
def heuristic_play_nb(hand, legal, j, led, trump, winner, win_mine, partner_winning,
                      trick, trick_points, my_team_plays, unseen, rv, nat_defence):
    """The heuristic card (docs/klaverjassen.md). ``winner``: current winning card (-1 when
    leading); ``win_mine``: is the current winner me or my partner; ``trick``: mask of the
    cards on the table; ``unseen``: cards not in my hand and not played; ``nat_defence``:
    :func:`nat_defence_nb` for me now (the defenders' nat rule)."""
    tmask = suit_mask_nb(trump)
    if j == 0:
        trumps = hand & tmask
        if my_team_plays and trumps and (unseen & tmask):
            # my highest trump
            best = -1
            best_st = -1
            x = trumps
            while x:
                c = lowest_nb(x)
                x &= x - 1
                st = strength_nb(c, trump)
                if st > best_st:
                    best_st = st
                    best = c
            if (unseen & above_nb(best, trump)) == 0:
                return best
        side = hand & ~tmask
        best = -1
        best_v = 0
        best_st = 0
        x = side
        while x:
            c = lowest_nb(x)
            x &= x - 1
            if (unseen & above_nb(c, trump)) == 0:
                v = points_nb(c, trump)
                st = strength_nb(c, trump)
                if best < 0 or _better(v, st, c, best_v, best_st, best):
                    best, best_v, best_st = c, v, st
        if best >= 0:
            return best
        pool = side if side else hand
        x = pool
        while x:
            c = lowest_nb(x)
            x &= x - 1
            v = -points_nb(c, trump)
            st = strength_nb(c, trump)
            if best < 0 or _better(v, st, c, best_v, best_st, best):
                best, best_v, best_st = c, v, st
        return best
    last = j == 3
    partner_top = partner_winning and (unseen & above_nb(winner, trump)) == 0
    best = -1
    best_v = 0
    best_st = 0
    any_win = False
    x = legal
    while x:
        c = lowest_nb(x)
        x &= x - 1
        if beats_nb(c, winner, led, trump):
            any_win = True
            break
    # nat defence: following a led non-trump suit with a winning card, a top winner first
    sure = nat_defence and led != trump and (legal & suit_mask_nb(led)) != 0
    x = legal
    while x:
        c = lowest_nb(x)
        x &= x - 1
        st = strength_nb(c, trump)
        pc = points_nb(c, trump)
        r = roem_nb(trick | (np.int64(1) << c), trump, rv)
        wins = beats_nb(c, winner, led, trump)
        if last:
            p = trick_points + pc + r
            v = p if (wins or win_mine) else -p
        elif partner_top:
            v = pc + r - (30 if (c >> 4) == trump else 0)
        elif any_win:
            if not wins:
                continue
            v = 1 if sure and (unseen & above_nb(c, trump)) == 0 else 0
        else:
            v = -(pc + r)
        if best < 0 or _better(v, st, c, best_v, best_st, best):
            best, best_v, best_st = c, v, st
    return best


# ----------------------------------------------------------------------------- one deal

@njit(cache=True)
def deal32_nb(dkey, deck, hands):
    for i in range(32):          # a loop, not ``deck[:] = DECK32``: numba compiles a
        deck[i] = DECK32[i]      # shape-error message for an array-to-slice copy (seconds)
    shuffle_nb(dkey, 0, deck, 0, 31, 32)
    for p in range(4):
        m = np.int64(0)
        for i in range(8 * p, 8 * p + 8):
            m |= np.int64(1) << deck[i]
        hands[p] = m


@njit(cache=True)
def call_trump_nb(dkey, hands, pol, rec_calls, rv, worlds):
    """Calling round; returns (trump, caller position, forced, number of calls)."""
    for p in range(4):
        if pol[p] == POLICY_RANDOM:
            k = below_nb(dkey, CTR_CALL + p, 5)
            s = k if k < 4 else -1
        elif pol[p] == POLICY_STRONG:
            s = strong.strong_call_nb(dkey, p, hands[p], False, rv, worlds, strong.STRONG_TAU)
        else:
            s = heuristic_call_nb(hands[p], p, False)
        rec_calls[p] = s
        if s >= 0:
            return s, p, False, p + 1
    if pol[0] == POLICY_RANDOM:
        s = below_nb(dkey, CTR_FORCED, 4)
    elif pol[0] == POLICY_STRONG:
        s = strong.strong_call_nb(dkey, 0, hands[0], True, rv, worlds, strong.STRONG_TAU)
    else:
        s = heuristic_call_nb(hands[0], 0, True)
    rec_calls[4] = s
    return s, 0, True, 5


@njit(cache=True)
def rollout_nb(hands, trump, team_of_pos, playing, t0, leader, tc, tn, played, rv, won, team_cp,
               team_rm):
    """Finish a deal with the heuristic for everyone from trick ``t0`` led by ``leader``
    with ``tc[:tn]`` already on the table; adds to ``won``, ``team_cp`` and ``team_rm``."""
    for t in range(t0, 8):
        led = -1
        winner = -1
        win_pos = -1
        hi = -1
        trick = np.int64(0)
        tp = 0
        start = tn if t == t0 else 0
        nat_on = nat_defence_nb(team_cp, team_rm, playing, 1 - playing)   # once per trick
        for j in range(4):
            p = (leader + j) & 3
            if j < start:
                c = tc[j]
            else:
                hand = hands[p]
                pw = win_pos >= 0 and team_of_pos[win_pos] == team_of_pos[p]
                legal = legal_nb(hand, led, trump, hi, pw, rv)
                c = heuristic_play_nb(hand, legal, j, led, trump, winner, pw, pw, trick, tp,
                                      team_of_pos[p] == playing, FULL32 & ~(hand | played),
                                      rv, nat_on and team_of_pos[p] != playing)
                hands[p] = hand & ~(np.int64(1) << c)
                played |= np.int64(1) << c
            trick |= np.int64(1) << c
            tp += points_nb(c, trump)
            led, winner, win_pos, hi = follow_nb(c, j, p, led, winner, win_pos, hi, trump)
        bank_trick_nb(t, tp, trick, win_pos, trump, rv, team_of_pos, won, team_cp, team_rm)
        leader = win_pos


@njit(cache=True, inline="always")
def my_card_nb(c, me, hand, world, won, team_cp, team_rm, tc, tn, played, h2, w2, cp, rm, tc2):
    """The position after position ``me`` plays ``c`` to ``tc[:tn]`` in ``world`` (the
    hidden hands), written into the scratch arrays ``h2`` (hands), ``w2`` (tricks won),
    ``cp``/``rm`` (team card points and roem) and ``tc2`` (the trick); returns the cards
    out of play."""
    for q in range(4):
        h2[q] = world[q]
        w2[q] = won[q]
    h2[me] = hand & ~(np.int64(1) << c)
    for x in range(2):
        cp[x] = team_cp[x]
        rm[x] = team_rm[x]
    for j in range(tn):
        tc2[j] = tc[j]
    tc2[tn] = c
    return played | (np.int64(1) << c)


@njit(cache=True)
def card_margins_nb(world, me, hand, cards, n_legal, trump, team_of_pos, playing, t, leader, tc,
                    tn, played, won, team_cp, team_rm, rv, h2, w2, cp, rm, tt, sc, tc2, out):
    """``out[k]``: my team's banked score minus the other team's when I play ``cards[k]``
    to ``tc[:tn]`` in ``world`` (the hidden hands) and everyone finishes with the
    heuristic (nat and pit included; ``h2`` … ``tc2``: scratch)."""
    mine = team_of_pos[me]
    for k in range(n_legal):
        c = cards[k]
        pl = my_card_nb(c, me, hand, world, won, team_cp, team_rm, tc, tn, played, h2, w2, cp,
                        rm, tc2)
        rollout_nb(h2, trump, team_of_pos, playing, t, leader, tc2, tn + 1, pl, rv, w2, cp, rm)
        final_scores_nb(w2, cp, rm, team_of_pos, playing, tt, sc)
        out[k] = sc[mine] - sc[1 - mine]


@njit(cache=True)
def pimc_card_nb(dkey, me, hand, legal, trump, team_of_pos, playing, t, leader, tc, tn, played,
                 won, team_cp, team_rm, voids, rv, worlds):
    """pimc: every legal card scored over ``worlds`` sampled deals of the unseen cards
    (shown voids respected), each finished by the heuristic; the best average of my team's
    banked score minus the other team's (nat and pit included)."""
    # the arguments and one allocation of scratch, borrowed (fastsim.refs_nb): passed down
    # for every world and card without reference counts
    team_of_pos, tc, won = borrow_nb(team_of_pos), borrow_nb(tc), borrow_nb(won)
    team_cp, team_rm, voids = borrow_nb(team_cp), borrow_nb(team_rm), borrow_nb(voids)
    own = np.zeros(9 + 3 * 8 + 3 * 4 + 4 * 2 + 4, dtype=np.int64)
    buf = borrow_nb(own)
    cap, cards, totals, margin = buf[0:9], buf[9:17], buf[17:25], buf[25:33]
    world, h2, w2 = buf[33:37], buf[37:41], buf[41:45]
    cp, rm, tt, sc, tc2 = buf[45:47], buf[47:49], buf[49:51], buf[51:53], buf[53:57]
    unseen = FULL32 & ~(hand | played)
    for q in range(4):
        if q != me:
            cap[q] = 8 - t - (1 if ((q - leader) & 3) < tn else 0)
    n_legal = list_cards_nb(legal, cards)
    base = decision_key_nb(dkey, t, me)
    for w in range(worlds):
        draw_world_nb(deal_key_nb(base, w), 4, me, hand, unseen, cap, voids, world)
        card_margins_nb(world, me, hand, cards, n_legal, trump, team_of_pos, playing, t,
                        leader, tc, tn, played, won, team_cp, team_rm, rv, h2, w2, cp, rm, tt, sc,
                        tc2, margin)
        for k in range(n_legal):
            totals[k] += margin[k]
    c = cards[best_index_nb(totals, n_legal)]
    keep_nb(own)
    return c


@njit(cache=True)
def search_card_nb(pol, dkey, p, hand, legal, trump, team_of_pos, playing, t, leader, tc, j,
                   played, won, team_cp, team_rm, voids, played_by, calls, ncalls, rv, worlds):
    """The card of a searching policy (pimc or strong) with more than one legal card: one
    call site in the play loop, so the heuristic's path stays as small as before."""
    if pol == POLICY_STRONG:
        return strong.strong_card_nb(dkey, p, hand, legal, trump, team_of_pos, playing, t,
                                     leader, tc, j, played, won, team_cp, team_rm, voids,
                                     played_by, calls, ncalls, rv, worlds, strong.STRONG_TAU)
    return pimc_card_nb(dkey, p, hand, legal, trump, team_of_pos, playing, t, leader, tc, j,
                        played, won, team_cp, team_rm, voids, rv, worlds)


@njit(cache=True)
def play_out_nb(dkey, hands, pol, trump, team_of_pos, playing, leader, t0, played0,
                rv, worlds, calls, ncalls, scratch, won, team_cp, team_rm, rec_cards, rec_lead,
                rec_win, rec_pts, rec_roem, record):
    """Play tricks ``t0..7`` from the position (``hands`` modified). ``team_of_pos[p]``:
    team of position p; ``playing``: the playing team; ``calls[:ncalls]``: the calling
    round as :func:`call_trump_nb` records it (for strong). Adds to ``won`` (per
    position), ``team_cp`` and ``team_rm``. ``scratch``: 12 int64 of the caller's."""
    # the arguments, borrowed (fastsim.refs_nb): no reference counts for the policies' calls
    hands, pol, team_of_pos, calls = (borrow_nb(hands), borrow_nb(pol), borrow_nb(team_of_pos),
                                      borrow_nb(calls))
    scratch, won, team_cp, team_rm = (borrow_nb(scratch), borrow_nb(won), borrow_nb(team_cp),
                                      borrow_nb(team_rm))
    rec_cards, rec_lead, rec_win = borrow_nb(rec_cards), borrow_nb(rec_lead), borrow_nb(rec_win)
    rec_pts, rec_roem = borrow_nb(rec_pts), borrow_nb(rec_roem)
    played = played0
    voids = scratch[0:4]          # the caller's buffer: no allocation per deal
    voids[:] = 0
    tc = scratch[4:8]
    played_by = scratch[8:12]     # cards each position played (from trick t0)
    played_by[:] = 0
    for t in range(t0, 8):
        led = -1
        winner = -1
        win_pos = -1
        hi = -1
        trick = np.int64(0)
        tp = 0
        nat_on = nat_defence_nb(team_cp, team_rm, playing, 1 - playing)   # once per trick
        for j in range(4):
            p = (leader + j) & 3
            hand = hands[p]
            pw = win_pos >= 0 and team_of_pos[win_pos] == team_of_pos[p]
            legal = legal_nb(hand, led, trump, hi, pw, rv)
            if pol[p] == POLICY_RANDOM:
                c = random_card_nb(dkey, CTR_PLAY + 8 * t + p, legal)
            elif (pol[p] == POLICY_PIMC or pol[p] == POLICY_STRONG) and popcount_nb(legal) > 1:
                c = search_card_nb(pol[p], dkey, p, hand, legal, trump, team_of_pos, playing, t,
                                   leader, tc, j, played, won, team_cp, team_rm, voids,
                                   played_by, calls, ncalls, rv, worlds)
            else:
                c = heuristic_play_nb(hand, legal, j, led, trump, winner, pw,
                                      pw and win_pos != p, trick, tp,
                                      team_of_pos[p] == playing,
                                      FULL32 & ~(hand | played), rv,
                                      nat_on and team_of_pos[p] != playing)
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
            if record:
                rec_cards[t, j] = c
        tp, rm = bank_trick_nb(t, tp, trick, win_pos, trump, rv, team_of_pos, won, team_cp,
                               team_rm)
        if record:
            rec_lead[t] = leader
            rec_win[t] = win_pos
            rec_pts[t] = tp
            rec_roem[t] = rm
        leader = win_pos
    return played


@njit(cache=True, inline="always")
def score_deal_nb(team_cp, team_rm, playing, tricks_team, out_scores):
    """Banked scores per team; returns (nat, pit team or -1)."""
    d = 1 - playing
    tot_p = team_cp[playing] + team_rm[playing]
    tot_d = team_cp[d] + team_rm[d]
    nat = not tot_p > tot_d
    if nat:
        out_scores[playing] = 0
        out_scores[d] = TOTAL_POINTS + team_rm[0] + team_rm[1]
    else:
        out_scores[playing] = tot_p
        out_scores[d] = tot_d
    pit = -1
    for t in range(2):
        if tricks_team[t] == 8:
            pit = t
            out_scores[t] += PIT_BONUS
    return nat, pit


@njit(cache=True, inline="always")
def final_scores_nb(won, team_cp, team_rm, team_of_pos, playing, tricks_team, out_scores):
    """:func:`score_deal_nb` of a finished deal whose tricks are counted per position in
    ``won`` (``tricks_team``: scratch for the per-team count)."""
    tricks_team[0] = 0
    tricks_team[1] = 0
    for q in range(4):
        tricks_team[team_of_pos[q]] += won[q]
    return score_deal_nb(team_cp, team_rm, playing, tricks_team, out_scores)


# ----------------------------------------------------------------------------- runs

@njit(cache=True, parallel=True)
def run_deals_nb(seed, n_games, per_game, first_dealer, seat_pol, fixed_trump, fixed_team,
                 rv, worlds, game_start, chunk, o_valid, o_deal, o_game, o_dealno, o_dealer,
                 o_trump, o_team, o_caller, o_forced, o_nat, o_pit, o_hands, o_tricks, o_cp,
                 o_rm, o_scores,
                 g_totals, g_ndeals, g_winners,
                 record, r_calls, r_ncalls, r_cards, r_lead, r_win, r_pts, r_roem):
    """``per_game`` = 1: independent deals (dealer fixed); 16: boompjes (up to 32 deals,
    rows ``g * 32 + k``, ``o_valid`` marks the played ones). ``fixed_trump`` >= 0 skips
    calling and makes ``fixed_team`` the playing team."""
    rkey = run_key_nb(seed)
    width = 1 if per_game == 1 else MAX_GAME_DEALS
    stride = 1 if per_game == 1 else GAME_STRIDE
    n_chunks = (n_games + chunk - 1) // chunk
    # the record arrays and each chunk's scratch (one allocation), borrowed: passed down for
    # every deal without reference counts (fastsim.refs_nb)
    r_cards, r_lead, r_win = borrow_nb(r_cards), borrow_nb(r_lead), borrow_nb(r_win)
    r_pts, r_roem = borrow_nb(r_pts), borrow_nb(r_roem)
    for ci in prange(n_chunks):
        own = np.zeros(32 + 3 * 4 + 4 + 12 + 5 * 2 + 5, dtype=np.int64)
        buf = borrow_nb(own)
        deck, hands, pol, tpos, won = buf[0:32], buf[32:36], buf[36:40], buf[40:44], buf[44:48]
        scratch = buf[48:60]
        cp, rm, sc, tt, tot = buf[60:62], buf[62:64], buf[64:66], buf[66:68], buf[68:70]
        calls = buf[70:75]
        for k in range(5):
            calls[k] = -1
        for g in range(ci * chunk, min((ci + 1) * chunk, n_games)):
            tot[0] = 0
            tot[1] = 0
            k = 0
            while True:
                if per_game == 1:
                    if k == 1:
                        break
                elif k >= GAME_DEALS and (tot[0] != tot[1] or k >= MAX_GAME_DEALS):
                    break
                r = g * width + k
                deal = (game_start + g) * stride + k
                dealer = (first_dealer + k) & 3
                for p in range(4):
                    seat = (dealer + 1 + p) & 3
                    pol[p] = seat_pol[seat]
                    tpos[p] = seat & 1
                dkey = deal_key_nb(rkey, deal)
                deal32_nb(dkey, deck, hands)
                for p in range(4):
                    o_hands[r, (dealer + 1 + p) & 3] = hands[p]
                if fixed_trump >= 0:
                    trump = fixed_trump
                    playing = fixed_team
                    caller = -1
                    forced = False
                    ncalls = 0
                else:
                    trump, cpos, forced, ncalls = call_trump_nb(dkey, hands, pol, calls, rv, worlds)
                    playing = tpos[cpos]
                    caller = (dealer + 1 + cpos) & 3
                for p in range(4):
                    won[p] = 0
                cp[0] = 0
                cp[1] = 0
                rm[0] = 0
                rm[1] = 0
                if record:
                    for q in range(ncalls):
                        r_calls[r, q] = calls[q]
                    r_ncalls[r] = ncalls
                    play_out_nb(dkey, hands, pol, trump, tpos, playing, 0, 0, np.int64(0),
                                rv, worlds, calls, ncalls,
                                scratch, won, cp, rm, r_cards[r], r_lead[r], r_win[r], r_pts[r], r_roem[r], True)
                else:
                    play_out_nb(dkey, hands, pol, trump, tpos, playing, 0, 0, np.int64(0),
                                rv, worlds, calls, ncalls,
                                scratch, won, cp, rm, r_cards[0], r_lead[0], r_win[0], r_pts[0], r_roem[0], False)
                nat, pit = final_scores_nb(won, cp, rm, tpos, playing, tt, sc)
                o_valid[r] = True
                o_deal[r] = deal
                o_game[r] = game_start + g
                o_dealno[r] = k
                o_dealer[r] = dealer
                o_trump[r] = trump
                o_team[r] = playing
                o_caller[r] = caller
                o_forced[r] = forced
                o_nat[r] = nat
                o_pit[r] = pit
                for p in range(4):
                    o_tricks[r, (dealer + 1 + p) & 3] = won[p]
                for t in range(2):
                    o_cp[r, t] = cp[t]
                    o_rm[r, t] = rm[t]
                    o_scores[r, t] = sc[t]
                    tot[t] += sc[t]
                k += 1
            g_totals[g, 0] = tot[0]
            g_totals[g, 1] = tot[1]
            g_ndeals[g] = k
            g_winners[g, 0] = tot[0] >= tot[1]
            g_winners[g, 1] = tot[1] >= tot[0]
        keep_nb(own)


# ----------------------------------------------------------------------------- trump advice

@njit(cache=True, parallel=True)
def trump_weights_nb(seed, my_pos, unseen, forced, tau, start, count, out_logw, out_u):
    """The trump query's importance weights of deals ``start .. start+count``: the log
    likelihood that every earlier position (all three others when ``forced``) passed,
    holding the sampled hands, under the soft heuristic caller with logistic scale ``tau``
    (:func:`fastsim.bidmodel_nb.pass_loglik_nb`; 0: the exact heuristic, 0 or −inf), and
    each deal's thinning uniform ``out_u``. Deals exactly as :func:`trump_query_nb`."""
    rkey = run_key_nb(seed)
    for i in prange(count):
        dkey = deal_key_nb(rkey, start + i)
        deck = unseen.copy()
        shuffle_nb(dkey, 0, deck, 0, 23, 24)
        lw = 0.0
        q = 0
        for p in range(4):
            if p == my_pos:
                continue
            if p < my_pos or forced:
                m = np.int64(0)
                for k in range(8 * q, 8 * q + 8):
                    m |= np.int64(1) << deck[k]
                best_v = call_value_nb(m, 0)
                for s in range(1, 4):
                    v = call_value_nb(m, s)
                    if v > best_v:
                        best_v = v
                lw += pass_loglik_nb(best_v, CALL_THRESHOLD[p], tau)
            q += 1
        out_logw[i] = lw
        out_u[i] = uniform_nb(rand_nb(dkey, CTR_THIN))


@njit(cache=True, parallel=True)
def trump_query_nb(seed, my_hand, my_pos, unseen, forced, pol, rv, worlds, play, deals, chunk,
                   out_hands, out_trump, out_team, out_margin, out_nat, out_pit):
    """Evaluate the sampled deals ``deals[i]`` (deal indices of the run ``seed``) for
    every option: name suit 0..3 (options 0..3) or pass (option 4, not when ``forced``).

    Positions are seats here (dealer = seat 3): position p is on team p & 1. ``unseen``: the
    24 cards not in my hand, dealt to the other positions in order (shuffle counters
    0..22). How well a deal fits the passes before me is :func:`trump_weights_nb`'s
    business. For each option: the resulting trump and playing team; with ``play`` also
    the deal played out by ``pol`` (me: heuristic), giving my team's banked score minus
    the other team's, whether my team went nat, and whether my team took every trick."""
    count = deals.shape[0]
    rkey = run_key_nb(seed)
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        deck = np.empty(24, dtype=np.int64)
        dealt = np.empty(4, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        tpos = np.empty(4, dtype=np.int64)
        won = np.zeros(4, dtype=np.int64)
        scratch = np.empty(12, dtype=np.int64)
        cp = np.zeros(2, dtype=np.int64)
        rm = np.zeros(2, dtype=np.int64)
        sc = np.zeros(2, dtype=np.int64)
        tt = np.zeros(2, dtype=np.int64)
        d8 = np.empty((1, 4), dtype=np.int8)
        d1 = np.empty(1, dtype=np.int8)
        d16 = np.empty(1, dtype=np.int16)
        no_calls = np.full(5, -1, dtype=np.int64)     # no strong seat here
        for p in range(4):
            tpos[p] = p & 1
        me = my_pos & 1
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            dkey = deal_key_nb(rkey, deals[i])
            deck[:] = unseen
            shuffle_nb(dkey, 0, deck, 0, 23, 24)
            q = 0
            for p in range(4):
                if p == my_pos:
                    dealt[p] = my_hand
                else:
                    m = np.int64(0)
                    for k in range(8 * q, 8 * q + 8):
                        m |= np.int64(1) << deck[k]
                    dealt[p] = m
                    q += 1
                out_hands[i, p] = dealt[p]
            for o in range(5):
                if o == 4 and forced:
                    continue
                if o < 4:
                    trump = o
                    playing = me
                else:
                    trump = -1
                    playing = -1
                    for p in range(my_pos + 1, 4):
                        if pol[p] == POLICY_RANDOM:
                            k = below_nb(dkey, CTR_CALL + p, 5)
                            s = k if k < 4 else -1
                        else:
                            s = heuristic_call_nb(dealt[p], p, False)
                        if s >= 0:
                            trump = s
                            playing = p & 1
                            break
                    if trump < 0:   # everyone passed: position 0 must name
                        if pol[0] == POLICY_RANDOM and my_pos != 0:
                            trump = below_nb(dkey, CTR_FORCED, 4)
                        else:
                            trump = heuristic_call_nb(dealt[0], 0, True)
                        playing = 0
                out_trump[i, o] = trump
                out_team[i, o] = playing
                if not play:
                    continue
                for p in range(4):
                    hands[p] = dealt[p]
                    won[p] = 0
                cp[0] = 0
                cp[1] = 0
                rm[0] = 0
                rm[1] = 0
                play_out_nb(dkey, hands, pol, trump, tpos, playing, 0, 0, np.int64(0),
                            rv, worlds, no_calls, 0,
                            scratch, won, cp, rm, d8, d1, d1, d16, d16, False)
                tt[0] = won[0] + won[2]
                tt[1] = won[1] + won[3]
                nat, pit = score_deal_nb(cp, rm, playing, tt, sc)
                out_margin[i, o] = sc[me] - sc[1 - me]
                out_nat[i, o] = nat and playing == me
                out_pit[i, o] = pit == me


@njit(cache=True, parallel=True)
def call_values_nb(hands, trumps):
    """The heuristic call value of many hands, each under its trump."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in prange(hands.shape[0]):
        out[i] = call_value_nb(hands[i], trumps[i])
    return out


@njit(cache=True, nogil=True)
def call_values_serial_nb(hands, trumps):
    """:func:`call_values_nb` on one thread, ``nogil``: the results path runs it in an
    encoding thread beside a parallel simulation kernel (which numba's workqueue layer
    does not allow for a second parallel kernel)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = call_value_nb(hands[i], trumps[i])
    return out


# the strong policy's kernels use this module's; imported last (no cycle at import time)
from . import klaverjassen_strong_nb as strong  # noqa: E402

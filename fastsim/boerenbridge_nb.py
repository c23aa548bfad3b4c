"""Boerenbridge kernels: deal, bidding and play policies, scoring, whole games.

Rules (docs/rules.md §1), in short: n players (3–7, or 2 under ``two_player``) are dealt h cards;
the next card is turned and names trump (ignored in no-trump deals). From left of the
dealer everyone bids 0..h; the dealer may not make the bids sum to h (the boerenregel).
Left of the dealer leads; follow suit if able, else any card; highest trump, else highest
card of the led suit, wins and leads next. Exact bid: 10 + 2 per trick; missed: 0, or
−|diff| (hard) or −2|diff| (dutch); bauer bonus +5 to a dealer who missed by taking the
forbidden number; blind 1-card deals score double.

Everything here is compiled; numpy arrays and scalars in, arrays out. Hands are ``int64``
bit masks (see :mod:`fastsim.bits`); the exact policy rules are in ``docs/boerenbridge.md``.
Seats are absolute; *positions* count from left of the dealer (0) to the dealer (n−1).
"""
import numpy as np
from ._jit import njit, prange

from .bits import suit_mask_nb, popcount_nb
from .play_nb import (FULL52, shuffle_prefix_nb, hand_value_nb, hand_value_inline_nb,
                      heuristic_play_nb, heuristic_lead_nb, heuristic_follow_nb, random_card_nb,
                      hand_of_cards_nb, show_card_nb, branch_nb)
from .pimc_nb import deal_hidden_nb, decision_key_nb, draw_world_nb, list_cards_nb, best_index_nb
from .trick import trick_add_nb, trick_so_far_nb, NATURAL_ORDER
from .rng import KEY_PIMC_BID, run_key_nb, deal_key_nb, below_nb, rand_nb, shuffle_nb
from .refs_nb import borrow_nb, keep_nb
from .bidmodel_nb import CTR_THIN, bid_loglik_nb, uniform_nb
from .boerenbridge_schema import (
    POLICY_RANDOM, POLICY_HEURISTIC, POLICY_PIMC, POLICY_STRONG, STRONG_BID_FACTOR,
    STRONG_CANDIDATES, STRONG_SLOPE, STRONG_CARD_FACTOR, STRONG_BID_SHIFT, CTR_BID, CTR_PLAY,
    EXACT_BASE, PER_TRICK, PIMC_CARD_FACTOR, PIMC_BID_FACTOR,
    BAUER_BONUS, BLIND_MULTIPLIER, LEADER_BONUS, EARLIER_BIDS_SHIFT, MAX_SEATS,
    F_SCORING, F_BAUER, F_DEALER_RULE, F_BLIND,
)



# ----------------------------------------------------------------------------- dealing

@njit(cache=True, inline="always")
def deal_hands_nb(dkey, n, h, deck, hands):
    """Deal ``h`` cards to each position; returns the turned card."""
    shuffle_prefix_nb(dkey, deck, n * h + 1)
    for p in range(n):
        hands[p] = hand_of_cards_nb(deck, p * h, h)
    return deck[n * h]


# ----------------------------------------------------------------------------- bidding

@njit(cache=True, inline="always")
def is_blind_nb(h, rv):
    """Whether a deal of ``h`` cards is bid blind (players bid before looking at their one
    card: the ``blind_one_card`` variant)."""
    return rv[F_BLIND] != 0 and h == 1


@njit(cache=True, inline="always")
def forbidden_bid_nb(h, bid_sum_others, rv):
    """The bid the dealer may not make, or -1 (``rv``: the variant tuple, Rules.flags)."""
    if not rv[F_DEALER_RULE]:
        return -1
    f = h - bid_sum_others
    if 0 <= f <= h:
        return f
    return -1


@njit(cache=True)
def heuristic_bid_nb(hand, trump, n, h, pos, bid_sum, forbidden, blind):
    """The heuristic bid (docs/boerenbridge.md) of position ``pos`` after ``bid_sum``."""
    return heuristic_bid_inline_nb(hand, trump, n, h, pos, bid_sum, forbidden, blind)


@njit(cache=True, inline="always")
def heuristic_bid_inline_nb(hand, trump, n, h, pos, bid_sum, forbidden, blind):
    """:func:`heuristic_bid_nb`, inlined into its caller (the heuristic-only deal loop)."""
    if blind:
        e = 100 // n
    else:
        e = hand_value_inline_nb(hand, trump)
    return bid_of_value_nb(e, n, h, pos, bid_sum, forbidden)


@njit(cache=True, inline="always")
def bid_of_value_nb(e, n, h, pos, bid_sum, forbidden):
    """The heuristic's bid rule from the hand value ``e`` (hundredths of a trick): the
    leader's bonus, the shift for the earlier bids, rounding, the limits and the forbidden
    bid (docs/boerenbridge.md). Written once: the heuristic and strong's bidder model
    (fastsim.boerenbridge_strong_nb.model_bid_nb) call it."""
    if pos == 0:
        e += LEADER_BONUS
    lhs = 100 * bid_sum * n
    if lhs > 100 * h * pos + 50 * n:
        e -= EARLIER_BIDS_SHIFT
    elif lhs < 100 * h * pos - 50 * n:
        e += EARLIER_BIDS_SHIFT
    bid = (e + 50) // 100
    if bid < 0:
        bid = 0
    if bid > h:
        bid = h
    if bid == forbidden:
        if e >= 100 * bid and bid + 1 <= h:
            bid += 1
        elif bid - 1 >= 0:
            bid -= 1
        else:
            bid += 1
    return bid


@njit(cache=True, inline="always")
def bid_round_nb(bid_fn, ctx, n, h, hands, trump, bids, won, rv, is_blind):
    """The bidding, written once (the engine and its heuristic-only twin): from left of the
    dealer, ``bids[p] >= 0`` fixed on entry, else ``bid_fn(ctx, n, h, p, hand, trump, bids,
    bid_sum, f, is_blind)`` (``f``: the forbidden bid or -1); ``won`` is zeroed. Returns the
    dealer's forbidden bid or -1."""
    bid_sum = 0
    forbidden = -1
    for p in range(n):
        f = -1
        if p == n - 1:
            forbidden = forbidden_bid_nb(h, bid_sum, rv)
            f = forbidden
        b = bids[p]
        if b < 0:
            b = bid_fn(ctx, n, h, p, hands[p], trump, bids, bid_sum, f, is_blind)
        bids[p] = b
        bid_sum += b
        won[p] = 0
    return forbidden


@njit(cache=True, inline="always")
def heuristic_bid_hook_nb(ctx, n, h, p, hand, trump, bids, bid_sum, f, is_blind):
    """Bid hook: the heuristic, inlined."""
    return heuristic_bid_inline_nb(hand, trump, n, h, p, bid_sum, f, is_blind)


@njit(cache=True, inline="always")
def random_bid_nb(dkey, pos, h, forbidden):
    count = h + 1 - (1 if forbidden >= 0 else 0)
    k = below_nb(dkey, CTR_BID + pos, count)
    if forbidden >= 0 and k >= forbidden:
        k += 1
    return k


# ----------------------------------------------------------------------------- play

@njit(cache=True, inline="always")
def random_play_nb(dkey, t, p, legal):
    """The random policy's card for position ``p`` at trick ``t``."""
    return random_card_nb(dkey, CTR_PLAY + 8 * t + p, legal)


@njit(cache=True, inline="always")
def follow_nb(hand, j, led):
    """The legal cards of ``hand`` as the ``j``-th card of a trick of suit ``led``."""
    if j == 0:
        return hand
    legal = hand & suit_mask_nb(led)
    return legal if legal else hand


# The trick loop, written once (play_on_nb): the engine, the heuristic rollouts of pimc and
# strong and the play query's policy rollouts call it (the heuristic-only deal loop has its
# own copy for speed, heuristic_tricks_nb, held to the same cards by the tests) with
# their own card hook ``card_fn(ctx, n, p, hand, j, led, winner, trump, t, leader, tc,
# played, bids, won, voids, pl_by)`` (``ctx``: the hook's own tuple; the legal cards are
# :func:`follow_nb`). numba inlines the loop and the hook into each kernel.

@njit(cache=True, inline="always")
def play_on_nb(card_fn, ctx, n, h, hands, trump, bids, won, played, t0, leader, tc, tn, voids,
               pl_by, track):
    """Play a deal from trick ``t0`` (``tc[:tn]`` on the table, led by position ``leader``)
    to its end, ``card_fn`` choosing each card; ``hands`` lose the cards played, ``won``
    counts the tricks. ``track`` (a constant): also keep ``voids`` (suits shown by not
    following), ``tc`` (the current trick) and ``pl_by`` (the cards each position played),
    which the searching policies read. Returns the last trick's winner."""
    t = t0
    while t < h:
        if t == t0 and tn > 0:
            led, winner, win_pos, best_key, _ = trick_so_far_nb(tc, tn, leader, n, trump,
                                                                NATURAL_ORDER)
            start = tn
        else:
            led, winner, win_pos, best_key, start = -1, -1, leader, -1, 0
        for j in range(start, n):
            p = leader + j       # no division per card
            if p >= n:
                p -= n
            hand = hands[p]
            c = card_fn(ctx, n, p, hand, j, led, winner, trump, t, leader, tc, played, bids, won,
                        voids, pl_by)
            bit = np.int64(1) << c
            if track:
                show_card_nb(c, j, p, led, voids, tc)
                pl_by[p] |= bit
            hands[p] = hand & ~bit
            played |= bit
            led, winner, win_pos, best_key = trick_add_nb(c, j, p, led, winner, win_pos,
                                                          best_key, trump, NATURAL_ORDER)
        won[win_pos] += 1
        leader = win_pos
        t += 1
    return leader


@njit(cache=True, inline="always")
def heuristic_hook_nb(ctx, n, p, hand, j, led, winner, trump, t, leader, tc, played, bids, won,
                      voids, pl_by):
    """Card hook: the heuristic for everyone (the compiled function)."""
    return heuristic_play_nb(hand, j, n, led, winner, trump, bids[p] - won[p],
                             FULL52 & ~(hand | played))


@njit(cache=True, inline="always")
def engine_card_hook_nb(ctx, n, p, hand, j, led, winner, trump, t, leader, tc, played, bids,
                        won, voids, pl_by):
    """Card hook of the engine: policy ``pol[p]`` for position ``p``; with ``record`` the
    cards, the leaders and (at the next trick's lead) the winners are written down."""
    pol, dkey, h, turned, rv, is_blind, worlds, rec_cards, rec_lead, rec_win, record = ctx
    if pol[p] == POLICY_HEURISTIC:
        c = heuristic_play_nb(hand, j, n, led, winner, trump, bids[p] - won[p],
                              FULL52 & ~(hand | played))
    elif pol[p] == POLICY_RANDOM:
        # the same card as policy_card_nb's, without a call that takes five arrays (each
        # costs an atomic reference count up and down: most of a random deal's time)
        c = random_play_nb(dkey, t, p, follow_nb(hand, j, led))
    else:
        c = policy_card_nb(pol[p], dkey, n, h, p, hand, follow_nb(hand, j, led), turned, trump,
                           played, bids, won, t, leader, tc, j, led, winner, voids, pl_by,
                           rv, is_blind, worlds)
    if record:
        rec_cards[t, j] = c
        if j == 0:
            rec_lead[t] = leader
            if t > 0:
                rec_win[t - 1] = leader
    return c


@njit(cache=True, inline="always")
def engine_bid_hook_nb(ctx, n, h, p, hand, trump, bids, bid_sum, f, is_blind):
    """Bid hook of the engine: policy ``pol[p]`` for position ``p``."""
    pol, dkey, _h, turned, rv, _b, worlds, _c, _l, _w, _r = ctx
    return policy_bid_nb(pol[p], dkey, n, h, p, hand, turned, trump, bids, bid_sum, f, rv,
                         is_blind, worlds)


# ----------------------------------------------------------------------------- scoring

@njit(cache=True, inline="always")
def deal_score_nb(bid, won, rv, is_dealer, forbidden, is_blind):
    """One player's score of a deal (docs/rules.md §1 and the scoring variants;
    ``is_dealer``: the bauer bonus can apply)."""
    d = won - bid
    if d == 0:
        sc = EXACT_BASE + PER_TRICK * won
    else:
        ad = d if d > 0 else -d
        if rv[F_SCORING] == 1:
            sc = -ad
        elif rv[F_SCORING] == 2:
            sc = -2 * ad
        else:
            sc = 0
        if rv[F_BAUER] and is_dealer and forbidden >= 0 and won == forbidden:
            sc += BAUER_BONUS
    if is_blind:
        sc *= BLIND_MULTIPLIER
    return sc


@njit(cache=True, inline="always")
def score_all_nb(n, bids, won, rv, forbidden, is_blind, scores):
    """Every position's deal score into ``scores``."""
    for p in range(n):
        scores[p] = deal_score_nb(bids[p], won[p], rv, p == n - 1, forbidden, is_blind)


@njit(cache=True, inline="always")
def forbidden_of(n, p, bids, h, rv):
    """The forbidden bid of the dealer once all bids are in (-1 for others or none)."""
    if p != n - 1:
        return -1
    s = 0
    for q in range(n - 1):
        s += bids[q]
    return forbidden_bid_nb(h, s, rv)


# ----------------------------------------------------------------------------- pimc

@njit(cache=True)
def rollout_nb(n, h, hands, trump, bids, won, played, t0, leader, tc, tn):
    """Finish a deal with the heuristic for everyone, from trick ``t0`` led by ``leader``
    with ``tc[:tn]`` on the table (``hands`` and ``won`` are updated)."""
    play_on_nb(heuristic_hook_nb, 0, n, h, hands, trump, bids, won, played, t0, leader, tc, tn,
               tc, tc, False)


@njit(cache=True)
def world_capacity_nb(n, h, me, unseen, t, leader, tn):
    """How many hidden cards each position holds: ``h − t`` (one fewer once it played to
    the current trick); the rest (last entry) was never dealt."""
    cap = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    total = 0
    for q in range(n):
        if q != me:
            cap[q] = h - t - (1 if ((q - leader) % n) < tn else 0)
            total += cap[q]
    cap[MAX_SEATS] = popcount_nb(unseen) - total
    return cap


@njit(cache=True)
def sample_world_nb(wkey, n, h, me, my_hand, unseen, t, leader, tn, voids, out):
    """One try at Boerenbridge's hidden cards for ``me`` (see :func:`world_capacity_nb`)."""
    cap = world_capacity_nb(n, h, me, unseen, t, leader, tn)
    return deal_hidden_nb(wkey, n, me, my_hand, unseen, cap, voids, out)


@njit(cache=True)
def add_card_scores_nb(n, h, me, world, hand, cards, n_legal, trump, played, bids, won, t,
                       leader, tc, tn, rv, forbidden, is_blind, hands2, won2, tc2, totals):
    """Add to ``totals[k]`` my deal score in ``world`` (the hidden hands by position) when I
    play ``cards[k]`` to ``tc[:tn]`` and everyone finishes with the heuristic
    (``forbidden``: my forbidden bid if I am the dealer, else -1; ``hands2``, ``won2``,
    ``tc2``: scratch)."""
    for k in range(n_legal):
        c = cards[k]
        branch_nb(n, world, me, hand, c, won, tc, tn, hands2, won2, tc2)
        rollout_nb(n, h, hands2, trump, bids, won2, played | (np.int64(1) << c), t, leader,
                   tc2, tn + 1)
        totals[k] += deal_score_nb(bids[me], won2[me], rv, me == n - 1, forbidden, is_blind)


@njit(cache=True)
def pimc_card_nb(dkey, n, h, me, hand, legal, turned, trump, played, bids, won, t, leader, tc,
                 tn, voids, rv, forbidden, is_blind, worlds):
    """Perfect-information Monte Carlo: score every legal card by finishing ``worlds``
    sampled deals with the heuristic; play the best average (ties: lowest card code; the
    dispatch passes ``PIMC_CARD_FACTOR × worlds``)."""
    bids, won, tc, voids = borrow_nb(bids), borrow_nb(won), borrow_nb(tc), borrow_nb(voids)
    unseen = FULL52 & ~(hand | played)
    cap_own = world_capacity_nb(n, h, me, unseen, t, leader, tn)
    cap = borrow_nb(cap_own)
    own = np.zeros(26 + 4 * MAX_SEATS, dtype=np.int64)   # one allocation, borrowed views
    buf = borrow_nb(own)
    totals = buf[0:13]
    cards = buf[13:26]
    world = buf[26:26 + MAX_SEATS]
    hands2 = buf[26 + MAX_SEATS:26 + 2 * MAX_SEATS]
    won2 = buf[26 + 2 * MAX_SEATS:26 + 3 * MAX_SEATS]
    tc2 = buf[26 + 3 * MAX_SEATS:26 + 4 * MAX_SEATS]
    n_legal = list_cards_nb(legal, cards)
    base = decision_key_nb(dkey, t, me)
    for w in range(worlds):
        draw_world_nb(deal_key_nb(base, w), n, me, hand, unseen, cap, voids, world)
        add_card_scores_nb(n, h, me, world, hand, cards, n_legal, trump, played, bids, won, t,
                           leader, tc, tn, rv, forbidden, is_blind, hands2, won2, tc2, totals)
    c = cards[best_index_nb(totals, n_legal)]
    keep_nb(own)
    keep_nb(cap_own)
    return c


@njit(cache=True)
def add_bid_scores_nb(n, h, me, world, turned, trump, bids, bid_sum, forbidden, rv, is_blind,
                      hands2, won2, bids2, tc2, totals):
    """Add to ``totals[b]`` my score in ``world`` (the hands by position) when I bid ``b``,
    for every legal ``b``: the later players bid by the heuristic and everyone plays the
    heuristic (``hands2``, ``won2``, ``bids2``, ``tc2``: scratch)."""
    for b in range(h + 1):
        if b == forbidden:
            continue
        s = bid_sum + b
        for q in range(n):
            bids2[q] = bids[q] if q < me else -1
        bids2[me] = b
        for q in range(me + 1, n):
            f = forbidden_bid_nb(h, s, rv) if q == n - 1 else -1
            bids2[q] = heuristic_bid_nb(world[q], trump, n, h, q, s, f, is_blind)
            s += bids2[q]
        for q in range(n):
            hands2[q] = world[q]
            won2[q] = 0
        rollout_nb(n, h, hands2, trump, bids2, won2, np.int64(1) << turned, 0, 0, tc2, 0)
        fb = forbidden if me == n - 1 else -1
        totals[b] += deal_score_nb(b, won2[me], rv, me == n - 1, fb, is_blind)


@njit(cache=True, inline="always")
def best_bid_nb(totals, h, forbidden):
    """The legal bid (0..h, not ``forbidden``) of the largest total (ties: the lowest)."""
    best = -1
    for b in range(h + 1):
        if b != forbidden and (best < 0 or totals[b] > totals[best]):
            best = b
    return best


@njit(cache=True)
def pimc_bid_nb(dkey, n, h, me, hand, turned, trump, bids, bid_sum, forbidden, rv, is_blind,
                worlds):
    """PIMC bid: for each legal bid, finish ``worlds`` sampled deals (the later players
    bidding and everyone playing the heuristic) and take the best average score (the
    dispatch passes ``PIMC_BID_FACTOR × worlds``)."""
    bids = borrow_nb(bids)
    unseen = FULL52 & ~(hand | (np.int64(1) << turned))
    own = np.zeros(6 * MAX_SEATS + h + 1, dtype=np.int64)   # one allocation, borrowed views
    buf = borrow_nb(own)
    world = buf[0:MAX_SEATS]
    hands2 = buf[MAX_SEATS:2 * MAX_SEATS]
    won2 = buf[2 * MAX_SEATS:3 * MAX_SEATS]
    bids2 = buf[3 * MAX_SEATS:4 * MAX_SEATS]
    tc2 = buf[4 * MAX_SEATS:5 * MAX_SEATS]
    novoids = buf[5 * MAX_SEATS:6 * MAX_SEATS]
    totals = buf[6 * MAX_SEATS:]
    base = deal_key_nb(dkey, KEY_PIMC_BID + me)
    for w in range(worlds):
        sample_world_nb(deal_key_nb(base, w), n, h, me, hand, unseen, 0, 0, 0, novoids, world)
        add_bid_scores_nb(n, h, me, world, turned, trump, bids, bid_sum, forbidden, rv,
                          is_blind, hands2, won2, bids2, tc2, totals)
    b = best_bid_nb(totals, h, forbidden)
    keep_nb(own)
    return b


# ----------------------------------------------------------------------------- dispatch

@njit(cache=True)
def policy_bid_nb(pol, dkey, n, h, p, hand, turned, trump, bids, bid_sum, f, rv, is_blind,
                  worlds):
    """The bid of policy ``pol`` for position ``p`` (``bids[:p]`` made, summing to
    ``bid_sum``; ``f`` its forbidden bid or -1): the engine's one bid dispatch, also used
    by the step-by-step drivers (analyzer.agents, the OpenSpiel bridge)."""
    if pol == POLICY_RANDOM:
        return random_bid_nb(dkey, p, h, f)
    if pol == POLICY_PIMC:
        return pimc_bid_nb(dkey, n, h, p, hand, turned, trump, bids, bid_sum, f, rv, is_blind,
                           PIMC_BID_FACTOR * worlds)
    if pol == POLICY_STRONG or POLICY_STRONGL <= pol <= POLICY_EXP_LAST:
        return strong_bid_nb(dkey, n, h, p, hand, turned, trump, bids, bid_sum, f, rv,
                             is_blind, STRONG_BID_FACTOR * worlds,
                             STRONG_CANDIDATES, STRONG_SLOPE, STRONG_BID_SHIFT)
    return heuristic_bid_nb(hand, trump, n, h, p, bid_sum, f, is_blind)


@njit(cache=True)
def policy_card_nb(pol, dkey, n, h, p, hand, legal, turned, trump, played, bids, won, t,
                   leader, tc, j, led, winner, voids, pl_by, rv, is_blind, worlds):
    """The card of policy ``pol`` for position ``p``, ``j``-th to the trick ``tc[:j]``
    (``led`` suit and ``winner`` card so far, -1 when leading; ``pl_by[q]``: the cards
    position q played): the engine's one card dispatch, also used by the play query."""
    if pol == POLICY_RANDOM:
        return random_play_nb(dkey, t, p, legal)
    if popcount_nb(legal) > 1:
        if pol == POLICY_PIMC:
            return pimc_card_nb(dkey, n, h, p, hand, legal, turned, trump, played, bids, won,
                                t, leader, tc, j, voids, rv, forbidden_of(n, p, bids, h, rv),
                                is_blind, PIMC_CARD_FACTOR * worlds)
        if pol == POLICY_STRONG or POLICY_STRONGL <= pol <= POLICY_EXP_LAST:
            return strong_card_nb(dkey, n, h, p, hand, legal, trump, played, bids, won, t,
                                  leader, tc, j, voids, pl_by, rv, is_blind,
                                  STRONG_CARD_FACTOR * worlds, STRONG_CANDIDATES,
                                  STRONG_SLOPE, STRONG_BID_SHIFT, strongl_mode_nb(pol))
        if pol == POLICY_LEARNED:
            wn = 0
            if j > 0:
                wp = winner_pos_nb(tc, j, leader, n, winner)
                wn = bids[wp] - won[wp]
            return learned_card_nb(hand, legal, j, n, h, t, led, winner, wn, trump,
                                   bids[p] - won[p], played)
    return heuristic_play_nb(hand, j, n, led, winner, trump, bids[p] - won[p],
                             FULL52 & ~(hand | played))


# ----------------------------------------------------------------------------- one deal

@njit(cache=True, inline="always")
def open_deal_nb(dkey, n, h, notrump, deck, hands, bids):
    """Deal, turn the trump card and leave every bid to the policies: (turned, trump)."""
    turned = deal_hands_nb(dkey, n, h, deck, hands)
    trump = np.int64(-1) if notrump else turned >> 4
    for p in range(n):
        bids[p] = -1
    return turned, trump


@njit(cache=True, inline="always")
def play_deal_heuristic_nb(dkey, n, h, notrump, rv, deck, hands, bids, won, scores):
    """:func:`play_deal_nb` with the heuristic in every position and nothing recorded (inlined
    into :func:`games_chunk_nb`; the bidding and play stay one compiled function, which
    compiles faster than a chunk kernel with everything inlined and runs about as fast). A
    run that needs only this compiles no search policy (a cold start of seconds, not tens)."""
    turned, trump = open_deal_nb(dkey, n, h, notrump, deck, hands, bids)
    forbidden = heuristic_bid_play_nb(n, h, hands, turned, trump, rv, deck, bids, won, scores)
    return turned, trump, forbidden


@njit(cache=True)
def play_deal_nb(dkey, n, h, notrump, pol, rv, worlds, deck, hands, bids, won, scores, rec_cards, rec_lead, rec_win, record):
    """Deal and play one deal; all per-player arrays are indexed by *position*.

    ``pol[p]``: policy of position p. Fills ``hands`` (as dealt), ``bids``, ``won``,
    ``scores``; with ``record`` also the play (cards per trick in play order, leader and
    winner positions). Returns (turned card, trump suit or -1, forbidden bid or -1).
    """
    turned, trump = open_deal_nb(dkey, n, h, notrump, deck, hands, bids)
    forbidden = bid_play_nb(dkey, n, h, hands, turned, trump, pol, rv, worlds, deck, bids,
                            won, scores, rec_cards, rec_lead, rec_win, record)
    return turned, trump, forbidden


@njit(cache=True)
def heuristic_bid_play_nb(n, h, hands, turned, trump, rv, cur, bids, won, scores):
    """:func:`bid_play_nb` when every position bids and plays the heuristic and nothing is
    recorded: the same bids, cards and scores, without the policy dispatch and the
    bookkeeping only the search policies read (``cur``: scratch, ``2 * MAX_SEATS`` entries)."""
    is_blind = is_blind_nb(h, rv)
    forbidden = bid_round_nb(heuristic_bid_hook_nb, 0, n, h, hands, trump, bids, won, rv,
                             is_blind)
    for p in range(n):
        cur[p] = hands[p]
        cur[MAX_SEATS + p] = bids[p]
    heuristic_tricks_nb(n, h, cur, trump, won, np.int64(1) << turned)
    score_all_nb(n, bids, won, rv, forbidden, is_blind, scores)
    return forbidden


@njit(cache=True, inline="always")
def heuristic_tricks_nb(n, h, cur, trump, won, played):
    """The trick loop of :func:`play_on_nb` from the first trick when every position plays
    the heuristic and nothing is tracked, written out for speed: the same cards, tricks and
    winners. ``cur[p]``: position p's hand (loses the cards played), ``cur[MAX_SEATS + p]``:
    its bid (becomes the heuristic's ``need``, bid minus tricks won); ``won[p]`` (zero on
    entry) counts the tricks; ``played``: the cards out of play (the turned card)."""
    tmask = suit_mask_nb(trump) if trump >= 0 else np.int64(0)
    leader = 0
    for t in range(h):
        p = leader
        hand = cur[p]
        c = heuristic_lead_nb(hand, trump, tmask, cur[MAX_SEATS + p], FULL52 & ~(hand | played))
        bit = np.int64(1) << c
        cur[p] = hand & ~bit
        played |= bit
        winner = c
        led = c >> 4
        win_pos = p
        for j in range(1, n):
            p += 1              # no division per card
            if p >= n:
                p -= n
            hand = cur[p]
            c = heuristic_follow_nb(hand, j == n - 1, led, winner, trump, tmask,
                                    cur[MAX_SEATS + p])
            bit = np.int64(1) << c
            cur[p] = hand & ~bit
            played |= bit
            # the trick so far is won by a trump or a card of the led suit: a card beats
            # it when higher in its suit, or a trump on a non-trump (trick_key_nb's order)
            cs = c >> 4
            ws = winner >> 4
            if (cs == ws and c > winner) or (cs == trump and ws != trump):
                winner = c
                win_pos = p
        won[win_pos] += 1
        cur[MAX_SEATS + win_pos] -= 1
        leader = win_pos


@njit(cache=True)
def bid_play_nb(dkey, n, h, hands, turned, trump, pol, rv, worlds, cur, bids, won, scores, rec_cards, rec_lead, rec_win, record):
    """Bid, play and score a dealt deal (per-position arrays). ``bids[p] >= 0`` on entry
    fixes that position's bid; ``-1`` lets its policy bid. ``cur`` is scratch of at least
    ``4 * MAX_SEATS`` entries (live hands, shown voids, the trick, the cards each position
    played). Returns the forbidden bid or -1."""
    if not record:
        all_heuristic = True
        for p in range(n):
            if pol[p] != POLICY_HEURISTIC:
                all_heuristic = False
        if all_heuristic:
            return heuristic_bid_play_nb(n, h, hands, turned, trump, rv, cur, bids, won,
                                         scores)
    # the arguments, borrowed (fastsim.refs_nb): the context tuple is taken apart for every
    # card, and the arrays go down the policies' calls, without reference counts
    hands, pol, cur, bids, won = (borrow_nb(hands), borrow_nb(pol), borrow_nb(cur),
                                  borrow_nb(bids), borrow_nb(won))
    scores, rec_cards = borrow_nb(scores), borrow_nb(rec_cards)
    rec_lead, rec_win = borrow_nb(rec_lead), borrow_nb(rec_win)
    is_blind = is_blind_nb(h, rv)
    ctx = (pol, dkey, h, turned, rv, is_blind, worlds, rec_cards, rec_lead, rec_win, record)
    forbidden = bid_round_nb(engine_bid_hook_nb, ctx, n, h, hands, trump, bids, won, rv,
                             is_blind)
    for p in range(n):
        cur[p] = hands[p]
    voids = cur[MAX_SEATS:2 * MAX_SEATS]     # scratch, no allocation per deal
    voids[:] = 0
    tc = cur[2 * MAX_SEATS:3 * MAX_SEATS]
    pl_by = cur[3 * MAX_SEATS:4 * MAX_SEATS]
    pl_by[:] = 0
    last = play_on_nb(engine_card_hook_nb, ctx, n, h, cur, trump, bids, won,
                      np.int64(1) << turned, 0, 0, tc, 0, voids, pl_by, True)
    if record:
        rec_win[h - 1] = last
    score_all_nb(n, bids, won, rv, forbidden, is_blind, scores)
    return forbidden


# ----------------------------------------------------------------------------- games

@njit(cache=True, nogil=True)
def games_chunk_nb(rkey, ci, n, schedule, notrump, first_dealer, seat_pol, rv, worlds,
                   game_start, n_games, chunk,
                   o_deal, o_game, o_dealno, o_hsize, o_dealer, o_tcard, o_trump, o_forb,
                   o_hands, o_bids, o_tricks, o_scores,
                   g_totals, g_exact, g_best, g_winners,
                   record, r_cards, r_lead, r_win, search):
    """Play games ``ci * chunk`` .. of ``schedule`` (the games ``game_start + g``; ``rkey``
    from :func:`run_key_nb` of the seed). Row ``r = g * K + k`` of the deal arrays is deal
    ``k`` of game ``g``; per-seat columns are indexed by seat. The result depends only on
    the seed and the global deal index, never on the chunking or thread count
    (:func:`fastsim.boerenbridge.simulate` runs the chunks on parallel threads).

    ``search``: ``None`` when every seat plays the heuristic and nothing is recorded (numba
    then prunes the policy dispatch at compile time, so only the heuristic path is
    compiled: a first run in seconds, not tens), else ``True``.

    The per-game arrays ``g_*`` are written only for games of more than one deal: a one-deal
    game's totals, exact bids, best deal and winners follow from its deal row
    (:class:`fastsim.boerenbridge.OneDealGames` derives them; ``g_*`` may have no rows)."""
    K = schedule.shape[0]
    whole = K > 1
    # the per-deal scratch: one allocation, passed down as borrowed views (no reference
    # counts per deal; fastsim.refs_nb), the owner kept to the end
    own = np.empty(52 + 5 * MAX_SEATS, dtype=np.int64)
    buf = borrow_nb(own)
    deck = buf[0:52]
    hands = buf[52:52 + MAX_SEATS]
    bids = buf[52 + MAX_SEATS:52 + 2 * MAX_SEATS]
    won = buf[52 + 2 * MAX_SEATS:52 + 3 * MAX_SEATS]
    scores = buf[52 + 3 * MAX_SEATS:52 + 4 * MAX_SEATS]
    pol = buf[52 + 4 * MAX_SEATS:52 + 5 * MAX_SEATS]
    exact = np.empty(MAX_SEATS, dtype=np.int64)
    best = np.empty(MAX_SEATS, dtype=np.int64)
    total = np.empty(MAX_SEATS, dtype=np.int64)
    g_end = min((ci + 1) * chunk, n_games)
    for g in range(ci * chunk, g_end):
        if whole:
            for s in range(n):
                exact[s] = 0
                best[s] = -(1 << 30)
                total[s] = 0
        for k in range(K):
            r = g * K + k
            deal = (game_start + g) * K + k
            dealer = (first_dealer + k) % n
            h = schedule[k]
            dkey = deal_key_nb(rkey, deal)
            if search is None:
                turned, trump, forb = play_deal_heuristic_nb(
                    dkey, n, h, notrump[k], rv, deck, hands, bids, won, scores)
            else:
                for p in range(n):
                    s = dealer + 1 + p    # the seat of position p (no division per seat)
                    if s >= n:
                        s -= n
                    pol[p] = seat_pol[s]
                if record:
                    turned, trump, forb = play_deal_nb(
                        dkey, n, h, notrump[k], pol, rv, worlds, deck, hands, bids, won,
                        scores, r_cards[r], r_lead[r], r_win[r], True)
                else:
                    turned, trump, forb = play_deal_nb(
                        dkey, n, h, notrump[k], pol, rv, worlds, deck, hands, bids, won,
                        scores, r_cards[0], r_lead[0], r_win[0], False)
            o_deal[r] = deal
            o_game[r] = game_start + g
            o_dealno[r] = k
            o_hsize[r] = h
            o_dealer[r] = dealer
            o_tcard[r] = turned
            o_trump[r] = trump
            o_forb[r] = forb
            for p in range(n):
                s = dealer + 1 + p
                if s >= n:
                    s -= n
                o_hands[r, s] = hands[p]
                o_bids[r, s] = bids[p]
                o_tricks[r, s] = won[p]
                o_scores[r, s] = scores[p]
                if whole:
                    total[s] += scores[p]
                    if won[p] == bids[p]:
                        exact[s] += 1
                    if scores[p] > best[s]:
                        best[s] = scores[p]
        if not whole:
            continue
        # winner: total, then exact bids, then best single deal; ties share
        top = 0
        for s in range(1, n):
            if (total[s], exact[s], best[s]) > (total[top], exact[top], best[top]):
                top = s
        for s in range(n):
            g_totals[g, s] = total[s]
            g_exact[g, s] = exact[s]
            g_best[g, s] = best[s]
            g_winners[g, s] = (total[s] == total[top] and exact[s] == exact[top]
                               and best[s] == best[top])
    keep_nb(own)


# ----------------------------------------------------------------------------- bid query

@njit(cache=True, nogil=True)
def bid_weights_nb(rkey, lo, hi, n, h, my_pos, unseen, given, trump, rv, lam, start,
                   out_logw, out_u):
    """The bid query's importance weights of deals ``start + i`` for ``i`` in ``lo .. hi``
    (``out_*[i]``; :func:`fastsim.boerenbridge.bid_weights` runs the slices in parallel): the log
    likelihood of the earlier bids ``given[:my_pos]`` when positions ``0..my_pos-1`` hold
    the sampled hands, under the soft heuristic bidder with slope ``lam``
    (:func:`fastsim.bidmodel_nb.bid_loglik_nb`; ``inf``: the exact heuristic, 0 or −inf),
    and each deal's thinning uniform ``out_u``. Deals exactly as :func:`bid_query_nb`
    (only the cards of the earlier positions are drawn: a prefix of the same shuffle)."""
    U = unseen.shape[0]
    for i in range(lo, hi):
        dkey = deal_key_nb(rkey, start + i)
        deck = unseen.copy()
        shuffle_nb(dkey, 0, deck, 0, my_pos * h, U)
        lw = 0.0
        s = 0
        for p in range(my_pos):    # positions before me are dealt first, in order
            hm = hand_of_cards_nb(deck, p * h, h)
            hb = heuristic_bid_nb(hm, trump, n, h, p, s, -1, is_blind_nb(h, rv))
            lw += bid_loglik_nb(given[p], hb, h, -1, lam)
            if lw == -np.inf:
                break
            s += given[p]
        out_logw[i] = lw
        out_u[i] = uniform_nb(rand_nb(dkey, CTR_THIN))


@njit(cache=True, nogil=True)
def bid_query_nb(rkey, ci, n, h, my_pos, my_hand, turned, trump, unseen, given,
                 others_pol, rv, worlds, deals, chunk, out_tricks, out_scores, search):
    """Play the sampled deals ``deals[i]`` of chunk ``ci`` (``i`` in ``ci * chunk ..``; deal
    indices of the run whose key is ``rkey``; :func:`fastsim.boerenbridge.bid_query` runs
    the chunks in parallel) once per candidate bid 0..h for the player at ``my_pos``
    (common random numbers across bids). ``search``: ``None`` when the others play the
    heuristic (only the heuristic path is compiled then, as in :func:`games_chunk_nb`),
    else ``True``.

    ``unseen``: codes of the cards not in my hand and not turned; deal ``d`` deals them (a
    partial Fisher–Yates on counters 0..) to the other positions in order. ``given``: the
    bids of positions ``0..my_pos-1`` (-1: unknown, bid by the policy); which deals fit
    them, and how well, is :func:`bid_weights_nb`'s business. ``out_tricks[i, b]`` and
    ``out_scores[i, b]`` are my tricks and score when I bid ``b`` and play the heuristic
    aimed at ``b``, the others bidding and playing ``others_pol``.
    """
    U = unseen.shape[0]
    m = (n - 1) * h
    count = deals.shape[0]
    deck = np.empty(U, dtype=np.int64)
    hands = np.empty(MAX_SEATS, dtype=np.int64)
    cur = np.empty(4 * MAX_SEATS, dtype=np.int64)
    bids = np.empty(MAX_SEATS, dtype=np.int64)
    won = np.empty(MAX_SEATS, dtype=np.int64)
    scores = np.empty(MAX_SEATS, dtype=np.int64)
    pol = np.empty(MAX_SEATS, dtype=np.int64)
    dummy3 = np.empty((1, 1), dtype=np.int8)
    dummy2 = np.empty(1, dtype=np.int8)
    for i in range(ci * chunk, min((ci + 1) * chunk, count)):
        dkey = deal_key_nb(rkey, deals[i])
        for j in range(U):     # a loop, not ``deck[:] = unseen`` (see shuffle_prefix_nb)
            deck[j] = unseen[j]
        shuffle_nb(dkey, 0, deck, 0, m, U)
        q = 0
        for p in range(n):
            if p == my_pos:
                hands[p] = my_hand
                continue
            hands[p] = hand_of_cards_nb(deck, q * h, h)
            q += 1
        for p in range(n):
            pol[p] = others_pol
        pol[my_pos] = POLICY_HEURISTIC  # play aimed at my bid
        for b in range(h + 1):
            for p in range(n):
                bids[p] = given[p] if p < my_pos else -1
            bids[my_pos] = b
            if search is None:
                heuristic_bid_play_nb(n, h, hands, turned, trump, rv, cur, bids, won, scores)
            else:
                bid_play_nb(dkey, n, h, hands, turned, trump, pol, rv, worlds, cur, bids, won,
                            scores, dummy3, dummy2, dummy2, False)
            out_tricks[i, b] = won[my_pos]
            out_scores[i, b] = scores[my_pos]


@njit(cache=True, parallel=True)
def hand_values_nb(hands, trumps):
    """The heuristic's hand value (hundredths of a trick) of many hands (no position or
    bidding adjustments): ``hands`` int64 masks, ``trumps`` suit per hand (-1: none)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in prange(hands.shape[0]):
        out[i] = hand_value_nb(hands[i], trumps[i])
    return out


# the strong policy uses the functions above; its module is imported last so that both
# modules are complete before any kernel compiles (numba resolves the names then)
from .boerenbridge_strong_nb import strong_bid_nb, strong_card_nb  # noqa: E402
# issue #14, sixth push: the learned card model; strongl is strong_card_nb with a rollout mode
from .boerenbridge_schema import (POLICY_EXP_LAST, POLICY_LEARNED, POLICY_STRONGL,  # noqa: E402
                                  STRONGL_MODES)
from .cardmodel_nb import learned_card_nb, winner_pos_nb  # noqa: E402


@njit(cache=True, inline="always")
def strongl_mode_nb(pol):
    """The rollout mode of a strongl code (fastsim.boerenbridge_schema.STRONGL_MODES); 0
    (strong's own rollouts) for strong."""
    if pol < POLICY_STRONGL:
        return 0
    return STRONGL_MODES[pol - POLICY_STRONGL]

"""Bonken kernels: contract choice, trick rounds, Domino, whole games (docs/rules.md §3).

Rules in short: 4 players, 13 cards each; the player across from the dealer chooses the
contract, left of the dealer leads. Seven negative contracts (Ducking −5/trick, No Hearts
−5/heart, No Men −20/K −10/J, No Queens −30/Q, No King of Hearts −50, No Last −50 for the
13th trick, Domino −50 for the last player holding cards) and four trump rounds (+10 per
trick; ♠ ♥ ♦ ♣ or no-trump, each at most once). Follow suit; trumping allowed, never
required. Hearts may not be led in No Hearts / No King of Hearts unless the leader holds
only hearts (or, with ``hearts_lead=after_broken``, once a heart has fallen). Card-avoidance
rounds stop after the last penalty card. Domino: 8s open rows, build ±1, must move when able.

Compiled only; per-player arrays are indexed by *position* (0 = left of the dealer,
1 = chooser, 3 = dealer). Exact policy rules: ``docs/bonken.md``.
"""
import numpy as np
from ._jit import njit, prange

from .bits import popcount_nb, lowest_nb, highest_nb, suit_mask_nb, low_card_nb, high_card_nb
from .play_nb import (FULL52, shuffle_prefix_nb, hand_value_nb, heuristic_play_nb,
                      random_card_nb, above_nb, branch_nb as branch_n_nb, hand_of_cards_nb,
                      show_card_nb)
from .rng import run_key_nb, deal_key_nb, shuffle_nb
from .refs_nb import borrow_nb, keep_nb
from .pimc_nb import REST, decision_key_nb, draw_world_nb, list_cards_nb, best_index_nb
from .trick import trick_add_nb, trick_key_nb, trick_so_far_nb, NATURAL_ORDER
from .bonken_schema import (
    DUCKING, NO_HEARTS, NO_MEN, NO_QUEENS, NO_KH, NO_LAST, DOMINO, NO_TRUMP, TRUMP_S,
    N_NEGATIVE, BASELINE, RISK, POLICY_RANDOM, POLICY_PIMC, POLICY_STRONG, CTR_CHOICE, CTR_PLAY,
    CTR_DOMINO, F_HEARTS_AFTER_BROKEN,
    PTS_DUCKING_TRICK, PTS_HEART, PTS_KING, PTS_JACK, PTS_QUEEN, PTS_KH, PTS_LAST,
    PTS_TRUMP_TRICK, PTS_DOMINO_LOSER,
)

HEARTS = np.int64(0x1FFF) << 16
KINGS = np.int64(sum(1 << (16 * s + 11) for s in range(4)))
JACKS = np.int64(sum(1 << (16 * s + 9) for s in range(4)))
QUEENS = np.int64(sum(1 << (16 * s + 10) for s in range(4)))
KH = np.int64(1) << (16 + 11)
CHOOSER = 1              # the chooser's position (across from the dealer)


@njit(cache=True, inline="always")
def penalty_mask_nb(contract):
    """The cards that cost points in a negative trick contract (none for Ducking/No Last)."""
    if contract == NO_HEARTS:
        return HEARTS
    if contract == NO_MEN:
        return KINGS | JACKS
    if contract == NO_QUEENS:
        return QUEENS
    if contract == NO_KH:
        return KH
    return np.int64(0)


@njit(cache=True, inline="always")
def trump_of_nb(contract):
    if TRUMP_S <= contract < NO_TRUMP:
        return contract - TRUMP_S
    return -1


# ----------------------------------------------------------------------------- choice

@njit(cache=True)
def negative_cost_nb(hand, contract):
    """Heuristic expected loss of a negative contract, hundredths of points."""
    if contract == DUCKING:
        return PTS_DUCKING_TRICK * hand_value_nb(hand, -1)
    if contract == NO_HEARTS:
        c = 0
        m = hand & HEARTS
        while m:
            c += PTS_HEART * RISK[lowest_nb(m) & 15]
            m &= m - 1
        return c
    if contract == NO_MEN:
        return (PTS_KING * RISK[11] * popcount_nb(hand & KINGS)
                + PTS_JACK * RISK[9] * popcount_nb(hand & JACKS))
    if contract == NO_QUEENS:
        return PTS_QUEEN * RISK[10] * popcount_nb(hand & QUEENS)
    if contract == NO_KH:
        return PTS_KH * RISK[11] if hand & KH else 0
    if contract == NO_LAST:
        return (PTS_LAST * hand_value_nb(hand, -1)) // 13
    # domino: cards far from the 8 are played late
    s = 0
    m = hand
    while m:
        r = lowest_nb(m) & 15
        s += r - 6 if r >= 6 else 6 - r
        m &= m - 1
    return 50 * min(100, (25 * s) // 42)


@njit(cache=True)
def choose_contract_nb(dkey, hand, available, pol):
    """Contract id chosen from the bit set ``available`` (bit i = contract i)."""
    if pol == POLICY_RANDOM:
        return random_card_nb(dkey, CTR_CHOICE, available)  # k-th set bit, uniform
    best = -1
    best_v = 0
    for c in range(12):
        if not (available >> c) & 1:
            continue
        if c < N_NEGATIVE:
            v = BASELINE[c] - negative_cost_nb(hand, c)      # larger is better
        else:
            v = hand_value_nb(hand, trump_of_nb(c))
        if best < 0 or v > best_v:
            best = c
            best_v = v
    return best


# ----------------------------------------------------------------------------- tricks

@njit(cache=True)
def avoid_play_nb(hand, legal, j, led, winner, danger):
    """The heuristic's card in a negative trick contract (docs/bonken.md)."""
    if j == 0:
        pool = legal & ~danger
        return low_card_nb(pool) if pool else low_card_nb(legal)
    follow = hand & suit_mask_nb(led)
    if follow:
        w = follow & above_nb(winner)
        u = follow & ~w
        if u:
            return highest_nb(u)
        return highest_nb(follow) if j == 3 else lowest_nb(follow)
    d = hand & danger
    return high_card_nb(d) if d else high_card_nb(hand)


@njit(cache=True, inline="always")
def legal_bonken_nb(hand, j, led, restrict, rv, broken):
    """Legal cards: follow suit; the hearts-lead rule for the leader (``rv``: the variant
    tuple, Rules.flags)."""
    if j == 0:
        if restrict and not (rv[F_HEARTS_AFTER_BROKEN] and broken):
            nh = hand & ~HEARTS
            if nh:
                return nh
        return hand
    legal = hand & suit_mask_nb(led)
    return legal if legal else hand


@njit(cache=True, inline="always")
def score_trick_nb(contract, trick, t, win_pos, scores):
    if contract == DUCKING:
        scores[win_pos] -= PTS_DUCKING_TRICK
    elif contract == NO_HEARTS:
        scores[win_pos] -= PTS_HEART * popcount_nb(trick & HEARTS)
    elif contract == NO_MEN:
        scores[win_pos] -= PTS_KING * popcount_nb(trick & KINGS) + PTS_JACK * popcount_nb(trick & JACKS)
    elif contract == NO_QUEENS:
        scores[win_pos] -= PTS_QUEEN * popcount_nb(trick & QUEENS)
    elif contract == NO_KH:
        if trick & KH:
            scores[win_pos] -= PTS_KH
    elif contract == NO_LAST:
        if t == 12:
            scores[win_pos] -= PTS_LAST
    else:
        scores[win_pos] += PTS_TRUMP_TRICK


@njit(cache=True, inline="always")
def lay_card_nb(c, p, hand, hands, played, trick, chooser_played):
    """Position ``p`` lays ``c`` from ``hand``: out of ``hands[p]``; the updated
    ``(played, trick, chooser_played)`` (the chooser's cards, for strong's inference)."""
    bit = np.int64(1) << c
    if p == CHOOSER:
        chooser_played |= bit
    hands[p] = hand & ~bit
    return played | bit, trick | bit, chooser_played


@njit(cache=True, inline="always")
def end_trick_nb(contract, trick, t, win_pos, danger, broken, taken, scores):
    """The end of trick ``t``: hearts broken, the trick scored for its winner, its penalty
    cards taken; the updated ``(broken, taken, round over)`` (over: every penalty card
    taken, where there are any)."""
    if trick & HEARTS:
        broken = True
    score_trick_nb(contract, trick, t, win_pos, scores)
    taken |= trick & danger
    return broken, taken, danger != 0 and taken == danger


@njit(cache=True, inline="always")
def heuristic_card_nb(contract, hand, legal, j, led, winner, trump, danger, played):
    if contract >= TRUMP_S:
        return heuristic_play_nb(hand, j, 4, led, winner, trump, 1, FULL52 & ~(hand | played))
    return avoid_play_nb(hand, legal, j, led, winner, danger)


# The trick loop, written once (play_on_nb): every kernel that plays tricks -- the engine,
# the heuristic rollouts of pimc and strong, the play query's policy rollouts -- calls it
# with its own card hook ``card_fn(ctx, contract, p, hand, legal, j, led, winner, win_pos,
# trump, danger, rv, t, leader, tc, played, broken, taken, scores, voids,
# chooser_played, pol)`` (``ctx``: the hook's own tuple). numba inlines the loop and the
# hooks into each kernel, so every kernel compiles to its own loop. The engine's own play
# loop (:func:`play_tricks_nb`) stays written out: through this loop and a dispatching hook
# it measured 40-70% slower (deals/s), though the rollouts through it are as fast.

@njit(cache=True, inline="always")
def play_on_nb(card_fn, ctx, contract, hands, pol, rv, t0, leader, tc, tn, played,
               broken, taken, chooser_played, scores, voids, track):
    """Play a trick contract from trick ``t0`` (``tc[:tn]`` on the table, led by ``leader``)
    to the end of the round (or the last penalty card), ``card_fn`` choosing each card
    (``pol``: an array by position for hooks that read one, else any); ``hands`` lose the
    cards played, ``scores`` gain the round's penalties/gains. ``track`` (a constant): also
    keep ``voids`` (suits shown by not following) and ``tc`` (the current trick), which the
    searching policies read. Returns the trick count."""
    trump = trump_of_nb(contract)
    danger = penalty_mask_nb(contract)
    restrict = contract == NO_HEARTS or contract == NO_KH
    t = t0
    while t < 13:
        start = tn if t == t0 else 0
        led, winner, win_pos, best_key, trick = trick_so_far_nb(tc, start, leader, 4, trump,
                                                               NATURAL_ORDER)
        for j in range(start, 4):
            p = (leader + j) & 3
            hand = hands[p]
            legal = legal_bonken_nb(hand, j, led, restrict, rv, broken)
            c = card_fn(ctx, contract, p, hand, legal, j, led, winner, win_pos, trump, danger,
                        rv, t, leader, tc, played, broken, taken, scores, voids,
                        chooser_played, pol)
            if track:
                show_card_nb(c, j, p, led, voids, tc)
            played, trick, chooser_played = lay_card_nb(c, p, hand, hands, played, trick,
                                                        chooser_played)
            led, winner, win_pos, best_key = trick_add_nb(c, j, p, led, winner, win_pos,
                                                          best_key, trump, NATURAL_ORDER)
        broken, taken, over = end_trick_nb(contract, trick, t, win_pos, danger, broken, taken,
                                           scores)
        leader = win_pos
        t += 1
        if over:
            break
    return t


@njit(cache=True, inline="always")
def heuristic_hook_nb(ctx, contract, p, hand, legal, j, led, winner, win_pos, trump, danger,
                      rv, t, leader, tc, played, broken, taken, scores, voids,
                      chooser_played, pol):
    """Card hook: the heuristic for everyone."""
    return heuristic_card_nb(contract, hand, legal, j, led, winner, trump, danger, played)


@njit(cache=True)
def rollout_nb(contract, hands, rv, t0, leader, tc, tn, played, broken, taken, scores):
    """Finish a round with the heuristic for everyone from trick ``t0`` (``tc[:tn]`` on
    the table, led by ``leader``); adds the remaining penalties/gains to ``scores``."""
    play_on_nb(heuristic_hook_nb, 0, contract, hands, tc, rv, t0, leader, tc, tn,
               played, broken, taken, np.int64(0), scores, tc, False)


@njit(cache=True, inline="always")
def hidden_cap_nb(me, t, leader, tn):
    """How many hidden cards each other position holds at trick ``t`` with ``tn`` cards on
    the table (the world samplers' capacity array; :data:`fastsim.pimc_nb.REST` unused)."""
    cap = np.zeros(REST + 1, dtype=np.int64)
    for q in range(4):
        if q != me:
            cap[q] = 13 - t - (1 if ((q - leader) & 3) < tn else 0)
    return cap


@njit(cache=True, inline="always")
def branch_nb(world, me, hand, c, scores, tc, tn, h2, sc, tc2):
    """The state after my candidate card ``c`` in ``world``: ``h2`` its hands with ``c`` out
    of mine, ``sc`` the scores so far, ``tc2`` the trick with ``c`` added
    (:func:`fastsim.play_nb.branch_nb` for four players)."""
    branch_n_nb(4, world, me, hand, c, scores, tc, tn, h2, sc, tc2)


@njit(cache=True)
def best_card_nb(contract, me, hand, legal, worlds, mult, n_worlds, rv, t, leader, tc,
                 tn, played, broken, taken, scores):
    """The card search of pimc and strong: every legal card in each of ``worlds[:n_worlds]``
    (hands by position), finished by the heuristic; the card with the best total of
    ``mult[w]`` × my round score (ties: the lowest card). The arguments and the scratch (one
    allocation) are borrowed (fastsim.refs_nb): no reference counts per world and card."""
    worlds, mult, tc, scores = borrow_nb(worlds), borrow_nb(mult), borrow_nb(tc), borrow_nb(scores)
    own = np.zeros(2 * 13 + 3 * 4, dtype=np.int64)
    buf = borrow_nb(own)
    cards, totals = buf[0:13], buf[13:26]
    h2, sc, tc2 = buf[26:30], buf[30:34], buf[34:38]
    n_legal = list_cards_nb(legal, cards)
    for w in range(n_worlds):
        for k in range(n_legal):
            c = cards[k]
            branch_nb(worlds[w], me, hand, c, scores, tc, tn, h2, sc, tc2)
            rollout_nb(contract, h2, rv, t, leader, tc2, tn + 1,
                       played | (np.int64(1) << c), broken, taken, sc)
            totals[k] += mult[w] * sc[me]
    c = cards[best_index_nb(totals, n_legal)]
    keep_nb(own)
    return c


@njit(cache=True)
def pimc_card_nb(dkey, contract, me, hand, legal, rv, t, leader, tc, tn, played,
                 broken, taken, scores, voids, worlds):
    """pimc: every legal card scored over ``worlds`` sampled deals of the unseen cards
    (voids respected), each finished by the heuristic; the best average of my own score."""
    voids = borrow_nb(voids)
    unseen = FULL52 & ~(hand | played)
    cap_own = hidden_cap_nb(me, t, leader, tn)
    cap = borrow_nb(cap_own)
    drawn_own = np.empty((worlds, 4), dtype=np.int64)
    drawn = borrow_nb(drawn_own)      # a row per world, without reference counts
    base = decision_key_nb(dkey, t, me)
    for w in range(worlds):
        draw_world_nb(deal_key_nb(base, w), 4, me, hand, unseen, cap, voids, drawn[w])
    c = best_card_nb(contract, me, hand, legal, drawn, np.ones(worlds, dtype=np.int64), worlds,
                     rv, t, leader, tc, tn, played, broken, taken, scores)
    keep_nb(cap_own)
    keep_nb(drawn_own)
    return c


@njit(cache=True, inline="always")
def seat_card_nb(pol, dkey, contract, p, hand, legal, j, led, winner, trump, danger,
                 rv, t, leader, tc, played, broken, taken, scores, voids, worlds):
    """The card of policy ``pol`` (random, pimc or the heuristic; strong: see
    :func:`play_tricks_nb`), keyed by the deal key ``dkey``."""
    if pol == POLICY_RANDOM:
        return random_card_nb(dkey, CTR_PLAY + 8 * t + p, legal)
    if pol == POLICY_PIMC and popcount_nb(legal) > 1:
        return pimc_card_nb(dkey, contract, p, hand, legal, rv, t, leader, tc, j,
                            played, broken, taken, scores, voids, worlds)
    return heuristic_card_nb(contract, hand, legal, j, led, winner, trump, danger, played)


@njit(cache=True)
def play_tricks_nb(dkey, contract, hands, pol, rv, worlds, scratch, won, scores,
                   rec_cards, rec_lead, rec_win, record, chosen_from):
    """Play a trick contract from dealt ``hands`` (modified: cards leave as played).
    Fills ``won`` and ``scores`` (by position); returns the number of tricks played.
    ``chosen_from``: the contracts the chooser chose this one from (bit set; 0 when nobody
    chose), for strong's inference."""
    # the arguments, borrowed (fastsim.refs_nb): no reference counts for the policies' calls
    hands, pol, scratch, won = borrow_nb(hands), borrow_nb(pol), borrow_nb(scratch), borrow_nb(won)
    scores, rec_cards = borrow_nb(scores), borrow_nb(rec_cards)
    rec_lead, rec_win = borrow_nb(rec_lead), borrow_nb(rec_win)
    trump = trump_of_nb(contract)
    danger = penalty_mask_nb(contract)
    restrict = contract == NO_HEARTS or contract == NO_KH
    for p in range(4):
        won[p] = 0
        scores[p] = 0
    played = np.int64(0)
    taken = np.int64(0)
    broken = False
    voids = scratch[0:4]          # the caller's buffer: no allocation per deal
    voids[:] = 0
    tc = scratch[4:8]
    chooser_played = np.int64(0)   # the chooser's cards so far (strong's inference)
    leader = 0
    t = 0
    while t < 13:
        led = -1
        winner = -1
        best_key = -1
        win_pos = 0
        trick = np.int64(0)
        for j in range(4):
            p = (leader + j) & 3
            hand = hands[p]
            legal = legal_bonken_nb(hand, j, led, restrict, rv, broken)
            if pol[p] == POLICY_RANDOM:
                c = random_card_nb(dkey, CTR_PLAY + 8 * t + p, legal)
            elif pol[p] == POLICY_PIMC and popcount_nb(legal) > 1:
                c = pimc_card_nb(dkey, contract, p, hand, legal, rv, t, leader, tc, j,
                                 played, broken, taken, scores, voids, worlds)
            elif pol[p] == POLICY_STRONG and popcount_nb(legal) > 1:
                c = strong_nb.strong_card_nb(dkey, contract, p, hand, legal, rv, t,
                                             leader, tc, j, played, broken, taken, scores, voids,
                                             worlds, chosen_from, chooser_played)
            else:
                c = heuristic_card_nb(contract, hand, legal, j, led, winner, trump, danger, played)
            if j > 0 and (c >> 4) != led:
                voids[p] |= 1 << led
            tc[j] = c
            bit = np.int64(1) << c
            if p == 1:
                chooser_played |= bit
            hands[p] = hand & ~bit
            played |= bit
            trick |= bit
            if j == 0:
                led = c >> 4
            key = trick_key_nb(c, led, trump, NATURAL_ORDER)
            if key > best_key:
                best_key = key
                winner = c
                win_pos = p
            if record:
                rec_cards[t, j] = c
        if record:
            rec_lead[t] = leader
            rec_win[t] = win_pos
        won[win_pos] += 1
        if trick & HEARTS:
            broken = True
        score_trick_nb(contract, trick, t, win_pos, scores)
        taken |= trick & danger
        leader = win_pos
        t += 1
        if danger != 0 and taken == danger:
            break
    return t


# ----------------------------------------------------------------------------- domino

@njit(cache=True, inline="always")
def domino_legal_nb(hand, lo, hi):
    """Legal Domino cards of ``hand``; ``lo``/``hi`` per suit (-1 = row not open)."""
    legal = np.int64(0)
    for s in range(4):
        if lo[s] < 0:
            legal |= hand & (np.int64(1) << (16 * s + 6))
        else:
            if hi[s] < 12:
                legal |= hand & (np.int64(1) << (16 * s + hi[s] + 1))
            if lo[s] > 0:
                legal |= hand & (np.int64(1) << (16 * s + lo[s] - 1))
    return legal


@njit(cache=True)
def domino_heuristic_nb(hand, legal):
    best = -1
    best_v = -1
    m = legal
    while m:
        c = lowest_nb(m)
        m &= m - 1
        s = c >> 4
        r = c & 15
        ranks = (hand >> (16 * s)) & 0x1FFF
        if r == 6:
            v = popcount_nb(ranks) - 1
        elif r > 6:
            v = popcount_nb(ranks >> (r + 1))
        else:
            v = popcount_nb(ranks & ((1 << r) - 1))
        if v > best_v:
            best_v = v
            best = c
    return best


@njit(cache=True, inline="always")
def domino_move_nb(pol, dkey, hand, lo, hi, m):
    """The Domino move of policy ``pol`` at turn ``m``: a card, or -1 for a pass when nothing
    is legal (pimc and strong play Domino by the heuristic)."""
    legal = domino_legal_nb(hand, lo, hi)
    if legal == 0:
        return -1
    if pol == POLICY_RANDOM:
        return random_card_nb(dkey, CTR_DOMINO + m, legal)
    return domino_heuristic_nb(hand, legal)


@njit(cache=True, inline="always")
def domino_place_nb(c, lo, hi):
    """Lay card ``c``: it opens its suit's row (an 8) or extends it at either end."""
    s = c >> 4
    r = c & 15
    if lo[s] < 0:
        lo[s] = r
        hi[s] = r
    elif r > hi[s]:
        hi[s] = r
    else:
        lo[s] = r


@njit(cache=True, inline="always")
def domino_on_nb(dkey, pol, hands, lo, hi, p, m, out, rec_moves, rec_out, record):
    """The Domino loop, written once (the engine and the Domino query): from position ``p``
    to move (turn ``m``, ``out`` players already out) until three are out, ``pol[q]`` the
    policy of position ``q``; ``rec_moves[m] = (position, card or -1 for a pass)`` and
    ``rec_out`` the order going out when ``record``. Returns (turns, losing position)."""
    while out < 3:
        hand = hands[p]
        if hand != 0:
            c = domino_move_nb(pol[p], dkey, hand, lo, hi, m)
            if c >= 0:
                domino_place_nb(c, lo, hi)
                hands[p] = hand & ~(np.int64(1) << c)
                if hands[p] == 0:
                    if record:
                        rec_out[out] = p
                    out += 1
            if record:
                rec_moves[m, 0] = p
                rec_moves[m, 1] = c
            m += 1
        p = (p + 1) & 3
    loser = 0
    for q in range(4):
        if hands[q] != 0:
            loser = q
    return m, loser


@njit(cache=True)
def play_domino_nb(dkey, hands, pol, scores, rec_moves, rec_out, record):
    """Play Domino; ``rec_moves[m] = (position, card or -1 for a pass)``. Returns
    (number of turns, losing position). The loop is ``domino_on_nb``'s written out: through
    it Bonken's heuristic games/s fell 6% (2026-12-04, CPU time, alternating runs; 15-30%
    with the other shared helpers, commit 0939bd5)."""
    lo = np.full(4, -1, dtype=np.int64)
    hi = np.full(4, -1, dtype=np.int64)
    for p in range(4):
        scores[p] = 0
    out = 0
    p = 0
    m = 0
    while out < 3:
        hand = hands[p]
        if hand != 0:
            legal = domino_legal_nb(hand, lo, hi)
            c = -1
            if legal:
                if pol[p] == POLICY_RANDOM:
                    c = random_card_nb(dkey, CTR_DOMINO + m, legal)
                else:
                    c = domino_heuristic_nb(hand, legal)
                s = c >> 4
                r = c & 15
                if lo[s] < 0:
                    lo[s] = r
                    hi[s] = r
                elif r > hi[s]:
                    hi[s] = r
                else:
                    lo[s] = r
                hands[p] = hand & ~(np.int64(1) << c)
                if hands[p] == 0:
                    if record:
                        rec_out[out] = p
                    out += 1
            if record:
                rec_moves[m, 0] = p
                rec_moves[m, 1] = c
            m += 1
        p = (p + 1) & 3
    loser = 0
    for q in range(4):
        if hands[q] != 0:
            loser = q
    scores[loser] = -PTS_DOMINO_LOSER
    return m, loser


# ----------------------------------------------------------------------------- games

@njit(cache=True, inline="always")
def hand_of_nb(deck, first):
    """The hand of the 13 cards ``deck[first:first + 13]``."""
    return hand_of_cards_nb(deck, first, 13)


@njit(cache=True, inline="always")
def deal_nb(dkey, deck, hands):
    """Shuffle with the deal key and give 13 cards to each position (0 = left of the
    dealer): position p gets ``deck[13p:13p + 13]``."""
    shuffle_prefix_nb(dkey, deck, 51)
    for p in range(4):
        hands[p] = hand_of_nb(deck, 13 * p)


@njit(cache=True, parallel=True)
def run_games_nb(seed, plan, first_dealer, seat_pol, rv, worlds, game_start, n_games,
                 chunk,
                 o_deal, o_game, o_round, o_dealer, o_contract, o_ntricks, o_loser,
                 o_hands, o_tricks, o_scores, g_totals, g_winners,
                 record, r_cards, r_lead, r_win, r_moves, r_nmoves, r_out):
    """Play ``n_games`` games of ``plan`` (one entry per round: a contract id, or -1 for
    "the chooser picks among the unplayed ones of this half"). Rows ``g * K + k``."""
    rkey = run_key_nb(seed)
    K = plan.shape[0]
    n_chunks = (n_games + chunk - 1) // chunk
    for ci in prange(n_chunks):
        deck = np.empty(52, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        won = np.empty(4, dtype=np.int64)
        scratch = np.empty(8, dtype=np.int64)
        scores = np.empty(4, dtype=np.int64)
        pol = np.empty(4, dtype=np.int64)
        total = np.empty(4, dtype=np.int64)
        for g in range(ci * chunk, min((ci + 1) * chunk, n_games)):
            done = 0
            for s in range(4):
                total[s] = 0
            for k in range(K):
                r = g * K + k
                deal = (game_start + g) * K + k
                dealer = (first_dealer + k) & 3
                for p in range(4):
                    pol[p] = seat_pol[(dealer + 1 + p) & 3]
                dkey = deal_key_nb(rkey, deal)
                shuffle_prefix_nb(dkey, deck, 51)
                for p in range(4):
                    hm = np.int64(0)
                    for i in range(13 * p, 13 * p + 13):
                        hm |= np.int64(1) << deck[i]
                    hands[p] = hm
                    o_hands[r, (dealer + 1 + p) & 3] = hm
                contract = plan[k]
                chosen_from = 0
                if contract < 0:
                    avail = (~done) & (0x7F if k < N_NEGATIVE else 0xF80)
                    chosen_from = avail
                    if pol[1] == POLICY_STRONG:
                        contract = strong_nb.strong_choose_nb(
                            dkey, hands[1], avail, rv,
                            strong_nb.CHOICE_WORLDS * worlds, strong_nb.RELATIVE)
                    else:
                        contract = choose_contract_nb(dkey, hands[1], avail, pol[1])
                done |= 1 << contract
                if contract == DOMINO:
                    if record:
                        nm, loser = play_domino_nb(dkey, hands, pol, scores, r_moves[r],
                                                   r_out[r], True)
                        r_nmoves[r] = nm
                    else:
                        nm, loser = play_domino_nb(dkey, hands, pol, scores, r_moves[0],
                                                   r_out[0], False)
                    for p in range(4):
                        won[p] = 0
                    nt = 0
                    o_loser[r] = (dealer + 1 + loser) & 3
                else:
                    if record:
                        nt = play_tricks_nb(dkey, contract, hands, pol, rv, worlds, scratch,
                                            won, scores, r_cards[r], r_lead[r], r_win[r], True,
                                            chosen_from)
                    else:
                        nt = play_tricks_nb(dkey, contract, hands, pol, rv, worlds, scratch,
                                            won, scores, r_cards[0], r_lead[0], r_win[0], False,
                                            chosen_from)
                    o_loser[r] = -1
                o_deal[r] = deal
                o_game[r] = game_start + g
                o_round[r] = k
                o_dealer[r] = dealer
                o_contract[r] = contract
                o_ntricks[r] = nt
                for p in range(4):
                    s = (dealer + 1 + p) & 3
                    o_tricks[r, s] = won[p]
                    o_scores[r, s] = scores[p]
                    total[s] += scores[p]
            top = total[0]
            for s in range(1, 4):
                top = max(top, total[s])
            for s in range(4):
                g_totals[g, s] = total[s]
                g_winners[g, s] = total[s] == top


# ----------------------------------------------------------------------------- advice

@njit(cache=True, parallel=True)
def contract_query_nb(seed, my_hand, unseen, contracts, pol, rv, worlds, start, count,
                      chunk, out_scores):
    """For sample ``start + i``: deal ``unseen`` (39 cards) to positions 0, 2, 3 (I am the
    chooser, position 1; the dealer is position 3) and play every contract of ``contracts``
    on that same deal. ``out_scores[i, c, p]``: score of position ``p`` in contract ``c``
    (strong players infer as if I had chosen it from the contracts of ``contracts`` of its
    half: the negative ones, or the trump options)."""
    rkey = run_key_nb(seed)
    nc = contracts.shape[0]
    chosen_from = 0
    for c in range(nc):
        chosen_from |= 1 << contracts[c]
    n_chunks = (count + chunk - 1) // chunk
    for ci in prange(n_chunks):
        deck = np.empty(39, dtype=np.int64)
        scratch = np.empty(8, dtype=np.int64)
        rows = np.empty((4, 4), dtype=np.int64)   # per position
        dealt, hands, won, scores = rows[0], rows[1], rows[2], rows[3]
        d3 = np.empty((1, 1), dtype=np.int8)
        d2 = np.empty(1, dtype=np.int8)
        dm = np.empty((1, 2), dtype=np.int8)
        for i in range(ci * chunk, min((ci + 1) * chunk, count)):
            dkey = deal_key_nb(rkey, start + i)
            deck[:] = unseen
            shuffle_nb(dkey, 0, deck, 0, 38, 39)
            q = 0
            for p in range(4):
                if p == 1:
                    dealt[p] = my_hand
                    continue
                dealt[p] = hand_of_nb(deck, 13 * q)
                q += 1
            for c in range(nc):
                for p in range(4):
                    hands[p] = dealt[p]
                if contracts[c] == DOMINO:
                    play_domino_nb(dkey, hands, pol, scores, dm, d2, False)
                else:
                    half = 0x7F if contracts[c] < N_NEGATIVE else 0xF80
                    play_tricks_nb(dkey, contracts[c], hands, pol, rv, worlds, scratch, won,
                                   scores, d3, d2, d2, False, chosen_from & half)
                for p in range(4):
                    out_scores[i, c, p] = scores[p]


# strong's kernels call this module's; its dispatch above calls them (resolved when first
# compiled, so importing the module object here, after every name it needs, is safe)
from . import bonken_strong_nb as strong_nb  # noqa: E402

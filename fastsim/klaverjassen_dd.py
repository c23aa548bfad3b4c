"""Double-dummy analysis of Klaverjassen positions (Python front of the compiled solver).

``solve(hands, trump, ...)`` → the margin (the playing team's card points + roem minus the
defenders', over the tricks still to play) under perfect play by both sides, whether the
playing team makes it (margin > 0), whether either team can force a pit (all remaining
tricks), and optionally the margin after each legal card of the player to move.
"""
import time

import numpy as np

from . import klaverjassen_dd_nb as dd
from . import klaverjassen_nb as knb
from .cards import CardError, card_str, mask_of
from .common import RulesError

_TABLE = None
_GEN = [0]


def _table():
    global _TABLE
    if _TABLE is None:
        _TABLE = dd.new_table()
    _GEN[0] += 1
    return _TABLE, _GEN[0]


def check_position(hands, trump, leader, trick, rules, notation="en"):
    """Validate a position (card codes); raises CardError/RulesError with one line (cards
    written in ``notation``)."""
    if len(hands) != 4:
        raise CardError(f"give four hands (seats 0 / 1 / 2 / 3), got {len(hands)}")
    seen = {}
    for s, h in enumerate(hands):
        for c in h:
            if c % 16 < 5:
                raise CardError(f"card {card_str(c, notation)} is not in the 32-card deck (7 to A)")
            if c in seen:
                raise CardError(f"card {card_str(c, notation)} is in seat {seen[c]}'s and seat {s}'s hand")
            seen[c] = s
    for c in trick:
        if c % 16 < 5:
            raise CardError(f"card {card_str(c, notation)} is not in the 32-card deck (7 to A)")
        if c in seen:
            raise CardError(f"card {card_str(c, notation)} is both in a hand and in the trick")
        seen[c] = "trick"
    if len(set(trick)) != len(trick):
        raise CardError("a card appears twice in the trick")
    if len(trick) > 3:
        raise RulesError(f"a trick in progress has at most 3 cards, got {len(trick)}")
    if not 0 <= leader < 4:
        raise RulesError(f"leader must be a seat 0..3, got {leader}")
    if not 0 <= trump < 4:
        raise RulesError("trump must be a suit")
    played = {(leader + j) % 4 for j in range(len(trick))}
    sizes = [len(h) + (1 if s in played else 0) for s, h in enumerate(hands)]
    if len(set(sizes)) != 1:
        raise RulesError("hands must hold the same number of cards (counting a card already "
                         f"played to the trick): seats have {', '.join(str(len(h)) for h in hands)}")
    if not 1 <= sizes[0] <= 8:
        raise RulesError(f"a Klaverjassen hand holds at most 8 cards, got {sizes[0]}")
    # each card in the trick must have been legal for its player
    masks = [mask_of(h) for h in hands]
    led = -1
    winner = -1
    wseat = -1
    hi = -1
    for j, c in enumerate(trick):
        s = (leader + j) % 4
        held = np.int64(masks[s] | (1 << c))
        pw = j > 0 and (wseat & 1) == (s & 1)
        legal = int(knb.legal_nb(held, led, trump, hi, pw, rules.flags))
        if not legal >> c & 1:
            raise RulesError(f"illegal trick: seat {s} may not play {card_str(c, notation)} there")
        led, winner, wseat, hi = knb.follow_nb(c, j, s, led, winner, wseat, hi, trump)
    return masks


def solve(hands, trump, rules, leader=0, playing_team=0, trick=(), cards=False, notation="en"):
    """``hands``: four lists of card codes (per seat, cards still held); ``trick``: cards
    already played to the current trick, starting with ``leader``'s. Cards in the answer
    and in error messages are written in ``notation``."""
    if playing_team not in (0, 1):
        raise RulesError("the playing team is 0 (seats 0+2) or 1 (seats 1+3)")
    trick = [int(c) for c in trick]
    masks = check_position(hands, trump, leader, trick, rules, notation)
    h = np.array(masks, dtype=np.int64)
    tr = np.full(4, -1, dtype=np.int64)
    tr[:len(trick)] = trick
    tn = len(trick)
    rv = rules.flags     # the variant tuple the kernels take
    table, gen = _table()
    counter = np.zeros(1, dtype=np.int64)
    # load the compiled search (first call) before timing it: an empty deal returns at once
    dd.search_nb(np.zeros(4, dtype=np.int64), tr, 0, 0, -dd.INF, dd.INF, trump, playing_team,
                 0, rv, *table, gen, counter)
    counter[0] = 0
    t0 = time.perf_counter()
    margin = int(dd.search_nb(h, tr, tn, leader, -dd.INF, dd.INF, trump, playing_team, 0,
                              rv, *table, gen, counter))
    seconds = time.perf_counter() - t0
    nodes = int(counter[0])
    left = (sum(len(x) for x in hands) + tn) // 4
    pit_team = None
    for team in (playing_team, 1 - playing_team):
        _, g = _table()
        v = dd.search_nb(h, tr, tn, leader, left - 1, left, trump, team, 1, rv, *table, g,
                         np.zeros(1, dtype=np.int64))
        if v >= left:
            pit_team = team
            break
    out = {"margin": margin, "makes": margin > 0, "pit_possible": pit_team is not None,
           "pit_team": pit_team, "nodes": nodes, "seconds": seconds}
    if cards:
        player = (leader + tn) % 4
        led = trick[0] >> 4 if trick else -1
        pw, hi, winner, wseat = False, -1, -1, -1
        for j, c in enumerate(trick):
            s = (leader + j) % 4
            led, winner, wseat, hi = knb.follow_nb(c, j, s, led, winner, wseat, hi, trump)
        pw = tn > 0 and (wseat & 1) == (player & 1)
        legal = int(knb.legal_nb(h[player], led, trump, hi, pw, rules.flags))
        rows = []
        x = legal
        while x:
            c = (x & -x).bit_length() - 1
            x &= x - 1
            rows.append({"card": card_str(c, notation), "margin": card_margin(h, tr, tn, leader, c, trump,
                                                                     playing_team, rv)})
        out["cards"] = rows
    return out


def card_margin(h, tr, tn, leader, c, trump, playing_team, rv):
    """The margin of the rest of the deal after the player to move plays ``c``."""
    player = (leader + tn) % 4
    h2 = h.copy()
    h2[player] &= ~(np.int64(1) << c)
    trick = [int(x) for x in tr[:tn]] + [c]
    if len(trick) < 4:
        t2 = np.full(4, -1, dtype=np.int64)
        t2[:len(trick)] = trick
        table, gen = _table()
        return int(dd.search_nb(h2, t2, len(trick), leader, -dd.INF, dd.INF, trump,
                                playing_team, 0, rv, *table, gen, np.zeros(1, dtype=np.int64)))
    # the card completes the trick: score it, then solve from the next lead
    led = trick[0] >> 4
    winner, wseat = trick[0], leader
    for j in range(1, 4):
        if knb.beats_nb(trick[j], winner, led, trump):
            winner, wseat = trick[j], (leader + j) % 4
    m = 0
    for x in trick:
        m |= 1 << x
    last = not (h2[0] | h2[1] | h2[2] | h2[3])
    v = sum(int(knb.points_nb(x, trump)) for x in trick) + int(knb.roem_nb(np.int64(m), trump, rv))
    v += 10 if last else 0
    v = v if (wseat & 1) == playing_team else -v
    if last:
        return v
    table, gen = _table()
    return v + int(dd.search_nb(h2, np.full(4, -1, dtype=np.int64), 0, wseat, -dd.INF, dd.INF,
                                trump, playing_team, 0, rv, *table, gen,
                                np.zeros(1, dtype=np.int64)))

"""Boerenbridge's strong policy: worlds that agree with the bidding, equivalent cards, the
policy inside the simulator, the step-by-step drivers and the OpenSpiel bridge."""
import numpy as np
import pytest

from fastsim import boerenbridge as bb
from fastsim import boerenbridge_nb as nb
from fastsim import boerenbridge_strong_nb as st
from fastsim.boerenbridge_schema import (MAX_SEATS, STRONG_BID_SHIFT, STRONG_CANDIDATES,
                                         build_rules)
from fastsim.cards import codes_of, parse_card
from fastsim.pimc_nb import distinct_cards_nb
from fastsim.play_nb import FULL52

import naive_boerenbridge as ref


def _positions(n=4, h=8, deals=12, seed=5, variants=()):
    """Mid-deal positions of recorded heuristic deals: (n, h, me, hand now, played, bids,
    won, t, leader, tc, tn, voids, played_by, trump, true hands now)."""
    rules = bb.build_rules(players=n, hand_size=h, variants=list(variants))
    res = bb.simulate(rules, deals, seed=seed, record=True)
    d, play = res.deals, res.play
    out = []
    for r in range(deals):
        dealer = int(d["dealer"][r])
        hands = [int(d["hands"][r][(dealer + 1 + p) % n]) for p in range(n)]
        bids = np.full(MAX_SEATS, -1, dtype=np.int64)
        bids[:n] = [int(d["bids"][r][(dealer + 1 + p) % n]) for p in range(n)]
        turned, trump = int(d["trump_card"][r]), int(d["trump"][r])
        cur = list(hands)
        played = 1 << turned
        won = np.zeros(MAX_SEATS, dtype=np.int64)
        voids = np.zeros(MAX_SEATS, dtype=np.int64)
        pl_by = np.zeros(MAX_SEATS, dtype=np.int64)
        for t in range(h):
            leader = int(play["leader"][r, t])
            tc = np.zeros(MAX_SEATS, dtype=np.int64)
            for j in range(n):
                p = (leader + j) % n
                if (r + t + j) % 5 == 0:
                    out.append((n, h, p, cur[p], played, bids.copy(), won.copy(), t, leader,
                                tc.copy(), j, voids.copy(), pl_by.copy(), trump, list(cur)))
                c = int(play["cards"][r, t, j])
                if j and c >> 4 != tc[0] >> 4:
                    voids[p] |= 1 << int(tc[0] >> 4)
                tc[j] = c
                cur[p] &= ~(1 << c)
                pl_by[p] |= 1 << c
                played |= 1 << c
            won[int(play["winner"][r, t])] += 1
    return out


RV = build_rules(players=4, hand_size=8).flags     # the kernels' variant tuple: the standard game


def _rebid(n, h, dealt, trump, bids, rv=RV, shift=STRONG_BID_SHIFT):
    """Every position's model bid (strong's bidder: the heuristic's, its hand value
    shifted by ``shift``) on its dealt hand, after the recorded bids before it."""
    s, got = 0, []
    for q in range(n):
        f = int(nb.forbidden_bid_nb(h, s, rv)) if q == n - 1 else -1
        got.append(int(st.model_bid_nb(np.int64(dealt[q]), np.int64(trump), n, h, q, s, f,
                                       False, shift)))
        s += int(bids[q])
    return got


def _naive_model_bid(hand, pos, n, h, trump, before, shift, blind=False):
    """The heuristic bid of the reference engine (docs/boerenbridge.md) with ``shift``
    added to the hand value E, written out here."""
    cards = [ref.card_str(c) for c in codes_of(hand)]
    letter = None if trump < 0 else ref.SUIT_CHARS[trump]
    e = (100 // n if blind else ref.hand_value(cards, letter)) + shift
    if pos == 0:
        e += 10
    s = sum(before)
    if 100 * s * n > 100 * h * pos + 50 * n:
        e -= 25
    if 100 * s * n < 100 * h * pos - 50 * n:
        e += 25
    bid = max(0, min(h, (e + 50) // 100))
    if pos == n - 1:
        f = ref.forbidden_bid(h, before)
        if f is not None and bid == f:
            bid = bid + 1 if e >= 100 * bid and bid + 1 <= h else (bid - 1 if bid >= 1 else 1)
    return bid


def test_model_bidder_is_the_heuristic_shifted():
    """strong's model bidder restates the heuristic's bid rule: with shift 0 it is the
    heuristic's bid exactly, and with any shift the reference rule with E shifted."""
    rng = np.random.default_rng(3)
    diff = 0
    for _ in range(4000):
        n = int(rng.integers(3, 8))
        h = int(rng.integers(1, 52 // n))
        perm = rng.permutation(52)
        hand = sum(1 << (16 * (c // 13) + c % 13) for c in perm[:h])
        trump = int(rng.integers(-1, 4))
        pos = int(rng.integers(0, n))
        before = [int(x) for x in rng.integers(0, h + 1, size=pos)]
        s = sum(before)
        f = int(nb.forbidden_bid_nb(h, s, RV)) if pos == n - 1 else -1
        blind = h == 1 and bool(rng.integers(0, 2))
        args = (np.int64(hand), np.int64(trump), n, h, pos, s, f, blind)
        heur = int(nb.heuristic_bid_nb(*args))
        assert int(st.model_bid_nb(*args, 0)) == heur
        for shift in (STRONG_BID_SHIFT, -40, 75):
            got = int(st.model_bid_nb(*args, shift))
            assert got == _naive_model_bid(hand, pos, n, h, trump, before, shift, blind)
            diff += got != heur
    assert diff > 500


def test_deterministic_bidder_worlds_rebid_exactly():
    """With the exact heuristic bidder (slope inf) every world a card decision keeps gives
    every other player the hand on which the heuristic bids exactly what they bid; with no
    weighting (slope 0) some worlds do not (so the weighting is what does it)."""
    kept = contradicted = 0
    for (n, h, me, hand, played, bids, won, t, leader, tc, tn, voids, pl_by, trump,
         _) in _positions():
        unseen = np.int64(FULL52 & ~(hand | played))
        for lam, worlds in ((np.inf, 16), (0.0, 16)):
            out = np.zeros((worlds, MAX_SEATS), dtype=np.int64)
            ess = st.card_worlds_nb(np.uint64(77 + t), n, h, me, np.int64(hand), unseen, t,
                                    leader, tn, voids, pl_by, np.int64(trump), bids, RV,
                                    False, worlds, STRONG_CANDIDATES, lam, STRONG_BID_SHIFT,
                                    out)
            for w in range(worlds):
                dealt = [int(out[w, q]) | int(pl_by[q]) for q in range(n)]
                assert dealt[me] == hand | int(pl_by[me])
                others = [q for q in range(n) if q != me]
                agree = all(_rebid(n, h, dealt, trump, bids)[q] == bids[q] for q in others)
                if lam == np.inf and ess > 0:
                    assert agree, (me, t, w)
                    kept += 1
                if lam == 0.0:
                    assert ess == pytest.approx(worlds * STRONG_CANDIDATES)
                    contradicted += not agree
    assert kept > 500 and contradicted > 100


def test_bid_worlds_agree_with_the_earlier_bids():
    rules = bb.build_rules(players=5, hand_size=6)
    res = bb.simulate(rules, 20, seed=9)
    d = res.deals
    kept = 0
    for r in range(20):
        dealer = int(d["dealer"][r])
        hands = [int(d["hands"][r][(dealer + 1 + p) % 5]) for p in range(5)]
        bids = np.full(MAX_SEATS, -1, dtype=np.int64)
        bids[:5] = [int(d["bids"][r][(dealer + 1 + p) % 5]) for p in range(5)]
        trump, turned = int(d["trump"][r]), int(d["trump_card"][r])
        for me in range(1, 5):
            out = np.zeros((8, MAX_SEATS), dtype=np.int64)
            ess = st.bid_worlds_nb(np.uint64(r), 5, 6, me, np.int64(hands[me]), turned,
                                   np.int64(trump), bids, RV, False, 8, 4, np.inf,
                                   STRONG_BID_SHIFT, out)
            for w in range(8):
                assert out[w, me] == hands[me]
                assert not int(np.bitwise_or.reduce(out[w, :5])) >> turned & 1
                if ess > 0:
                    got = _rebid(5, 6, [int(x) for x in out[w, :5]], trump, bids)
                    assert got[:me] == [int(b) for b in bids[:me]]
                    kept += 1
    assert kept >= 20 * 4 * 8 // 2


def test_world_cards_are_the_unseen_ones():
    """Every world gives each other player exactly its number of hidden cards, all unseen,
    none twice, none of a suit it showed void in."""
    for (n, h, me, hand, played, bids, won, t, leader, tc, tn, voids, pl_by, trump,
         true_now) in _positions(n=5, h=7, deals=6, seed=3):
        unseen = int(FULL52 & ~(hand | played))
        out = np.zeros((32, MAX_SEATS), dtype=np.int64)
        st.card_worlds_nb(np.uint64(t), n, h, me, np.int64(hand), np.int64(unseen), t, leader,
                          tn, voids, pl_by, np.int64(trump), bids, RV, False, 32, 4, 1.0,
                          STRONG_BID_SHIFT, out)
        for w in range(32):
            seen = 0
            for q in range(n):
                x = int(out[w, q])
                if q == me:
                    assert x == hand
                    continue
                assert bin(x).count("1") == bin(true_now[q]).count("1")
                assert x & ~unseen == 0 and x & seen == 0
                seen |= x
                for s in range(4):
                    if voids[q] >> s & 1:
                        assert x >> (16 * s) & 0x1FFF == 0


def _distinct_naive(legal, unseen):
    cards = [c for c in range(64) if legal >> c & 1]
    out = []
    for i, c in enumerate(cards):
        if i and cards[i - 1] >> 4 == c >> 4 and not any(
                unseen >> x & 1 for x in range(cards[i - 1] + 1, c)):
            continue
        out.append(c)
    return out


def test_distinct_cards_keeps_one_card_of_each_run():
    rng = np.random.default_rng(1)
    buf = np.empty(13, dtype=np.int64)
    for _ in range(3000):
        perm = rng.permutation(52)
        codes = [16 * (c // 13) + c % 13 for c in perm]
        k = int(rng.integers(1, 13))
        legal = sum(1 << c for c in codes[:k])
        unseen = sum(1 << c for c in codes[k:k + int(rng.integers(0, 40))])
        m = distinct_cards_nb(np.int64(legal), np.int64(unseen), buf)
        assert list(buf[:m]) == _distinct_naive(legal, unseen)


def test_equivalent_cards_lead_to_the_same_deal():
    """Playing either card of an equivalent pair and finishing the deal with the heuristic
    gives everyone the same tricks in every world (what lets strong score only one)."""
    pairs = 0
    table_pairs = 0
    buf = np.empty(13, dtype=np.int64)
    for (n, h, me, hand, played, bids, won, t, leader, tc, tn, voids, pl_by, trump,
         true_now) in _positions(deals=40, seed=8):
        led = tc[0] >> 4 if tn else -1
        legal = hand
        if tn and hand & (0xFFFF << (16 * int(led))):
            legal = hand & (0xFFFF << (16 * int(led)))
        unseen = int(FULL52 & ~(hand | played))
        m = st.scored_cards_nb(np.int64(legal), np.int64(unseen), tc, tn, buf)
        kept = set(int(x) for x in buf[:m])
        for c in (x for x in range(64) if legal >> x & 1 and x not in kept):
            rep = max(k for k in kept if k < c and k >> 4 == c >> 4)
            results = []
            for card in (rep, c):
                hands2 = np.zeros(MAX_SEATS, dtype=np.int64)
                hands2[:n] = true_now
                hands2[me] &= ~(1 << card)
                won2 = won.copy()
                tc2 = tc.copy()
                tc2[tn] = card
                nb.rollout_nb(n, h, hands2, np.int64(trump), bids, won2,
                              np.int64(played | (1 << card)), t, leader, tc2, tn + 1)
                results.append(list(won2[:n]))
            assert results[0] == results[1]
            pairs += 1
            table_pairs += any(rep < x < c for x in tc[:tn] if x >> 4 == c >> 4)
    assert pairs > 20
    assert table_pairs == 0


def test_a_card_on_the_table_separates_equivalent_cards():
    """With the 9 of hearts on the table, my 8 and jack of hearts are not equivalent even
    when the 10 is gone (one loses the trick, the other wins it); with the 9 gone too they
    are."""
    buf = np.empty(13, dtype=np.int64)
    h8, h9, h10, hj = (parse_card(x) for x in ("8H", "9H", "TH", "JH"))
    legal = np.int64((1 << h8) | (1 << hj))
    tc = np.zeros(MAX_SEATS, dtype=np.int64)
    tc[0] = h9
    unseen = np.int64(FULL52 & ~(legal | (1 << h9) | (1 << h10)))
    assert st.scored_cards_nb(legal, unseen, tc, 1, buf) == 2
    assert sorted(buf[:2]) == [h8, hj]
    tc[0] = parse_card("2S")
    assert st.scored_cards_nb(legal, unseen, tc, 1, buf) == 1 and buf[0] == h8


def test_strong_in_the_simulator_is_reproducible_and_differs_from_pimc():
    rules = bb.build_rules(players=4, hand_size=6, variants=["scoring=dutch"])
    pols = bb.parse_seat_policies(4, "strong", ["1=pimc", "3=heuristic"])
    a = bb.simulate(rules, 12, seed=4, policies=pols, record=True, threads=1)
    b = bb.simulate(rules, 12, seed=4, policies=pols, record=True, threads=2)
    for k in a.deals:
        assert np.array_equal(a.deals[k], b.deals[k]), k
    assert np.array_equal(a.play["cards"], b.play["cards"])
    c = bb.simulate(rules, 12, seed=4, policies=bb.parse_seat_policies(4, "pimc", ["1=pimc", "3=heuristic"]),
                    record=True, threads=1)
    assert not np.array_equal(a.play["cards"], c.play["cards"])


def test_the_step_by_step_driver_plays_strong_as_the_simulator():
    """analyzer.agents drives every decision through the information states: with only
    built-in policies it must reproduce the compiled simulator exactly."""
    from analyzer import agents
    rules = bb.build_rules(players=4, hand_size=5)
    pols = bb.parse_seat_policies(4, "heuristic", ["0=strong", "2=strong", "1=pimc"])
    sim = bb.simulate(rules, 3, seed=12, policies=pols, record=True, game_start=2)
    drv = agents.simulate_boerenbridge(rules, 3, seed=12, policies=pols, game_start=2,
                                       record=True)
    for k in sim.deals:
        assert np.array_equal(sim.deals[k], drv.deals[k]), k
    assert np.array_equal(sim.play["cards"], drv.play["cards"])

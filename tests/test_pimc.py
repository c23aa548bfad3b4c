"""The pimc policy: world sampling respects everything the player has seen; pimc plays
Boerenbridge better than the heuristic."""
import numpy as np

from fastsim import boerenbridge as bb
from fastsim import boerenbridge_nb as bnb
from fastsim.rng import deal_key_nb, run_key_nb


def test_sampled_worlds_respect_voids_and_seen_cards():
    rng = np.random.default_rng(1)
    deck = np.array([16 * s + r for s in range(4) for r in range(13)])
    key = run_key_nb(np.uint64(5))
    checked = 0
    for trial in range(3000):
        n = int(rng.integers(3, 8))
        h = int(rng.integers(2, 51 // n + 1))
        t = int(rng.integers(0, h))
        tn = int(rng.integers(0, n))
        leader = int(rng.integers(0, n))
        me = (leader + tn) % n                      # the player to act
        perm = rng.permutation(deck)
        # a consistent situation: real hands after t tricks (+ tn cards of this trick)
        hands = [set(perm[q * (h - t):(q + 1) * (h - t)]) for q in range(n)]
        for j in range(tn):
            q = (leader + j) % n
            hands[q].pop()
        used = set().union(*hands)
        rest = [c for c in perm if c not in used]
        turned, seen = rest[0], rest[1:1 + n * t + tn]
        voids = np.zeros(8, dtype=np.int64)
        for q in range(n):
            if q != me:
                suits_held = {c // 16 for c in hands[q]}
                for s in range(4):
                    if s not in suits_held and rng.random() < 0.5:
                        voids[q] |= 1 << s
        my_hand = sum(1 << int(c) for c in hands[me])
        played = sum(1 << int(c) for c in seen) | (1 << int(turned))
        unseen = bnb.FULL52 & ~(my_hand | played)
        out = np.zeros(8, dtype=np.int64)
        ok = bnb.sample_world_nb(deal_key_nb(key, trial), n, h, me, np.int64(my_hand),
                                 np.int64(unseen), t, leader, tn, voids, out)
        if not ok:
            continue
        checked += 1
        union = 0
        for q in range(n):
            m = int(out[q])
            assert m & played == 0, "a seen card was dealt"
            assert union & m == 0
            union |= m
            assert bin(m).count("1") == len(hands[q]), "wrong hand size"
            if q != me:
                for s in range(4):
                    if voids[q] >> s & 1:
                        assert (m >> (16 * s)) & 0x1FFF == 0, "void suit dealt"
        assert out[me] == my_hand
    assert checked > 2500


def test_pimc_beats_heuristic_in_duplicate():
    rules = bb.build_rules(players=4, hand_size=6)
    n_deals = 1500
    diffs = []
    for r in range(4):   # pimc in each seat in turn, the others heuristic: the same cards
        pols = bb.parse_seat_policies(4, "heuristic", [f"{r}=pimc"])
        a = bb.simulate(rules, n_deals, seed=42, policies=pols, worlds=8)
        b = bb.simulate(rules, n_deals, seed=42, policies=bb.parse_seat_policies(4, "heuristic"))
        assert (a.deals["hands"] == b.deals["hands"]).all()
        diffs.append(a.deals["scores"][:, r].astype(float) - b.deals["scores"][:, r])
    d = np.concatenate(diffs)
    assert d.mean() - 1.96 * d.std(ddof=1) / np.sqrt(len(d)) > 0


def test_pimc_reproducible_across_threads():
    rules = bb.build_rules(players=5, hand_size=4)
    pols = bb.parse_seat_policies(5, "heuristic", ["0=pimc", "3=pimc"])
    a = bb.simulate(rules, 300, seed=7, policies=pols, threads=1, worlds=6)
    b = bb.simulate(rules, 300, seed=7, policies=pols, threads=2, chunk=17, worlds=6)
    for k in a.deals:
        assert np.array_equal(a.deals[k], b.deals[k])


def _codes(n, pairs, default=1):
    """A per-seat policy array of raw codes (the unnamed experiment codes included)."""
    pol = np.full(n, default, dtype=np.int8)
    for s, c in pairs:
        pol[s] = c
    return pol


def test_boerenbridge_pimc_takes_its_worlds_factors():
    """Boerenbridge's pimc samples PIMC_CARD_FACTOR × worlds per card and PIMC_BID_FACTOR ×
    worlds per bid: the same bids and cards as the experiment code that plays the old pimc
    (16 and 16 at the default: factors 1 and 1) given that many worlds, and other cards than
    it at the same ``worlds``."""
    from fastsim.boerenbridge_schema import (PIMC_BID_FACTOR, PIMC_CARD_FACTOR,
                                             PIMC_EXP_FIRST, PIMC_VARIANTS, POLICY_PIMC)
    old = PIMC_EXP_FIRST + PIMC_VARIANTS.index((1, 0, 1)) - 1
    assert PIMC_VARIANTS[0] == (PIMC_CARD_FACTOR, 0, PIMC_BID_FACTOR)
    assert PIMC_CARD_FACTOR == PIMC_BID_FACTOR   # one ``worlds`` reproduces both below
    rules = bb.build_rules(players=4, hand_size=5, variants=["scoring=dutch"])
    a = bb.simulate(rules, 60, seed=5, policies=_codes(4, [(0, POLICY_PIMC), (2, POLICY_PIMC)]),
                    record=True, worlds=1)
    b = bb.simulate(rules, 60, seed=5, policies=_codes(4, [(0, old), (2, old)]), record=True,
                    worlds=PIMC_CARD_FACTOR)
    c = bb.simulate(rules, 60, seed=5, policies=_codes(4, [(0, old), (2, old)]), record=True,
                    worlds=1)
    assert np.array_equal(a.deals["bids"], b.deals["bids"])
    assert np.array_equal(a.play["cards"], b.play["cards"])
    assert not np.array_equal(a.play["cards"], c.play["cards"])


def test_pimc_with_learned_rollouts_is_reproducible_and_differs():
    """An experiment code whose card rollouts play the learned card for the others: the
    same at 1 and 2 threads, and other cards than pimc's heuristic rollouts."""
    from fastsim.boerenbridge_schema import PIMC_EXP_FIRST, PIMC_VARIANTS
    learned = PIMC_EXP_FIRST + PIMC_VARIANTS.index((1, 1, 1)) - 1
    heur = PIMC_EXP_FIRST + PIMC_VARIANTS.index((1, 0, 1)) - 1
    rules = bb.build_rules(players=4, hand_size=6, variants=["scoring=dutch"])
    pol = _codes(4, [(1, learned), (3, learned)])
    a = bb.simulate(rules, 80, seed=3, policies=pol, threads=1, record=True, worlds=8)
    b = bb.simulate(rules, 80, seed=3, policies=pol, threads=2, chunk=7, record=True, worlds=8)
    for k in a.deals:
        assert np.array_equal(a.deals[k], b.deals[k]), k
    assert np.array_equal(a.play["cards"], b.play["cards"])
    c = bb.simulate(rules, 80, seed=3, policies=_codes(4, [(1, heur), (3, heur)]), record=True,
                    worlds=8)
    assert np.array_equal(a.deals["bids"], c.deals["bids"])      # the bids' rollouts agree
    assert not np.array_equal(a.play["cards"], c.play["cards"])


def test_the_step_by_step_driver_plays_pimc_as_the_simulator():
    """The information states (analyzer.agents, the play query, the OpenSpiel bridge) take
    pimc (its worlds factors) through the engine's dispatch: the same bids and cards."""
    from analyzer import agents
    rules = bb.build_rules(players=4, hand_size=5, variants=["scoring=dutch"])
    pols = bb.parse_seat_policies(4, "heuristic", ["0=pimc", "2=pimc"])
    sim = bb.simulate(rules, 3, seed=12, policies=pols, record=True, game_start=2, worlds=2)
    drv = agents.simulate_boerenbridge(rules, 3, seed=12, policies=pols, game_start=2,
                                       record=True, worlds=2)
    for k in sim.deals:
        assert np.array_equal(sim.deals[k], drv.deals[k]), k
    assert np.array_equal(sim.play["cards"], drv.play["cards"])

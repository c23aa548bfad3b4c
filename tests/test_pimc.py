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

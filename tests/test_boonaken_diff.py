"""Differential test: compiled Boonaken against the slow reference, card by card."""
import random

import numpy as np
import pytest

import naive_boonaken as ref
from analyzer.records import boonaken_records
from fastsim import boonaken as bo
from sweep import batches, random_names, random_run

MIXES = ["heuristic", "random", "mixed", "mixed2"]


def check(got, exp, preset):
    """Records agree; the roem claims (not in the reference's record) agree with its melds."""
    claims = got.pop("roem_claims")
    assert got == exp
    if exp["void"] or exp["contract"] != "points":
        assert not claims
        return
    d = exp["declarer"]
    kept = sorted(set(exp["hands"][d]) - set(exp["exchange"]["discarded"])
                  | set(exp["exchange"]["taken"]))
    if preset == "seed":
        n = exp["players"]
        assert [s for s, _ in claims] == [(d + j) % n for j in range(n)]
        for s, v in claims:
            assert v == ref.best_meld(kept if s == d else exp["hands"][s], exp["trump"], preset)
        assert exp["roem"] == (claims[0][1] if all(claims[0][1] >= v for _, v in claims[1:]) else 0)
    else:
        assert claims == [[d, ref.roem_sum(kept, exp["trump"], preset)]] and exp["roem"] == claims[0][1]


def names_for(mix, n):
    if mix in ("heuristic", "random"):
        return [mix] * n
    odd = mix == "mixed2"
    return ["random" if (s % 2 == 1) == odd else "heuristic" for s in range(n)]


def pols(names):
    return bo.parse_seat_policies(len(names), "heuristic", [f"{s}={p}" for s, p in enumerate(names)])


@pytest.mark.parametrize("preset", ["seed", "pagat", "leimuiden"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deals_agree(preset, n):
    for m, mix in enumerate(MIXES):
        names = names_for(mix, n)
        dealer = (m + n) % n
        seed = 31 * n + m + 7 * len(preset)
        res = bo.simulate(bo.build_rules(n, preset, first_dealer=dealer), 60, seed=seed,
                          policies=pols(names), record=True)
        for i, got in enumerate(boonaken_records(res)):
            exp = ref.play_deal(seed, i, n, dealer, names, preset=preset)
            check(got, exp, preset)


@pytest.mark.parametrize("preset", ["seed", "pagat", "leimuiden"])
def test_matches_agree(preset):
    for n in (2, 3, 4, 5):
        for mix in MIXES[:3]:
            names = names_for(mix, n)
            r = bo.simulate_matches(bo.build_rules(n, preset, first_dealer=1 % n), 12, seed=5 + n,
                                    policies=pols(names))
            mm = r.matches
            for i in range(12):
                exp = ref.play_match(5 + n, i, n, names, preset=preset,
                                     first_dealer=int(mm["first_dealer"][i]))
                assert int(mm["deals"][i]) == len(exp["deals"])
                if preset == "leimuiden":
                    assert list(mm["walk"][i]) == exp["walk"]
                    status = {1: "safe", -1: "pays", 0: "undecided"}
                    assert [status[int(x)] for x in mm["status"][i]] == exp["status"]
                else:
                    w = int(mm["winner"][i])
                    assert (None if w < 0 else w) == exp["winner"]
                    assert list(mm["plus"][i]) == exp["plus"]


def test_many_random_deals_agree():
    for rnd in batches(17, 2500, 25):
        preset = rnd.choice(["seed", "pagat", "leimuiden"])
        n = rnd.randint(2, 5)
        names = random_names(rnd, n)
        dealer = rnd.randrange(n)
        seed, start = random_run(rnd)
        res = bo.simulate(bo.build_rules(n, preset, first_dealer=dealer), 25, seed=seed,
                          policies=pols(names), record=True, start=start)
        for i, got in enumerate(boonaken_records(res)):
            check(got, ref.play_deal(seed, start + i, n, dealer, names, preset=preset), preset)


def test_roem_functions_agree():
    from fastsim import boonaken_nb as bnb
    from fastsim.cards import card_str, mask_of
    rnd = random.Random(4)
    deck = [16 * s + r for s in range(4) for r in range(5, 13)]
    for _ in range(20_000):
        cards = rnd.sample(deck, rnd.randint(1, 8))
        t = rnd.randrange(-1, 4)
        preset = rnd.choice(["seed", "pagat", "leimuiden"])
        lm = 1 if preset == "leimuiden" else 0
        strs = [card_str(c) for c in cards]
        trump = None if t < 0 else "SHDC"[t]
        m = np.int64(mask_of(cards))
        assert bnb.roem_sum_nb(m, t, lm) == ref.roem_sum(strs, trump, preset)
        assert bnb.best_meld_nb(m, t, lm) == ref.best_meld(strs, trump, preset)

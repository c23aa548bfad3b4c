"""Milliseconds per decision of the Bonken ``strong`` policy on one core.

Usage: ``python benchmarks/bench_bonken_strong.py [--worlds W] [--n N]``. Times three kinds of
decision on random deals: the contract choice of round 1 (all seven negative contracts
open) and of round 8 (all five trump options), and the opening lead of position 0 in
No Hearts (13 cards, the chooser's choice inferred; a first lead has the most legal cards
and the longest rollouts, so it is the dearest card decision), with pimc's opening lead
over as many worlds for comparison; then whole games. ``--worlds`` is the engine's worlds
count (strong's card play uses ``PLAY_WORLDS ×`` it, its contract search ``CHOICE_WORLDS ×``).
"""
import argparse
import time

import numba
import numpy as np

from fastsim import bonken as bk
from fastsim import bonken_nb as nb
from fastsim import bonken_strong_nb as snb
from fastsim.bonken_schema import NO_HEARTS, PIMC_WORLDS, POLICY_STRONG, build_rules
from fastsim.rng import deal_key_nb, run_key_nb

RV = build_rules().flags     # the kernels' variant tuple: the standard rules


def hands_of(rng):
    perm = rng.permutation([16 * s + r for s in range(4) for r in range(13)])
    return [int(sum(1 << int(c) for c in perm[13 * p:13 * p + 13])) for p in range(4)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worlds", type=int, default=PIMC_WORLDS)
    ap.add_argument("--n", type=int, default=200)
    a = ap.parse_args()
    numba.set_num_threads(1)
    rng = np.random.default_rng(0)
    deals = [hands_of(rng) for _ in range(a.n)]
    z4 = np.zeros(4, dtype=np.int64)
    rk = np.uint64(run_key_nb(np.uint64(1)))

    def lead(pol_strong, hands, i):
        h = np.int64(hands[0])
        legal = np.int64(h & ~(0x1FFF << 16)) or h
        if pol_strong:
            return snb.strong_decide_nb(np.uint64(1), np.int64(i), NO_HEARTS, 0, h, legal, RV,
                                        0, 0, z4, 0, np.int64(0), False, np.int64(0), z4, z4.copy(),
                                        np.int64(a.worlds), np.int64(0x7F), np.int64(0))
        return nb.pimc_card_nb(np.uint64(deal_key_nb(rk, np.int64(i))), NO_HEARTS, 0, h, legal, RV, 0, 0,
                               z4, 0, np.int64(0), False, np.int64(0), z4, z4.copy(),
                               np.int64(snb.PLAY_WORLDS * a.worlds))

    cases = {
        "contract choice, 7 negative open": lambda hands, i: snb.strong_choose_decide_nb(
            np.uint64(1), np.int64(i), np.int64(hands[1]), np.int64(0x7F), RV, np.int64(a.worlds)),
        "contract choice, 5 trump options": lambda hands, i: snb.strong_choose_decide_nb(
            np.uint64(1), np.int64(i), np.int64(hands[1]), np.int64(0xF80), RV, np.int64(a.worlds)),
        "strong opening lead (No Hearts)": lambda hands, i: lead(True, hands, i),
        "pimc opening lead, as many worlds": lambda hands, i: lead(False, hands, i),
    }
    print(f"worlds {a.worlds}: strong's card play {snb.PLAY_WORLDS * a.worlds}, contract search "
          f"{snb.CHOICE_WORLDS * a.worlds}; "
          f"{a.n} random deals, one thread")
    for name, f in cases.items():
        f(deals[0], 0)                      # compile
        t = time.perf_counter()
        for i, hands in enumerate(deals):
            f(hands, i)
        ms = (time.perf_counter() - t) * 1000 / len(deals)
        print(f"  {name:36s} {ms:8.3f} ms per decision")
    # whole games, everyone strong: the time per card played (single legal cards included)
    rules = bk.build_rules()
    pol = np.full(4, POLICY_STRONG, dtype=np.int8)
    n_games = max(1, a.n // 20)
    bk.simulate(rules, 1, seed=2, policies=pol, worlds=a.worlds, threads=1)
    t = time.perf_counter()
    r = bk.simulate(rules, n_games, seed=2, policies=pol, worlds=a.worlds, threads=1)
    dt = time.perf_counter() - t
    cards = int(r.deals["n_tricks"].astype(np.int64).sum()) * 4
    print(f"  {n_games} whole games, all strong: {dt / n_games * 1000:.0f} ms per game, "
          f"{(dt - 0) * 1000 / cards:.3f} ms per card played (choices included)")


if __name__ == "__main__":
    main()

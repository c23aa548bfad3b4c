"""Boonaken throughput per preset and player count, heuristic policy in every seat,
everything included (deal, auction, exchange, play, results). No assertions.

    python benchmarks/bench_boonaken.py [--deals 500000]
"""
import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=500_000)
    args = ap.parse_args()
    from fastsim import boonaken as bo
    cores = os.cpu_count()
    bo.simulate(bo.build_rules(4, "seed"), 10)
    bo.simulate_matches(bo.build_rules(4, "seed"), 10)
    print(f"{'preset':<10} {'players':>7} {'1 thread':>12} {f'{cores} threads':>12}   (hands/s)")
    for preset in ("seed", "pagat", "leimuiden"):
        for n in (2, 3, 4, 5):
            rules = bo.build_rules(n, preset)
            rates = []
            for t in (1, cores):
                best = 0.0
                for _ in range(2):
                    t0 = time.perf_counter()
                    bo.simulate(rules, args.deals, seed=1, threads=t)
                    best = max(best, args.deals / (time.perf_counter() - t0))
                rates.append(best)
            print(f"{preset:<10} {n:>7} {rates[0]:>12,.0f} {rates[1]:>12,.0f}")
    for preset in ("seed", "pagat", "leimuiden"):
        t0 = time.perf_counter()
        bo.simulate_matches(bo.build_rules(4, preset), 50_000, seed=1, threads=cores)
        print(f"matches, {preset}, 4 players, {cores} threads: "
              f"{50_000 / (time.perf_counter() - t0):,.0f} matches/s")


if __name__ == "__main__":
    main()

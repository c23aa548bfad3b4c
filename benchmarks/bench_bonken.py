"""Bonken throughput: rounds/s per contract and whole games/s, heuristic policy in every
seat, everything included (deal, choice, play, scoring, result arrays). No assertions.

    python benchmarks/bench_bonken.py [--rounds 2000000] [--games 200000]
"""
import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import best_rate  # noqa: E402  (benchmarks/machine.py)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2_000_000)
    ap.add_argument("--games", type=int, default=200_000)
    args = ap.parse_args()
    from fastsim import bonken as bk
    from fastsim.bonken_schema import CONTRACTS
    rules = bk.build_rules()
    pols = bk.parse_seat_policies("heuristic")
    bk.simulate(rules, 10, policies=pols)
    bk.simulate(rules, 10, policies=pols, contract=0)
    cores = os.cpu_count()
    print(f"{'contract':<20} {'1 thread':>14} {f'{cores} threads':>14}   (rounds/s)")
    for c, name in enumerate(CONTRACTS):
        rates = [best_rate(lambda: bk.simulate(rules, args.rounds, seed=1, policies=pols,
                                               contract=c, threads=t), args.rounds)
                 for t in (1, cores)]
        print(f"{name:<20} {rates[0]:>14,.0f} {rates[1]:>14,.0f}")
    rates = [best_rate(lambda: bk.simulate(rules, args.games, seed=1, policies=pols, threads=t),
                       args.games) for t in (1, cores)]
    print(f"{'whole games (11)':<20} {rates[0]:>14,.0f} {rates[1]:>14,.0f}   (games/s)")


if __name__ == "__main__":
    main()

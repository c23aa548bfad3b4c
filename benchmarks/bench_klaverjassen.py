"""Klaverjassen benchmarks (measurements only): the double-dummy solver on full 8-trick
deals (one core: exact value, and make-or-not by a null-window search), and simulation
throughput with the heuristic policies.

    python benchmarks/bench_klaverjassen.py [--deals 200] [--sim 2000000]
"""
import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--sim", type=int, default=2_000_000)
    args = ap.parse_args()
    import numba
    numba.set_num_threads(1)
    from fastsim import klaverjassen as kj
    from fastsim import klaverjassen_dd_nb as dd
    rv = kj.build_rules().flags     # the kernels' variant tuple: no variants

    res = kj.simulate(kj.build_rules(), args.deals + 1, seed=2026)
    table = dd.new_table()
    empty = np.full(4, -1, dtype=np.int64)
    exact_t, make_t, nodes = [], [], []
    gen = 0
    for i in range(args.deals + 1):
        hands = res.deals["hands"][i].astype(np.int64)
        trump, team = int(res.deals["trump"][i]), int(res.deals["playing_team"][i])
        leader = (int(res.deals["dealer"][i]) + 1) % 4
        gen += 1
        c = np.zeros(1, dtype=np.int64)
        t = time.perf_counter()
        dd.search_nb(hands, empty, 0, leader, -dd.INF, dd.INF, trump, team, 0, rv, *table, gen, c)
        exact = time.perf_counter() - t
        gen += 1
        t = time.perf_counter()
        dd.search_nb(hands, empty, 0, leader, 0, 1, trump, team, 0, rv,
                     *table, gen, np.zeros(1, dtype=np.int64))
        make = time.perf_counter() - t
        if i:   # the first call loads the compiled code
            exact_t.append(exact)
            make_t.append(make)
            nodes.append(c[0])
    ms = lambda a, q: np.percentile(a, q) * 1000  # noqa: E731
    print(f"double dummy, {args.deals} full deals (heuristic calls), 1 core:")
    print(f"  exact value:  median {ms(exact_t, 50):6.1f} ms, p90 {ms(exact_t, 90):6.1f} ms, "
          f"p99 {ms(exact_t, 99):7.1f} ms, max {max(exact_t) * 1000:7.1f} ms; "
          f"median {int(np.median(nodes)):,} nodes")
    print(f"  make-or-not:  median {ms(make_t, 50):6.1f} ms, p90 {ms(make_t, 90):6.1f} ms, "
          f"p99 {ms(make_t, 99):7.1f} ms")
    cores = os.cpu_count()
    pols = kj.parse_seat_policies("heuristic")
    for threads in sorted({1, cores}):
        numba.set_num_threads(threads)
        best = 0.0
        for _ in range(3):
            t = time.perf_counter()
            kj.simulate(kj.build_rules(), args.sim, seed=1, policies=pols, threads=threads)
            best = max(best, args.sim / (time.perf_counter() - t))
        print(f"simulation, heuristic calls and play, {threads} thread(s): {best:,.0f} deals/s")
    t = time.perf_counter()
    kj.simulate(kj.build_rules(), 20_000, seed=1, boompje=True, threads=cores)
    print(f"boompjes (16 deals), {cores} threads: {20_000 / (time.perf_counter() - t):,.0f} games/s")


if __name__ == "__main__":
    main()

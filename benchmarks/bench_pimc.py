"""pimc (and strong) speed at the default 16 worlds per decision (measurements only).

    python benchmarks/bench_pimc.py [--policies pimc,strong]

For each game: deals per second with pimc in every seat, and card plays per second (every
card a pimc player plays; plays with one legal card cost nothing); and the wall time of a
whole 4-player Boerenbridge game (15 deals) with four pimc players.
"""
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def timed(fn):
    fn()          # compile / load
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main(argv=None):
    import argparse
    from fastsim import boerenbridge as bb, bonken as bk, klaverjassen as kj, boonaken as bo
    from fastsim import boonaken_schema
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default="pimc", help="comma-separated (default pimc)")
    a = ap.parse_args(argv)
    cores = os.cpu_count()
    rows = []
    for pol in a.policies.split(","):
        scale = 10 if pol == "strong" else 1      # strong costs about ten times more
        for threads in sorted({1, cores}):
            n = 400 // scale
            r = bb.build_rules(players=4, hand_size=8)
            dt = timed(lambda: bb.simulate(r, n, seed=1, threads=threads,
                                           policies=bb.parse_seat_policies(4, pol)))
            rows.append((pol, "boerenbridge 4x8", threads, n / dt, n * 32 / dt))
            n = 100 // scale
            dt = timed(lambda: bk.simulate(bk.build_rules(), n, seed=1, contract="no-hearts",
                                           threads=threads, policies=bk.parse_seat_policies(pol)))
            rows.append((pol, "bonken no-hearts", threads, n / dt, None))
            n = 400 // scale
            dt = timed(lambda: kj.simulate(kj.build_rules(), n, seed=1, threads=threads,
                                           policies=kj.parse_seat_policies(pol)))
            rows.append((pol, "klaverjassen", threads, n / dt, n * 32 / dt))
            if pol not in boonaken_schema.POLICIES:
                continue
            n = 400 // scale
            dt = timed(lambda: bo.simulate(bo.build_rules(4, "seed"), n, seed=1, threads=threads,
                                           policies=bo.parse_seat_policies(4, pol)))
            rows.append((pol, "boonaken seed 4p", threads, n / dt, n * 28 / dt))
    print(f"{'policy':<8} {'game':<20} {'threads':>7} {'deals/s':>10} {'card plays/s':>14}")
    for p, g, t, d, c in rows:
        print(f"{p:<8} {g:<20} {t:>7} {d:>10,.1f} {('-' if c is None else f'{c:,.0f}'):>14}")
    rules = bb.build_rules(players=4)
    pols = bb.parse_seat_policies(4, "pimc")
    dt = timed(lambda: bb.simulate(rules, 1, seed=3, policies=pols, threads=1))
    print(f"one whole Boerenbridge game (4 players, 15 deals, four pimc players, 1 thread): {dt:.2f} s")


if __name__ == "__main__":
    main()

"""The bare Boerenbridge simulation against the reference yardstick, in the same run
(measurements only, no assertions).

    python benchmarks/bench_yardstick.py [--deals 1000000] [--yardstick PATH] [--repeats 3]

troef: ``fastsim.boerenbridge.simulate(build_rules(players=4, hand_size=8), deals)``,
heuristic in every seat, everything included (deal, bids, play, scoring, result arrays).
Yardstick: ``play_many(deals, 4, 8, seed)`` of the reference kernel (simpler rules,
``np.random``; it is not part of this repository, give its path with ``--yardstick``).
Both are compiled and warmed first; then troef and yardstick runs alternate, best of
``--repeats``, on one thread and on all cores; prints deals/s and the ratio troef/yardstick.
"""
import argparse
import importlib.util
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine  # noqa: E402  (benchmarks/machine.py)
sys.path.insert(0, str(ROOT))
DEFAULT_YARDSTICK = ROOT.parent / "shared" / "yardsticks" / "ref_boerenbridge.py"




def load_yardstick(path):
    spec = importlib.util.spec_from_file_location("ref_boerenbridge", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    # compile it afresh every run: a module loaded from a path cannot reload numba's cache
    # (and this writes nothing next to the yardstick)
    from numba.core.caching import NullCache
    for obj in vars(mod).values():
        if hasattr(obj, "_cache") and hasattr(obj, "py_func"):
            obj._cache = NullCache()
    return mod


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1_000_000, help="deals per timed run")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs of each (best counts)")
    ap.add_argument("--yardstick", default=str(DEFAULT_YARDSTICK),
                    help="path of ref_boerenbridge.py (default: %(default)s)")
    ap.add_argument("--threads", default="1,all",
                    help="comma-separated thread counts, 'all' = every core (default 1,all)")
    args = ap.parse_args()
    if args.deals < 1 or args.repeats < 1:
        ap.error("--deals and --repeats must be at least 1")
    path = Path(args.yardstick)
    if not path.is_file():
        print(f"yardstick not found: {path} (give its path with --yardstick)", file=sys.stderr)
        return 2

    import numba
    import numpy as np  # noqa: F401  (the yardstick needs it importable)
    from fastsim import boerenbridge as bb

    ys = load_yardstick(path)
    rules = bb.build_rules(players=4, hand_size=8)
    n = args.deals
    t = time.perf_counter()
    bb.simulate(rules, 1000, seed=1)
    t_troef = time.perf_counter() - t
    t = time.perf_counter()
    ys.play_many(1000, 4, 8, 1)
    t_ys = time.perf_counter() - t
    cores = numba.config.NUMBA_NUM_THREADS
    threads = []
    for item in args.threads.split(","):
        item = item.strip()
        threads.append(cores if item == "all" else max(1, min(int(item), cores)))

    print(f"machine: {machine()}, numba {numba.__version__}, {cores} numba threads")
    print(f"4 players x 8 cards, heuristic, {n:,} deals per run, best of {args.repeats}; "
          f"first call: troef (cache load or compile) {t_troef:.2f} s, yardstick (compile) {t_ys:.2f} s")
    for th in threads:
        numba.set_num_threads(th)
        a = b = 0.0
        for r in range(args.repeats):
            t = time.perf_counter()
            bb.simulate(rules, n, seed=r, threads=th)
            a = max(a, n / (time.perf_counter() - t))
            t = time.perf_counter()
            ys.play_many(n, 4, 8, r)
            b = max(b, n / (time.perf_counter() - t))
        print(f"threads={th}: troef {a:,.0f} deals/s  yardstick {b:,.0f} deals/s  "
              f"ratio {a / b:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

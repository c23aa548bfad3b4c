"""Klaverjassen double-dummy solver benchmark (measurements only).

Full 8-trick deals from the project's deal code (``klaverjassen.simulate``: random deals,
trump and playing team by the heuristic call, the seat left of the dealer leads), solved on
one core: the exact margin and make-or-not (does the playing team's margin exceed 0?).
Prints median / p90 / p99 / max milliseconds and the machine.

    python benchmarks/bench_dd.py [--deals 200] [--seed 2026]
        [--yardstick FILE]           also time a plain alpha-beta solver module (a file
                                     with ``solve(hands, trump, leader, alpha, beta, order)``
                                     on 32-bit boards) on the same deals, and compare values
        [--old FILE --check N]       compare the margins with another version of
                                     ``klaverjassen_dd_nb`` (a file, loaded as a module of
                                     the ``fastsim`` package) on N deals, and the speeds:
                                     CPU time, old and new solving each deal in turn
        [--reps R]                   with --old: each deal R times, its fastest CPU time
                                     (a shared machine's noise mostly slows a run down)
"""
import argparse
import importlib.util
import inspect
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model  # noqa: E402  (benchmarks/machine.py)


def machine():
    try:
        load = " load average %.2f %.2f %.2f," % os.getloadavg()
    except OSError:
        load = ""
    return f"{cpu_model()}, {os.cpu_count()} cores,{load} python {platform.python_version()}"


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod     # numba resolves the module's globals through sys.modules
    spec.loader.exec_module(mod)
    return mod


def deals(n, seed):
    from fastsim import klaverjassen as kj
    res = kj.simulate(kj.build_rules(), n, seed=seed)
    d = res.deals
    for i in range(n):
        yield (d["hands"][i].astype(np.int64), int(d["trump"][i]), int(d["playing_team"][i]),
               (int(d["dealer"][i]) + 1) % 4)


def quantile_interval(x, q):
    """A distribution-free 95% interval for the q-quantile of the population the sample x
    was drawn from: the order statistics n q -+ 1.96 sqrt(n q (1 - q)) (the binomial's
    normal approximation), clipped to the sample."""
    x = np.sort(np.asarray(x))
    n = len(x)
    h = 1.96 * np.sqrt(n * q * (1 - q))
    lo = int(np.floor(n * q - h))
    hi = int(np.ceil(n * q + h))
    return x[min(max(lo, 0), n - 1)], x[min(max(hi, 0), n - 1)]


def stats(label, times):
    a = np.asarray(times) * 1000
    print(f"  {label:18s} median {np.median(a):7.2f} ms, p90 {np.percentile(a, 90):7.2f} ms, "
          f"p99 {np.percentile(a, 99):8.2f} ms, max {a.max():8.2f} ms")
    (m0, m1), (p0, p1) = quantile_interval(a, 0.5), quantile_interval(a, 0.99)
    print(f"  {'':18s} 95% intervals: median {m0:.2f} .. {m1:.2f} ms, p99 {p0:.2f} .. "
          f"{p1:.2f} ms ({len(a)} deals)")


def ratio_median(r):
    """The median of the per-deal ratios and its distribution-free 95% interval."""
    lo, hi = quantile_interval(r, 0.5)
    return lo, np.median(r), hi


def timed(f, *args):
    """f(*args), its wall-clock and its CPU seconds (the machine may be shared)."""
    w, c = time.perf_counter(), time.process_time()
    r = f(*args)
    return r, time.perf_counter() - w, time.process_time() - c


def to32(hands, team, leader):
    """Our boards (card 16 * suit + rank 5..12) as the yardstick's (8 * suit + 0..7), the
    seats turned so that the playing team sits at seats 0 + 2."""
    out = np.zeros(4, dtype=np.int64)
    for s in range(4):
        m = 0
        x = int(hands[s])
        while x:
            c = (x & -x).bit_length() - 1
            x &= x - 1
            m |= 1 << (8 * (c >> 4) + (c & 15) - 5)
        out[(s - team) % 4] = m
    return out, (leader - team) % 4


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--yardstick", type=Path, default=None)
    ap.add_argument("--old", type=Path, default=None)
    ap.add_argument("--check", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=1)
    args = ap.parse_args()
    import numba
    numba.set_num_threads(1)
    from fastsim import klaverjassen_dd_nb as dd
    from fastsim.klaverjassen_schema import build_rules
    rv = build_rules().flags     # the kernels' variant tuple: no variants

    print("machine:", machine())
    table = dd.new_table()
    empty = np.full(4, -1, dtype=np.int64)
    gen = 0
    exact_t, make_t, exact_c, make_c, nodes, values = [], [], [], [], [], []
    all_deals = list(deals(args.deals + 1, args.seed))
    for i, (hands, trump, team, leader) in enumerate(all_deals):
        gen += 1
        c = np.zeros(1, dtype=np.int64)
        v, ew, ec = timed(dd.search_nb, hands, empty, 0, leader, -dd.INF, dd.INF, trump, team,
                          0, rv, *table, gen, c)
        gen += 1
        m, mw, mc = timed(dd.search_nb, hands, empty, 0, leader, 0, 1, trump, team, 0, rv,
                          *table, gen, np.zeros(1, dtype=np.int64))
        if (m > 0) != (v > 0):
            raise SystemExit(f"deal {i}: make-or-not {m} disagrees with the exact value {v}")
        if i:   # the first call loads the compiled code
            exact_t.append(ew)
            make_t.append(mw)
            exact_c.append(ec)
            make_c.append(mc)
            nodes.append(c[0])
            values.append(v)
    print(f"double dummy, {args.deals} full deals (seed {args.seed}), 1 core:")
    stats("exact value:", exact_t)
    stats("  (CPU time)", exact_c)
    stats("make-or-not:", make_t)
    stats("  (CPU time)", make_c)
    print(f"  median {int(np.median(nodes)):,} nodes (exact value), "
          f"total time {sum(exact_t) + sum(make_t):.2f} s")

    if args.yardstick:
        ys = load_module(args.yardstick, "yardstick_dd")
        yt, yc, bad = [], [], 0
        for i, (hands, trump, team, leader) in enumerate(all_deals):
            h32, l32 = to32(hands, team, leader)
            (v, _), w, c = timed(ys.solve, h32, trump, l32, -100000, 100000, 1)
            if i:
                yt.append(w)
                yc.append(c)
                bad += int(v) != values[i - 1]
        print(f"yardstick ({args.yardstick.name}), same deals:")
        stats("exact value:", yt)
        stats("  (CPU time)", yc)
        print(f"  values differing from this solver's: {bad} of {len(yt)}")

    if args.old:
        # a module of the package, so that its relative imports (``from ._jit ...``) resolve
        old = load_module(args.old, "fastsim._dd_old_nb")
        ot = old.new_table()
        # a solver from before the variant tuple takes the three flags one by one
        old_rv = (rv,) if "rv" in inspect.signature(old.search_nb.py_func).parameters \
            else (False, False, False)
        # CPU seconds and nodes per deal: [exact new, exact old, make new, make old]
        cpu = np.zeros((4, args.check))
        nodes = np.zeros((2, args.check))
        bad = 0
        g_new, g_old = gen, 0
        for i, (hands, trump, team, leader) in enumerate(deals(args.check, args.seed + 1)):
            for r in range(args.reps):
                runs = []
                for k, (mod, table_k, flags) in enumerate(((dd, table, (rv,)), (old, ot, old_rv))):
                    if k == 0:
                        g_new += 2
                        g = g_new
                    else:
                        g_old += 2
                        g = g_old
                    cnt = np.zeros(1, dtype=np.int64)
                    v, _, c = timed(mod.search_nb, hands, empty, 0, leader, -mod.INF, mod.INF,
                                    trump, team, 0, *flags, *table_k, g - 1, cnt)
                    _, _, cm = timed(mod.search_nb, hands, empty, 0, leader, 0, 1, trump, team,
                                     0, *flags, *table_k, g, np.zeros(1, dtype=np.int64))
                    runs.append(int(v))
                    for row, t in ((k, c), (2 + k, cm)):
                        cpu[row, i] = t if r == 0 else min(cpu[row, i], t)
                    nodes[k, i] = cnt[0]
                bad += (runs[0] != runs[1]) and r == 0
        gen = g_new
        print(f"against {args.old.name} on {args.check} full deals (seed {args.seed + 1}), "
              f"CPU time, fastest of {args.reps}: {args.check - bad} same values, "
              f"{bad} different")
        stats("exact, this", cpu[0, 1:])
        stats("exact, old", cpu[1, 1:])
        stats("make, this", cpu[2, 1:])
        stats("make, old", cpu[3, 1:])
        for label, a, b in (("exact", cpu[0, 1:], cpu[1, 1:]), ("make", cpu[2, 1:], cpu[3, 1:])):
            lo, mid, hi = ratio_median(a / b)
            print(f"  {label}: this / old per deal, median {mid:.3f} (95% interval {lo:.3f} .. "
                  f"{hi:.3f}, order statistics)")
        print(f"  nodes (exact value, counted as each solver counts them): this median "
              f"{int(np.median(nodes[0, 1:])):,}, total {int(nodes[0, 1:].sum()):,}; old median "
              f"{int(np.median(nodes[1, 1:])):,}, total {int(nodes[1, 1:].sum()):,}")


if __name__ == "__main__":
    main()

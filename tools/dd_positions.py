"""Positions entered by the Klaverjassen double-dummy solver (exact value), per deal: an
exact and repeatable measure of the search's size (no timing).

    python tools/dd_positions.py [MODULE_FILE ...] [--sets 2026:200,2027:201]

Each MODULE_FILE (default: fastsim/klaverjassen_dd_nb.py) is loaded as a module of the
``fastsim`` package; for each deal set SEED:N it solves the deals of
``benchmarks/bench_dd.py`` (seed 2026: the benchmark's 200 deals, i.e. deals 1..200 of 201;
another seed: deals 0..N-1) and prints the positions' total, median, p90, p99 and max.
A module with ``N_COUNTERS`` > 1 fills more counters (``counter[1:]``): printed summed.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_dd import deals, load_module  # noqa: E402


def positions(mod, deal_list, rv):
    table = mod.new_table()
    empty = np.full(4, -1, dtype=np.int64)
    ncount = getattr(mod, "N_COUNTERS", 1)
    out = np.zeros(len(deal_list), dtype=np.int64)
    extra = np.zeros(ncount, dtype=np.int64)
    values = np.zeros(len(deal_list), dtype=np.int64)
    gen = 0
    for i, (hands, trump, team, leader) in enumerate(deal_list):
        gen += 2
        c = np.zeros(ncount, dtype=np.int64)
        values[i] = mod.search_nb(hands, empty, 0, leader, -mod.INF, mod.INF, trump, team, 0,
                                  rv, *table, gen, c)
        out[i] = c[0]
        extra += c
    return out, values, extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("modules", nargs="*", type=Path)
    ap.add_argument("--sets", default="2026:200,2027:201")
    args = ap.parse_args()
    import numba
    numba.set_num_threads(1)
    from fastsim.klaverjassen_schema import build_rules
    rv = build_rules().flags
    mods = args.modules or [ROOT / "fastsim" / "klaverjassen_dd_nb.py"]
    sets = []
    for s in args.sets.split(","):
        seed, n = (int(x) for x in s.split(":"))
        d = list(deals(n + 1, seed))
        sets.append((seed, d[1:] if seed == 2026 else d[:n]))
    ref = {}
    for k, path in enumerate(mods):
        if path.resolve() == (ROOT / "fastsim" / "klaverjassen_dd_nb.py").resolve():
            from fastsim import klaverjassen_dd_nb as mod   # (numba's cache knows it so)
        else:
            mod = load_module(path, f"fastsim._dd_{path.stem}")
        for seed, dl in sets:
            p, v, extra = positions(mod, dl, rv)
            same = ""
            if seed in ref:
                same = f", values {'same' if (ref[seed][1] == v).all() else 'DIFFER'}" \
                       f", per-deal ratio median {np.median(p / ref[seed][0]):.3f}"
            else:
                ref[seed] = (p, v)
            print(f"{path.name} seed {seed} ({len(dl)} deals): total {p.sum():,} median "
                  f"{int(np.median(p)):,} p90 {int(np.percentile(p, 90)):,} p99 "
                  f"{int(np.percentile(p, 99)):,} max {p.max():,}{same}", flush=True)
            if len(extra) > 1:
                print("  counters:", ", ".join(f"{i}:{x:,}" for i, x in enumerate(extra) if x))


if __name__ == "__main__":
    main()

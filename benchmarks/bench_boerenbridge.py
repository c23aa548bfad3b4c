"""Boerenbridge throughput and compile-time benchmark (measurements only, no assertions).

    python benchmarks/bench_boerenbridge.py [--deals 4000000] [--games 200000]

Measures, everything included (deal, bids, play, scoring, result arrays):
* 4 players x 8 cards, heuristic policy in every seat: deals/s on 1 thread and on all cores;
* whole games (4 players, standard 15-deal schedule): games/s;
* numba compile time: first run with an empty cache, then with the cache warm
  (each in a fresh process, import and one tiny simulation included);
* wall time of a small `troef simulate` command, cold and warm cache.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import best_rate, machine  # noqa: E402  (benchmarks/machine.py)
sys.path.insert(0, str(ROOT))


def fresh_process(code, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    return time.perf_counter() - t


def cli_wall(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "cli.py"), "simulate", "boerenbridge",
                    "--hand-size", "8", "--deals", "1000", "--json"], check=True, env=env,
                   cwd=ROOT, capture_output=True)
    return time.perf_counter() - t




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=4_000_000)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    import numba
    from fastsim import boerenbridge as bb

    out = {"machine": machine(), "numba": numba.__version__}
    with tempfile.TemporaryDirectory() as cache:
        code = ("from fastsim import boerenbridge as bb; "
                "bb.simulate(bb.build_rules(players=4, hand_size=8), 10)")
        out["compile_cold_s"] = fresh_process(code, cache)
        out["compile_warm_s"] = fresh_process(code, cache)
    with tempfile.TemporaryDirectory() as cache:
        out["cli_cold_s"] = cli_wall(cache)
        out["cli_warm_s"] = cli_wall(cache)

    rules = bb.build_rules(players=4, hand_size=8)
    pols = bb.parse_seat_policies(4, "heuristic")
    bb.simulate(rules, 1000, policies=pols)  # load the cache
    cores = os.cpu_count()
    for threads in sorted({1, cores}):
        out[f"deals_per_s_{threads}_threads"] = best_rate(
            lambda: bb.simulate(rules, args.deals, seed=1, policies=pols, threads=threads),
            args.deals)
    rpol = bb.parse_seat_policies(4, "random")
    out[f"random_deals_per_s_{cores}_threads"] = best_rate(
        lambda: bb.simulate(rules, args.deals, seed=1, policies=rpol, threads=cores), args.deals)
    grules = bb.build_rules(players=4)
    for threads in sorted({1, cores}):
        out[f"games_per_s_{threads}_threads"] = best_rate(
            lambda: bb.simulate(grules, args.games, seed=1, policies=pols, threads=threads),
            args.games)

    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"machine: {out['machine']}; numba {out['numba']}")
    print(f"compile, first run (empty cache), import + tiny run: {out['compile_cold_s']:.1f} s")
    print(f"same, cache warm:                                      {out['compile_warm_s']:.2f} s")
    print(f"`troef simulate ... --deals 1000`: cold {out['cli_cold_s']:.1f} s, warm {out['cli_warm_s']:.2f} s")
    for k, v in out.items():
        if k.endswith("_threads"):
            print(f"{k:<32} {v:>14,.0f}")


if __name__ == "__main__":
    main()

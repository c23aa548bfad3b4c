"""Wall time of the Boerenbridge bid query, start-up included (measurements only).

    python benchmarks/bench_bid_query.py

Runs `troef bid boerenbridge` for an 8-card, 4-player hand with 20,000 samples (every bid
0..8 played on each sample) as a fresh process, the way a user runs it: first with an
empty numba cache (the compiling run), then several times warm.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = {
    "position 0, no earlier bids": ["--position", "0"],
    "position 2, earlier bids 2,1 (rejection sampling)": ["--position", "2", "--bids-before", "2,1"],
    "dealer, earlier bids 1,2,3": ["--position", "3", "--bids-before", "1,2,3"],
}
BASE = ["bid", "boerenbridge", "--players", "4", "--hand", "AS KS 7H 2C QD 9D 3S 4H",
        "--trump-card", "9H", "--samples", "20000", "--json"]


def run(args, cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "cli.py"), *BASE, *args], check=True, env=env,
                   cwd=ROOT, capture_output=True)
    return time.perf_counter() - t


def main():
    with tempfile.TemporaryDirectory() as cache:
        first = run(QUERIES["position 0, no earlier bids"], cache)
        print(f"first run, empty cache (compiles): {first:.1f} s")
        for label, args in QUERIES.items():
            times = [run(args, cache) for _ in range(5)]
            print(f"{label}: warm median {statistics.median(times):.2f} s, "
                  f"best {min(times):.2f} s, worst {max(times):.2f} s")


if __name__ == "__main__":
    main()

"""Streaming results to a dataset folder, every game: deals/s and peak memory.

    python benchmarks/bench_stream.py [--deals 4000000] [--other-deals 1000000] [--repeats 2]

Each run is a fresh ``troef simulate GAME … --out DIR`` child process (warm kernel cache)
on every core; the rate is the one the command prints (compile time and start-up imports
excluded), the memory the child's peak resident set and the CPU seconds its user + system
time, start-up included (``os.wait4``: on a shared machine CPU per deal is steadier than
wall rates), the disk the dataset's bytes per deal. Beside it the same deals with the
summary only (no output), so the cost of the results path shows; the load average is
printed with each line. Boerenbridge 4 players × 8 cards,
heuristic everywhere; Bonken one fixed contract (no-hearts); Klaverjassen and Boonaken
their default single deals.
"""
import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scaleout import best, machine, troef  # noqa: E402


def disk(path):
    return sum(f.stat().st_size for f in Path(path).glob("part-*.parquet"))

CASES = [("boerenbridge", ["--players", "4", "--hand-size", "8"]),
         ("bonken", ["--contract", "no-hearts"]),
         ("klaverjassen", []),
         ("boonaken", [])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=4_000_000, help="Boerenbridge deals")
    ap.add_argument("--other-deals", type=int, default=1_000_000, help="deals of the other games")
    ap.add_argument("--repeats", type=int, default=2, help="best of this many runs")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="troef-stream-"))
    print(f"machine: {machine()}")
    print(f"{'game':<14}{'deals':>11}{'stream deals/s':>16}{'CPU us/deal':>13}"
          f"{'summary deals/s':>17}{'CPU us/deal':>13}{'peak MiB':>10}{'bytes/deal':>12}"
          f"{'load':>6}")
    try:
        for game, opts in CASES:
            n = a.deals if game == "boerenbridge" else a.other_deals
            base = ["simulate", game, *opts, "--seed", "1", "--no-progress"]
            troef(*base, "--deals", "1000")                    # warm the kernel cache
            d = tmp / game
            size = []
            s = best(a.repeats, lambda: (*base, "--deals", n, "--out", d),
                     lambda: (size.append(disk(d)), shutil.rmtree(d)))
            m = best(a.repeats, lambda: (*base, "--deals", n))
            print(f"{game:<14}{n:>11,}{s['rate']:>16,}{s['cpu_s'] / n * 1e6:>13.2f}"
                  f"{m['rate']:>17,}{m['cpu_s'] / n * 1e6:>13.2f}{s['peak_mib']:>10,.0f}"
                  f"{size[-1] / n:>12.1f}{os.getloadavg()[0]:>6.1f}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Peak memory of `troef stats` on a 10-million-row dataset of every game.

For each game: stream a dataset of about ``--rows`` tidy rows (one row per deal or match
and seat) with the run API, then run ``troef stats DIR`` in a fresh process and report its
peak resident memory (ru_maxrss of the child) and wall time. Usage::

    python benchmarks/bench_stats_memory.py [--rows 10000000] [--keep DIR]
"""
import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (game, options, rows per unit): single deals of every game
CASES = [("boerenbridge", {"hand_size": 8}, 4), ("bonken", {"contract": "no-hearts"}, 4),
         ("klaverjassen", {}, 4), ("boonaken", {}, 4)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--keep", default=None, help="folder for the datasets (default: a temp dir)")
    a = ap.parse_args()
    from analyzer.run import RunSpec, run
    base = Path(a.keep or tempfile.mkdtemp(prefix="troef-stats-"))
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {a.rows:,} rows per game")
    print("game           rows         write s   stats wall s   stats peak RSS")
    for game, options, per in CASES:
        d = base / game
        spec = RunSpec.make(game, deals=a.rows // per, seed=1, **options).with_chunk_deals(250_000)
        t0 = time.perf_counter()
        import json
        import shutil
        m = d / "_manifest.json"
        if not (m.exists() and json.loads(m.read_text()).get("complete")):
            shutil.rmtree(d, ignore_errors=True)
            run(spec, out=str(d))                 # a finished dataset is reused as it is
        wrote = time.perf_counter() - t0
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "stats", str(d), "--json"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)       # this child's own peak
        wall = time.perf_counter() - t0
        if status:
            print(f"{game}: stats failed: {err.strip()[:200]}")
            continue
        print(f"{game:<14} {spec.n * per:>11,}  {wrote:>9.1f}  {wall:>12.1f}   "
              f"{usage.ru_maxrss / 1024:>10.0f} MiB")


if __name__ == "__main__":
    main()

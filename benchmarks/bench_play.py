"""Wall time of `troef play GAME` with its defaults, warm kernel cache, start-up included.

    python benchmarks/bench_play.py [--repeats 5]

Each run is a fresh process (`python cli.py play …`, as a user runs `troef play`), after one
warm-up run that fills the kernel cache. For scale it also times a bare `import numba` and
the first call of a trivial cached numba kernel (numba's own start-up, which every command
that runs a kernel pays), with and without numba's BLAS probe (which imports scipy when it
is installed; troef skips it, see fastsim/_startup.py). Boerenbridge runs twice: with its
ahead-of-time kernels (fastsim/aot.py, built first if missing; no numba to start) and with
numba's (``TROEF_AOT=0``). Goal (issue: decision interface): Boerenbridge under 0.5 s, the
other games under 1 s.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYS = {
    "boerenbridge": ["--hand", "AS KS 7H 2C QD 9D 3S 4H", "--trump-card", "9H", "--position", "0",
                     "--bids", "2,1,2,2"],
    "bonken": ["--contract", "no-hearts", "--hand", "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC",
               "--position", "0"],
    "klaverjassen": ["--trump", "H", "--caller", "0", "--hand", "JH 9H AH TS 7C 8C KD QD",
                     "--position", "0"],
    "boonaken": ["--declarer", "2", "--contract", "60", "--trump", "C", "--open", "7C AC",
                 "--taken", "AC", "--position", "3", "--hand", "TS QS JH TD QD AD", "--drawn",
                 "JH", "--history", "JC 7H KC QC | AS", "--roem", "0"],
}


def wall(cmd, env=None):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, cwd=ROOT)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    py = sys.executable
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; median of "
          f"{a.repeats} warm runs (min–max)")
    with tempfile.TemporaryDirectory() as d:
        Path(d, "k.py").write_text(textwrap.dedent("""
            from numba import njit
            @njit(cache=True)
            def f(x):
                return x + 1
        """))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([d, str(ROOT)]))
        wall([py, "-c", "import k; k.f(1)"], env)
        skip = "from fastsim._startup import skip_blas_probe; skip_blas_probe(); "
        for label, cmd in (("python -c 'import numba'", [py, "-c", "import numba"]),
                           ("numba + one cached trivial kernel", [py, "-c", "import k; k.f(1)"]),
                           ("the same, BLAS probe skipped (troef)",
                            [py, "-c", skip + "import k; k.f(1)"])):
            ts = [wall(cmd, env) for _ in range(a.repeats)]
            print(f"{label:<44} {statistics.median(ts):.2f} s ({min(ts):.2f}–{max(ts):.2f})")
    # the ahead-of-time kernels of the Boerenbridge query (fastsim/aot.py), built if missing
    subprocess.run([py, "-m", "fastsim.aot"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    runs = [(game, args, "1") for game, args in PLAYS.items()]
    runs.insert(1, ("boerenbridge", PLAYS["boerenbridge"], "0"))
    for game, args, aot in runs:
        cmd = [py, str(ROOT / "cli.py"), "play", game, *args]
        env = dict(os.environ, TROEF_AOT=aot)
        wall(cmd, env)
        ts = [wall(cmd, env) for _ in range(a.repeats)]
        label = "troef play " + game + (", JIT (TROEF_AOT=0)" if aot == "0" else "")
        print(f"{label:<44} {statistics.median(ts):.2f} s ({min(ts):.2f}–{max(ts):.2f})",
              flush=True)


if __name__ == "__main__":
    main()

"""The first answer on a fresh install: cold and warm start of the two first commands.

    python benchmarks/bench_first_run.py [--repeats 2] [--installed PYTHON]

Each figure is a fresh ``python cli.py …`` process (as a user runs ``troef …``). Three ways:

- numba's kernels (``TROEF_AOT=0``) with a fresh, empty ``NUMBA_CACHE_DIR``: the cold start,
  every kernel compiled; then the same folder again: numba's warm start;
- the kernels built ahead of time (``fastsim/aot.py``, as ``make setup`` builds them; built
  once here into a scratch folder and copied into each fresh cache folder), with numba's
  kernel cache empty: the first run after set-up, and again.

With ``--installed PYTHON`` it times instead the ``troef`` of a plain ``pip install .`` into
that interpreter's environment (which builds the modules into the package: setup.py), each
run with fresh, empty cache folders: what a new user's first commands cost.

``XDG_CACHE_HOME`` points at a scratch folder too, so no cache of this machine is used.
Wall seconds, and CPU seconds (user + system, ``os.wait4``): on a machine shared with other
jobs the CPU figure is what an idle machine's wall time would be. Goal (issue: speed where
users wait): cold within 5 s, warm under 0.7 s.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine  # noqa: E402  (benchmarks/machine.py)

COMMANDS = {
    "troef simulate boerenbridge --hand-size 8 --deals 1000":
        ["simulate", "boerenbridge", "--hand-size", "8", "--deals", "1000", "--no-progress"],
    "troef bid boerenbridge (8 cards, 20,000 samples)":
        ["bid", "boerenbridge", "--players", "4", "--hand", "AS KS 7H 2C QD 9D 3S 4H",
         "--trump-card", "9H", "--position", "3", "--bids-before", "1,2,3", "--samples", "20000"],
}


def run(args, cache, aot="0", python=None):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, XDG_CACHE_HOME=os.path.join(cache, "xdg"),
               TROEF_AOT=aot)
    if python is None:
        cmd, cwd = [sys.executable, str(ROOT / "cli.py"), *args], ROOT
    else:       # the installed package's entry point, run from outside the source tree
        cmd, cwd = [python, "-c", "import cli; cli.main()", *args], cache
        env.pop("PYTHONPATH", None)
    t = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(args)}")
    return wall, ru.ru_utime + ru.ru_stime


def build_aot(folder):
    """Build the ahead-of-time modules into ``folder`` (as NUMBA_CACHE_DIR); their path."""
    env = dict(os.environ, NUMBA_CACHE_DIR=folder, XDG_CACHE_HOME=os.path.join(folder, "xdg"))
    subprocess.run([sys.executable, "-m", "fastsim.aot"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    built = [p for p in Path(folder, "troef").glob("aot-*") if p.is_dir()]
    if len(built) != 1:
        raise SystemExit("the ahead-of-time modules were not built (no C compiler?)")
    return built[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--installed", metavar="PYTHON",
                    help="time the troef installed in this interpreter's environment")
    a = ap.parse_args()
    print(f"machine: {machine()}")
    if a.installed:
        for label, args in COMMANDS.items():
            first, again = [], []
            for _ in range(a.repeats):
                with tempfile.TemporaryDirectory(prefix="troef-first-") as cache:
                    first.append(run(args, cache, aot="1", python=a.installed))
                    again.append(run(args, cache, aot="1", python=a.installed))
            med = lambda xs, i: statistics.median(x[i] for x in xs)  # noqa: E731
            print(f"{label}\n  installed ({a.installed}), empty caches: first "
                  f"{med(first, 0):.2f} s wall, {med(first, 1):.2f} s CPU; again "
                  f"{med(again, 0):.2f} s wall, {med(again, 1):.2f} s CPU (median of "
                  f"{a.repeats}; load average {os.getloadavg()[0]:.1f})", flush=True)
        return
    with tempfile.TemporaryDirectory(prefix="troef-aot-") as scratch:
        modules = build_aot(scratch)
        for label, args in COMMANDS.items():
            cold, warm, first, again = [], [], [], []
            for _ in range(a.repeats):
                with tempfile.TemporaryDirectory(prefix="troef-first-") as cache:
                    cold.append(run(args, cache))
                    warm.append(run(args, cache))
                with tempfile.TemporaryDirectory(prefix="troef-first-") as cache:
                    shutil.copytree(modules, Path(cache, "troef", modules.name))
                    first.append(run(args, cache, aot="1"))
                    again.append(run(args, cache, aot="1"))
            load = os.getloadavg()[0]
            med = lambda xs, i: statistics.median(x[i] for x in xs)  # noqa: E731
            print(f"{label}\n  numba's kernels: cold {med(cold, 0):.1f} s wall, {med(cold, 1):.1f} s CPU; "
                  f"warm {med(warm, 0):.2f} s wall, {med(warm, 1):.2f} s CPU\n"
                  f"  built ahead of time, empty kernel cache: first {med(first, 0):.2f} s wall, "
                  f"{med(first, 1):.2f} s CPU; again {med(again, 0):.2f} s wall, "
                  f"{med(again, 1):.2f} s CPU (median of {a.repeats}; load average {load:.1f})",
                  flush=True)


if __name__ == "__main__":
    main()

"""Compile (or load) every command's simulation kernels once, so that later runs start fast.

``python -m analyzer.warm`` runs each ``troef`` command on a tiny input, in parallel worker
processes (one per core), with their output discarded; ``make setup`` calls it after
installing. It also builds the ahead-of-time kernels of ``troef play boerenbridge``
(:mod:`fastsim.aot`; needs a C compiler, else that query uses the JIT kernels). Only the
kernel caches are kept (see :mod:`fastsim._cache`): run it again after changing anything
in ``fastsim/`` or upgrading numba. Prints one line per command that
failed and exits 1 if any did; ``-q`` prints nothing else, otherwise a closing line says
how long it took.
"""
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

BB_HAND = "AS KS 7H 2C 9D 3S 4H 5C"
KJ_HAND = "JH 9H AH TS 7C 8C KD QD"
KJ_DEAL = ("JH 9H AH TS 7C 8C KD QD / 7H 8H AS KS QS 9C TC JD / "
           "TH KH JS 9S AC KC 7D 8D / QH 8S 7S JC QC AD TD 9D")

# Tiny runs of every command that plays deals; {tmp} is a scratch folder. Longest first.
COMMANDS = [
    ["tournament", "boerenbridge", "--policies", "pimc,heuristic,random", "--deals", "6",
     "--worlds", "2"],
    ["tournament", "bonken", "--policies", "pimc,heuristic,random", "--games", "3",
     "--worlds", "2"],
    ["tournament", "klaverjassen", "--policies", "pimc,heuristic,random", "--deals", "6",
     "--worlds", "2"],
    ["tournament", "boonaken", "--policies", "pimc,heuristic", "--deals", "4", "--worlds", "2"],
    ["simulate", "boerenbridge", "--hand-size", "8", "--deals", "20",
     "--out", "{tmp}/bb.parquet", "--record-play", "{tmp}/bb.jsonl"],
    ["simulate", "boerenbridge", "--games", "2", "--out", "{tmp}/bb_ds"],
    ["bid", "boerenbridge", "--hand", BB_HAND, "--trump-card", "2H", "--position", "0",
     "--samples", "20"],
    # the weights of earlier bids, and the others by pimc (its own compiled path)
    ["bid", "boerenbridge", "--hand", BB_HAND, "--trump-card", "2H", "--position", "3",
     "--bids-before", "1,1,1", "--samples", "20"],
    ["bid", "boerenbridge", "--hand", BB_HAND, "--trump-card", "2H", "--position", "0",
     "--policy", "pimc", "--worlds", "2", "--samples", "4"],
    ["simulate", "bonken", "--games", "1", "--out", "{tmp}/bk.parquet"],
    ["simulate", "bonken", "--contract", "domino", "--deals", "10"],
    ["contract", "bonken", "--hand", "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", "--samples", "10"],
    ["simulate", "klaverjassen", "--games", "1", "--out", "{tmp}/kj.parquet"],
    ["simulate", "klaverjassen", "--deals", "10", "--trump", "H"],
    ["trump", "klaverjassen", "--hand", KJ_HAND, "--position", "1", "--samples", "20"],
    ["trump", "klaverjassen", "--hand", KJ_HAND, "--position", "1", "--policy", "dd",
     "--samples", "1"],
    ["solve", "klaverjassen", "--hands", KJ_DEAL, "--trump", "H", "--cards"],
    ["simulate", "boonaken", "--matches", "1"],
    ["simulate", "boonaken", "--deals", "10", "--out", "{tmp}/bo.parquet"],
    ["bid", "boonaken", "--hand", "JH 9H AH KH 7S AD", "--open", "TH 8C", "--samples", "10"],
    ["explain", "boerenbridge", "--trick", "KD", "--trump", "C", "--hand", "2S 3C AD"],
    ["explain", "klaverjassen", "--trump", "S", "--trick", "KH JS", "--hand", "7S AD"],
    ["play", "boerenbridge", "--hand", BB_HAND, "--trump-card", "2H", "--position", "0",
     "--bids", "1,1,1,1", "--samples", "20"],
    ["play", "bonken", "--contract", "no-hearts", "--hand",
     "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", "--position", "0", "--samples", "20"],
    ["play", "klaverjassen", "--trump", "H", "--caller", "0", "--hand", KJ_HAND,
     "--position", "0", "--samples", "20"],
]


def _run_one(args):
    """Run one command in this process (called in the worker); returns its exit code."""
    import cli
    sys.stdout = open(os.devnull, "w")
    try:
        cli.main.main(args=args, prog_name="troef")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return 0


def _spawn(args, threads):
    if "--threads" not in args and args[0] not in ("solve", "explain"):
        args = args + ["--threads", str(threads)]
    # the JIT kernels are what is being warmed, even where the ahead-of-time ones exist
    env = dict(os.environ, TROEF_AOT="0")
    proc = subprocess.run([sys.executable, "-m", "analyzer.warm", "--one", *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    return args, proc.returncode, proc.stderr.strip().splitlines()


def _build_aot():
    """Build the ahead-of-time kernels (fastsim/aot.py); returns its error line or None."""
    proc = subprocess.run([sys.executable, "-m", "fastsim.aot"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    err = proc.stderr.strip().splitlines()
    return None if proc.returncode == 0 else (err[-1] if err else f"exit status {proc.returncode}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--one"]:
        return _run_one(argv[1:])
    if any(a not in ("-q", "--quiet") for a in argv):
        print("usage: python -m analyzer.warm [-q]\n" + __doc__.strip().splitlines()[0],
              file=sys.stderr)
        return 0 if set(argv) <= {"-h", "--help", "-q", "--quiet"} else 2
    quiet = bool(argv)
    jobs = max(1, min(len(COMMANDS), os.cpu_count() or 1))
    t0 = time.perf_counter()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="troef-warm-") as tmp:
        for i, c in enumerate(COMMANDS):
            if "{tmp}/" in " ".join(c):
                os.makedirs(os.path.join(tmp, str(i)), exist_ok=True)
        cmds = [[a.replace("{tmp}", os.path.join(tmp, str(i))) for a in c]
                for i, c in enumerate(COMMANDS)]
        with ThreadPoolExecutor(jobs) as pool:
            aot = pool.submit(_build_aot)
            for args, rc, err in pool.map(lambda c: _spawn(c, 1), cmds):
                if rc != 0:
                    failed += 1
                    last = err[-1] if err else f"exit status {rc}"
                    print(f"troef warm: `troef {' '.join(args)}` failed: {last}", file=sys.stderr)
            aot_error = aot.result()
    if aot_error:          # no C compiler, say: not a failure, the JIT kernels serve
        print(f"{aot_error}; `troef play boerenbridge` starts in about 0.8 s instead of 0.2 s",
              file=sys.stderr)
    if not quiet:
        import fastsim
        print(f"troef: simulation kernels ready in {fastsim.cache_info()['path'] or 'memory'} "
              f"({len(COMMANDS) - failed}/{len(COMMANDS)} commands, "
              f"{time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Scale-out benchmark: local against Dask, overhead per chunk, peak memory of long runs.

    python benchmarks/bench_scaleout.py [--deals 4000000] [--memory-deals 20000000]
                                        [--repeats 3] [--skip-memory] [--json]

Every measurement runs ``troef simulate boerenbridge --players 4 --hand-size 8`` (heuristic
in every seat) as a fresh child process and reads the rate the command prints ("played in
X s (N deals/s)": the chunks' work, Dask's cluster start excluded) and the child's peak
resident memory (``os.wait4`` rusage, ru_maxrss: the largest single process among the
child and the Dask worker processes it started). Measured:

* deals/s streaming to a dataset folder (``--out DIR``: simulate, tidy, encode, write) and
  with the summary only (no output), locally (numba threads on every core) and on a
  2-worker local Dask cluster (``--dask-workers 2``, one single-threaded process per core);
* the overhead per chunk: 10,000 deals in 1,000 chunks of 10, less the time those deals
  take at the streaming rate;
* peak memory of streaming ``--memory-deals`` deals (default 20 million) to a temp folder,
  against writing a tenth of that as one ``--out FILE.parquet``.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine as _machine  # noqa: E402  (benchmarks/machine.py)
BASE = ["simulate", "boerenbridge", "--players", "4", "--hand-size", "8", "--seed", "1",
        "--no-progress"]



def machine():
    return _machine(memory=True)


def troef(*args):
    """Run troef in a child → dict(wall_s, run_s, rate, peak_mib, cpu_s, stdout)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        p = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *map(str, args)],
                             stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, etext = out.read(), err.read()
    if p.returncode != 0:
        raise SystemExit(f"troef {' '.join(map(str, args))} failed: {etext.strip()}")
    m = re.search(r"played in ([\d.]+) s \(([\d,]+) deals/s\)", text)
    return {"wall_s": round(wall, 2), "run_s": float(m.group(1)) if m else None,
            "rate": int(m.group(2).replace(",", "")) if m else None,
            "peak_mib": round(ru.ru_maxrss / 1024, 1), "cpu_s": ru.ru_utime + ru.ru_stime,
            "stdout": text}


def best(repeats, make_args, cleanup=None):
    """The run with the best rate among ``repeats`` (the machine may be shared)."""
    runs = []
    for _ in range(repeats):
        runs.append(troef(*make_args()))
        if cleanup:
            cleanup()
    return max(runs, key=lambda r: r["rate"] or 0)


def du(path):
    return sum(f.stat().st_size for f in Path(path).iterdir()) / 2**20


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=4_000_000)
    ap.add_argument("--memory-deals", type=int, default=20_000_000)
    ap.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    res = {"machine": machine()}
    tmp = Path(tempfile.mkdtemp(prefix="troef-bench-"))
    dask = ["--dask-workers", "2"]
    try:
        troef(*BASE, "--deals", "1000")            # warm the numba cache
        n = a.deals
        for name, extra in (("local", []), ("dask2", dask)):
            d = tmp / f"rate-{name}"
            r = best(a.repeats, lambda: (*BASE, "--deals", n, "--out", d, *extra),
                     lambda: shutil.rmtree(d))
            res[f"stream_{name}"] = {k: r[k] for k in ("rate", "run_s", "wall_s", "peak_mib")}
            r = best(a.repeats, lambda: (*BASE, "--deals", n, *extra))
            res[f"summary_{name}"] = {k: r[k] for k in ("rate", "run_s", "wall_s")}
        res["deals"] = n

        # overhead per chunk: 1,000 chunks of 10 deals, less what those 10,000 deals cost
        # at the streaming rate above (the fixed cost of a chunk: a kernel launch, a
        # DataFrame, a Parquet file, a rename; on Dask also a task and a transfer)
        for name, extra in (("local", []), ("dask2", dask)):
            d = tmp / f"ovh-{name}"
            r = best(a.repeats, lambda: (*BASE, "--deals", 10_000, "--out", d, "--chunk-deals",
                                         10, *extra), lambda: shutil.rmtree(d))
            per_deal = 1 / res[f"stream_{name}"]["rate"]
            res[f"overhead_{name}"] = {
                "chunks": 1000, "run_s": r["run_s"],
                "per_chunk_ms": round((r["run_s"] - 10_000 * per_deal) / 1000 * 1000, 2)}

        if not a.skip_memory:
            big = a.memory_deals
            d = tmp / "memory"
            r = troef(*BASE, "--deals", big, "--out", d)
            res["memory_stream"] = {"deals": big, "peak_mib": r["peak_mib"], "rate": r["rate"],
                                    "wall_s": r["wall_s"], "dataset_mib": round(du(d), 1),
                                    "chunks": len(list(d.glob("part-*.parquet")))}
            shutil.rmtree(d)
            d = tmp / "memory-dask"
            r = troef(*BASE, "--deals", big, "--out", d, *dask)
            res["memory_stream_dask2"] = {"deals": big, "peak_mib": r["peak_mib"],
                                          "rate": r["rate"], "wall_s": r["wall_s"]}
            shutil.rmtree(d)
            f = tmp / "one.parquet"
            r = troef(*BASE, "--deals", big // 10, "--out", f)
            res["memory_single_file"] = {"deals": big // 10, "peak_mib": r["peak_mib"],
                                         "wall_s": r["wall_s"]}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    if a.json:
        print(json.dumps(res, indent=1))
        return
    print(res["machine"])
    print(f"4 players x 8 cards, heuristic, {res['deals']:,} deals:")
    for kind in ("stream", "summary"):
        for name in ("local", "dask2"):
            r = res[f"{kind}_{name}"]
            print(f"  {kind:<8} {name:<6} {r['rate']:>10,} deals/s  (run {r['run_s']} s, "
                  f"wall {r['wall_s']} s" + (f", peak {r['peak_mib']} MiB" if "peak_mib" in r
                                             else "") + ")")
    for name in ("local", "dask2"):
        o = res[f"overhead_{name}"]
        print(f"  overhead per chunk {name}: {o['per_chunk_ms']} ms (1,000 chunks of 10 deals "
              f"in {o['run_s']} s)")
    for key in ("memory_stream", "memory_stream_dask2", "memory_single_file"):
        if key in res:
            print(f"  {key}: {res[key]}")


if __name__ == "__main__":
    main()

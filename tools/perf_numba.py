"""perf profiles of numba's compiled code (research tool; the double-dummy solver's seventh push).

numba's JIT code has no symbols: perf puts its samples under "[JIT] tid N" with bare
addresses. ``run-dd`` solves the benchmark's deals (as ``benchmarks/bench_dd.py``: exact value
and make-or-not, one core) and afterwards writes ``/tmp/perf-PID.map`` (perf's map for JIT code:
start, size and name of every compiled function of the loaded ``fastsim`` dispatchers) and
dumps each function's machine code to DIR; ``annotate`` then lists the samples by function
and by instruction (objdump of the dumped code). No source lines (``NUMBA_DEBUGINFO`` would
switch on bounds checks: other code than the one measured). Compile in the profiled process
(an empty ``NUMBA_CACHE_DIR``), and use ``-e cpu-clock`` where the machine has no hardware
counters:

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -e cpu-clock -F 4000 -o perf.data \\
        python tools/perf_numba.py run-dd --dump /tmp/jitcode [--deals 200] [--seed 2026]
    perf report -i perf.data --sort sym --stdio        # by function
    python tools/perf_numba.py annotate perf.data /tmp/jitcode three_tricks   # by instruction
"""
import argparse
import collections
import ctypes
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def write_perf_map(dump_dir):
    """/tmp/perf-PID.map for the compiled functions of every loaded fastsim dispatcher, and
    each function's code in ``dump_dir/<address>.bin``. A function's size is taken up to
    the next known start (or the end of its executable mapping)."""
    from numba.core.registry import CPUDispatcher
    os.makedirs(dump_dir, exist_ok=True)
    names = {}
    for modname, mod in list(sys.modules.items()):
        if not modname.startswith("fastsim"):
            continue
        for obj in list(vars(mod).values()):
            if not isinstance(obj, CPUDispatcher):
                continue
            for cres in obj.overloads.values():
                lib = cres.library
                try:
                    fns = [f.name for f in lib._final_module.functions if not f.is_declaration]
                except Exception:       # a library without its module (not compiled here)
                    continue
                for name in fns:
                    addr = lib.get_pointer_to_function(name)
                    if addr:
                        names.setdefault(addr, name)
    ends = []
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            if "x" in parts[1] and len(parts) < 6:      # anonymous executable mappings
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                ends.append((lo, hi))
    starts = sorted(names)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, a in enumerate(starts):
            end = next((hi for lo, hi in ends if lo <= a < hi), a + 65536)
            if i + 1 < len(starts):
                end = min(end, starts[i + 1])
            f.write(f"{a:x} {end - a:x} {names[a]}\n")
            Path(dump_dir, f"{a:x}.bin").write_bytes(ctypes.string_at(a, end - a))
    print(f"perf map /tmp/perf-{os.getpid()}.map: {len(starts)} functions", file=sys.stderr)


def run_dd(args):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT))
    import numba
    numba.set_num_threads(1)
    from bench_dd import deals
    from fastsim import klaverjassen_dd_nb as dd
    from fastsim.klaverjassen_schema import build_rules
    rv = build_rules().flags
    table = dd.new_table()
    empty = np.full(4, -1, dtype=np.int64)
    all_deals = list(deals(args.deals + 1, args.seed))
    nodes = 0
    t0 = 0.0
    for i, (hands, trump, team, leader) in enumerate(all_deals):
        if i == 1:      # the first deal loads (compiles) the code
            t0 = time.process_time()
        c = np.zeros(1, dtype=np.int64)
        dd.search_nb(hands, empty, 0, leader, -dd.INF, dd.INF, trump, team, 0, rv, *table,
                     2 * i + 1, c)
        dd.search_nb(hands, empty, 0, leader, 0, 1, trump, team, 0, rv, *table, 2 * i + 2,
                     np.zeros(1, dtype=np.int64))
        nodes += int(c[0]) if i else 0
    print(f"{args.deals} deals (seed {args.seed}): {time.process_time() - t0:.2f} s CPU, "
          f"{nodes:,} positions (exact value)", file=sys.stderr)
    write_perf_map(args.dump)


def annotate(args):
    out = subprocess.run(["perf", "script", "-i", args.data, "-F", "ip,sym"],
                         capture_output=True, text=True, check=True).stdout
    count = collections.Counter()
    for line in out.splitlines():
        parts = line.split(None, 1)
        if parts:
            count[int(parts[0], 16)] += 1
    maps = sorted(Path("/tmp").glob("perf-*.map"), key=os.path.getmtime)
    rows = []
    for line in maps[-1].read_text().splitlines():
        a, s, name = line.split(None, 2)
        rows.append((int(a, 16), int(s, 16), name))
    in_jit = {a: sum(c for ip, c in count.items() if a <= ip < a + s) for a, s, _ in rows}
    total = sum(in_jit.values()) or 1
    for a, s, name in rows:
        if in_jit[a] and args.name in name:
            print(f"=== {name[:100]}  {100 * in_jit[a] / total:.1f}% of the JIT samples")
            dis = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64",
                                  "--no-show-raw-insn", f"--adjust-vma=0x{a:x}",
                                  str(Path(args.dump, f"{a:x}.bin"))],
                                 capture_output=True, text=True, check=True).stdout
            for ln in dis.splitlines():
                m = re.match(r"\s*([0-9a-f]+):\s*(.*)", ln)
                if m:
                    ip = int(m.group(1), 16)
                    c = count.get(ip, 0)
                    mark = f"{100 * c / total:6.2f}%" if c else " " * 7
                    print(f"{mark} {ip - a:5x}: {m.group(2)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run-dd")
    r.add_argument("--deals", type=int, default=200)
    r.add_argument("--seed", type=int, default=2026)
    r.add_argument("--dump", default="/tmp/jitcode")
    a = sub.add_parser("annotate")
    a.add_argument("data")
    a.add_argument("dump")
    a.add_argument("name", help="part of the function's (mangled) name")
    args = ap.parse_args()
    if args.cmd == "run-dd":
        run_dd(args)
    else:
        annotate(args)


if __name__ == "__main__":
    main()

"""CPU time of the search policies and the engine loops in two source trees, alternating
(measurements only).

    python benchmarks/bench_ab.py --tree OLD --tree NEW [--rounds 3] [--only pimc,strong]

Each round runs every tree once, in turn, as a fresh process (``PYTHONPATH=TREE``, one
thread, kernels warmed by a first small call), and times each workload by the process's
CPU time (``time.process_time``), so that a job on the other core matters less than it
does to wall-clock rates. Prints, per workload and tree, the best and the median rate over
the rounds. Workloads: ``pimc`` and ``strong`` in every seat for each game (as
``bench_pimc.py``), ``random`` and ``heuristic`` Boerenbridge 4 × 8 (as
``bench_boerenbridge.py``), and the other games' heuristic simulation.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r'''
import json, sys, time
import numba
numba.set_num_threads(1)
from fastsim import boerenbridge as bb, bonken as bk, klaverjassen as kj, boonaken as bo
only = set(sys.argv[1].split(","))
out = {}

def timed(name, fn, n, unit):
    fn(max(1, n // 50))           # compile / load
    t = time.process_time()
    fn(n)
    out[name] = (n / (time.process_time() - t), unit)

for pol in ("pimc", "strong"):
    if pol not in only:
        continue
    s = 10 if pol == "strong" else 1
    r = bb.build_rules(players=4, hand_size=8)
    p = bb.parse_seat_policies(4, pol)
    timed(f"{pol} boerenbridge 4x8", lambda n: bb.simulate(r, n, seed=1, threads=1,
          policies=p), 600 // s, "deals/s")
    p = bk.parse_seat_policies(pol)
    timed(f"{pol} bonken no-hearts", lambda n: bk.simulate(bk.build_rules(), n, seed=1,
          contract="no-hearts", threads=1, policies=p), 150 // s, "rounds/s")
    p = kj.parse_seat_policies(pol)
    timed(f"{pol} klaverjassen", lambda n: kj.simulate(kj.build_rules(), n, seed=1, threads=1,
          policies=p), 600 // s, "deals/s")
    p = bo.parse_seat_policies(4, pol)
    timed(f"{pol} boonaken seed 4p", lambda n: bo.simulate(bo.build_rules(4, "seed"), n,
          seed=1, threads=1, policies=p), 600 // s, "deals/s")
if "random" in only:
    r = bb.build_rules(players=4, hand_size=8)
    p = bb.parse_seat_policies(4, "random")
    timed("random boerenbridge 4x8", lambda n: bb.simulate(r, n, seed=1, threads=1,
          policies=p), 400_000, "deals/s")
if "heuristic" in only:
    r = bb.build_rules(players=4, hand_size=8)
    timed("heuristic boerenbridge 4x8", lambda n: bb.simulate(r, n, seed=1, threads=1),
          2_000_000, "deals/s")
    timed("heuristic bonken", lambda n: bk.simulate(bk.build_rules(), n, seed=1, threads=1),
          100_000, "games/s")
    timed("heuristic klaverjassen", lambda n: kj.simulate(kj.build_rules(), n, seed=1,
          threads=1), 1_000_000, "deals/s")
    timed("heuristic boonaken seed 4p", lambda n: bo.simulate(bo.build_rules(4, "seed"), n,
          seed=1, threads=1), 400_000, "deals/s")
print("RESULT " + json.dumps(out))
'''


def run_tree(tree, only):
    env = dict(os.environ, PYTHONPATH=tree)
    p = subprocess.run([sys.executable, "-c", WORKER, only], cwd=tree, env=env,
                       capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit(f"{tree}: no result\n{p.stderr[-2000:]}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", action="append", required=True, help="a source tree (twice)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="pimc,strong,random,heuristic")
    a = ap.parse_args(argv)
    trees = [os.path.abspath(t) for t in a.tree]
    print(f"cores {os.cpu_count()}, load average at start "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    got = {t: [] for t in trees}
    for r in range(a.rounds):
        for t in trees:
            got[t].append(run_tree(t, a.only))
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    names = list(got[trees[0]][0])
    print(f"{'workload (1 thread, CPU time)':<30}" + "".join(
        f"{os.path.basename(t) + ' best / median':>34}" for t in trees) + f"{'ratio':>8}")
    for name in names:
        unit = got[trees[0]][0][name][1]
        cols, best = [], []
        for t in trees:
            rates = [res[name][0] for res in got[t]]
            best.append(max(rates))
            cols.append(f"{max(rates):>14,.1f} / {statistics.median(rates):>10,.1f} {unit:<8}")
        print(f"{name:<30}" + "".join(f"{c:>34}" for c in cols)
              + f"{best[-1] / best[0]:>8.3f}")


if __name__ == "__main__":
    main()

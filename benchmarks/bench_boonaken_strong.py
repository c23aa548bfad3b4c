"""Boonaken's ``strong`` policy: CPU milliseconds per decision before the play (auction
turn, exchange, trump) on one core, and paired duplicate comparisons of two versions of
the code.

    python benchmarks/bench_boonaken_strong.py cost [--preset seed] [--players 4] [--deals 100]
    python benchmarks/bench_boonaken_strong.py scores --policies strong,pimc --deals 20000 \\
        [--preset seed] [--players 4] [--seed 1] --out new.npy
    python benchmarks/bench_boonaken_strong.py pair new.npy old.npy

``cost``: heuristic deals of the seed; every auction turn of every position, and the
declarer's exchange and trump, decided by strong's kernels (``--worlds``: the engine's,
default 16), timed by ``time.process_time``. ``scores``: the per-deal duplicate values of a
``troef tournament boonaken`` (each policy's mean score over its seats and seatings) saved
as an array, so that two versions of the code (run each from its own tree, the same
options) can be ``pair``-ed deal by deal: the mean and 95% interval of the per-deal
difference of the first policy's margin over the second (new − old). No assertions.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def cost(a):
    import numba
    from analyzer.records import boonaken_records
    from fastsim import boonaken as bo
    from fastsim import boonaken_strong_nb as sn
    from fastsim.boonaken_schema import (BOONAAK, LADDER, LAYOUT_BLIND, MISERE, PRESETS, ZWABBER,
                                         build_rules)
    from fastsim.cards import parse_card
    from machine import machine
    numba.set_num_threads(1)
    n, preset = a.players, PRESETS.index(a.preset)
    res = bo.simulate(build_rules(n, a.preset), a.deals, seed=a.seed, record=True, threads=1)
    recs = boonaken_records(res)
    w = np.int64(a.worlds)
    times = {"auction turn": [], "exchange": [], "trump": []}
    first = True
    for i, rec in enumerate(recs):
        pos = {s: (s - rec["dealer"] - 1) % n for s in range(n)}
        hands = [0] * n
        for s, cards in enumerate(rec["hands"]):
            hands[pos[s]] = sum(1 << parse_card(c, "en", deck=32) for c in cards)
        open_m = sum(1 << parse_card(c, "en", deck=32) for c in rec["table"]["open"])
        blind = sum(1 << parse_card(c, "en", deck=32) for c in rec["table"]["blind"])
        auc = np.array([(pos[s], -1 if x == "pass" else LADDER.index(x))
                        for s, x in rec["auction"]], dtype=np.int64).reshape(-1, 2)
        for k in range(len(auc)):
            q = int(auc[k, 0])
            args = (np.uint64(a.seed), np.int64(i), n, preset, q, np.int64(hands[q]),
                    np.int64(open_m), auc, np.int64(k), w)
            if first:
                sn.decide_bid_nb(*args)
                first = False
            t = time.process_time()
            sn.decide_bid_nb(*args)
            times["auction turn"].append(time.process_time() - t)
        if rec["void"]:
            continue
        d = pos[rec["declarer"]]
        mis = np.zeros(5, dtype=np.int64)
        for j, s in enumerate(rec["misere_players"]):
            mis[j] = pos[s]
        level = {"misere": MISERE, "zwabber": ZWABBER, "boonaak": BOONAAK}.get(
            rec["contract"], LADDER.index(rec["bid"]) if rec["bid"] is not None else -1)
        b = np.int64(blind if LAYOUT_BLIND[preset, n] and preset else 0)
        eargs = (np.uint64(a.seed), np.int64(i), n, preset, d, np.int64(hands[d]),
                 np.int64(open_m), b, np.int64(level), mis,
                 np.int64(len(rec["misere_players"])), auc, np.int64(len(auc)), w)
        if not times["exchange"]:          # load the kernels untimed
            sn.decide_trump_nb(*eargs, sn.decide_exchange_nb(*eargs))
        t = time.process_time()
        keep = sn.decide_exchange_nb(*eargs)
        times["exchange"].append(time.process_time() - t)
        if rec["contract"] in ("points", "boonaak"):
            t = time.process_time()
            sn.decide_trump_nb(*eargs, np.int64(keep))
            times["trump"].append(time.process_time() - t)
    print(f"Boonaken strong, {a.preset}, {n} players, worlds {a.worlds} (auction "
          f"{sn.STRONG_AUCTION_FACTOR * a.worlds}, exchange {sn.STRONG_EXCHANGE_FACTOR * a.worlds} "
          f"worlds); {a.deals} heuristic deals of seed {a.seed}, one thread; {machine()}")
    for k, v in times.items():
        if v:
            v = np.array(v) * 1000
            print(f"  {k:13s} {len(v):6d} decisions  mean {v.mean():7.3f} ms  median "
                  f"{np.median(v):7.3f} ms  max {v.max():7.2f} ms")


def scores(a):
    """The duplicate tournament's per-deal values (analyzer.tournament's own code)."""
    from analyzer import games as registry
    from analyzer import tournament as tm
    names = [p.strip() for p in a.policies.split(",")]
    entry = registry.get("boonaken")
    setup = entry.tournament_setup(False, players=a.players, preset=a.preset)
    run, setup, _ = tm._runner(entry, setup, a.deals, False, a.seed, a.worlds, a.threads)
    k = len(names)
    sums = np.zeros((a.deals, k))
    counts = np.zeros(k)
    t = time.process_time()
    for rotation in tm.seatings(k, setup.players):
        seating = [names[i] for i in rotation]
        sc = run(seating)
        for s, p in enumerate(seating):
            sums[:, names.index(p)] += sc[:, s]
            counts[names.index(p)] += 1
    per = sums / counts
    np.save(a.out, per)
    d = per[:, 0] - per[:, 1]
    se = d.std(ddof=1) / np.sqrt(len(d))
    print(f"{names[0]} - {names[1]}: {d.mean():+.4f} [{d.mean() - 1.96 * se:+.4f}, "
          f"{d.mean() + 1.96 * se:+.4f}] over {a.deals} deals ({a.preset}, {a.players} players, "
          f"seed {a.seed}); CPU {time.process_time() - t:.0f} s")


def pair(a):
    x, y = np.load(a.new), np.load(a.old)
    d = (x[:, 0] - x[:, 1]) - (y[:, 0] - y[:, 1])
    se = d.std(ddof=1) / np.sqrt(len(d))
    print(f"first file - second file (margin of the first policy over the second): {d.mean():+.4f} "
          f"[{d.mean() - 1.96 * se:+.4f}, {d.mean() + 1.96 * se:+.4f}] over {len(d)} deals")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cost")
    s = sub.add_parser("scores")
    for p in (c, s):
        p.add_argument("--preset", default="seed")
        p.add_argument("--players", type=int, default=4)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--worlds", type=int, default=16)
    c.add_argument("--deals", type=int, default=100)
    s.add_argument("--deals", type=int, default=20000)
    s.add_argument("--policies", default="strong,pimc")
    s.add_argument("--threads", type=int, default=None)
    s.add_argument("--out", required=True)
    p = sub.add_parser("pair")
    p.add_argument("new")
    p.add_argument("old")
    a = ap.parse_args()
    {"cost": cost, "scores": scores, "pair": pair}[a.cmd](a)


if __name__ == "__main__":
    main()

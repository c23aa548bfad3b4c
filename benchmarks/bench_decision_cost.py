"""CPU time per decision of a troef Boerenbridge policy, on one core (measurements only).

    python benchmarks/bench_decision_cost.py [--policy strong] [--deals 60]

Wall-clock milliseconds per decision (what ``bench_openspiel.py`` prints) grow with
whatever else the machine runs; this counts the process's CPU time instead (one thread), in
two settings, 4 players × 8 cards, dutch scoring, decisions with more than one legal choice
(bids and cards):

* the simulator: every seat plays the policy (``fastsim.boerenbridge.simulate``);
* the OpenSpiel bridge (needs the openspiel extra): the policy in seats 0 and 2 against
  OpenSpiel's random bot, duplicate; the whole process's CPU time is charged to troef's
  decisions, so OpenSpiel's own game and the random bot are inside the figure (an upper
  bound of the bridge's cost per decision).
"""
import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def simulator_cost(policy, deals):
    import numpy as np
    from fastsim import boerenbridge as bb
    from fastsim.boerenbridge_nb import follow_nb
    r = bb.build_rules(players=4, hand_size=8, variants=["scoring=dutch"])
    pol = bb.parse_seat_policies(4, policy)
    bb.simulate(r, 2, seed=9, policies=pol, threads=1)          # compile / load
    t = time.process_time()
    res = bb.simulate(r, deals, seed=3, policies=pol, threads=1, record=True)
    cpu = time.process_time() - t
    decisions = 4 * deals                                       # every bid has a choice
    cards, lead, hands = res.play["cards"], res.play["leader"], res.deals["hands"]
    for d in range(deals):
        dealer = int(res.deals["dealer"][d])
        cur = [int(hands[d, (dealer + 1 + p) % 4]) for p in range(4)]
        for t_ in range(8):
            led = -1
            for j in range(4):
                p = (int(lead[d, t_]) + j) % 4
                c = int(cards[d, t_, j])
                if j == 0:
                    led = c >> 4
                if bin(int(follow_nb(np.int64(cur[p]), j, led))).count("1") > 1:
                    decisions += 1
                cur[p] &= ~(1 << c)
    return cpu, decisions


def bridge_cost(policy, deals):
    from analyzer.openspiel_bridge import tournament
    kw = dict(variants=["scoring=dutch"], players=4, hand_size=8, threads=1)
    tournament("boerenbridge", [policy, "openspiel:random"], n=2, seed=1, **kw)   # warm
    t = time.process_time()
    r = tournament("boerenbridge", [policy, "openspiel:random"], n=deals, seed=2, **kw)
    return time.process_time() - t, r["policies"][0]["decisions"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="strong")
    ap.add_argument("--deals", type=int, default=60)
    a = ap.parse_args(argv)
    print(f"$ python benchmarks/bench_decision_cost.py {' '.join(argv or sys.argv[1:])}".rstrip())
    print(f"cores {os.cpu_count()}, load average at start "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cpu, dec = simulator_cost(a.policy, a.deals)
    print(f"simulator: {a.deals} deals, {dec:,} decisions, {cpu * 1000 / dec:.2f} ms CPU per decision")
    try:
        cpu, dec = bridge_cost(a.policy, a.deals)
    except Exception as e:                      # no OpenSpiel: the simulator's figure only
        print(f"OpenSpiel bridge: not measured ({e})")
        return
    print(f"OpenSpiel bridge (against openspiel:random, all of the process's CPU charged to "
          f"troef): {a.deals} deals x 2 seatings, {dec:,} decisions, "
          f"{cpu * 1000 / dec:.2f} ms CPU per decision")


if __name__ == "__main__":
    main()

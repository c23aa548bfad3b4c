"""How often the special Boonaken contracts succeed against the defenders' play.

    python benchmarks/bench_defenders.py [--hands 40] [--samples 2000] [--seed 1]

Draws random 4-player `seed` positions (a hand and the two open table cards) whose hand
holds two or more of J/9/A of one suit plus an ace of another — hands that should not make
a misère against defenders who play against it — and, as a control, hands of any kind. For
each it runs the bid query (``analyzer.boonaken_query.bid_advice``, heuristic opponents) and
reports the mean P(make) of misère, zwabber and boonaak over the hands.
"""
import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DECK = [16 * s + r for s in range(4) for r in range(5, 13)]     # 7 8 9 T J Q K A
J, NINE, ACE = 9, 7, 12


def strong(hand):
    suits = [[c & 15 for c in hand if c >> 4 == s] for s in range(4)]
    for s in range(4):
        if sum(r in (J, NINE, ACE) for r in suits[s]) >= 2 and \
                any(ACE in suits[t] for t in range(4) if t != s):
            return True
    return False


def positions(rng, k, want):
    out = []
    while len(out) < k:
        cards = rng.permutation(DECK)
        hand, table = [int(c) for c in cards[:6]], [int(c) for c in cards[6:8]]
        if want is None or strong(hand) == want:
            out.append((hand, table))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    from analyzer.boonaken_query import bid_advice
    rng = np.random.default_rng(a.seed)
    print(f"{os.cpu_count()} cores; {a.hands} positions per class, {a.samples:,} samples each")
    print(f"{'hands':<34}{'misere':>9}{'zwabber':>9}{'boonaak':>9}")
    for label, want in (("two of J/9/A of a suit + an ace", True), ("any hand", None)):
        rates = {"misere": [], "zwabber": [], "boonaak": []}
        for hand, table in positions(rng, a.hands, want):
            r = bid_advice(4, hand, table, samples=a.samples, seed=a.seed)
            for row in r["bids"]:
                if row["bid"] in rates:
                    rates[row["bid"]].append(row["p_make"])
        print(f"{label:<34}" + "".join(f"{100 * np.mean(v):>8.1f}%" for v in rates.values()),
              flush=True)


if __name__ == "__main__":
    main()

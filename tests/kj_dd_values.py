"""Stored double-dummy values of 1,000 full Klaverjassen deals (a regression check only; the
independent checks are the brute-force and reference-solver tests in test_klaverjassen_dd.py).

The deals come from the project's deal code (``klaverjassen.simulate``, seed 1605: random
deals, trump and playing team by the heuristic call, the seat left of the dealer leads) and
are stored with their values, so the file does not depend on the deal code staying the
same. Values: the playing team's exact margin and whether it can force a pit, under each
rule variant in ``VARIANTS``, as the solver computed them when the file was written
(``python tests/kj_dd_values.py`` writes it again: only after checking a change of values
against the brute-force and reference tests).
"""
import sys
from pathlib import Path

import numpy as np

PATH = Path(__file__).with_name("kj_dd_values.npz")
VARIANTS = ([], ["amsterdam"], ["undertrump=forced"], ["four_of_a_kind=all_100"])
SEED = 1605
N = 1000


def load():
    z = np.load(PATH)
    return {k: z[k] for k in z.files}


def solve_all(hands, trump, team, leader, rules):
    """(margin, pit) per deal by the compiled solver (one table, one generation a search)."""
    from fastsim import klaverjassen_dd_nb as dd
    table = dd.new_table()
    empty = np.full(4, -1, dtype=np.int64)
    rv = rules.flags     # the variant tuple the kernels take
    n = len(trump)
    margin = np.zeros(n, dtype=np.int64)
    pit = np.zeros(n, dtype=np.bool_)
    gen = 0
    for i in range(n):
        h = hands[i].astype(np.int64)
        gen += 1
        margin[i] = dd.search_nb(h, empty, 0, int(leader[i]), -dd.INF, dd.INF, int(trump[i]),
                                 int(team[i]), 0, rv, *table, gen,
                                 np.zeros(1, dtype=np.int64))
        gen += 1
        pit[i] = dd.search_nb(h, empty, 0, int(leader[i]), 7, 8, int(trump[i]), int(team[i]), 1,
                              rv, *table, gen, np.zeros(1, dtype=np.int64)) >= 8
    return margin, pit


def main():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from fastsim import klaverjassen as kj
    from fastsim.klaverjassen_schema import build_rules
    res = kj.simulate(kj.build_rules(), N, seed=SEED)
    d = res.deals
    hands = d["hands"].astype(np.int64)
    trump = d["trump"].astype(np.int8)
    team = d["playing_team"].astype(np.int8)
    leader = ((d["dealer"].astype(np.int64) + 1) % 4).astype(np.int8)
    margins, pits = [], []
    for v in VARIANTS:
        m, p = solve_all(hands, trump, team, leader, build_rules(v))
        margins.append(m)
        pits.append(p)
    np.savez_compressed(PATH, hands=hands, trump=trump, team=team, leader=leader,
                        margin=np.stack(margins, axis=1).astype(np.int16),
                        pit=np.stack(pits, axis=1))
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()

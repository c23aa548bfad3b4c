"""Klaverjassen: does the heuristic's nat defence help the defenders? A duplicate comparison.

    python benchmarks/bench_kj_defenders.py [--deals 200000] [--seed 1] [--variant amsterdam ...]

Every deal is played several times from the same cards and the same (heuristic) trump call,
everyone on the `heuristic` card policy, with the defenders' nat rule
(docs/klaverjassen.md, "The heuristic play": *nat defence*) switched on or off per team:

* defenders new vs old, playing team old: the nat rate and the defenders' banked margin per
  deal (defenders' banked points minus the playing team's, nat and pit included);
* playing team new vs old, defenders old: the rule only ever changes a defender's card, so
  every deal must come out identical (checked, not assumed);
* both new vs both old: what `troef simulate klaverjassen` itself changed.

Differences are means over the same deals with paired 95% intervals (mean ± 1.96 standard
errors of the per-deal difference). The "new" play loop here is checked to give exactly the
engine's results (`fastsim.klaverjassen.simulate`), so the figures are the engine's.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastsim import klaverjassen as kj  # noqa: E402
from fastsim import klaverjassen_nb as knb  # noqa: E402
from fastsim.klaverjassen_play_nb import trick_state_nb  # noqa: E402
from fastsim.klaverjassen_schema import LAST_TRICK, POLICY_HEURISTIC  # noqa: E402
from fastsim.rng import check_seed, deal_key_nb, run_key_nb  # noqa: E402


@njit(cache=True, parallel=True)
def duplicate_nb(seed, n, dealer, new_def, new_play, rv, o_scores, o_team, o_nat):
    """Deals ``0..n-1`` of run ``seed`` (dealer fixed), heuristic calls and cards for all;
    the defenders (``new_def``) and the playing team (``new_play``) with or without the nat
    rule. Scores per team as the engine's ``team_scores``."""
    rkey = run_key_nb(seed)
    for i in prange(n):
        deck = np.empty(32, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
        calls = np.full(5, -1, dtype=np.int64)
        tpos = np.empty(4, dtype=np.int64)
        for p in range(4):
            tpos[p] = ((dealer + 1 + p) & 3) & 1
        cp = np.zeros(2, dtype=np.int64)
        rm = np.zeros(2, dtype=np.int64)
        tt = np.zeros(2, dtype=np.int64)
        sc = np.zeros(2, dtype=np.int64)
        dkey = deal_key_nb(rkey, np.int64(i))
        knb.deal32_nb(dkey, deck, hands)
        trump, cpos, forced, ncalls = knb.call_trump_nb(dkey, hands, pol, calls, rv, 1)
        playing = tpos[cpos]
        played = np.int64(0)
        leader = 0
        tc = np.empty(4, dtype=np.int64)
        for t in range(8):
            for j in range(4):
                p = (leader + j) & 3
                hand = hands[p]
                # the trick so far as the engine tracks it (its own function)
                led, winner, win_pos, hi, trick, tp = trick_state_nb(tc, j, leader, trump)
                pw = win_pos >= 0 and tpos[win_pos] == tpos[p]
                legal = knb.legal_nb(hand, led, trump, hi, pw, rv)
                new = new_play if tpos[p] == playing else new_def
                nd = new and knb.nat_defence_nb(cp, rm, playing, tpos[p])
                c = knb.heuristic_play_nb(hand, legal, j, led, trump, winner, pw, pw, trick, tp,
                                          tpos[p] == playing, knb.FULL32 & ~(hand | played),
                                          rv, nd)
                bit = np.int64(1) << c
                hands[p] = hand & ~bit
                played |= bit
                tc[j] = c
            led, winner, win_pos, hi, trick, tp = trick_state_nb(tc, 4, leader, trump)
            if t == 7:
                tp += LAST_TRICK
            tt[tpos[win_pos]] += 1
            cp[tpos[win_pos]] += tp
            rm[tpos[win_pos]] += knb.roem_nb(trick, trump, rv)
            leader = win_pos
        nat, pit = knb.score_deal_nb(cp, rm, playing, tt, sc)
        o_scores[i, 0] = sc[0]
        o_scores[i, 1] = sc[1]
        o_team[i] = playing
        o_nat[i] = nat


def play(seed, n, rules, new_def, new_play):
    scores = np.zeros((n, 2), dtype=np.int64)
    team = np.zeros(n, dtype=np.int64)
    nat = np.zeros(n, dtype=np.bool_)
    duplicate_nb(check_seed(seed), np.int64(n), rules.first_dealer, new_def, new_play,
                 rules.flags, scores, team, nat)
    rows = np.arange(n)
    margin = scores[rows, 1 - team] - scores[rows, team]     # defenders minus playing team
    return scores, team, nat, margin


def paired(a, b):
    """Mean of a − b with its paired 95% interval."""
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    m = d.mean()
    h = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    return f"{m:+.3f} [{m - h:+.3f}, {m + h:+.3f}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", action="append", default=[],
                    help="a rules variant (amsterdam, undertrump=forced, four_of_a_kind=all_100)")
    a = ap.parse_args()
    rules = kj.build_rules(a.variant)
    n = a.deals
    t0 = time.perf_counter()
    old = play(a.seed, n, rules, False, False)
    new_d = play(a.seed, n, rules, True, False)
    new_p = play(a.seed, n, rules, False, True)
    both = play(a.seed, n, rules, True, True)
    wall = time.perf_counter() - t0
    # the "new" loop is the engine: same banked scores and nat on every deal
    eng = kj.simulate(rules, n, seed=a.seed)
    assert np.array_equal(eng.deals["team_scores"], both[0]), "bench loop differs from engine"
    assert np.array_equal(eng.deals["nat"], both[2]), "bench loop differs from engine"
    assert np.array_equal(eng.deals["playing_team"], both[1])

    print(f"Klaverjassen, rules: {'+'.join(a.variant) or 'rotterdam'}; {n:,} deals, seed "
          f"{a.seed}; heuristic calls and cards for everyone ({wall:.1f} s incl. compile)")
    print("the other players (the playing team) follow the heuristic unchanged")
    print(f"{'':<44}{'old':>9}{'new':>9}   new − old, paired 95% interval")
    nat0, natd = old[2].astype(np.float64), new_d[2].astype(np.float64)
    print(f"{'defenders new vs old: nat rate':<44}{100 * nat0.mean():>8.2f}%{100 * natd.mean():>8.2f}%"
          f"   {paired(100 * natd, 100 * nat0)} pp")
    print(f"{'defenders new vs old: defenders margin/deal':<44}{old[3].mean():>9.2f}"
          f"{new_d[3].mean():>9.2f}   {paired(new_d[3], old[3])}")
    changed = np.any(new_d[0] != old[0], axis=1).mean()
    print(f"{'  deals whose banked scores changed':<44}{100 * changed:>17.2f}%")
    same = np.array_equal(new_p[0], old[0]) and np.array_equal(new_p[2], old[2])
    print(f"{'playing team new vs old: defenders margin':<44}{old[3].mean():>9.2f}"
          f"{new_p[3].mean():>9.2f}   {paired(new_p[3], old[3])}"
          f"  ({'identical on every deal' if same else 'DIFFERENT'})")
    print(f"{'both new vs both old: nat rate':<44}{100 * nat0.mean():>8.2f}%"
          f"{100 * both[2].mean():>8.2f}%   {paired(100 * both[2].astype(float), 100 * nat0)} pp")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()

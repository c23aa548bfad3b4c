"""Bonken: does "set the leader" help the heuristic players who use it? (whole games)

    python benchmarks/bench_bonken_defenders.py [--games 2000] [--seed 0] [--variant V]

Issue #15 asks for defenders who play the contract in force; in Bonken's negative contracts:
pass the penalty cards and aim them at the game's leader. This compares today's heuristic
(*old*: void in the led suit, always the highest penalty card, whoever takes the trick)
with candidate rules (*new*, :data:`VARIANTS`) that dump a penalty card only onto a trick
going to the game's leader (the highest game total of the others at the start of the
round) and otherwise discard a plain card. A candidate would be adopted only if it helped
the players who use it; none does, so the engine keeps today's rule (docs/bonken.md, "The
other players' model"); the candidates live only here.

Duplicate comparison over the same deals, everyone on the heuristic (contract choice, trick
play, Domino), seats rotating. For every game ``g`` and seat ``s``:

* one new player among old ones: seat ``s`` new, the others old, against all four old;
* one old player among new ones: seat ``s`` old, the others new, against all four new.

The difference is seat ``s``'s game score (and win share: 1/k for a k-way tie at the top),
averaged over the 4 seats per game; the interval is mean ± 1.96 × the standard error over
games (paired: same deals, the same contracts, since the choice does not depend on scores).
Also: the points the game's leader (the unique highest total at the start of a negative
round, rounds 2..7) loses in that round, all old against all new. The all-old seating is
checked against the engine (``fastsim.bonken.simulate``, same seed): the same totals.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastsim import bonken_nb as nb  # noqa: E402
from fastsim.bonken_schema import DOMINO, N_NEGATIVE, POLICY_HEURISTIC, ROUNDS, build_rules  # noqa: E402
from fastsim.bits import high_card_nb, popcount_nb, suit_mask_nb  # noqa: E402
from fastsim.play_nb import FULL52, above_nb  # noqa: E402
from fastsim.rng import deal_key_nb, run_key_nb  # noqa: E402

RV = build_rules().flags     # the kernels' variant tuple: the standard rules


# the variants (0 = today's heuristic); see VARIANTS below
AIM, MARGIN, SAFE, HONOUR = 1, 2, 4, 8
FLAGS = np.array([0, AIM, AIM | MARGIN, AIM | SAFE, AIM | SAFE, AIM | SAFE | HONOUR,
                  AIM | MARGIN | SAFE | HONOUR], dtype=np.int64)
SAFE_ABOVE = np.array([0, 0, 0, 2, 3, 2, 2], dtype=np.int64)
VARIANTS = {
    1: "aim: the penalty card only onto the game leader (the highest game total of the "
       "others, ties included); onto anyone else the highest plain card, if I hold one",
    2: "aim-50: as aim, everyone within 50 points of that leader counts as a leader",
    3: "aim-safe2: as aim, but keep the penalty card only while 2+ unseen cards of its "
       "suit rank above it",
    4: "aim-safe3: as aim-safe2 with 3+ unseen cards above",
    5: "aim-safe2-honour: as aim-safe2, and only when the plain card is a Q, K or A",
    6: "aim-50-safe2-honour: aim-safe2-honour with the 50-point margin",
}


@njit(cache=True)
def card_nb(variant, contract, hand, legal, j, led, winner, trump, danger, played, game, me,
            win_pos):
    """The heuristic card with the void discard of ``variant`` (0: the engine's own)."""
    if contract >= 7 or j == 0 or (hand & suit_mask_nb(led)) or variant == 0:
        return nb.heuristic_card_nb(contract, hand, legal, j, led, winner, trump, danger, played)
    d = hand & danger
    if d == 0:
        return high_card_nb(hand)
    f = FLAGS[variant]
    top = -(1 << 40)
    for q in range(4):
        if q != me and game[q] > top:
            top = game[q]
    if game[win_pos] >= top - (50 if f & MARGIN else 0):
        return high_card_nb(d)                      # the trick goes to a leader: dump it
    s = hand & ~d
    c = high_card_nb(d)
    if s == 0:
        return c
    if f & SAFE and popcount_nb(above_nb(c) & FULL52 & ~(hand | played)) < SAFE_ABOVE[variant]:
        return c
    if f & HONOUR and (high_card_nb(s) & 15) < 10:
        return c
    return high_card_nb(s)


@njit(cache=True, inline="always")
def variant_hook_nb(ctx, contract, p, hand, legal, j, led, winner, win_pos, trump, danger,
                    rv, t, leader, tc, played, broken, taken, scores, voids,
                    chooser_played, variant_of):
    """The engine's trick loop's card hook (fastsim.bonken_nb.play_on_nb): each position's
    variant of the heuristic (``variant_of``, by position; the game totals by position come
    as ``voids``, which this loop does not keep)."""
    return card_nb(variant_of[p], contract, hand, legal, j, led, winner, trump, danger, played,
                   voids, p, win_pos)


@njit(cache=True)
def play_round_nb(contract, hands, variant_of, game, scores, tc):
    """One trick round through the engine's own trick loop (``tc``: a scratch of 4)."""
    for p in range(4):
        scores[p] = 0
    nb.play_on_nb(variant_hook_nb, 0, contract, hands, variant_of, RV, 0, 0, tc, 0,
                  np.int64(0), False, np.int64(0), np.int64(0), scores, game, False)


@njit(cache=True, parallel=True)
def games_nb(seed, n_games, seat_variant, out_totals, out_lead_loss, out_lead_n):
    """``seat_variant[c, s]``: the card rule of seat s in configuration c; totals per
    (c, game, seat); the leader's loss in negative rounds per (c, game) and their count."""
    rkey = run_key_nb(seed)
    C = seat_variant.shape[0]
    for g in prange(n_games):
        deck = np.empty(52, dtype=np.int64)
        # this game's scratch by position, one block: hands, scores, game totals, variants,
        # totals by seat, the trick loop's table
        rows = np.empty((6, 4), dtype=np.int64)
        hands, scores, game, var, total, tc = rows[0], rows[1], rows[2], rows[3], rows[4], rows[5]
        pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)     # Domino: everyone heuristic
        dm = np.empty((1, 2), dtype=np.int8)                   # (Domino's record: unused)
        d1 = np.empty(1, dtype=np.int8)
        for c in range(C):
            for s in range(4):
                total[s] = 0
            done = 0
            loss = 0
            nl = 0
            for k in range(ROUNDS):
                dealer = k & 3
                dkey = deal_key_nb(rkey, g * ROUNDS + k)
                nb.deal_nb(dkey, deck, hands)
                for p in range(4):
                    s = (dealer + 1 + p) & 3
                    var[p] = seat_variant[c, s]
                    game[p] = total[s]
                avail = (~done) & (0x7F if k < N_NEGATIVE else 0xF80)
                contract = nb.choose_contract_nb(dkey, hands[1], avail, POLICY_HEURISTIC)
                done |= 1 << contract
                if contract == DOMINO:
                    nb.play_domino_nb(dkey, hands, pol, scores, dm, d1, False)
                else:
                    play_round_nb(contract, hands, var, game, scores, tc)
                if 0 < k < N_NEGATIVE:
                    top = max(game[0], game[1], game[2], game[3])
                    n_top = 0
                    who = 0
                    for p in range(4):
                        if game[p] == top:
                            n_top += 1
                            who = p
                    if n_top == 1:
                        loss -= scores[who]
                        nl += 1
                for p in range(4):
                    total[(dealer + 1 + p) & 3] += scores[p]
            for s in range(4):
                out_totals[c, g, s] = total[s]
            out_lead_loss[c, g] = loss
            out_lead_n[c, g] = nl


def win_share(totals):
    top = totals.max(axis=-1, keepdims=True)
    w = (totals == top).astype(float)
    return w / w.sum(axis=-1, keepdims=True)


def interval(x):
    m = x.mean()
    h = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return f"{m:+8.3f} [{m - h:+8.3f}, {m + h:+8.3f}]"


def run(seed, n, v):
    # configurations: 0 all old, 1..4 seat s new, 5 all new, 6..9 seat s old
    conf = [[0] * 4] + [[v if q == s else 0 for q in range(4)] for s in range(4)] \
        + [[v] * 4] + [[0 if q == s else v for q in range(4)] for s in range(4)]
    conf = np.array(conf, dtype=np.int64)
    totals = np.zeros((len(conf), n, 4), dtype=np.int64)
    loss = np.zeros((len(conf), n), dtype=np.int64)
    nl = np.zeros((len(conf), n), dtype=np.int64)
    games_nb(np.uint64(seed), n, conf, totals, loss, nl)
    return totals, loss, nl


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", type=int, default=None, choices=sorted(VARIANTS),
                    help="one variant (default: every one)")
    a = ap.parse_args()
    n = a.games
    from fastsim import bonken as bk
    ref = bk.simulate(bk.build_rules(), n, seed=a.seed)
    t0 = time.perf_counter()
    seats = np.arange(4)
    for v in ([a.variant] if a.variant else sorted(VARIANTS)):
        totals, loss, nl = run(a.seed, n, v)
        # the benchmark's own game loop must be the engine's with today's heuristic
        assert (totals[0] == ref.games["totals"]).all(), "benchmark loop differs from engine"
        ws = win_share(totals.astype(float))
        # one new among old: seat s of conf 1+s against conf 0 (mean over the seats per game)
        d_new = (totals[1 + seats, :, seats] - totals[0][:, seats].T).mean(axis=0)
        w_new = (ws[1 + seats, :, seats] - ws[0][:, seats].T).mean(axis=0)
        d_old = (totals[6 + seats, :, seats] - totals[5][:, seats].T).mean(axis=0)
        w_old = (ws[6 + seats, :, seats] - ws[5][:, seats].T).mean(axis=0)
        print(f"variant {VARIANTS[v]}")
        print("  one new player among three old, new - old per game (95%):")
        print(f"    game score {interval(d_new)}   win share {interval(w_new)}")
        print("  one old player among three new, old - new per game:")
        print(f"    game score {interval(d_old)}   win share {interval(w_old)}")
        lo, ln = loss[0].sum() / nl[0].sum(), loss[5].sum() / nl[5].sum()
        print(f"  the game leader's points lost per negative round (rounds 2-7, a unique "
              f"leader): all old {lo:.2f}, all new {ln:.2f}; per game new - old "
              f"{interval(loss[5] - loss[0])}", flush=True)
    print(f"{n} games, seed {a.seed}, 10 seatings per variant; {time.perf_counter() - t0:.1f} s "
          "(compilation included)")


if __name__ == "__main__":
    main()

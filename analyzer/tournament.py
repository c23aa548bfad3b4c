"""Duplicate tournaments: every deal is played once for every seating of the policies, so
the cards cancel out, and each policy's mean score is compared with paired differences.

Seat ``s`` plays ``policies[(s + r) % k]`` in rotation ``r`` (``r = 0 .. seats − 1``), the
same seed — hence the same cards — in every rotation. In Klaverjassen, a team game, more
than two policies are compared pair by pair (each pair as the two teams). A policy's score for one deal (or
game) is the mean over all its seats and rotations; the 95% intervals come from the
spread of these per-deal values, and the difference of two policies from their per-deal
differences (paired). numpy only.
"""
import numpy as np

from fastsim.common import RulesError
from .stats_core import Z95

GAMES = ("boerenbridge", "bonken", "klaverjassen", "boonaken")
POLICIES = {"boerenbridge": ("random", "heuristic", "pimc"),
            "bonken": ("random", "heuristic", "pimc"),
            "klaverjassen": ("random", "heuristic", "pimc"),
            "boonaken": ("random", "heuristic", "pimc")}


def _runner(game, n_units, whole_games, seed, variants, players, hand_size, preset, worlds,
            threads):
    """A function seat→policy names → (units, seats) score matrix, and the seat count."""
    if game == "boerenbridge":
        from fastsim import boerenbridge as bb
        rules = bb.build_rules(players=players, hand_size=None if whole_games else (hand_size or 8),
                               variants=variants, first_dealer=0)

        def run(names):
            pols = bb.parse_seat_policies(rules.players, "heuristic",
                                          [f"{s}={p}" for s, p in enumerate(names)])
            r = bb.simulate(rules, n_units, seed=seed, policies=pols, threads=threads, worlds=worlds)
            return (r.games["totals"] if whole_games else r.deals["scores"]).astype(np.float64)
        return run, rules.players, "game" if whole_games else "deal"
    if game == "bonken":
        from fastsim import bonken as bk
        rules = bk.build_rules(variants)

        def run(names):
            pols = bk.parse_seat_policies("heuristic", [f"{s}={p}" for s, p in enumerate(names)])
            r = bk.simulate(rules, n_units, seed=seed, policies=pols, threads=threads,
                            worlds=worlds)
            return r.games["totals"].astype(np.float64)
        return run, 4, "game"
    if game == "klaverjassen":
        from fastsim import klaverjassen as kj
        rules = kj.build_rules(variants)

        def run(names):
            pols = kj.parse_seat_policies("heuristic", [f"{s}={p}" for s, p in enumerate(names)])
            r = kj.simulate(rules, n_units, seed=seed, policies=pols, boompje=whole_games,
                            threads=threads, worlds=worlds)
            if whole_games:
                t = r.games["totals"].astype(np.float64)
            else:
                t = r.deals["team_scores"].astype(np.float64)
            return t[:, [0, 1, 0, 1]]
        return run, 4, "boompje" if whole_games else "deal"
    from fastsim import boonaken as bo
    rules = bo.build_rules(players or 4, preset)

    def run(names):
        pols = bo.parse_seat_policies(rules.players, "heuristic",
                                      [f"{s}={p}" for s, p in enumerate(names)])
        r = bo.simulate(rules, n_units, seed=seed, policies=pols, threads=threads, worlds=worlds)
        res = r.deals["result"]
        return np.where(res < 0, 0, np.where(res == 1, 1, -1)).astype(np.float64)
    return run, rules.players, "deal"


def tournament(game, policies, n=1000, whole_games=False, seed=0, variants=(), players=None,
               hand_size=None, preset="seed", worlds=None, threads=None):
    if game not in GAMES:
        raise RulesError(f"unknown game {game!r}")
    names = [p.strip().lower() for p in (policies.split(",") if isinstance(policies, str) else policies)]
    if len(names) < 2 or len(set(names)) != len(names):
        raise RulesError("give at least two different policies, e.g. heuristic,random")
    for p in names:
        if p not in POLICIES[game]:
            raise RulesError(f"policy {p!r} is not available for {game}; "
                             f"known: {', '.join(POLICIES[game])}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise RulesError(f"need at least one deal or game, got {n!r}")
    if worlds is None:
        from fastsim.boerenbridge_schema import PIMC_WORLDS
        worlds = PIMC_WORLDS
    run, seats, unit = _runner(game, n, whole_games, seed, variants, players, hand_size, preset,
                               worlds, threads)
    k = len(names)

    def duplicate(group):
        """(units, len(group)) mean score per deal of each policy of ``group``."""
        sums = np.zeros((n, len(group)))
        counts = np.zeros(len(group))
        for r in range(seats):
            seating = [group[(s + r) % len(group)] for s in range(seats)]
            scores = run(seating)
            for s, p in enumerate(seating):
                sums[:, group.index(p)] += scores[:, s]
                counts[group.index(p)] += 1
        return sums / counts

    def ci(x):
        m, se = float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0
        return m, [m - Z95 * se, m + Z95 * se], abs(m) > Z95 * se

    pairs = []
    rows = []
    if game == "klaverjassen" and k > 2:
        # a team game: partners share a score, so three policies at one table would compare
        # partnerships, not policies. Every pair plays its own duplicate match instead, the
        # two policies as the two teams.
        per_policy = {p: [] for p in names}
        for i in range(k):
            for j in range(i + 1, k):
                pu = duplicate([names[i], names[j]])
                per_policy[names[i]].append(pu[:, 0])
                per_policy[names[j]].append(pu[:, 1])
                m, c, sig = ci(pu[:, 0] - pu[:, 1])
                pairs.append({"a": names[i], "b": names[j], "difference": m, "ci": c,
                              "significant": bool(sig)})
        for p in names:
            m, c, _ = ci(np.concatenate(per_policy[p]))
            rows.append({"policy": p, "mean_score": m, "ci": c})
    else:
        per_unit = duplicate(names)     # (units, policies): each policy's mean per deal/game
        for i, p in enumerate(names):
            m, c, _ = ci(per_unit[:, i])
            rows.append({"policy": p, "mean_score": m, "ci": c})
        for i in range(k):
            for j in range(i + 1, k):
                m, c, sig = ci(per_unit[:, i] - per_unit[:, j])
                pairs.append({"a": names[i], "b": names[j], "difference": m, "ci": c,
                              "significant": bool(sig)})
    return {"game": game, "unit": unit, "units": n, "seatings": seats, "seed": seed,
            "policies": rows, "pairs": pairs, "variants": list(variants),
            "worlds": worlds if "pimc" in names else None}

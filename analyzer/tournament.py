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

from . import games as registry
from . import limits


def _runner(entry, n_units, whole_games, seed, options, worlds, threads):
    """A function seat→policy names → (units, seats) score matrix, the seat count and
    the unit."""
    setup = entry.tournament_setup(whole_games, **options)

    def run(names, start, count):
        pols = entry.parse_policies(setup, "heuristic", [f"{s}={p}" for s, p in enumerate(names)])
        r = entry.simulate(setup, count, seed=seed, policies=pols, start=start,
                           threads=threads, worlds=worlds)
        return entry.seat_scores(r, whole_games)
    return run, setup


def tournament(game, policies, n=None, whole_games=False, seed=0, variants=(), players=None,
               hand_size=None, preset=None, worlds=None, threads=None):
    entry = registry.get(game)
    options = {"players": players, "hand_size": hand_size, "preset": preset,
               "variant": tuple(variants) or None}
    registry.check_options(entry, options)
    options = {k: v for k, v in options.items() if v is not None}
    names = [p.strip().lower() for p in (policies.split(",") if isinstance(policies, str) else policies)]
    if len(names) < 2 or len(set(names)) != len(names):
        raise RulesError("give at least two different policies, e.g. heuristic,random")
    for p in names:
        if p not in entry.POLICIES:
            raise RulesError(f"policy {p!r} is not available for {game}; "
                             f"known: {', '.join(entry.POLICIES)}")
    if n is None:
        n = entry.TOURNAMENT_DEFAULT.get("game" if whole_games else "deal",
                                         min(entry.TOURNAMENT_DEFAULT.values()))
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise RulesError(f"need at least one deal or game, got {n!r}")
    if worlds is None:
        from fastsim.boerenbridge_schema import PIMC_WORLDS
        worlds = PIMC_WORLDS
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) \
            or not 1 <= worlds <= 4096:
        raise RulesError(f"--worlds must be 1..4096, got {worlds!r}")
    run, setup = _runner(entry, n, whole_games, seed, options, worlds, threads)
    seats, unit = setup.players, setup.unit
    k = len(names)
    block = limits.tournament_block(setup)     # the deals are played a block at a time
    limits.check_tournament(n, names, seats, unit,
                            min(n, block) * (setup.deals_per_unit or 30) * (50 + 160 * seats))

    def duplicate(group):
        """(units, len(group)) mean score per deal of each policy of ``group``; every
        unit's randomness is keyed by its index, so the blocks change nothing."""
        sums = np.zeros((n, len(group)))
        counts = np.zeros(len(group))
        for r in range(seats):
            seating = [group[(s + r) % len(group)] for s in range(seats)]
            for start in range(0, n, block):
                count = min(block, n - start)
                scores = run(seating, start, count)
                for s, p in enumerate(seating):
                    sums[start:start + count, group.index(p)] += scores[:, s]
            for p in seating:
                counts[group.index(p)] += 1
        return sums / counts

    def ci(x):
        m, se = float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0
        return m, [m - Z95 * se, m + Z95 * se], abs(m) > Z95 * se

    pairs = []
    rows = []
    if getattr(entry, "TEAM_GAME", False) and k > 2:
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


def render(r):
    """A tournament's result as text lines."""
    lines = [f"{r['game']} duplicate tournament: {r['units']:,} {r['unit']}s x {r['seatings']} "
             f"seatings, seed {r['seed']}" + (f", pimc worlds {r['worlds']}" if r["worlds"] else ""),
             "", f"policy       mean score per {r['unit']}   95% interval"]
    for p in r["policies"]:
        lines.append(f"{p['policy']:<12} {p['mean_score']:>20.2f}   [{p['ci'][0]:.2f}, {p['ci'][1]:.2f}]")
    lines.append("")
    for d in r["pairs"]:
        lines.append(f"{d['a']} - {d['b']}: {d['difference']:+.2f} [{d['ci'][0]:+.2f}, "
                     f"{d['ci'][1]:+.2f}]" + ("" if d["significant"] else "  (not significant)"))
    return lines

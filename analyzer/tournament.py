"""Duplicate tournaments: every deal is played once for every seating of the policies, so
the cards cancel out, and each policy's mean score is compared with paired differences.

Seat ``s`` plays ``policies[(s + r) % k]`` in rotation ``r`` (``r = 0 .. k − 1`` for ``k``
policies), the same seed — hence the same cards — in every rotation: over the ``k``
rotations every policy sits in every seat exactly once, for any number of seats
(``seatings``). In Klaverjassen, a team game, more
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


PROGRESS_STEPS = 20      # kernel calls per seating when a progress bar is shown


def seatings(k, seats):
    """The duplicate seatings of ``k`` policies on ``seats`` seats: rotation ``r`` puts
    policy ``(s + r) % k`` in seat ``s``. Over the ``k`` rotations each seat holds each
    policy exactly once, whether or not ``k`` divides the number of seats (with 3 policies
    on 4 seats one policy sits twice at the table in each rotation — a different one each
    time — and every seat still sees every policy once)."""
    if k < 1 or seats < 1:
        raise RulesError(f"cannot seat {k} policies on {seats} seats")
    return [[(s + r) % k for s in range(seats)] for r in range(k)]


def check_entrants(names, example):
    """At least two policies, each listed once."""
    twice = sorted({p for p in names if names.count(p) > 1})
    if twice:
        raise RulesError(f"policy {twice[0]} is listed twice; give each policy once")
    if len(names) < 2:
        raise RulesError(f"give at least two different policies, e.g. {example}")


def _resolve_policy(entry, p):
    """One ``--policies`` entry: a built-in name, or ``PATH.py:FUNCTION`` (a policy of your
    own, loaded and checked now; played through :mod:`analyzer.agents`)."""
    from . import agents
    p = p.strip()
    if agents.is_user_spec(p):
        if not getattr(entry, "USER_POLICIES", False):
            raise agents.PolicyError(f"{entry.NAME}: {agents.NOT_SUPPORTED}")
        agents.load_policy(p)
        return p
    if p.lower() not in entry.POLICIES:
        split = ("; a split entrant BID+CARD is played in OpenSpiel: add an openspiel: entrant"
                 if "+" in p else "")
        raise RulesError(f"policy {p.lower()!r} is not available for {entry.NAME}; "
                         f"known: {', '.join(entry.POLICIES)}{split}")
    return p.lower()


def _runner(entry, setup, n_units, whole_games, seed, worlds, threads, store=None):
    """A function seat→policy names → (units, seats) score matrix, the seat count and
    the unit. With a ``store`` (:class:`analyzer.tournament_store.TournamentStore`) every
    block is saved as it ends and a block saved before is read back instead of played."""
    block = limits.tournament_block(setup)     # the units are played a block at a time

    def run(names, bar=None):
        """(units, seats) scores of one seating, played in blocks (smaller ones with a
        progress bar or a store, so that an interrupted tournament keeps most of its
        work): every unit's randomness is keyed by its index, so the blocks change
        nothing."""
        pols = None
        small = bar is not None or store is not None
        step = min(block, max(1, -(-n_units // PROGRESS_STEPS))) if small else block
        parts = []
        for start in range(0, n_units, step):
            count = min(step, n_units - start)
            key = f"{'|'.join(names)}@{start}+{count}"
            saved = store.get(key) if store is not None else None
            if saved is not None:
                part = saved["scores"]
            else:
                if pols is None:
                    pols = entry.parse_policies(setup, "heuristic",
                                                [f"{s}={p}" for s, p in enumerate(names)])
                r = entry.simulate(setup, count, seed=seed, policies=pols, start=start,
                                   threads=threads, worlds=worlds)
                part = entry.seat_scores(r, whole_games)
                if store is not None:
                    store.put(key, scores=part)
            parts.append(part)
            if bar is not None:
                bar.update(count)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)
    return run, setup, block


def check_size(n, worlds, default_n):
    """A tournament's number of units (``None``: ``default_n``) and pimc worlds (``None``:
    the default), range-checked → (n, worlds)."""
    if n is None:
        n = default_n
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise RulesError(f"need at least one deal or game, got {n!r}")
    if worlds is None:
        from fastsim.boerenbridge_schema import PIMC_WORLDS
        worlds = PIMC_WORLDS
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) \
            or not 1 <= worlds <= 4096:
        raise RulesError(f"--worlds must be 1..4096, got {worlds!r}")
    return n, worlds


def _bar(total, unit, progress):
    from .progress import bar
    return bar(total, unit, progress, desc="tournament")


def tournament(game, policies, n=None, whole_games=False, seed=0, variants=(), players=None,
               hand_size=None, preset=None, worlds=None, threads=None, progress=None,
               out=None, resume=False):
    """A duplicate tournament of ``policies`` (see the module doc) → result dict.
    ``progress``: a progress bar on stderr (None: when stderr is a terminal).
    ``out``: a folder that keeps every finished block (:mod:`analyzer.tournament_store`);
    ``resume``: continue the tournament saved there (the same arguments), playing only
    what is missing. An interrupted tournament with ``out`` raises KeyboardInterrupt
    with ``troef_tournament`` (where its pieces are) set."""
    if resume and out is None:
        raise RulesError("--resume needs --out DIR, the folder of the interrupted tournament")
    entry = registry.get(game)
    options = {"players": players, "hand_size": hand_size, "preset": preset,
               "variant": tuple(variants) or None}
    registry.check_options(entry, options)
    options = {k: v for k, v in options.items() if v is not None}
    raw = [p.strip() for p in (policies.split(",") if isinstance(policies, str) else policies)]
    if any(p.lower().startswith("openspiel:") for p in raw):   # OpenSpiel bots: played in OpenSpiel
        from .openspiel_bridge import tournament as openspiel_tournament
        return openspiel_tournament(game, [p.lower() for p in raw], n, whole_games, seed,
                                    variants, players, hand_size, preset, worlds, threads,
                                    out=out, resume=resume)
    if n is None and not whole_games and "deal" not in entry.TOURNAMENT_DEFAULT:
        whole_games = True      # a game compared over whole games only (Bonken)
    names = [_resolve_policy(entry, p) for p in raw]
    check_entrants(names, "heuristic,random")
    n, worlds = check_size(n, worlds, entry.TOURNAMENT_DEFAULT.get(
        "game" if whole_games else "deal", min(entry.TOURNAMENT_DEFAULT.values())))
    setup = entry.tournament_setup(whole_games, **options)
    block = limits.tournament_block(setup)
    seats, unit = setup.players, setup.unit
    k = len(names)
    limits.check_tournament(n, names, seats, unit,
                            min(n, block) * (setup.deals_per_unit or 30) * (50 + 160 * seats))
    store = None            # made only once every refusal above has had its say
    if out is not None:
        store = open_store(out, resume, "troef", entry, setup, names, n, whole_games, seed,
                           worlds)
    run, setup, block = _runner(entry, setup, n, whole_games, seed, worlds, threads, store)
    team_pairs = getattr(entry, "TEAM_GAME", False) and k > 2
    bar = _bar(n * (k * (k - 1) if team_pairs else k), unit, progress)
    try:
        with stored(store):
            r = _compare(game, entry, names, n, seats, unit, run, bar, team_pairs, seed,
                         variants, worlds)
            if store is not None:
                store.finish(r)
    finally:
        if bar is not None:
            bar.close()
    return r


def open_store(out, resume, engine, entry, setup, names, n, whole_games, seed, worlds):
    """The :class:`TournamentStore` of ``--out``: its identity is everything the results
    depend on — the rules as resolved (so ``--players 4`` and the default 4 are one
    tournament), policies, units, seed, worlds, each policy file of your own and the
    code — so a folder of another tournament is refused (``--threads`` may differ)."""
    from .stream import code_identity
    from .tournament_store import TournamentStore, policy_hashes
    rules = {k: v for k, v in entry.metadata(entry.simulate(setup, 0, seed=seed)).items()
             if k not in ("seed", "policies")}
    identity = {"engine": engine, "rules": rules, "policies": list(names), "units": int(n),
                "whole_games": bool(whole_games), "seed": int(seed), "worlds": worlds,
                "policy_files": policy_hashes(names), **code_identity()}
    if engine == "openspiel":       # its bots are OpenSpiel's code: another version, other play
        from importlib import metadata
        identity["open_spiel"] = metadata.version("open_spiel")
    return TournamentStore(out, identity, resume)


class stored:
    """Context of a tournament with a store: Ctrl-C and SIGTERM become
    KeyboardInterrupt (``troef_tournament`` says what is saved where); the result is
    written next to the pieces at the end."""

    def __init__(self, store):
        self.store = store

    def __enter__(self):
        if self.store is not None:
            from .stream import interruptible
            self._ctx = interruptible()
            self._ctx.__enter__()
        return self

    def __exit__(self, et, e, tb):
        if self.store is None:
            return False
        self._ctx.__exit__(et, e, tb)
        self.store.close()
        if et is not None and issubclass(et, KeyboardInterrupt):
            e.troef_tournament = self.store.describe()
        from .storage import OutputError
        if et is not None and issubclass(et, OutputError):      # a full disk, say
            raise OutputError(f"{e}; {self.store.describe()}: run the same command with "
                              "--resume to continue") from None
        return False


def _compare(game, entry, names, n, seats, unit, run, bar, team_pairs, seed, variants, worlds):
    """Play every seating and compare the policies (the body of :func:`tournament`)."""
    k = len(names)

    def duplicate(group):
        """(units, len(group)) mean score per deal of each policy of ``group``."""
        sums = np.zeros((n, len(group)))
        counts = np.zeros(len(group))
        for rotation in seatings(len(group), seats):
            seating = [group[i] for i in rotation]
            scores = run(seating, bar)
            for s, p in enumerate(seating):
                sums[:, group.index(p)] += scores[:, s]
                counts[group.index(p)] += 1
        return sums / counts

    def ci(x):
        m, se = float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0
        return m, [m - Z95 * se, m + Z95 * se], abs(m) > Z95 * se

    pairs = []
    rows = []
    if team_pairs:
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
    return {"game": game, "unit": unit, "units": n,
            "seatings": len(seatings(2 if getattr(entry, "TEAM_GAME", False) else k, seats)),
            "seed": seed,
            "policies": rows, "pairs": pairs, "variants": list(variants),
            "worlds": worlds if "pimc" in names or any(":" in p for p in names) else None}


def render(r):
    """A tournament's result as text lines."""
    w = max([12] + [len(p["policy"]) for p in r["policies"]])
    worlds = ""
    if r["worlds"]:
        worlds = f", pimc worlds {r['worlds']}"
        if r["game"] == "boerenbridge":     # its pimc samples a multiple (issue #14)
            from fastsim.boerenbridge_schema import PIMC_CARD_FACTOR
            worlds += f" (Boerenbridge's pimc: {PIMC_CARD_FACTOR * r['worlds']} a decision)"
    lines = [f"{r['game']} duplicate tournament: {r['units']:,} {r['unit']}s x {r['seatings']} "
             f"seatings, seed {r['seed']}" + worlds,
             "", f"{'policy':<{w}} mean score per {r['unit']}   95% interval"]
    for p in r["policies"]:
        lines.append(f"{p['policy']:<{w}} {p['mean_score']:>20.2f}   [{p['ci'][0]:.2f}, {p['ci'][1]:.2f}]")
    lines.append("")
    for d in r["pairs"]:
        lines.append(f"{d['a']} - {d['b']}: {d['difference']:+.2f} [{d['ci'][0]:+.2f}, "
                     f"{d['ci'][1]:+.2f}]" + ("" if d["significant"] else "  (not significant)"))
    if r.get("engine") == "openspiel":
        from .openspiel_bridge import render_extra
        lines += render_extra(r)
    return lines

"""Strategy reports (``troef report GAME``): figures, tables, HTML and Markdown.

:func:`build_report` validates the options that apply to the game and hands over to
``reports.<game>.build``; matplotlib is imported only when a report is built.
"""
import importlib
import os

GAMES = ("boerenbridge", "klaverjassen", "bonken", "boonaken")
# the options each game's report takes (beyond --deals/--from/--seed/--threads/--out)
OPTIONS = {
    "boerenbridge": ("players", "policy", "variant"),
    "klaverjassen": ("policy", "variant"),
    "bonken": ("policy", "variant"),
    "boonaken": ("players", "preset", "policy"),
}


def build_report(game, out, deals=None, from_path=None, policy=None, variants=(), seed=None,
                 players=None, preset=None, threads=None):
    """Build ``game``'s report into the folder ``out``; returns the written
    :class:`reports.common.Report`. Bad options raise ValueError (one line)."""
    from .common import check_count
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):     # troef creates only the report's own folder
        raise ValueError(f"cannot write the report: folder {parent} does not exist")
    if os.path.lexists(out) and os.path.isdir(out) and os.listdir(out) \
            and not os.path.exists(os.path.join(out, "setup.json")):
        raise ValueError(f"--out {out} holds other files; give an empty folder or one "
                         "troef made")
    given = {"players": players, "preset": preset, "policy": policy,
             "variant": list(variants) or None}
    for name, value in given.items():
        if value is not None and name not in OPTIONS[game]:
            hint = {"variant": "; it has no rule variants" + (
                ", use --preset" if "preset" in OPTIONS[game] else "")}.get(name, "")
            raise ValueError(f"--{name} does not apply to the {game} report{hint}")
    if threads is not None and (isinstance(threads, bool) or threads < 1):
        raise ValueError(f"--threads must be at least 1, got {threads}")
    if from_path is not None:
        if deals is not None:
            raise ValueError("give --deals (simulate) or --from (a results file), not both")
        fixed = [f"--{k}" for k, v in (("seed", seed), *given.items()) if v is not None]
        if fixed:
            raise ValueError(f"{', '.join(fixed)} cannot go with --from: the set-up comes from "
                             "the results file")
        if threads is not None:
            raise ValueError("--threads cannot go with --from: nothing is simulated (it was "
                             "ignored)")
    deals = check_count(deals)
    from analyzer.games import get
    module = importlib.import_module(get(game).REPORT)   # a fixed name from the registry
    return module.build(out, deals=deals, from_path=from_path, policy=policy,
                        variants=tuple(variants), seed=seed, players=players, preset=preset,
                        threads=threads)

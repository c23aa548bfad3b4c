"""The game registry: one entry per game, and the only place that picks a game by name.

Every game is one module of this package (``analyzer/games/<name>.py``) that provides the
same interface, so the run API, storage, statistics, reports, tournaments and the CLI are
written once for all four games:

============================  ==========================================================
``NAME``, ``TITLE``           registry name and display name
``POLICIES``                  the built-in policy names
``OPTIONS``                   the set-up options the game takes (``players``, ``variant``…)
``UNITS``                     what a run can count: ``{"deals": unit, "games": unit}``
``make_setup(**options)``     a validated :class:`Setup` (rules plus the run's shape)
``parse_policies(setup, policy, seat_policy)``  per-seat policy codes
``simulate(setup, n, seed, policies, start, threads, record, worlds)``  the compiled
                              engine on units ``[start, start + n)``; returns its Result
``tidy(result)``              one row per deal (or match) and seat, as a DataFrame
``columns(result)``           (optional) the tidy table's columns as arrays, which the
                              results path builds into Arrow without pandas
``row_blocks(result, rows)``  (optional) (table rows, sub-results of whole deals of at
                              most ``rows`` rows each, without what the table does not
                              read): the results path builds and encodes a chunk's
                              table a row group at a time
``COLUMNS_ANY_THREAD``        (optional) True where ``columns`` calls serial ``nogil``
                              kernels only: a streamed run builds the table in its
                              encoding threads, beside the next chunk's simulation
``metadata(result)``          the run's set-up as stored with results files
``records(result)``           the recorded play, one JSON-able dict per deal
``partials(result)``          summary sums of one chunk (integers only, JSON-able)
``summarize(sums, setup)``    the run summary from the added-up partials
``render(payload)``           the summary as text lines
``seat_scores(result, whole)``  (units, seats) scores for duplicate tournaments
``STATS``, ``stats(df, …)``   statistics of results files, with 95% intervals
============================  ==========================================================

The table :data:`GAMES` is fixed: no module name is ever computed from input.
"""
import importlib

GAMES = {
    "boerenbridge": "analyzer.games.boerenbridge",
    "klaverjassen": "analyzer.games.klaverjassen",
    "bonken": "analyzer.games.bonken",
    "boonaken": "analyzer.games.boonaken",
}
NAMES = tuple(GAMES)
# the engine module of every game's Result classes (fastsim.<name>) → registry name
_ENGINES = {"fastsim.boerenbridge": "boerenbridge", "fastsim.klaverjassen": "klaverjassen",
            "fastsim.bonken": "bonken", "fastsim.boonaken": "boonaken"}


class UnknownGame(ValueError):
    """A game name that is not in the registry (one line)."""


def get(name):
    """The registry entry (module) of game ``name``."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(NAMES)}")
    return importlib.import_module(GAMES[name])


def of_result(result):
    """The registry entry of a simulation result of any game."""
    name = _ENGINES.get(type(result).__module__)
    if name is None:
        raise TypeError(f"not a troef simulation result: {type(result).__name__}")
    return get(name)


class lazy_engine:
    """A game's engine module (``fastsim.<game>``), imported on first use: a registry
    entry imports no numba until it runs kernels (``troef play`` may not, fastsim/aot.py)."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self._name), attr)


def concat_results(results, arrays=("deals", "games", "play")):
    """Chunk results of one run joined: the array dicts ``arrays`` concatenated, the rest
    (rules, policies, seed, first index) from the first chunk."""
    from dataclasses import replace
    import numpy as np
    first = results[0]
    if len(results) == 1:
        return first
    joined = {name: {k: np.concatenate([getattr(r, name)[k] for r in results])
                     for k in getattr(first, name)}
              for name in arrays if getattr(first, name, None) is not None}
    return replace(first, **joined)


def policy_names(policies):
    """The policy names of per-seat codes (built-in names, "strong", a policy of your own)."""
    from ..agents import policy_names as names
    return names(policies)


def tidy_frame(game, result):
    """The tidy frame of ``result`` by ``analyzer.frames.tidy_<game>`` (``game``: a fixed
    registry name, never input), a seat of a user policy naming it (``tidy_named``)."""
    from .. import frames
    from ..agents import tidy_named
    return tidy_named(getattr(frames, "tidy_" + game), result)


def frame_columns(game, result):
    """The tidy table's columns as arrays by ``analyzer.frames.columns_<game>`` (built into
    Arrow without pandas)."""
    from .. import frames
    return getattr(frames, "columns_" + game)(result)


def frame_functions(game):
    """``(tidy, columns)`` of a registry entry whose tidy frame and columns are
    ``analyzer.frames.tidy_<game>`` and ``columns_<game>`` as they stand."""
    def tidy(result):
        return tidy_frame(game, result)

    def columns(result):
        """The tidy table's columns as arrays (built into Arrow without pandas)."""
        return frame_columns(game, result)

    return tidy, columns


def run_metadata(game, players, result, **fields):
    """A run's metadata as stored with results files: game and players, the game's own
    ``fields`` (in order), then first dealer, variants, seed and policies."""
    r = result.rules
    return {"game": game, "players": players, **fields, "first_dealer": r.first_dealer,
            "variants": r.variants, "seed": result.seed,
            "policies": policy_names(result.policies)}


def arrow_table(entry, result):
    """The tidy table of ``result`` as a pyarrow Table: built from the entry's ``columns``
    where it has them (no pandas on the results path), else from its DataFrame."""
    from ..agents import has_user
    cols = None
    if hasattr(entry, "columns") and not has_user(getattr(result, "policies", ())):
        cols = entry.columns(result)   # (a seat of a user policy names it: via the frame)
    if cols is not None:
        from ..frames import arrow_table as build
        return build(cols)
    import pyarrow as pa
    return pa.Table.from_pandas(entry.tidy(result), preserve_index=False)


def deal_row_blocks(result, max_rows, players):
    """``row_blocks`` of a game whose tidy table has one row per deal row and seat, built
    from ``result.deals`` (one row per deal), the rules and the policies only: (rows,
    sub-results of consecutive deal rows of at most ``max_rows`` table rows each, at
    least one deal row). Views of the deal arrays; the per-game arrays, which the table
    does not read, are left out."""
    from dataclasses import replace
    d = result.deals
    deals = len(d["deal"])
    step = max(1, max_rows // players)
    none = {k: v[:0] for k, v in result.games.items()}
    parts = [replace(result, deals={k: v[a:a + step] for k, v in d.items()}, games=none)
             for a in range(0, max(deals, 1), step)]
    return deals * players, parts


def row_parts(entry, result, max_rows):
    """(rows of the tidy table, sub-results whose tables, one after the other, are the
    table of ``result``): the entry's ``row_blocks`` (whole deals, at most ``max_rows``
    rows each; cheap views) where it has them, else (None, [result]): the rows are known
    once the one table is built. Each sub-result's table is :func:`arrow_table`'s."""
    if hasattr(entry, "row_blocks"):
        return entry.row_blocks(result, max_rows)
    return None, [result]


def resolve(entry, deals, games, options):
    """The CLI's counting rule → (set-up, number of units). A game whose single deals are
    asked for by an option (``SINGLE_OPTION``: Boerenbridge ``--hand-size``, Bonken
    ``--contract``) plays whole games without it; the others play single deals unless
    ``--games``/``--matches`` is given."""
    flag = getattr(entry, "SINGLE_OPTION", None)
    many = entry.GAMES_OPTION[0]
    if flag is None:
        if deals is not None and games is not None:
            raise entry.RulesError(f"give --deals or {many}, not both")
        single = games is None
    else:
        single = options.get(flag[2:].replace("-", "_")) is not None
        if single and games is not None:
            raise entry.RulesError(f"{many} plays whole games; with {flag} use --deals")
        if not single and deals is not None:
            raise entry.RulesError(f"--deals needs {flag}; whole games use {many}")
    unit = "deal" if single else entry.UNITS["games"]
    count = deals if single else games
    return entry.make_setup(unit, **options), entry.DEFAULT_COUNT[unit] if count is None else count


def merge(a, b):
    """Add two partials (nested dicts / lists of numbers) element by element."""
    if isinstance(a, dict):
        return {k: merge(a[k], b[k]) if k in a else b[k] for k in {**a, **b}} if b else dict(a)
    if isinstance(a, list):
        return [merge(x, y) for x, y in zip(a, b)]
    return a + b


class Summary:
    """Adds up the :func:`partials` of chunks; :meth:`payload` is the run summary, equal
    to the game's ``summarize(partials(whole result))``."""

    def __init__(self, game, setup):
        self.game = get(game) if isinstance(game, str) else game
        self.setup = setup
        self.sums = None

    def add(self, p):
        self.sums = p if self.sums is None else merge(self.sums, p)

    @property
    def deals(self):
        return 0 if self.sums is None else self.sums["deals"]

    def payload(self):
        return self.game.summarize(self.sums if self.sums is not None
                                   else self.game.empty_partials(self.setup), self.setup)


def check_options(game, given):
    """Refuse options that do not apply to ``game`` (``given``: {option: value or None})."""
    entry = get(game) if isinstance(game, str) else game
    for name, value in given.items():
        if value not in (None, (), []) and name not in entry.OPTIONS:
            raise entry.RulesError(f"--{name.replace('_', '-')} does not apply to "
                                   f"{entry.NAME}")


def win_share(counts):
    """Exact mean win shares from per-seat counts by number of co-winners:
    ``counts[k-1][s]`` games that seat ``s`` won with ``k`` winners in all."""
    from fractions import Fraction
    seats = len(counts[0]) if counts else 0
    return [sum((Fraction(c[s], k + 1) for k, c in enumerate(counts)), Fraction(0))
            for s in range(seats)]


def seat_lines(p, extra=()):
    """The per-seat table of a whole-games summary ``p`` as text lines (none without
    games): seat, policy, mean total and win share, then each ``(header, key, format)`` of
    ``extra``."""
    if not (p.get("seats") and p["games"]):
        return []
    lines = ["", "seat  policy     mean total  win share" + "".join(f"  {h}" for h, _, _ in extra)]
    for s in p["seats"]:
        lines.append(f"{s['seat']:<5} {s['policy']:<10} {s['mean_total']:>10.1f}  "
                     f"{s['win_rate']:>9.1%}" + "".join(f"  {s[k]:{f}}" for _, k, f in extra))
    return lines


def share_counts(winners):
    """Per-seat counts by number of co-winners (see :func:`win_share`) of a (games, seats)
    boolean winners matrix; integers, so chunk sums are exact."""
    import numpy as np
    w = np.asarray(winners, dtype=bool)
    k = w.sum(axis=1)
    seats = w.shape[1]
    return [[int(x) for x in w[k == j].sum(axis=0)] if (k == j).any() else [0] * seats
            for j in range(1, seats + 1)]

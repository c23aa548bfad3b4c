"""The statistics of :mod:`analyzer.stats` over datasets larger than memory.

Reads only the columns the asked statistics need, one row group at a time, from any mix
of dataset folders (:mod:`analyzer.stream`) and results files, and keeps per group only
the sufficient statistics — counts, sums and sums of squares (exact integers) — so memory
grows with the number of groups, not with the data. The tables are those that
:func:`analyzer.stats.all_stats` gives on the whole frame (same rows, columns and dtypes;
standard deviations agree to rounding, as they are computed from exact sums here).
"""
import json
import os

import numpy as np
import pandas as pd

from . import stream
from .stats import DEFAULT_BY, STATS, _welch
from .stats_core import Z95, wilson

COMPACT_EVERY = 16


def source_name(path):
    """The ``source`` label of a path: a file's stem, a folder's name."""
    path = os.path.normpath(os.fspath(path))
    base = os.path.basename(path)
    return base if os.path.isdir(path) else os.path.splitext(base)[0]


class _GroupSums:
    """Per-group sums over batches, combined every few batches."""

    def __init__(self, keys, make):
        self.keys = list(keys)
        self.make = make
        self.parts = []

    def add(self, df):
        self.parts.append(self.make(df))
        if len(self.parts) >= COMPACT_EVERY:
            self._compact()

    def _compact(self):
        if len(self.parts) > 1:
            both = pd.concat(self.parts)
            self.parts = [both.groupby(level=list(range(both.index.nlevels)), observed=True,
                                       sort=True).sum()]

    def result(self):
        self._compact()
        return self.parts[0]


def _moments(keys, col):
    """n, sum and sum of squares of ``col`` per group of ``keys``."""
    def make(df):
        v = df[col].astype(np.int64)
        t = pd.DataFrame({"n": np.ones(len(df), dtype=np.int64), "s": v, "ss": v * v})
        for k in keys:
            t[k] = df[k].values
        return t.groupby(keys, observed=True).sum()
    return make


def _mean_sd(n, s, ss):
    """Mean and sample sd (ddof 1; NaN for one value) from exact integer sums."""
    n = np.asarray(n, dtype=np.int64)
    mean = np.asarray(s, dtype=np.float64) / n
    num = np.array([int(a) * int(b) - int(c) * int(c) for a, b, c in zip(n, ss, s)],
                   dtype=object)
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.array([float(x) for x in num], dtype=np.float64) / (n * (n - 1.0))
    var = np.where(n > 1, np.maximum(var, 0.0), np.nan)
    return mean, np.sqrt(var)


def _mean_table(agg, prefix):
    """The table of :func:`analyzer.stats._mean_table` from per-group moments."""
    mean, sd = _mean_sd(agg["n"], agg["s"], agg["ss"])
    out = pd.DataFrame({"n": agg["n"].to_numpy(), prefix: mean, f"{prefix}_sd": sd},
                       index=agg.index)
    se = out[f"{prefix}_sd"].fillna(0) / np.sqrt(out["n"])
    out[f"{prefix}_lo"] = out[prefix] - Z95 * se
    out[f"{prefix}_hi"] = out[prefix] + Z95 * se
    return out


class _Stat:
    """One statistic: the columns it needs, its group sums, and its final table."""

    def __init__(self, name, columns, sums, finish):
        self.name, self.columns, self.sums, self.finish = name, columns, sums, finish


def _check_keys(available, keys):
    if len(set(keys)) != len(keys):
        raise ValueError(f"--by names a column twice: {','.join(keys)}")
    missing = [k for k in keys if k not in available]
    if missing:
        raise ValueError(f"unknown column(s) {', '.join(missing)}; "
                         f"available: {', '.join(available)}")
    return list(keys)


def _exact(available, by):
    keys = _check_keys(available, by)
    if not keys:
        raise ValueError("the exact table needs at least one --by column")

    def make(df):
        return df.groupby(keys, observed=True)["exact"].agg(["count", "sum"])

    def finish(agg):
        g = agg.rename(columns={"count": "n", "sum": "exact"})
        g["exact_rate"] = g["exact"] / g["n"]
        g["exact_rate_lo"], g["exact_rate_hi"] = wilson(g["exact"], g["n"])
        return g.reset_index()
    return _Stat("exact", keys + ["exact"], _GroupSums(keys, make), finish)


def _per_bid(available, extra, col, prefix, name):
    keys = _check_keys(available, [k for k in extra if k != "bid"] + ["bid"])

    def finish(agg):
        out = _mean_table(agg, prefix).reset_index()
        if name == "calibration":
            out["bias"] = out["mean_tricks"] - out["bid"]
        return out
    return _Stat(name, keys + [col], _GroupSums(keys, _moments(keys, col)), finish)


def _tricks(available, feature, extra):
    keys = _check_keys(available, [k for k in extra if k != feature] + [feature])

    def make(df):
        return df.groupby(keys + ["tricks"], observed=True).size().rename("count").to_frame()

    def finish(agg):
        counts = agg.reset_index()
        totals = counts.groupby(keys, observed=True)["count"].sum().rename("n").reset_index()
        out = counts.merge(totals, on=keys)
        out["p"] = out["count"] / out["n"]
        out["p_lo"], out["p_hi"] = wilson(out["count"], out["n"])
        return out[keys + ["tricks", "n", "count", "p", "p_lo", "p_hi"]]
    return _Stat("tricks", keys + ["tricks"], _GroupSums(keys, make), finish)


def _dealer(available, extra):
    keys = _check_keys(available, [k for k in extra if k not in ("position", "seat")])
    gk = keys + ["_dealer"]

    def make(df):
        v = df["score"].astype(np.int64)
        t = pd.DataFrame({"n": np.ones(len(df), dtype=np.int64), "s": v, "ss": v * v,
                          "e": df["exact"].astype(np.int64)})
        for k in keys:
            t[k] = df[k].values
        t["_dealer"] = (df["position"] == df["players"] - 1).values
        return t.groupby(gk, observed=True).sum()

    def finish(agg):
        rows = []
        flat = agg.reset_index()
        groups = flat.groupby(keys, observed=True, sort=True) if keys else [((), flat)]
        for key, part in groups:
            key = key if isinstance(key, tuple) else (key,)
            dl, ot = part[part["_dealer"]], part[~part["_dealer"]]
            if not len(dl) or not len(ot):
                continue
            dl, ot = dl.iloc[0], ot.iloc[0]
            nd, no = int(dl["n"]), int(ot["n"])
            if nd < 2 or no < 2:
                continue
            (md,), (sd,) = _mean_sd([nd], [dl["s"]], [dl["ss"]])
            (mo,), (so,) = _mean_sd([no], [ot["s"]], [ot["ss"]])
            d, lo, hi = _welch(md, sd, nd, mo, so, no)
            elo, ehi = wilson(int(dl["e"]), nd)
            olo, ohi = wilson(int(ot["e"]), no)
            rows.append(dict(zip(keys, key)) | {
                "n_dealer": nd, "n_others": no,
                "dealer_score": md, "others_score": mo,
                "score_diff": d, "score_diff_lo": lo, "score_diff_hi": hi,
                "dealer_exact_rate": int(dl["e"]) / nd, "dealer_exact_lo": elo,
                "dealer_exact_hi": ehi, "others_exact_rate": int(ot["e"]) / no,
                "others_exact_lo": olo, "others_exact_hi": ohi,
            })
        return pd.DataFrame(rows)
    return _Stat("dealer", keys + ["position", "players", "score", "exact"],
                 _GroupSums(gk, make), finish)


def _compare(available, by):
    _check_keys(available, [by])

    def make(df):
        v = df["score"].astype(np.int64)
        t = pd.DataFrame({"n": np.ones(len(df), dtype=np.int64), "s": v, "ss": v * v,
                          "e": df["exact"].astype(np.int64), by: df[by].values})
        return t.groupby(by, observed=True).sum()

    def finish(agg, first=None):
        """``first``: the source given first, the baseline (else the first group)."""
        if not len(agg):
            return pd.DataFrame()
        mean, sd = _mean_sd(agg["n"], agg["s"], agg["ss"])
        n = agg["n"].to_numpy()
        b = list(agg.index).index(first) if by == "source" and first in list(agg.index) else 0
        base = (mean[b], sd[b], int(n[b]))
        rows = []
        for j, key in enumerate(agg.index):
            nj, m, s = int(n[j]), mean[j], sd[j]
            ex = int(agg["e"].iloc[j])
            lo, hi = wilson(ex, nj)
            d, dlo, dhi = _welch(m, s, nj, *base)
            rows.append({by: key, "n": nj, "mean_score": m,
                         "mean_score_lo": m - Z95 * s / np.sqrt(nj),
                         "mean_score_hi": m + Z95 * s / np.sqrt(nj),
                         "exact_rate": ex / nj, "exact_rate_lo": lo,
                         "exact_rate_hi": hi, "vs": agg.index[b], "score_diff": d,
                         "score_diff_lo": dlo, "score_diff_hi": dhi})
        return pd.DataFrame(rows)
    return _Stat("compare", [by, "score", "exact"], _GroupSums([by], make), finish)


def _batches(files, columns):
    """DataFrames of ``columns``, one per row group, file by file."""
    import pyarrow.parquet as pq
    for f in files:
        try:
            pf = pq.ParquetFile(f, page_checksum_verification=True)
            for rg in range(pf.num_row_groups):
                yield pf.read_row_group(rg, columns=columns).to_pandas()
        except (ValueError, OSError):
            raise
        except Exception as e:  # pyarrow raises several types for a bad file
            raise ValueError(f"cannot read {f}: {str(e).splitlines()[0]}") from None


def dataset_stats(paths, by=DEFAULT_BY, which=STATS, feature="trump_count"):
    """Statistics over dataset folders and/or results files → ({name: DataFrame}, number
    of player-deals). Several paths are compared by ``source`` (their names), as in
    ``troef stats``."""
    srcs = []
    for path in paths:
        files, meta = stream.sources(path)
        if meta.get("game") != "boerenbridge":
            raise ValueError(f"{path} holds no Boerenbridge results")
        if not files:
            raise ValueError(f"{path} holds no saved chunks yet")
        srcs.append((source_name(path), files))
    import pyarrow.parquet as pq
    try:
        available = list(pq.read_schema(srcs[0][1][0]).names)
    except Exception as e:  # pyarrow raises several types for a bad file
        raise ValueError(f"cannot read {srcs[0][1][0]}: {str(e).splitlines()[0]}") from None
    available.append("source")
    if feature not in available:
        raise ValueError(f"unknown feature {feature!r}")
    by = list(by)
    extra = tuple(k for k in by if k in ("hand_size", "players"))
    many = len({name for name, _ in srcs}) > 1
    todo = []
    for name in which:
        if name == "exact":
            todo.append(_exact(available, by))
        elif name == "calibration":
            todo.append(_per_bid(available, extra, "tricks", "mean_tricks", "calibration"))
        elif name == "tricks":
            todo.append(_tricks(available, feature, extra))
        elif name == "score":
            todo.append(_per_bid(available, extra, "score", "mean_score", "score"))
        elif name == "dealer":
            todo.append(_dealer(available, extra))
        elif name == "compare":
            todo.append(_compare(available, "source" if many else "policy"))
        else:
            raise ValueError(f"unknown statistic {name!r}; known: {', '.join(STATS)}")
    need = list(dict.fromkeys(c for s in todo for c in s.columns))
    read = [c for c in need if c != "source"]
    n_rows = 0
    order = list(dict.fromkeys(name for name, _ in srcs))   # the first given is the baseline
    for name, files in srcs:
        for df in _batches(files, read):
            if "source" in need:
                df["source"] = name
            n_rows += len(df)
            for s in todo:
                s.sums.add(df)
    return {s.name: s.finish(s.sums.result(), order[0]) if s.name == "compare"
            else s.finish(s.sums.result()) for s in todo}, n_rows


# metadata that says how a run was made, not what was played: results that differ only in
# these are alike (compared policy against policy, or pooled)
RUN_KEYS = frozenset({"seed", "policies", "first_dealer", "worlds", "variants", "source",
                      "troef_version", "chunk_games", "chunks", "chunks_saved", "complete",
                      "n_games", "total_deals", "rows"})


def setup_differences(metas):
    """A note for every results path whose set-up (players, schedule, rules, …: any
    metadata but :data:`RUN_KEYS`) differs from the first path's; ``metas``: (path, files,
    metadata) as :func:`results_stats` reads them. Their rows are pooled in one table (or
    compared in ``compare``) as they are, so the user is told."""
    def short(v):
        t = json.dumps(v, default=str)
        return t if len(t) <= 30 else t[:27] + "..."
    first, _, m0 = metas[0]
    notes = []
    for path, _, m in metas[1:]:
        keys = sorted(k for k in m0.keys() & m.keys() if k not in RUN_KEYS and m0[k] != m[k])
        if keys:
            diff = "; ".join(f"{k} {short(m[k])}, not {short(m0[k])}" for k in keys)
            notes.append(f"{path} was played with another set-up than {first} ({diff}): the "
                         f"tables pool or compare them as they are")
    return notes


def results_stats(paths, by=None, which=(), feature=None):
    """``troef stats``: statistics of results files and dataset folders of any game →
    ({name: DataFrame}, player-deal rows, notes). The game comes from the files'
    metadata (one game for all paths); the same file or folder given twice is refused.
    Games whose statistics stream (Boerenbridge) are read a row group at a time; the
    others read the columns their statistics use (never the hands)."""
    from . import games as registry
    real = {}
    metas, notes = [], []
    for path in paths:
        key = os.path.realpath(path)
        if key in real:
            raise ValueError(f"{path} is given twice (as {real[key]})")
        real[key] = path
        files, meta = stream.sources(path)
        if os.path.isdir(path) and not meta["complete"]:
            notes.append(f"{path} is incomplete ({len(files)} of {meta['chunks']} chunks saved)")
        if not files:
            raise ValueError(f"{path} holds no saved chunks yet")
        metas.append((path, files, meta))
    game_names = {m.get("game") for _, _, m in metas}
    if len(game_names) != 1:
        raise ValueError("the results files must hold troef results of one game")
    notes += setup_differences(metas)
    entry = registry.get(game_names.pop())
    for path, files, meta in metas:
        check_columns(entry, files[0], path)
    unknown = [w for w in which if w not in entry.STATS]
    if unknown:
        raise ValueError(f"unknown {entry.NAME} statistic {unknown[0]!r}; known: "
                         f"{', '.join(entry.STATS)}")
    if by is not None and not getattr(entry, "STATS_BY", False):
        raise ValueError(f"--by does not apply to {entry.NAME} statistics")
    if getattr(entry, "STREAM_STATS", False):
        keys = [k.strip() for k in (",".join(DEFAULT_BY) if by is None else by).split(",") if k.strip()]
        tables, n_rows = dataset_stats(paths, keys, which or entry.STATS,
                                       entry.DEFAULT_FEATURE if feature is None else feature)
        return tables, n_rows, notes
    import pyarrow as pa
    import pyarrow.dataset as pads
    # only the columns the statistics read, and only the rows they use (the game's
    # STATS_ROWS filter, applied batch by batch while scanning), converted to pandas once
    rows = entry.STATS_ROWS() if hasattr(entry, "STATS_ROWS") else None
    tables = []
    for path, files, meta in metas:
        try:
            fmt = pads.ParquetFileFormat(default_fragment_scan_options=pads.ParquetFragmentScanOptions(
                page_checksum_verification=True))
            d = pads.dataset(files, format=fmt)
            want = set(entry.STATS_COLUMNS) | {feature or entry.DEFAULT_FEATURE}
            cols = [c for c in d.schema.names if c in want]
            # few batches in flight: the scan's memory stays near the result's
            tables.append(d.scanner(columns=cols, filter=rows, batch_readahead=2,
                                    fragment_readahead=1).to_table())
        except Exception as e:  # pyarrow raises several types for bad files or columns
            raise ValueError(f"cannot read {path}: {str(e).splitlines()[0]}") from None
    table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    del tables
    from .storage import frame_of
    df = frame_of(table, path, self_destruct=True, split_blocks=True)
    del table
    try:
        tables = entry.stats(df, which, by, feature)
    except KeyError as e:
        raise ValueError(f"the results lack column {e.args[0]!r} for this statistic") from None
    return tables, len(df), notes


def write_csv_dir(tables, folder, force=False):
    """Write every table to ``folder/NAME.csv`` (the folder is created, its parent must
    exist); returns the paths written."""
    from .storage import check_output
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ValueError(f"--csv-dir {folder} exists and is not a folder")
    if not os.path.isdir(folder):
        os.mkdir(folder)          # only the last level; a missing parent is an error
    paths = []
    for name, t in tables.items():
        path = os.path.join(folder, f"{name}.csv")
        check_output(path, force)
        t.to_csv(path, index=False)
        paths.append(path)
    return paths


def _type_name(t):
    return str(t).replace("large_string", "string")


def expected_columns(entry):
    """{column: Arrow type} of the game's results files, one dict per kind of table
    (single deals, whole games or matches)."""
    import pyarrow as pa
    kinds = []
    for setup in (entry.tiny_setup(), entry.make_setup(entry.UNITS["games"])):
        res = entry.simulate(setup, 0, policies=entry.parse_policies(setup))
        schema = pa.Schema.from_pandas(entry.tidy(res), preserve_index=False)
        kinds.append({f.name: _type_name(f.type) for f in schema})
    return kinds


def check_columns(entry, file, path):
    """A results file of ``entry``'s game has the columns and types that game writes
    (one line naming the file otherwise): untrusted files are data, checked before use."""
    import pyarrow.parquet as pq
    try:
        got = {f.name: _type_name(f.type) for f in pq.read_schema(file)}
    except Exception as e:  # pyarrow raises several types for a bad file
        raise ValueError(f"cannot read {path}: {str(e).splitlines()[0]}") from None
    kinds = expected_columns(entry)
    for want in kinds:
        if all(got.get(c) == t for c, t in want.items()):
            return
    want = min(kinds, key=lambda w: sum(got.get(c) != t for c, t in w.items()))
    bad = next(c for c, t in want.items() if got.get(c) != t)
    raise ValueError(f"{path} is not a troef {entry.NAME} results file: column {bad!r} is "
                     + ("missing" if bad not in got else f"{got[bad]}, not {want[bad]}"))

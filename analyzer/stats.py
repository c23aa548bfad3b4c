"""Boerenbridge statistics over tidy results (see :mod:`analyzer.frames`).

Every function returns a DataFrame with the sample size ``n`` and 95% intervals
(``*_lo``/``*_hi``): Wilson intervals for rates, normal intervals for means, Welch
intervals for differences of means.
"""
import numpy as np
import pandas as pd

from .stats_core import Z95, wilson

DEFAULT_BY = ("bid", "hand_size", "position")
STATS = ("exact", "calibration", "tricks", "score", "dealer", "compare")


def _check_keys(df, keys):
    if len(set(keys)) != len(keys):
        raise ValueError(f"--by names a column twice: {','.join(keys)}")
    missing = [k for k in keys if k not in df.columns]
    if missing:
        raise ValueError(f"unknown column(s) {', '.join(missing)}; "
                         f"available: {', '.join(df.columns)}")
    return list(keys)


def _mean_table(g, col, prefix):
    agg = g[col].agg(["count", "mean", "std"])
    agg = agg.rename(columns={"count": "n", "mean": prefix, "std": f"{prefix}_sd"})
    se = agg[f"{prefix}_sd"].fillna(0) / np.sqrt(agg["n"])
    agg[f"{prefix}_lo"] = agg[prefix] - Z95 * se
    agg[f"{prefix}_hi"] = agg[prefix] + Z95 * se
    return agg


def exact_rate(df, by=DEFAULT_BY):
    """Exact-bid rate per group (default: bid × hand size × position)."""
    keys = _check_keys(df, by)
    g = df.groupby(keys, observed=True)["exact"].agg(["count", "sum"])
    g = g.rename(columns={"count": "n", "sum": "exact"})
    g["exact_rate"] = g["exact"] / g["n"]
    g["exact_rate_lo"], g["exact_rate_hi"] = wilson(g["exact"], g["n"])
    return g.reset_index()


def calibration(df, by=("hand_size",)):
    """Mean tricks against the bid (per bid within each group): ``bias`` = mean − bid."""
    keys = _check_keys(df, [k for k in by if k != "bid"] + ["bid"])
    out = _mean_table(df.groupby(keys, observed=True), "tricks", "mean_tricks").reset_index()
    out["bias"] = out["mean_tricks"] - out["bid"]
    return out


def trick_distribution(df, feature="trump_count", by=("hand_size",)):
    """P(tricks = k) given a hand feature (and group), with Wilson intervals."""
    keys = _check_keys(df, [k for k in by if k != feature] + [feature])
    counts = df.groupby(keys + ["tricks"], observed=True).size().rename("count").reset_index()
    totals = df.groupby(keys, observed=True).size().rename("n").reset_index()
    out = counts.merge(totals, on=keys)
    out["p"] = out["count"] / out["n"]
    out["p_lo"], out["p_hi"] = wilson(out["count"], out["n"])
    return out[keys + ["tricks", "n", "count", "p", "p_lo", "p_hi"]]


def expected_score(df, by=("hand_size",)):
    """Mean score per bid (within each group)."""
    keys = _check_keys(df, [k for k in by if k != "bid"] + ["bid"])
    return _mean_table(df.groupby(keys, observed=True), "score", "mean_score").reset_index()


def _welch(m1, s1, n1, m2, s2, n2):
    se = np.sqrt(s1 ** 2 / n1 + s2 ** 2 / n2)
    d = m1 - m2
    return d, d - Z95 * se, d + Z95 * se


def dealer_cost(df, by=("hand_size",)):
    """The dealer against the other positions: mean score and exact rate of each, and
    the dealer's score difference with a 95% interval (negative = being dealer costs)."""
    keys = _check_keys(df, [k for k in by if k not in ("position", "seat")])
    last = df["position"] == df["players"] - 1
    rows = []
    groups = df.groupby(keys, observed=True) if keys else [((), df)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        is_dealer = last.loc[part.index]
        dl, ot = part[is_dealer], part[~is_dealer]
        if len(dl) < 2 or len(ot) < 2:
            continue
        d, lo, hi = _welch(dl["score"].mean(), dl["score"].std(), len(dl),
                           ot["score"].mean(), ot["score"].std(), len(ot))
        elo, ehi = wilson(dl["exact"].sum(), len(dl))
        olo, ohi = wilson(ot["exact"].sum(), len(ot))
        rows.append(dict(zip(keys, key)) | {
            "n_dealer": len(dl), "n_others": len(ot),
            "dealer_score": dl["score"].mean(), "others_score": ot["score"].mean(),
            "score_diff": d, "score_diff_lo": lo, "score_diff_hi": hi,
            "dealer_exact_rate": dl["exact"].mean(), "dealer_exact_lo": elo,
            "dealer_exact_hi": ehi, "others_exact_rate": ot["exact"].mean(),
            "others_exact_lo": olo, "others_exact_hi": ohi,
        })
    return pd.DataFrame(rows)


def compare(df, by="policy"):
    """Mean score and exact rate per policy (or per ``source``, e.g. variant runs), and the
    difference of each to the first group with a 95% Welch interval."""
    _check_keys(df, [by])
    rows = []
    parts = [(k, p) for k, p in df.groupby(by, observed=True)]
    if not parts:
        return pd.DataFrame()
    # several files: the first given (the first rows) is the baseline
    first = df[by].iloc[0] if by == "source" else parts[0][0]
    base_key, base = next((k, p) for k, p in parts if k == first)
    for key, part in parts:
        n = len(part)
        m, s = part["score"].mean(), part["score"].std()
        lo, hi = wilson(part["exact"].sum(), n)
        d, dlo, dhi = _welch(m, s, n, base["score"].mean(), base["score"].std(), len(base))
        rows.append({by: key, "n": n, "mean_score": m,
                     "mean_score_lo": m - Z95 * s / np.sqrt(n),
                     "mean_score_hi": m + Z95 * s / np.sqrt(n),
                     "exact_rate": part["exact"].mean(), "exact_rate_lo": lo,
                     "exact_rate_hi": hi, "vs": base_key, "score_diff": d,
                     "score_diff_lo": dlo, "score_diff_hi": dhi})
    return pd.DataFrame(rows)


def all_stats(df, by=DEFAULT_BY, which=STATS, feature="trump_count"):
    """The named statistics as {name: DataFrame}. ``by`` groups ``exact``; the others
    use its hand-size key when present (calibration/score per bid, tricks per feature)."""
    extra = tuple(k for k in by if k in ("hand_size", "players"))
    out = {}
    for name in which:
        if name == "exact":
            out[name] = exact_rate(df, by)
        elif name == "calibration":
            out[name] = calibration(df, extra)
        elif name == "tricks":
            out[name] = trick_distribution(df, feature, extra)
        elif name == "score":
            out[name] = expected_score(df, extra)
        elif name == "dealer":
            out[name] = dealer_cost(df, extra)
        elif name == "compare":
            col = "source" if "source" in df.columns and df["source"].nunique() > 1 else "policy"
            out[name] = compare(df, col)
        else:
            raise ValueError(f"unknown statistic {name!r}; known: {', '.join(STATS)}")
    return out

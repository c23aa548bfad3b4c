"""Boonaken statistics over tidy results (:func:`analyzer.frames.tidy_boonaken`) and match
results, each a DataFrame with sample sizes and 95% intervals."""
import numpy as np
import pandas as pd

from .stats_core import wilson

STATS = ("make_rate", "special", "hand_points")


def make_rate(df, band=25):
    """Point contracts: the declarer's make rate by bid (in bands of ``band`` points)."""
    d = df[df["declarer"] & (df["contract"] == "points")]
    b = (d["bid"] // band) * band
    g = d.assign(bid_band=b).groupby("bid_band")["made"].agg(["count", "sum"])
    g = g.rename(columns={"count": "n", "sum": "made"})
    g["made"] = g["made"].astype(int)
    g["make_rate"] = g["made"] / g["n"]
    g["make_rate_lo"], g["make_rate_hi"] = wilson(g["made"], g["n"])
    return g.reset_index()


def by_hand_points(df, band=10):
    """Point contracts: make rate and mean bid by the declarer's dealt hand points."""
    d = df[df["declarer"] & (df["contract"] == "points")]
    hb = (d["hand_points"] // band) * band
    g = d.assign(hand_band=hb).groupby("hand_band").agg(n=("made", "size"),
                                                         made=("made", "sum"),
                                                         mean_bid=("bid", "mean"))
    g["made"] = g["made"].astype(int)
    g["make_rate"] = g["made"] / g["n"]
    g["make_rate_lo"], g["make_rate_hi"] = wilson(g["made"], g["n"])
    return g.reset_index()


def special_success(df):
    """Misère (every misère player), zwabber and boonaak: how often they are made."""
    rows = []
    for c in ("misere", "zwabber", "boonaak"):
        d = df[(df["contract"] == c) & df["made"].notna()]
        n = len(d)
        k = int(d["made"].sum()) if n else 0
        lo, hi = wilson(k, n) if n else (np.nan, np.nan)
        rows.append({"contract": c, "n": n, "made": k, "make_rate": k / n if n else np.nan,
                     "make_rate_lo": lo, "make_rate_hi": hi})
    return pd.DataFrame(rows)


def match_outcomes(match_result):
    """Match outcomes by position relative to each match's first dealer."""
    from .games import get
    entry = get("boonaken")
    s = entry.summarize(entry.partials(match_result), entry.Setup(match_result.rules, True))
    n = s["matches"]
    rows = []
    for e in s["positions"]:
        row = {"position": e["position"], "matches": n}
        for k in ("win_rate", "safe_rate", "pays_rate"):
            if k in e:
                lo, hi = wilson(e[k] * n, n)
                row.update({k: e[k], f"{k}_lo": lo, f"{k}_hi": hi})
        rows.append(row)
    return pd.DataFrame(rows)


def all_stats(df, which=STATS):
    out = {}
    for name in which:
        fn = {"make_rate": lambda: make_rate(df), "special": lambda: special_success(df),
              "hand_points": lambda: by_hand_points(df)}.get(name)
        if fn is None:
            raise ValueError(f"unknown Boonaken statistic {name!r}; known: {', '.join(STATS)}")
        out[name] = fn()
    return out

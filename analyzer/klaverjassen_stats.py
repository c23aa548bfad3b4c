"""Klaverjassen statistics over tidy results (:func:`analyzer.frames.tidy_klaverjassen`),
each a DataFrame with sample sizes and 95% intervals."""
import numpy as np
import pandas as pd

from .stats import _check_keys, _mean_table
from .stats_core import wilson

STATS = ("trump_value", "nat_pit", "roem", "position", "matches")


def trump_value(df, feature="trump_count"):
    """The caller's team after naming trump: mean margin and P(nat) by a hand feature of the
    caller (trump_count, trump_jack, trump_nine, aces, call_value)."""
    keys = _check_keys(df, [feature])
    callers = df.loc[df["caller"], keys + ["margin", "nat"]]
    out = _mean_table(callers.groupby(keys, observed=True), "margin", "mean_margin")
    nat = callers.groupby(keys, observed=True)["nat"].agg(["sum", "count"])
    out["p_nat"] = nat["sum"] / nat["count"]
    out["p_nat_lo"], out["p_nat_hi"] = wilson(nat["sum"], nat["count"])
    return out.reset_index()


def nat_pit_rates(df):
    """Per playing team position of the caller: nat and pit rates of the playing team."""
    callers = df.loc[df["caller"], ["position", "nat", "pit"]]
    g = callers.groupby("position", observed=True)
    out = g.agg(n=("nat", "size"), nat=("nat", "sum"), pit=("pit", "sum")).reset_index()
    out["nat_rate"] = out["nat"] / out["n"]
    out["nat_rate_lo"], out["nat_rate_hi"] = wilson(out["nat"], out["n"])
    out["pit_rate"] = out["pit"] / out["n"]
    out["pit_rate_lo"], out["pit_rate_hi"] = wilson(out["pit"], out["n"])
    return out


def roem_frequency(df):
    """How much roem a deal carries (both teams together): share of deals per total."""
    two = df.loc[df["seat"] < 2, ["deal", "roem"]]
    codes, _ = pd.factorize(two["deal"])
    per_deal = pd.Series(np.bincount(codes, weights=two["roem"].to_numpy(np.float64)).astype(np.int64))
    counts = per_deal.value_counts().sort_index()
    n = len(per_deal)
    out = pd.DataFrame({"roem": counts.index.astype(int), "deals": counts.values})
    out["share"] = out["deals"] / n
    out["share_lo"], out["share_hi"] = wilson(out["deals"], n)
    out["n"] = n
    return out


def position_effects(df):
    """By position (0 names first): how often it names trump, and its team's mean margin
    when it does."""
    n_deals = df["deal"].nunique()
    callers = df.loc[df["caller"], ["position", "margin"]]
    out = _mean_table(callers.groupby("position", observed=True), "margin", "mean_margin").reset_index()
    out["call_rate"] = out["n"] / n_deals
    out["call_rate_lo"], out["call_rate_hi"] = wilson(out["n"], n_deals)
    return out


def match_outcomes(df):
    """16-deal boompjes: each team's win share and mean total (shared wins counted half)."""
    seat0 = df.loc[df["seat"] < 2, ["game_index", "team", "team_score", "seat"]]
    if seat0.empty:
        return pd.DataFrame()
    # per game and team, with one factorisation instead of a two-key groupby and unstack
    codes, _ = pd.factorize(seat0["game_index"], sort=True)
    n = int(codes.max()) + 1
    team = seat0["team"].to_numpy().astype(np.int64)
    sums = np.bincount(codes * 2 + team, weights=seat0["team_score"].to_numpy(np.float64),
                       minlength=2 * n).reshape(n, 2)
    totals = pd.DataFrame(sums.astype(np.int64))
    deals = np.bincount(codes[seat0["seat"].to_numpy() == 0], minlength=n)   # one seat-0 row a deal
    w0 = (totals[0] > totals[1]).sum() + 0.5 * (totals[0] == totals[1]).sum()
    rows = []
    for t, w in ((0, w0), (1, n - w0)):
        lo, hi = wilson(w, n)
        m = totals[t].mean()
        se = totals[t].std() / np.sqrt(n) if n > 1 else 0.0
        rows.append({"team": t, "games": n, "win_share": w / n, "win_share_lo": lo,
                     "win_share_hi": hi, "mean_total": m, "mean_total_lo": m - 1.96 * se,
                     "mean_total_hi": m + 1.96 * se, "mean_deals": float(deals.mean())})
    return pd.DataFrame(rows)


def all_stats(df, which=STATS, feature="trump_count"):
    out = {}
    for name in which:
        fn = {"trump_value": lambda: trump_value(df, feature), "nat_pit": lambda: nat_pit_rates(df),
              "roem": lambda: roem_frequency(df), "position": lambda: position_effects(df),
              "matches": lambda: match_outcomes(df)}.get(name)
        if fn is None:
            raise ValueError(f"unknown Klaverjassen statistic {name!r}; known: {', '.join(STATS)}")
        out[name] = fn()
    return out

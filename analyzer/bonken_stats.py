"""Bonken statistics over tidy results (:func:`analyzer.frames.tidy_bonken`), each a
DataFrame with the sample size and 95% intervals."""
import pandas as pd

from .stats import _check_keys, _mean_table, _welch
from .stats_core import wilson

STATS = ("contract_score", "chooser", "domino")


def contract_score(df, feature="strength_band", by=("contract",)):
    """Mean score per contract by a hand feature (``strength_band`` = the no-trump trick
    strength rounded to whole tricks)."""
    if feature == "strength_band" and feature not in df.columns:
        # a key Series, not a copy of the frame with one more column
        band = df["strength"].round().astype("int8").rename("strength_band")
        keys = [df[k] for k in _check_keys(df, list(by))] + [band]
    else:
        keys = _check_keys(df, list(by) + [feature])
    return _mean_table(df.groupby(keys, observed=True), "score", "mean_score").reset_index()


def chooser_value(df):
    """Per contract: the chooser's mean score against the other three, and the difference
    with a 95% Welch interval (the value of choosing this contract with your own hand)."""
    rows = []
    # one pass: count, mean and sd of the score per (contract, chooser) — no row copies
    g = df.groupby(["contract", "chooser"], observed=True)["score"].agg(["count", "mean", "std"])
    for c in g.index.get_level_values(0).unique():
        if (c, True) not in g.index or (c, False) not in g.index:
            continue
        ch, ot = g.loc[(c, True)], g.loc[(c, False)]
        if ch["count"] < 2 or ot["count"] < 2:
            continue
        d, lo, hi = _welch(ch["mean"], ch["std"], int(ch["count"]),
                           ot["mean"], ot["std"], int(ot["count"]))
        rows.append({"contract": c, "n_chooser": int(ch["count"]), "n_others": int(ot["count"]),
                     "chooser_score": ch["mean"], "others_score": ot["mean"],
                     "chooser_gain": d, "chooser_gain_lo": lo, "chooser_gain_hi": hi})
    return pd.DataFrame(rows)


def domino_loser_rate(df):
    """Domino: how often each position is left holding cards (Wilson intervals)."""
    dom = df[df["contract"] == "domino"]
    g = dom.groupby("position", observed=True)["domino_loser"].agg(["count", "sum"])
    g = g.rename(columns={"count": "n", "sum": "losses"})
    g["loser_rate"] = g["losses"] / g["n"]
    g["loser_rate_lo"], g["loser_rate_hi"] = wilson(g["losses"], g["n"])
    return g.reset_index()


def all_stats(df, which=STATS, feature="strength_band"):
    out = {}
    for name in which:
        if name == "contract_score":
            out[name] = contract_score(df, feature)
        elif name == "chooser":
            out[name] = chooser_value(df)
        elif name == "domino":
            out[name] = domino_loser_rate(df)
        else:
            raise ValueError(f"unknown Bonken statistic {name!r}; known: {', '.join(STATS)}")
    return out

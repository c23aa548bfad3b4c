"""Per-position and per-seat summaries of a simulation (numpy only, so the CLI stays quick).

Position 0 is left of the dealer (first to bid and lead); position n−1 is the dealer.
"""
import numpy as np


def positions_of(deals, players):
    """(rows, players) array: the position of every seat in every deal."""
    seats = np.arange(players)[None, :]
    return (seats - deals["dealer"].astype(np.int64)[:, None] - 1) % players


def by_position(deals, players):
    """List of dicts per position: mean tricks, exact-bid rate, mean score (and counts)."""
    pos = positions_of(deals, players)
    tricks = deals["tricks"].astype(np.int64)
    bids = deals["bids"].astype(np.int64)
    scores = deals["scores"].astype(np.int64)
    out = []
    for p in range(players):
        m = pos == p
        cnt = int(m.sum())
        if cnt == 0:
            out.append({"position": p, "mean_tricks": None, "exact_rate": None,
                        "mean_score": None, "n": 0})
            continue
        out.append({
            "position": p,
            "mean_tricks": float(tricks[m].mean()),
            "exact_rate": float((tricks[m] == bids[m]).mean()),
            "mean_score": float(scores[m].mean()),
            "mean_bid": float(bids[m].mean()),
            "n": cnt,
        })
    return out


def by_seat(result):
    """Per-seat game results of whole-game runs: mean total, win share, exact bids."""
    g = result.games
    n_games = g["totals"].shape[0]
    out = []
    if n_games == 0:
        return out
    winners = g["winners"]
    share = winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
    for s in range(result.rules.players):
        out.append({
            "seat": s,
            "policy": None,  # filled by the caller (names live in the schema)
            "mean_total": float(g["totals"][:, s].mean()),
            "win_rate": float(share[:, s].mean()),
            "mean_exact": float(g["exact"][:, s].mean()),
        })
    return out

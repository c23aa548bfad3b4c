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


def bonken_by_contract(result):
    """Per contract played: count, and per position (0 = leads, 1 = chooser, 3 = dealer) the
    mean score and mean tricks; Domino adds the loser rate per position."""
    from fastsim.bonken_schema import CONTRACTS, DOMINO
    d = result.deals
    pos = positions_of(d, 4)
    out = []
    for c in np.unique(d["contract"]):
        rows = d["contract"] == c
        entry = {"contract": CONTRACTS[int(c)], "n": int(rows.sum()), "positions": []}
        for p in range(4):
            m = (pos == p) & rows[:, None]
            e = {"position": p,
                 "mean_score": float(d["scores"][m].mean()),
                 "mean_tricks": float(d["tricks"][m].mean())}
            if c == DOMINO:
                seat_of = (d["dealer"][rows].astype(np.int64) + 1 + p) % 4
                e["loser_rate"] = float((d["loser"][rows] == seat_of).mean())
            entry["positions"].append(e)
        out.append(entry)
    return out


def klaverjassen_summary(result):
    """Per team and per position: how often they play, mean banked score, nat and pit
    rates, roem; for boompjes the win rates."""
    d = result.deals
    n = len(d["deal"])
    rows = np.arange(n)
    out = {"game": "klaverjassen", "players": 4, "deals": int(n), "teams": [], "positions": []}
    for t in range(2):
        plays = d["playing_team"] == t
        out["teams"].append({
            "team": t, "seats": f"{t}+{t + 2}",
            "play_rate": float(plays.mean()) if n else 0.0,
            "mean_score": float(d["team_scores"][:, t].mean()) if n else 0.0,
            "nat_rate": float(d["nat"][plays].mean()) if plays.any() else 0.0,
            "pit_rate": float((d["pit"] == t).mean()) if n else 0.0,
            "mean_roem": float(d["roem"][:, t].mean()) if n else 0.0,
        })
    if (d["caller"] >= 0).any():
        caller_pos = (d["caller"].astype(np.int64) - d["dealer"].astype(np.int64) - 1) % 4
    else:
        caller_pos = np.full(n, -1)
    for p in range(4):
        m = caller_pos == p
        team_scores = d["team_scores"][rows[m], d["playing_team"][m]] if m.any() else np.zeros(0)
        out["positions"].append({"position": p, "play_rate": float(m.mean()) if n else 0.0,
                                 "mean_score_playing": float(team_scores.mean()) if m.any() else 0.0})
    if result.boompje:
        g = result.games
        shared = g["winners"].all(axis=1)
        out["boompjes"] = {"games": int(len(g["n_deals"])),
                           "win_rate": [float((g["winners"][:, t] & ~shared).mean()) for t in range(2)],
                           "shared": float(shared.mean()),
                           "mean_deals": float(g["n_deals"].mean())}
    return out


def boonaken_summary(result):
    """Per contract: how often it is played and made; per position: how often it declares
    and makes it; the void (all-pass) rate."""
    from fastsim import boonaken_nb as bnb
    from fastsim.boonaken_schema import CONTRACTS
    d = result.deals
    info = d["info"]
    n = result.rules.players
    played = info[:, bnb.I_VOID] == 0
    total = len(info)
    out = {"game": "boonaken", "players": n, "preset": result.rules.preset, "deals": int(total),
           "void_rate": float((~played).mean()) if total else 0.0, "contracts": [], "positions": []}
    res = d["result"]
    for c, name in enumerate(CONTRACTS):
        m = played & (info[:, bnb.I_CONTRACT] == c)
        decl = res[m]
        made = (decl == 1).sum()
        tried = (decl >= 0).sum()
        out["contracts"].append({"contract": name, "deals": int(m.sum()),
                                 "made_rate": float(made / tried) if tried else None,
                                 "mean_bid": float(info[m, bnb.I_BID].mean()) if (c == 0 and m.any()) else None})
    dealer = result.rules.first_dealer
    for p in range(n):
        s = (dealer + 1 + p) % n
        tried = res[played, s] >= 0
        out["positions"].append({"position": p, "seat": s,
                                 "declare_rate": float(tried.mean()) if played.any() else 0.0,
                                 "made_rate": float((res[played, s][tried] == 1).mean()) if tried.any() else None})
    return out


def boonaken_match_summary(mr):
    """Match outcomes by position relative to each match's first dealer."""
    m = mr.matches
    n = mr.rules.players
    out = {"game": "boonaken", "players": n, "preset": mr.rules.preset,
           "matches": int(len(m["deals"])), "mean_deals": float(m["deals"].mean()),
           "positions": []}
    for p in range(n):
        seat = (m["first_dealer"] + 1 + p) % n
        idx = np.arange(len(seat))
        e = {"position": p}
        if mr.rules.preset == "leimuiden":
            st = m["status"][idx, seat]
            e.update({"safe_rate": float((st == 1).mean()), "pays_rate": float((st == -1).mean()),
                      "undecided_rate": float((st == 0).mean())})
        else:
            e["win_rate"] = float((m["winner"] == seat).mean())
        out["positions"].append(e)
    return out

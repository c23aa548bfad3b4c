"""Parquet storage of simulation results: one row per (deal, seat), tidy and typed.

Columns: deal, game, deal_no, hand_size, dealer, trump_card, trump, forbidden, seat,
position, policy, hand (bit mask as dealt), bid, tricks, score, exact. The run's set-up
(game, players, schedule, variants, seed, policies) travels in the file's metadata.
"""
import json
import os

import numpy as np

from fastsim.boerenbridge_schema import GAME, POLICY_NAMES
from .summary import positions_of

META_KEY = b"troef"


def tidy_arrays(result):
    """Column name → 1-D numpy array, one row per (deal, seat)."""
    d = result.deals
    n = result.rules.players
    rows = len(d["deal"])
    rep = lambda a: np.repeat(a, n)  # noqa: E731
    seats = np.tile(np.arange(n, dtype=np.int8), rows)
    return {
        "deal": rep(d["deal"]),
        "game": rep(d["game"]),
        "deal_no": rep(d["deal_no"]),
        "hand_size": rep(d["hand_size"]),
        "dealer": rep(d["dealer"]),
        "trump_card": rep(d["trump_card"]),
        "trump": rep(d["trump"]),
        "forbidden": rep(d["forbidden"]),
        "seat": seats,
        "position": positions_of(d, n).astype(np.int8).ravel(),
        "policy": np.tile(result.policies.astype(np.int8), rows),
        "hand": d["hands"].ravel(),
        "bid": d["bids"].ravel(),
        "tricks": d["tricks"].ravel(),
        "score": d["scores"].ravel(),
        "exact": (d["bids"] == d["tricks"]).ravel(),
    }


def run_metadata(result):
    r = result.rules
    return {
        "game": GAME,
        "players": r.players,
        "schedule": list(r.schedule),
        "notrump": list(r.notrump),
        "scoring": r.scoring,
        "bauer_bonus": r.bauer_bonus,
        "dealer_rule": r.dealer_rule,
        "blind_one_card": r.blind_one_card,
        "two_player": r.two_player,
        "first_dealer": r.first_dealer,
        "variants": r.variants,
        "seed": result.seed,
        "policies": [POLICY_NAMES[int(p)] for p in result.policies],
    }


def write_parquet(result, path):
    """Write the tidy table atomically; returns the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    cols = tidy_arrays(result)
    table = pa.table(cols)
    table = table.replace_schema_metadata({META_KEY: json.dumps(run_metadata(result)).encode()})
    tmp = f"{path}.part"
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return table.num_rows


def read_parquet(path, columns=None):
    """Read a results file → (pandas DataFrame, run metadata dict)."""
    import pyarrow.parquet as pq
    table = pq.read_table(path, columns=columns)
    meta = json.loads((table.schema.metadata or {}).get(META_KEY, b"{}"))
    return table.to_pandas(), meta

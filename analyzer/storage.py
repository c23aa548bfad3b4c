"""Parquet storage of simulation results: the tidy table of :mod:`analyzer.frames`.

Every dtype (including the categoricals) survives the round trip; the run's set-up (game,
players, schedule, variants, seed, policies) travels in the file's metadata, so a report
can say exactly what produced it.
"""
import json
import os

from fastsim.boerenbridge_schema import GAME, POLICY_NAMES

META_KEY = b"troef"


def run_metadata(result):
    from fastsim import boonaken, bonken, klaverjassen
    if isinstance(result, boonaken.Result):
        from fastsim.boonaken_schema import POLICY_NAMES as ONAMES
        r = result.rules
        return {"game": "boonaken", "players": r.players, "preset": r.preset,
                "first_dealer": r.first_dealer, "seed": result.seed,
                "policies": [ONAMES[int(p)] for p in result.policies]}
    if isinstance(result, klaverjassen.Result):
        from fastsim.klaverjassen_schema import POLICY_NAMES as KNAMES
        r = result.rules
        return {"game": "klaverjassen", "players": 4, "boompje": result.boompje,
                "fixed_trump": result.fixed_trump, "fixed_team": result.fixed_team,
                "amsterdam": r.amsterdam, "undertrump_forced": r.undertrump_forced,
                "all_100": r.all_100, "first_dealer": r.first_dealer, "variants": r.variants,
                "seed": result.seed, "policies": [KNAMES[int(p)] for p in result.policies]}
    if isinstance(result, bonken.Result):
        from fastsim.bonken_schema import CONTRACTS, POLICY_NAMES as BNAMES
        r = result.rules
        return {
            "game": "bonken",
            "players": 4,
            "plan": [CONTRACTS[c] if c >= 0 else "chosen" for c in result.plan],
            "hearts_after_broken": r.hearts_after_broken,
            "fixed_order": r.fixed_order,
            "first_dealer": r.first_dealer,
            "variants": r.variants,
            "seed": result.seed,
            "policies": [BNAMES[int(p)] for p in result.policies],
        }
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
    from .frames import tidy
    table = pa.Table.from_pandas(tidy(result), preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(run_metadata(result)).encode()
    table = table.replace_schema_metadata(meta)
    tmp = f"{path}.part"
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return table.num_rows


def read_parquet(path, columns=None):
    """Read a results file → (pandas DataFrame, run metadata dict)."""
    import pyarrow.parquet as pq
    if not os.path.exists(path):
        raise OSError(f"no such results file: {path}")
    try:
        table = pq.read_table(path, columns=columns)
    except Exception as e:  # pyarrow raises several types for a bad file
        raise ValueError(f"cannot read {path} as a troef results file: {str(e).splitlines()[0]}") from None
    meta = json.loads((table.schema.metadata or {}).get(META_KEY, b"{}"))
    return table.to_pandas(), meta

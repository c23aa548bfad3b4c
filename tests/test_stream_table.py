"""The streamed parts are today's tidy table: every part of a dataset, read back with plain
pyarrow, has the columns, types, pandas metadata and values of the table the pandas path
builds from the chunk's result (``pa.Table.from_pandas(entry.tidy(result))``), in every
game; and the compiled summary sums equal the numpy sums they replaced."""
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analyzer import stream
from analyzer.games import get, share_counts
from analyzer.run import RunSpec, run
from analyzer.summary import positions_of

CASES = [
    ("boerenbridge", dict(deals=3000, hand_size=8)),
    ("boerenbridge", dict(deals=1500, players=6, hand_size=7, variant=("scoring=dutch",))),
    ("boerenbridge", dict(games=30, players=3)),
    ("bonken", dict(deals=2000, contract="no-hearts")),
    ("bonken", dict(games=8)),
    ("klaverjassen", dict(deals=2000)),
    ("klaverjassen", dict(games=6, variant=("amsterdam",))),
    ("boonaken", dict(deals=2000)),
    ("boonaken", dict(deals=1500, preset="leimuiden", players=5)),
]


def _reference(spec, index):
    """The chunk's table the straightforward way: the game's tidy DataFrame → Arrow."""
    start, count = spec.chunk_range(index)
    res = spec.simulate(start, count, record=False)
    return pa.Table.from_pandas(spec.entry.tidy(res), preserve_index=False)


@pytest.mark.parametrize("game,case", CASES)
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_every_part_is_the_tidy_table(tmp_path, game, case, policy):
    spec = RunSpec.make(game, seed=11, policy=policy, **case)
    spec = spec.with_chunk_deals(700)
    assert spec.n_chunks >= 2
    run(spec, out=str(tmp_path / "ds"))
    parts = stream.part_files(tmp_path / "ds")
    assert list(parts) == list(range(spec.n_chunks))
    for i, f in parts.items():
        got = pq.read_table(f)
        want = _reference(spec, i)
        assert got.schema.names == want.schema.names
        assert got.schema.remove_metadata().equals(want.schema.remove_metadata()), i
        meta = got.schema.metadata
        assert json.loads(meta[b"pandas"]) == json.loads(want.schema.metadata[b"pandas"])
        assert got.equals(want), i
        for name in want.schema.names:     # value by value, nulls included
            assert got.column(name).to_pylist() == want.column(name).to_pylist(), (i, name)


def _partials_numpy(result):
    """Boerenbridge's summary sums as numpy computed them before they were compiled."""
    d = result.deals
    n = result.rules.players
    pos = positions_of(d, n).ravel()
    bids = d["bids"].astype(np.int64).ravel()
    tricks = d["tricks"].astype(np.int64).ravel()

    def per_pos(values):
        return [int(x) for x in np.bincount(pos, weights=values, minlength=n).astype(np.int64)]

    p = {"deals": int(len(d["deal"])), "n": [int(x) for x in np.bincount(pos, minlength=n)],
         "bid": per_pos(bids), "tricks": per_pos(tricks),
         "score": per_pos(d["scores"].astype(np.int64).ravel()),
         "exact": per_pos((bids == tricks).astype(np.int64))}
    g = result.games
    p["games"] = int(g["totals"].shape[0])
    p["total"] = [int(x) for x in g["totals"].astype(np.int64).sum(axis=0)] if p["games"] \
        else [0] * n
    p["exact_bids"] = [int(x) for x in g["exact"].astype(np.int64).sum(axis=0)] if p["games"] \
        else [0] * n
    p["wins"] = share_counts(g["winners"]) if p["games"] else [[0] * n for _ in range(n)]
    return p


@pytest.mark.parametrize("case", [
    dict(deals=5000, hand_size=8),
    dict(deals=3000, players=7, hand_size=5),
    dict(games=300, players=3),
    dict(games=200, players=2, variant=("two_player=true",)),
    dict(games=100, players=5, variant=("scoring=dutch",)),
    dict(deals=0, hand_size=8),
], ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_compiled_partials_equal_numpy_sums(case, policy):
    deals = case.get("deals")
    spec = RunSpec.make("boerenbridge", seed=4, policy=policy,
                        **(case if deals != 0 else dict(case, deals=1)))
    res = spec.simulate(0, 0 if deals == 0 else spec.n)
    entry = get("boerenbridge")
    got = entry.partials(res)
    want = _partials_numpy(res)
    assert got == want
    assert all(type(x) is int for v in got.values() if isinstance(v, list)
               for x in (v if not v or not isinstance(v[0], list) else sum(v, [])))
    if res.games["totals"].shape[0]:
        # ties occur (several co-winners), so the counts by number of winners are exercised
        assert sum(sum(r) for r in got["wins"]) >= got["games"]

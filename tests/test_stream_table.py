"""The streamed parts are today's tidy table: every part of a dataset, read back with plain
pyarrow, has the columns, types, pandas metadata and values of the table the pandas path
builds from the chunk's result (``pa.Table.from_pandas(entry.tidy(result))``), in every
game; and the compiled summary sums equal the numpy sums they replaced."""
import json
from dataclasses import replace

import numpy as np
import pandas as pd
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
    """The chunk's table the straightforward way: the game's tidy DataFrame → Arrow → a
    Parquet file of pyarrow's default options → read back (Parquet gives dictionary
    values back as ``string``, whatever the writer's options), and the frame itself."""
    start, count = spec.chunk_range(index)
    res = spec.simulate(start, count, record=False)
    frame = spec.entry.tidy(res)
    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), sink)
    return pq.read_table(pa.BufferReader(sink.getvalue())), frame


@pytest.mark.parametrize("game,case", CASES)
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_every_part_is_the_tidy_table(tmp_path, game, case, policy):
    spec = RunSpec.make(game, seed=11, policy=policy, **case)
    spec = replace(spec, chunk=max(1, spec.n // 3))     # three chunks (or four)
    assert spec.n_chunks >= 3
    run(spec, out=str(tmp_path / "ds"))
    parts = stream.part_files(tmp_path / "ds")
    assert list(parts) == list(range(spec.n_chunks))
    for i, f in parts.items():
        got = pq.read_table(f)
        want, frame = _reference(spec, i)
        assert got.schema.names == want.schema.names
        assert got.schema.remove_metadata().equals(want.schema.remove_metadata()), i
        meta = got.schema.metadata
        assert json.loads(meta[b"pandas"]) == json.loads(want.schema.metadata[b"pandas"])
        assert got.equals(want), i
        for name in want.schema.names:     # value by value, nulls included
            assert got.column(name).to_pylist() == want.column(name).to_pylist(), (i, name)
        pd.testing.assert_frame_equal(got.to_pandas(), frame, check_exact=True)


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


def _columns_numpy(result):
    """Boerenbridge's tidy columns as numpy built them before the compiled pass."""
    from fastsim.boerenbridge_schema import GAME, POLICY_NAMES
    from analyzer.frames import SUIT_LABELS, hand_features
    d = result.deals
    n = result.rules.players
    rows = len(d["deal"])
    rep = lambda a: np.repeat(a, n)  # noqa: E731
    trump = rep(d["trump"]).astype(np.int64)
    hands = d["hands"].ravel()
    cols = {
        "game": pd.Categorical.from_codes(np.zeros(rows * n, dtype=np.int8), categories=[GAME]),
        "players": np.full(rows * n, n, dtype=np.int8),
        "deal": rep(d["deal"]), "game_index": rep(d["game"]), "deal_no": rep(d["deal_no"]),
        "hand_size": rep(d["hand_size"]), "dealer": rep(d["dealer"]),
        "seat": np.tile(np.arange(n, dtype=np.int8), rows),
        "position": positions_of(d, n).astype(np.int8).ravel(),
        "policy": pd.Categorical.from_codes(
            np.tile(result.policies.astype(np.int64), rows),
            # the four policies every game has, Boerenbridge's own codes (learned,
            # strongl: issue #14's sixth push) only up to the highest a seat plays
            categories=[POLICY_NAMES.get(i, f"code{i}")
                        for i in range(max(4, int(result.policies.max()) + 1))]),
        "trump": pd.Categorical.from_codes(np.where(trump >= 0, trump, 4),
                                           categories=SUIT_LABELS),
        "trump_card": rep(d["trump_card"]), "forbidden": rep(d["forbidden"]), "hand": hands,
        "bid": d["bids"].ravel(), "tricks": d["tricks"].ravel(), "score": d["scores"].ravel(),
        "exact": (d["bids"] == d["tricks"]).ravel(),
    }
    cols.update(hand_features(hands, trump))
    return pd.DataFrame(cols)


@pytest.mark.parametrize("case", [
    dict(deals=4000, hand_size=8),
    dict(deals=2000, players=7, hand_size=5),
    dict(games=50, players=3),
    dict(games=40, players=5, variant=("no_trump_rounds=ones,top", "blind_one_card=true")),
    dict(games=30, players=2, variant=("two_player=true",)),
], ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_compiled_boerenbridge_columns_equal_numpy(case):
    from analyzer.frames import tidy_boerenbridge
    spec = RunSpec.make("boerenbridge", seed=9, policy="random", **case)
    res = spec.simulate(0, spec.n)
    want = _columns_numpy(res)
    assert (want["trump"] == "NT").any() == bool(res.rules.notrump and any(res.rules.notrump))
    pd.testing.assert_frame_equal(tidy_boerenbridge(res), want, check_exact=True)


def test_compiled_hand_features_equal_hand_value_and_numpy():
    """The features kernel computes the strength in its own pass over the suits: it equals
    the heuristic's hand value (fastsim.play_nb.hand_value_nb, the bid rule's) and the
    numpy features, on hands of every length and suit layout (voids, long trumps, lone
    honours) under every trump and none."""
    from fastsim.boerenbridge_nb import hand_values_nb
    from fastsim.features_nb import SMALL_FEATURES, hand_features_nb
    rng = np.random.default_rng(3)
    hands = []
    for size in range(0, 14):
        for _ in range(400):
            cards = rng.choice(52, size=size, replace=False)
            hands.append(sum(1 << int(16 * (c // 13) + c % 13) for c in cards))
    for s in range(4):      # one suit whole, honours alone, a void beside them
        hands += [0x1FFF << (16 * s), (1 << 12 | 1 << 11 | 1 << 10) << (16 * s),
                  (1 << 11) << (16 * s) | (1 << 10) << (16 * ((s + 1) % 4))]
    hands = np.array(hands, dtype=np.int64)
    suits = np.stack([(hands >> (16 * s)) & 0x1FFF for s in range(4)], axis=1)
    length = np.bitwise_count(suits).astype(np.int64)
    for t in (-1, 0, 1, 2, 3):
        trumps = np.full(len(hands), t, dtype=np.int64)
        small, strength = hand_features_nb(hands, trumps)
        want = (hand_values_nb(hands, trumps) / 100.0).astype(np.float32)
        assert np.array_equal(strength.view(np.int32), want.view(np.int32)), t
        tr = suits[:, t] if t >= 0 else np.zeros(len(hands), dtype=np.int64)
        ref = {"trump_count": np.bitwise_count(tr), "high_trumps": np.bitwise_count(tr >> 9),
               "aces": ((suits >> 12) & 1).sum(axis=1), "kings": ((suits >> 11) & 1).sum(axis=1),
               "voids": ((length == 0) & (np.arange(4) != t)).sum(axis=1),
               "longest_suit": length.max(axis=1)}
        for k, name in enumerate(SMALL_FEATURES):
            assert np.array_equal(small[k].astype(np.int64), ref[name].astype(np.int64)), (t, name)


def _bonken_features_numpy(hands):
    """Bonken's hand features as numpy computed them before the compiled pass."""
    from fastsim.boerenbridge_nb import hand_values_nb
    hands = np.asarray(hands, dtype=np.int64)
    suit_len = np.stack([np.bitwise_count((hands >> (16 * s)) & 0x1FFF) for s in range(4)],
                        axis=1)
    rank_count = lambda r: sum(((hands >> (16 * s + r)) & 1) for s in range(4))  # noqa: E731
    spread = np.zeros(len(hands), dtype=np.int64)
    for r in range(13):
        spread += abs(r - 6) * rank_count(r)
    return {
        "hearts": suit_len[:, 1].astype(np.int8),
        "aces": rank_count(12).astype(np.int8),
        "kings": rank_count(11).astype(np.int8),
        "queens": rank_count(10).astype(np.int8),
        "jacks": rank_count(9).astype(np.int8),
        "king_of_hearts": ((hands >> 27) & 1).astype(bool),
        "longest_suit": suit_len.max(axis=1).astype(np.int8),
        "voids": (suit_len == 0).sum(axis=1).astype(np.int8),
        "strength": (hand_values_nb(hands, np.full(len(hands), -1, dtype=np.int64)) / 100.0
                     ).astype(np.float32),
        "domino_spread": spread.astype(np.int16),
    }


def _bonken_partials_numpy(result):
    """Bonken's summary sums as numpy computed them before the compiled pass."""
    from fastsim.bonken_schema import CONTRACTS, DOMINO
    d = result.deals
    pos = positions_of(d, 4)
    C = len(CONTRACTS)
    p = {"deals": int(len(d["deal"])), "rounds": [0] * C,
         "score": [[0] * 4 for _ in range(C)], "tricks": [[0] * 4 for _ in range(C)],
         "losers": [0] * 4}
    con = d["contract"].astype(np.int64)
    p["rounds"] = [int(x) for x in np.bincount(con, minlength=C)]
    for q in range(4):
        m = pos == q
        rows_c = np.broadcast_to(con[:, None], pos.shape)[m]
        for key, col in (("score", "scores"), ("tricks", "tricks")):
            sums = np.bincount(rows_c, weights=d[col][m].astype(np.int64), minlength=C)
            for c in range(C):
                p[key][c][q] = int(sums[c])
    dom = con == DOMINO
    if dom.any():
        seat_of = (d["dealer"][dom].astype(np.int64)[:, None] + 1 + np.arange(4)) % 4
        p["losers"] = [int(x) for x in (d["loser"][dom][:, None] == seat_of).sum(axis=0)]
    g = result.games
    p["games"] = int(g["totals"].shape[0])
    p["total"] = [int(x) for x in g["totals"].astype(np.int64).sum(axis=0)] if p["games"] \
        else [0] * 4
    p["wins"] = share_counts(g["winners"]) if p["games"] else [[0] * 4] * 4
    return p


@pytest.mark.parametrize("case", [dict(deals=3000, contract="domino"),
                                  dict(deals=2000, contract="no-hearts"),
                                  dict(games=40), dict(games=30, variant=("fixed_order",)),
                                  dict(deals=0, contract="domino")],
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_compiled_bonken_features_and_partials_equal_numpy(case, policy):
    from analyzer.frames import bonken_features
    deals = case.get("deals")
    spec = RunSpec.make("bonken", seed=7, policy=policy,
                        **(case if deals != 0 else dict(case, deals=1)))
    res = spec.simulate(0, 0 if deals == 0 else spec.n)
    got = bonken_features(res.deals["hands"])
    want = _bonken_features_numpy(res.deals["hands"].ravel())
    assert list(got) == list(want)
    for k in want:
        assert got[k].dtype == want[k].dtype and np.array_equal(got[k], want[k]), k
    p = get("bonken").partials(res)
    assert p == _bonken_partials_numpy(res)
    if deals != 0 and "contract" not in case:
        from fastsim.bonken_schema import DOMINO
        assert sum(p["losers"]) == p["rounds"][DOMINO] > 0     # every game plays Domino

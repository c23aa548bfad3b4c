"""The streamed results path builds the tidy table straight into Arrow (no pandas): it must
be the very table the pandas path gives — columns, types and values — in every variant,
and a streamed dataset must read back as the in-memory run's tidy frame."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from analyzer.frames import arrow_boerenbridge, hand_features, tidy_boerenbridge
from analyzer.run import RunSpec, run

CASES = [
    dict(deals=3000, hand_size=8),
    dict(deals=2000, players=6, hand_size=8, variant=("scoring=dutch",)),
    dict(games=40, players=3),
    dict(games=40, players=5, variant=("no_trump_rounds=ones,top", "blind_one_card=true")),
    dict(games=20, players=2, variant=("two_player=true",)),
]


OTHER = [
    ("bonken", dict(deals=3000, contract="no-hearts")),
    ("bonken", dict(deals=2000, contract="domino")),
    ("bonken", dict(games=20)),
    ("klaverjassen", dict(deals=3000)),
    ("klaverjassen", dict(deals=2000, variant=("amsterdam",))),
    ("klaverjassen", dict(games=10)),
    ("boonaken", dict(deals=3000)),
    ("boonaken", dict(deals=2000, preset="leimuiden", players=5)),
    ("boonaken", dict(games=5)),
]


def _both(game, case, policy):
    from analyzer.games import arrow_table
    spec = RunSpec.make(game, seed=7, policy=policy, **case)
    r = spec.entry.simulate(spec.setup, spec.n, seed=7, policies=spec.policies)
    return arrow_table(spec.entry, r), pa.Table.from_pandas(spec.entry.tidy(r), preserve_index=False)


@pytest.mark.parametrize("case", CASES)
def test_arrow_table_is_the_pandas_table(case):
    fast, slow = _both("boerenbridge", case, "random")
    assert fast.schema.equals(slow.schema)
    assert fast.equals(slow)


@pytest.mark.parametrize("game,case", OTHER)
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_arrow_table_is_the_pandas_table_in_every_game(game, case, policy):
    fast, slow = _both(game, case, policy)
    assert fast.schema.equals(slow.schema)
    assert fast.equals(slow)


def _features_numpy(hands, trumps):
    """The features as numpy computed them before they were compiled (the reference)."""
    from fastsim.boerenbridge_nb import hand_values_nb
    suit_len = np.stack([np.bitwise_count((hands >> (16 * s)) & 0x1FFF) for s in range(4)], axis=1)
    t = np.where(trumps >= 0, trumps, 0)
    tr = np.where(trumps >= 0, (hands >> (16 * t)) & 0x1FFF, 0)
    is_tr = np.arange(4)[None, :] == trumps[:, None]
    bit = lambda r: np.stack([(hands >> (16 * s + r)) & 1 for s in range(4)], axis=1)  # noqa: E731
    return {"trump_count": np.bitwise_count(tr), "high_trumps": np.bitwise_count(tr >> 9),
            "aces": bit(12).sum(1), "kings": bit(11).sum(1),
            "voids": ((suit_len == 0) & ~is_tr).sum(1), "longest_suit": suit_len.max(1),
            "strength": (hand_values_nb(hands, trumps) / 100.0).astype(np.float32)}


def test_compiled_features_match_numpy():
    rng = np.random.default_rng(3)
    n = 20000
    hands = np.zeros(n, dtype=np.int64)
    for i in range(n):               # random hands of 1..13 cards
        cards = rng.choice(52, size=rng.integers(1, 14), replace=False)
        hands[i] = sum(1 << int((c // 13) * 16 + c % 13) for c in cards)
    trumps = rng.integers(-1, 4, size=n).astype(np.int64)
    got, want = hand_features(hands, trumps), _features_numpy(hands, trumps)
    for k in want:
        assert np.array_equal(got[k].astype(np.float64), want[k].astype(np.float64)), k
    assert got["strength"].dtype == np.float32 and got["aces"].dtype == np.int8


def test_streamed_dataset_reads_back_as_the_tidy_frame(tmp_path):
    spec = RunSpec.make("boerenbridge", deals=5000, seed=2, hand_size=7).with_chunk_deals(1000)
    run(spec, out=str(tmp_path / "ds"))
    back = pd.read_parquet(tmp_path / "ds").sort_values(["deal", "seat"]).reset_index(drop=True)
    whole = run(spec, keep_result=True).result
    want = tidy_boerenbridge(whole)
    pd.testing.assert_frame_equal(back, want, check_exact=True)

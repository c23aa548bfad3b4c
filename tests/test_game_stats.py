"""Bonken and Boonaken statistics against hand-computed small cases, and Parquet round trips."""
import pandas as pd
import pytest

from analyzer import bonken_stats, boonaken_stats
from analyzer.stats_core import wilson


def test_bonken_small():
    df = pd.DataFrame({
        "contract": ["ducking"] * 8 + ["domino"] * 8,
        "chooser": [True, False, False, False] * 4,
        "score": [-5, -20, -25, -15, -15, -20, -25, -5, 0, -50, 0, 0, -50, 0, 0, 0],
        "position": [1, 0, 2, 3] * 4,
        "domino_loser": [False] * 8 + [False, True, False, False, True, False, False, False],
        "strength": [2.0, 1.0, 1.4, 3.0] * 4,
    })
    ch = bonken_stats.chooser_value(df).set_index("contract")
    assert ch.loc["ducking", "chooser_score"] == -10
    assert ch.loc["ducking", "others_score"] == pytest.approx(-110 / 6)
    assert ch.loc["ducking", "chooser_gain"] == pytest.approx(-10 + 110 / 6)
    dom = bonken_stats.domino_loser_rate(df).set_index("position")
    assert dom.loc[0, "n"] == 2 and dom.loc[0, "loser_rate"] == 0.5
    assert dom.loc[1, "loser_rate"] == 0.5 and dom.loc[2, "loser_rate"] == 0.0
    cs = bonken_stats.contract_score(df, "strength_band")
    duck = cs[cs["contract"] == "ducking"].set_index("strength_band")
    assert duck.loc[1, "n"] == 4 and duck.loc[1, "mean_score"] == -22.5   # strengths 1.0 and 1.4


def test_boonaken_small():
    df = pd.DataFrame({
        "declarer": [True, False, True, False, True, False, True, True],
        "contract": ["points", "points", "points", "points", "points", "points", "misere", "misere"],
        "bid": [30, 30, 45, 45, 80, 80, 0, 0],
        "made": pd.array([True, pd.NA, False, pd.NA, True, pd.NA, True, False], dtype="boolean"),
        "hand_points": [12, 0, 25, 0, 41, 0, 3, 5],
    })
    mr = boonaken_stats.make_rate(df).set_index("bid_band")
    assert mr.loc[25, "n"] == 2 and mr.loc[25, "made"] == 1 and mr.loc[75, "make_rate"] == 1.0
    lo, hi = wilson(1, 2)
    assert mr.loc[25, "make_rate_lo"] == pytest.approx(lo)
    sp = boonaken_stats.special_success(df).set_index("contract")
    assert sp.loc["misere", "n"] == 2 and sp.loc["misere", "make_rate"] == 0.5
    assert sp.loc["zwabber", "n"] == 0
    hp = boonaken_stats.by_hand_points(df).set_index("hand_band")
    assert hp.loc[10, "n"] == 1 and hp.loc[20, "make_rate"] == 0.0


def test_round_trips(tmp_path):
    from analyzer.frames import tidy
    from analyzer.storage import read_parquet, write_parquet
    from fastsim import boonaken as bo
    from fastsim import klaverjassen as kj
    for res in (bo.simulate(bo.build_rules(3, "pagat"), 300, seed=2),
                kj.simulate(kj.build_rules(), 200, seed=2)):
        f = tmp_path / f"r{res.seed}-{type(res).__module__}.parquet"
        write_parquet(res, f)
        back, meta = read_parquet(f)
        pd.testing.assert_frame_equal(back, tidy(res))
        assert meta["seed"] == 2


def test_stats_cli_every_game(tmp_path):
    import json
    from conftest import run_cli
    from analyzer import klaverjassen_stats
    from analyzer.storage import read_parquet
    runs = {"bonken": ["--games", 30], "klaverjassen": ["--deals", 2000], "boonaken": ["--deals", 2000]}
    for game, extra in runs.items():
        f = tmp_path / f"{game}.parquet"
        run_cli("simulate", game, *extra, "--out", f, check=0)
        out = json.loads(run_cli("stats", f, "--json", check=0).stdout)
        mod = __import__(f"analyzer.{game}_stats", fromlist=["STATS"])
        assert set(out) == set(mod.STATS)
    df, _ = read_parquet(tmp_path / "klaverjassen.parquet")
    exp = klaverjassen_stats.nat_pit_rates(df)
    got = json.loads(run_cli("stats", tmp_path / "klaverjassen.parquet", "--stat", "nat_pit",
                             "--json", check=0).stdout)["nat_pit"]
    assert [r["n"] for r in got] == exp["n"].tolist()
    p = run_cli("stats", tmp_path / "bonken.parquet", tmp_path / "boonaken.parquet")
    assert p.returncode == 2 and "one game" in p.stderr
    p = run_cli("stats", tmp_path / "boonaken.parquet", "--stat", "exact")
    assert p.returncode == 2 and "unknown boonaken statistic" in p.stderr

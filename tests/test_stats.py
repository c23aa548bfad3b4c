"""Tidy frames, Parquet round trip and every statistic against hand-computed cases."""
import io
import numpy as np
import pandas as pd
import pytest

from analyzer import stats
from analyzer.frames import hand_features, tidy
from analyzer.stats_core import wilson
from analyzer.storage import read_parquet, write_parquet
from fastsim import boerenbridge as bb
from fastsim.cards import mask_of, parse_cards


def test_hand_features_hand_checked():
    hands = [mask_of(parse_cards("AH JH 2H AS KS 3C")),   # trump H
             mask_of(parse_cards("AS KD 2D 3D 4D")),       # trump D
             mask_of(parse_cards("AS KD 2D"))]             # no trump
    f = hand_features(hands, [1, 2, -1])
    assert list(f["trump_count"]) == [3, 4, 0]
    assert list(f["high_trumps"]) == [2, 1, 0]
    assert list(f["aces"]) == [2, 1, 1]
    assert list(f["kings"]) == [1, 1, 1]
    assert list(f["voids"]) == [1, 2, 2]       # H trump: D void; D trump: H, C void; NT: H, C
    assert list(f["longest_suit"]) == [3, 4, 2]
    # strength = heuristic value: AH 100 + JH 55 + 2H 25, AS 85, KS 45 (2 long), void D 30
    assert f["strength"][0] == pytest.approx((100 + 55 + 25 + 85 + 45 + 30) / 100)


def test_tidy_frame_and_parquet_round_trip(tmp_path):
    rules = bb.build_rules(players=4, schedule="1,3,2", variants=["no_trump_rounds=2"])
    res = bb.simulate(rules, 50, seed=2, policies=bb.parse_seat_policies(4, "heuristic", ["2=random"]))
    df = tidy(res)
    assert len(df) == 50 * 3 * 4
    assert (df.groupby("deal")["tricks"].sum() == df.groupby("deal")["hand_size"].first()).all()
    assert set(df.loc[df["deal_no"] == 1, "trump"]) == {"NT"}
    assert (df.loc[df["seat"] == 2, "policy"] == "random").all()
    assert (df.loc[df["deal_no"] == 1, "trump_count"] == 0).all()
    f = tmp_path / "x.parquet"
    write_parquet(res, f)
    back, meta = read_parquet(f)
    pd.testing.assert_frame_equal(back, df)          # values and every dtype
    assert meta["schedule"] == [1, 3, 2] and meta["policies"][2] == "random"


def small():
    # 8 player-deals, hand size 2, 4 players: hand-checkable
    return pd.DataFrame({
        "players": [4] * 8,
        "hand_size": [2] * 8,
        "position": [0, 1, 2, 3, 0, 1, 2, 3],
        "bid": [1, 0, 1, 1, 1, 0, 0, 2],
        "tricks": [1, 0, 0, 1, 2, 0, 0, 0],
        "score": [12, 10, 0, 12, 0, 10, 10, 0],
        "exact": [True, True, False, True, False, True, True, False],
        "trump_count": [1, 0, 0, 2, 1, 0, 0, 2],
        "policy": ["h", "h", "r", "r", "h", "h", "r", "r"],
    })


def test_exact_rate_small():
    t = stats.exact_rate(small(), by=["bid"])
    assert list(t["bid"]) == [0, 1, 2]
    assert list(t["n"]) == [3, 4, 1]
    assert list(t["exact"]) == [3, 2, 0]
    assert t["exact_rate"].tolist() == [1.0, 0.5, 0.0]
    lo, hi = wilson(2, 4)
    assert t.loc[1, "exact_rate_lo"] == pytest.approx(lo) and t.loc[1, "exact_rate_hi"] == pytest.approx(hi)


def test_wilson_known_value():
    lo, hi = wilson(5, 10)   # textbook: 0.2366 .. 0.7634
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)


def test_calibration_small():
    t = stats.calibration(small(), by=["hand_size"])
    row = t[t["bid"] == 1].iloc[0]
    assert row["n"] == 4 and row["mean_tricks"] == pytest.approx(1.0)   # tricks 1,0,1,2
    sd = np.std([1, 0, 1, 2], ddof=1)
    assert row["mean_tricks_hi"] - row["mean_tricks"] == pytest.approx(1.959964 * sd / 2, rel=1e-5)
    assert t[t["bid"] == 2].iloc[0]["bias"] == pytest.approx(-2.0)


def test_trick_distribution_small():
    t = stats.trick_distribution(small(), "trump_count", by=["hand_size"])
    tc0 = t[t["trump_count"] == 0]
    assert tc0["n"].unique().tolist() == [4]
    assert dict(zip(tc0["tricks"], tc0["p"])) == {0: 1.0}
    tc1 = t[t["trump_count"] == 1]
    assert dict(zip(tc1["tricks"], tc1["p"])) == {1: 0.5, 2: 0.5}
    assert t.groupby("trump_count")["p"].sum().tolist() == [1.0, 1.0, 1.0]


def test_expected_score_small():
    t = stats.expected_score(small(), by=["hand_size"])
    assert t.set_index("bid")["mean_score"].to_dict() == {0: 10.0, 1: 6.0, 2: 0.0}
    assert t.set_index("bid")["n"].to_dict() == {0: 3, 1: 4, 2: 1}


def test_dealer_cost_small():
    t = stats.dealer_cost(small(), by=["hand_size"])
    row = t.iloc[0]
    assert row["n_dealer"] == 2 and row["n_others"] == 6
    assert row["dealer_score"] == pytest.approx(6.0)          # 12, 0
    assert row["others_score"] == pytest.approx(42 / 6)       # 12 10 0 0 10 10
    assert row["score_diff"] == pytest.approx(6.0 - 7.0)
    se = np.sqrt(np.var([12, 0], ddof=1) / 2 + np.var([12, 10, 0, 0, 10, 10], ddof=1) / 6)
    assert row["score_diff_hi"] - row["score_diff"] == pytest.approx(1.959964 * se, rel=1e-5)
    assert row["dealer_exact_rate"] == 0.5 and row["others_exact_rate"] == pytest.approx(4 / 6)


def test_compare_small():
    t = stats.compare(small(), "policy").set_index("policy")
    assert t.loc["h", "mean_score"] == pytest.approx(8.0)      # 12 10 0 10
    assert t.loc["r", "mean_score"] == pytest.approx(5.5)      # 0 12 10 0
    assert t.loc["r", "score_diff"] == pytest.approx(-2.5)
    assert t.loc["h", "score_diff"] == 0.0
    assert t.loc["r", "exact_rate"] == 0.5


def test_unknown_column():
    with pytest.raises(ValueError, match="unknown column"):
        stats.exact_rate(small(), by=["nope"])


def test_stats_cli(tmp_path):
    import json
    from conftest import error_lines, run_cli
    a, b = tmp_path / "std.parquet", tmp_path / "hard.parquet"
    run_cli("simulate", "boerenbridge", "--hand-size", 3, "--deals", 3000, "--out", a, check=0)
    run_cli("simulate", "boerenbridge", "--hand-size", 3, "--deals", 3000, "--variant",
            "scoring=hard", "--out", b, check=0)
    p = run_cli("stats", a, "--by", "bid,hand_size,position", "--json", check=0)
    out = json.loads(p.stdout)
    assert set(out) == set(stats.STATS)
    df, _ = read_parquet(a)
    exp = stats.exact_rate(df, ["bid", "hand_size", "position"])
    assert [r["n"] for r in out["exact"]] == exp["n"].tolist()
    assert [r["exact_rate"] for r in out["exact"]] == pytest.approx(exp["exact_rate"].tolist())
    p = run_cli("stats", a, b, "--stat", "compare", "--csv", check=0)
    table = pd.read_csv(io.StringIO(p.stdout))      # one table, readable as CSV
    assert list(table.columns[:3]) == ["source", "n", "mean_score"]
    assert sorted(table["source"]) == ["hard", "std"]
    assert set(table["vs"]) == {"std"}
    p = run_cli("stats", b, a, "--stat", "compare", "--csv", check=0)
    assert pd.read_csv(io.StringIO(p.stdout))["vs"].tolist() == ["hard", "hard"]
    p = run_cli("stats", a, "--stat", "exact", "--stat", "dealer", "--csv")
    assert p.returncode == 2 and "--csv-dir" in p.stderr
    p = run_cli("stats", a, "--csv-dir", tmp_path / "tables", check=0)
    assert sorted(f.name for f in (tmp_path / "tables").iterdir()) == sorted(
        f"{k}.csv" for k in stats.STATS)
    p = run_cli("stats", a, a, "--stat", "compare")
    assert p.returncode == 2 and "given twice" in p.stderr
    p = run_cli("stats", a, "--by", "nope")
    assert p.returncode == 2 and "unknown column" in p.stderr and len(error_lines(p.stderr)) == 1
    p = run_cli("stats", tmp_path / "missing.parquet")
    assert p.returncode == 2 and "no such results file" in p.stderr
    (tmp_path / "bad.parquet").write_text("not parquet")
    p = run_cli("stats", tmp_path / "bad.parquet")
    assert p.returncode == 2 and "cannot read" in p.stderr and len(error_lines(p.stderr)) == 1

import json

import pandas as pd
import pytest

from analyzer.trump_query import trump_query
from conftest import error_lines, run_cli

HANDS = "JH 9H AH TS 7C 8C KD QD / 7H 8H AS KS QS 9C TC JD / TH KH JS 9S AC KC 7D 8D / QH 8S 7S JC QC AD TD 9D"


def test_explain_trick_json():
    p = run_cli("explain", "klaverjassen", "--trump", "H", "--trick", "KH QH JH 7S", "--json", check=0)
    out = json.loads(p.stdout)
    assert out["winner"] == 2 and out["card_points"] == 4 + 3 + 20 + 0
    assert out["roem"] == 40 and sorted(i["points"] for i in out["roem_items"]) == [20, 20]
    p = run_cli("explain", "klaverjassen", "--trump", "S", "--trick", "JH JS JD JC", "--json", check=0)
    assert json.loads(p.stdout)["roem"] == 200
    p = run_cli("explain", "klaverjassen", "--trump", "S", "--trick", "JH JS JD JC", "--variant",
                "four_of_a_kind=all_100", "--json", check=0)
    assert json.loads(p.stdout)["roem"] == 100
    p = run_cli("explain", "klaverjassen", "--trump", "H", "--trick", "9H 10H JH 7S", "--json", check=0)
    assert json.loads(p.stdout)["roem"] == 20       # trump 9-T-J is a run; 10 accepted for T


@pytest.mark.parametrize("trick,hand,variant,legal", [
    ("KH JS", "7S AD", [], ["AD"]),                       # docs/rules.md §2 example
    ("KH JS", "7S AD", ["undertrump=forced"], ["7S"]),
    ("KH 8H", "7S AD", [], ["7S"]),                        # must trump even if partner wins
    ("KH 8H", "7S AD", ["amsterdam"], ["7S", "AD"]),       # ... but not in Amsterdam
    ("9S", "7S JS AD", [], ["JS"]),                        # trump led: overtrump
    ("KH", "7H AH JS", [], ["7H", "AH"]),
])
def test_explain_legal(trick, hand, variant, legal):
    args = ["explain", "klaverjassen", "--trump", "S", "--trick", trick, "--hand", hand, "--json"]
    for v in variant:
        args += ["--variant", v]
    out = json.loads(run_cli(*args, check=0).stdout)
    assert out["legal"] == legal and out["rule"]


def test_solve_json_and_cards():
    p = run_cli("solve", "klaverjassen", "--hands", HANDS, "--trump", "H", "--cards", "--json", check=0)
    out = json.loads(p.stdout)
    assert set(out) >= {"margin", "makes", "pit_possible", "cards", "nodes", "seconds"}
    assert out["makes"] == (out["margin"] > 0)
    assert max(c["margin"] for c in out["cards"]) == out["margin"]   # seat 0 (team 0) to move
    p2 = run_cli("solve", "klaverjassen", "--hands", HANDS, "--trump", "H", "--playing-team", 1,
                 "--json", check=0)
    assert json.loads(p2.stdout)["margin"] == -out["margin"]      # zero-sum


def test_simulate_and_trump_cli(tmp_path):
    p = run_cli("simulate", "klaverjassen", "--deals", 5000, "--json", check=0)
    out = json.loads(p.stdout)
    assert out["deals"] == 5000 and abs(sum(t["play_rate"] for t in out["teams"]) - 1) < 1e-9
    p = run_cli("simulate", "klaverjassen", "--games", 20, "--json", check=0)
    assert "boompjes" in json.loads(p.stdout)
    f = tmp_path / "k.jsonl"
    run_cli("simulate", "klaverjassen", "--deals", 5, "--trump", "D", "--record-play", f, check=0)
    recs = [json.loads(x) for x in f.read_text().splitlines()]
    assert all(r["trump"] == "D" and r["calls"] == [] for r in recs)
    assert all(sum(t["points"] for t in r["tricks"]) == 162 for r in recs)
    p = run_cli("trump", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD QD", "--position", 1,
                "--samples", 2000, "--json", check=0)
    out = json.loads(p.stdout)
    assert [o["option"] for o in out["options"]] == ["S", "H", "D", "C", "pass"]
    assert out["recommended"] == "H"


def test_trump_query_consistency():
    r = trump_query("JH 9H AH TS 7C 8C KD QD", 0, passes=4, samples=500, seed=2)
    assert r["forced"] and [o["option"] for o in r["options"]] == ["S", "H", "D", "C"]
    for o in r["options"]:
        assert o["p_we_play"] == 1.0
        lo, hi = o["expected_margin_ci"]
        assert lo <= o["expected_margin"] <= hi
    a = trump_query("JH 9H AH TS 7C 8C KD QD", 2, samples=300, seed=4)
    b = trump_query("JH 9H AH TS 7C 8C KD QD", 2, samples=300, seed=4, threads=1)
    assert a == b
    d = trump_query("JH 9H AH TS 7C 8C KD QD", 1, samples=6, policy="dd", seed=1)
    assert d["label"].startswith("perfect-information")


def test_stats_small_cases():
    from analyzer import klaverjassen_stats as ks
    df = pd.DataFrame({
        "deal": [0, 0, 0, 0, 1, 1, 1, 1], "seat": [0, 1, 2, 3] * 2, "team": [0, 1, 0, 1] * 2,
        "game_index": [0] * 8, "position": [1, 2, 3, 0, 0, 1, 2, 3],
        "caller": [True, False, False, False, False, True, False, False],
        "margin": [40, -40, 40, -40, 180, -180, 180, -180], "team_score": [100, 60, 100, 60, 182, 0, 182, 0],
        "nat": [False] * 5 + [True, False, False], "pit": [False] * 8,
        "roem": [20, 0, 20, 0, 0, 20, 0, 20], "trump_count": [3, 0, 0, 0, 0, 2, 0, 0],
    })
    tv = ks.trump_value(df).set_index("trump_count")
    assert tv.loc[3, "mean_margin"] == 40 and tv.loc[2, "mean_margin"] == -180
    assert tv.loc[2, "p_nat"] == 1.0 and tv.loc[3, "p_nat"] == 0.0
    np_ = ks.nat_pit_rates(df).set_index("position")
    assert np_.loc[1, "n"] == 2 and np_.loc[1, "nat_rate"] == 0.5
    rf = ks.roem_frequency(df)
    assert rf["roem"].tolist() == [20] and rf["share"].tolist() == [1.0]
    mo = ks.match_outcomes(df).set_index("team")
    assert mo.loc[0, "mean_total"] == 282 and mo.loc[0, "win_share"] == 1.0


@pytest.mark.parametrize("args,needle", [
    (["solve", "klaverjassen", "--hands", HANDS.replace("7H", "6H"), "--trump", "H"], "32-card"),
    (["solve", "klaverjassen", "--hands", HANDS.replace("JH ", ""), "--trump", "H"], "same number"),
    (["solve", "klaverjassen", "--hands", HANDS.replace("7H 8H", "7H 8H JH"), "--trump", "H"], "hand"),
    (["solve", "klaverjassen", "--hands", HANDS.replace("QD /", "QD 9D /"), "--trump", "H"], "9D"),
    (["solve", "klaverjassen", "--hands", HANDS.replace("JH", "XX"), "--trump", "H"], "unknown card"),
    (["solve", "klaverjassen", "--hands", "JH 9H / 7H 8H", "--trump", "H"], "four hands"),
    (["solve", "klaverjassen", "--hands", HANDS, "--trump", "X"], "unknown suit"),
    (["solve", "klaverjassen", "--hands", HANDS, "--trump", "H", "--playing-team", 2], "playing team"),
    # seat 1 holds hearts but plays a club to the trump lead: a revoke
    (["solve", "klaverjassen", "--hands", "9H AH TS 7C 8C KD QD / 7H 8H AS KS QS TC JD / "
      "TH KH JS 9S AC KC 7D 8D / QH 8S 7S JC QC AD TD 9D", "--trump", "H", "--trick", "JH 9C"],
     "illegal trick"),
    (["explain", "klaverjassen", "--trump", "H", "--trick", "KH QH JH"], "4 cards"),
    (["explain", "klaverjassen", "--trump", "H", "--trick", "KH", "--hand", "KH 7S"], "both"),
    (["explain", "klaverjassen", "--trump", "H", "--trick", "2H QH JH 7S"], "32-card"),
    (["trump", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD", "--position", 0], "8 cards"),
    (["trump", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD QD", "--position", 2, "--passes", 1], "passes"),
    (["trump", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD QD", "--position", 5], "position"),
    (["trump", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD QD", "--position", 0, "--policy", "x"], "policy"),
    (["simulate", "klaverjassen", "--variant", "rotterdam2"], "unknown variant"),
    (["simulate", "klaverjassen", "--games", 3, "--trump", "H"], "boompje"),
    (["simulate", "klaverjassen", "--deals", 3, "--games", 3], "not both"),
])
def test_bad_input(args, needle):
    p = run_cli(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert len(error_lines(p.stderr)) == 1 and "Traceback" not in p.stderr
    assert needle in p.stderr, p.stderr

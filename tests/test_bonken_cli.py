import json

import pytest

from analyzer.contract_query import contract_query
from conftest import error_lines, run_cli
from fastsim.bonken_schema import CONTRACT_TOTAL, CONTRACTS

SPADES = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_contract_query_deterministic_hand(policy):
    r = contract_query(SPADES, "ducking,domino,spades,no-queens", samples=400, policy=policy, seed=1)
    by = {c["contract"]: c for c in r["contracts"]}
    assert by["spades"]["expected_score"] == 130           # every trick is mine
    assert by["ducking"]["expected_score"] == 0             # I never win a trick
    assert by["domino"]["expected_score"] == 0              # I always go out before two others
    assert by["no-queens"]["expected_score"] == 0
    for c in r["contracts"]:
        total = c["expected_score"] + sum(c["others"])
        assert total == pytest.approx(CONTRACT_TOTAL[CONTRACTS.index(c["contract"])])
        assert c["vs_average"] == pytest.approx(
            c["expected_score"] - CONTRACT_TOTAL[CONTRACTS.index(c["contract"])] / 4)
    assert r["recommended"] == "spades"
    assert r["recommended_negative"] in ("ducking", "domino", "no-queens")


def test_contract_query_reproducible_and_ci():
    hand = "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC"
    a = contract_query(hand, None, samples=1500, seed=3)
    b = contract_query(hand, None, samples=1500, seed=3, threads=1)
    assert a == b
    assert len(a["contracts"]) == 12
    for c in a["contracts"]:
        lo, hi = c["expected_score_ci"]
        assert lo <= c["expected_score"] <= hi


def test_cli_simulate_and_contract_json(tmp_path):
    p = run_cli("simulate", "bonken", "--games", 50, "--json", check=0)
    out = json.loads(p.stdout)
    assert out["game"] == "bonken" and out["deals"] == 550 and len(out["contracts"]) >= 11
    assert abs(sum(s["win_rate"] for s in out["seats"]) - 1) < 1e-9
    p = run_cli("simulate", "bonken", "--contract", "domino", "--deals", 2000, "--json", check=0)
    out = json.loads(p.stdout)
    assert out["contract"] == "domino"
    assert abs(sum(x["loser_rate"] for x in out["contracts"][0]["positions"]) - 1) < 1e-9
    f = tmp_path / "r.jsonl"
    run_cli("simulate", "bonken", "--contract", "domino", "--deals", 3, "--record-play", f, check=0)
    recs = [json.loads(x) for x in f.read_text().splitlines()]
    assert len(recs) == 3 and all(r["contract"] == "domino" and r["moves"] for r in recs)
    p = run_cli("contract", "bonken", "--hand", SPADES, "--available", "spades,no-trump",
                "--samples", 300, "--json", check=0)
    out = json.loads(p.stdout)
    assert out["recommended"] == "spades"
    t = run_cli("contract", "bonken", "--hand", SPADES, "--samples", 200, check=0)
    assert "best negative contract" in t.stdout


def test_parquet_round_trip(tmp_path):
    import pandas as pd
    from analyzer.frames import tidy
    from analyzer.storage import read_parquet, write_parquet
    from fastsim import bonken as bk
    res = bk.simulate(bk.build_rules(), 20, seed=4)
    f = tmp_path / "b.parquet"
    write_parquet(res, f)
    back, meta = read_parquet(f)
    pd.testing.assert_frame_equal(back, tidy(res))
    assert meta["game"] == "bonken" and len(back) == 20 * 11 * 4
    assert (back.groupby("deal")["score"].sum().groupby(back.groupby("deal")["contract"].first(),
                                                        observed=True).first()
            .to_dict() == {c: t for c, t in zip(CONTRACTS, CONTRACT_TOTAL) if c != "no-trump"})


@pytest.mark.parametrize("args,needle", [
    (["contract", "bonken", "--hand", "AS KS"], "13 cards"),
    (["contract", "bonken", "--hand", SPADES.replace("2S", "AS")], "duplicate"),
    (["contract", "bonken", "--hand", SPADES.replace("2S", "1S")], "unknown card"),
    (["contract", "bonken", "--hand", SPADES, "--available", "ducking,chess"], "unknown contract"),
    (["contract", "bonken", "--hand", SPADES, "--available", "ducking,ducking"], "twice"),
    (["contract", "bonken", "--hand", SPADES, "--samples", 0], "samples"),
    (["contract", "bonken", "--hand", SPADES, "--variant", "doubling"], "unknown variant"),
    (["simulate", "bonken", "--contract", "nope"], "unknown contract"),
    (["simulate", "bonken", "--deals", 5], "--contract"),
    (["simulate", "bonken", "--contract", "domino", "--games", 5], "--deals"),
    (["simulate", "bonken", "--seat-policy", "4=random"], "seat"),
    (["simulate", "bonken", "--variant", "hearts_lead=sometimes"], "hearts_lead"),
    (["simulate", "bonken", "--dealer", 7], "dealer"),
])
def test_bad_input(args, needle):
    p = run_cli(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert len(error_lines(p.stderr)) == 1 and "Traceback" not in p.stderr
    assert needle in p.stderr


@pytest.mark.parametrize("policy", ["heuristic", "pimc", "random"])
def test_contract_query_states_the_others_model(policy):
    from analyzer.bonken_play import others_model
    from analyzer.contract_query import render
    r = contract_query(SPADES, "ducking,spades", samples=20, policy=policy, seed=1, worlds=2)
    assert r["others_model"] == others_model(policy)
    assert f"model: {r['others_model']}" in render(r)
    if policy == "random":
        assert "random" in r["others_model"]
    else:
        assert policy in r["others_model"] and "standings" in r["others_model"]

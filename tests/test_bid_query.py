"""The bid query: exact agreement in 1-card deals, internal consistency, errors."""
import json
from fractions import Fraction

import pytest

import naive_boerenbridge as ref
from analyzer.bid_query import bid_query
from conftest import error_lines, run_cli
from helpers_bid import one_card_deals


def exact_one_card(n, my_card, turned, position, bids_before, policy):
    """P(I win the trick) in a 1-card deal, by enumerating every assignment of the unseen
    cards to the other positions, weighted by the probability that the earlier players,
    bidding by ``policy``, made exactly ``bids_before`` (heuristic: 0 or 1; random:
    constant, i.e. no information)."""
    trump = turned[1]
    num = den = 0
    for hands in one_card_deals(n, my_card, turned, position):
        if bids_before and policy == "heuristic":
            consistent = all(
                ref.heuristic_bid([hands[q]], q, n, 1, trump, bids_before[:q], True, False)
                == bids_before[q] for q in range(position))
            if not consistent:
                continue
        den += 1
        num += ref.trick_winner(hands, trump) == position       # position 0 leads
    return Fraction(num, den)


CASES = [
    (3, "KH", "9H", 0, None, "heuristic"),
    (3, "7S", "QS", 2, [0, 1], "heuristic"),
    (4, "AD", "5C", 1, [1], "heuristic"),
    (4, "QC", "TC", 2, [0, 0], "heuristic"),
    (4, "2H", "3H", 3, [1, 0, 1], "random"),
]


@pytest.mark.parametrize("n,card,turned,pos,before,policy", CASES)
def test_one_card_query_agrees_with_exact_enumeration(n, card, turned, pos, before, policy):
    p_win = float(exact_one_card(n, card, turned, pos, before, policy))
    samples = 40_000
    r = bid_query(n, card, turned, pos, before, samples=samples, policy=policy, seed=3,
                  bid_model="exact")
    b0, b1 = r["bids"]
    se = max((p_win * (1 - p_win) / r["effective_samples"]) ** 0.5, 1e-9)
    assert abs(b1["p_exact"] - p_win) <= 4.5 * se + 1e-12
    assert b0["p_exact"] == pytest.approx(1 - b1["p_exact"])
    assert b1["expected_score"] == pytest.approx(12 * b1["p_exact"])
    assert b0["expected_score"] == pytest.approx(10 * b0["p_exact"])
    # the exact value lies inside the reported interval (or on its edge when it is 0 or 1)
    lo, hi = b1["p_exact_ci"]
    assert lo - 1e-9 <= p_win <= hi + 1e-9


def test_recommendation_and_distribution_consistent():
    r = bid_query(4, "AS KS 7H 2C QD 9D 3S 4H", "9H", 3, [1, 2, 3], samples=3000, seed=1,
                  bid_model="exact")
    legal = [b for b in r["bids"] if not b["forbidden"]]
    assert [b["bid"] for b in r["bids"] if b["forbidden"]] == [2]   # 8 - (1+2+3)
    assert r["recommended_bid"] == max(legal, key=lambda b: b["expected_score"])["bid"]
    for b in r["bids"]:
        assert sum(b["trick_distribution"]) == pytest.approx(1.0)
        assert b["trick_distribution"][b["bid"]] == pytest.approx(b["p_exact"])
        assert b["p_exact_ci"][0] <= b["p_exact"] <= b["p_exact_ci"][1]
        assert b["expected_score"] == pytest.approx(b["p_exact"] * (10 + 2 * b["bid"]))
    assert r["samples"] == 3000 and 0 < r["acceptance_rate"] <= 1


def test_hard_scoring_and_reproducibility():
    a = bid_query(5, "AS 7H 2C", "9H", 0, None, samples=2000, seed=5, variants=["scoring=hard"])
    b = bid_query(5, "AS 7H 2C", "9H", 0, None, samples=2000, seed=5, variants=["scoring=hard"],
                  threads=1)
    assert a == b
    for x in a["bids"]:
        dist = x["trick_distribution"]
        exp = sum(p * (10 + 2 * k if k == x["bid"] else -abs(k - x["bid"])) for k, p in enumerate(dist))
        assert x["expected_score"] == pytest.approx(exp)


def test_cli_json_shape():
    p = run_cli("bid", "boerenbridge", "--players", 4, "--hand", "AS KS 7H 2C", "--trump-card", "9H",
                "--position", 1, "--bids-before", "1", "--samples", 2000, "--json", check=0)
    out = json.loads(p.stdout)
    for k in ("recommended_bid", "bids", "trick_distribution", "samples", "effective_samples"):
        assert k in out
    assert [b["bid"] for b in out["bids"]] == [0, 1, 2, 3, 4]
    assert set(out["bids"][0]) >= {"bid", "p_exact", "p_exact_ci", "expected_score", "forbidden"}
    p = run_cli("bid", "boerenbridge", "--hand", "AS KS", "--trump-card", "9H", "--position", 0,
                "--samples", 500, check=0)
    assert "recommended bid:" in p.stdout


@pytest.mark.parametrize("args,needle", [
    (["--hand", "AS XS", "--trump-card", "9H", "--position", 0], "unknown card"),
    (["--hand", "AS as", "--trump-card", "9H", "--position", 0], "duplicate"),
    (["--players", 7, "--hand", "2S 3S 4S 5S 6S 7S 8S 9S", "--trump-card", "9H", "--position", 0], "cannot be dealt"),
    (["--hand", "AS 9H", "--trump-card", "9H", "--position", 0], "turned card"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 4], "position"),
    (["--hand", "AS", "--trump-card", "9H", "--position", -1], "position"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 1, "--bids-before", "0,1"], "earlier bids"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 1, "--bids-before", "3"], "impossible"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 1, "--bids-before", "x"], "integers"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 3], "--bids-before"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 0, "--samples", 0], "samples"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 0, "--policy", "psychic"], "unknown policy"),
    # nobody can hold the trumps for a bid of 8 when I hold all the high ones
    (["--hand", "AS KS QS JS TS 9S 8S 7S", "--trump-card", "2S", "--position", 1,
      "--bids-before", "8", "--samples", 200, "--bid-model", "exact"], "consistent"),
    (["--hand", "AS", "--trump-card", "9H", "--position", 1, "--bids-before", "0",
      "--bid-model", "psychic"], "bid model"),
    (["--hand", "AS", "--trump-card", "1H", "--position", 0], "unknown card"),
    (["--hand", "", "--trump-card", "9H", "--position", 0], "empty"),
])
def test_bad_input(args, needle):
    p = run_cli("bid", "boerenbridge", *args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert len(error_lines(p.stderr)) == 1 and "Traceback" not in p.stderr
    assert needle in p.stderr


def test_searching_policies_default_to_fewer_samples():
    """A query whose other players search at every decision (Boerenbridge's pimc of 512
    worlds, strong, ...) defaults to STRONG_QUERY_SAMPLES samples; the heuristic keeps the
    usual default, and so does another game's 16-world pimc."""
    from analyzer.infostate import play_args
    from analyzer.stats_core import STRONG_QUERY_SAMPLES
    from fastsim import klaverjassen_schema as kj
    from fastsim.boerenbridge_schema import POLICIES, QUERY_SEARCHING
    r = bid_query(4, "AS 7H", "9H", 0, policy="pimc", seed=1)
    assert r["samples"] == STRONG_QUERY_SAMPLES
    assert bid_query(4, "AS 7H", "9H", 0, policy="heuristic", seed=1)["samples"] == 20000
    assert bid_query(4, "AS 7H", "9H", 0, samples=50, policy="pimc", seed=1)["samples"] == 50
    assert play_args(None, "pimc", POLICIES, 2000, searching=QUERY_SEARCHING)[0] == STRONG_QUERY_SAMPLES
    assert play_args(None, "pimc", kj.POLICIES, 2000)[0] == 2000
    assert play_args(None, "strong", kj.POLICIES, 2000)[0] == STRONG_QUERY_SAMPLES

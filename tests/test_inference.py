"""Inference the player can trust (docs/inference.md): the soft bidder models, importance
weighting instead of rejection, the effective sample size and the thin-evidence warnings.

The soft-bidder likelihood is re-implemented here in plain Python from its definition,
and the 1-card answers are checked against exact enumeration of every deal of the hidden
cards weighted by it (using the slow reference bidder of tests/naive_boerenbridge.py)."""
import json
import math

import numpy as np
import pytest

import naive_boerenbridge as ref
from helpers_bid import one_card_deals
from analyzer import evidence as ev
from analyzer.bid_query import bid_query, render as render_bid
from analyzer.boerenbridge_play import BoerenbridgeInfoState, play_query
from analyzer.infostate import render_play
from analyzer.trump_query import render as render_trump, trump_query
from conftest import run_cli
from fastsim.bidmodel_nb import bid_loglik_nb, pass_loglik_nb

HAND8 = "AS KS 7H 2C QD 9D 3S 4H"


def soft_p(bid, hb, h, forbidden, lam=ev.BID_SLOPE):
    """P(bid | heuristic bid hb) of the soft bidder, from its definition."""
    legal = [b for b in range(h + 1) if b != forbidden]
    if bid not in legal:
        return 0.0
    z = sum(math.exp(-lam * abs(b - hb)) for b in legal)
    return math.exp(-lam * abs(bid - hb)) / z


# ------------------------------------------------------------------ the models

@pytest.mark.parametrize("h,forbidden", [(1, -1), (1, 0), (5, -1), (5, 2), (8, 8)])
def test_soft_bid_likelihood_is_a_distribution_over_legal_bids(h, forbidden):
    for hb in range(h + 1):
        if hb == forbidden:      # the heuristic never bids the forbidden number
            continue
        ps = [math.exp(bid_loglik_nb(b, hb, h, forbidden, ev.BID_SLOPE)) for b in range(h + 1)]
        assert sum(ps) == pytest.approx(1.0)
        for b in range(h + 1):
            assert ps[b] == pytest.approx(soft_p(b, hb, h, forbidden))
            assert (ps[b] > 0) == (b != forbidden)       # every legal bid is possible
        # exact model: all the mass on the heuristic's bid
        ex = [bid_loglik_nb(b, hb, h, forbidden, math.inf) for b in range(h + 1)]
        assert [x == 0.0 for x in ex] == [b == hb for b in range(h + 1)]
        # slope 0: the random bidder, uniform over the legal bids
        uni = {round(math.exp(bid_loglik_nb(b, hb, h, forbidden, 0.0)), 12)
               for b in range(h + 1) if b != forbidden}
        assert len(uni) == 1


def test_soft_pass_likelihood():
    tau = ev.PASS_SCALE
    for v in range(0, 200, 7):
        p = math.exp(pass_loglik_nb(v, 90, tau))
        assert p == pytest.approx(1 / (1 + math.exp((v - 90 + 0.5) / tau)))
        assert 0 < p < 1
        assert pass_loglik_nb(v, 90, 0.0) == (0.0 if v < 90 else -math.inf)
    assert pass_loglik_nb(10_000, 90, tau) == pytest.approx(-(10_000 - 89.5) / tau)


def test_weight_stats():
    st = ev.weight_stats(np.ones(500))
    assert st["effective_samples"] == pytest.approx(500)
    assert st["top1_weight_share"] == pytest.approx(5 / 500)
    w = np.array([100.0] + [1.0] * 99)
    st = ev.weight_stats(w)
    assert st["effective_samples"] == pytest.approx(199 ** 2 / (100 ** 2 + 99))
    assert st["top1_weight_share"] == pytest.approx(100 / 199)


def test_thinning_is_unbiased_and_reaches_the_request():
    rng = np.random.default_rng(1)
    n = 200_000
    logw = rng.normal(0, 1.5, n)
    logw[rng.random(n) < 0.1] = -np.inf
    u = rng.random(n)
    f = rng.normal(size=n) + logw.clip(-5, 5)
    w = np.where(np.isfinite(logw), np.exp(logw - logw[np.isfinite(logw)].max()), 0)
    target = 5000
    idx, wt = ev.thin(logw, u, target)
    assert len(idx) < ev.weight_stats(w)["effective_samples"]   # fewer play-outs
    st = ev.weight_stats(wt)
    assert 0.9 * target <= st["effective_samples"] <= 1.2 * target
    full = float((w * f).sum() / w.sum())
    thinned = float((wt * f[idx]).sum() / wt.sum())
    sd = float(np.sqrt((w * (f - full) ** 2).sum() / w.sum()))
    assert abs(thinned - full) < 4.5 * sd / math.sqrt(st["effective_samples"])
    # equal weights (or rejection, 0/1): nothing to thin
    idx, wt = ev.thin(np.zeros(100), u[:100], 300)
    assert len(idx) == 100 and (wt == 1).all()


def test_drawing_stops_at_the_same_prefix_whatever_the_batches():
    rng = np.random.default_rng(2)
    logw = rng.normal(0, 1, 50_000)
    u = rng.random(50_000)

    def kernel(start, count):
        return logw[start:start + count], u[start:start + count]
    a = ev.draw_weights(kernel, 1000, 50_000)
    b = ev.draw_weights(kernel, 1000, 50_000, first=137)
    assert len(a[0]) == len(b[0]) < 50_000
    assert (a[0] == b[0]).all()
    # exact (0/1) weights: stop at exactly the requested number of consistent deals
    lw01 = np.where(rng.random(50_000) < 0.2, 0.0, -np.inf)
    lw, _ = ev.draw_weights(lambda s, c: (lw01[s:s + c], u[s:s + c]), 700, 50_000)
    assert np.isfinite(lw).sum() == 700 and np.isfinite(lw[-1])


# ------------------------------------------------------------------ 1-card enumeration

def enumerate_bid_query(n, my_card, turned, position, bids_before):
    """P(I win the trick) of a 1-card deal: every assignment of the unseen cards to the
    others, weighted by the soft likelihood of the earlier bids."""
    trump = turned[1]
    num = den = 0.0
    for hands in one_card_deals(n, my_card, turned, position):
        w = 1.0
        for q in range(position):
            hb = ref.heuristic_bid([hands[q]], q, n, 1, trump, bids_before[:q], True, False)
            w *= soft_p(bids_before[q], hb, 1, -1)
        den += w
        num += w * (ref.trick_winner(hands, trump) == position)
    return num / den


CASES = [
    (3, "7S", "QS", 2, [0, 1]),
    (3, "KD", "4C", 1, [1]),
    (4, "AD", "5C", 1, [1]),
    (4, "QC", "TC", 2, [0, 0]),
    (4, "9H", "3H", 3, [1, 1, 1]),
]


@pytest.mark.slow
@pytest.mark.parametrize("n,card,turned,pos,before", CASES)
def test_one_card_soft_bid_query_agrees_with_weighted_enumeration(n, card, turned, pos, before):
    p_win = enumerate_bid_query(n, card, turned, pos, before)
    r = bid_query(n, card, turned, pos, before, samples=20_000, seed=7)
    assert r["bid_model"] == "soft"
    assert r["effective_samples"] >= 0.9 * 20_000
    b0, b1 = r["bids"]
    se = max((p_win * (1 - p_win) / r["effective_samples"]) ** 0.5, 1e-9)
    assert abs(b1["p_exact"] - p_win) <= 4.5 * se + 1e-12
    assert b1["expected_score"] == pytest.approx(12 * b1["p_exact"])
    assert b0["expected_score"] == pytest.approx(10 * (1 - b1["p_exact"]))
    # the soft answer differs from the exact bidder's where the bids say much
    # (not asserted: in some cases both agree), and the interval covers the truth
    lo, hi = b1["p_exact_ci"]
    assert lo - 1e-9 <= p_win <= hi + 1e-9


def enumerate_play_query(n, my_card, turned, bids):
    """P(position 0 makes its bid) leading its only card, everyone's bid known: every deal
    of the unseen cards weighted by the soft likelihood of the others' bids."""
    trump = turned[1]
    num = den = 0.0
    for hands in one_card_deals(n, my_card, turned, 0):
        w = 1.0
        for q in range(1, n):
            forbidden = 1 - sum(bids[:q]) if q == n - 1 else -1
            hb = ref.heuristic_bid([hands[q]], q, n, 1, trump, bids[:q], True, False)
            w *= soft_p(bids[q], hb, 1, forbidden if 0 <= forbidden <= 1 else -1)
        den += w
        won = ref.trick_winner(hands, trump) == 0
        num += w * (won == bids[0])
    return num / den


@pytest.mark.slow
@pytest.mark.parametrize("n,card,turned,bids", [
    (3, "TH", "4H", [1, 1, 1]),
    (4, "QS", "8D", [0, 1, 0, 1]),   # the dealer may not bid 0: its bid says nothing
])
def test_one_card_soft_play_query_agrees_with_weighted_enumeration(n, card, turned, bids):
    p_make = enumerate_play_query(n, card, turned, bids)
    r = play_query(n, card, turned, 0, ",".join(map(str, bids)), samples=20_000, seed=3)
    assert r["bid_model"] == "soft" and r["conditioned_on_bids"]
    (c,) = r["cards"]
    se = max((p_make * (1 - p_make) / r["effective_samples"]) ** 0.5, 1e-9)
    assert abs(c["p_make"] - p_make) <= 4.5 * se + 1e-12
    assert c["expected_score"] == pytest.approx(12 * c["p_make"] if bids[0] == 1
                                                else 10 * c["p_make"])


# ------------------------------------------------------------------ human bids

@pytest.mark.parametrize("bids", ["0,0,0", "3,3,2"])
def test_bids_the_heuristic_never_makes_keep_the_requested_effective_samples(bids):
    r = bid_query(4, HAND8, "9H", 3, bids, samples=2000, seed=0)
    assert r["bid_model"] == "soft"
    assert r["effective_samples"] >= 0.9 * 2000
    assert r["drawn"] > r["samples"] >= r["effective_samples"]
    assert 0 < r["top1_weight_share"] < 0.1
    assert not [w for w in r["warnings"] if "effective samples" in w]
    legal = [b for b in r["bids"] if not b["forbidden"]]
    assert r["recommended_bid"] == max(legal, key=lambda b: b["expected_score"])["bid"]
    for b in r["bids"]:
        assert sum(b["trick_distribution"]) == pytest.approx(1.0)
        assert b["trick_distribution"][b["bid"]] == pytest.approx(b["p_exact"])
    # under the exact heuristic bidder the same bids are impossible
    if bids == "0,0,0":
        from fastsim.common import RulesError
        with pytest.raises(RulesError, match="consistent"):
            bid_query(4, HAND8, "9H", 3, bids, samples=200, bid_model="exact")


def test_soft_query_reproducible_at_any_thread_count():
    a = bid_query(4, HAND8, "9H", 3, "3,3,2", samples=1500, seed=4)
    b = bid_query(4, HAND8, "9H", 3, "3,3,2", samples=1500, seed=4, threads=1)
    assert a == b
    c = trump_query("JH 9H AH TS 7C 8C KD QD", 0, passes=4, samples=800, seed=2)
    d = trump_query("JH 9H AH TS 7C 8C KD QD", 0, passes=4, samples=800, seed=2, threads=1)
    assert c == d


def test_forced_klaverjassen_call_keeps_the_requested_effective_samples():
    r = trump_query("JH 9H AH TS 7C 8C KD QD", 0, passes=4, samples=2000, seed=1)
    assert r["bid_model"] == "soft" and r["forced"]
    assert r["effective_samples"] >= 0.9 * 2000
    ex = trump_query("JH 9H AH TS 7C 8C KD QD", 0, passes=4, samples=300, seed=1,
                     bid_model="exact")
    assert ex["bid_model"] == "exact" and ex["effective_samples"] == ex["samples"] == 300
    assert ex["acceptance_rate"] < 0.2
    text = "\n".join(render_trump(r, 0, 1))
    assert "pass model: soft" in text and "effective 2," in text


# ------------------------------------------------------------------ warnings

def test_warning_rules_at_their_thresholds():
    few = ev.MIN_EFFECTIVE
    assert ev.warnings(few) == []
    assert len(ev.warnings(few - 0.5)) == 1 and "effective samples" in ev.warnings(few - 0.5)[0]
    assert ev.interval_ok(ev.MIN_FOR_INTERVAL) and not ev.interval_ok(ev.MIN_FOR_INTERVAL - 0.5)
    assert ev.interval_ok(3, exact=True)
    # overlapping intervals (touching counts as overlapping) ... or not
    assert ev.warnings(5000, best=("2", [1.0, 2.0]), runner=("1", [2.0, 3.0]))
    assert not ev.warnings(5000, best=("2", [2.0001, 3.0]), runner=("1", [1.0, 2.0]))
    assert not ev.warnings(5000, best=("2", [1.0, 2.0]), runner=("1", [1.5, 3.0]), equal=True)
    assert not ev.warnings(10, exact=True)


@pytest.mark.parametrize("samples,warn", [(999, True), (1000, False)])
def test_low_effective_sample_warning_both_sides(samples, warn):
    """Bidding first, nothing is weighted: the effective sample size is the sample size."""
    r = bid_query(4, HAND8, "9H", 0, None, samples=samples, seed=0)
    assert r["effective_samples"] == samples
    assert any("effective samples" in w for w in r["warnings"]) == warn
    text = "\n".join(render_bid(r, 0))
    assert ("warning: only 999 effective samples" in text) == warn


@pytest.mark.parametrize("samples", [29, 30])
def test_no_interval_from_too_few_effective_samples(samples):
    r = bid_query(4, HAND8, "9H", 0, None, samples=samples, seed=0)
    shown = samples >= ev.MIN_FOR_INTERVAL
    for b in r["bids"]:
        assert (b["p_exact_ci"] is not None) == shown
        assert (b["expected_score_ci"] is not None) == shown
    text = "\n".join(render_bid(r, 0))
    assert (ev.NA in text) == (not shown)
    assert any("too few for any interval" in w for w in r["warnings"]) == (not shown)
    state = BoerenbridgeInfoState.from_inputs(4, HAND8, "9H", 0, "2,1,2,2")
    p = play_query(None, None, None, None, None, state=state, samples=samples, seed=1)
    if p["effective_samples"] >= ev.MIN_FOR_INTERVAL:
        assert all(c["value_ci"] is not None for c in p["cards"])
    else:
        assert all(c["value_ci"] is None and c["p_make_ci"] is None for c in p["cards"])
        assert ev.NA in "\n".join(render_play(p))


def test_overlap_warning_follows_the_printed_intervals():
    r = bid_query(4, HAND8, "9H", 3, "1,2,3", samples=1500, seed=2)
    legal = sorted((b for b in r["bids"] if not b["forbidden"]),
                   key=lambda b: b["expected_score"], reverse=True)
    (lo1, hi1), (lo2, hi2) = legal[0]["expected_score_ci"], legal[1]["expected_score_ci"]
    overlap = lo1 <= hi2 and lo2 <= hi1
    assert any("not separated" in w for w in r["warnings"]) == overlap


def test_equivalent_cards_are_a_tie_not_thin_evidence():
    state = BoerenbridgeInfoState.from_inputs(
        3, "2S 3S AH", "2D", 0, "3,0,1",
        "4S 5S 6S | 7S 8S 9S | TS JS QS | AS KS 4H", hand_size=7)
    out = play_query(None, None, None, None, None, state=state, samples=2000)
    vals = {x["card"]: x for x in out["cards"]}
    assert vals["2S"]["expected_score"] == vals["3S"]["expected_score"]
    assert not any("2S" in w and "3S" in w for w in out["warnings"])


# ------------------------------------------------------------------ JSON, every query

QUERIES = [
    ["bid", "boerenbridge", "--hand", HAND8, "--trump-card", "9H", "--position", 3,
     "--bids-before", "3,3,2", "--samples", 500],
    ["bid", "boonaken", "--hand", "JH 9H AH KH 7S AD", "--open", "TH 8C", "--samples", 300],
    ["contract", "bonken", "--hand", "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC",
     "--samples", 300],
    ["trump", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD QD", "--position", 1,
     "--samples", 300],
    ["play", "boerenbridge", "--hand", HAND8, "--trump-card", "9H", "--position", 0,
     "--bids", "0,0,0,2", "--samples", 300],
    ["play", "bonken", "--contract", "no-hearts", "--hand",
     "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", "--position", 0, "--samples", 300],
    ["play", "klaverjassen", "--trump", "H", "--caller", "0", "--hand",
     "JH 9H AH TS 7C 8C KD QD", "--position", 0, "--samples", 300],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", QUERIES, ids=lambda a: " ".join(map(str, a[:2])))
def test_every_query_reports_evidence_and_warnings(args):
    p = run_cli(*args, "--json", check=0)
    out = json.loads(p.stdout)
    assert isinstance(out["warnings"], list)
    assert 0 < out["effective_samples"] <= out["samples"]
    assert 0 < out["top1_weight_share"] <= 1
    # fewer than 1,000 effective samples: a warning that says so
    assert any("effective samples" in w for w in out["warnings"])
    text = run_cli(*args, check=0).stdout
    assert "warning: only" in text

"""Boonaken invariants over every preset and player count (docs/rules.md §4)."""
import json

import numpy as np
import pytest

from analyzer.records import boonaken_records
from conftest import error_lines, run_cli
from fastsim import boonaken as bo
from fastsim.boonaken_schema import LADDER


TRUMP_PTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 3, "Q": 2}
PLAIN_PTS = {"A": 11, "T": 10, "K": 3, "Q": 2, "J": 1}


def pts(card, trump):
    return (TRUMP_PTS if card[1] == trump else PLAIN_PTS).get(card[0], 0)


@pytest.mark.parametrize("preset", ["seed", "pagat", "leimuiden"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("mix", ["heuristic", "random", "mixed"])
def test_deal_invariants(preset, n, mix):
    rules = bo.build_rules(n, preset, first_dealer=n - 1)
    over = [f"{s}=random" for s in range(0, n, 2)] if mix == "mixed" else []
    pols = bo.parse_seat_policies(n, "random" if mix == "random" else "heuristic", over)
    res = bo.simulate(rules, 150, seed=7 * n + len(preset), policies=pols, record=True)
    tricks_per_deal = {"seed": {2: 15, 3: 10, 4: 7, 5: 6}[n]}.get(preset, 6)
    for rec in boonaken_records(res):
        t = rec["table"]
        all_cards = [c for h in rec["hands"] for c in h] + t["open"] + t["blind"] + t["stock"] + t["sleeping"]
        assert len(all_cards) == 32 and len(set(all_cards)) == 32          # 32 accounted for
        assert all(len(h) == 6 for h in rec["hands"])
        if rec["void"]:
            assert all(a == "pass" for _, a in rec["auction"]) and len(rec["auction"]) == n
            continue
        # the auction: each bid beats the standing one, passes are final
        standing = -1
        passed = set()
        for seat, a in rec["auction"]:
            assert seat not in passed
            if a == "pass":
                passed.add(seat)
            else:
                lvl = LADDER.index(a)
                assert lvl > standing or (a == "misere" and standing == LADDER.index("misere"))
                standing = max(standing, lvl)
        assert LADDER[standing] == (rec["bid"] if rec["contract"] == "points" else rec["contract"])
        assert len(rec["tricks"]) == tricks_per_deal
        trump = rec["trump"]
        won_points = 0
        for tr in rec["tricks"]:
            assert len(tr["cards"]) == n and len({s for s, _ in tr["cards"]}) == n
            won_points += sum(pts(c, trump) for _, c in tr["cards"])
        assert won_points == sum(rec["card_points"])
        # points in play + discarded + untaken open + sleeping/undrawn = 141 (108 no trump)
        drawn = {c for d in rec["draws"] for _, c in d}
        untaken = [c for c in t["open"] if c not in rec["exchange"]["taken"]]
        out = rec["exchange"]["discarded"] + untaken + t["sleeping"] + \
            [c for c in t["stock"] if c not in drawn] + \
            ([c for c in t["blind"] if c not in rec["exchange"]["taken"]])
        assert won_points + sum(pts(c, trump) for c in out) == (141 if trump else 108)
        # results
        if rec["contract"] == "points":
            d = rec["declarer"]
            assert rec["results"] == [[d, rec["card_points"][d] + rec["roem"] >= rec["bid"]]]
        elif rec["contract"] == "misere":
            assert [s for s, _ in rec["results"]] == rec["misere_players"]
            for s, made in rec["results"]:
                assert made == (rec["tricks_won"][s] == 0)
            assert trump is None or (preset == "leimuiden" and len(rec["misere_players"]) == 1)
        else:
            d = rec["declarer"]
            assert rec["results"] == [[d, rec["tricks_won"][d] == len(rec["tricks"])]]
            if rec["contract"] == "zwabber":
                assert trump is None
        assert sum(rec["tricks_won"]) == len(rec["tricks"])


@pytest.mark.parametrize("preset", ["seed", "pagat", "leimuiden"])
def test_matches(preset):
    r = bo.simulate_matches(bo.build_rules(4, preset), 300, seed=3)
    m = r.matches
    assert (m["deals"] >= 1).all() and (m["deals"] < 500).all()
    if preset == "leimuiden":
        assert ((m["status"] != 0).sum(axis=1) >= 3).all()       # at most one undecided
        assert (np.abs(m["walk"]) <= 2).all()
    else:
        assert (m["winner"] >= 0).all()
        assert (m["plus"][np.arange(300), m["winner"]] >= 2).all()
    a = bo.simulate_matches(bo.build_rules(3, preset), 100, seed=9, threads=1)
    b = bo.simulate_matches(bo.build_rules(3, preset), 100, seed=9, threads=2, chunk=7)
    for k in a.matches:
        assert np.array_equal(a.matches[k], b.matches[k])


def test_cli_and_bid_advice(tmp_path):
    p = run_cli("simulate", "boonaken", "--players", 3, "--deals", 2000, "--json", check=0)
    out = json.loads(p.stdout)
    assert out["deals"] == 2000 and len(out["positions"]) == 3
    p = run_cli("simulate", "boonaken", "--preset", "pagat", "--matches", 200, "--json", check=0)
    assert abs(sum(e["win_rate"] for e in json.loads(p.stdout)["positions"]) - 1) < 1e-9
    f = tmp_path / "b.jsonl"
    run_cli("simulate", "boonaken", "--deals", 4, "--record-play", f, check=0)
    assert len(f.read_text().splitlines()) == 4
    p = run_cli("bid", "boonaken", "--hand", "JH 9H AH KH 7S AD", "--open", "TH 8C",
                "--samples", 1000, "--json", check=0)
    out = json.loads(p.stdout)
    assert out["best_trump"] == "H" and len(out["bids"]) == 75
    probs = [b["p_make"] for b in out["bids"] if isinstance(b["bid"], int)]
    assert all(a >= b for a, b in zip(probs, probs[1:]))         # higher bids are harder
    assert out["highest_bid"] is not None


@pytest.mark.parametrize("args,needle", [
    (["bid", "boonaken", "--hand", "JH 9H AH KH 7S", "--open", "TH 8C"], "6 cards"),
    (["bid", "boonaken", "--hand", "JH 9H AH KH 7S 2D", "--open", "TH 8C"], "32-card"),
    (["bid", "boonaken", "--hand", "JH 9H AH KH 7S AD", "--open", "TH"], "open"),
    (["bid", "boonaken", "--hand", "JH 9H AH KH 7S AD", "--open", "TH AD"], "both"),
    (["bid", "boonaken", "--hand", "JH 9H AH KH 7S AD", "--open", "TH 8C", "--preset", "x"], "preset"),
    (["bid", "boonaken", "--players", 6, "--hand", "JH 9H AH KH 7S AD", "--open", "TH 8C"], "2 to 5"),
    (["simulate", "boonaken", "--deals", 5, "--matches", 5], "not both"),
    (["simulate", "boonaken", "--seat-policy", "4=random"], "seat"),
])
def test_bad_input(args, needle):
    p = run_cli(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert len(error_lines(p.stderr)) == 1 and "Traceback" not in p.stderr
    assert needle in p.stderr, p.stderr

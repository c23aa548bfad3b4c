import json

import numpy as np
import pytest

from analyzer.tournament import tournament
from conftest import run_cli


def test_duplicate_scores_are_seat_balanced():
    """With two copies of the same policy the duplicate means agree exactly: the seatings
    and the cards cancel."""
    from fastsim import boerenbridge as bb
    r = tournament("boerenbridge", "heuristic,random", 500, seed=3, hand_size=5, players=4)
    # recompute by hand: seat s plays [h, r][(s + rot) % 2]
    rules = bb.build_rules(players=4, hand_size=5)
    sums = np.zeros((500, 2))
    for rot in range(4):
        names = [["heuristic", "random"][(s + rot) % 2] for s in range(4)]
        pols = bb.parse_seat_policies(4, "heuristic", [f"{s}={p}" for s, p in enumerate(names)])
        sc = bb.simulate(rules, 500, seed=3, policies=pols).deals["scores"]
        for s, p in enumerate(names):
            sums[:, 0 if p == "heuristic" else 1] += sc[:, s]
    per = sums / 8
    assert r["policies"][0]["mean_score"] == pytest.approx(per[:, 0].mean())
    assert r["pairs"][0]["difference"] == pytest.approx((per[:, 0] - per[:, 1]).mean())
    assert r["pairs"][0]["significant"] and r["pairs"][0]["ci"][0] > 0


@pytest.mark.parametrize("game,extra", [("bonken", ["--games", 40]), ("klaverjassen", ["--deals", 400]),
                                        ("boonaken", ["--deals", 800])])
def test_heuristic_beats_random_everywhere(game, extra):
    p = run_cli("tournament", game, "--policies", "heuristic,random", *extra, "--json", check=0)
    out = json.loads(p.stdout)
    d = out["pairs"][0]
    assert d["a"] == "heuristic" and d["ci"][0] > 0


@pytest.mark.parametrize("args,needle", [
    (["tournament", "boerenbridge", "--policies", "heuristic"], "at least two"),
    (["tournament", "bonken", "--policies", "heuristic,psychic"], "not available"),
    (["tournament", "boerenbridge", "--policies", "heuristic,random", "--deals", 0], "at least one"),
    (["tournament", "boerenbridge", "--policies", "heuristic,genius"], "not available"),
    (["tournament", "boonaken", "--policies", "heuristic,random", "--games", 5], "deals"),
])
def test_bad_input(args, needle):
    p = run_cli(*args)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert needle in p.stderr, p.stderr


def test_team_game_pairs_play_as_teams():
    r = tournament("klaverjassen", "heuristic,random,pimc", 150, seed=2, worlds=4)
    assert [(p["a"], p["b"]) for p in r["pairs"]] == [("heuristic", "random"), ("heuristic", "pimc"),
                                                     ("random", "pimc")]
    two = tournament("klaverjassen", "heuristic,random", 150, seed=2)
    assert r["pairs"][0]["difference"] == pytest.approx(two["pairs"][0]["difference"])

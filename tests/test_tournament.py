import json

import numpy as np
import pytest

from analyzer.tournament import seatings, tournament
from conftest import error_lines, run_cli


def test_duplicate_scores_are_seat_balanced():
    """With two copies of the same policy the duplicate means agree exactly: the seatings
    and the cards cancel."""
    from fastsim import boerenbridge as bb
    r = tournament("boerenbridge", "heuristic,random", 500, seed=3, hand_size=5, players=4)
    # recompute by hand: seat s plays [h, r][(s + rot) % 2]
    rules = bb.build_rules(players=4, hand_size=5)
    sums = np.zeros((500, 2))
    for rot in range(2):
        names = [["heuristic", "random"][(s + rot) % 2] for s in range(4)]
        pols = bb.parse_seat_policies(4, "heuristic", [f"{s}={p}" for s, p in enumerate(names)])
        sc = bb.simulate(rules, 500, seed=3, policies=pols).deals["scores"]
        for s, p in enumerate(names):
            sums[:, 0 if p == "heuristic" else 1] += sc[:, s]
    per = sums / 4
    assert r["policies"][0]["mean_score"] == pytest.approx(per[:, 0].mean())
    assert r["pairs"][0]["difference"] == pytest.approx((per[:, 0] - per[:, 1]).mean())
    assert r["pairs"][0]["significant"] and r["pairs"][0]["ci"][0] > 0


@pytest.mark.parametrize("k", [2, 3, 4, 5])
@pytest.mark.parametrize("seats", [3, 4, 5, 6, 7])
def test_every_policy_sits_in_every_seat_equally_often(k, seats):
    rot = seatings(k, seats)
    counts = np.zeros((seats, k), dtype=int)
    for seating in rot:
        assert len(seating) == seats
        for s, p in enumerate(seating):
            counts[s, p] += 1
    assert (counts == counts[0, 0]).all() and counts[0, 0] >= 1, counts
    assert len({tuple(x) for x in rot}) == len(rot)      # no seating played twice


def test_three_policies_on_four_seats_are_balanced():
    """3 policies on 4 seats (3 does not divide 4): the tournament's means are the means
    over the balanced seatings, each policy weighted by the seats it held."""
    from fastsim import boerenbridge as bb
    names = ["heuristic", "random", "pimc"]
    r = tournament("boerenbridge", ",".join(names), 200, seed=5, hand_size=4, players=4, worlds=4)
    assert r["seatings"] == 3
    rules = bb.build_rules(players=4, hand_size=4)
    sums, slots = np.zeros((200, 3)), np.zeros(3)
    for seating in ([names[i] for i in rot] for rot in seatings(3, 4)):
        pols = bb.parse_seat_policies(4, "heuristic", [f"{s}={p}" for s, p in enumerate(seating)])
        sc = bb.simulate(rules, 200, seed=5, policies=pols, worlds=4).deals["scores"]
        for s, p in enumerate(seating):
            sums[:, names.index(p)] += sc[:, s]
            slots[names.index(p)] += 1
    assert (slots == 4).all()
    per = sums / slots
    for i, row in enumerate(r["policies"]):
        assert row["mean_score"] == pytest.approx(per[:, i].mean())


@pytest.mark.parametrize("game,extra", [("bonken", ["--games", 40]), ("klaverjassen", ["--deals", 400]),
                                        ("boonaken", ["--deals", 800])])
def test_heuristic_beats_random_everywhere(game, extra):
    p = run_cli("tournament", game, "--policies", "heuristic,random", *extra, "--json", check=0)
    out = json.loads(p.stdout)
    d = out["pairs"][0]
    assert d["a"] == "heuristic" and d["ci"][0] > 0


@pytest.mark.parametrize("args,needle", [
    (["tournament", "boerenbridge", "--policies", "heuristic"], "at least two"),
    # it said "give at least two different policies" to a list of three
    (["tournament", "boerenbridge", "--policies", "heuristic,random,heuristic"],
     "policy heuristic is listed twice"),
    (["tournament", "boerenbridge", "--policies", "pimc,openspiel:random,PIMC"],
     "policy pimc is listed twice"),
    (["tournament", "bonken", "--policies", "heuristic,psychic"], "not available"),
    (["tournament", "boerenbridge", "--policies", "heuristic,random", "--deals", 0], "at least one"),
    (["tournament", "boerenbridge", "--policies", "heuristic,genius"], "not available"),
    (["tournament", "boonaken", "--policies", "heuristic,random", "--games", 5], "deals"),
    # a Bonken tournament is whole games: --deals 3 once played 3 games (36 deals) unsaid
    (["tournament", "bonken", "--policies", "heuristic,random", "--deals", 3], "--games"),
])
def test_bad_input(args, needle):
    p = run_cli(*args)
    assert p.returncode == 2 and len(error_lines(p.stderr)) == 1
    assert needle in p.stderr, p.stderr


def test_team_game_pairs_play_as_teams():
    r = tournament("klaverjassen", "heuristic,random,pimc", 150, seed=2, worlds=4)
    assert [(p["a"], p["b"]) for p in r["pairs"]] == [("heuristic", "random"), ("heuristic", "pimc"),
                                                     ("random", "pimc")]
    two = tournament("klaverjassen", "heuristic,random", 150, seed=2)
    assert r["pairs"][0]["difference"] == pytest.approx(two["pairs"][0]["difference"])


@pytest.mark.parametrize("game,policies,n,whole", [
    ("boerenbridge", "heuristic,random,pimc", 120, False),
    ("klaverjassen", "heuristic,random,pimc", 60, False),
    ("bonken", "heuristic,random", 5, True),
])
def test_progress_bar_counts_all_work_and_changes_nothing(monkeypatch, game, policies, n, whole):
    """With a progress bar the seatings run in steps (units keep their global index): the
    results are the same as in one call, and the bar counts every unit of every seating."""
    import analyzer.tournament as t
    plain = tournament(game, policies, n, whole_games=whole, seed=4, worlds=4, progress=False)
    seen = {}

    class Bar:
        def __init__(self, total):
            seen["total"], seen["done"], seen["closed"] = total, 0, False

        def update(self, k):
            seen["done"] += k

        def close(self):
            seen["closed"] = True
    monkeypatch.setattr(t, "_bar", lambda total, unit, progress: Bar(total))
    stepped = tournament(game, policies, n, whole_games=whole, seed=4, worlds=4, progress=True)
    assert stepped == plain
    assert seen["done"] == seen["total"] > 0 and seen["closed"]


def test_bonken_tournament_default_is_whole_games():
    r = tournament("bonken", "heuristic,random", seed=3, worlds=2)
    assert r["units"] == 200 and r["unit"] == "game"

"""Memory bounds: under a small process limit (simulated: analyzer.run.memory_limit
monkeypatched to 1.5 GiB, the container limit of the hostile-input report), every command
that would keep too much in memory refuses in one line with a hint before any work starts;
tournaments and summaries play a block at a time (same results), and rejection-sampling
queries draw in bounded batches (same answers)."""
import json

import pytest

from analyzer import limits, run
from conftest import invoke_cli

LIMIT = 3 << 29          # 1.5 GiB


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setattr(run, "memory_limit", lambda: LIMIT)


def refused(args, *needles):
    code, out, err = invoke_cli(*args)
    err = [l for l in err.splitlines() if not l.startswith("troef: compiling")]
    assert code == 2 and len(err) == 1 and err[0].startswith("troef: error:"), (code, err)
    assert "memory" in err[0] and "1.2 GiB this process may use" in err[0], err
    for n in needles:
        assert n in err[0], (n, err)


@pytest.mark.parametrize("args, hint", [
    (["tournament", "boerenbridge", "--policies", "heuristic,random", "--deals", 40_000_000],
     "fewer --deals"),
    (["tournament", "bonken", "--policies", "heuristic,random,pimc", "--games", 9_000_000],
     "fewer --deals/--games"),
    (["bid", "boerenbridge", "--hand", "AS KS 7H 2C 3D", "--trump-card", "5H", "--position", 1,
      "--samples", 20_000_000], "fewer --samples"),
    (["bid", "boonaken", "--hand", "AS KS 7H 8C 9D TD", "--open", "JH QH", "--samples",
      40_000_000], "fewer --samples"),
    (["contract", "bonken", "--hand", "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "--samples",
      3_000_000], "fewer --samples"),
    (["trump", "klaverjassen", "--hand", "AS KS QS JS TS 9S 8S 7S", "--position", 0,
      "--samples", 10_000_000], "fewer --samples"),
    (["play", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD QD", "--trump", "H", "--caller",
      0, "--position", 0, "--samples", 5_000_000], "fewer --samples (play keeps"),
    (["play", "bonken", "--contract", "domino", "--hand", "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
      "--position", 0, "--samples", 5_000_000], "fewer --samples (play keeps"),
    # the old estimate (160 bytes a seat and deal) let this start and be killed: a Bonken
    # game's tidy frame and Arrow table need 270
    (["simulate", "bonken", "--games", 120_000, "--out", "{tmp}/b.parquet"], "--out DIR"),
    (["simulate", "boerenbridge", "--hand-size", 8, "--deals", 2_000_000, "--out",
      "{tmp}/r.parquet"], "--out DIR"),
])
def test_refused_before_work_under_a_small_limit(small_limit, tmp_path, args, hint):
    refused([str(a).replace("{tmp}", str(tmp_path)) for a in args], hint)


def test_small_runs_still_run_under_the_limit(small_limit, tmp_path):
    code, _, err = invoke_cli("bid", "boerenbridge", "--hand", "AS KS 7H", "--trump-card", "5H",
                              "--position", 0, "--samples", 500)
    assert code == 0, err
    code, _, err = invoke_cli("tournament", "boerenbridge", "--policies", "heuristic,random",
                              "--deals", 200, "--hand-size", 3)
    assert code == 0, err


def test_summary_runs_are_played_a_block_at_a_time():
    """Without --out, `simulate bonken --games 4000000` kept every game in memory at once."""
    spec = run.RunSpec.make("bonken", games=4_000_000)
    checked, _ = run.check_run(spec, progress=False)
    assert checked.chunk * spec.setup.deals_per_unit <= run.BLOCK_DEALS
    spec = run.RunSpec.make("boerenbridge", deals=9_000_000, hand_size=3)
    assert run.check_run(spec, progress=False)[0].chunk <= run.BLOCK_DEALS


@pytest.mark.parametrize("game, n, whole, policies", [
    ("boerenbridge", 120, False, "heuristic,random"),
    ("boerenbridge", 5, True, "heuristic,random"),
    ("bonken", 3, True, "heuristic,random"),
    ("klaverjassen", 90, False, "heuristic,random,pimc"),
    ("boonaken", 90, False, "heuristic,random"),
])
def test_tournament_blocks_change_nothing(monkeypatch, game, n, whole, policies):
    from analyzer.tournament import tournament
    whole_run = tournament(game, policies, n, whole_games=whole, worlds=2)
    monkeypatch.setattr(limits, "TOURNAMENT_BLOCK_DEALS", 17)   # 17 deals, or one game
    assert limits.tournament_block(
        __import__("analyzer.games", fromlist=["get"]).get(game).tournament_setup(
            whole, **({} if game in ("bonken", "klaverjassen", "boonaken") else {}))) < n
    assert tournament(game, policies, n, whole_games=whole, worlds=2) == whole_run


@pytest.mark.parametrize("args", [
    ["bid", "boerenbridge", "--hand", "AS KS 7H 2C", "--trump-card", "5H", "--position", 2,
     "--bids-before", "1,0", "--samples", 3000],
    ["trump", "klaverjassen", "--hand", "AS KS QS JS 7H 8H 9D TC", "--position", 2,
     "--samples", 3000],
])
def test_bounded_draw_batches_change_nothing(monkeypatch, args):
    code, whole, err = invoke_cli(*args, "--json")
    assert code == 0, err
    monkeypatch.setattr(limits, "MAX_BATCH", 257)
    code, batched, err = invoke_cli(*args, "--json")
    assert code == 0, err
    # the kept samples, hence every answer, are the same; only the number of deals drawn
    # past the last one kept (and the acceptance rate over them) depends on the batches
    a, b = json.loads(batched), json.loads(whole)
    for r in (a, b):
        del r["drawn"], r["acceptance_rate"]
    assert a == b

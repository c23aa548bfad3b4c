"""The ahead-of-time kernels (fastsim/aot.py): built for exactly this code, equal to numba's
kernels on random positions of every rule set, and a play query that then starts without
importing numba at all."""
import importlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import analyzer.boerenbridge_play as bp
from analyzer.boerenbridge_play import play_query, positions_from_record, sample_worlds
from analyzer.infostate import AOT_MAX_PLAYOUTS
from analyzer.records import deal_records
from fastsim import aot
from fastsim.boerenbridge import simulate
from fastsim.boerenbridge_schema import build_rules, parse_seat_policies

ROOT = Path(__file__).resolve().parent.parent
FASTSIM = ROOT / "fastsim"
PLAYS = {
    "boerenbridge": ["--hand", "AS KS 7H 2C QD 9D 3S 4H", "--trump-card", "9H", "--position",
                     "0", "--bids", "2,1,2,2"],
    "bonken": ["--contract", "no-hearts", "--hand", "AS KS 2H 5D 8C 6C QH 3S 4S 7D TD JC",
               "--position", "2", "--history", "2C 5C KC 9C |", "--available",
               "ducking,no-hearts,no-queens,no-last"],
    "klaverjassen": ["--trump", "H", "--caller", "0", "--hand", "9H AH TS 7C 8C KD QD",
                     "--position", "0", "--history", "JH 7H 8H QH |"],
    "boonaken": ["--declarer", "2", "--contract", "60", "--trump", "C", "--open", "7C AC",
                 "--taken", "AC", "--position", "3", "--hand", "TS QS JH TD QD AD", "--drawn",
                 "JH", "--history", "JC 7H KC QC | AS", "--auction", "pass 50 60 pass pass"],
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The modules for this code: those ``make setup`` built (python -m analyzer.warm), or
    else built here into a fresh folder (which a later lookup then finds first). Yields the
    value of NUMBA_CACHE_DIR a process needs to find them."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TROEF_AOT", "1")
        aot._loaded.clear()
        if all(aot.module_path(name) for name in aot.MODULES):
            yield os.environ.get("NUMBA_CACHE_DIR", "")
        else:
            if not any(shutil.which(c) for c in ("cc", "gcc", "clang")):
                pytest.skip("no C compiler: the ahead-of-time kernels cannot be built here")
            folder = tmp_path_factory.mktemp("aot-cache")
            mp.setenv("NUMBA_CACHE_DIR", str(folder))
            paths = aot.build(quiet=True)
            assert sorted(paths) == sorted(aot.MODULES)
            assert all(Path(p).is_file() and str(folder) in p for p in paths.values())
            yield str(folder)
    aot._loaded.clear()


def test_kernel_modules_import_numba_only_through_jit():
    """The cache must be installed before any kernel is defined: every numba import of the
    package goes through fastsim/_jit.py (fastsim/_cache.py, _startup.py and aot.py import
    numba inside functions, for what they set up)."""
    allowed = {"_jit.py", "_cache.py", "_startup.py", "aot.py"}
    pattern = re.compile(r"^\s*(from numba\b|import numba\b)")
    offenders = [f"{f.name}:{i}" for f in sorted(FASTSIM.glob("*.py")) if f.name not in allowed
                 for i, line in enumerate(f.read_text().splitlines(), 1) if pattern.match(line)]
    assert offenders == []
    assert "from ._jit import" in (FASTSIM / "boerenbridge_nb.py").read_text()


def test_the_play_query_modules_import_no_numba():
    code = ("import sys, fastsim, cli, analyzer.boerenbridge_play, analyzer.games.boerenbridge\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba')[:3])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
    assert out.stdout.strip() == "[]"


def _bb_positions(seed, n_games, players, hand_size=None, schedule=None, variants=()):
    rules = build_rules(players=players, hand_size=hand_size, schedule=schedule,
                        variants=variants)
    res = simulate(rules, n_games, seed=seed, policies=parse_seat_policies(players),
                   record=True)
    for rec in deal_records(res):
        yield from (state for state, _ in positions_from_record(rec, variants))


def _kj_positions(seed, n, variants=()):
    from test_play_klaverjassen import recorded
    from analyzer.klaverjassen_play import positions_from_record as positions
    for rec in recorded(n, seed, variants)[1]:
        yield from (state for state, _ in positions(rec, variants))


def _bk_positions(seed, n, variants=()):
    from test_play_bonken import recorded
    from analyzer.bonken_play import positions_from_record as positions
    for _, rec in recorded(n, seed, variants)[1]:
        yield from (state for state, _ in positions(rec, variants))


def _bo_positions(seed, n, preset, deals):
    from test_play_boonaken import recorded
    from analyzer.boonaken_play import positions_from_record as positions
    for _, rec in recorded(n, preset, deals, seed)[1]:
        yield from (state for state, _ in positions(rec))


# (game, positions, every how many-th position is queried, query module)
CASES = [
    ("boerenbridge", lambda: _bb_positions(3, 6, 4, hand_size=8), 9),
    ("boerenbridge", lambda: _bb_positions(4, 3, 3, hand_size=13), 9),
    ("boerenbridge", lambda: _bb_positions(5, 1, 5, schedule="standard", variants=(
        "scoring=dutch", "bauer_bonus", "no_trump_rounds=ones,top")), 9),
    ("boerenbridge", lambda: _bb_positions(6, 1, 4, schedule="standard", variants=(
        "blind_one_card", "scoring=hard", "dealer_rule=off")), 9),
    ("klaverjassen", lambda: _kj_positions(7, 3), 7),
    ("klaverjassen", lambda: _kj_positions(8, 3, ("amsterdam",)), 7),
    ("bonken", lambda: _bk_positions(9, 1), 13),
    ("boonaken", lambda: _bo_positions(10, 4, "seed", 6), 5),
    ("boonaken", lambda: _bo_positions(11, 3, "pagat", 6), 5),
]


def _query(game, state, i):
    mod = importlib.import_module(f"analyzer.{game}_play")
    params = inspect.signature(mod.play_query).parameters
    blank = {k: None for k, v in params.items() if v.default is inspect.Parameter.empty}
    return mod.play_query(**blank, state=state, samples=150, seed=i)


@pytest.mark.parametrize("case", range(len(CASES)), ids=lambda c: f"{CASES[c][0]}-{c}")
def test_ahead_of_time_equals_jit_on_random_positions(built, monkeypatch, case):
    """Every exported kernel, through the query API: the positions rebuilt from recorded
    deals (trick states, legal cards, roem), the heuristic's card, the play query."""
    game, positions, every = CASES[case]
    pq = importlib.import_module(f"analyzer.{game}_play").pq
    runs = {}
    for flag in ("1", "0"):
        monkeypatch.setenv("TROEF_AOT", flag)
        assert pq.ahead_of_time == (flag == "1")
        states = list(positions())
        runs[flag] = [(state.legal_actions(), state.decide("heuristic"),
                       json.dumps(_query(game, state, i), sort_keys=True) if i % every == 0
                       else None)
                      for i, state in enumerate(states)]
    assert len(runs["1"]) > 30
    assert runs["1"] == runs["0"]
    assert sum(q is not None for _, _, q in runs["1"]) >= 5


def test_boerenbridge_worlds_are_the_same(built, monkeypatch):
    for i, state in enumerate(list(_bb_positions(12, 2, 4, hand_size=6))[::5]):
        out = []
        for flag in ("1", "0"):
            monkeypatch.setenv("TROEF_AOT", flag)
            out.append(sample_worlds(state, 64, seed=i))
        assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])


def test_large_or_threaded_queries_take_the_parallel_kernels(built, monkeypatch):
    monkeypatch.setenv("TROEF_AOT", "1")
    seen = []
    real = bp._draw

    def spy(*args):
        seen.append(args[-1])
        return real(*args)

    monkeypatch.setattr(bp, "_draw", spy)
    args = (4, "AS KS 7H 2C QD 9D 3S 4H", "9H", 0, "2,1,2,2")
    small = play_query(*args, samples=200)
    threaded = play_query(*args, samples=200, threads=2)
    large = play_query(*args, samples=AOT_MAX_PLAYOUTS // 8 + 1)
    assert seen[0] is bp.pq
    assert seen[1] is bp.pq.jit and seen[2] is bp.pq.jit
    assert small["cards"] == threaded["cards"]
    assert large["samples"] > small["samples"]


def test_a_module_built_from_other_code_is_not_loaded(built, monkeypatch):
    monkeypatch.setenv("TROEF_AOT", "1")
    assert aot.module_path("boerenbridge_play") is not None
    monkeypatch.setattr(aot, "_key", "0" * 16)      # what another code version would seek
    monkeypatch.setattr(aot, "_loaded", {})
    assert aot.module_path("boerenbridge_play") is None
    assert not bp.pq.ahead_of_time
    assert bp.pq.decide_heuristic_nb is bp.pq.jit.decide_heuristic_nb


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_cli_play_starts_without_numba_and_answers_the_same(built, game):
    _cli_twice(built, ["play", game, *PLAYS[game], "--samples", "300", "--json"])


def _cli_twice(built, args):
    """``troef ARGS`` with the ahead-of-time kernels (numba never imported) and without:
    the same JSON."""
    code = ("import sys, cli\n"
            "try:\n    cli.main(args=sys.argv[1:], prog_name='troef')\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
            "print('numba' in sys.modules)")
    outs = {}
    for flag in ("1", "0"):
        env = dict(os.environ, PYTHONPATH=str(ROOT), TROEF_AOT=flag)
        if flag == "1" and built:    # where the modules are (numba's own cache: as usual)
            env["NUMBA_CACHE_DIR"] = built
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, cwd=ROOT, env=env, timeout=600)
        assert proc.returncode == 0, proc.stderr
        *body, numba_loaded = proc.stdout.strip().splitlines()
        outs[flag] = (json.loads("\n".join(body)), numba_loaded)
    assert outs["1"][1] == "False" and outs["0"][1] == "True"
    assert outs["1"][0] == outs["0"][0]


def test_modules_of_other_code_versions_are_pruned(tmp_path):
    """Building removes the sibling ``aot-*`` folders unused for PRUNE_AFTER_DAYS days (only
    folders with troef's marker); the kernel cache's ``numba-*`` folders are left alone."""
    import time
    from fastsim import _cache
    old, mine, other, numba_dir = (tmp_path / n for n in
                                   ("aot-0123456789abcdef", "aot-fedcba9876543210",
                                    "aot-00000000000000ff", "numba-0123456789abcdef"))
    for d in (old, mine, other, numba_dir):
        d.mkdir()
        (d / _cache._MARKER).write_text("x")
    stale = time.time() - (_cache.PRUNE_AFTER_DAYS + 1) * 86400
    for d in (old, numba_dir):
        os.utime(d / _cache._MARKER, (stale, stale))
    (other / _cache._MARKER).unlink()                 # not ours: kept whatever its age
    os.utime(other, (stale, stale))
    _cache._prune(str(tmp_path), str(mine), prefix="aot-")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [mine.name, other.name, numba_dir.name])


# ---------------------------------------------------------------- simulation and bid query

SIM_CASES = [   # (players, hand_size, schedule, variants, games)
    (4, 8, None, (), 3000),
    (3, 13, None, ("scoring=hard",), 500),
    (5, None, "standard", ("scoring=dutch", "bauer_bonus", "no_trump_rounds=ones,top"), 40),
    (5, None, "short", ("blind_one_card", "dealer_rule=off"), 60),
    (7, 7, None, (), 800),
]


def _kernels_run(monkeypatch):
    """Record which kernel each run_chunks call of the Boerenbridge front runs."""
    import fastsim.boerenbridge as fb
    seen = []
    real = fb.run_chunks

    def spy(n_chunks, call, kernel):
        seen.append("jit" if hasattr(kernel, "signatures") else "aot")
        return real(n_chunks, call, kernel)

    monkeypatch.setattr(fb, "run_chunks", spy)
    return seen


@pytest.mark.parametrize("case", range(len(SIM_CASES)))
def test_simulation_ahead_of_time_equals_jit(built, monkeypatch, case):
    players, hand_size, schedule, variants, games = SIM_CASES[case]
    rules = build_rules(players=players, hand_size=hand_size, schedule=schedule,
                        variants=variants)
    seen = _kernels_run(monkeypatch)
    runs = {}
    for flag in ("1", "0"):
        monkeypatch.setenv("TROEF_AOT", flag)
        runs[flag] = simulate(rules, games, seed=case + 20, game_start=7)
    assert seen == ["aot", "jit"]
    for part in ("deals", "games"):
        a, b = getattr(runs["1"], part), getattr(runs["0"], part)
        assert sorted(a) == sorted(b)
        for name in a:
            assert a[name].dtype == b[name].dtype and np.array_equal(a[name], b[name]), name
    assert runs["1"].n_deals > 100


def test_simulations_that_are_large_threaded_searched_or_recorded_run_numba(built, monkeypatch):
    from fastsim.boerenbridge import AOT_MAX_CARDS
    monkeypatch.setenv("TROEF_AOT", "1")
    rules = build_rules(players=4, hand_size=8)
    seen = _kernels_run(monkeypatch)
    small = simulate(rules, 500, seed=3)
    threaded = simulate(rules, 500, seed=3, threads=2)
    simulate(rules, AOT_MAX_CARDS // 8 + 1, seed=3)
    simulate(rules, 50, seed=3, policies=parse_seat_policies(4, seat_policies=("1=pimc",)))
    recorded = simulate(rules, 500, seed=3, record=True)
    assert seen == ["aot", "jit", "jit", "jit", "jit"]
    for res in (threaded, recorded):
        assert all(np.array_equal(small.deals[k], res.deals[k]) for k in small.deals)


BID_CASES = [   # (players, hand, trump card, position, bids before, variants, policy)
    (4, "AS KS 7H 2C 9D TD 3C 4H", "5H", 3, "1,2,3", (), "heuristic"),
    (4, "AS KS 7H 2C 9D TD 3C 4H", "5H", 0, None, ("scoring=dutch",), "heuristic"),
    (3, "AH KH QH 2S", "9C", 2, "0,1", ("scoring=hard", "bauer_bonus"), "heuristic"),
    (5, "AS", "3D", 1, "0", ("blind_one_card",), "heuristic"),
    (4, "AS KS 7H 2C", "5H", 2, "1,1", (), "random"),
]


@pytest.mark.parametrize("case", range(len(BID_CASES)))
def test_bid_query_ahead_of_time_equals_jit(built, monkeypatch, case):
    from analyzer.bid_query import bid_query, json_payload
    players, hand, turned, position, before, variants, policy = BID_CASES[case]
    seen = _kernels_run(monkeypatch)
    out = {}
    for flag in ("1", "0"):
        monkeypatch.setenv("TROEF_AOT", flag)
        r = bid_query(players, hand, turned, position, before, 3000, policy, variants,
                      seed=case)
        out[flag] = json.dumps(json_payload(r), sort_keys=True)
    assert out["1"] == out["0"]
    half = len(seen) // 2         # only a heuristic query has its kernels built ahead of time
    assert seen[:half] == ["aot" if policy == "heuristic" else "jit"] * half
    assert seen[half:] == ["jit"] * half and seen


@pytest.mark.parametrize("args", [
    ["simulate", "boerenbridge", "--hand-size", "8", "--deals", "2000", "--json"],
    ["simulate", "boerenbridge", "--players", "5", "--games", "30", "--json"],
    ["bid", "boerenbridge", "--hand", "AS KS 7H 2C 9D TD 3C 4H", "--trump-card", "5H",
     "--position", "3", "--bids-before", "1,2,3", "--samples", "4000", "--json"],
], ids=["deals", "games", "bid"])
def test_cli_simulate_and_bid_start_without_numba_and_answer_the_same(built, args):
    _cli_twice(built, args)


def test_threads_chosen_before_numba_is_imported_apply_once_it_is():
    code = ("import sys\nfrom fastsim.common import current_threads, set_threads\n"
            "assert set_threads(1) == 1 and current_threads() == 1\n"
            "assert 'numba' not in sys.modules\n"
            "import fastsim._jit, numba\nprint(numba.get_num_threads(), current_threads())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
    assert out.stdout.split() == ["1", "1"]


@pytest.mark.slow
def test_a_built_package_carries_the_modules_and_its_first_run_needs_no_numba(tmp_path):
    """``pip install .`` runs setup.py's build step, which builds the modules into the
    package (fastsim/_aot/aot-<key>). Run that step into a fresh build folder, then the first
    ``troef simulate`` and ``troef bid`` from there with every cache folder empty: they load
    the packaged modules (numba is never imported) and print what numba's kernels print."""
    if not any(shutil.which(c) for c in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler: the ahead-of-time kernels cannot be built here")
    lib = tmp_path / "lib"
    env = dict(os.environ, PYTHONPATH="")
    env.pop("TROEF_AOT_BUILD", None)
    subprocess.run([sys.executable, "setup.py", "--quiet", "build_py", "--build-lib", str(lib)],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    built = sorted(p.name for p in (lib / "fastsim" / "_aot").glob(f"aot-{aot.aot_key()}/*.so"))
    assert built == sorted(aot._filename(name) for name in aot.MODULES)
    commands = [["simulate", "boerenbridge", "--hand-size", "8", "--deals", "300", "--seed", "5",
                 "--no-progress"],
                ["bid", "boerenbridge", "--players", "4", "--hand", "AS KS 7H 2C QD 9D 3S 4H",
                 "--trump-card", "9H", "--position", "3", "--bids-before", "1,2,3",
                 "--samples", "3000"]]
    probe = ("import sys, cli\n"
             "try:\n    cli.main(sys.argv[1:])\nexcept SystemExit as e:\n    assert not e.code\n"
             "print('numba imported:', any(m.split('.')[0] == 'numba' for m in sys.modules))")
    for args in commands:
        outs = {}
        for where, aot_on in ((lib, "1"), (ROOT, "0")):
            cache = tmp_path / f"cache-{aot_on}-{args[0]}"      # empty: nothing cached
            run_env = dict(os.environ, PYTHONPATH=str(where), NUMBA_CACHE_DIR=str(cache),
                           XDG_CACHE_HOME=str(cache), TROEF_AOT=aot_on)
            outs[aot_on] = subprocess.run([sys.executable, "-c", probe, *args], cwd=tmp_path,
                                          env=run_env, capture_output=True, text=True,
                                          check=True).stdout
        assert outs["1"].endswith("numba imported: False\n"), outs["1"][-300:]
        assert outs["0"].endswith("numba imported: True\n")
        same = [[ln for ln in out.rsplit("numba imported", 1)[0].splitlines()
                 if "/s)" not in ln] for out in (outs["1"], outs["0"])]   # not the timing
        assert same[0] == same[1] and len(same[0]) > 5

"""The second hand sweep of bad-but-well-formed input (2026-12-04): what the first sweep
(tests/test_hostile_options.py) did not reach. Each case failed before its fix: a traceback,
a silently ignored option, or an answer corrupted or pooled without a word."""
import json
import shutil

import pytest

from conftest import invoke_cli


def error_line(args, needle):
    code, out, err = invoke_cli(*args)
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith("troef: compiling")]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("troef: error:"), (code, err)
    assert needle in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------- policies of your own

ODD = """
import numpy as np

def inf(state):
    return float("inf")

def nan(state):
    return float("nan")

def yes(state):
    return True

def whole_float(state):
    a = state.decide()
    return float(a) if isinstance(a, int) else a

def unprintable(state):
    class X:
        def __repr__(self):
            raise RuntimeError("no repr")
    return X()

def bad_message(state):
    class E(Exception):
        def __str__(self):
            raise RuntimeError("no str")
    raise E()

def generator_exit(state):
    raise GeneratorExit

def long_text(state):
    return "A" * 100_000
"""


@pytest.fixture(scope="module")
def odd(tmp_path_factory):
    p = tmp_path_factory.mktemp("odd") / "odd.py"
    p.write_text(ODD)
    return str(p)


GAMES = {"boerenbridge": ["--hand-size", 3, "--deals", 3], "klaverjassen": ["--deals", 2],
         "bonken": ["--contract", "ducking", "--deals", 2], "boonaken": ["--deals", 2]}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_non_finite_number_is_an_illegal_choice(odd, game):
    # float("inf") ended in an OverflowError traceback; NaN in "cannot convert float NaN to
    # integer", without the policy or the decision
    for fn in ("inf", "nan"):
        error_line(["simulate", game, *GAMES[game], "--policy", f"{odd}:{fn}"],
                   f"policy {odd}:{fn} chose {fn}, which is not legal at ")


def test_true_is_shown_as_itself_not_as_a_card(odd):
    # a play-phase True was reported as "chose 3S" (card code 1)
    error_line(["simulate", "bonken", *GAMES["bonken"], "--policy", f"{odd}:yes"],
               "chose True, which is not legal")


def test_whole_floats_still_play(odd):
    code, _, err = invoke_cli("simulate", "klaverjassen", "--deals", 2, "--policy",
                              f"{odd}:whole_float")
    assert code in (None, 0), err


@pytest.mark.parametrize("fn, needle", [
    ("unprintable", "chose <X that cannot be shown>"),       # RuntimeError traceback
    ("bad_message", "raised E: <E that cannot be shown>"),   # RuntimeError traceback
    ("generator_exit", "raised GeneratorExit at"),           # GeneratorExit traceback
])
def test_what_cannot_be_shown_is_still_one_line(odd, fn, needle):
    error_line(["simulate", "boerenbridge", *GAMES["boerenbridge"], "--policy", f"{odd}:{fn}"],
               needle)


def test_a_long_choice_is_cut_short(odd):
    line = error_line(["simulate", "boonaken", *GAMES["boonaken"], "--policy",
                       f"{odd}:long_text"], "chose 'AAA")
    assert len(line) < 2000          # the whole 100,000 characters were printed


def test_what_a_policy_prints_never_corrupts_stdout(tmp_path):
    # print() in the policy file or the policy went to stdout, before troef's --json
    p = tmp_path / "chatty.py"
    p.write_text("print('loading')\n"
                 "def f(state):\n    print('thinking', state.phase)\n    return state.decide()\n")
    for game, extra in GAMES.items():
        code, out, err = invoke_cli("simulate", game, *extra, "--json", "--policy", f"{p}:f")
        assert code in (None, 0), err
        assert json.loads(out)["game"] == game
        assert "thinking" in err
    code, out, err = invoke_cli("tournament", "bonken", "--policies", f"heuristic,{p}:f",
                                "--games", 1, "--json")
    assert code in (None, 0), err
    assert json.loads(out)["game"] == "bonken"


# ---------------------------------------------------------------- options

BONKEN_HAND = "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC"


def test_play_bonken_empty_available_is_refused_not_ignored():
    # --available "" was read as "not given" (no weighing by the choice), while
    # `contract bonken --available ""` refuses the empty list
    base = ["play", "bonken", "--hand", BONKEN_HAND, "--position", 0, "--samples", 4]
    error_line([*base, "--contract", "no-hearts", "--available", ""], "the contract list is empty")
    error_line([*base, "--contract", "domino", "--available", ""], "not used in domino")


@pytest.mark.parametrize("value", ["abc", "1.5", "0", "-2", "", "100000"])
def test_numba_num_threads_is_checked(monkeypatch, value):
    # abc / 1.5 / '': numba printed a warning with a traceback, ignored it, exit 0;
    # 0: numba's "Number of threads specified must be > 0."; 100000: a segmentation fault
    # in a fresh process (numba cannot start that many threads)
    monkeypatch.setenv("NUMBA_NUM_THREADS", value)
    error_line(["explain", "boerenbridge", "--trick", "AS KS", "--trump", "H"],
               "NUMBA_NUM_THREADS")


def test_numba_num_threads_within_bounds_runs(monkeypatch):
    monkeypatch.setenv("NUMBA_NUM_THREADS", " 2 ")
    code, out, err = invoke_cli("explain", "boerenbridge", "--trick", "AS KS", "--trump", "H")
    assert code in (None, 0) and "winner: AS" in out, err


# ---------------------------------------------------------------- stats and report

@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep2")

    def sim(name, *args):
        code, _, err = invoke_cli("simulate", "boerenbridge", *args, "--out", d / name)
        assert code in (None, 0), err
        return d / name
    return {"p4": sim("p4.parquet", "--hand-size", 4, "--deals", 400),
            "p4b": sim("p4b.parquet", "--hand-size", 4, "--deals", 400, "--seed", 1,
                       "--policy", "random"),
            "p5": sim("p5.parquet", "--hand-size", 4, "--deals", 400, "--players", 5),
            "ds": sim("ds", "--hand-size", 4, "--deals", 600, "--chunk-deals", 200)}


def test_stats_feature_empty_is_refused_not_defaulted(runs):
    # --feature "" was read as the default trump_count (Klaverjassen refused it)
    error_line(["stats", runs["p4"], "--stat", "tricks", "--feature", ""], "unknown feature ''")


def test_stats_of_results_with_other_set_ups_says_so(runs):
    # 4- and 5-player results were pooled in every table and compared (a "significant"
    # score difference) without a word
    code, _, err = invoke_cli("stats", runs["p4"], runs["p5"], "--stat", "compare")
    assert code in (None, 0), err
    notes = [l for l in err.splitlines() if l.startswith("troef: note:")]
    assert len(notes) == 1 and "players 5, not 4" in notes[0], err
    # another seed and policy is the same set-up: no note
    code, _, err = invoke_cli("stats", runs["p4"], runs["p4b"], "--stat", "compare")
    assert code in (None, 0) and "note" not in err, err


def test_stats_csv_dir_on_a_special_file_is_named(runs):
    # was the raw "[Errno 17] File exists: '/dev/null'"
    error_line(["stats", runs["p4"], "--csv-dir", "/dev/null"], "exists and is not a folder")


def test_report_from_a_file_refuses_threads(runs, tmp_path):
    # --threads was ignored without a word, while --seed, --policy, … are refused
    error_line(["report", "boerenbridge", "--from", runs["p4"], "--out", tmp_path / "rep",
                "--threads", 2], "--threads cannot go with --from")


def test_report_from_an_incomplete_dataset_says_so(runs, tmp_path):
    # the report was built from the chunks saved so far without a word
    d = tmp_path / "partial"
    shutil.copytree(runs["ds"], d)
    m = json.loads((d / "_manifest.json").read_text())
    m["complete"] = False
    m.pop("rows", None)
    (d / "_manifest.json").write_text(json.dumps(m))
    for pre, suf in (("", ""), ("_", ".sha256")):
        (d / f"{pre}part-00002.parquet{suf}").unlink()
    code, _, err = invoke_cli("report", "boerenbridge", "--from", d, "--out", tmp_path / "rep")
    assert code in (None, 0), err
    assert "troef: note:" in err and "incomplete (2 of 3 chunks saved)" in err, err
    assert "incomplete (2 of 3 chunks saved)" in (tmp_path / "rep" / "report.md").read_text()


# ---------------------------------------------------------------- schedules and variants

@pytest.mark.parametrize("args, needle", [
    # the spaces were dropped first: "1 2" was the one 12-card deal, no_trump_rounds "1 2"
    # the deal 12 (of the standard schedule's 15)
    (["--schedule", "1 2"], "schedule must be standard, short or a list of hand sizes"),
    (["--variant", "schedule=3 2"], "schedule must be standard, short or a list of hand sizes"),
    (["--variant", "no_trump_rounds=1 2"], "no_trump_rounds takes deal numbers"),
    # an empty value was read as no variant (the header still named it) or the default
    (["--variant", "no_trump_rounds="], "no_trump_rounds takes deal numbers"),
    (["--variant", "scoring="], "scoring must be one of"),
])
def test_boerenbridge_schedule_and_variant_values(args, needle):
    error_line(["simulate", "boerenbridge", "--games", 1, *args], needle)


def test_bonken_hearts_lead_without_a_value_is_refused():
    # --variant hearts_lead= (or hearts_lead) played the default, restricted
    error_line(["simulate", "bonken", "--games", 1, "--variant", "hearts_lead="],
               "hearts_lead takes restricted or after_broken")


def test_spaces_around_the_commas_still_parse():
    code, out, err = invoke_cli("simulate", "boerenbridge", "--games", 1, "--schedule",
                                "1 , 2", "--variant", "no_trump_rounds= 1 , last", "--json")
    assert code in (None, 0), err
    assert json.loads(out)["deals"] == 2


@pytest.mark.parametrize("variant", ["schedule=short", "fixed_hands=3,2"])
def test_play_boerenbridge_schedule_variants_are_refused_not_dropped(variant):
    # the one-deal query dropped them without a word ("rules: standard, no variants");
    # `bid boerenbridge` refuses them
    error_line(["play", "boerenbridge", "--hand", "AS KS 7H", "--trump-card", "9H", "--bids",
                "1,0,1,0", "--position", 0, "--samples", 4, "--variant", variant],
               "sets a whole game's deals; a play query is one deal")


def test_play_bonken_available_under_fixed_order_is_refused():
    # the worlds were weighed by a choice nobody made (fixed_order plays the contracts in
    # order); `contract bonken` refuses fixed_order ("leaves nothing to choose")
    error_line(["play", "bonken", "--hand", BONKEN_HAND, "--position", 0, "--samples", 4,
                "--contract", "no-hearts", "--variant", "fixed_order", "--available",
                "ducking,no-hearts"], "--available does not go with fixed_order")

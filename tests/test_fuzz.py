"""Property-based fuzzing of the command line: bad input never gives a traceback.

Every command is run in-process through ``cli.main`` (the real entry point: TroefGroup.main
turns errors into one stderr line and calls ``sys.exit``), with stdout/stderr captured.
Whatever hypothesis generates — card strings, hand lists, variants, numeric options,
paths, grouping columns — the command must end with exit code 0, or with exit code 2 and
exactly one stderr line ``troef: error: ...``; any other exception fails the test (it
would have been a traceback). Counts are kept small so that valid examples run quickly.
"""
import itertools
import os
import tempfile

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import invoke_cli

# hypothesis keeps caches in ./.hypothesis: put them in a temp folder, not the checkout
try:
    from hypothesis.configuration import set_hypothesis_home_dir
    set_hypothesis_home_dir(tempfile.mkdtemp(prefix="troef-hypothesis-"))
except ImportError:  # an older hypothesis: it writes ./.hypothesis
    pass

# CI runs a fixed set of examples (a submission's check must not depend on chance); a
# developer's run explores new random ones each time (TROEF_FUZZ_FIXED=1 fixes them too)
DERANDOMIZE = os.environ.get("CI") == "true" or os.environ.get("TROEF_FUZZ_FIXED") == "1"
FUZZ = settings(max_examples=int(os.environ.get("TROEF_FUZZ_EXAMPLES", "60")), deadline=None,
                database=None, derandomize=DERANDOMIZE,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
_COUNTER = itertools.count()


def invoke(args):
    """Run ``troef ARGS`` in this process → (exit code, stdout, stderr)."""
    return invoke_cli(*args)


def check(args):
    code, out, err = invoke(args)
    assert "Traceback" not in err, (args, err)
    assert code in (0, 2), (args, code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, (args, err)
        assert lines[0].startswith("troef: error:"), (args, err)
    event(f"exit {code}")
    return code, out, err


def fuzz_test(strategy):
    """A test that `check`s every command line the strategy draws (no fixtures needed)."""
    @FUZZ
    @given(args=strategy())
    def test(args):
        check(args)
    return test


# ---------------------------------------------------------------- strategies
# Each example draws a noise level 0..3: every option is then valid, or (with probability
# noise/10) replaced by something invalid, so about a quarter of the examples are fully
# valid commands (exercising the success paths) and the rest break one or more options.

BIG = st.sampled_from([2**63, 2**64, 2**64 + 1, 10**30, -(2**63) - 1, -(10**30)]).map(str)
JUNK = st.one_of(st.text(alphabet="0123456789-+xe., _=", max_size=6), st.text(max_size=5))


def number(lo, hi):
    """Integer text outside the valid range, huge, or not a number at all."""
    return st.one_of(st.integers(lo, hi).map(str), BIG, JUNK)


def fuzzy(draw, noise, valid, invalid):
    """A valid value, or with probability noise/10 an invalid one."""
    return draw(invalid) if draw(st.integers(0, 9)) < noise else draw(valid)


def coin_option(draw, fz, args, option, valid=None, invalid=None):
    """On a drawn coin, add the option to args: a flag, or with a value fz(valid, invalid)."""
    if draw(st.booleans()):
        args.append(option)
        if valid is not None:
            args.append(fz(valid, invalid))


RANK_CHARS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "A",
              "B", "V", "H", "1", "0", "Z", "11", ""]
SUIT_CHARS = ["S", "H", "D", "C", "R", "K", "s", "h", "d", "c", "♠", "♥", "♦", "♣", "X", ""]
BAD_CARD = st.one_of(st.builds(lambda r, s: r + s, st.sampled_from(RANK_CHARS),
                               st.sampled_from(SUIT_CHARS)),
                     st.text(max_size=4))
SEPS = st.sampled_from([" ", ",", ", ", "  ", ";", " ; "])


def card_text(draw, code, notation):
    """A valid spelling of card ``code`` (0..51 as suit·13 + rank) in ``notation``."""
    suit, rank = divmod(code, 13)
    if notation == "nl":
        r, su = "23456789TBVHA"[rank], "SHRK"[suit]
    else:
        r, su = "23456789TJQKA"[rank], draw(st.sampled_from(["SHDC"[suit], "♠♥♦♣"[suit]]))
    if r == "T":
        r = draw(st.sampled_from(["T", "10"]))
    t = r + su
    return t.lower() if draw(st.booleans()) else t


def cards_text(draw, codes, notation, noise):
    """Cards as one string; with noise, a card may be misspelt or duplicated."""
    toks = [card_text(draw, c, notation) for c in codes]
    if toks and draw(st.integers(0, 9)) < noise:
        i = draw(st.integers(0, len(toks) - 1))
        toks[i] = draw(st.one_of(BAD_CARD, st.just(toks[0])))
    return draw(SEPS).join(toks)


VARIANTS_OK = ["scoring=standard", "scoring=hard", "scoring=dutch", "bauer_bonus",
               "bauer_bonus=off", "no_trump_rounds=ones", "no_trump_rounds=1",
               "no_trump_rounds=top,last", "blind_one_card", "dealer_rule=off",
               "dealer-rule=on", "SCORING=Dutch"]
VARIANT_NAMES = ["scoring", "bauer_bonus", "no_trump_rounds", "fixed_hands", "blind_one_card",
                 "two_player", "dealer_rule", "schedule", "nosuch", ""]
VARIANT_VALUES = ["", "standard", "hard", "silly", "on", "off", "yes", "maybe", "ones", "top",
                  "last", "1,2", "99", "-1", "7,3", "3", "0,0", "8,-1", "short", "1,x", ",",
                  "=", "top,ones,last", "fixed_hands=1,1"]
BAD_VARIANT = st.one_of(
    st.builds(lambda n, v, eq: n + (("=" + v) if eq else ""), st.sampled_from(VARIANT_NAMES),
              st.sampled_from(VARIANT_VALUES), st.booleans()),
    st.text(max_size=12))
BAD_POLICY = st.one_of(st.sampled_from(["genius", "", "heuristic ", "rand"]),
                       st.text(max_size=6))
SCHEDULES_OK = ["standard", "1,2,3", "1", "3,1", " 2, 1 "]
BAD_SCHEDULE = st.one_of(st.sampled_from(["short", "0", "1,,2", "13", "1,2,40", "", "x", "-1"]),
                         st.lists(st.integers(-1, 14), max_size=4).map(
                             lambda xs: ",".join(map(str, xs))), st.text(max_size=5))


@st.composite
def simulate_args(draw, tmp):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    args = ["simulate", "boerenbridge"]
    players = draw(st.integers(3, 7))
    coin_option(draw, fz, args, "--players", st.just(str(players)), number(-2, 12))
    if draw(st.booleans()):      # independent deals (a game is one deal)
        h = draw(st.integers(1, 51 // players))
        args += ["--hand-size", fz(st.just(str(h)), number(-1, 60)),
                 "--deals", fz(st.integers(1, 120).map(str), number(-3, 0))]
        if draw(st.integers(0, 9)) < noise:
            args += ["--games", "3"]
    else:                        # whole games of a short schedule (the default is 15 deals)
        args += ["--schedule", fz(st.sampled_from(SCHEDULES_OK), BAD_SCHEDULE),
                 "--games", fz(st.integers(1, 30).map(str), number(-3, 0))]
        if draw(st.integers(0, 9)) < noise:
            args += ["--deals", "3"]
    for _ in range(draw(st.integers(0, 2))):
        args += ["--variant", fz(st.sampled_from(VARIANTS_OK), BAD_VARIANT)]
    coin_option(draw, fz, args, "--policy", st.sampled_from(["heuristic", "random", "RANDOM"]),
                BAD_POLICY)
    for _ in range(draw(st.integers(0, 2))):
        args += ["--seat-policy", fz(
            st.builds(lambda s, p: f"{s}={p}", st.integers(0, 2),
                      st.sampled_from(["random", "heuristic"])),
            st.one_of(st.builds(lambda s, p: f"{s}={p}", st.integers(-2, 9),
                                st.sampled_from(["random", "x", ""])), st.text(max_size=6)))]
    coin_option(draw, fz, args, "--dealer", st.integers(0, 2).map(str), number(-2, 9))
    coin_option(draw, fz, args, "--seed",
                st.one_of(st.integers(0, 9), st.just(2**64 - 1)).map(str), number(-5, -1))
    coin_option(draw, fz, args, "--threads", st.integers(1, 2).map(str), number(-3, 0))
    coin_option(draw, fz, args, "--chunk-deals", st.integers(1, 60).map(str), number(-3, 0))
    k = next(_COUNTER)
    out = draw(st.sampled_from(["none", "none", "file", "dir", "dir", "dir-resume"]))
    if draw(st.integers(0, 9)) < noise:
        out = draw(st.sampled_from(["missing-dir", "existing-file-as-dir", "not-empty-dir",
                                    "resume-no-dir", "record-with-dir", "resume-mismatch"]))
    if out == "file":
        args += ["--out", tmp / f"r{k}.parquet"]
    elif out in ("dir", "dir-resume"):
        args += ["--out", tmp / f"ds{k}"] + (["--resume"] if out == "dir-resume" else [])
    elif out == "missing-dir":
        args += ["--out", tmp / "no" / "such" / f"x{k}.parquet"]
    elif out == "existing-file-as-dir":
        f = tmp / f"plain{k}"
        f.write_text("x")
        args += ["--out", f]
    elif out == "not-empty-dir":
        d = tmp / f"busy{k}"
        d.mkdir()
        (d / "other.txt").write_text("x")
        args += ["--out", d]
    elif out == "resume-no-dir":
        args += ["--resume"]
    elif out == "record-with-dir":
        args += ["--out", tmp / f"ds{k}", "--record-play", tmp / f"p{k}.jsonl"]
    elif out == "resume-mismatch":       # the fuzz dataset of test_fuzz_stats' set-up
        args += ["--out", tmp / "shared", "--resume", "--seed", str(k)]
    if draw(st.integers(0, 9)) < noise:  # Dask options, only in forms refused before any
        args += draw(st.sampled_from([   # cluster is started or contacted
            ["--dask-workers", "0"], ["--dask-workers", "-3"], ["--dask-workers", "100000"],
            ["--dask-workers", "x"], ["--scheduler", "nonsense"], ["--scheduler", "tcp://"],
            ["--scheduler", "tcp://127.0.0.1:0"], ["--scheduler", "tcp://127.0.0.1:99999"],
            ["--scheduler", "http://127.0.0.1:8786"], ["--scheduler", ""],
            ["--scheduler", "tcp://127.0.0.1:1", "--dask-workers", "2"]]))
    coin_option(draw, fz, args, "--json")
    return noise, args


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    code, _, err = invoke(["simulate", "boerenbridge", "--hand-size", "2", "--deals", "10",
                           "--out", d / "shared"])
    assert code == 0, err
    return d


@FUZZ
@given(data=st.data())
def test_fuzz_simulate(tmp, data):
    noise, args = data.draw(simulate_args(tmp))
    code, out, err = check(args)
    if code == 0 and "--json" in args:
        assert out.startswith("{")


@st.composite
def bid_args(draw):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    notation = draw(st.sampled_from(["en", "nl"]))
    players = draw(st.integers(3, 7))
    h = draw(st.integers(1, min(8, 51 // players)))
    deck = draw(st.permutations(range(52)))
    position = draw(st.integers(0, players - 1))
    bids = draw(st.lists(st.integers(0, h), min_size=position, max_size=position))
    args = ["bid", "boerenbridge", "--notation", fz(st.just(notation), st.just("fr")),
            "--players", fz(st.just(str(players)), number(-1, 10)),
            "--hand", fz(st.just(cards_text(draw, deck[:h], notation, noise)),
                         st.one_of(st.just(""), BAD_CARD)),
            "--trump-card", fz(st.just(card_text(draw, deck[h], notation)),
                               st.one_of(BAD_CARD, st.just(card_text(draw, deck[0], notation)))),
            "--position", fz(st.just(str(position)), number(-2, 9)),
            "--samples", fz(st.integers(1, 120).map(str),
                            st.one_of(number(-2, 0), st.sampled_from(
                                [str(10**12), str(10**18), str(2**63 - 1)])))]
    if position or draw(st.booleans()):
        args += ["--bids-before", fz(st.just(",".join(map(str, bids))),
                                     st.one_of(st.lists(st.integers(-2, 12), max_size=8).map(
                                         lambda xs: ",".join(map(str, xs))),
                                         st.text(max_size=6)))]
    for _ in range(draw(st.integers(0, 2))):
        args += ["--variant", fz(st.sampled_from(VARIANTS_OK), BAD_VARIANT)]
    coin_option(draw, fz, args, "--policy", st.sampled_from(["heuristic", "random"]), BAD_POLICY)
    coin_option(draw, fz, args, "--seed", st.integers(0, 9).map(str), number(-3, -1))
    coin_option(draw, fz, args, "--threads", st.integers(1, 2).map(str), number(-3, 0))
    coin_option(draw, fz, args, "--json")
    return args


test_fuzz_bid = fuzz_test(bid_args)


@st.composite
def explain_args(draw):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    notation = draw(st.sampled_from(["en", "nl"]))
    deck = draw(st.permutations(range(52)))
    t = draw(st.integers(0, 7))
    h = draw(st.integers(0, 8))
    args = ["explain", "boerenbridge", "--notation", fz(st.just(notation), st.just("xx")),
            "--trick", cards_text(draw, deck[:t], notation, noise)]
    if draw(st.booleans()):
        args += ["--hand", cards_text(draw, deck[t:t + h], notation, noise)]
    which = draw(st.sampled_from(["trump", "card", "none", "both"]))
    if which in ("trump", "both"):
        suits = "SHDC♠♥♦♣" if notation == "en" else "SHRK"
        args += ["--trump", fz(st.sampled_from(list(suits) + ["none", "nt", "-", "s"]),
                               st.one_of(st.sampled_from(SUIT_CHARS), st.text(max_size=3)))]
    if which in ("card", "both"):
        args += ["--trump-card", fz(st.just(card_text(draw, deck[51], notation)),
                                    st.one_of(BAD_CARD, st.just(card_text(draw, deck[0],
                                                                          notation))))]
    coin_option(draw, fz, args, "--json")
    return args


test_fuzz_explain = fuzz_test(explain_args)


COLUMNS = ["bid", "hand_size", "position", "players", "policy", "trump", "seat", "dealer",
           "deal_no", "source", "tricks", "score", "exact", "trump_count", "strength",
           "game", "hand", "game_index"]
BAD_COLUMNS = ["nope", "", " ", "Bid", "bid,", ",,"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A small results file, two small datasets, a damaged file and an empty folder."""
    d = tmp_path_factory.mktemp("fuzz_stats")
    f, ds, ds2 = d / "one.parquet", d / "ds", d / "ds2"
    for out, seed in ((f, "2"), (ds, "2"), (ds2, "3")):
        code, _, err = invoke(["simulate", "boerenbridge", "--players", "3", "--games", "4",
                               "--seed", seed, "--seat-policy", "1=random", "--chunk-deals",
                               "20", "--out", out])
        assert code == 0, err
    (d / "bad.parquet").write_text("not parquet")
    (d / "empty").mkdir()
    (d / "text.txt").write_text("x")
    return {"file": f, "dataset": ds, "dataset2": ds2, "bad": d / "bad.parquet",
            "empty": d / "empty", "missing": d / "missing.parquet", "text": d / "text.txt"}


@st.composite
def stats_args(draw, results):
    # (no NUL bytes in paths: a real argv cannot carry them, and click's Path type stats
    # the path before any troef code runs)
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    paths = [fz(st.sampled_from(["file", "dataset", "dataset2"]),
                st.sampled_from(["bad", "empty", "missing", "text"]))
             for _ in range(draw(st.integers(1, 3)))]
    by = [fz(st.sampled_from(COLUMNS), st.sampled_from(BAD_COLUMNS))
          for _ in range(draw(st.integers(1, 3)))]
    args = ["stats", *[results[p] for p in paths], "--by", ",".join(by)]
    if draw(st.booleans()):
        args += ["--feature", fz(st.sampled_from(COLUMNS), st.one_of(
            st.sampled_from(BAD_COLUMNS), st.text(max_size=5)))]
    for _ in range(draw(st.integers(0, 3))):
        args += ["--stat", fz(st.sampled_from(["exact", "calibration", "tricks", "score",
                                               "dealer", "compare"]), st.just("bogus"))]
    args += draw(st.sampled_from([[], ["--csv"], ["--json"]] + [["--csv", "--json"]] * noise))
    return args


@FUZZ
@given(data=st.data())
def test_fuzz_stats(results, data):
    check(data.draw(stats_args(results)))


def test_invoke_reports_errors_in_process():
    """The harness sees the real one-line error path (not click's test runner)."""
    code, _, err = invoke(["simulate", "boerenbridge", "--players", "9"])
    assert code == 2 and err.startswith("troef: error:") and "3 to 7" in err
    code, out, _ = invoke(["explain", "boerenbridge", "--trick", "KH QH 2S 10H", "--trump", "S"])
    assert code == 0 and "2S" in out

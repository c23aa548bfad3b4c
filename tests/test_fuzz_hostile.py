"""Extended fuzzing (issue 18): random option vectors for every command and game, and
hostile files against everything that reads results.

* ``play`` (Boerenbridge, Bonken, Klaverjassen), ``simulate`` of Bonken, Klaverjassen and
  Boonaken with every shared option (dealer, seat policies, pimc worlds, threads, chunks,
  outputs, --resume, --record-play), ``tournament`` with every option of every game, and
  ``report`` (simulated or --from);
* hostile files — random bytes, truncations, bit flips and crafted troef metadata (JSON
  lists, strings, deep nesting, wrong types, other games' names, module-like names and
  paths) — in single results files, dataset parts and dataset manifests, read by
  ``stats``, ``report --from`` and ``simulate --resume``.

Every case ends in exit 0, or exit 2 with exactly one ``troef: error:`` line on stderr
(the harness of tests/test_fuzz.py), within BOUND seconds: a watchdog
(faulthandler.dump_traceback_later) ends the whole run, with every thread's stack, if a
case hangs; no speed is asserted. Sizes are tiny so that a case takes well under a second
(a report a few seconds). TROEF_FUZZ_EXAMPLES scales every test; the ``slow`` profile
below runs ten times as many examples.
"""
import faulthandler
import itertools
import json
import os
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import invoke_cli
from test_fuzz import BAD_CARD, BAD_POLICY, DERANDOMIZE, SEPS, check, fuzzy, number
from test_fuzz_games import DECK32, DECK52

BOUND = 300             # seconds one case may take before it counts as a hang
N = int(os.environ.get("TROEF_FUZZ_EXAMPLES", "40"))
HEALTH = list(HealthCheck)
FUZZ = settings(max_examples=N, deadline=None, database=None, suppress_health_check=HEALTH,
                derandomize=DERANDOMIZE)
FEW = settings(max_examples=max(3, N // 3), deadline=None, database=None,
               suppress_health_check=HEALTH, derandomize=DERANDOMIZE)
SLOW = settings(max_examples=10 * N, deadline=None, database=None,
                suppress_health_check=HEALTH, derandomize=DERANDOMIZE)
_K = itertools.count()


def bounded(args):
    """`check` one command line; a case that runs past BOUND seconds ends the process with
    a dump of every thread's stack (a hang fails, it never waits for ever)."""
    faulthandler.dump_traceback_later(BOUND, exit=True)
    try:
        return check([str(a) for a in args])
    finally:
        faulthandler.cancel_dump_traceback_later()


def seat_policies(draw, fz, seats):
    out = []
    for _ in range(draw(st.integers(0, 2))):
        out += ["--seat-policy", fz(
            st.builds(lambda s, p: f"{s}={p}", st.integers(0, seats - 1),
                      st.sampled_from(["random", "heuristic", "pimc"])),
            st.one_of(st.builds(lambda s, p: f"{s}={p}", st.integers(-2, 9),
                                st.sampled_from(["random", "x", ""])), st.text(max_size=6)))]
    return out


def shared(draw, fz, pimc=True):
    """--policy, --worlds, --seed, --threads, --json on coins."""
    a = []
    if draw(st.booleans()):
        a += ["--policy", fz(st.sampled_from(["heuristic", "random"] + ["pimc"] * pimc),
                             BAD_POLICY)]
    if draw(st.booleans()):
        a += ["--worlds", fz(st.integers(1, 2).map(str), number(-2, 0))]
    return a + seed_threads_json(draw, fz)


def seed_threads_json(draw, fz):
    """--seed, --threads, --json on coins."""
    a = []
    if draw(st.booleans()):
        a += ["--seed", fz(st.integers(0, 9).map(str), number(-3, -1))]
    if draw(st.booleans()):
        a += ["--threads", fz(st.integers(1, 2).map(str), number(-2, 0))]
    if draw(st.booleans()):
        a += ["--json"]
    return a


# ---------------------------------------------------------------- play

@st.composite
def play_args(draw):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    game = draw(st.sampled_from(["boerenbridge", "bonken", "klaverjassen"]))
    a = ["play", fz(st.just(game), st.sampled_from(["boonaken", "chess", ""]))]
    if game == "boerenbridge":
        players = draw(st.integers(3, 5))
        h = draw(st.integers(1, 4))
        deck = draw(st.permutations(DECK52))
        a += ["--players", fz(st.just(str(players)), number(-1, 9)),
              "--trump-card", fz(st.just(deck[h]), st.one_of(BAD_CARD, st.just(deck[0]))),
              "--bids", fz(st.lists(st.integers(0, h), min_size=players, max_size=players).map(
                  lambda b: ",".join(map(str, b[:-1] + [(b[-1] + 1) % (h + 1)] if sum(b) == h
                                     else b))), st.text(max_size=6))]
        hand, seats = deck[:h], players
    elif game == "bonken":
        deck = draw(st.permutations(DECK52))
        a += ["--contract", fz(st.sampled_from(["ducking", "no-hearts", "domino", "spades",
                                                "nt", "no-kh"]), st.text(max_size=8))]
        hand, seats = deck[:13], 4
    else:
        deck = draw(st.permutations(DECK32))
        a += ["--trump", fz(st.sampled_from(["S", "H", "D", "C"]), st.text(max_size=3)),
              "--caller", fz(st.integers(0, 3).map(str), number(-2, 9))]
        hand, seats = deck[:8], 4
    if draw(st.integers(0, 9)) < noise:
        hand = hand[:-1] + [draw(BAD_CARD)]
    # the first trick, opened by the cards of the positions before mine (each may break a
    # rule: following suit is not checked here, troef checks it)
    lead = deck[len(hand) + 1: len(hand) + 1 + draw(st.integers(0, seats - 1))]
    a += ["--hand", draw(SEPS).join(hand),
          "--position", fz(st.just(str(len(lead))), number(-2, 9)),
          "--samples", fz(st.integers(1, 6).map(str), number(-2, 0))]
    if lead or draw(st.integers(0, 9)) < noise:
        a += ["--history", fz(st.just(" ".join(lead)), st.one_of(
            st.text(max_size=8), st.just("|"), st.just(" | ".join(lead) + "|" + hand[0])))]
    if draw(st.booleans()):
        a += ["--notation", fz(st.just("en"), st.just("xx"))]
    if game != "klaverjassen" or draw(st.booleans()):
        a += shared(draw, fz)
    return a


@FUZZ
@given(args=play_args())
def test_fuzz_play(args):
    bounded(args)


# ---------------------------------------------------------------- simulate (other games)

@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz_hostile")


@st.composite
def simulate_args(draw, tmp):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    game = draw(st.sampled_from(["bonken", "klaverjassen", "boonaken"]))
    a = ["simulate", game]
    seats = 4
    if game == "bonken":
        if draw(st.booleans()):
            a += ["--contract", fz(st.sampled_from(["domino", "ducking", "spades"]),
                                   st.text(max_size=6)),
                  "--deals", fz(st.integers(1, 20).map(str), number(-2, 0))]
        else:
            a += ["--games", fz(st.integers(1, 2).map(str), number(-2, 0))]
    elif game == "klaverjassen":
        if draw(st.booleans()):
            a += ["--deals", fz(st.integers(1, 30).map(str), number(-2, 0))]
            if draw(st.booleans()):
                a += ["--trump", fz(st.sampled_from(["S", "h"]), st.text(max_size=3))]
        else:
            a += ["--games", fz(st.just("1"), number(-2, 0))]
    else:
        seats = draw(st.integers(2, 5))
        a += ["--players", fz(st.just(str(seats)), number(-1, 9))]
        a += (["--matches", fz(st.just("1"), number(-2, 0))] if draw(st.booleans())
              else ["--deals", fz(st.integers(1, 30).map(str), number(-2, 0))])
    if draw(st.booleans()):
        a += ["--dealer", fz(st.integers(0, min(seats, 4) - 1).map(str), number(-2, 9))]
    a += seat_policies(draw, fz, seats) + shared(draw, fz)
    if draw(st.booleans()):
        a += ["--chunk-deals", fz(st.integers(1, 40).map(str), number(-2, 0))]
    k = next(_K)
    out = draw(st.sampled_from(["none", "file", "dir", "record"]))
    if out == "file":
        a += ["--out", tmp / f"s{k}.parquet"]
    elif out == "dir":
        a += ["--out", tmp / f"d{k}"]
        if draw(st.integers(0, 9)) < noise:
            a += ["--resume"]
    elif out == "record":
        a += ["--record-play", tmp / f"p{k}.jsonl"]
    if draw(st.integers(0, 9)) < noise:
        a += draw(st.sampled_from([["--force"], ["--progress"], ["--resume"],
                                   ["--variant", "nosuch"], ["--hand-size", "3"],
                                   ["--preset", "seed"], ["--players", "4"]]))
    return a


@FUZZ
@given(data=st.data())
def test_fuzz_simulate_every_game(tmp, data):
    bounded(data.draw(simulate_args(tmp)))


# ---------------------------------------------------------------- tournament

@st.composite
def tournament_args(draw):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    game = draw(st.sampled_from(["boerenbridge", "bonken", "klaverjassen", "boonaken"]))
    pols = draw(st.lists(st.sampled_from(["heuristic", "random", "pimc"]), min_size=2,
                         max_size=3, unique=True))
    a = ["tournament", game, "--policies", fz(st.just(",".join(pols)), st.one_of(
        st.text(max_size=10), st.just("heuristic"), st.just("pimc,pimc")))]
    whole = game == "bonken" or (game != "boonaken" and draw(st.booleans()))
    if whole:
        a += ["--games", fz(st.just("1"), number(-2, 0))]
    else:
        a += ["--deals", fz(st.integers(1, 4).map(str), number(-2, 0))]
    # every game's options, valid where they apply, and now and then where they do not
    opts = {"boerenbridge": ["--players", "--hand-size", "--variant"],
            "bonken": ["--variant"], "klaverjassen": ["--variant"],
            "boonaken": ["--players", "--preset"]}[game]
    wrong = [o for o in ("--players", "--hand-size", "--preset", "--variant") if o not in opts]
    for o in opts:
        if draw(st.booleans()):
            valid = {"--players": st.integers(3 if game == "boerenbridge" else 2, 5).map(str),
                     "--hand-size": st.integers(1, 5).map(str),
                     "--preset": st.sampled_from(["seed", "pagat", "leimuiden"]),
                     "--variant": st.sampled_from({
                         "boerenbridge": ["scoring=hard", "bauer_bonus", "dealer_rule=off"],
                         "bonken": ["hearts_lead=after_broken", "fixed_order"],
                         "klaverjassen": ["amsterdam", "undertrump=forced"]}.get(game, ["x"]))}[o]
            if o == "--hand-size" and whole:
                continue
            a += [o, fz(valid, st.one_of(number(-2, 0), st.text(max_size=5)))]
    if wrong and draw(st.integers(0, 9)) < noise:
        a += [draw(st.sampled_from(wrong)), draw(st.sampled_from(["4", "seed", "foo", "3"]))]
    if draw(st.booleans()):
        a += ["--worlds", fz(st.integers(1, 2).map(str), number(-2, 0))]
    elif "pimc" in pols:
        a += ["--worlds", "1"]
    return a + seed_threads_json(draw, fz)


@FUZZ
@given(args=tournament_args())
def test_fuzz_tournament(args):
    code, out, _ = bounded(args)
    if code == 0 and "--json" in args:
        assert json.loads(out)["policies"]


# ---------------------------------------------------------------- hostile files

GAMES = ("boerenbridge", "bonken", "klaverjassen", "boonaken")
SMALL = {"boerenbridge": ["--hand-size", "3", "--deals", "60"],
         "bonken": ["--games", "1"],
         "klaverjassen": ["--deals", "40"],
         "boonaken": ["--deals", "40"]}


@pytest.fixture(scope="module")
def sound(tmp_path_factory):
    """One small results file per game, and one dataset folder (four parts) per game."""
    d = tmp_path_factory.mktemp("hostile_files")
    made = {}
    for g in GAMES:
        f, ds = d / f"{g}.parquet", d / f"{g}-ds"
        for out, extra in ((f, []), (ds, ["--chunk-deals", "12"])):
            code, _, err = invoke_cli("simulate", g, *SMALL[g], *extra, "--out", out)
            assert code == 0, err
        made[g] = (f, ds)
    return d, made


JSON_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=True), st.text(max_size=12))
JSON_ANY = st.recursive(JSON_SCALAR, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)),
    max_leaves=12)
HOSTILE_NAMES = st.sampled_from(["../..", "bonken_stats.os", "os", "5", "", "boerenbridge ",
                                 "BONKEN", "reports.bonken", "__init__", "/etc/passwd",
                                 "klaverjassen\x00", "boonaken/../bonken"] + list(GAMES))


@st.composite
def crafted_metadata(draw, meta):
    """The file's own troef metadata, changed: whole other JSON, deep nesting, a field of
    another type or value, a field gone, another game's name."""
    kind = draw(st.sampled_from(["any", "deep", "field", "drop", "game", "raw"]))
    if kind == "any":
        return json.dumps(draw(JSON_ANY)).encode()
    if kind == "deep":
        n = draw(st.sampled_from([50, 1000, 100_000]))
        o, c = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
        return (o * n + "1" + c * n).encode()
    if kind == "raw":
        return draw(st.binary(max_size=40))
    m = dict(meta)
    if kind == "field" and m:
        m[draw(st.sampled_from(sorted(m)))] = draw(JSON_ANY)
    elif kind == "drop" and m:
        m.pop(draw(st.sampled_from(sorted(m))))
    else:
        m["game"] = draw(HOSTILE_NAMES)
    return json.dumps(m).encode()


@st.composite
def damaged_bytes(draw, data, meta_of):
    """Bytes of a results file or part: random, truncated, bit-flipped, or with crafted
    troef metadata (``meta_of(raw)`` rewrites the metadata)."""
    kind = draw(st.sampled_from(["random", "truncate", "flip", "flip", "meta", "meta"]))
    if kind == "random":
        b = draw(st.binary(max_size=600))
        return (b"PAR1" + b + b"PAR1") if draw(st.booleans()) else b
    if kind == "truncate":
        return data[:draw(st.integers(0, len(data) - 1))]
    if kind == "flip":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            i = draw(st.integers(0, len(out) - 1))
            out[i] ^= 1 << draw(st.integers(0, 7))
        return bytes(out)
    return meta_of(draw)


def with_metadata(path, raw):
    import pyarrow.parquet as pq
    t = pq.read_table(path)
    meta = dict(t.schema.metadata)
    meta[b"troef"] = raw
    import pyarrow as pa
    sink = pa.BufferOutputStream()
    pq.write_table(t.replace_schema_metadata(meta), sink)
    return sink.getvalue().to_pybytes()


def troef_meta(path):
    import pyarrow.parquet as pq
    return json.loads(pq.read_schema(path).metadata[b"troef"])


@st.composite
def hostile_file_case(draw, sound):
    d, made = sound
    game = draw(st.sampled_from(GAMES))
    f, ds = made[game]
    k = next(_K)
    target = draw(st.sampled_from(["stats", "stats", "report", "resume", "stats-dir",
                                   "manifest"]))
    if target in ("stats", "report"):
        bad = d / f"bad{k}.parquet"
        bad.write_bytes(draw(damaged_bytes(f.read_bytes(), lambda dr: with_metadata(
            f, dr(crafted_metadata(troef_meta(f)))))))
        if target == "stats":
            extra = draw(st.sampled_from([[], [f], ["--json"], ["--stat", "exact"]]))
            return ["stats", bad, *extra]
        return ["report", draw(st.sampled_from([game, game, game, "bonken"])), "--from", bad,
                "--out", d / f"rep{k}"]
    copy = d / f"ds{k}"
    shutil.copytree(ds, copy)
    parts = sorted(p for p in copy.iterdir() if p.name.startswith("part-")
                   and p.suffix == ".parquet")
    if target == "manifest":
        m = copy / "_manifest.json"
        raw = m.read_bytes()
        m.write_bytes(draw(st.one_of(
            st.binary(max_size=60), st.just(raw[:len(raw) // 2]),
            st.just(b"[" * 100_000 + b"]" * 100_000),
            JSON_ANY.map(lambda v: json.dumps(v).encode()),
            st.just(json.dumps(dict(json.loads(raw), setup=draw(JSON_ANY))).encode()))))
    else:
        p = draw(st.sampled_from(parts))
        p.write_bytes(draw(damaged_bytes(p.read_bytes(), lambda dr: with_metadata(
            p, dr(crafted_metadata(troef_meta(p)))))))
        if draw(st.booleans()):       # its hash file gone or rewritten to match
            h = p.with_name("_" + p.name + ".sha256")
            if draw(st.booleans()):
                h.unlink()
            else:
                import hashlib
                rows = h.read_text().split()[1]
                h.write_text(f"{hashlib.sha256(p.read_bytes()).hexdigest()} {rows}\n")
    how = draw(st.sampled_from(["stats", "report", "resume"])) if target != "resume" \
        else "resume"
    if how == "stats":
        return ["stats", copy]
    if how == "report":
        return ["report", game, "--from", copy, "--out", d / f"rep{k}"]
    return ["simulate", game, *SMALL[game], "--chunk-deals", "12", "--out", copy, "--resume"]


@FUZZ
@given(data=st.data())
def test_fuzz_hostile_files(sound, data):
    bounded(data.draw(hostile_file_case(sound)))


# ---------------------------------------------------------------- report

@st.composite
def report_args(draw, tmp, sound):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    game = draw(st.sampled_from(GAMES))
    a = ["report", game, "--out", tmp / f"r{next(_K)}"]
    if draw(st.booleans()):
        src = draw(st.sampled_from(GAMES)) if draw(st.integers(0, 9)) < noise else game
        a += ["--from", sound[1][src][draw(st.integers(0, 1))]]
    else:
        a += ["--deals", fz(st.sampled_from(["100", "200"]), number(-2, 0))]
    for o, valid in (("--players", st.integers(2, 5).map(str)),
                     ("--preset", st.sampled_from(["seed", "pagat"])),
                     ("--policy", st.sampled_from(["heuristic", "random"])),
                     ("--variant", st.sampled_from(["amsterdam", "scoring=hard", "fixed_order"])),
                     ("--seed", st.integers(0, 3).map(str)),
                     ("--threads", st.integers(1, 2).map(str))):
        if draw(st.integers(0, 9)) < 1 + noise:
            a += [o, fz(valid, st.one_of(number(-2, 0), st.text(max_size=4)))]
    return a


@FEW
@given(data=st.data())
def test_fuzz_report(tmp, sound, data):
    bounded(data.draw(report_args(tmp, sound)))


# ---------------------------------------------------------------- the bigger profile

@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_fuzz_hostile_files_slow(sound, data):
    bounded(data.draw(hostile_file_case(sound)))


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_fuzz_every_command_slow(tmp, data):
    which = data.draw(st.sampled_from(["play", "simulate", "tournament"]))
    strategy = {"play": play_args(), "simulate": simulate_args(tmp),
                "tournament": tournament_args()}[which]
    bounded(data.draw(strategy))

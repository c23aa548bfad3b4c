"""Property-based fuzzing of the commands of Bonken, Klaverjassen and Boonaken, the
tournaments and the reports: whatever the arguments, exit 0, or exit 2 with one
``troef: error:`` line — never a traceback (the harness is tests/test_fuzz.py's)."""
import os

from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as st

from test_fuzz import BAD_CARD, DERANDOMIZE, SEPS, check, fuzzy, number

FUZZ = settings(max_examples=int(os.environ.get("TROEF_FUZZ_EXAMPLES", "40")), deadline=None,
                database=None, derandomize=DERANDOMIZE, suppress_health_check=list(HealthCheck))

DECK32 = [r + s for s in "SHDC" for r in "789TJQKA"]
DECK52 = [r + s for s in "SHDC" for r in "23456789TJQKA"]
SUITS = st.sampled_from(["S", "H", "D", "C", "h", "♠"])
BAD_SUIT = st.one_of(st.sampled_from(["", "X", "R", "none", "SH"]), st.text(max_size=3))


def cards(draw, deck, k, noise):
    toks = draw(st.permutations(deck))[:k]
    if toks and draw(st.integers(0, 9)) < noise:
        i = draw(st.integers(0, len(toks) - 1))
        toks[i] = draw(st.one_of(BAD_CARD, st.just(toks[0]), st.just("2S")))
    if draw(st.integers(0, 9)) < noise:
        toks = toks[: max(0, len(toks) - draw(st.integers(1, 2)))] + (
            ["AS", "KS"] if draw(st.booleans()) else [])
    return draw(SEPS).join(toks)


@st.composite
def game_args(draw):
    noise = draw(st.integers(0, 3))
    fz = lambda valid, invalid: fuzzy(draw, noise, valid, invalid)  # noqa: E731
    kind = draw(st.sampled_from(["sim-bonken", "sim-klaver", "sim-boonaken", "contract",
                                 "trump", "solve", "explain", "bid-boonaken", "tournament"]))
    seed = ["--seed", fz(st.integers(0, 9).map(str), number(-3, -1))]
    if kind == "sim-bonken":
        a = ["simulate", "bonken"]
        if draw(st.booleans()):
            a += ["--contract", fz(st.sampled_from(["domino", "no-kh", "spades", "nt"]),
                                   st.text(max_size=8)),
                  "--deals", fz(st.integers(1, 30).map(str), number(-2, 0))]
        else:
            a += ["--games", fz(st.integers(1, 3).map(str), number(-2, 0))]
        a += ["--variant", fz(st.sampled_from(["hearts_lead=after_broken", "fixed_order"]),
                              st.text(max_size=10))]
        a += ["--policy", fz(st.sampled_from(["heuristic", "random"]), st.text(max_size=5))]
    elif kind == "sim-klaver":
        a = ["simulate", "klaverjassen", "--deals", fz(st.integers(1, 50).map(str), number(-2, 0))]
        if draw(st.booleans()):
            a += ["--trump", fz(SUITS, BAD_SUIT), "--playing-team",
                  fz(st.sampled_from(["0", "1"]), number(-1, 5))]
        a += ["--variant", fz(st.sampled_from(["amsterdam", "undertrump=forced",
                                               "four_of_a_kind=all_100"]), st.text(max_size=10))]
    elif kind == "sim-boonaken":
        a = ["simulate", "boonaken", "--players", fz(st.integers(2, 5).map(str), number(-1, 9)),
             "--preset", fz(st.sampled_from(["seed", "pagat", "leimuiden"]), st.text(max_size=6))]
        a += (["--matches", fz(st.integers(1, 5).map(str), number(-2, 0))] if draw(st.booleans())
              else ["--deals", fz(st.integers(1, 40).map(str), number(-2, 0))])
    elif kind == "contract":
        a = ["contract", "bonken", "--hand", cards(draw, DECK52, 13, noise),
             "--samples", fz(st.integers(1, 20).map(str), number(-2, 0))]
        if draw(st.booleans()):
            a += ["--available", fz(st.sampled_from(["ducking,domino", "spades", "no-last,nt"]),
                                    st.text(max_size=12))]
    elif kind == "trump":
        pos = draw(st.integers(0, 3))
        a = ["trump", "klaverjassen", "--hand", cards(draw, DECK32, 8, noise),
             "--position", fz(st.just(str(pos)), number(-2, 9)),
             "--samples", fz(st.integers(1, 40).map(str), number(-2, 0))]
        if draw(st.booleans()):
            a += ["--passes", fz(st.just("4" if pos == 0 else str(pos)), number(-2, 9))]
    elif kind == "solve":
        k = draw(st.integers(1, 3))
        hands = draw(st.permutations(DECK32))[:4 * k]
        parts = [" ".join(hands[i * k:(i + 1) * k]) for i in range(4)]
        if draw(st.integers(0, 9)) < noise:
            parts[draw(st.integers(0, 3))] = draw(st.one_of(BAD_CARD, st.just(parts[0])))
        a = ["solve", "klaverjassen", "--hands", " / ".join(parts), "--trump", fz(SUITS, BAD_SUIT),
             "--leader", fz(st.integers(0, 3).map(str), number(-2, 9))]
        if draw(st.integers(0, 9)) < noise:
            a += ["--trick", draw(st.one_of(BAD_CARD, st.just(hands[0])))]
        if draw(st.booleans()):
            a += ["--cards"]
    elif kind == "explain":
        a = ["explain", "klaverjassen", "--trump", fz(SUITS, BAD_SUIT)]
        if draw(st.booleans()):
            a += ["--trick", cards(draw, DECK32, 4, noise)]
        else:
            a += ["--trick", cards(draw, DECK32, draw(st.integers(0, 3)), noise),
                  "--hand", cards(draw, DECK32, draw(st.integers(1, 8)), noise)]
    elif kind == "bid-boonaken":
        toks = draw(st.permutations(DECK32))
        a = ["bid", "boonaken", "--players", fz(st.integers(2, 5).map(str), number(-1, 9)),
             "--hand", " ".join(toks[:6]) if draw(st.integers(0, 9)) >= noise else
             cards(draw, DECK32, 6, noise),
             "--open", fz(st.just(" ".join(toks[6:8])), st.one_of(BAD_CARD, st.just(toks[0]))),
             "--samples", fz(st.integers(1, 20).map(str), number(-2, 0))]
    else:
        a = ["tournament", draw(st.sampled_from(["boerenbridge", "bonken", "klaverjassen",
                                                 "boonaken", "chess"])),
             "--policies", fz(st.sampled_from(["heuristic,random", "random,heuristic"]),
                              st.one_of(st.text(max_size=10), st.just("heuristic")))]
        if draw(st.booleans()):
            a += ["--deals", fz(st.integers(1, 6).map(str), number(-2, 0))]
        else:
            a += ["--games", fz(st.integers(1, 2).map(str), number(-2, 0))]
    if draw(st.booleans()):
        a += seed
    if draw(st.booleans()):
        a += ["--json"]
    return a


@FUZZ
@given(args=game_args())
def test_fuzz_game_commands(args):
    code, out, err = check(args)
    if code == 0 and "--json" in args:
        assert out.lstrip().startswith("{")

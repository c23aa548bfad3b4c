"""Policies of your own (analyzer/agents.py): a Python function wrapping a built-in policy
reproduces the kernels' results exactly (tournaments and simulate, every phase: bids,
calls, contract choice, play), the state handed to it holds no hidden card, bad files,
missing functions and illegal actions are one-line errors (exit 2), and user randomness
is reproducible from the seed whatever the chunking."""
import dataclasses
import json
import textwrap

import numpy as np
import pytest

from analyzer import agents, games as registry
from analyzer.tournament import tournament
from conftest import ROOT, invoke_cli

WRAP = textwrap.dedent("""
    def heuristic(state):
        return state.decide("heuristic")

    def random(state):
        return state.decide("random")

    def pimc(state):
        return state.decide("pimc")

    SEEN = []

    def record(state):
        SEEN.append(state)
        return state.decide("heuristic")

    def dice(state):
        legal = state.legal_actions()
        return legal[int(state.rng.integers(len(legal)))]

    def illegal_card(state):
        return 99 if state.phase == "play" else state.decide()

    def illegal_bid(state):
        return -3

    def boom(state):
        raise KeyError("oops")

    def as_text(state):
        from fastsim.cards import card_str
        c = state.decide()
        return card_str(c) if state.phase == "play" else c

    NOT_A_FUNCTION = 3
""")


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    p = tmp_path_factory.mktemp("pol") / "wrapbot.py"
    p.write_text(WRAP)
    return str(p)


def same_result(a, b):
    for part in ("deals", "games", "play"):
        x, y = getattr(a, part, None), getattr(b, part, None)
        assert (x is None) == (y is None), part
        for k in (x or {}):
            assert np.array_equal(x[k], y[k]), (part, k)


def run_both(game, setup, n, seed, builtin, user, start=3, worlds=3, record=False):
    e = registry.get(game)
    a = e.simulate(setup, n, seed=seed, policies=e.parse_policies(setup, "heuristic", builtin),
                   start=start, worlds=worlds, record=record)
    pu = e.parse_policies(setup, "heuristic", user)
    assert agents.has_user(pu)
    b = e.simulate(setup, n, seed=seed, policies=pu, start=start, worlds=worlds, record=record)
    return e, a, b


# ---------------------------------------------------------------- exact reproduction

def test_boerenbridge_simulate_equals_kernel_bids_and_play(bot):
    e = registry.get("boerenbridge")
    setup = e.make_setup("deal", players=4, hand_size=6)
    _, a, b = run_both("boerenbridge", setup, 60, 11, ["1=random", "2=pimc"],
                       [f"1={bot}:random", f"2={bot}:pimc", f"3={bot}:heuristic"], record=True)
    same_result(a, b)
    assert e.policy_names(b.policies) == ["heuristic", f"{bot}:random", f"{bot}:pimc",
                                          f"{bot}:heuristic"]
    # the tidy frame: same columns and values, the policy column names the user's seats
    ta, tb = e.tidy(a), e.tidy(b)
    assert list(ta.columns) == list(tb.columns)
    for col in ta.columns:
        if col != "policy":
            assert ta[col].equals(tb[col]), col
    assert list(tb["policy"][:4]) == e.policy_names(b.policies)
    assert e.partials(a) == e.partials(b)


@pytest.mark.parametrize("variants", [("scoring=hard", "bauer_bonus"),
                                      ("no_trump_rounds=ones", "dealer_rule=off"),
                                      ("blind_one_card",)])
def test_boerenbridge_whole_games_every_variant(bot, variants):
    e = registry.get("boerenbridge")
    setup = e.make_setup("game", players=5, schedule="1,2,3,2", variant=variants)
    # a policy cannot ask pimc for a blind bid (the simulator's looks at the card), so the
    # blind variant wraps the heuristic; the built-in pimc seat still bids as the engine
    user = ([f"0={bot}:random", f"1={bot}:heuristic", "2=pimc"] if "blind_one_card" in variants
            else [f"0={bot}:random", f"1={bot}:pimc", "2=pimc"])
    _, a, b = run_both("boerenbridge", setup, 6, 13, ["0=random", "1=" + (
        "heuristic" if "blind_one_card" in variants else "pimc"), "2=pimc"], user, record=True)
    same_result(a, b)


def test_klaverjassen_deals_and_boompjes_equal_kernel(bot):
    e = registry.get("klaverjassen")
    for setup, n in ((e.make_setup("deal"), 60),
                     (e.make_setup("deal", trump="H", playing_team=1, variant=("amsterdam",)), 30),
                     (e.make_setup("boompje", dealer=2, variant=("undertrump=forced",)), 2)):
        _, a, b = run_both("klaverjassen", setup, n, 14, ["1=random", "2=pimc"],
                           [f"1={bot}:random", f"2={bot}:pimc", f"3={bot}:heuristic"])
        same_result(a, b)
        assert e.partials(a) == e.partials(b)
        assert len(e.tidy(a)) == len(e.tidy(b)) and f"{bot}:pimc" in set(e.tidy(b)["policy"])


def test_bonken_games_and_domino_equal_kernel(bot):
    e = registry.get("bonken")
    for setup, n in ((e.make_setup("game"), 2), (e.make_setup("deal", contract="domino"), 20)):
        _, a, b = run_both("bonken", setup, n, 16, ["1=random", "2=pimc"],
                           [f"1={bot}:random", f"2={bot}:pimc", f"0={bot}:heuristic"])
        same_result(a, b)
        assert e.partials(a) == e.partials(b)
        assert len(e.tidy(a)) == len(e.tidy(b)) and f"{bot}:pimc" in set(e.tidy(b)["policy"])


@pytest.mark.parametrize("game,kw", [("boerenbridge", {"n": 60, "hand_size": 5}),
                                     ("klaverjassen", {"n": 40}),
                                     ("bonken", {"n": 2, "whole_games": True})])
def test_wrapped_builtins_reproduce_tournament(bot, game, kw):
    a = tournament(game, "heuristic,random", seed=5, **kw)
    b = tournament(game, f"{bot}:heuristic,{bot}:random", seed=5, **kw)
    for x, y in zip(a["policies"], b["policies"]):
        assert (x["mean_score"], x["ci"]) == (y["mean_score"], y["ci"])
    assert [(d["difference"], d["ci"]) for d in a["pairs"]] == \
        [(d["difference"], d["ci"]) for d in b["pairs"]]
    assert b["policies"][0]["policy"] == f"{bot}:heuristic"


def test_wrapped_pimc_reproduces_small_tournament(bot):
    kw = dict(n=12, hand_size=4, worlds=2, seed=8)
    a = tournament("boerenbridge", "pimc,heuristic", **kw)
    b = tournament("boerenbridge", f"{bot}:pimc,heuristic", **kw)
    assert [p["mean_score"] for p in a["policies"]] == [p["mean_score"] for p in b["policies"]]
    assert a["pairs"][0]["difference"] == b["pairs"][0]["difference"]
    assert a["worlds"] == b["worlds"] == 2     # a policy of your own may ask pimc too


# ---------------------------------------------------------------- what the policy sees

def _reachable(obj, seen=None):
    """Every object reachable from ``obj`` through slots, attributes, dataclass fields
    and containers."""
    seen = {} if seen is None else seen
    if id(obj) in seen or isinstance(obj, (str, bytes, float, bool, type(None))):
        return seen
    seen[id(obj)] = obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            _reachable(k, seen)
            _reachable(v, seen)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for v in obj:
            _reachable(v, seen)
    elif isinstance(obj, np.ndarray):
        for v in obj.ravel().tolist():
            _reachable(v, seen)
    elif not isinstance(obj, (int, np.integer)):
        names = [n for c in type(obj).__mro__ for n in getattr(c, "__slots__", ())]
        names += list(getattr(obj, "__dict__", {}))
        if dataclasses.is_dataclass(obj):
            names += [f.name for f in dataclasses.fields(obj)]
        for n in names:
            if n == "forbid":     # cards a player is known NOT to hold: public deductions
                continue
            try:
                _reachable(object.__getattribute__(obj, n), seen)
            except AttributeError:
                pass
    return seen


@pytest.mark.parametrize("game", ["boerenbridge", "klaverjassen", "bonken"])
def test_state_holds_no_hidden_card(bot, game):
    import importlib.util
    spec = importlib.util.spec_from_file_location("wrapbot_probe_" + game, bot)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    probe = f"{bot}:record"
    mod.SEEN.clear()
    agents._LOADED[probe] = mod.record          # the probe's own module: SEEN is ours
    e = registry.get(game)
    setup = (e.make_setup("deal", hand_size=5) if game == "boerenbridge" else
             e.make_setup("game") if game == "bonken" else e.make_setup("deal"))
    n = 1 if game == "bonken" else 4
    res = e.simulate(setup, n, seed=2, policies=e.parse_policies(setup, "heuristic",
                                                                  [f"2={probe}"]))
    from analyzer.infostate import Deal
    phases = set()
    for st in mod.SEEN:
        phases.add(st.phase)
        assert isinstance(st, agents.PolicyState)
        assert st.legal_actions() and st.decide() in st.legal_actions()
        objs = _reachable(st).values()
        assert not any(isinstance(o, Deal) for o in objs)
        # every hand of the others as dealt: no reachable mask holds a card of theirs
        # that this player has not seen played
        r = int(np.flatnonzero(res.deals["deal"] == st.deal)[0])
        dealer = int(res.deals["dealer"][r])
        seat = (dealer + 1 + st.position) % (res.deals["hands"].shape[1])
        seen_cards = int(st.hand) | int(getattr(st.info, "played", 0)) | (
            1 << st.turned if game == "boerenbridge" else 0)
        hidden = 0
        for s in range(res.deals["hands"].shape[1]):
            if s != seat:
                hidden |= int(res.deals["hands"][r, s])
        hidden &= ~seen_cards
        for o in objs:
            # masks with a card beyond the spades (smaller ints are counts, codes, bids,
            # suit bits and contract sets)
            if isinstance(o, (int, np.integer)) and not isinstance(o, bool) and int(o) >= 1 << 13:
                assert not int(o) & hidden, (st, o)
    want = {"boerenbridge": {"bid", "play"}, "klaverjassen": {"play"},
            "bonken": {"contract", "play"}}[game]
    assert want <= phases
    del agents._LOADED[probe]


# ---------------------------------------------------------------- reproducibility

def test_user_randomness_is_keyed_by_seed_deal_decision(bot):
    e = registry.get("boerenbridge")
    setup = e.make_setup("deal", hand_size=6)
    pol = e.parse_policies(setup, f"{bot}:dice")
    whole = e.simulate(setup, 20, seed=9, policies=pol)
    again = e.simulate(setup, 20, seed=9, policies=pol)
    same_result(whole, again)
    parts = [e.simulate(setup, c, seed=9, policies=pol, start=s) for s, c in ((0, 7), (7, 13))]
    joined = e.concat(parts)
    same_result(whole, joined)
    other = e.simulate(setup, 20, seed=10, policies=pol)
    assert not np.array_equal(whole.deals["bids"], other.deals["bids"])


# ---------------------------------------------------------------- errors

def one_line_exit2(*args):
    code, out, err = invoke_cli(*args)
    assert code == 2, (code, out, err)
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_illegal_actions_name_state_and_action(bot):
    line = one_line_exit2("tournament", "boerenbridge", "--policies",
                          f"heuristic,{bot}:illegal_card", "--deals", 3)
    assert "chose 99" in line and "BoerenbridgeInfoState(position=" in line and "legal:" in line
    line = one_line_exit2("simulate", "boerenbridge", "--hand-size", 4, "--deals", 3,
                          "--seat-policy", f"1={bot}:illegal_bid")
    assert "chose -3" in line and "BoerenbridgeBidState(position=" in line
    line = one_line_exit2("simulate", "klaverjassen", "--deals", 3, "--policy",
                          f"{bot}:illegal_card")
    assert "chose 99" in line and "KlaverjassenInfoState(" in line
    line = one_line_exit2("simulate", "bonken", "--games", 1, "--policy", f"{bot}:boom")
    assert "raised KeyError" in line and "BonkenContractState(" in line


def test_bad_files_and_names_are_one_line(bot, tmp_path):
    (tmp_path / "syntax.py").write_text("def f(:\n")
    (tmp_path / "imports.py").write_text("import no_such_module_troef\n")
    cases = [(f"{bot}:no_such", "defines no 'no_such'"),
             (f"{bot}:NOT_A_FUNCTION", "not callable"),
             (f"{tmp_path}/syntax.py:f", "failed to import: SyntaxError"),
             (f"{tmp_path}/imports.py:f", "failed to import: ModuleNotFoundError"),
             (f"{tmp_path}/missing.py:f", "no such file"),
             (bot, "PATH.py:FUNCTION")]
    for spec, text in cases:
        assert text in one_line_exit2("tournament", "boerenbridge", "--policies",
                                      f"heuristic,{spec}", "--deals", 2)
    assert text in one_line_exit2("simulate", "boerenbridge", "--hand-size", 3, "--deals", 2,
                                  "--policy", bot)


def test_boonaken_refuses_in_one_line(bot):
    assert "not supported" in one_line_exit2("tournament", "boonaken", "--policies",
                                             f"heuristic,{bot}:heuristic")
    assert "not supported" in one_line_exit2("simulate", "boonaken", "--deals", 2,
                                             "--seat-policy", f"0={bot}:heuristic")


def test_cli_simulate_json_and_example_runs(bot):
    base = ["simulate", "boerenbridge", "--hand-size", 5, "--deals", 40, "--seed", 4, "--json"]
    code, out_a, _ = invoke_cli(*base, "--seat-policy", "1=random")
    code_b, out_b, _ = invoke_cli(*base, "--seat-policy", f"1={bot}:random")
    assert code in (None, 0) and code_b in (None, 0)
    a, b = json.loads(out_a), json.loads(out_b)
    assert a["positions"] == b["positions"]
    assert b["policies"] == ["heuristic", f"{bot}:random", "heuristic", "heuristic"]
    # the example in examples/ runs as the docs show it
    ex = str(ROOT / "examples" / "mybot.py")
    code, out, err = invoke_cli("tournament", "boerenbridge", "--policies",
                                f"heuristic,{ex}:choose,{ex}:noisy", "--deals", 20, "--json")
    assert code in (None, 0), err
    assert [p["policy"] for p in json.loads(out)["policies"]] == ["heuristic", f"{ex}:choose",
                                                                  f"{ex}:noisy"]

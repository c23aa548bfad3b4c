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

    def strong(state):
        return state.decide("strong")

    def bo_text(state):
        # Boonaken's other action forms: words for bids, a card string for the cards
        # kept, a suit letter (None: not named) for trump, card strings for the play
        from fastsim.boonaken_schema import LADDER
        from fastsim.cards import SUITS, card_str
        a = state.decide()
        if state.phase == "bid":
            return "pass" if a < 0 else str(LADDER[a])
        if state.phase == "exchange":
            return " ".join(card_str(c) for c in range(64) if a >> c & 1)
        if state.phase == "trump":
            return None if a < 0 else SUITS[a]
        return card_str(a)

    def keep_five(state):
        return state.hand & (state.hand - 1) if state.phase == "exchange" else state.decide()

    def trump_seven(state):
        return 7 if state.phase == "trump" else state.decide()

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


BO_SHAPES = [("seed", 4), ("seed", 2), ("pagat", 3), ("pagat", 5), ("leimuiden", 4),
             ("leimuiden", 2)]


def same_boonaken(a, b):
    """Boonaken results equal in every array; in a deal where everyone passed only in the
    fields the engine defines for it (the kernel leaves the contract fields and the misère
    players of such a deal as the previous deal of its chunk left them)."""
    from fastsim import boonaken_nb as bnb
    void = a.deals["info"][:, bnb.I_VOID] == 1
    assert np.array_equal(void, b.deals["info"][:, bnb.I_VOID] == 1)
    defined = [bnb.I_VOID, bnb.I_NAUCTION, bnb.I_OPEN, bnb.I_BLIND, bnb.I_STOCK, bnb.I_SLEEP]
    for k in a.deals:
        x, y = a.deals[k], b.deals[k]
        if k == "info":
            assert np.array_equal(x[void][:, defined], y[void][:, defined]), k
        if k in ("info", "misere"):
            x, y = x[~void], y[~void]
        assert np.array_equal(x, y), k
    assert (a.play is None) == (b.play is None)
    for k in (a.play or {}):
        assert np.array_equal(a.play[k], b.play[k]), ("play", k)
    return int((~void).sum())


@pytest.mark.parametrize("preset,n", BO_SHAPES)
def test_boonaken_simulate_equals_kernel(bot, preset, n):
    """Every decision (auction, exchange, trump, cards) of wrapped heuristic and random
    seats as the kernel's, the recorded play included; whole matches too."""
    e = registry.get("boonaken")
    setup = e.make_setup("deal", players=n, preset=preset, dealer=n - 1)
    _, a, b = run_both("boonaken", setup, 40, 17, ["0=random"],
                       [f"0={bot}:random", f"1={bot}:heuristic"], record=True)
    played = same_boonaken(a, b)
    assert played >= 20
    assert e.partials(a) == e.partials(b)
    ta, tb = e.tidy(a), e.tidy(b)
    assert list(ta.columns) == list(tb.columns) and len(ta) == len(tb)
    assert f"{bot}:heuristic" in set(tb["policy"])
    m = e.make_setup("match", players=n, preset=preset)
    _, a, b = run_both("boonaken", m, 3, 17, ["0=random"],
                       [f"0={bot}:random", f"1={bot}:heuristic"])
    for k in a.matches:
        assert np.array_equal(a.matches[k], b.matches[k]), k
    assert len(e.tidy(b)) == 3 * n


def test_boonaken_every_contract_and_trump_choice_equals_kernel(bot):
    """Misère (alone, joined; leimuiden's alone names trump), zwabber, boonaak and a trump
    left unnamed: deals of each kind (found by the kernel) replayed through the driver
    with wrapped seats equal the kernel's."""
    from fastsim import boonaken_nb as bnb
    e = registry.get("boonaken")
    kinds = set()
    for preset, n, builtin in (("seed", 3, ["0=random", "1=random"]),
                               ("leimuiden", 4, ["0=random"]), ("pagat", 4, ["2=random"])):
        setup = e.make_setup("deal", players=n, preset=preset)
        pol = e.parse_policies(setup, "heuristic", builtin)
        info = e.simulate(setup, 3000, seed=1, policies=pol).deals["info"]
        c, nmis = info[:, bnb.I_CONTRACT], info[:, bnb.I_NMIS]
        ok = info[:, bnb.I_VOID] == 0
        user = [f"{it.partition('=')[0]}={bot}:random" for it in builtin] + [
            f"{s}={bot}:heuristic" for s in range(n) if all(not it.startswith(f"{s}=")
                                                          for it in builtin)]
        for kind, m in ((f"misere alone, {preset}", (c == 1) & (nmis == 1)),
                        ("misere joined", (c == 1) & (nmis > 1)), ("zwabber", c == 2),
                        ("boonaak", c == 3), ("unnamed trump", info[:, bnb.I_NAMED] == 0)):
            for i in np.flatnonzero(ok & m)[:2]:
                _, a, b = run_both("boonaken", setup, 1, 1, builtin, user, start=int(i),
                                   record=True)
                same_boonaken(a, b)
                kinds.add(kind)
    assert kinds == {"misere alone, seed", "misere alone, leimuiden", "misere alone, pagat",
                     "misere joined", "zwabber", "boonaak", "unnamed trump"}, kinds


def test_boonaken_wrapped_pimc_and_strong_equal_kernel(bot):
    """Seed preset: wrapped pimc and strong seats play every card as the kernel's."""
    e = registry.get("boonaken")
    for n in (3, 4):
        setup = e.make_setup("deal", players=n)
        _, a, b = run_both("boonaken", setup, 20, 6, ["0=pimc", "1=strong", "2=random"],
                           [f"0={bot}:pimc", f"1={bot}:strong", f"2={bot}:random"],
                           worlds=2, record=True)
        same_boonaken(a, b)


def test_boonaken_pimc_of_a_declarer_equals_kernel_and_defenders_cannot_ask():
    """pagat / leimuiden: the simulator's pimc defender is told which table cards the
    declarer kept, so a policy's state (which does not hold them) refuses pimc for a
    defender; for the declarer it is the simulator's pimc card for card."""
    from analyzer.boonaken_agents import BoonakenPlayView
    from analyzer.boonaken_play import positions_from_record
    from analyzer.records import boonaken_records
    from fastsim import boonaken as bo
    from fastsim.common import RulesError
    asked = refused = 0
    for preset in ("pagat", "leimuiden"):
        rules = bo.build_rules(4, preset)
        res = bo.simulate(rules, 12, seed=3, policies=bo.parse_seat_policies(4, "pimc"),
                          record=True, worlds=2)
        for i, rec in enumerate(boonaken_records(res)):
            if rec["void"]:
                continue
            for st, card in positions_from_record(rec):
                v = BoonakenPlayView.of(st)
                if st.position == st.decl:
                    assert v.decide("pimc", seed=3, deal=i, worlds=2) == card
                    asked += 1
                else:
                    with pytest.raises(RulesError, match="cannot ask"):
                        v.decide("pimc", seed=3, deal=i, worlds=2)
                    assert v.decide("heuristic") == st.decide("heuristic")
                    refused += 1
    assert asked > 30 and refused > 90


def test_boonaken_action_forms(bot):
    """Words for bids, card strings for the cards kept and played, suit letters (None:
    not named) for trump: the same deals as the numbers."""
    e = registry.get("boonaken")
    for preset in ("seed", "leimuiden"):
        setup = e.make_setup("deal", players=3, preset=preset)
        _, a, b = run_both("boonaken", setup, 40, 2, ["1=random"],
                           [f"0={bot}:bo_text", f"1={bot}:random", f"2={bot}:bo_text"])
        same_boonaken(a, b)


@pytest.mark.parametrize("game,kw", [("boerenbridge", {"n": 60, "hand_size": 5}),
                                     ("klaverjassen", {"n": 40}),
                                     ("bonken", {"n": 2, "whole_games": True}),
                                     ("boonaken", {"n": 40}),
                                     ("boonaken", {"n": 30, "players": 3, "preset": "pagat"}),
                                     ("boonaken", {"n": 30, "players": 5,
                                                   "preset": "leimuiden"})])
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

def _reachable(obj, seen=None, skip=()):
    """Every object reachable from ``obj`` through slots, attributes, dataclass fields
    and containers (not through the attributes named in ``skip``)."""
    seen = {} if seen is None else seen
    if id(obj) in seen or isinstance(obj, (str, bytes, float, bool, type(None))):
        return seen
    seen[id(obj)] = obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            _reachable(k, seen, skip)
            _reachable(v, seen, skip)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for v in obj:
            _reachable(v, seen, skip)
    elif isinstance(obj, np.ndarray):
        for v in obj.ravel().tolist():
            _reachable(v, seen, skip)
    elif not isinstance(obj, (int, np.integer)):
        names = [n for c in type(obj).__mro__ for n in getattr(c, "__slots__", ())]
        names += list(getattr(obj, "__dict__", {}))
        if dataclasses.is_dataclass(obj):
            names += [f.name for f in dataclasses.fields(obj)]
        for n in names:
            if n == "forbid" or n in skip:     # cards known NOT held: public deductions
                continue
            try:
                _reachable(object.__getattribute__(obj, n), seen, skip)
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


@pytest.mark.parametrize("preset,n", [("seed", 4), ("pagat", 3), ("leimuiden", 4)])
def test_boonaken_state_holds_only_what_the_player_sees(bot, preset, n):
    """Every state a Boonaken policy gets (auction, exchange, trump, cards): no reachable
    card mask holds a card its player has not seen — the other hands, the blind and the
    stock (or the sleeping cards), the declarer's discards, cards still to be drawn —
    computed from the kernel's record of the same deals."""
    import importlib.util
    from analyzer.infostate import Deal
    from fastsim import boonaken_nb as bnb
    from fastsim.boonaken_schema import table_layout
    spec = importlib.util.spec_from_file_location(f"wrapbot_bo_{preset}", bot)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    probe = f"{bot}:record"
    agents._LOADED[probe] = mod.record
    e = registry.get("boonaken")
    setup = e.make_setup("deal", players=n, preset=preset)
    deals = 12
    try:
        res = e.simulate(setup, deals, seed=2, policies=e.parse_policies(setup, probe),
                         record=True)
    finally:
        del agents._LOADED[probe]
    kernel = e.simulate(setup, deals, seed=2, policies=e.parse_policies(setup, "heuristic"),
                        record=True)
    same_boonaken(kernel, res)                 # the probe is the heuristic
    full = sum(1 << (16 * s + r) for s in range(4) for r in range(5, 13))
    o, b = table_layout(setup.rules.preset_id, n)
    phases = set()
    for st in mod.SEEN:
        phases.add(st.phase)
        assert st.game == "boonaken" and st.legal_actions() and st.decide() in st.legal_actions()
        i = st.deal
        info, play = res.deals["info"][i], res.play
        p = st.position
        seat = (setup.rules.first_dealer + 1 + p) % n
        seen = int(res.deals["hands"][i, seat]) | int(info[bnb.I_OPEN])
        if st.phase != "bid" and preset != "seed" and p == int(info[bnb.I_DECL]):
            seen |= int(info[bnb.I_BLIND])       # the declarer picks the blind up
        if st.phase == "play":
            assert st.info.stock is None
            t, j = len(st.tricks), len(st.current)
            for tt in range(t + 1):
                for jj in range(n if tt < t else j):
                    seen |= 1 << int(play["cards"][i, tt, jj])
                if tt < t and play["draws"][i, tt, 0] >= 0:    # my draw after trick tt
                    leader = int(play["leader"][i, tt])
                    seen |= 1 << int(play["draws"][i, tt, (p - leader) % n])
        hidden = full & ~seen
        assert hidden, st
        objs = _reachable(st, skip=("vlog",)).values()    # vlog: cards NOT held
        assert not any(isinstance(o_, Deal) for o_ in objs)
        for o_ in objs:
            if isinstance(o_, (int, np.integer)) and not isinstance(o_, bool) \
                    and int(o_) >= 1 << 13:
                assert not int(o_) & hidden, (st, o_)
    assert phases == {"bid", "exchange", "trump", "play"}


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


def test_boonaken_illegal_actions_and_errors_are_one_line(bot, tmp_path):
    line = one_line_exit2("tournament", "boonaken", "--policies",
                          f"heuristic,{bot}:illegal_bid", "--deals", 3)
    assert "chose -3" in line and "BoonakenBidState(position=" in line and "pass" in line
    line = one_line_exit2("simulate", "boonaken", "--deals", 5, "--policy", f"{bot}:keep_five")
    assert "BoonakenExchangeState(position=" in line and "legal: any 6 of" in line
    line = one_line_exit2("simulate", "boonaken", "--deals", 10, "--preset", "pagat",
                          "--policy", f"{bot}:trump_seven")
    assert "chose 7" in line and "BoonakenTrumpState(" in line
    line = one_line_exit2("simulate", "boonaken", "--deals", 3, "--players", 3,
                          "--seat-policy", f"1={bot}:illegal_card")
    # seat 1 is position 0 (left of the dealer)
    assert "chose 99" in line and "BoonakenInfoState(position=0" in line
    line = one_line_exit2("tournament", "boonaken", "--policies", f"heuristic,{bot}:boom",
                          "--deals", 2)
    assert "raised KeyError" in line and "BoonakenBidState(" in line
    # a defender cannot ask for the simulator's pimc in pagat (it is told the kept cards)
    line = one_line_exit2("simulate", "boonaken", "--deals", 3, "--preset", "pagat",
                          "--policy", f"{bot}:pimc")
    assert "raised RulesError" in line and "cannot ask" in line
    line = one_line_exit2("simulate", "boonaken", "--matches", 1, "--record-play", tmp_path / "x.jsonl",
                          "--policy", f"{bot}:heuristic")
    assert "single deals" in line


def test_boonaken_user_randomness_is_keyed_and_cli_runs(bot):
    e = registry.get("boonaken")
    setup = e.make_setup("deal", players=3, preset="leimuiden")
    pol = e.parse_policies(setup, f"{bot}:dice")
    whole = e.simulate(setup, 20, seed=9, policies=pol)
    joined = e.concat([e.simulate(setup, c, seed=9, policies=pol, start=s)
                       for s, c in ((0, 7), (7, 13))])
    same_result(whole, joined)
    other = e.simulate(setup, 20, seed=10, policies=pol)
    assert not np.array_equal(whole.deals["result"], other.deals["result"])
    code, out, err = invoke_cli("simulate", "boonaken", "--deals", 30, "--seed", 4, "--json",
                                "--seat-policy", f"2={bot}:dice")
    assert code in (None, 0), err
    assert json.loads(out)["policies"] == ["heuristic", "heuristic", f"{bot}:dice",
                                           "heuristic"]


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


def test_sys_exit_in_a_policy_is_one_line_never_a_silent_exit(tmp_path):
    # sys.exit(0) in a policy (or its file) ended troef with exit 0 and no output at all;
    # sys.exit(2) with exit 2 and no message
    (tmp_path / "quits.py").write_text("import sys\n"
                                       "def zero(state):\n    sys.exit(0)\n"
                                       "def two(state):\n    sys.exit(2)\n")
    (tmp_path / "quits_on_import.py").write_text("raise SystemExit(3)\n")
    q = tmp_path / "quits.py"
    assert "raised SystemExit: 0 at BoerenbridgeBidState(" in one_line_exit2(
        "tournament", "boerenbridge", "--policies", f"heuristic,{q}:zero", "--deals", 2)
    assert "raised SystemExit: 2 at KlaverjassenCallState(" in one_line_exit2(
        "simulate", "klaverjassen", "--deals", 2, "--policy", f"{q}:two")
    assert "raised SystemExit: 0 at BoonakenBidState(" in one_line_exit2(
        "simulate", "boonaken", "--deals", 2, "--seat-policy", f"0={q}:zero")
    assert "failed to import: SystemExit: 3" in one_line_exit2(
        "simulate", "bonken", "--games", 1, "--policy", f"{tmp_path}/quits_on_import.py:f")


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

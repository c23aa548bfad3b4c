"""The OpenSpiel bridge (analyzer/openspiel_bridge.py): troef's policies play OpenSpiel's
oh_hell exactly as troef's simulator plays the same deals, the fair resampler only uses what
the player can know, and OpenSpiel entrants in ``troef tournament``. Skipped where the
``openspiel`` extra is not installed, except the check of the message given then."""
import json
import sys

import numpy as np
import pytest

from conftest import invoke_cli

TOURNAMENT = ["tournament", "boerenbridge", "--players", "4", "--hand-size", "5",
              "--deals", "2", "--variant", "scoring=dutch"]


@pytest.fixture
def ob():
    pytest.importorskip("pyspiel")
    from analyzer import openspiel_bridge
    return openspiel_bridge


def test_missing_openspiel_is_one_line_and_exit_2(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)      # import pyspiel -> ImportError
    code, out, err = invoke_cli(*TOURNAMENT, "--policies", "pimc,openspiel:ismcts:10")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "pip install -e '.[openspiel]'" in err


def test_card_codes_match_openspiel(ob):
    from fastsim.cards import card_str, deck_codes
    game = ob.load_game(4, 8)
    s = game.new_initial_state()
    s.apply_action(8)
    s.apply_action(0)              # now dealing: actions are cards
    codes = deck_codes(52)
    assert sorted(ob.to_os(c) for c in codes) == list(range(52))
    for c in codes:
        assert ob.from_os(ob.to_os(c)) == c
        # OpenSpiel writes suit then rank ("ST"); troef rank then suit ("TS")
        assert s.action_to_string(0, ob.to_os(c)) == card_str(c)[::-1]


@pytest.mark.parametrize("n,h,dealer,seat_policies,seed", [
    (4, 8, 0, ["heuristic"] * 4, 11),
    (3, 5, 2, ["pimc", "heuristic", "random"], 5),
    (5, 6, 3, ["random", "pimc", "heuristic", "heuristic", "pimc"], 123456789),
    (4, 5, 1, ["strong", "heuristic", "pimc", "strong"], 7),
])
def test_troef_policies_play_the_same_in_openspiel(ob, n, h, dealer, seat_policies, seed):
    """Every seat a troef policy as a pyspiel.Bot in oh_hell, on troef's deals: every bid,
    every card and every score equals troef's simulator (so oh_hell's rules and scoring
    with off_bid_penalty and 2 points a trick are troef's scoring=dutch on these deals)."""
    from fastsim import boerenbridge as bb
    deals, worlds = 3, 4
    rules = bb.build_rules(players=n, hand_size=h, variants=["scoring=dutch"],
                           first_dealer=dealer)
    pols = bb.parse_seat_policies(n, "heuristic",
                                  [f"{s}={p}" for s, p in enumerate(seat_policies)])
    sim = bb.simulate(rules, deals, seed=seed, policies=pols, record=True, worlds=worlds)
    game = ob.load_game(n, h)
    for d in range(deals):
        hands = [int(x) for x in sim.deals["hands"][d]]
        chance = ob.deal_actions(n, h, int(sim.deals["dealer"][d]), hands,
                                 int(sim.deals["trump_card"][d]))
        bots = [ob.TroefBot(seat_policies[s], rules, seed, d, worlds) for s in range(n)]
        trace = []
        returns, bids = ob.play_deal(game, chance, bots, trace=trace)
        # bids come first, left of the dealer first
        assert [p for p, _ in trace[:n]] == [(dealer + 1 + q) % n for q in range(n)]
        assert bids == [int(b) for b in sim.deals["bids"][d]]
        cards = [ob.from_os(a) for _, a in trace[n:]]
        assert cards == [int(c) for c in sim.play["cards"][d, :h].ravel()]
        assert returns == [float(x) for x in sim.deals["scores"][d]]


def _partial_states(ob, n=4, h=8, seed=3, dealer=1):
    """States of one heuristic deal at several moments: during the bidding, after the
    bidding, in trick 3, in the last tricks; plus the true never-dealt cards."""
    from fastsim import boerenbridge as bb
    rules = bb.build_rules(players=n, hand_size=h, variants=["scoring=dutch"],
                           first_dealer=dealer)
    hands, turned, dl = ob.troef_deals(rules, 1, seed)[0]
    game = ob.load_game(n, h)
    s = game.new_initial_state()
    for a in ob.deal_actions(n, h, dl, hands, turned):
        s.apply_action(a)
    bots = [ob.TroefBot("heuristic", rules, seed, 0) for _ in range(n)]
    out = []
    step = 0
    while not s.is_terminal():
        if step in (2, n, n + 2 * n + 1, n + 5 * n + 2, n + 7 * n - 1):
            out.append(s.clone())
        legal = s.legal_actions()
        s.apply_action(legal[0] if len(legal) == 1 else int(bots[s.current_player()].step(s)))
        step += 1
    dealt = 0
    for m in hands:
        dealt |= m
    never = {ob.to_os(c) for c in range(64)
             if (c & 15) < 13 and not (dealt >> c & 1) and c != turned}
    return out, never


def _world(ob, state):
    """(initial hand, current hand) per player and the undealt stock of an oh_hell state."""
    v = ob._View(state)
    played = set(v.plays)
    init = [set(x) for x in v.dealt]
    now = [x - played for x in init]
    stock = set(range(52)) - set().union(*init) - {v.turned}
    return init, now, stock, v


def _voids(v):
    """Suits (OpenSpiel suit index) each player showed void in."""
    n = v.n
    voids = [set() for _ in range(n)]
    leader = (v.dealer + 1) % n
    plays = list(v.plays)
    for t in range(0, len(plays), n):
        trick = plays[t:t + n]
        led = trick[0] % 4
        for j, c in enumerate(trick[1:], 1):
            if c % 4 != led:
                voids[(leader + j) % n].add(led)
        if len(trick) == n:   # the winner leads next
            trump = v.turned % 4
            best = max(range(n), key=lambda j: ((trick[j] % 4 == trump) * 100
                                                + (trick[j] % 4 == led) * 50 + trick[j] // 4))
            leader = (leader + best) % n
    return voids


@pytest.mark.parametrize("exact_fallback", [False, True])
def test_fair_resampler_uses_only_what_the_player_knows(ob, monkeypatch, exact_fallback):
    if exact_fallback:       # every draw through the exact (flow) fallback
        monkeypatch.setattr(ob, "HIDDEN_TRIES", 0)
    states, never = _partial_states(ob)
    assert len(states) == 5 and len(never) == 52 - 4 * 8 - 1
    draws = 150 if exact_fallback else 300
    showed_void = False
    for state in states:
        me = state.current_player()
        init0, now0, stock0, v0 = _world(ob, state)
        assert stock0 == never
        voids = _voids(v0)
        showed_void |= any(voids[q] for q in range(v0.n) if q != me)
        res = ob.FairResampler(seed=1)
        in_stock, in_hand = set(), set()
        for _ in range(draws):
            w = res(state, me)
            # the same information state (own hand, trump, bids, every card played)
            assert w.information_state_string(me) == state.information_state_string(me)
            init, now, stock, v = _world(ob, w)
            assert init[me] == init0[me] and v.turned == v0.turned
            for q in range(v.n):
                assert len(init[q]) == v.h
                assert not any(c % 4 in voids[q] for c in now[q])   # shown voids hold
            in_stock |= stock
            for q in range(v.n):
                if q != me:
                    in_hand |= now[q]
        unseen = set().union(*(now0[q] for q in range(v0.n) if q != me)) | never
        # every unseen card, dealt or not, is sometimes in the stock, and the never-dealt
        # ones are sometimes in another hand (wherever some hand may hold their suit)
        assert in_stock == unseen
        open_suits = {s for s in range(4)
                      if any(s not in voids[q] and now0[q] for q in range(v0.n) if q != me)}
        assert {c for c in never if c % 4 in open_suits} <= in_hand
    assert showed_void      # the deal does exercise the void constraint


def test_ismcts_with_the_fair_resampler_plays_a_deal(ob):
    """OpenSpiel's Python IS-MCTS takes the fair resampler (it asserts that every world has
    the player's information state) and plays legal moves; the C++ ISMCTSBot too."""
    from fastsim import boerenbridge as bb
    rules = bb.build_rules(players=3, hand_size=4, variants=["scoring=dutch"])
    game = ob.load_game(3, 4)
    hands, turned, dealer = ob.troef_deals(rules, 1, 2)[0]
    fair = ob.parse_entrant("openspiel:ismcts:8")
    default = ob.parse_entrant("openspiel:ismcts:8:openspiel-default")
    assert (fair.resampler, default.resampler) == ("fair", "openspiel-default")
    bots = [ob.make_bot(fair, game, rules, 0, 2, 0, 4),
            ob.make_bot(default, game, rules, 1, 2, 0, 4),
            ob.make_bot(ob.parse_entrant("pimc"), game, rules, 2, 2, 0, 4)]
    clock = [[0.0, 0] for _ in range(3)]
    returns, bids = ob.play_deal(game, ob.deal_actions(3, 4, dealer, hands, turned), bots,
                                 clock)
    assert len(returns) == 3 and all(0 <= b <= 4 for b in bids)
    assert all(c[1] >= 1 for c in clock)


def test_duplicate_match_in_openspiel_equals_troefs_tournament(ob):
    """Two troef policies through the bridge give troef's own tournament figures: same
    deals, same seatings, same arithmetic."""
    from analyzer.tournament import tournament
    kw = dict(n=3, seed=4, variants=["scoring=dutch"], players=4, hand_size=5, worlds=4)
    mine = ob.tournament("boerenbridge", "heuristic,pimc", **kw)
    theirs = tournament("boerenbridge", "heuristic,pimc", **kw)
    for a, b in zip(mine["policies"], theirs["policies"]):
        assert a["policy"] == b["policy"]
        assert a["mean_score"] == pytest.approx(b["mean_score"])
    assert mine["pairs"][0]["difference"] == pytest.approx(theirs["pairs"][0]["difference"])
    assert mine["pairs"][0]["ci"] == pytest.approx(theirs["pairs"][0]["ci"])
    assert (mine["units"], mine["seatings"]) == (theirs["units"], theirs["seatings"])


def test_cli_tournament_with_openspiel_entrants(ob):
    code, out, err = invoke_cli(*TOURNAMENT, "--policies",
                                "heuristic,openspiel:ismcts:4,openspiel:random", "--json")
    assert code in (None, 0), err
    r = json.loads(out)
    assert [p["policy"] for p in r["policies"]] == ["heuristic", "openspiel:ismcts:4",
                                                    "openspiel:random"]
    assert r["resamplers"] == {"openspiel:ismcts:4": "fair"}
    assert [p["side"] for p in r["policies"]] == ["troef", "openspiel", "openspiel"]
    assert len(r["pairs"]) == 3 and r["engine"] == "openspiel"
    for p in r["policies"]:
        assert 0 <= p["exact_rate"] <= 1 and p["ms_per_decision"] >= 0
    code, out, err = invoke_cli(*TOURNAMENT, "--policies", "pimc,openspiel:random")
    assert code in (None, 0) and "resampler" in out and "ms/decision" in out


@pytest.mark.parametrize("extra,needle", [
    (["--variant", "bauer_bonus"], "scoring=dutch"),
    (["--variant", "scoring=hard"], "scoring=dutch"),
    (["--games", "2"], "single deals"),
])
def test_openspiel_refuses_what_oh_hell_cannot_play(ob, extra, needle):
    args = ["tournament", "boerenbridge", "--policies", "pimc,openspiel:random"]
    if "--games" not in extra:
        args += ["--deals", "2"]
    code, out, err = invoke_cli(*args, *extra, *([] if "scoring=hard" in extra
                                                 else ["--variant", "scoring=dutch"]))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name,needle", [("openspiel:ismcts:0", "1..1000000"),
                                         ("openspiel:ismcts:9:peek", "resampler"),
                                         ("openspiel:mcts", "unknown OpenSpiel entrant")])
def test_bad_entrant_names(name, needle):
    code, out, err = invoke_cli(*TOURNAMENT, "--policies", f"pimc,{name}")
    assert code == 2 and needle in err


def test_exact_fallback_finds_the_only_assignment():
    """Suit 1 may only go to holder 1, so both cards of suit 0 must end with holder 0,
    however the random greedy starts (it needs a chain of moves when it put suit 0 first)."""
    from analyzer.openspiel_bridge import _feasible
    for seed in range(40):
        x = _feasible([2, 2], [2, 2], [[True, True], [False, True]], np.random.default_rng(seed))
        assert x == [[2, 0], [0, 2]]
    assert _feasible([3], [1, 1], [[True, True]], np.random.default_rng(0)) is None


def test_split_entrant_and_side_statistics(ob):
    """A split entrant BID+CARD bids as BID and plays as CARD: heuristic+pimc in every seat
    gives the simulator's deal with the heuristic's bids and pimc's cards; the tricks the
    bridge counts are the simulator's; the per-side statistics add up."""
    from fastsim import boerenbridge as bb
    from fastsim.boerenbridge_schema import RulesError
    n, h, seed, worlds = 4, 5, 9, 4
    rules = bb.build_rules(players=n, hand_size=h, variants=["scoring=dutch"])
    e = ob.parse_entrant("heuristic+pimc")
    assert (e.kind, e.side, [p.name for p in e.parts]) == ("split", "troef",
                                                           ["heuristic", "pimc"])
    for bad in ("heuristic+", "a+b+c", "heuristic+nonsense"):
        with pytest.raises(RulesError):
            ob.parse_entrant(bad)
    game = ob.load_game(n, h)
    heur = bb.simulate(rules, 3, seed=seed, record=True)
    for d, (hands, turned, dealer) in enumerate(ob.troef_deals(rules, 3, seed)):
        bots = [ob.make_bot(e, game, rules, s, seed, d, worlds) for s in range(n)]
        won = []
        returns, bids = ob.play_deal(game, ob.deal_actions(n, h, dealer, hands, turned),
                                     bots, tricks=won)
        assert bids == [int(b) for b in heur.deals["bids"][d]]
        assert sum(won) == h
        for s in range(n):     # the scores follow from the bids and the counted tricks
            exp = 10 + 2 * won[s] if won[s] == bids[s] else -2 * abs(won[s] - bids[s])
            assert returns[s] == exp
    for d, (hands, turned, dealer) in enumerate(ob.troef_deals(rules, 3, seed)):
        bots = [ob.TroefBot("heuristic", rules, seed, d, worlds) for _ in range(n)]
        won = []
        ob.play_deal(game, ob.deal_actions(n, h, dealer, hands, turned), bots, tricks=won)
        assert won == [int(x) for x in heur.deals["tricks"][d]]
    r = ob.tournament("boerenbridge", "heuristic+pimc,heuristic", n=3, seed=seed,
                      variants=["scoring=dutch"], players=n, hand_size=h, worlds=worlds)
    for p in r["policies"]:
        assert p["exact_rate"] + p["over_rate"] + p["under_rate"] == pytest.approx(1.0)
        assert 0 <= p["mean_bid"] <= h and 0 <= p["mean_tricks"] <= h
        assert p["over_loss"] >= 12 * p["over_rate"] and p["under_loss"] >= 12 * p["under_rate"]
    assert len(r["per_deal"]) == 3


def test_split_entrant_needs_openspiel():
    """A split entrant outside an OpenSpiel match is one line, exit 2, saying why."""
    code, out, err = invoke_cli("tournament", "boerenbridge", "--policies",
                                "heuristic+pimc,heuristic", "--deals", "2")
    assert code == 2 and "split entrant" in err and len(err.strip().splitlines()) == 1


def test_the_record_option_writes_histories_that_replay_to_the_same_scores(ob):
    """tournament(record=...) leaves the result as it was and writes every deal played
    (each seating): its history replays in OpenSpiel to the recorded returns and bids, its
    chance outcomes are the deal's hands, turned card and dealer, and the seats' policies
    are the seating's."""
    kw = dict(n=2, seed=5, variants=["scoring=dutch"], players=4, hand_size=4, worlds=4)
    names = ["heuristic", "openspiel:ismcts:6"]
    recs = []
    with_rec = ob.tournament("boerenbridge", names, record=recs.append, **kw)
    without = ob.tournament("boerenbridge", names, **kw)
    assert with_rec["per_deal"] == without["per_deal"]
    assert [p["mean_score"] for p in with_rec["policies"]] == \
        [p["mean_score"] for p in without["policies"]]
    assert len(recs) == 2 * 2
    assert {tuple(r["seating"]) for r in recs} == {tuple(names * 2), tuple(names[::-1] * 2)}
    deals = ob.troef_deals(__import__("fastsim.boerenbridge", fromlist=["x"]).build_rules(
        players=4, hand_size=4, variants=["scoring=dutch"]), 2, 5)
    for r in json.loads(json.dumps(recs)):          # the record is plain JSON
        hands, turned, dealer = deals[r["deal"]]
        assert (r["hands"], r["turned"], r["dealer"]) == (hands, turned, dealer)
        chance = ob.deal_actions(4, 4, dealer, hands, turned)
        assert r["history"][:len(chance)] == chance
        s = ob.replay_record(r)
        assert s.is_terminal()
        assert [float(x) for x in s.returns()] == r["returns"]
        v = ob._View(s)
        assert [v.bids[v.position(seat)] for seat in range(4)] == r["bids"]
        assert len(r["players"]) == len(r["history"]) - len(chance)
    # the per-deal scores of the match are the records' returns, seat by seat
    per = np.zeros((2, 2))
    for r in recs:
        for seat, p in enumerate(r["seating"]):
            per[r["deal"], names.index(p)] += r["returns"][seat] / 4   # 2 seats x 2 seatings
    assert np.allclose(per, with_rec["per_deal"])


def test_each_troef_policy_warms_up_untimed_and_the_match_is_unchanged(ob, monkeypatch):
    """Before the match each troef policy (a split entrant's troef part too, once per
    policy) plays the first deal in every seat without a clock, so that compiling its
    kernels is not counted in ms_per_decision; the match's scores and decision counts are
    those of a match without the warm-up."""
    kw = dict(n=2, seed=3, variants=["scoring=dutch"], players=4, hand_size=4, worlds=4)
    names = ["heuristic", "random+openspiel:random", "openspiel:random"]
    calls = []
    real = ob.play_deal

    def spy(game, chance, bots, clock=None, **k):
        calls.append(clock is None)
        return real(game, chance, bots, clock, **k)
    monkeypatch.setattr(ob, "play_deal", spy)
    warm = ob.tournament("boerenbridge", names, **kw)
    n_timed = len(calls) - 2
    assert calls[:2] == [True, True] and not any(calls[2:])   # heuristic, random: untimed
    monkeypatch.setattr(ob, "_warm_up", lambda *a: None)
    calls.clear()
    cold = ob.tournament("boerenbridge", names, **kw)
    assert len(calls) == n_timed and not any(calls)
    assert warm["per_deal"] == cold["per_deal"]
    assert [p["decisions"] for p in warm["policies"]] == \
        [p["decisions"] for p in cold["policies"]]


@pytest.mark.slow
def test_the_committed_ismcts_record_is_the_bridges_play_of_its_seed(ob):
    """The first deal of tools/cardmodel_ismcts_record.jsonl.gz (issue #14's seventh push,
    IS-MCTS 1000 against strong) played again through the bridge: the same history."""
    import gzip
    from pathlib import Path
    from fastsim import boerenbridge as bb
    path = Path(__file__).resolve().parent.parent / "tools" / "cardmodel_ismcts_record.jsonl.gz"
    with gzip.open(path, "rt") as f:
        r = json.loads(f.readline())
    n, h = len(r["hands"]), r["history"][0]
    rules = bb.build_rules(players=n, hand_size=h, variants=["scoring=dutch"])
    game = ob.load_game(n, h)
    from fastsim.boerenbridge_schema import PIMC_WORLDS
    bots = [ob.make_bot(ob.parse_entrant(p), game, rules, s, r["seed"], r["deal"],
                        PIMC_WORLDS)
            for s, p in enumerate(r["seating"])]
    trace = []
    chance = ob.deal_actions(n, h, r["dealer"], r["hands"], r["turned"])
    returns, bids = ob.play_deal(game, chance, bots, trace=trace)
    assert chance + [a for _, a in trace] == r["history"]
    assert (returns, bids) == (r["returns"], r["bids"])

"""The Boerenbridge play query and information states: the policies through the interface
equal the simulator card for card, the sampler never contradicts the history and is
uniform, exact positions are exact, and every bad history is a one-line input error."""
import itertools
import random

import numpy as np
import pytest

import analyzer.boerenbridge_play as bbp
from analyzer.boerenbridge_play import (BoerenbridgeInfoState, BoerenbridgeDeal, play_query,
                                        positions_from_record, sample_worlds, deal_from_record)
from analyzer.infostate import decide, parse_history
from analyzer.records import deal_records
from fastsim import boerenbridge_nb as nb
from fastsim.boerenbridge import simulate
from fastsim.boerenbridge_schema import POLICY_NAMES, build_rules, parse_seat_policies
from fastsim.cards import CardError, card_str, codes_of, parse_card
from fastsim.common import RulesError
from helpers_play import (check_answer, check_marginals, one_line_error_test, pick_states,
                          played_out, replay_heuristic)


def recorded(n_games, seed, players=4, hand_size=None, schedule=None, variants=(),
             seat_policies=(), worlds=4):
    rules = build_rules(players=players, hand_size=hand_size, schedule=schedule,
                        variants=variants)
    pol = parse_seat_policies(rules.players, "heuristic", seat_policies)
    res = simulate(rules, n_games, seed=seed, policies=pol, record=True, worlds=worlds)
    return rules, res, list(deal_records(res))


def policy_of(res, rec, p):
    n = rec["players"]
    return POLICY_NAMES[int(res.policies[(rec["dealer"] + 1 + p) % n])]


# ------------------------------------------------------------------ the engine's card

SIM_CASES = [
    dict(players=4, hand_size=8, n_games=300, seed=11),
    dict(players=3, hand_size=13, n_games=60, seed=5),
    dict(players=7, hand_size=7, n_games=60, seed=3),
    dict(players=5, schedule="standard", n_games=4, seed=2,
         variants=("scoring=dutch", "bauer_bonus", "no_trump_rounds=ones,top")),
    dict(players=4, schedule="standard", n_games=4, seed=8,
         variants=("blind_one_card", "scoring=hard", "dealer_rule=off")),
    dict(players=2, schedule="standard", n_games=6, seed=4, variants=("two_player",)),
]


@pytest.mark.parametrize("case", SIM_CASES, ids=lambda c: f"{c['players']}p-{c['seed']}")
def test_heuristic_card_equals_simulator(case):
    case = dict(case)
    n_games, seed = case.pop("n_games"), case.pop("seed")
    rules, res, recs = recorded(n_games, seed, **case)
    checked = 0
    for r, rec in enumerate(recs):
        checked += replay_heuristic(bbp, rec, case.get("variants", ()))[1]
    assert checked == sum(rec["hand_size"] * rec["players"] for rec in recs)


def test_random_and_pimc_cards_equal_simulator():
    """Mixed tables: every seat's own policy, keyed by the run's seed and deal index."""
    for seed, players, h in ((21, 4, 6), (22, 5, 5)):
        rules, res, recs = recorded(40, seed, players=players, hand_size=h,
                                    seat_policies=("0=random", "2=pimc"), worlds=3)
        kinds = set()
        for r, rec in enumerate(recs):
            deal_index = int(res.deals["deal"][r])
            for state, card in positions_from_record(rec):
                pol = policy_of(res, rec, state.position)
                kinds.add(pol)
                assert decide(state, pol, seed=seed, deal=deal_index, worlds=3) == card
        assert kinds == {"random", "heuristic", "pimc"}


def history_text(state, notation="en"):
    tricks = [" ".join(card_str(c, notation) for c in cards) for _, cards, _ in state.tricks]
    tricks.append(" ".join(card_str(c, notation) for c in state.current))
    return " | ".join(tricks)


def test_cli_inputs_rebuild_the_same_state():
    """The CLI-style constructor (strings, both notations) gives the recorded state."""
    rules, res, recs = recorded(40, 13, players=4, hand_size=7)
    rng = random.Random(1)
    for rec in recs:
        for state, card in positions_from_record(rec):
            if rng.random() > 0.3:
                continue
            for notation in ("en", "nl"):
                s2 = BoerenbridgeInfoState.from_inputs(
                    4, " ".join(card_str(c, notation) for c in state.hand_cards),
                    card_str(state.turned, notation), state.position,
                    ",".join(map(str, state.bids)), history_text(state, notation), notation,
                    hand_size=7)
                for a in BoerenbridgeInfoState.__slots__:
                    if a != "rules":
                        assert getattr(s2, a) == getattr(state, a), a
                assert s2.decide() == card


# ------------------------------------------------------------------ the sampler

def check_world(state, world):
    n, me = state.n, state.position
    tn = len(state.current)
    seen = state.played | state.hand
    total = 0
    assert world[me] == state.hand
    for q in range(n):
        if q == me:
            continue
        m = int(world[q])
        cap = state.h - state.t - (1 if (q - state.leader) % n < tn else 0)
        assert bin(m).count("1") == cap
        assert m & seen == 0
        assert m & total == 0
        total |= m
        for s in range(4):
            if state.voids[q] >> s & 1:
                assert m >> (16 * s) & 0x1FFF == 0


def heuristic_bids_match(state, world):
    r = state.rules
    s = 0
    for p in range(state.n):
        if p != state.position:
            f = nb.forbidden_bid_nb(state.h, s, r.flags) if p == state.n - 1 else -1
            b = nb.heuristic_bid_nb(int(world[p]) | state.played_by[p], state.trump, state.n,
                                    state.h, p, s, f, state.is_blind)
            if b != state.bids[p]:
                return False
        s += state.bids[p]
    return True


def test_sampled_worlds_never_contradict_the_history():
    rules, res, recs = recorded(120, 31, players=4, hand_size=8)
    rng = random.Random(2)
    n_states = n_voids = 0
    n_worlds = {True: 0, False: 0}
    for r, rec in enumerate(recs):
        states = [s for s, _ in positions_from_record(rec)]
        for state in rng.sample(states, 3):
            true_world = [res.deals["hands"][r, (rec["dealer"] + 1 + q) % 4] & ~state.played
                          for q in range(4)]
            assert heuristic_bids_match(state, true_world)  # the truth is never rejected
            for cond in (True, False):
                worlds, logw = sample_worlds(state, 200 if cond else 40, seed=r,
                                             condition_bids=cond, bid_model="exact")
                if not cond:
                    assert np.isfinite(logw).mean() > 0.5
                for w, lw in zip(worlds, logw):
                    if np.isfinite(lw):
                        check_world(state, w)
                        if cond:
                            assert heuristic_bids_match(state, w)
                        n_worlds[cond] += 1
            n_states += 1
            n_voids += any(state.voids)
    assert n_states == 360 and n_voids > 50 and min(n_worlds.values()) > 1000


def enumerate_worlds(state):
    """Every assignment of the unseen cards to the other players' remaining slots
    consistent with the voids (the undealt rest anywhere else): list of world tuples."""
    n, me = state.n, state.position
    tn = len(state.current)
    unseen = codes_of(state.unseen_mask())
    caps = {q: state.h - state.t - (1 if (q - state.leader) % n < tn else 0)
            for q in range(n) if q != me}
    out = []

    def rec(qs, avail, acc):
        if not qs:
            out.append(dict(acc))
            return
        q = qs[0]
        ok = [c for c in avail if not state.voids[q] >> (c >> 4) & 1]
        for combo in itertools.combinations(ok, caps[q]):
            acc[q] = sum(1 << c for c in combo)
            rec(qs[1:], [c for c in avail if c not in combo], acc)
        acc.pop(q, None)

    rec([q for q in caps], unseen, {})
    return [tuple(w.get(q, state.hand if q == me else 0) for q in range(n)) for w in out]


def void_states(n_wanted, seed, players, hand_size, t, min_void_bits):
    """Positions after ``t`` tricks whose history shows at least ``min_void_bits`` voids
    (one per deal)."""
    rules, res, recs = recorded(150, seed, players=players, hand_size=hand_size)
    return pick_states(recs, positions_from_record, lambda state: state.t == t and sum(
        bin(v).count("1") for v in state.voids) >= min_void_bits, n_wanted)


def test_sampler_is_uniform_over_consistent_worlds():
    """Importance-weighted worlds reproduce the exact marginals P(position q holds card c)
    of the uniform law over every deal consistent with the voids; the raw draws do not
    (so the weights matter and the test can tell)."""
    states = void_states(8, 41, 4, 12, 10, 3)
    raw_off = 0.0
    for state in states:
        exact = enumerate_worlds(state)
        worlds, logw = sample_worlds(state, 8000, seed=3, condition_bids=False)
        assert np.isfinite(logw).all()
        raw_off = max(raw_off, check_marginals(state, exact, worlds, logw, 0.035)[0])
    assert raw_off > 0.1


def test_sampler_with_bid_conditioning_matches_enumeration():
    """With the bids conditioned on (heuristic bidders), the kept worlds reproduce the
    exact marginals over the consistent deals that also reproduce every bid, both on the
    fast no-void path and on the weighted one."""
    rules, res, recs = recorded(200, 47, players=3, hand_size=17)
    picked = {True: [], False: []}
    for rec in recs:
        for state, _ in positions_from_record(rec):
            if state.t == 14 and len(state.current) == 0:
                key = any(v for q, v in enumerate(state.voids) if q != state.position)
                if len(picked[key]) < 4:
                    picked[key].append(state)
                break
    assert len(picked[True]) == 4 and len(picked[False]) == 4
    for state in picked[True] + picked[False]:
        exact = [w for w in enumerate_worlds(state) if heuristic_bids_match(state, w)]
        assert exact
        worlds, logw = sample_worlds(state, 6000, seed=5, condition_bids=True,
                                     bid_model="exact")
        keep = np.isfinite(logw)
        assert keep.sum() > 300
        check_marginals(state, exact, worlds[keep], logw[keep], 0.05)


def test_values_match_exact_enumeration_near_the_end():
    """With three tricks left, the query's expected score of every card agrees with the
    exact average over all consistent worlds, each played out step by step through the
    full-information deal state with the heuristic (a second implementation of the
    rollout)."""
    states = void_states(4, 43, 3, 17, 14, 1) + void_states(12, 41, 4, 12, 10, 3)
    n_checked = 0
    for state in states:
        exact_worlds = enumerate_worlds(state)
        if len(exact_worlds) > 600:
            continue
        n_checked += 1
        res = play_query(None, None, None, None, None, state=state, samples=4000,
                         condition_bids=False, seed=1)
        assert not res["exact"] or len(exact_worlds) == 1
        for entry in res["cards"]:
            c = parse_card(entry["card"])
            vals = []
            for world in exact_worlds:
                d = _deal_at(state, world)
                d = d.apply(c)
                while not d.is_terminal:
                    d = d.apply(d.decide())
                vals.append(d.scores()[state.position])
            exact = float(np.mean(vals))
            lo, hi = entry["expected_score_ci"]
            se = (hi - lo) / (2 * 1.96)
            assert abs(entry["expected_score"] - exact) <= 3.5 * se + 1e-9, (entry, exact)
    assert n_checked >= 5


def _deal_at(state, world):
    """A full-information deal reaching ``state`` with the hidden cards ``world``."""
    dealt = [int(world[q]) | state.played_by[q] for q in range(state.n)]
    d = BoerenbridgeDeal(state.rules, dealt, state.turned, state.bids)
    for _, cards, _ in state.tricks:
        for c in cards:
            d = d.apply(c)
    for c in state.current:
        d = d.apply(c)
    return d


# ------------------------------------------------------------------ the query

def test_query_on_many_positions():
    """Every recommended card is legal, the policy choice is the heuristic's, the last
    card of the deal is exact, and results do not depend on the thread count."""
    rules, res, recs = recorded(150, 51, players=4, hand_size=6)
    rng = random.Random(5)
    n_exact = 0
    for r, rec in enumerate(recs):
        for state, card in positions_from_record(rec):
            last = state.t == state.h - 1 and len(state.current) == state.n - 1
            if not last and rng.random() > 0.08:
                continue
            out = play_query(None, None, None, None, None, state=state, samples=60, seed=r)
            check_answer(out, state, card)
            assert out["to_move"] == state.position
            # the worlds are weighted by the soft bidder and thinned to about the requested
            # effective size (analyzer/evidence.py): a few more may be played
            assert 0 < out["effective_samples"] <= out["samples"] <= out["worlds_drawn"]
            assert out["exact"] or out["effective_samples"] >= 0.8 * 60
            best = max(x["expected_score"] for x in out["cards"])
            assert [x for x in out["cards"] if x["card"] == out["recommended"]][0][
                "expected_score"] == best
            for x in out["cards"]:
                assert x["value"] == x["expected_score"]
                assert x["p_make_ci"][0] <= x["p_make"] <= x["p_make_ci"][1]
                assert x["value_ci"][0] <= x["value"] <= x["value_ci"][1] + 1e-9
            if last:
                n_exact += 1
                assert out["exact"]
                (x,) = out["cards"]
                d = played_out(bbp, rec)
                me = state.position
                assert x["expected_score"] == d.scores()[me]
                assert x["value_ci"] == [x["value"]] * 2
                assert x["p_make"] == float(d.states[me].won[me] == state.bids[me])
                assert x["p_make_ci"] == [x["p_make"]] * 2
    assert n_exact == len(recs)


def test_last_player_of_last_trick_is_exact_for_every_rule_set():
    rules, res, recs = recorded(3, 17, players=5, schedule="standard",
                                variants=("scoring=dutch", "bauer_bonus", "blind_one_card"))
    for rec in recs:
        states = list(positions_from_record(rec, ("scoring=dutch", "bauer_bonus",
                                                  "blind_one_card")))
        state, card = states[-1]
        out = play_query(None, None, None, None, None, state=state, samples=30)
        d = deal_from_record(rec, ("scoring=dutch", "bauer_bonus", "blind_one_card"))
        for _, c in states:
            d = d.apply(c)
        assert out["cards"][0]["expected_score"] == d.scores()[state.position]
        assert out["cards"][0]["expected_score_ci"][0] == out["cards"][0]["expected_score_ci"][1]


def test_query_is_reproducible_and_thread_independent():
    kw = dict(players=4, hand="AS KS 2H 5D 8C", trump_card="5H", position=3, bids="1,2,1,0",
              history="2C 5C KC 9C | 3D", samples=500)
    a = play_query(**kw, seed=7, threads=1)
    b = play_query(**kw, seed=7, threads=2)
    import json
    assert json.loads(json.dumps(a)) == a
    assert set(a) >= {"game", "to_move", "recommended", "policy_choice", "cards", "samples",
                      "effective_samples", "policy", "seed", "variants"}
    assert set(a["cards"][0]) >= {"card", "value", "value_ci", "p_make", "p_make_ci",
                                  "expected_score", "expected_score_ci"}
    nl = play_query(**dict(kw, hand="AS HS 2H 5R 8K", trump_card="5H",
                           history="2K 5K HK 9K | 3R"), notation="nl", seed=7)
    assert [x["card"] for x in nl["cards"]] == ["5R"]
    assert nl["cards"][0]["expected_score"] == a["cards"][0]["expected_score"]
    c = play_query(**kw, seed=8, threads=2)
    assert a == b
    assert a["cards"] != c["cards"]
    for policy in ("random", "pimc"):
        p1 = play_query(**dict(kw, samples=40), policy=policy, worlds=2, seed=3, threads=1)
        p2 = play_query(**dict(kw, samples=40), policy=policy, worlds=2, seed=3, threads=2)
        assert p1 == p2
        assert p1["policy"] == policy
    assert not play_query(**kw, policy="random")["conditioned_on_bids"]


def test_common_worlds_across_cards():
    """Cards that are equivalent for the rest of the deal get identical values, which only
    happens when every card is played out in the same worlds (2S and 3S here: neither
    can win a trick, every other spade is out of play)."""
    state = BoerenbridgeInfoState.from_inputs(
        3, "2S 3S AH", "2D", 0, "3,0,1",
        "4S 5S 6S | 7S 8S 9S | TS JS QS | AS KS 4H", hand_size=7)
    assert state.to_move == 0
    out = play_query(None, None, None, None, None, state=state, samples=300)
    vals = {x["card"]: x for x in out["cards"]}
    assert vals["2S"]["expected_score"] == vals["3S"]["expected_score"]
    assert vals["2S"]["p_make"] == vals["3S"]["p_make"]
    assert out["conditioned_on_bids"] and out["note"] is None
    # bids 1,0,1 are no heuristic bidder's here: the soft bidder (the default) still
    # conditions on them ...
    state = BoerenbridgeInfoState.from_inputs(
        3, "2S 3S AH", "2D", 0, "1,0,1", "4S 5S 6S | 7S 8S 9S | TS JS QS | AS KS 4H")
    out = play_query(None, None, None, None, None, state=state, samples=50)
    assert out["conditioned_on_bids"] and out["note"] is None and out["bid_model"] == "soft"
    # ... under the exact bidder the bids are then not used by default ...
    out = play_query(None, None, None, None, None, state=state, samples=50, bid_model="exact")
    assert not out["conditioned_on_bids"] and "not used" in out["note"]
    # ... and asking for the condition explicitly is a one-line error
    with pytest.raises(RulesError, match="consistent"):
        play_query(None, None, None, None, None, state=state, samples=50, condition_bids=True,
                   bid_model="exact")


# ------------------------------------------------------------------ bad input

BASE = dict(players=4, hand="AS KS 2H 5D 8C", trump_card="5H", position=3, bids="1,2,1,0",
            history="2C 5C KC 9C | 3D")
BAD = [
    ("played twice", "already played", dict(position=0, hand="AS KS 2H 5D", history="2C 5C KC 9C | 3D 2C")),
    ("played twice, mine", "played twice", dict(position=1, hand="AS KS 2H 5D",
                                history="2C 5C KC 9C | 3D 4D 6D 5C")),
    ("also in the hand", "in the hand of position 3", dict(history="2C 5C KC 9C | AS")),
    ("turned card in history", "turned", dict(history="2C 5C KC 9C | 5H")),
    ("void contradiction", "has no clubs", dict(position=0, hand="AS KS 2H 5D",
                                history="2C 5C KC 9D | 3D 7C")),
    ("illegal play of mine", "must follow clubs", dict(history="2C 5C KC 9H | 3D")),
    ("out of turn", "turn", dict(position=1, hand="AS KS 2H 5D")),
    ("out of turn, partial", "turn", dict(position=2)),
    ("hand size", "wrong size", dict(hand_size=7)),
    ("bid count", "one per position", dict(bids="1,2,1")),
    ("bid value", "impossible bid", dict(bids="1,2,9,0")),
    ("bid text", "integers", dict(bids="1,x,1,0")),
    ("bid sum", "may not", dict(bids="1,2,1,2")),
    ("trick too long", "5 cards", dict(history="2C 5C KC 9C 3C | 3D")),
    ("empty trick", "empty", dict(history="2C 5C KC 9C || 3D")),
    ("unknown card", "unknown card", dict(history="2C 5C KC 9X | 3D")),
    ("empty hand", "empty", dict(hand="")),
    ("position", "position must", dict(position=4)),
    ("players", "3 to 7 players", dict(players=9)),
    ("turned card in hand", "turned card", dict(trump_card="AS")),
]


test_bad_history_is_a_one_line_input_error = one_line_error_test(play_query, BASE, BAD, samples=20)


def test_inputs_that_are_fine():
    """The same base position is accepted (so the errors above are caused by the change)
    and a complete last trick means an empty trick in progress."""
    assert play_query(**BASE, samples=20)["to_move"] == 3
    s = BoerenbridgeInfoState.from_inputs(4, "AS KS 2H 5D", "5H", 0, "1,2,1,0",
                                          "2C 5C KC 9C | 3D 4D 6D 8C")
    assert s.leader == 0 and s.current == () and s.won == (1, 0, 1, 0) and s.h == 6
    assert s.voids == (0, 1 << 2, 0, 0)
    assert parse_history("2C 5C KC 9C |") == [[0 + 16 * 3, 3 + 16 * 3, 11 + 16 * 3, 7 + 16 * 3], []]


def test_info_state_api_others_and_apply():
    s = BoerenbridgeInfoState.from_inputs(4, "AS KS 2H 5D 8C", "5H", 3, "1,2,1,0",
                                          "2C 5C KC 9C | 3D")
    assert s.legal_actions() == [parse_card("5D")]        # must follow diamonds
    s2 = s.apply("5D")
    assert s2.to_move == 0 and s.to_move == 3            # s itself is unchanged
    opts = s2.legal_actions()                             # what position 0 might hold
    assert parse_card("5D") not in opts and parse_card("AS") not in opts
    assert parse_card("4D") in opts
    s3 = s2.apply("2D").apply("QH")                       # position 1 shows no diamonds
    assert s3.voids[1] == 1 << 2 and s3.t == 2 and s3.to_move == 1 and s3.won[1] == 1
    assert not any(c >> 4 == 2 for c in s3.legal_actions())
    with pytest.raises(RulesError):
        s3.apply("AD")
    with pytest.raises(CardError):
        s3.apply("KS")                                    # in my hand
    with pytest.raises(RulesError):
        s3.decide()                                       # not my turn


@pytest.mark.parametrize("args,variants", [
    (("--hand-size", 8, "--deals", 300), ()),
    (("--players", 5, "--schedule", "standard", "--games", 3, "--variant", "scoring=dutch",
      "--variant", "no_trump_rounds=top", "--variant", "bauer_bonus"),
     ("scoring=dutch", "no_trump_rounds=top", "bauer_bonus")),
])
def test_heuristic_card_equals_record_play_file(tmp_path, args, variants):
    """Positions read back from a ``--record-play`` file of the CLI: the interface's
    heuristic plays the recorded card every time."""
    import json
    from conftest import run_cli
    path = tmp_path / "play.jsonl"
    run_cli("simulate", "boerenbridge", *args, "--seed", 9, "--record-play", path, check=0)
    n = 0
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for state, card in positions_from_record(rec, variants):
            assert decide(state, "heuristic") == card
            n += 1
    assert n > 1000


def test_small_heuristic_kernels_equal_the_general_ones(monkeypatch):
    """The default query and decision run small heuristic-only kernels; the general
    kernels (any policy) give the same answers for the heuristic."""
    import fastsim.boerenbridge_play_nb as pq
    from analyzer.boerenbridge_play import POLICIES
    rules, res, recs = recorded(20, 61, players=5, hand_size=6)
    states = [s for rec in recs for s, _ in positions_from_record(rec)][::7]
    small = [(decide(s), play_query(None, None, None, None, None, state=s, samples=50))
             for s in states]
    monkeypatch.setattr(pq, "play_query_nb", pq.play_query_policy_nb)
    for s, (card, out) in zip(states, small):
        a = s.kernel_args()
        r = s.rules
        general = pq.decide_card_nb(POLICIES["heuristic"], np.uint64(0), np.int64(0), s.n, s.h,
                                    s.position, a["hand"], np.int64(s._legal_mask()), s.turned,
                                    s.trump, a["played"], a["bids"], a["won"], s.t, s.leader,
                                    a["tc"], a["tn"], a["voids"], a["played_by"], r.flags,
                                    s.is_blind, np.int64(4))
        assert general == card
        assert play_query(None, None, None, None, None, state=s, samples=50) == out

"""The Bonken play query (trick contracts): the interface's policies equal the simulator
card for card, sampled worlds respect the history, exact positions are exact, bad input
is a one-line error."""
import json
import random

import numpy as np
import pytest

import analyzer.bonken_play as bp
from analyzer.bonken_play import (BonkenInfoState, play_query, positions_from_record,
                                  sample_worlds)
from analyzer.infostate import decide
from analyzer.records import bonken_records
from fastsim.bonken import simulate
from fastsim.bonken_schema import POLICY_NAMES, build_rules, parse_seat_policies
from fastsim.cards import card_str
from fastsim.common import RulesError
from helpers_play import (assert_one_line_error, bad_inputs, check_answer, check_marginals,
                          one_line_error_test, pick_states, played_out, replay_heuristic)


def recorded(n_games, seed, variants=(), seat_policies=(), contract=None, worlds=3):
    rules = build_rules(variants)
    pol = parse_seat_policies("heuristic", seat_policies)
    res = simulate(rules, n_games, seed=seed, policies=pol, contract=contract, record=True,
                   worlds=worlds)
    recs = list(bonken_records(res))
    return res, [(r, rec) for r, rec in enumerate(recs) if rec["contract"] != "domino"]


TRICK_CONTRACTS = ["ducking", "no-hearts", "no-men", "no-queens", "no-king-of-hearts",
                   "no-last", "spades", "hearts", "diamonds", "clubs", "no-trump"]


@pytest.mark.parametrize("variants,contract,n_games", [
    ((), None, 40), (("hearts_lead=after_broken",), None, 20)]
    + [((), c, 15) for c in TRICK_CONTRACTS]
    + [(("hearts_lead=after_broken",), c, 15) for c in ("no-hearts", "no-king-of-hearts")])
def test_heuristic_card_equals_simulator(variants, contract, n_games):
    res, recs = recorded(n_games, 12, variants, contract=contract)
    n = 0
    contracts = set()
    for r, rec in recs:
        n += replay_heuristic(bp, rec, variants)[1]
        contracts.add(rec["contract"])
    if contract is None:
        assert len(contracts) >= 8 and n > 5_000
    else:
        assert contracts == {contract} and n > 150


def test_random_and_pimc_cards_equal_simulator():
    res, recs = recorded(3, 14, seat_policies=("0=random", "3=pimc"))
    kinds = set()
    for r, rec in recs:
        deal_index = int(res.deals["deal"][r])
        for state, card in positions_from_record(rec):
            pol = POLICY_NAMES[int(res.policies[(rec["dealer"] + 1 + state.position) % 4])]
            kinds.add(pol)
            assert decide(state, pol, seed=14, deal=deal_index, worlds=3) == card
    assert kinds == {"random", "heuristic", "pimc"}


def check_world(state, world):
    tn = len(state.current)
    seen = state.played | state.hand
    kv = state.known_voids()
    total = 0
    assert world[state.position] == state.hand
    for q in range(4):
        if q == state.position:
            continue
        m = int(world[q])
        assert bin(m).count("1") == 13 - state.t - (1 if (q - state.leader) % 4 < tn else 0)
        assert m & seen == 0 and m & total == 0
        total |= m
        for s in range(4):
            if kv[q] >> s & 1:
                assert m >> (16 * s) & 0x1FFF == 0
    assert total | seen == 0x1FFF1FFF1FFF1FFF & ((1 << 61) - 1)   # every card somewhere


def test_sampled_worlds_never_contradict_the_history():
    res, recs = recorded(15, 21)
    rng = random.Random(3)
    n_hearts_only = 0
    for r, rec in recs:
        states = [s for s, _ in positions_from_record(rec)]
        for state in rng.sample(states, min(4, len(states))):
            worlds, logw = sample_worlds(state, 30, seed=r)
            assert np.isfinite(logw).all()
            for w in worlds:
                check_world(state, w)
            n_hearts_only += any(state.hearts_only)
    assert n_hearts_only > 0


def _enumerate_worlds(state):
    import itertools
    from fastsim.cards import codes_of
    me, tn = state.position, len(state.current)
    unseen = codes_of(0x1FFF1FFF1FFF1FFF & ~(state.played | state.hand))
    caps = {q: 13 - state.t - (1 if (q - state.leader) % 4 < tn else 0)
            for q in range(4) if q != me}
    kv = state.known_voids()
    qs = list(caps)
    out = []
    for a in itertools.combinations(unseen, caps[qs[0]]):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, caps[qs[1]]):
            hands = {qs[0]: a, qs[1]: b, qs[2]: tuple(c for c in rest if c not in b)}
            if all(not kv[q] >> (c >> 4) & 1 for q in qs for c in hands[q]):
                out.append({q: sum(1 << c for c in hands[q]) for q in qs})
    return out


def _soft_choice_logp(dealt, avail, chosen):
    """log P(the chooser holding ``dealt`` picks ``chosen`` from ``avail``): a softmax of
    the heuristic chooser's values (docs/bonken.md), written from the reference engine."""
    import math
    from fastsim import bonken_strong_nb as snb
    from fastsim.cards import codes_of
    from naive_bonken import BASELINE, contract_trump, hand_value, negative_cost
    hand = [card_str(c) for c in codes_of(dealt)]
    temp = snb.TEMP_NEGATIVE if chosen < 7 else snb.TEMP_TRUMP
    vals = {c: (BASELINE[c] - negative_cost(hand, c) if c < 7
                else hand_value(hand, contract_trump(c))) / temp for c in avail}
    top = max(vals.values())
    return vals[chosen] - top - math.log(sum(math.exp(v - top) for v in vals.values()))


def test_worlds_are_weighed_by_the_contract_choice():
    """With the contracts the chooser chose from known, the worlds carry its choice's
    likelihood: weighted card frequencies agree with exact enumeration weighted by the soft
    chooser (written anew from the reference engine), and differ from the unweighted."""
    res, recs = recorded(20, 41)
    states = pick_states((rec for _, rec in recs), positions_from_record, lambda state: (
        state.t == 10 and not state.current and state.position != 1 and state.contract != 6), 4)
    moved = 0.0
    for state in states:
        avail = list(range(7)) if state.contract < 7 else list(range(7, 12))
        s = state._copy()
        s.chosen_from = sum(1 << c for c in avail)
        exact = _enumerate_worlds(s)
        lw = np.array([_soft_choice_logp(x[1] | s.played_by[1], avail, s.contract)
                       for x in exact])
        pw = np.exp(lw - lw.max())
        pw /= pw.sum()
        worlds, logw = sample_worlds(s, 6000, seed=5)
        assert np.array_equal(sample_worlds(s, 50, seed=5, weigh_choice=False)[0], worlds[:50])
        moved = max(moved, check_marginals(s, exact, worlds, logw, 0.04, pw, qs=(0, 2, 3),
                                           cards=range(64))[1])
    assert moved > 0.03


def test_query_weighs_the_choice_when_told_the_available_contracts():
    kw = dict(contract="no-hearts", hand="AS KS 2H 5D 8C 6C QH 3S 4S 7D TD JC", position=2,
              history="2C 5C KC 9C |", samples=300)
    plain = play_query(**kw)
    told = play_query(**kw, available="ducking,no-hearts,no-queens")
    assert plain["choice_model"] is None and plain["chosen_from"] is None
    assert told["choice_model"].startswith("soft") and told["effective_samples"] < 300
    assert told["chosen_from"] == ["ducking", "no-hearts", "no-queens"]
    for bad in ("ducking,no-queens", "no-hearts,spades", "no-hearts,bogus"):
        with pytest.raises(RulesError):
            play_query(**kw, available=bad)
    with pytest.raises(RulesError):
        play_query("domino", "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", 0, available="domino")


def test_query_on_many_positions():
    res, recs = recorded(6, 31)
    rng = random.Random(4)
    n_exact = 0
    for r, rec in recs:
        for state, card in positions_from_record(rec):
            last = state.t == 12 and len(state.current) == 3
            if not last and rng.random() > 0.05:
                continue
            out = play_query(None, None, None, state=state, samples=40, seed=r)
            check_answer(out, state, card)
            if last:
                n_exact += 1
                (x,) = out["cards"]
                assert out["exact"] and x["expected_score"] == played_out(
                    bp, rec).scores()[state.position]
                assert x["expected_score_ci"] == [x["expected_score"]] * 2
    assert n_exact > 5


def test_query_is_reproducible_and_thread_independent():
    kw = dict(contract="no-hearts", hand="AS KS 2H 5D 8C 6C QH 3S 4S 7D TD JC", position=2,
              history="2C 5C KC 9C |", samples=300)
    a = play_query(**kw, seed=5, threads=1)
    b = play_query(**kw, seed=5, threads=2)
    assert a == b and json.loads(json.dumps(a)) == a
    for policy in ("random", "pimc"):
        kw2 = dict(kw, samples=20)
        assert play_query(**kw2, policy=policy, worlds=2, threads=1) == \
            play_query(**kw2, policy=policy, worlds=2, threads=2)


BASE = dict(contract="no-hearts", hand="AS KS 2H 5D 8C 6C QH 3S 4S 7D TD JC", position=2,
            history="2C 5C KC 9C |")
H11 = "AS KS 2H 5D 8C 6C QH 3S 7D TD JC"      # BASE's hand without 4S (which is led to trick 2)
BAD = [
    ("played twice", "already played", dict(hand=H11, history="2C 5C KC 9C | 4S 2C")),
    ("in another hand", "in the hand of position 2", dict(hand=H11, history="2C 5C KC 9C | 4S AS")),
    ("still in my hand", "still in the hand", dict(history="2C 5C KC 9C | AS")),
    ("void", "has no clubs", dict(hand=H11, history="2C 5C KC 9D | 4S 7C")),
    ("must follow", "must follow clubs", dict(hand="AS KS 2H 5D 8C 6C QH KC 4S 7D TD JC",
                                              history="2C 5C 3S 9C |")),
    ("out of turn", "turn", dict(position=1)),
    ("hand size", "wrong size", dict(hand=H11)),
    ("hearts lead", "may not lead hearts", dict(hand="AS KS 4S 5D 8C 6C QH 3S 7D TD JC",
                                                history="2C 5C KC 9C | 2H")),
    ("domino hand size", "wrong size", dict(contract="domino", history="")),
    ("contract", "unknown contract", dict(contract="bridge")),
    ("trick too long", "5 cards", dict(history="2C 5C KC 9C 3C")),
    ("card", "unknown card", dict(history="2C 5C KC 9Z")),
]


test_bad_history_is_a_one_line_input_error = one_line_error_test(play_query, BASE, BAD)


def test_restricted_heart_lead_shows_a_hand_of_hearts():
    # position 0 leads a heart in No Hearts at trick 2: it holds only hearts from then on
    s = BonkenInfoState.from_inputs("no-hearts", "AS KS 5D 8C 6C QH 3S 4S 7D TD JC 2S", 1,
                                    "KC 5C 9C 2C | 3H")
    assert s.to_move == 1 and s.hearts_only == (True, False, False, False)
    assert s.known_voids()[0] == 0b1101 and s.voids[0] == 0
    s2 = s.apply("QH").apply("4H").apply("AH").apply("7C")
    assert s2.to_move == 0 and all(c >> 4 == 1 for c in s2.legal_actions())
    with pytest.raises(RulesError, match="only hearts"):
        s2.apply("7S")
    worlds, logw = sample_worlds(s, 50)
    assert np.isfinite(logw).all()
    assert all(int(w[0]) & ~(0x1FFF << 16) == 0 for w in worlds)
    # with hearts_lead=after_broken a heart lead after a heart fell says nothing
    s3 = BonkenInfoState.from_inputs("no-hearts", "AS KS 5D 8C 6C QH 3S 4S 7D TD JC 2S", 1,
                                     "KC 5C 9C 2H | 3H", variants=("hearts_lead=after_broken",),
                                     require_turn=False)
    assert s3.broken and s3.hearts_only == (False,) * 4


def test_small_heuristic_kernels_equal_the_general_ones(monkeypatch):
    import fastsim.bonken_play_nb as pq
    res, recs = recorded(2, 63)
    states = [s for _, rec in recs for s, _ in positions_from_record(rec)][::11]
    small = [(decide(s), play_query(None, None, None, state=s, samples=40)) for s in states]
    monkeypatch.setattr(pq, "play_query_nb", pq.play_query_policy_nb)
    for s, (card, out) in zip(states, small):
        a = s.kernel_args()
        assert pq.decide_card_nb(1, np.uint64(0), np.int64(0), s.contract, s.position, a["hand"],
                                 np.int64(s._legal_mask()), s.rules.flags, s.t,
                                 s.leader, a["tc"], a["tn"], a["played"], a["broken"],
                                 a["taken"], a["scores"], a["voids"], np.int64(2)) == card
        assert play_query(None, None, None, state=s, samples=40) == out


# ------------------------------------------------------------------ domino

from analyzer.bonken_play import (DominoInfoState, domino_positions_from_record,  # noqa: E402
                                  domino_sample_worlds, PASS, _domino_legal,
                                  _domino_place)


def domino_records(n, seed, seat_policies=()):
    res, recs = None, None
    rules = build_rules(())
    pol = parse_seat_policies("heuristic", seat_policies)
    res = simulate(rules, n, seed=seed, policies=pol, contract="domino", record=True)
    return res, list(bonken_records(res))


def test_domino_moves_equal_simulator():
    for seat_policies in ((), ("1=random", "2=pimc")):
        res, recs = domino_records(60, 41, seat_policies)
        n = n_pass = 0
        for r, rec in enumerate(recs):
            deal_index = int(res.deals["deal"][r])
            last = None
            for state, mv in domino_positions_from_record(rec):
                pol = POLICY_NAMES[int(res.policies[(rec["dealer"] + 1 + state.position) % 4])]
                assert mv in state.legal_actions()
                assert decide(state, pol, seed=41, deal=deal_index) == mv
                n += 1
                n_pass += mv == PASS
                last = state.apply(mv)
            assert last.is_terminal
            loser = (rec["out_order"] and
                     [q for q in range(4) if last.held[q]][0])
            assert rec["scores"][(rec["dealer"] + 1 + loser) % 4] == -50
        assert n > 3000 and n_pass > 100


def test_domino_worlds_respect_the_passes():
    res, recs = domino_records(30, 43)
    rng = random.Random(7)
    n_forbid = 0
    for r, rec in enumerate(recs):
        states = [s for s, _ in domino_positions_from_record(rec)]
        for state in rng.sample(states, 5):
            worlds, logw = domino_sample_worlds(state, 20, seed=r)
            assert np.isfinite(logw).all()
            for w in worlds:
                assert w[state.position] == state.hand
                hands = [int(w[q]) | state.played_by[q] for q in range(4)]
                assert sum(bin(x).count("1") for x in hands) == 52
                # replay: every pass had no playable card, every card was playable and held
                lo, hi = [-1] * 4, [-1] * 4
                for p, mv in state.moves:
                    legal = _domino_legal(hands[p], lo, hi)
                    if mv == PASS:
                        assert legal == 0
                    else:
                        assert legal >> mv & 1
                        hands[p] &= ~(1 << mv)
                        lo, hi = _domino_place(lo, hi, mv)
            n_forbid += any(state.forbid)
    assert n_forbid > 20


def test_domino_query():
    res, recs = domino_records(12, 47)
    for r, rec in enumerate(recs):
        for state, mv in list(domino_positions_from_record(rec))[::9]:
            out = play_query("domino", None, None, state=state, samples=40, seed=r)
            legal = [card_str(c) if c != PASS else "pass" for c in state.legal_actions()]
            assert [x["card"] for x in out["cards"]] == legal
            assert out["recommended"] in legal
            assert out["policy_choice"] == (card_str(mv) if mv != PASS else "pass")
            for x in out["cards"]:
                assert -50 <= x["expected_score"] <= 0
                assert x["expected_score"] == pytest.approx(-50 * x["p_last"])
    a = play_query("domino", "AS KS 2H 5D 6C QH 3S 4S 7D TD JC 8H", 0, "8C 9C pass 7C",
                   samples=200, threads=1)
    assert a == play_query("domino", "AS KS 2H 5D 6C QH 3S 4S 7D TD JC 8H", 0,
                           "8C 9C pass 7C", samples=200, threads=2)
    assert [x["card"] for x in a["cards"]] == ["8H", "6C"]
    assert json.loads(json.dumps(a)) == a


DOMINO_BAD = [
    ("pass when able", "must move", dict(hand="AS KS 2H 5D 6C QH 3S 4S 7D TD JC 8H 8C",
                                        history="pass")),
    ("does not fit", "does not fit", dict(hand="AS KS 2H 5D 6C QH 3S 4S 7D TD JC 8H",
                                          history="9C")),
    ("passed earlier", "passed earlier", dict(hand="AS KS 2H 5D 6C QH 3S 4S 7D TD JC",
                                              history="8C pass 8S 9S 7S 9C")),
    ("out of turn", "turn", dict(hand="AS KS 2H 5D 6C QH 3S 4S 7D TD JC 8H", position=1,
                                 history="8C 9C")),
    ("in my hand", "in the hand of position 0",
     dict(hand="AS KS 2H 5D 6C QH 3S 4S 7D TD JC 8C", history="8S 8C")),
]


@bad_inputs(DOMINO_BAD)
def test_domino_bad_history(name, expect, change):
    kw = dict(dict(position=0), **change)
    assert_one_line_error(play_query, expect, "domino", kw["hand"], kw["position"],
                          kw["history"], samples=10)


@pytest.mark.parametrize("contract, policy, words", [
    ("no-hearts", "heuristic", ["the heuristic", "penalty card", "standings"]),
    ("spades", "heuristic", ["the heuristic", "wants tricks", "standings"]),
    ("no-men", "pimc", ["pimc", "own round score", "standings"]),
    ("domino", "heuristic", ["Domino heuristic"]),
    ("no-queens", "random", ["random legal card"]),
])
def test_query_states_the_others_model(contract, policy, words):
    from analyzer.infostate import render_play
    hand = "AS KS 2H 5D 6C QH 3S 4S 7D TD JC 8H 9C"
    r = play_query(contract, hand, 0, samples=10, policy=policy, worlds=2)
    for w in words:
        assert w in r["others_model"], (w, r["others_model"])
    assert f"note: {r['others_model']}" in render_play(r)

"""The Klaverjassen play query: the interface's policies equal the simulator card for card
(all variants), the card-level constraints of the trumping duties never exclude the truth
and every sampled world replays the history legally, the sampler is uniform, exact
positions are exact, bad input is a one-line error."""
import itertools
import json
import random

import numpy as np
import pytest

from analyzer.infostate import decide
import analyzer.klaverjassen_play as kp
from analyzer.klaverjassen_play import (KlaverjassenInfoState, play_query, positions_from_record,
                                        sample_worlds, TEAM_OF_POS, _arr)
from analyzer.records import klaverjassen_records
from fastsim import klaverjassen_play_nb as pq
from fastsim.cards import card_str, codes_of
from helpers_play import (check_answer, check_marginals, one_line_error_test, pick_states,
                          played_out, replay_heuristic)
from fastsim.klaverjassen import simulate
from fastsim.klaverjassen_schema import POLICY_NAMES, build_rules, parse_seat_policies

VARIANT_SETS = [(), ("amsterdam",), ("undertrump=forced",), ("four_of_a_kind=all_100",),
                ("amsterdam", "undertrump=forced")]


def recorded(n, seed, variants=(), seat_policies=(), first_dealer=0, worlds=3):
    rules = build_rules(variants, first_dealer=first_dealer)
    pol = parse_seat_policies("heuristic", seat_policies)
    res = simulate(rules, n, seed=seed, policies=pol, record=True, worlds=worlds)
    return res, list(klaverjassen_records(res))


@pytest.mark.parametrize("variants", VARIANT_SETS)
def test_heuristic_card_equals_simulator(variants):
    n = 0
    for dealer in (0, 1):
        res, recs = recorded(150, 7 + dealer, variants, first_dealer=dealer)
        for rec in recs:
            d, played = replay_heuristic(kp, rec, variants, seat_scores=False)
            n += played
            ours = d.scores()                    # per position-team
            seat_team = [(rec["dealer"] + 1 + p) % 2 for p in (0, 1)]
            assert [rec["team_scores"][seat_team[0]], rec["team_scores"][seat_team[1]]] == ours
    assert n == 2 * 150 * 32


def test_random_and_pimc_cards_equal_simulator():
    for variants in ((), ("amsterdam",)):
        res, recs = recorded(40, 17, variants, seat_policies=("1=random", "2=pimc"))
        kinds = set()
        for r, rec in enumerate(recs):
            deal_index = int(res.deals["deal"][r])
            for state, card in positions_from_record(rec, variants):
                pol = POLICY_NAMES[int(res.policies[(rec["dealer"] + 1 + state.position) % 4])]
                kinds.add(pol)
                assert decide(state, pol, seed=17, deal=deal_index, worlds=3) == card
        assert kinds == {"random", "heuristic", "pimc"}


def replays_legally(state, world, variants):
    """Deal the world's hands plus the cards played back, and check every history card
    was legal for its player under the engine's own legality."""
    rules = build_rules(variants)
    hands = [int(world[q]) | state.played_by[q] for q in range(4)]
    leader = 0
    for lead, cards, w in list(state.tricks) + [(state.leader, state.current, None)]:
        assert lead == leader
        for j, c in enumerate(cards):
            p = (lead + j) % 4
            legal = int(pq.legal_here_nb(np.int64(hands[p]), _arr(list(cards[:j])), j, lead,
                                         state.trump, TEAM_OF_POS, p, rules.flags))
            if not legal >> c & 1:
                return False
            hands[p] &= ~(1 << c)
        if w is not None:
            leader = w
    return True


@pytest.mark.parametrize("variants", VARIANT_SETS[:3])
def test_sampled_worlds_replay_the_history_legally(variants):
    res, recs = recorded(60, 23, variants)
    rng = random.Random(1)
    n_forbid = 0
    for r, rec in enumerate(recs):
        states = [s for s, _ in positions_from_record(rec, variants)]
        for state in rng.sample(states, 4):
            worlds, logw = sample_worlds(state, 25, seed=r)
            assert np.isfinite(logw).all()
            seen = state.hand | state.played
            total = 0
            for w in worlds:
                assert w[state.position] == state.hand
                for q in range(4):
                    if q != state.position:
                        m = int(w[q])
                        assert m & seen == 0 and m & state.forbid[q] == 0
                        total |= m
                assert replays_legally(state, w, variants)
            # the constraints go beyond suit voids
            n_forbid += any(f & ~sum(0x1FFF << (16 * s) for s in range(4) if v >> s & 1)
                            for f, v in zip(state.forbid, state.voids))
    assert n_forbid > 10


def enumerate_worlds(state):
    me, tn = state.position, len(state.current)
    unseen = codes_of(state.unseen_mask())
    caps = {q: 8 - state.t - (1 if (q - state.leader) % 4 < tn else 0)
            for q in range(4) if q != me}
    qs = list(caps)
    out = []
    for a in itertools.combinations(unseen, caps[qs[0]]):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, caps[qs[1]]):
            c3 = [c for c in rest if c not in b]
            hands = {qs[0]: a, qs[1]: b, qs[2]: tuple(c3)}
            if all(not (state.forbid[q] >> c & 1) for q in qs for c in hands[q]):
                out.append({q: sum(1 << c for c in hands[q]) for q in qs})
    return out


def test_sampler_is_uniform_over_consistent_worlds():
    res, recs = recorded(300, 29)
    states = pick_states(recs, positions_from_record, lambda state: state.t == 5 and len(
        state.current) == 0 and bin(sum(state.forbid)).count("1") > 6, 6)
    raw_off = 0.0
    for state in states:
        exact = enumerate_worlds(state)
        worlds, logw = sample_worlds(state, 8000, seed=2, tau=None)   # the sampler alone
        raw_off = max(raw_off, check_marginals(state, exact, worlds, logw, 0.035)[0])
    assert raw_off > 0.05


def _soft_round_loglik(dealt, me, calls, tau):
    """The calling round's log likelihood under the soft heuristic caller, written from
    the reference engine's call values (docs/inference.md): a pass has probability
    1 / (1 + exp((v − T + ½) / τ)), a call the complement, the suit ∝ exp(value / τ)."""
    import math
    from naive_klaverjassen import THRESHOLD, call_value
    ll = 0.0
    for k, suit in enumerate(calls):
        q = k if k < 4 else 0
        if q == me:
            continue
        hand = [card_str(c) for c in codes_of(dealt[q])]
        vals = [call_value(hand, s) for s in "SHDC"]
        top = max(vals)
        x = (top - THRESHOLD[q] + 0.5) / tau
        if suit < 0:
            ll += -math.log1p(math.exp(x))
            continue
        ll += (vals[suit] - top) / tau - math.log(sum(math.exp((v - top) / tau) for v in vals))
        if k < 4:
            ll += -math.log1p(math.exp(-x))
    return ll


def test_worlds_are_weighed_by_the_calling_round():
    """The play query's worlds carry the calling round's likelihood: weighted card
    frequencies agree with exact enumeration weighted by the soft caller (written anew from
    the reference engine), and differ from the unweighted ones."""
    res, recs = recorded(400, 37)
    states = pick_states(recs, positions_from_record, lambda state: state.t == 5 and len(
        state.current) == 0 and len([q for q in range(min(len(state.calls), 4))
                                     if q != state.position]) >= 2, 4)
    moved = 0.0
    for state in states:
        exact = enumerate_worlds(state)
        lw = np.array([_soft_round_loglik({q: x[q] | state.played_by[q] for q in x},
                                          state.position, state.calls, 10.0) for x in exact])
        pw = np.exp(lw - lw.max())
        pw /= pw.sum()
        worlds, logw = sample_worlds(state, 8000, seed=4)
        moved = max(moved, check_marginals(state, exact, worlds, logw, 0.035, pw)[1])
    assert moved > 0.05


def test_query_says_it_weighs_the_calls():
    kw = dict(hand="AS KS 7H 8D JC 9C AC TH", trump="C", caller=1, position=2,
              history="7S 8S", samples=200)
    r = play_query(**kw)
    assert r["calls_model"] == "soft (τ=10)" and r["effective_samples"] < 200
    assert play_query(**kw, policy="random")["calls_model"] is None
    assert play_query(**dict(kw, caller=0, position=0, history=""))["calls_model"] is None


def test_query_on_many_positions():
    res, recs = recorded(80, 31)
    rng = random.Random(2)
    n_exact = 0
    for r, rec in enumerate(recs):
        for state, card in positions_from_record(rec):
            last = state.t == 7 and len(state.current) == 3
            if not last and rng.random() > 0.06:
                continue
            out = play_query(None, None, None, None, state=state, samples=40, seed=r)
            check_answer(out, state, card)
            if last:
                n_exact += 1
                sc = played_out(kp, rec).scores()
                me = state.position & 1
                (x,) = out["cards"]
                assert out["exact"] and x["value"] == sc[me] - sc[1 - me]
                assert x["expected_score"] == sc[me] and x["value_ci"] == [x["value"]] * 2
    assert n_exact == len(recs)


def test_query_is_reproducible_and_thread_independent():
    kw = dict(hand="AS KS 7H 8D JC 9C AC TH", trump="C", caller=1, position=2,
              history="7S 8S", samples=300)
    a = play_query(**kw, seed=3, threads=1)
    assert a == play_query(**kw, seed=3, threads=2)
    assert json.loads(json.dumps(a)) == a
    nl = play_query(**dict(kw, hand="AS HS 7H 8R BK 9K AK 10H", trump="K", history="7S 8S"),
                    notation="nl", seed=3)
    assert [x["value"] for x in nl["cards"]] == [x["value"] for x in a["cards"]]
    for policy in ("random", "pimc"):
        kw2 = dict(kw, samples=20)
        assert play_query(**kw2, policy=policy, worlds=2, threads=1) == \
            play_query(**kw2, policy=policy, worlds=2, threads=2)


BASE = dict(hand="AS KS 7H 8D JC 9C AC TH", trump="C", caller=1, position=2, history="7S 8S")
H7 = "AS KS 7H 8D JC 9C TH"     # BASE's hand without AC
BAD = [
    ("played twice", "already played", dict(hand="AS 7H 8D JC 9C AC TH",
                                             history="7S 8S KS TS | QS 7S")),
    ("in my hand", "in the hand of position 2", dict(history="7S KS")),
    ("must follow", "may not play", dict(hand="AS KS 7H 8D JC 9C AC", history="7S 8S TH")),
    ("must overtrump", "may not play", dict(hand="AS KS 7H 8D JC 9C AC", history="7C QC 8C")),
    ("void", "has no spades", dict(hand="AS 7H 8D JC 9C AC",
                                   history="7S 8H KS 9S | QS 7D TD TS")),
    ("out of turn", "turn", dict(position=1, hand="AS KS 7H 8D JC 9C AC")),
    ("hand size", "wrong size", dict(hand=H7)),
    ("not in deck", "32-card deck", dict(history="2S 8S")),
    ("caller", "caller", dict(caller=4)),
    ("trump", "unknown suit", dict(trump="X")),
]


test_bad_history_is_a_one_line_input_error = one_line_error_test(play_query, BASE, BAD)


def test_trumping_duty_constraints():
    """Clubs trump, hearts led, position 1 ruffs with the 9, position 2 must overtrump if
    it can: playing a side card shows it holds no J of clubs (the only higher trump)."""
    s = KlaverjassenInfoState.from_inputs("AS KS 7H 8D 7C 8C AC", "C", 0, 0, "AH 9C QS",
                                          require_turn=False)
    jc = 1 << (16 * 3 + 9)
    assert s.forbid[2] & jc and not s.forbid[2] & (1 << (16 * 3 + 10))
    assert s.forbid[1] & (0x1FFF << 16) and s.forbid[2] & (0x1FFF << 16)
    worlds, _ = sample_worlds(s, 200)
    assert all(not int(w[2]) & jc for w in worlds)
    assert any(int(w[1]) & jc for w in worlds) and any(int(w[3]) & jc for w in worlds)


def test_small_heuristic_kernels_equal_the_general_ones(monkeypatch):
    res, recs = recorded(30, 65, ("amsterdam",))
    states = [s for rec in recs for s, _ in positions_from_record(rec, ("amsterdam",))][::9]
    small = [(decide(s), play_query(None, None, None, None, state=s, samples=40))
             for s in states]
    monkeypatch.setattr(pq, "play_query_nb", pq.play_query_policy_nb)
    for s, (card, out) in zip(states, small):
        a = s.kernel_args()
        r = s.rules
        assert pq.decide_card_nb(1, np.uint64(0), np.int64(0), s.position, a["hand"], s.trump,
                                 TEAM_OF_POS, s.playing, s.t, s.leader, a["tc"], a["tn"],
                                 a["played"], a["won"], a["cp"], a["rm"], a["voids"],
                                 r.flags, np.int64(2)) == card
        assert play_query(None, None, None, None, state=s, samples=40) == out

"""What the play-query tests of every game share: the bad-input cases' parametrization
and the one-line input error check."""
import numpy as np
import pytest

from fastsim.cards import CardError, card_str, codes_of
from fastsim.common import RulesError


def bad_inputs(cases):
    """``pytest.mark.parametrize`` over ``(name, expect, change)`` cases, named by ``name``."""
    return pytest.mark.parametrize("name,expect,change", cases, ids=[b[0] for b in cases])


def assert_one_line_error(call, expect, *args, **kw):
    """``call(*args, **kw)`` raises the project's input error: one line containing ``expect``."""
    with pytest.raises((RulesError, CardError)) as e:
        call(*args, **kw)
    msg = str(e.value)
    assert expect in msg and "\n" not in msg, msg


def one_line_error_test(query, base, cases, samples=10):
    """The test that ``query(**base changed by a case, samples=samples)`` gives a one-line
    input error for every bad-input case (bind it to a ``test_…`` name)."""
    @bad_inputs(cases)
    def test(name, expect, change):
        assert_one_line_error(query, expect, **dict(base, **change), samples=samples)
    return test


def pick_states(recs, positions, want, count):
    """The first state meeting ``want`` of each record (``positions(rec)`` yields
    ``(state, card)``), from the first ``count`` records that have one (all must be found)."""
    out = []
    for rec in recs:
        for state, _ in positions(rec):
            if want(state):
                out.append(state)
                break
        if len(out) == count:
            break
    assert len(out) == count
    return out


def check_marginals(state, exact, worlds, logw, tol, pw=None, qs=None, cards=None):
    """The worlds weighted by ``exp(logw)`` give P(position q holds card c) within ``tol``
    of the exact worlds' (``exact``: hands by position; weighted by ``pw``, by default
    uniform) for every other position q (of ``qs``, by default all) and every unseen card
    (``cards``: those instead, each checked where some exact world gives it to q). Returns
    the largest gap of the unweighted draws from the exact law and the largest gap of that
    law from the uniform one over ``exact``."""
    w = np.exp(logw - logw.max())
    raw_off = moved = 0.0
    for q in range(state.n) if qs is None else qs:
        if q == state.position:
            continue
        for c in codes_of(state.unseen_mask()) if cards is None else cards:
            if cards is not None and not any(x[q] >> c & 1 for x in exact):
                continue
            p_flat = sum(1 for x in exact if x[q] >> c & 1) / len(exact)
            p = p_flat if pw is None else float(sum(p for x, p in zip(exact, pw) if x[q] >> c & 1))
            held = (worlds[:, q] >> c) & 1
            p_est = float((w * held).sum() / w.sum())
            assert abs(p_est - p) < tol, (state, q, c, p_est, p)
            raw_off = max(raw_off, abs(float(held.mean()) - p))
            moved = max(moved, abs(p - p_flat))
    return raw_off, moved


def check_answer(out, state, card):
    """A play query's answer ``out`` for ``state``: it recommends a legal card, scores the
    legal cards in order, and its policy's card is ``card`` (the simulator's there)."""
    legal = [card_str(c) for c in state.legal_actions()]
    assert out["recommended"] in legal
    assert [x["card"] for x in out["cards"]] == legal
    assert out["policy_choice"] == card_str(card)


def played_out(play, rec):
    """The full-information deal of the record ``rec`` once every recorded card is played
    (``play``: the game's play module)."""
    d = play.deal_from_record(rec)
    for _, c in play.positions_from_record(rec):
        d = d.apply(c)
    return d


def replay_heuristic(play, rec, variants=None, seat_scores=True):
    """Replay the record ``rec`` on its full-information deal (``play``: the game's play
    module), every card checked: the state is its player's to move, the card legal and
    the heuristic's. With ``seat_scores`` the deal ends with the record's scores, by
    position. Returns ``(the final deal, the number of cards)``."""
    from analyzer.infostate import decide
    args = () if variants is None else (variants,)
    d = play.deal_from_record(rec, *args)
    n = 0
    for state, card in play.positions_from_record(rec, *args):
        assert state.to_move == state.position
        assert card in state.legal_actions()
        assert decide(state, "heuristic") == card
        d = d.apply(card)
        n += 1
    if seat_scores:
        k = len(d.states)
        assert d.is_terminal
        assert d.scores() == [rec["scores"][(rec["dealer"] + 1 + p) % k] for p in range(k)]
    return d, n

"""The Boonaken play query weighs its worlds by the auction (``--auction``): the weights
are the likelihood of the auction under the soft heuristic bidder, recomputed here from the
slow reference engine's bidder (tests/naive_boonaken.py) with the soft model written anew;
the weighted worlds equal exact enumeration weighted the same way; under a hard bidder
every world that keeps weight re-bids exactly the recorded auction; every bad auction is
a one-line input error (exit 2 on the command line); without an auction nothing changes."""
import math
import random

import numpy as np
import pytest

import tests.test_play_boonaken as tpb
from analyzer.boonaken_play import (BoonakenInfoState, auction_str, check_auction,
                                    parse_auction, play_query, positions_from_record,
                                    sample_worlds)
from analyzer.infostate import copy_state, ess
from fastsim.boonaken_schema import CONTRACT_MISERE, PRESET_SEED
from fastsim.boonaken_strong_nb import AUCTION_EPS, AUCTION_TAU
from fastsim.common import RulesError
from helpers_boonaken import auction_loglik as _loglik, auction_turns, bits as _bits

BASE = tpb.BASE          # position 3 to move, declarer 2 bid 60 (seed preset, 4 players)
AUCTION = "pass 50 60 pass pass"     # 0 passes, 1 bids 50, 2 bids 60, 3 (me) and 1 pass


def _states(n, preset, deals, seed, every=1):
    _, recs = tpb.recorded(n, preset, deals, seed)
    for i, rec in recs:
        for k, (state, _) in enumerate(positions_from_record(rec)):
            if k % every == 0:
                yield i, state


def _bare(state):
    s = copy_state(state)
    s.auction = ()
    return s


# ------------------------------------------------------------------ the weights

@pytest.mark.parametrize("preset,n", [("seed", 4), ("seed", 2), ("pagat", 3),
                                      ("leimuiden", 5)])
def test_weights_are_the_auctions_likelihood_under_the_soft_bidder(preset, n):
    """Per sampled world: the same world as without the auction, its log weight raised by
    exactly the auction's log likelihood (recomputed in Python) on the hands the others bid
    with: the world's hand plus the cards played — less, seed preset after draws, as many
    cards as were drawn (never an open table card, never one played before it could have
    been drawn)."""
    checked, varied = 0, 0
    for i, st in _states(n, preset, 6, 21, every=3):
        assert st.auction
        w0, l0 = sample_worlds(_bare(st), 30, seed=i)
        w, lw, ah = sample_worlds(st, 30, seed=i, auction_hands=True)
        assert np.array_equal(w, w0)
        a = st.kernel_args()
        for k in range(30):
            if not np.isfinite(l0[k]):
                assert not np.isfinite(lw[k])
                continue
            for q in range(n):
                if q == st.position:
                    continue
                held = int(w[k, q]) | st.played_by[q]
                h = int(ah[k, q])
                if st.preset != PRESET_SEED or st.draws == 0:
                    assert h == held
                else:
                    gone = held & ~h
                    assert h & ~held == 0 and bin(h).count("1") == 6
                    assert bin(gone).count("1") == st.draws and gone & st.open == 0
                    assert all(a["played_at"][c] != 0 for c in _bits(gone))
            want = _loglik(st.auction, [int(x) for x in ah[k]], st.position, _bits(st.open),
                           n, preset)
            assert lw[k] - l0[k] == pytest.approx(want, rel=1e-9, abs=1e-9)
            checked += 1
        fin = np.isfinite(l0)
        varied += len(set(np.round(lw[fin] - l0[fin], 9))) > 1
    assert checked > 200 and varied > 3


def test_weighted_worlds_equal_exact_enumeration_weighted_by_the_soft_bidder():
    """Late pagat positions (no draws: the auction hands are the world's hands plus the
    cards played): the sampled worlds' weighted marginals P(card c with holder q) equal
    those of every consistent whole deal, each weighted by its discard placements and the
    auction's likelihood under the soft bidder written anew here; the auction moves them."""
    rng = random.Random(3)
    checked, moved = 0, 0.0
    for seed in range(80):
        if checked >= 4:
            break
        _, recs = tpb.recorded(4, "pagat", 6, 300 + seed)
        for i, rec in recs:
            if checked >= 4:
                break
            for state, _ in positions_from_record(rec):
                if state.position == state.decl or not state.open & ~state.played:
                    continue
                if int(state.sampler_args()["cap"].sum()) > 11 or rng.random() < .5:
                    continue
                exact = tpb._enumerate(state)
                if len(exact) < 4:
                    continue
                keys = list(exact)
                ll = np.array([_loglik(state.auction, [k[q] | state.played_by[q] if q < 4
                                                       else 0 for q in range(5)],
                                       state.position, _bits(state.open), 4, "pagat")
                               for k in keys])
                if np.ptp(ll) < 0.5:
                    continue            # only positions where the auction matters
                tw = np.array([exact[k] for k in keys]) * np.exp(ll - ll.max())
                flat = np.array([exact[k] for k in keys])
                worlds, logw = sample_worlds(state, 8000, seed=seed)
                ok = np.isfinite(logw)
                w = np.exp(logw[ok] - logw[ok].max())
                unseen = int(state.sampler_args()["unseen"])
                for q in range(5):
                    if q == state.position:
                        continue
                    for c in _bits(unseen):
                        has = np.array([(k[q] >> c) & 1 for k in keys])
                        truth = float((tw * has).sum() / tw.sum())
                        est = float((w * ((worlds[ok, q] >> c) & 1)).sum() / w.sum())
                        assert abs(est - truth) < 0.05, (q, c, est, truth)
                        moved = max(moved, abs(truth - float((flat * has).sum() / flat.sum())))
                checked += 1
                break
    assert checked == 4 and moved > 0.05


@pytest.mark.parametrize("preset,n", [("pagat", 4), ("leimuiden", 3), ("seed", 3)])
def test_hard_bidder_keeps_only_worlds_that_rebid_the_auction(preset, n):
    """tau → 0 without floor (the heuristic bidder itself): every world that keeps weight
    re-bids exactly the recorded auction — each other position's auction hand, given to
    the reference engine's heuristic bidder, makes exactly its recorded call."""
    import naive_boonaken as nb
    kept = rejected = 0
    for i, st in _states(n, preset, 6, 41, every=3):
        w, lw, ah = sample_worlds(st, 24, seed=i, tau=1e-9, eps=0.0, auction_hands=True)
        l0 = sample_worlds(_bare(st), 24, seed=i)[1]
        assert not (np.isfinite(lw) & ~np.isfinite(l0)).any()
        for k in np.flatnonzero(np.isfinite(lw)):
            for q, a, standing, in_mis in auction_turns(st.auction):
                if q != st.position:
                    m = int(ah[k, q])       # (a declarer's hand may hold table cards)
                    got = nb.heuristic_auction_action(
                        [nb.card_str(c) for c in _bits(m)],
                        [nb.card_str(c) for c in _bits(st.open & ~m)], standing, q in in_mis,
                        n, preset)
                    assert (-1 if got is None else got) == a
            assert lw[k] == l0[k]        # the auction's likelihood is exactly 1 there
            kept += 1
        rejected += int((np.isfinite(l0) & ~np.isfinite(lw)).sum())
        # and every world the reference bidder would re-bid exactly is kept
        for k in np.flatnonzero(np.isfinite(l0) & ~np.isfinite(lw)):
            assert _loglik(st.auction, [int(x) for x in ah[k]], st.position, _bits(st.open), n,
                           preset, tau=0, eps=0.0) == -math.inf
    assert kept > 60 and rejected > kept      # the hard bidder really selects


# ------------------------------------------------------------------ the query

def test_query_weighs_by_the_auction_and_says_so():
    r = play_query(**BASE, samples=400, auction=AUCTION)
    assert r["auction"] == "0:pass 1:50 2:60 3:pass 1:pass"
    assert r["auction_model"] == f"soft heuristic bidder (tau={AUCTION_TAU:g}, floor {AUCTION_EPS:g})"
    assert "the auction weighed by the soft heuristic bidder" in r["note"]
    # the query's worlds are the sampler's, with the same weights (both kernels)
    _, lw = sample_worlds(BoonakenInfoState.from_inputs(**BASE, auction=AUCTION), 400)
    want = ess(np.exp(np.round(lw - lw.max(), 9)))
    assert r["effective_samples"] == pytest.approx(want, rel=1e-9) and want < 390
    p = play_query(**BASE, samples=40, auction=AUCTION, policy="pimc", worlds=1)
    assert p["effective_samples"] == pytest.approx(
        ess(np.exp(np.round(lw[:40] - lw[:40].max(), 9))), rel=1e-9)
    # the same position written with positions, and the text answer names the model
    assert play_query(**BASE, samples=400, auction="0:pass,1:50,2:60,3:pass,1:pass") == r
    from tests.conftest import invoke_cli
    code, out, err = invoke_cli(*tpb._cli_args(BASE), "--samples", 100, "--auction", AUCTION)
    assert code in (0, None), err
    assert "note: the auction weighed by the soft heuristic bidder (tau=10, floor 0.05)" in out


def test_without_an_auction_nothing_is_weighed():
    r = play_query(**BASE, samples=300)
    assert r["auction"] is None and r["auction_model"] is None
    assert r["note"] == "auction not given: worlds not weighed by it"
    assert r["effective_samples"] == 300
    assert play_query(**BASE, samples=300, auction="") == r
    rnd = play_query(**BASE, samples=50, auction=AUCTION, policy="random")
    assert rnd["auction_model"] is None and rnd["effective_samples"] == 50
    assert "random bidders" in rnd["note"]


def test_record_states_carry_their_auction_into_the_query():
    """A state from a record weighs by its auction exactly as the same inputs with
    ``--auction`` written out; stripped of it, as the inputs without."""
    n = 0
    for i, st in _states(4, "seed", 4, 5, every=7):
        kw = tpb.inputs_of(st)
        assert kw["auction"] == auction_str(st.auction)
        a = play_query(state=st, samples=30, seed=i)
        assert a["auction_model"] is not None
        assert play_query(**kw, samples=30, seed=i) == a
        bare = play_query(state=_bare(st), samples=30, seed=i)
        assert play_query(**dict(kw, auction=None), samples=30, seed=i) == bare
        assert bare["auction_model"] is None and "not given" in bare["note"]
        n += 1
    assert n > 5


# ------------------------------------------------------------------ bad auctions

BAD_AUCTIONS = [
    ("too long", "one too many", "pass 50 60 pass pass pass"),
    ("below", "does not beat the standing 60", "pass 60 50 pass pass"),
    ("equal", "does not beat", "pass 60 60"),
    ("pass is final", "passed earlier (a pass is final)", "0:pass 1:50 0:60"),
    ("out of turn", "speaks out of turn", "1:pass"),
    ("holder again", "holds the standing bid", "0:pass 1:50 1:60"),
    ("position", "not 0..3", "7:pass"),
    ("prefix", "not CALL or POSITION:CALL", "x:pass"),
    ("not a bid", "multiple of 5", "pass 50 63"),
    ("unknown", "unknown call", "pass 50 bridge"),
    ("all passed", "everyone passed", "pass pass pass pass"),
    ("unfinished", "not finished: position 3 has still to speak", "pass 50 60"),
    ("other contract", "ends in 70, but the contract is 60", "pass 50 70 pass pass"),
    ("other declarer", "position 1 won it, but the declarer is position 2", "pass 60 pass pass"),
    ("misere", "ends in misere, but the contract is 60", "pass pass misere pass"),
]


@pytest.mark.parametrize("name,expect,auction", BAD_AUCTIONS, ids=[b[0] for b in BAD_AUCTIONS])
def test_bad_auction_is_a_one_line_input_error(name, expect, auction):
    with pytest.raises(RulesError) as e:
        play_query(**BASE, samples=10, auction=auction)
    assert expect in str(e.value) and "\n" not in str(e.value), str(e.value)


@pytest.mark.parametrize("name,expect,auction", BAD_AUCTIONS, ids=[b[0] for b in BAD_AUCTIONS])
def test_cli_bad_auction_exits_2_with_one_line(name, expect, auction):
    from tests.conftest import invoke_cli
    code, out, err = invoke_cli(*tpb._cli_args(BASE), "--samples", "10", "--auction", auction)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and expect in err, err


def test_auction_rules_misere_joins_and_the_lone_bidder():
    # a misère while a misère stands joins it; the joiners must be the given ones
    assert check_auction("misere misere pass pass", 4, 0, CONTRACT_MISERE, 0, [1]) == \
        [(0, 16), (1, 16), (2, -1), (3, -1)]
    with pytest.raises(RulesError, match="positions 1 joined the misère, but the joiners are none"):
        check_auction("misere misere pass pass", 4, 0, CONTRACT_MISERE, 0, [])
    # a bid above the misère ends it: the earlier misère players speak again
    auc, holder, level, joined = parse_auction("misere misere 105 pass pass pass", 4)
    assert (holder, level, joined) == (2, 17, []) and [q for q, _ in auc] == [0, 1, 2, 3, 0, 1]
    # everyone else passed: the last player may still bid (or pass: a redeal)
    assert parse_auction("pass pass pass 25", 4)[1:] == (3, 0, [])
    assert parse_auction("0:pass 1:pass 2:pass 3:boonaak", 4)[1:] == (3, 74, [])

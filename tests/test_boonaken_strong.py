"""Boonaken's strong policy (fastsim/boonaken_strong_nb.py): reproducible for any thread
count, legal cards, the play interface's decide equals the engine card for card, only
exactly equivalent cards are merged, and strong seats run in tidy frames, tournaments and
the CLI."""
import json
import random

import numpy as np
import pytest

from analyzer import games as registry
from analyzer.boonaken_play import positions_from_record
from analyzer.infostate import copy_state, decide
from analyzer.records import boonaken_records
from analyzer.tournament import tournament
from conftest import run_cli
from helpers_boonaken import auction_loglik as _auction_loglik, bits as _bits
from fastsim import boonaken as bo
from fastsim.boonaken_schema import (PLAIN_POINTS, PLAIN_STRENGTH, POLICIES, POLICY_STRONG,
                                     PRESETS, TRUMP_POINTS, TRUMP_STRENGTH, parse_seat_policies)
from fastsim.boonaken_strong_nb import strong_cards_nb

FULL32 = sum(1 << (16 * s + r) for s in range(4) for r in range(5, 13))


def _run(n, preset, deals, seed, seat_policies, threads=None, worlds=2, record=False):
    pol = parse_seat_policies(n, "heuristic", seat_policies)
    return bo.simulate(bo.build_rules(n, preset), deals, seed=seed, policies=pol,
                       threads=threads, record=record, worlds=worlds)


def test_strong_is_a_boonaken_policy():
    assert POLICIES["strong"] == POLICY_STRONG
    assert list(parse_seat_policies(3, "pimc", ["1=strong"])) == [2, POLICY_STRONG, 2]


@pytest.mark.parametrize("preset", PRESETS)
def test_reproducible_for_one_and_two_threads(preset):
    a = _run(4, preset, 60, 5, ("0=strong", "2=strong", "3=pimc"), threads=1)
    b = _run(4, preset, 60, 5, ("0=strong", "2=strong", "3=pimc"), threads=2)
    for k in a.deals:
        assert np.array_equal(a.deals[k], b.deals[k]), k
    h = _run(4, preset, 60, 5, ("3=pimc",), threads=1)       # strong really plays its own cards
    assert not np.array_equal(a.deals["card_points"], h.deals["card_points"])


@pytest.mark.parametrize("preset,n", [(p, n) for p in PRESETS for n in (2, 4, 5)])
def test_strong_cards_legal_and_decide_equals_the_engine(preset, n):
    """Every card a strong seat played is legal in the interface's own rules, and decide
    with "strong" (and the same seed, deal and worlds) gives it back."""
    res = _run(n, preset, 6, 21, ("0=strong", f"{n - 1}=pimc"), record=True)
    recs = [(i, r) for i, r in enumerate(boonaken_records(res)) if not r["void"]]
    count = 0
    for i, rec in recs:
        for state, card in positions_from_record(rec):
            assert card in state.legal_actions()
            seat = (rec["dealer"] + 1 + state.position) % n
            if int(res.policies[seat]) == POLICY_STRONG:
                assert decide(state, "strong", seed=21, deal=i, worlds=2) == card
                count += 1
    assert count > 10


def _strength(c, trump):
    return (TRUMP_STRENGTH if c >> 4 == trump else PLAIN_STRENGTH)[c & 15]


def _points(c, trump):
    return (TRUMP_POINTS if c >> 4 == trump else PLAIN_POINTS)[c & 15]


def test_only_exactly_equivalent_cards_are_merged():
    """A dropped card has a kept or dropped neighbour one step lower in its suit's own order
    (trump order for trumps), both worth no points, with no card in between that someone
    else may hold; a kept card has no such lower neighbour."""
    rng = random.Random(3)
    out = np.empty(15, dtype=np.int64)
    merged = 0
    for _ in range(3000):
        deck = [16 * s + r for s in range(4) for r in range(5, 13)]
        legal = sum(1 << c for c in rng.sample(deck, rng.randint(1, 12)))
        unseen = sum(1 << c for c in deck if not legal >> c & 1 and rng.random() < 0.5)
        trump = rng.randint(-1, 3)
        k = strong_cards_nb(np.int64(legal), np.int64(unseen), trump, out)
        kept = set(int(c) for c in out[:k])
        assert kept <= {c for c in deck if legal >> c & 1} and list(out[:k]) == sorted(kept)
        for c in (c for c in deck if legal >> c & 1):
            s, st = c >> 4, _strength(c, trump)
            lower = [d for d in deck if d >> 4 == s and _strength(d, trump) < st
                     and unseen >> d & 1 or (d >> 4 == s and legal >> d & 1
                                             and _strength(d, trump) < st)]
            nxt = max(lower, key=lambda d: _strength(d, trump), default=None)
            equivalent = (nxt is not None and legal >> nxt & 1 and _points(nxt, trump) == 0
                          and _points(c, trump) == 0)
            assert (c not in kept) == equivalent, (hex(legal), hex(unseen), trump, c)
            merged += equivalent
    assert merged > 100


def test_tidy_frame_names_strong_and_plain_frames_are_unchanged():
    e = registry.get("boonaken")
    setup = e.make_setup("deal", players=3)
    res = e.simulate(setup, 5, seed=1, policies=e.parse_policies(setup, "heuristic", ["2=strong"]),
                     worlds=1)
    df = e.tidy(res)
    assert set(df.loc[df["seat"] == 2, "policy"]) == {"strong"}
    assert set(df.loc[df["seat"] != 2, "policy"]) == {"heuristic"}
    assert e.columns(res) is None
    plain = e.simulate(setup, 5, seed=1, worlds=1)
    assert list(e.tidy(plain)["policy"].cat.categories) == ["random", "heuristic", "pimc"]
    assert e.columns(plain) is not None
    assert e.metadata(res)["policies"] == ["heuristic", "heuristic", "strong"]
    msetup = e.make_setup("match", players=3)
    mres = e.simulate(msetup, 3, seed=1, worlds=1,
                      policies=e.parse_policies(msetup, "heuristic", ["0=strong"]))
    mdf = e.tidy(mres)
    assert set(mdf.loc[mdf["seat"] == 0, "policy"]) == {"strong"}


def test_strong_seats_run_in_a_tournament_and_the_cli():
    r = tournament("boonaken", ["strong", "pimc"], n=4, seed=1, worlds=1, threads=1)
    text = json.dumps(r, default=str)
    assert "strong" in text and "pimc" in text
    p = run_cli("tournament", "boonaken", "--policies", "strong,heuristic", "--deals", 4,
                "--worlds", 1, check=0)
    assert "strong" in p.stdout
    from analyzer.boonaken_play import play_query    # strong as everyone's rollout policy
    hand = "TS QS JH TD QD AD"
    out = play_query(players=4, preset="seed", declarer=2, contract=60, trump="C",
                     open_cards="7C AC", taken="AC", position=3, hand=hand, drawn="JH",
                     history="JC 7H KC QC | AS", roem=0, samples=8, policy="strong", worlds=1)
    assert out["policy"] == "strong" and out["policy_choice"] in hand.split()


# ----------------------------------------------------------------------------- auction weights

def _strong_states(n, preset, deals, seed, policies=("0=strong",)):
    res = _run(n, preset, deals, seed, policies, record=True)
    for i, rec in enumerate(boonaken_records(res)):
        if rec["void"]:
            continue
        for state, _ in positions_from_record(rec):
            yield i, rec, state


@pytest.mark.parametrize("preset,n", [("seed", 4), ("seed", 2), ("pagat", 3), ("leimuiden", 5)])
def test_auction_weights_agree_with_python_and_worlds_fit_what_was_seen(preset, n):
    """For sampled decisions: every candidate world deals only cards the player cannot see,
    at the hands' sizes, the declarer keeping the table cards it took; every auction hand
    is 6 cards of the world's hand plus the cards played (less, seed, as many cards as were
    drawn, never one played before its draw could have come, nor an open table card); and
    the kernel's log weight equals the plain Python replay of the auction."""
    from fastsim.boonaken_strong_nb import AUCTION_EPS, AUCTION_TAU
    from fastsim.boonaken_schema import LADDER as LAD
    checked, distinct = 0, 0
    for i, rec, st in _strong_states(n, preset, 8, 11):
        if st.t == 0 and not st.current and st.position != st.decl:
            continue
        assert [lv for _, lv in st.auction] == \
            [-1 if a == "pass" else LAD.index(a) for _, a in rec["auction"]] and st.auction
        cand, ah, logw = st.strong_worlds(6, seed=11, deal=i)
        me, sizes = st.position, st.sizes()
        a = st.kernel_args()
        seen = st.hand | st.played | st.sim_known
        draws = st.draws
        for w in range(6):
            world = [int(x) for x in cand[w]]
            for q in range(n):
                if q == me:
                    continue
                assert world[q] & seen & ~(st.sim_pinned if q == st.decl else 0) == 0
                assert bin(world[q]).count("1") == sizes[q]
                for r in range(q + 1, n + 1):
                    if r != me:
                        assert world[q] & world[r] == 0
                if q == st.decl:
                    assert world[q] & st.sim_pinned & ~st.played == st.sim_pinned & ~st.played
                h = int(ah[w, q])
                mine = world[q] | st.played_by[q]
                assert h & ~mine == 0 and bin(h).count("1") == 6
                gone = mine & ~h
                assert bin(gone).count("1") == draws
                assert gone & st.open == 0
                for c in _bits(gone):       # a drawn card was played after the first draw
                    assert a["played_at"][c] < 0 or a["played_at"][c] >= 1
                for c in _bits(st.played_by[q]):
                    if a["played_at"][c] == 0:
                        assert h >> c & 1
            want = _auction_loglik(st.auction, [int(x) for x in ah[w]], me, _bits(st.open), n,
                                   preset, AUCTION_TAU, AUCTION_EPS)
            assert logw[w] == pytest.approx(want, rel=1e-12, abs=1e-12)
            checked += 1
        distinct += len(set(np.round(logw, 9))) > 1
    assert checked > 50 and distinct > 3


def test_no_auction_means_equal_weights_and_weights_steer_the_worlds():
    """Without an auction every candidate weighs the same; with it, a declarer's high bid
    makes its candidate hands stronger on average than the unweighted ones (the weights
    really point somewhere)."""
    from fastsim.boonaken_nb import best_trump_nb
    gain, count = 0.0, 0
    for i, rec, st in _strong_states(4, "seed", 30, 3, ("0=strong", "1=strong", "2=strong",
                                                        "3=strong")):
        if st.position == st.decl or st.contract != 0 or st.t > 1 or st.current:
            continue
        bare = copy_state(st)
        bare.auction = ()
        cand0, ah0, l0 = bare.strong_worlds(40, seed=3, deal=i)
        assert (l0 == 0).all()
        cand, ah, logw = st.strong_worlds(40, seed=3, deal=i)
        assert np.array_equal(cand, cand0)          # the same candidates, only weighed
        w = np.exp(logw - logw.max())
        w /= w.sum()
        vals = np.array([best_trump_nb(np.int64(h | st.open), 4, 0)[1] for h in ah[:, st.decl]],
                        dtype=float)
        gain += float((w * vals).sum() - vals.mean())
        count += 1
    assert count >= 5 and gain / count > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_strong_reproducible_for_any_chunking(preset):
    a = _run(4, preset, 24, 8, ("0=strong", "1=strong"), threads=1)
    pol = parse_seat_policies(4, "heuristic", ("0=strong", "1=strong"))
    b = bo.simulate(bo.build_rules(4, preset), 24, seed=8, policies=pol, threads=2, chunk=5,
                    worlds=2)
    for k in a.deals:
        assert np.array_equal(a.deals[k], b.deals[k]), k

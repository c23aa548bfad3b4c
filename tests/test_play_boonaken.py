"""The Boonaken play query: the interface's policies equal the simulator card for card,
sampled worlds respect the history (seen cards, shown voids across draws, table cards),
the last card is exact, the CLI-style inputs rebuild the same state, bad input is a
one-line error (exit 2 on the command line)."""
import itertools
import json
import random

import numpy as np
import pytest

import analyzer.boonaken_play as bop
from analyzer.boonaken_play import (BoonakenInfoState, auction_str, deal_from_record,
                                    play_query, positions_from_record, sample_worlds)
from analyzer.infostate import copy_state, decide
from analyzer.records import boonaken_records
from fastsim import boonaken as bo
from fastsim.boonaken_schema import (CONTRACT_MISERE, CONTRACT_POINTS, CONTRACTS, POLICY_NAMES,
                                     PRESET_SEED, PRESETS, parse_seat_policies)
from fastsim.cards import NL_SUITS, SUITS, card_str
from helpers_play import bad_inputs, check_answer, one_line_error_test, played_out, replay_heuristic

FULL32 = sum(1 << (16 * s + r) for s in range(4) for r in range(5, 13))
SHAPES = [(p, n) for p in PRESETS for n in (2, 3, 4, 5)]


def recorded(n, preset, deals, seed, seat_policies=(), worlds=3):
    rules = bo.build_rules(n, preset)
    pol = parse_seat_policies(n, "heuristic", seat_policies)
    res = bo.simulate(rules, deals, seed=seed, policies=pol, record=True, worlds=worlds)
    return res, [(i, r) for i, r in enumerate(boonaken_records(res)) if not r["void"]]


def every_count(preset, deals, seed, seat_policies=()):
    """``(n, i, rec)``: the recorded deals (not void) of :func:`recorded` for 2 to 5 players."""
    for n in (2, 3, 4, 5):
        for i, rec in recorded(n, preset, deals, seed, seat_policies)[1]:
            yield n, i, rec


def inputs_of(st, notation="en"):
    """The CLI-style inputs that describe ``st`` (what its player knows)."""
    cs = lambda m: " ".join(card_str(c, notation) for c in range(64) if m >> c & 1)  # noqa: E731
    tricks = [" ".join(card_str(c, notation) for c in cards) for _, cards, _ in st.tricks]
    hist = " | ".join(tricks + [" ".join(card_str(c, notation) for c in st.current)])
    drawn = [st.stock[k * st.n + (st.position - ld) % st.n]
             for k, (ld, _, _) in enumerate(st.tricks[:st.draws])]
    letters = NL_SUITS if notation == "nl" else SUITS
    trump = "first" if not st.named else (letters[st.trump] if st.trump >= 0 else "none")
    return dict(players=st.n, preset=st.rules.preset, hand=cs(st.hand), position=st.position,
                declarer=st.decl,
                contract=st.bid if st.contract == CONTRACT_POINTS else CONTRACTS[st.contract],
                trump=trump, open_cards=cs(st.open), taken=cs(st.taken or 0), history=hist,
                joiners=",".join(str(q) for q in range(st.n) if st.in_mis[q] and q != st.decl),
                drawn=" ".join(card_str(c, notation) for c in drawn),
                discarded=cs(st.discarded), roem=st.roem, auction=auction_str(st.auction))


def my_mark(state, scores):
    """My mark for the deal from the players' results (the query's ``value``)."""
    me = state.position
    if state.contract == CONTRACT_MISERE:
        return scores[me] if state.in_mis[me] else -sum(scores)
    return scores[me] if me == state.decl else -scores[state.decl]


# ------------------------------------------------------------------ decisions

@pytest.mark.parametrize("preset,n", SHAPES)
def test_heuristic_card_equals_simulator(preset, n):
    res, recs = recorded(n, preset, 40, 12)
    count = 0
    for _, rec in recs:
        count += replay_heuristic(bop, rec)[1]
    assert count > 150 * n


@pytest.mark.parametrize("preset,n", [(p, n) for p in PRESETS for n in (2, 4, 5)])
def test_random_and_pimc_cards_equal_simulator(preset, n):
    res, recs = recorded(n, preset, 6, 14, ("0=random", f"{n - 1}=pimc"))
    kinds = set()
    for i, rec in recs:
        for state, card in positions_from_record(rec):
            pol = POLICY_NAMES[int(res.policies[(rec["dealer"] + 1 + state.position) % n])]
            kinds.add(pol)
            assert decide(state, pol, seed=14, deal=i, worlds=3) == card
    assert {"random", "pimc"} <= kinds


def _special_deals(n, preset, policy, seed, deals=4000, per_kind=3):
    """Indices of simulated deals with a misère (alone / joined), zwabber, boonaak or an
    unnamed trump, re-simulated one by one with the play recorded."""
    from fastsim import boonaken_nb as bnb
    rules = bo.build_rules(n, preset)
    pol = parse_seat_policies(n, policy)
    info = bo.simulate(rules, deals, seed=seed, policies=pol).deals["info"]
    ok = info[:, bnb.I_VOID] == 0
    kinds = {"misere": ok & (info[:, bnb.I_CONTRACT] == 1) & (info[:, bnb.I_NMIS] == 1),
             "misere+joined": ok & (info[:, bnb.I_CONTRACT] == 1) & (info[:, bnb.I_NMIS] > 1),
             "zwabber": ok & (info[:, bnb.I_CONTRACT] == 2),
             "boonaak": ok & (info[:, bnb.I_CONTRACT] == 3),
             "unnamed": ok & (info[:, bnb.I_NAMED] == 0)}
    for kind, m in kinds.items():
        for i in np.flatnonzero(m)[:per_kind]:
            res = bo.simulate(rules, 1, seed=seed, policies=pol, start=int(i), record=True)
            yield kind, int(i), next(boonaken_records(res))


@pytest.mark.parametrize("preset", PRESETS)
def test_special_contracts_and_unnamed_trump_equal_simulator(preset):
    """Misère (alone, joined; leimuiden's alone has a trump), zwabber, boonaak and a trump
    the declarer did not name: every card and every result as the simulator's."""
    seen = set()
    for n, policy, seed, deals in ((3, "random", 1, 20000), (4, "heuristic", 2, 12000)):
        for kind, i, rec in _special_deals(n, preset, policy, seed, deals):
            seen.add(kind)
            d = deal_from_record(rec)
            for state, card in positions_from_record(rec):
                assert card in state.legal_actions()
                assert decide(state, policy, seed=seed, deal=i) == card
                d = d.apply(card)
            assert d.is_terminal
            assert d.scores() == [rec["scores"][(rec["dealer"] + 1 + p) % n] for p in range(n)]
    assert seen == {"misere", "misere+joined", "zwabber", "boonaak", "unnamed"}


# ------------------------------------------------------------------ worlds

def _explained(items, slots_of, lo_hi):
    """Kuhn's augmenting-path matching: can every item get a slot inside its interval?"""
    slots = [k for k, c in slots_of]
    owner = [-1] * len(slots)

    def place(i, seen):
        lo, hi = lo_hi[i]
        for s, k in enumerate(slots):
            if lo <= k <= hi and s not in seen:
                seen.add(s)
                if owner[s] < 0 or place(owner[s], seen):
                    owner[s] = i
                    return True
        return False
    return all(place(i, set()) for i in range(len(items)))


def _pasts(lo_hi, draws):
    """Brute force: the ways to pick, for each draw k = 1..draws, the card drawn then (a
    card held from trick lo to hi), the rest being the 6 dealt ones (lo = 0)."""
    def rec(k, left):
        if k > draws:
            return 1 if all(lo_hi[i][0] == 0 for i in left) else 0
        return sum(rec(k + 1, left - {i}) for i in left if lo_hi[i][0] <= k <= lo_hi[i][1])
    return rec(1, frozenset(range(len(lo_hi))))


def check_world(state, world, pasts=None):
    n, me = state.n, state.position
    seen = state.played | state.hand | state.public_out() | state.discarded
    assert world[me] == state.hand
    total = 0
    played_at = {}
    for t, (ld, cards, _) in enumerate(state.tricks + ((state.leader, state.current, -1),)):
        for j, c in enumerate(cards):
            played_at[c] = (t, (ld + j) % n)
    for q in range(n + 1):
        if q == me:
            continue
        m = int(world[q])
        assert m & seen == 0 and m & total == 0
        total |= m
        if q == n:
            assert bin(m).count("1") == (32 - state.stock_pos if state.preset == PRESET_SEED else 0)
            continue
        assert bin(m).count("1") == state.held_count(q)
        if q != state.decl:
            assert m & state.open == 0                       # table cards: the declarer's
        elif state.taken:
            assert state.taken & ~state.played & ~m == 0       # the cards it took, still held
        # every shown void: true at its time, given when each card can have been drawn
        items = [c for c in range(64) if m >> c & 1] + [c for c, (t, p) in played_at.items()
                                                      if p == q]
        lo_hi = []
        for c in items:
            hi = played_at[c][0] if c in played_at else 99
            lo = max([t + 1 for p, t, f in state.vlog if p == q and f >> c & 1 and hi > t],
                     default=0)
            if state.draws == 0:
                assert lo == 0, "a shown void broken without a draw"
            lo_hi.append((lo, hi))
        slots = [(0, None)] * 6 + [(k + 1, None) for k in range(state.draws)]
        assert len(items) == len(slots)
        assert _explained(items, slots, lo_hi)
        if pasts is not None:
            pasts.append(_pasts(lo_hi, state.draws))
    # what is left lies out of play unseen: discards (and blind, sleeping cards)
    out_of_play = 32 - 6 * n - (32 - state.rest_at if state.preset == PRESET_SEED else 0)
    left = FULL32 & ~(total | seen)
    assert bin(left).count("1") == out_of_play - bin(state.public_out() | state.discarded).count("1")


@pytest.mark.parametrize("preset", PRESETS)
def test_sampled_worlds_never_contradict_the_history(preset):
    rng = random.Random(3)
    n_relaxed = n_rejected = 0
    for _, i, rec in every_count(preset, 12, 21):
        states = [s for s, _ in positions_from_record(rec)]
        for state in rng.sample(states, min(6, len(states))):
            worlds, logw = sample_worlds(state, 40, seed=i)
            assert np.isfinite(logw).any()
            n_rejected += int((~np.isfinite(logw)).sum())
            n_relaxed += any(t < state.draws for _, t, _ in state.vlog)
            for w, lw in zip(worlds, logw):
                if np.isfinite(lw):
                    check_world(state, w)
    if preset == "seed":
        assert n_relaxed > 10 and n_rejected > 0


def _enumerate(state):
    """Every placement of the unseen cards (other hands, stock, out of play) that keeps
    the shown voids true (:func:`check_world` without asserting), with its weight."""
    s = state.sampler_args()
    n, me = state.n, state.position
    unseen = [c for c in range(64) if int(s["unseen"]) >> c & 1]
    caps = [(q, int(s["cap"][q])) for q in range(n + 1) if q != me]   # the rest: out of play
    out = {}

    def rec(cards, k, world):
        if k == len(caps):
            w = np.array([world.get(q, 0) for q in range(n + 1)], dtype=np.int64)
            w[me] = state.hand
            w[state.decl] |= int(s["pinned"])
            pasts = []
            try:
                check_world(state, w, pasts)
            except AssertionError:
                return
            weight = float(np.prod(pasts))   # whole deals (deck orders) behind the world
            if state.preset != PRESET_SEED and state.position != state.decl:
                # the declarer put k cards away (a face-up card not in its hand is one of
                # them) and the rest sleeps: count the ways, one by one
                rest = list(cards)
                k_ = sum(state.layout)
                weight = float(sum(1 for dd in itertools.combinations(rest, k_)
                                   if all(c in dd for c in rest if state.open >> c & 1)))
            if weight:
                out[tuple(int(x) for x in w)] = weight
            return
        q, c = caps[k]
        for combo in itertools.combinations(cards, c):
            m = sum(1 << x for x in combo)
            rec([x for x in cards if x not in combo], k + 1, {**world, q: m})
    rec(unseen, 0, {})
    return out


def test_world_marginals_equal_exhaustive_enumeration():
    """Late positions: the weighted sampler's marginals P(card c with holder q) equal
    those of all whole deals consistent with the history, counted one by one (seed
    preset with voids shown before a draw: each placement weighs as many dealing and
    drawing orders as explain it; pagat: the ways the discards can lie)."""
    rng = random.Random(5)
    checked = {"seed": 0, "pagat": 0}
    for seed in range(60):
        preset = "seed" if seed % 2 else "pagat"
        res, recs = recorded(3 if preset == "seed" else 4, preset, 6, 100 + seed)
        for i, rec in recs:
            for state, _ in positions_from_record(rec):
                if checked[preset] >= 3:
                    break
                if preset == "seed" and not (0 < state.draws and any(
                        t < state.draws for _, t, _ in state.vlog)):
                    continue
                if preset == "pagat" and (state.position == state.decl
                                          or not state.open & ~state.played):
                    continue
                if int(state.sampler_args()["cap"].sum()) > (9 if preset == "seed" else 11) \
                        or rng.random() < .5:
                    continue
                exact = _enumerate(state)
                if len(exact) < 3 or len(set(exact.values())) < 2:
                    continue       # only positions where the weighting matters
                bare = copy_state(state)        # the sampler alone, not weighed by the
                bare.auction = ()               # auction (tests/test_play_boonaken_auction.py)
                worlds, logw = sample_worlds(bare, 8000, seed=seed)
                ok = np.isfinite(logw)
                w = np.exp(logw[ok] - logw[ok].max())
                for q in range(state.n + 1):
                    if q == state.position:
                        continue
                    for c in range(64):
                        if not int(state.sampler_args()["unseen"]) >> c & 1:
                            continue
                        tw = np.array(list(exact.values()))
                        truth = float((tw * [(k[q] >> c) & 1 for k in exact]).sum() / tw.sum())
                        est = float((w * ((worlds[ok, q] >> c) & 1)).sum() / w.sum())
                        assert abs(est - truth) < 0.05, (q, c, est, truth)
                checked[preset] += 1
    assert checked == {"seed": 3, "pagat": 3}


# ------------------------------------------------------------------ the query

@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_query_on_thousands_of_positions(preset):
    rng = random.Random(4)
    n_pos = n_exact = 0
    for n, i, rec in every_count(preset, 40, 31):
        d = played_out(bop, rec)
        scores = d.scores()
        final = d.info_state(0)
        pts_final = final.cpts[final.decl] + (d.standing_roem()
                                              if final.contract == CONTRACT_POINTS else 0)
        for state, card in positions_from_record(rec):
            last = state.held_count(state.position) == 1 and len(state.current) == n - 1
            if not last and rng.random() > 0.35:
                continue
            out = play_query(state=state, samples=12, seed=i)
            check_answer(out, state, card)
            n_pos += 1
            if last:
                n_exact += 1
                (x,) = out["cards"]
                assert out["exact"]
                assert x["value"] == my_mark(state, scores)
                assert x["value_ci"] == [x["value"]] * 2
                assert x["expected_score"] == pts_final
                assert x["expected_score_ci"] == [pts_final] * 2
                assert x["p_make"] == (scores[state.decl] == 1) and x["p_make_ci"][0] == x["p_make"]
    assert n_pos > 1000 and n_exact > 50


def test_query_on_positions_quick():
    rng = random.Random(8)
    n_pos = 0
    for preset, n in [("seed", 4), ("pagat", 3), ("leimuiden", 5), ("seed", 2)]:
        res, recs = recorded(n, preset, 4, 41)
        for i, rec in recs:
            for state, card in positions_from_record(rec):
                if rng.random() > 0.2:
                    continue
                out = play_query(state=state, samples=30, seed=i)
                assert out["policy_choice"] == card_str(card)
                assert out["recommended"] in [card_str(c) for c in state.legal_actions()]
                for x in out["cards"]:
                    assert -1 <= x["value"] <= 1 and 0 <= x["p_make"] <= 1
                    if x["value_ci"] is None:      # too few effective samples for one
                        assert out["effective_samples"] < 30
                        continue
                    assert x["value_ci"][0] <= x["value"] <= x["value_ci"][1]
                n_pos += 1
    assert n_pos > 40


def test_inputs_rebuild_the_same_state():
    """The CLI-style inputs (hand now, history, drawn, table, …) give the very state of the
    full-information deal: same legal cards, same query answer, also in Dutch notation."""
    rng = random.Random(2)
    k = 0
    for preset, n in SHAPES:
        res, recs = recorded(n, preset, 3, 9)
        for i, rec in recs:
            for st, card in positions_from_record(rec):
                if rng.random() > 0.15:
                    continue
                kw = inputs_of(st)
                s2 = BoonakenInfoState.from_inputs(**kw)
                assert s2.legal_actions() == st.legal_actions()
                assert decide(s2) == card
                a = play_query(state=st, samples=40, seed=1)
                assert play_query(**kw, samples=40, seed=1) == a
                if k % 5 == 0:
                    nl = play_query(**inputs_of(st, "nl"), samples=40, seed=1, notation="nl")
                    assert [x["value"] for x in nl["cards"]] == [x["value"] for x in a["cards"]]
                k += 1
    assert k > 60


def test_small_heuristic_kernel_equals_the_general_one(monkeypatch):
    import fastsim.boonaken_play_nb as pq
    res, recs = recorded(4, "seed", 3, 63)
    states = [s for _, rec in recs for s, _ in positions_from_record(rec)][::5]
    small = [play_query(state=s, samples=40) for s in states]
    monkeypatch.setattr(pq, "play_query_nb", pq.play_query_policy_nb)
    assert [play_query(state=s, samples=40) for s in states] == small


BASE = dict(players=4, preset="seed", declarer=2, contract=60, trump="C", open_cards="7C AC",
            taken="AC", position=3, hand="TS QS JH TD QD AD", drawn="JH",
            history="JC 7H KC QC | AS", roem=0)


def test_query_is_reproducible_and_thread_independent():
    a = play_query(**BASE, samples=300, seed=5, threads=1)
    assert a == play_query(**BASE, samples=300, seed=5, threads=2)
    assert json.loads(json.dumps(a)) == a
    assert [x["card"] for x in a["cards"]] == ["TS", "QS"]     # must follow spades
    for policy in ("random", "pimc"):
        kw = dict(BASE, samples=20, policy=policy, worlds=2)
        assert play_query(**kw, threads=1) == play_query(**kw, threads=2)


def test_first_card_names_trump():
    """Trump 'first': the declarer's lead decides, so every card is scored under its suit."""
    s = BoonakenInfoState.from_inputs(4, "seed", "JH 9H AH KH 7S 8D", 0, 0, 60, "first",
                                      "7C AC", "", "")
    assert s.trump == -1 and len(s.legal_actions()) == 6
    out = play_query(state=s, samples=50)
    assert len(out["cards"]) == 6 and out["policy_choice"] == card_str(decide(s))
    s2 = s.apply("JH")
    assert s2.trump == 1 and not s2.named


BAD = [
    ("played twice", "already played", dict(hand="QS JH TD QD AD",
                                            history="JC 7H KC QC | AS TS KC")),
    ("twice by me", "played twice", dict(hand="TS JH TD QD AD", history="JC QS KC QC | AS QS")),
    ("still held", "still in the hand", dict(history="JC TS KC QC | AS")),
    ("in my hand", "in the hand of position 3", dict(history="JC 7H KC QS | AS")),
    ("void", "has no spades", dict(hand="JH TD QD AD", history="JC 7H KC QC | AS QS 8D 9S | 8S TS 7S")),
    ("table card", "only the declarer", dict(history="JC 7H KC AC | AS")),
    ("face up", "face up out of play", dict(history="JC 7H KC 7C | AS")),
    ("declarer holds", "taken from the table", dict(history="8H 7H KH 9H | AS 9S 8D")),
    ("must follow", "may not play", dict(hand="TS QS JH TD QD 9C")),
    ("illegal own", "may not play", dict(hand="TS QS JH QD AD", history="JC 7H KC QC | AS TD")),
    ("out of turn", "turn", dict(position=0, hand="9S 8S 7D 8D 9D KD", drawn="KD")),
    ("hand size", "wrong size", dict(hand="TS QS JH TD QD")),
    ("drawn missing", "--drawn", dict(drawn="", hand="TS QS TD QD AD")),
    ("too long", "5 cards", dict(history="JC 7H KC QC 8C")),
    ("card", "unknown card", dict(history="JC 7H KC QZ")),
    ("contract", "unknown contract", dict(contract="bridge")),
    ("bid", "multiple of 5", dict(contract=62)),
    ("zwabber trump", "without trump", dict(contract="zwabber")),
    ("taken", "face-up table cards", dict(taken="AH")),
]


test_bad_history_is_a_one_line_input_error = one_line_error_test(play_query, BASE, BAD)


def _cli_args(kw):
    args = ["play", "boonaken"]
    names = {"open_cards": "--open"}
    for k, v in kw.items():
        if v is None or v == "":
            continue
        args += [names.get(k, "--" + k), str(v)]
    return args


@bad_inputs(BAD[:13])
def test_cli_bad_history_exits_2_with_one_line(name, expect, change):
    from tests.conftest import invoke_cli
    code, out, err = invoke_cli(*_cli_args(dict(BASE, **change)), "--samples", "10")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and expect in err


def test_cli_answer_and_json():
    from tests.conftest import invoke_cli
    code, out, err = invoke_cli(*_cli_args(BASE), "--samples", "200", "--json")
    assert code in (0, None), err
    r = json.loads(out)
    for key in ("game", "to_move", "recommended", "policy_choice", "cards", "samples",
                "effective_samples", "policy", "seed", "variants"):
        assert key in r
    assert r["game"] == "boonaken" and r["to_move"] == 3 and r["samples"] == 200
    assert r["recommended"] in [x["card"] for x in r["cards"]]
    code, out, err = invoke_cli(*_cli_args(BASE), "--samples", "200")
    assert code in (0, None) and "recommended:" in out
    code, out, err = invoke_cli(*_cli_args(BASE), "--variant", "amsterdam")
    assert code == 2 and "--preset" in err


def test_record_play_file_positions_equal_the_query(tmp_path):
    """A `troef simulate boonaken --record-play` file (dealer 1, seats ≠ positions): every
    card in it is the play query's policy_choice for that position, and the query answers
    the same from the CLI-style inputs."""
    from tests.conftest import invoke_cli
    f = tmp_path / "play.jsonl"
    code, out, err = invoke_cli("simulate", "boonaken", "--deals", 12, "--players", 3,
                                "--seed", 5, "--dealer", 1, "--record-play", f)
    assert code in (0, None), err
    recs = [json.loads(line) for line in f.read_text().splitlines()]
    n = 0
    for i, rec in enumerate(recs):
        if rec["void"]:
            continue
        for state, card in list(positions_from_record(rec))[::4]:
            out = play_query(state=state, samples=10, seed=i)
            assert out["policy_choice"] == card_str(card)
            assert play_query(**inputs_of(state), samples=10, seed=i) == out
            n += 1
    assert n > 50


@pytest.mark.parametrize("preset", PRESETS)
def test_shown_voids_hold_in_the_real_hands(preset):
    """What a play reveals (:func:`revealed`, the inverse of the engine's legal rule) is
    never contradicted by the player's real hand at that moment, and it is tight: a card
    of the hand is revealed absent only if holding it would have made the play illegal."""
    import fastsim.boonaken_play_nb as pq
    from analyzer.boonaken_play import revealed
    shown = 0
    for _, _, rec in every_count(preset, 15, 77, ("0=random", "1=random")):
        for state, card in positions_from_record(rec):
            tn = len(state.current)
            trump = card >> 4 if state.t == 0 and tn == 0 and not state.named else state.trump
            led, _, _, hi, _ = pq.trick_state_nb(state._tc(), tn, trump)
            f = revealed(card, led, trump, hi, state.preset)
            rest = state.hand & ~(1 << card)
            assert f & rest == 0
            shown += f != 0
            # tight: adding any one revealed card to the hand makes the play illegal
            for x in range(64):
                if f >> x & 1 and not state.played >> x & 1 and x != card:
                    legal = int(pq.legal_here_nb(np.int64(state.hand | 1 << x), state._tc(),
                                                 tn, trump, state.preset))
                    assert not legal >> card & 1
    assert shown > 100

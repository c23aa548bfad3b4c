"""The Bonken ``strong`` policy (fastsim/bonken_strong_nb.py): contract choice by search,
card play with worlds weighted by the chooser's choice."""
import numpy as np
import pytest

from analyzer import agents
from analyzer.bonken_play import BonkenDeal, BonkenInfoState
from fastsim import bonken as bk
from fastsim import bonken_nb as nb
from fastsim import bonken_strong_nb as snb
from fastsim.bonken_schema import (CONTRACT_TOTAL, DOMINO, NO_HEARTS, POLICIES, POLICY_HEURISTIC,
                                   POLICY_STRONG, build_rules, parse_seat_policies)
from fastsim.common import POLICIES as SHARED
from fastsim.rng import deal_key_nb, run_key_nb

RULES = build_rules()
RV = RULES.flags     # the kernels' variant tuple (hearts_lead restricted)
W = 16


def _hands(rng):
    perm = rng.permutation([16 * s + r for s in range(4) for r in range(13)])
    return [int(sum(1 << int(c) for c in perm[13 * p:13 * p + 13])) for p in range(4)]


def _dkey(seed, deal):
    return np.uint64(deal_key_nb(np.uint64(run_key_nb(np.uint64(seed))), np.int64(deal)))


def _heuristic_choice(hand, avail):
    return int(nb.choose_contract_nb(np.uint64(0), np.int64(hand), np.int64(avail),
                                     np.int64(POLICY_HEURISTIC)))


def _random_avail(rng):
    if rng.random() < 0.6:
        bits = [c for c in range(7) if rng.random() < 0.7]
    else:
        bits = [c for c in range(7, 12) if rng.random() < 0.7]
    if len(bits) < 2:
        bits = [0, 1, 2, 3, 4, 5, 6]
    return sum(1 << c for c in bits)


def _situations(n, seed=3):
    """Real positions of trick contracts chosen by the heuristic: (state to move, the dealt
    hands, avail), the player to move not the chooser."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        hands = _hands(rng)
        avail = _random_avail(rng)
        c = _heuristic_choice(hands[1], avail)
        if c == DOMINO:
            continue
        d = BonkenDeal(RULES, c, [[x for x in range(64) if h >> x & 1] for h in hands],
                       chosen_from=avail)
        stop = int(rng.integers(0, 30))
        for _ in range(stop):
            if d.is_terminal:
                break
            d = d.apply(d.info_state(d.to_move).decide("heuristic"))
        if d.is_terminal or d.to_move == 1:
            continue
        out.append((d.info_state(d.to_move), hands, avail))
    return out


def _kept(st, t_neg, t_trump, worlds=W, key=0):
    a = st.kernel_args()
    kept = np.zeros((worlds, 4), dtype=np.int64)
    mult = np.zeros(worlds, dtype=np.int64)
    k, ess = snb.strong_worlds_nb(_dkey(key, 0), st.contract, st.to_move, a["hand"], st.t,
                                  st.leader, a["tn"], a["played"], a["voids"], worlds,
                                  np.int64(st.chosen_from), np.int64(st.played_by[1]),
                                  t_neg, t_trump, kept, mult)
    return kept[:k], mult[:k], ess


def test_deterministic_chooser_model_keeps_only_worlds_that_rechoose_the_contract():
    matched = 0
    cases = _situations(60)
    for i, (st, hands, avail) in enumerate(cases):
        kept, mult, ess = _kept(st, 0, 0, key=i)
        assert mult.sum() == W
        if ess == 0.0:          # no candidate re-chooses it: the sampler falls back to all
            continue
        matched += 1
        me = st.to_move
        for w in kept:
            dealt1 = int(w[1]) | st.played_by[1]
            assert _heuristic_choice(dealt1, avail) == st.contract
            # the world is a deal consistent with what the player saw
            assert int(w[me]) == st.hand
            assert all(int(w[q]) & st.played == 0 for q in range(4))
            assert bin(int(w[0]) | int(w[1]) | int(w[2]) | int(w[3])).count("1") == \
                sum(bin(int(x)).count("1") for x in w)
            for q in range(4):
                for s in range(4):
                    if st.voids[q] >> s & 1:
                        assert (int(w[q]) >> (16 * s)) & 0x1FFF == 0
    assert matched >= len(cases) // 2


def test_soft_chooser_model_is_a_distribution_and_tends_to_the_heuristic():
    rng = np.random.default_rng(5)
    for _ in range(200):
        hand = _hands(rng)[1]
        avail = _random_avail(rng)
        ps = [np.exp(snb.chooser_logp_nb(np.int64(hand), np.int64(avail), c, snb.TEMP_NEGATIVE,
                                         snb.TEMP_TRUMP))
              for c in range(12) if avail >> c & 1]
        assert abs(sum(ps) - 1.0) < 1e-9 and min(ps) > 0.0
        h = _heuristic_choice(hand, avail)
        for c in range(12):
            if avail >> c & 1:
                det = snb.chooser_logp_nb(np.int64(hand), np.int64(avail), c, 0, 0)
                assert det == (0.0 if c == h else -np.inf)
        # a tiny temperature puts (almost) everything on the heuristic's choice, or ties
        tiny = snb.chooser_logp_nb(np.int64(hand), np.int64(avail), h, 1e-6, 1e-6)
        assert tiny <= 0.0 and tiny > -np.log(12) - 1e-9


def test_inference_changes_the_worlds_toward_the_chooser_hand():
    """With the soft model, the kept worlds give the chooser fewer of the chosen negative
    contract's penalty points than uniform worlds do (heuristic chooser, many situations)."""
    risk_kept, risk_uniform = 0.0, 0.0
    for i, (st, hands, avail) in enumerate(_situations(40, seed=11)):
        if st.contract >= 7:
            continue
        kept, mult, _ = _kept(st, snb.TEMP_NEGATIVE, snb.TEMP_TRUMP, worlds=64, key=i)
        # uniform: the same sampler told that the chooser had no choice
        a = st.kernel_args()
        uk = np.zeros((64, 4), dtype=np.int64)
        um = np.zeros(64, dtype=np.int64)
        k, _ = snb.strong_worlds_nb(_dkey(i, 0), st.contract, st.to_move, a["hand"], st.t,
                                    st.leader, a["tn"], a["played"], a["voids"], 64,
                                    np.int64(1 << st.contract), np.int64(st.played_by[1]),
                                    snb.TEMP_NEGATIVE, snb.TEMP_TRUMP, uk, um)
        for rows, m, acc in ((kept, mult, "k"), (uk[:k], um[:k], "u")):
            cost = sum(int(mm) * int(nb.negative_cost_nb(np.int64(int(w[1]) | st.played_by[1]),
                                                         st.contract)) for w, mm in zip(rows, m))
            if acc == "k":
                risk_kept += cost
            else:
                risk_uniform += cost
    assert risk_kept < risk_uniform


def test_choice_values_relative_is_four_times_mine_minus_the_round_total():
    rng = np.random.default_rng(8)
    for i in range(6):
        hand = _hands(rng)[1]
        avail = 0x7F if i % 2 == 0 else 0xF80
        rel = np.zeros(12, dtype=np.int64)
        own = np.zeros(12, dtype=np.int64)
        snb.choice_values_nb(_dkey(1, i), np.int64(hand), np.int64(avail), RV, 20, True, rel)
        snb.choice_values_nb(_dkey(1, i), np.int64(hand), np.int64(avail), RV, 20, False, own)
        for c in range(12):
            if avail >> c & 1:
                assert rel[c] == 4 * own[c] - 20 * CONTRACT_TOTAL[c]
                assert -20 * abs(CONTRACT_TOTAL[c]) <= own[c] <= 20 * abs(CONTRACT_TOTAL[c])
            else:
                assert rel[c] == 0 and own[c] == 0


def test_strong_choice_is_available_and_the_best_searched_value():
    rng = np.random.default_rng(9)
    for i in range(40):
        hand = _hands(rng)[1]
        avail = _random_avail(rng)
        c = snb.strong_choose_nb(_dkey(2, i), np.int64(hand), np.int64(avail), RV, 16, True)
        assert avail >> c & 1
        vals = np.zeros(12, dtype=np.int64)
        snb.choice_values_nb(_dkey(2, i), np.int64(hand), np.int64(avail), RV, 16, True, vals)
        best = max(vals[x] for x in range(12) if avail >> x & 1)
        assert vals[c] == best and all(vals[x] < best for x in range(c) if avail >> x & 1)
    assert snb.strong_choose_nb(_dkey(2, 0), np.int64(hand), np.int64(1 << 5), RV, 16, True) == 5


def _games(n, policies, threads, chunk=None, **kw):
    return bk.simulate(RULES, n, seed=21, policies=np.array(policies, dtype=np.int8),
                       threads=threads, chunk=chunk, **kw)


def test_reproducible_for_any_thread_count_and_chunking():
    pol = [POLICY_STRONG, POLICIES["pimc"], POLICY_STRONG, POLICY_HEURISTIC]
    a = _games(6, pol, 1, chunk=6)
    b = _games(6, pol, 2, chunk=1)
    c = _games(6, pol, 2, chunk=4)
    for r in (b, c):
        for k in a.deals:
            assert np.array_equal(a.deals[k], r.deals[k]), k
        for k in a.games:
            assert np.array_equal(a.games[k], r.games[k]), k
    # a later slice of games alone equals the same games of a longer run
    d = _games(2, pol, 1, game_start=4)
    assert np.array_equal(d.games["totals"], a.games["totals"][4:6])


def test_strong_games_play_every_contract_once_and_differ_from_pimc():
    s = _games(8, [POLICY_STRONG] * 4, None)
    p = _games(8, [POLICIES["pimc"]] * 4, None)
    con = s.deals["contract"].reshape(8, 11)
    for g in range(8):
        assert sorted(con[g, :7]) == list(range(7))
        assert len(set(con[g, 7:])) == 4 and all(7 <= c <= 11 for c in con[g, 7:])
    assert (s.games["totals"].sum(axis=1) == 0).all()
    assert not np.array_equal(con, p.deals["contract"].reshape(8, 11))
    fixed = dict(contract="no-hearts")
    a = _games(40, [POLICY_STRONG] * 4, None, worlds=4, **fixed)
    b = _games(40, [POLICIES["pimc"]] * 4, None, worlds=4 * snb.PLAY_WORLDS, **fixed)
    c = _games(40, [POLICIES["pimc"]] * 4, None, worlds=4, **fixed)
    # nobody chose in a run of one contract: strong plays exactly as pimc with
    # PLAY_WORLDS times the worlds there (and not as pimc with the engine's worlds)
    assert not np.array_equal(a.deals["scores"], c.deals["scores"])
    assert np.array_equal(a.deals["scores"], b.deals["scores"])


def test_python_decide_path_and_user_seats_match_the_engine():
    """A run with a user policy goes through the Python driver; a user seat that returns
    the heuristic's decision must give exactly the engine's run with a heuristic seat, the
    strong seats deciding through BonkenInfoState / BonkenContractState.decide."""
    path = "tests/_strong_user_policy.py"
    import os
    with open(path, "w") as f:
        f.write("def choose(state):\n    return state.decide('heuristic')\n")
    try:
        code = agents.user_code(path + ":choose")
        pol_user = np.array([POLICY_STRONG, code, POLICY_STRONG, POLICIES["pimc"]], dtype=np.int8)
        pol_eng = np.array([POLICY_STRONG, POLICY_HEURISTIC, POLICY_STRONG, POLICIES["pimc"]],
                           dtype=np.int8)
        u = agents.simulate_bonken(RULES, 2, seed=4, policies=pol_user, worlds=8)
        e = bk.simulate(RULES, 2, seed=4, policies=pol_eng, worlds=8)
        for k in ("contract", "scores", "tricks", "n_tricks", "loser"):
            assert np.array_equal(u.deals[k], e.deals[k]), k
        assert agents.policy_names(pol_user)[0] == "strong"
    finally:
        os.remove(path)


def test_policy_names_and_parsing():
    assert POLICIES["strong"] == POLICY_STRONG and "strong" not in SHARED
    assert (parse_seat_policies("strong") == POLICY_STRONG).all()
    st = BonkenInfoState.initial(RULES, NO_HEARTS, 0, (1 << 13) - 1)
    assert st.chosen_from == 0
    with pytest.raises(ValueError):
        BonkenInfoState.initial(RULES, NO_HEARTS, 0, (1 << 13) - 1, chosen_from=1)


def test_tournament_runs_with_strong_seats():
    from analyzer.tournament import tournament
    r = tournament("bonken", "strong,pimc", 4, whole_games=True, seed=2, worlds=4)
    names = [p["policy"] for p in r["policies"]]
    assert names == ["strong", "pimc"]
    # every game's scores sum to zero, so the two policies' means are opposite
    m = [p["mean_score"] for p in r["policies"]]
    assert m[0] == pytest.approx(-m[1])

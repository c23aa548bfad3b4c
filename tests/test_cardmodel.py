"""Boerenbridge's learned card model (issue #14, sixth push; fastsim/cardmodel_nb.py): the
``learned`` policy plays the model's argmax, only legal cards, reproducibly; ``strongl``'s
path with the heuristic rollouts is strong exactly; the weights are what tools/cardmodel.py
fits from its record, and the record is strong's self-play of its seed."""
import sys
from pathlib import Path

import numpy as np
import pytest

from fastsim import boerenbridge as bb
from fastsim import boerenbridge_nb  # noqa: F401  (the kernels' import order)
from fastsim import cardmodel_nb as cm
from fastsim.boerenbridge_schema import POLICIES, POLICY_LEARNED, POLICY_STRONG
from fastsim.cardmodel_weights import CARD_WEIGHTS, FIT

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import cardmodel as tool  # noqa: E402


def _rows(res, n, h):
    """Every recorded decision with more than one legal card, replayed (tools/cardmodel.py's
    replay on this run's own deals)."""
    d = res.deals
    seats = (d["dealer"][:, None].astype(np.int64) + 1 + np.arange(n)[None, :]) % n
    rows = []
    for i in range(len(d["dealer"])):
        hands = np.zeros(8, np.int64)
        bids = np.zeros(8, np.int64)
        hands[:n] = d["hands"][i, seats[i]]
        bids[:n] = d["bids"][i, seats[i]]
        m = h * n
        out = (np.full((m, h), -1, np.int64), np.zeros((m, h, cm.N_FEAT)),
               *(np.zeros(m, np.int64) for _ in range(6)))
        k = cm.replay_features_nb(n, h, hands, np.int64(d["trump"][i]),
                                  np.int64(d["trump_card"][i]), bids,
                                  res.play["cards"][i].astype(np.int64), *out)
        rows.append((i, k, out))
    return rows


def test_learned_plays_the_models_legal_argmax_reproducibly():
    n, h = 4, 8
    rules = bb.build_rules(players=n, hand_size=h, variants=["scoring=dutch"])
    pols = bb.parse_seat_policies(n, "learned", ["1=heuristic", "3=strong"])
    a = bb.simulate(rules, 16, seed=3, policies=pols, record=True, threads=1)
    b = bb.simulate(rules, 16, seed=3, policies=pols, record=True, threads=2, chunk=5)
    for k in a.deals:
        assert np.array_equal(a.deals[k], b.deals[k]), k
    assert np.array_equal(a.play["cards"], b.play["cards"])
    learned_pos = {s: POLICIES["learned"] == pols[s] for s in range(n)}
    checked = differs = 0
    for i, k, (cards, feats, ctx, nlegal, choice, pos, trick, heur) in _rows(a, n, h):
        dealer = int(a.deals["dealer"][i])
        for r in range(k):
            assert choice[r] >= 0          # the card played was a legal card
            if not learned_pos[(dealer + 1 + pos[r]) % n]:
                continue
            s = feats[r, :nlegal[r]] @ CARD_WEIGHTS[ctx[r]]
            assert choice[r] == int(np.argmax(s))      # the model's card, ties the lowest
            checked += 1
            differs += choice[r] != heur[r]
    assert checked > 100 and differs > 10     # not the heuristic in disguise


def test_strongl_is_reproducible_and_differs_from_strong():
    rules = bb.build_rules(players=4, hand_size=6, variants=["scoring=dutch"])
    pols = bb.parse_seat_policies(4, "strongl", ["1=strong"])
    a = bb.simulate(rules, 6, seed=4, policies=pols, record=True, threads=1)
    b = bb.simulate(rules, 6, seed=4, policies=pols, record=True, threads=2, chunk=2)
    assert np.array_equal(a.play["cards"], b.play["cards"])
    assert np.array_equal(a.deals["scores"], b.deals["scores"])
    c = bb.simulate(rules, 6, seed=4, policies=bb.parse_seat_policies(4, "strong"),
                    record=True, threads=1)
    assert not np.array_equal(a.play["cards"], c.play["cards"])


def test_learned_card_reads_only_what_its_player_sees():
    """The model's card depends on the hand, the cards out of play, the trick and the public
    bids and tricks: learned_card_nb takes nothing else (the others' hands are not among
    its arguments), and the same view gives the same card."""
    hand = np.int64((1 << 3) | (1 << 12) | (1 << 20) | (1 << 37))
    played = np.int64(1 << 50)
    c1 = cm.learned_card_nb(hand, hand, 0, 4, 8, 4, -1, -1, 0, 1, 1, played)
    c2 = cm.learned_card_nb(hand, hand, 0, 4, 8, 4, -1, -1, 0, 1, 1, played)
    assert c1 == c2 and (hand >> c1) & 1


def test_the_record_is_strongs_self_play_of_its_seed():
    z = np.load(ROOT / "tools" / "cardmodel_record.npz")
    assert int(z["seed"]) == FIT["seed"] and int(z["deals"]) == FIT["deals"]
    rec, _ = tool.make_record(6, int(z["seed"]))
    assert np.array_equal(rec["bids"], z["bids"][:6])
    assert np.array_equal(rec["cards"], z["cards"][:6])


@pytest.mark.slow
def test_the_weights_are_the_fit_of_the_record():
    z = np.load(ROOT / "tools" / "cardmodel_record.npz")
    data = tool.replay({k: z[k] for k in z.files})
    assert len(data["choice"]) == FIT["decisions"]
    W, rep = tool.fit(data)
    assert np.abs(np.round(W, 4) - CARD_WEIGHTS).max() < 2e-3
    assert abs(rep["model_holdout"] - FIT["holdout_accuracy"]) < 2e-3
    assert POLICY_LEARNED == POLICIES["learned"]


def test_the_step_by_step_driver_plays_learned_and_strongl_as_the_simulator():
    """The information states (analyzer.agents, the play query, the OpenSpiel bridge) take
    the new codes through the engine's dispatch: the same cards as the simulator."""
    from analyzer import agents
    rules = bb.build_rules(players=4, hand_size=5, variants=["scoring=dutch"])
    pols = bb.parse_seat_policies(4, "heuristic", ["0=strongl", "2=learned", "1=strong"])
    sim = bb.simulate(rules, 3, seed=12, policies=pols, record=True, game_start=2)
    drv = agents.simulate_boerenbridge(rules, 3, seed=12, policies=pols, game_start=2,
                                       record=True)
    for k in sim.deals:
        assert np.array_equal(sim.deals[k], drv.deals[k]), k
    assert np.array_equal(sim.play["cards"], drv.play["cards"])


def test_the_tidy_table_names_the_new_policies_and_keeps_the_old_schema():
    from analyzer.frames import tidy_boerenbridge
    rules = bb.build_rules(players=4, hand_size=3)
    res = bb.simulate(rules, 5, seed=2, policies=bb.parse_seat_policies(4, "learned",
                                                                         ["1=heuristic"]))
    df = tidy_boerenbridge(res)
    assert list(df["policy"].cat.categories) == ["random", "heuristic", "pimc", "strong",
                                                 "learned"]
    assert set(df["policy"]) == {"learned", "heuristic"}
    old = tidy_boerenbridge(bb.simulate(rules, 5, seed=2))
    assert list(old["policy"].cat.categories) == ["random", "heuristic", "pimc", "strong"]


# ------------------------------------------------------------------ seventh push: strongi

def test_strongi_is_reproducible_and_plays_as_the_step_by_step_driver():
    """strongi (code 7: strongl's rollouts with the model fitted to IS-MCTS's cards) gives
    the same cards for 1 and 2 threads, through the step-by-step driver as in the simulator,
    and differs from strongl."""
    from analyzer import agents
    from fastsim.boerenbridge_schema import POLICY_STRONGI
    assert POLICIES["strongi"] == POLICY_STRONGI
    rules = bb.build_rules(players=4, hand_size=6, variants=["scoring=dutch"])
    pols = bb.parse_seat_policies(4, "strongi", ["1=strong", "3=learned"])
    a = bb.simulate(rules, 6, seed=4, policies=pols, record=True, threads=1)
    b = bb.simulate(rules, 6, seed=4, policies=pols, record=True, threads=2, chunk=2)
    assert np.array_equal(a.play["cards"], b.play["cards"])
    assert np.array_equal(a.deals["scores"], b.deals["scores"])
    drv = agents.simulate_boerenbridge(rules, 6, seed=4, policies=pols, record=True)
    for k in a.deals:
        assert np.array_equal(a.deals[k], drv.deals[k]), k
    assert np.array_equal(a.play["cards"], drv.play["cards"])
    c = bb.simulate(rules, 6, seed=4, record=True, threads=1,
                    policies=bb.parse_seat_policies(4, "strongl", ["1=strong", "3=learned"]))
    assert np.array_equal(a.deals["bids"], c.deals["bids"])      # strong's bids, both
    assert not np.array_equal(a.play["cards"], c.play["cards"])


def test_the_models_are_stacked_and_the_ismcts_model_differs():
    """The kernels' weights: strong's model first (learned, strongl unchanged), IS-MCTS's
    second; the two fits are not the same model."""
    from fastsim.cardmodel_weights_ismcts import CARD_WEIGHTS as ISMCTS
    assert np.array_equal(cm.W[cm.MODEL_STRONG], CARD_WEIGHTS)
    assert np.array_equal(cm.W[cm.MODEL_ISMCTS], ISMCTS)
    assert np.abs(ISMCTS - CARD_WEIGHTS).max() > 0.5
    hand = np.int64((1 << 3) | (1 << 12) | (1 << 20) | (1 << 37))
    for model in (0, 1):                     # every model's card is a legal card
        c = cm.model_card_nb(model, hand, hand, 0, 4, 8, 4, -1, -1, 0, 1, 1, np.int64(1 << 50))
        assert (hand >> c) & 1


def test_the_ismcts_record_reads_as_the_bridge_played_it():
    """The committed record of IS-MCTS 1000 (bench_openspiel.py --record): every deal is
    troef's deal of its seed, every recorded card legal for the position that played it,
    every IS-MCTS position marked; the hands and bids by position are the history's."""
    from fastsim.cardmodel_weights_ismcts import FIT as IFIT
    rec = tool.read_bridge_record([ROOT / p for p in IFIT["records"]])
    assert rec["mine"][:, :4].sum(axis=1).tolist() == [2] * len(rec["unit"])
    assert rec["unit"].max() + 1 == IFIT["deals"]
    data = tool.replay_rows(rec)
    assert len(data["choice"]) == IFIT["decisions"] and (data["choice"] >= 0).all()
    rules = tool.rules()
    z = __import__("json").loads(__import__("gzip").open(
        ROOT / IFIT["records"][0], "rt").readline())
    d = bb.simulate(rules, z["deal"] + 1, seed=z["seed"], threads=1).deals
    assert [int(x) for x in d["hands"][z["deal"]]] == z["hands"]
    assert int(d["trump_card"][z["deal"]]) == z["turned"]


@pytest.mark.slow
def test_the_ismcts_weights_are_the_fit_of_the_record():
    from fastsim.cardmodel_weights_ismcts import CARD_WEIGHTS as ISMCTS, FIT as IFIT
    W, rep = tool.fit_ismcts([str(ROOT / p) for p in IFIT["records"]])
    assert rep["decisions"] == IFIT["decisions"]
    assert np.abs(np.round(W, 4) - ISMCTS).max() < 2e-3
    assert abs(rep["model_holdout"] - IFIT["holdout_accuracy"]) < 2e-3
    assert abs(rep["strong_model_holdout"] - IFIT["strong_model_holdout_agreement"]) < 2e-3

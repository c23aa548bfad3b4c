"""Differential test: compiled Bonken against the slow reference, move by move."""
import random

import pytest

import naive_bonken as ref
from analyzer.records import bonken_records
from fastsim import bonken as bk
from fastsim.bonken_schema import CONTRACTS
from sweep import batches, random_names, random_run

MIXES = [["heuristic"] * 4, ["random"] * 4, ["heuristic", "random", "random", "heuristic"],
         ["random", "heuristic", "heuristic", "random"]]


def pols(names):
    return bk.parse_seat_policies("heuristic", [f"{s}={p}" for s, p in enumerate(names)])


@pytest.mark.parametrize("contract", range(12), ids=CONTRACTS)
@pytest.mark.parametrize("hearts_lead", ["restricted", "after_broken"])
def test_single_contracts_agree(contract, hearts_lead):
    variants = [] if hearts_lead == "restricted" else ["hearts_lead=after_broken"]
    for m, names in enumerate(MIXES):
        dealer = (contract + m) % 4
        rules = bk.build_rules(variants, first_dealer=dealer)
        seed = 1000 * contract + m
        res = bk.simulate(rules, 250, seed=seed, policies=pols(names), contract=contract,
                          record=True)
        for i, got in enumerate(bonken_records(res)):
            exp = ref.play_round(seed, i, dealer, names, contract=contract,
                                 hearts_lead=hearts_lead)
            assert got == exp, (contract, names, i)


@pytest.mark.parametrize("variants", [[], ["fixed_order"], ["hearts_lead=after_broken"]])
def test_whole_games_agree(variants):
    hl = "after_broken" if "hearts_lead=after_broken" in variants else "restricted"
    for names in MIXES:
        rules = bk.build_rules(variants, first_dealer=3)
        res = bk.simulate(rules, 6, seed=77, policies=pols(names), record=True)
        recs = list(bonken_records(res))
        for g in range(6):
            exp = ref.play_game(77, g, names, first_dealer=3, hearts_lead=hl,
                                fixed_order="fixed_order" in variants)
            assert recs[11 * g:11 * g + 11] == exp["rounds"]
            assert list(res.games["totals"][g]) == exp["totals"]
            assert [s for s in range(4) if res.games["winners"][g, s]] == exp["winners"]


def test_many_random_rounds_agree():
    for rnd in batches(7, 2400, 30):
        contract = rnd.randrange(12)
        names = random_names(rnd, 4)
        dealer = rnd.randrange(4)
        hl = rnd.choice(["restricted", "after_broken"])
        seed, start = random_run(rnd)
        rules = bk.build_rules([] if hl == "restricted" else ["hearts_lead=after_broken"],
                               first_dealer=dealer)
        res = bk.simulate(rules, 30, seed=seed, policies=pols(names), contract=contract,
                          record=True, game_start=start)
        for i, got in enumerate(bonken_records(res)):
            assert got == ref.play_round(seed, start + i, dealer, names, contract=contract,
                                         hearts_lead=hl)


def test_contract_choice_agrees_on_many_hands():
    """The heuristic contract choice, hand by hand, for random hands and open sets."""
    import numpy as np
    from fastsim import bonken_nb
    from fastsim.cards import card_str, mask_of
    rnd = random.Random(11)
    deck = [16 * s + r for s in range(4) for r in range(13)]
    for _ in range(20_000):
        hand = rnd.sample(deck, 13)
        half = list(range(7)) if rnd.random() < 0.6 else list(range(7, 12))
        avail = sorted(rnd.sample(half, rnd.randint(1, len(half))))
        got = bonken_nb.choose_contract_nb(np.uint64(0), np.int64(mask_of(hand)),
                                           sum(1 << c for c in avail), 1)
        assert got == ref.heuristic_choice(sorted(card_str(c) for c in hand), avail)

"""Differential test: compiled Klaverjassen against the slow reference, card by card."""
import random

import numpy as np
import pytest

import naive_klaverjassen as ref
from analyzer.records import klaverjassen_records
from fastsim import klaverjassen as kj
from fastsim import klaverjassen_nb as knb
from fastsim.cards import card_str, mask_of, parse_card
from sweep import batches, random_names, random_run

VARIANTS = [[], ["amsterdam"], ["undertrump=forced"], ["four_of_a_kind=all_100"],
            ["amsterdam", "undertrump=forced", "four_of_a_kind=all_100"]]
MIXES = [["heuristic"] * 4, ["random"] * 4, ["heuristic", "random", "heuristic", "random"],
         ["random", "random", "heuristic", "heuristic"]]


def kwargs(rules):
    return dict(amsterdam=rules.amsterdam, undertrump_forced=rules.undertrump_forced,
                all_100=rules.all_100)


def pols(names):
    return kj.parse_seat_policies("heuristic", [f"{s}={p}" for s, p in enumerate(names)])


@pytest.mark.parametrize("vi", range(len(VARIANTS)), ids=["+".join(v) or "rotterdam" for v in VARIANTS])
@pytest.mark.parametrize("trump", [None, 0, 3])
def test_deals_agree(vi, trump):
    rules = kj.build_rules(VARIANTS[vi], first_dealer=vi % 4)
    for m, names in enumerate(MIXES):
        team = m % 2
        seed = 100 * vi + m + (0 if trump is None else 7 * (trump + 1))
        res = kj.simulate(rules, 60, seed=seed, policies=pols(names), trump=trump,
                          playing_team=team, record=True)
        for i, got in enumerate(klaverjassen_records(res)):
            exp = ref.play_deal(seed, i, rules.first_dealer, names,
                                trump=None if trump is None else "SHDC"[trump],
                                playing_team=None if trump is None else team, **kwargs(rules))
            assert got == exp, (VARIANTS[vi], names, i)


@pytest.mark.parametrize("vi", [0, 4])
def test_boompjes_agree(vi):
    rules = kj.build_rules(VARIANTS[vi], first_dealer=1)
    for names in MIXES[:3]:
        res = kj.simulate(rules, 4, seed=31, policies=pols(names), boompje=True, record=True)
        recs = list(klaverjassen_records(res))
        at = 0
        for g in range(4):
            exp = ref.play_boompje(31, g, names, first_dealer=1, **kwargs(rules))
            n = len(exp["deals"])
            assert int(res.games["n_deals"][g]) == n
            assert recs[at:at + n] == exp["deals"]
            at += n
            assert list(res.games["totals"][g]) == exp["totals"]
            assert [t for t in range(2) if res.games["winners"][g, t]] == exp["winners"]


def test_many_random_deals_agree():
    for rnd in batches(3, 3000, 30):
        variants = rnd.choice(VARIANTS)
        rules = kj.build_rules(variants, first_dealer=rnd.randrange(4))
        names = random_names(rnd, 4)
        seed, start = random_run(rnd)
        res = kj.simulate(rules, 30, seed=seed, policies=pols(names), record=True,
                          game_start=start)
        for i, got in enumerate(klaverjassen_records(res)):
            assert got == ref.play_deal(seed, start + i, rules.first_dealer, names, **kwargs(rules))


def test_legality_and_roem_agree_exhaustively_on_random_situations():
    """The compiled obligations and roem against the reference for many random hands and
    partial tricks, every variant."""
    rnd = random.Random(8)
    deck = [16 * s + r for s in range(4) for r in range(5, 13)]
    for _ in range(20_000):
        cards = rnd.sample(deck, 12)
        hand, trick = cards[:8][: rnd.randint(1, 8)], cards[8:8 + rnd.randint(0, 3)]
        trump = rnd.randrange(4)
        am, uf = rnd.random() < 0.5, rnd.random() < 0.5
        led = trick[0] >> 4 if trick else -1
        winner, wpos, hi = -1, -1, -1
        for j, c in enumerate(trick):
            if j == 0 or knb.beats_nb(c, winner, led, trump):
                winner, wpos = c, j
            if c >> 4 == trump and (hi < 0 or knb.strength_nb(c, trump) > knb.strength_nb(hi, trump)):
                hi = c
        pw = bool(trick) and (len(trick) - wpos) == 2
        rv = kj.Rules(amsterdam=am, undertrump_forced=uf).flags
        got = int(knb.legal_nb(np.int64(mask_of(hand)), led, trump, hi, pw, rv))
        exp, _ = ref.legal_cards([card_str(c) for c in hand], [card_str(c) for c in trick],
                                 "SHDC"[trump], pw, amsterdam=am, undertrump_forced=uf)
        assert got == mask_of(parse_card(c) for c in exp)
    for _ in range(20_000):
        cards = rnd.sample(deck, rnd.randint(1, 4))
        trump = rnd.randrange(4)
        a100 = rnd.random() < 0.3
        got = int(knb.roem_nb(np.int64(mask_of(cards)), trump, kj.Rules(all_100=a100).flags))
        assert got == ref.roem([card_str(c) for c in cards], "SHDC"[trump], all_100=a100)[0]


@pytest.mark.parametrize("cp,rm,playing,tricks,scores,nat,pit", [
    ((100, 62), (0, 0), 0, (5, 3), (100, 62), False, -1),     # both bank
    ((81, 81), (0, 0), 0, (4, 4), (0, 162), True, -1),         # nat on an exact tie
    ((90, 72), (0, 20), 0, (5, 3), (0, 182), True, -1),        # nat caused by roem
    ((90, 72), (20, 0), 1, (5, 3), (182, 0), True, -1),        # the other team plays, nat
    ((162, 0), (40, 0), 0, (8, 0), (302, 0), False, 0),        # pit for the playing team
    ((0, 162), (0, 20), 0, (0, 8), (0, 282), True, 1),         # defenders' pit
])
def test_compiled_scoring_cases(cp, rm, playing, tricks, scores, nat, pit):
    out = np.zeros(2, dtype=np.int64)
    got_nat, got_pit = knb.score_deal_nb(np.array(cp, dtype=np.int64), np.array(rm, dtype=np.int64),
                                         playing, np.array(tricks, dtype=np.int64), out)
    assert tuple(out) == scores and got_nat == nat and got_pit == pit
    exp = ref.score_deal(list(cp), list(rm), playing, list(tricks))
    assert exp["team_scores"] == list(scores)


def test_nat_defence_threshold_agrees():
    """The defenders' nat rule is on exactly while 2 cp[P] + rm[P] <= 162 + rm[D], in both
    engines, and never for the playing team."""
    rnd = random.Random(15)
    cases = [((81, 0), (0, 0), 0), ((82, 0), (0, 0), 0), ((71, 0), (20, 0), 0),
             ((72, 0), (20, 0), 0), ((0, 81), (0, 0), 1), ((0, 72), (20, 40), 1)]
    cases += [((rnd.randrange(163), rnd.randrange(163)), (20 * rnd.randrange(5), 20 * rnd.randrange(5)),
               rnd.randrange(2)) for _ in range(2000)]
    seen = set()
    for cp, rm, playing in cases:
        for team in (0, 1):
            got = bool(knb.nat_defence_nb(np.array(cp, dtype=np.int64), np.array(rm, dtype=np.int64),
                                          playing, team))
            assert got == ref.defends_for_nat(team, playing, list(cp), list(rm))
            assert got == (team != playing and 2 * cp[playing] + rm[playing] <= 162 + rm[1 - playing])
            seen.add(got)
    assert seen == {True, False}


def test_nat_defence_takes_the_trick_for_sure():
    """Spades led (hearts trump) by the playing team, I hold A K of spades, the ten unseen:
    without the rule the cheapest winner (K), defending for nat the top card (A)."""
    hand, trick = ["AS", "KS", "8D"], ["7S"]
    for nat in (False, True):
        legal, _ = ref.legal_cards(hand, trick, "H", False)
        exp = ref.heuristic_card(hand, legal, trick, "H", trick, False, nat_defence=nat)
        assert exp == ("AS" if nat else "KS")
        h, t = mask_of(parse_card(c) for c in hand), mask_of(parse_card(c) for c in trick)
        unseen = int(knb.FULL32) & ~(h | t)
        got = knb.heuristic_play_nb(np.int64(h), np.int64(mask_of(parse_card(c) for c in legal)),
                                    1, 0, 1, parse_card("7S"), False, False, np.int64(t), 0,
                                    False, np.int64(unseen), kj.Rules().flags, nat)
        assert card_str(int(got)) == exp

"""Tests of the slow Klaverjassen reference engine itself (tests/naive_klaverjassen.py).

The checks here recompute things independently from the records (deal, calls, legality
in a second formulation written from docs/rules.md §2, trick winners, points, scores) or compare
with values worked out by hand from docs/klaverjassen.md and docs/rules.md §2.
"""
import itertools
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_boerenbridge as bb  # noqa: E402
import naive_klaverjassen as nk  # noqa: E402
from indep32 import DECK, SUITS, code, point_totals, spec_shuffle  # noqa: E402
from indep32 import KLAVERJASSEN as RULES  # noqa: E402  (independent tables, docs/rules.md §2)

ROEM_VALUES = {0, 20, 40, 50, 70, 100, 200}
POLICY_SETS = [
    ["random"] * 4,
    ["heuristic"] * 4,
    ["heuristic", "random", "heuristic", "random"],
    ["random", "heuristic", "heuristic", "random"],
]
VARIANTS = [
    dict(amsterdam=False, undertrump_forced=False, all_100=False),
    dict(amsterdam=True, undertrump_forced=False, all_100=False),
    dict(amsterdam=False, undertrump_forced=True, all_100=True),
    dict(amsterdam=True, undertrump_forced=True, all_100=True),
]

power, pts, winner_index = RULES.power, RULES.pts, RULES.winner_index


def legal_indep(hand, trick, trump, amsterdam=False, undertrump_forced=False):
    """The set of legal cards, formulated directly from the text of docs/rules.md §2."""
    if not trick:
        return set(hand)
    led = trick[0][1]
    mine_led = [c for c in hand if c[1] == led]
    my_trumps = [c for c in hand if c[1] == trump]
    others = [c for c in hand if c[1] != trump]
    if led != trump and mine_led:
        return set(mine_led)  # 1.
    if not my_trumps:
        return set(hand)  # 4. (also: trump led, no trump held)
    in_trick = [power(c, trump) for c in trick if c[1] == trump]
    hi = max(in_trick) if in_trick else -1
    over = [c for c in my_trumps if power(c, trump) > hi]
    if led == trump:
        return set(over or my_trumps)  # 2.
    partner_winning = len(trick) >= 2 and winner_index(trick, trump) == len(trick) - 2
    if amsterdam and partner_winning:
        return {c for c in hand
                if not (c[1] == trump and power(c, trump) < hi and others)}
    if over:
        return set(over)
    if undertrump_forced:
        return set(my_trumps)
    return set(others or my_trumps)


# ---------------------------------------------------------------------------
# Orders, points, trick winners
# ---------------------------------------------------------------------------


def test_card_points_sum_to_152_per_deck_and_162_per_deal():
    for trump in SUITS:
        assert point_totals(nk.card_points, trump) == (152, 62, [30, 30, 30])
    assert nk.card_points("JH", "H") == 20 and nk.card_points("JH", "S") == 2
    assert nk.card_points("9D", "D") == 14 and nk.card_points("9D", "C") == 0
    assert nk.card_points("TS", "H") == 10 and nk.card_points("KC", "C") == 4


def test_strength():
    trump = "H"
    assert [nk.strength(r + "H", trump) for r in "78QKTA9J"] == list(range(8, 16))
    assert [nk.strength(r + "S", trump) for r in "789JQKTA"] == list(range(0, 8))
    for c in DECK:
        for trump in SUITS:
            assert (nk.strength(c, trump) >= 8) == (c[1] == trump)


def test_trick_winners():
    # trump order: J beats 9 beats A
    assert nk.trick_winner(["AH", "9H", "JH", "TH"], "H") == 2
    assert nk.trick_winner(["AH", "9H", "TH", "KH"], "H") == 1
    assert nk.trick_winner(["TH", "AH", "KH", "QH"], "H") == 1
    # plain order: T beats K, A beats T, J below Q
    assert nk.trick_winner(["KS", "TS", "QS", "9S"], "H") == 1
    assert nk.trick_winner(["KS", "TS", "AS", "9S"], "H") == 2
    assert nk.trick_winner(["JS", "QS", "9S", "8S"], "H") == 1
    # the 9 and J of a plain suit are low
    assert nk.trick_winner(["8S", "9S", "JS", "7S"], "H") == 2
    # any trump beats a plain ace; a card of another suit never wins
    assert nk.trick_winner(["KS", "TS", "AD", "7H"], "H") == 3
    assert nk.trick_winner(["KS", "TS", "AD", "QC"], "H") == 1
    assert nk.trick_winner(["9S", "AD"], "H") == 0
    assert nk.trick_winner(["7S"], "H") == 0
    # exhaustive agreement with an independent formulation on random tricks
    for seed in range(300):
        cards = spec_shuffle(99, seed, 4)
        trick = cards[:4]
        trump = SUITS[seed % 4]
        assert nk.trick_winner(trick, trump) == winner_index(trick, trump)


# ---------------------------------------------------------------------------
# Play obligations
# ---------------------------------------------------------------------------


def test_rules_example():
    # spades trump, hearts led, an opponent ruffed with JS; holding 7S and AD: only AD
    assert nk.legal_cards(["7S", "AD"], ["8H", "JS"], "S", False) == (["AD"], "discard")
    assert nk.legal_cards(["7S", "AD"], ["8H", "JS"], "S", False, amsterdam=True) == \
        (["AD"], "discard")
    # the same with the partner winning (also under Rotterdam rules: "also when the
    # partner is winning the trick")
    assert nk.legal_cards(["7S", "AD"], ["8H", "JS", "9H"], "S", True) == (["AD"], "discard")


def test_lead_is_free():
    assert nk.legal_cards(["KD", "7S", "AH"], [], "S", False) == (["7S", "AH", "KD"], "lead")


def test_obligation_1_follow():
    # holding the led suit: any card of it, even when a trump would win
    assert nk.legal_cards(["7D", "AD", "JS", "9H"], ["KD"], "S", False) == \
        (["7D", "AD"], "follow")
    # no duty to beat: 7D as legal as AD after a trump came in
    assert nk.legal_cards(["7D", "AD", "JS"], ["KD", "9S"], "S", False) == \
        (["7D", "AD"], "follow")


def test_obligation_2_trump_led():
    # must overtrump when able
    assert nk.legal_cards(["JS", "AS", "7S", "KD"], ["9S"], "S", False) == \
        (["JS"], "trump-led")
    assert nk.legal_cards(["AS", "TS", "7S", "KD"], ["KS"], "S", False) == \
        (["TS", "AS"], "trump-led")
    # the highest trump in the trick counts, not the led card
    assert nk.legal_cards(["AS", "TS", "KD"], ["KS", "9S"], "S", False) == \
        (["TS", "AS"], "trump-led-under")
    # cannot overtrump: any trump (not a side card)
    assert nk.legal_cards(["9S", "7S", "KD"], ["JS"], "S", False) == \
        (["7S", "9S"], "trump-led-under")
    # no trump held: any card
    assert nk.legal_cards(["KD", "AH"], ["9S"], "S", False) == (["AH", "KD"], "any")
    # partner winning changes nothing, also under amsterdam
    for ams in (False, True):
        assert nk.legal_cards(["9H", "8H", "AD"], ["JH", "7H"], "H", True, amsterdam=ams) == \
            (["8H", "9H"], "trump-led-under")
        assert nk.legal_cards(["JH", "8H", "AD"], ["9H", "7H"], "H", True, amsterdam=ams) == \
            (["JH"], "trump-led")


def test_obligation_3_void_holding_trumps():
    # no trump in the trick: must trump, with any trump
    assert nk.legal_cards(["7S", "9S", "AH"], ["KD"], "S", False) == (["7S", "9S"], "must-trump")
    # also when the partner is winning the trick (Rotterdam)
    assert nk.legal_cards(["7S", "AH"], ["AD", "7D"], "S", True) == (["7S"], "must-trump")
    # a trump in the trick: must overtrump when able
    assert nk.legal_cards(["JS", "7S", "AH"], ["AD", "9S"], "S", False) == (["JS"], "overtrump")
    # the partner's 9S wins: still must overtrump (Rotterdam)
    assert nk.legal_cards(["JS", "7S", "AH"], ["AD", "9S", "8D"], "S", True) == \
        (["JS"], "overtrump")
    # cannot overtrump: a non-trump (undertrumping forbidden)
    assert nk.legal_cards(["7S", "QS", "AH", "8C"], ["AD", "9S"], "S", False) == \
        (["AH", "8C"], "discard")
    # only trumps left: any trump, undertrumping forced by the hand
    assert nk.legal_cards(["7S", "QS"], ["AD", "9S"], "S", False) == (["7S", "QS"], "undertrump")


def test_obligation_4_void_no_trump():
    assert nk.legal_cards(["AH", "7C"], ["KD"], "S", False) == (["AH", "7C"], "any")
    assert nk.legal_cards(["AH", "7C"], ["KD", "JS"], "S", False) == (["AH", "7C"], "any")


def test_amsterdam_partner_winning():
    # partner winning with a plain card, no trump in the trick: any card
    hand = ["7H", "AD", "KD"]
    assert nk.legal_cards(hand, ["KS", "AS", "8S"], "H", True, amsterdam=True) == \
        (["7H", "KD", "AD"], "amsterdam-partner")
    assert nk.legal_cards(hand, ["KS", "AS", "8S"], "H", True) == (["7H"], "must-trump")
    # partner ruffed with 9H: non-trumps plus the trumps above 9H, never 8H
    trick = ["KS", "9H", "7S"]
    assert nk.legal_cards(["JH", "8H", "AD"], trick, "H", True, amsterdam=True) == \
        (["JH", "AD"], "amsterdam-partner")
    assert nk.legal_cards(["QH", "8H", "AD"], trick, "H", True, amsterdam=True) == \
        (["AD"], "amsterdam-partner")
    # only trumps held: any trump, also a lower one
    assert nk.legal_cards(["QH", "8H"], trick, "H", True, amsterdam=True) == \
        (["8H", "QH"], "amsterdam-partner")
    # Rotterdam for comparison
    assert nk.legal_cards(["JH", "8H", "AD"], trick, "H", True) == (["JH"], "overtrump")
    assert nk.legal_cards(["QH", "8H", "AD"], trick, "H", True) == (["AD"], "discard")
    # amsterdam with an opponent winning: Rotterdam duties unchanged
    assert nk.legal_cards(["JH", "8H", "AD"], trick, "H", False, amsterdam=True) == \
        (["JH"], "overtrump")
    assert nk.legal_cards(["7H", "AD"], ["AS", "KS"], "H", False, amsterdam=True) == \
        (["7H"], "must-trump")
    # amsterdam while holding the led suit: follow as usual
    assert nk.legal_cards(["7S", "7H"], ["KS", "AS"], "H", True, amsterdam=True) == \
        (["7S"], "follow")


def test_undertrump_forced():
    # the RULES example under the variant: must undertrump with 7S
    assert nk.legal_cards(["7S", "AD"], ["8H", "JS"], "S", False, undertrump_forced=True) == \
        (["7S"], "undertrump-forced")
    # able to overtrump: overtrump as usual
    assert nk.legal_cards(["JS", "7S", "AD"], ["8H", "9S"], "S", False,
                          undertrump_forced=True) == (["JS"], "overtrump")
    # no trump in the trick: must trump as usual
    assert nk.legal_cards(["7S", "AD"], ["8H"], "S", False, undertrump_forced=True) == \
        (["7S"], "must-trump")
    # no trump held: any card
    assert nk.legal_cards(["AD", "KC"], ["8H", "JS"], "S", False, undertrump_forced=True) == \
        (["AD", "KC"], "any")
    # partner winning (Rotterdam): undertrump still forced
    assert nk.legal_cards(["7S", "QS", "AD"], ["8H", "JS", "9H"], "S", True,
                          undertrump_forced=True) == (["7S", "QS"], "undertrump-forced")
    # combined with amsterdam: amsterdam when the partner wins, the variant otherwise
    assert nk.legal_cards(["7S", "AD"], ["8H", "JS", "9H"], "S", True, amsterdam=True,
                          undertrump_forced=True) == (["AD"], "amsterdam-partner")
    assert nk.legal_cards(["7S", "AD"], ["8H", "JS"], "S", False, amsterdam=True,
                          undertrump_forced=True) == (["7S"], "undertrump-forced")


def test_legal_cards_agree_with_independent_formulation():
    # every 4-card hand against many tricks, all variant combinations
    count = 0
    for seed in range(120):
        cards = spec_shuffle(7, seed, 31)
        trump = SUITS[seed % 4]
        hand = cards[:5]
        for n in range(4):
            trick = cards[5:5 + n]
            pw = n >= 2 and winner_index(trick, trump) == n - 2
            for ams in (False, True):
                for uf in (False, True):
                    legal, rule = nk.legal_cards(hand, trick, trump, pw, ams, uf)
                    assert legal == sorted(legal, key=code)
                    assert set(legal) == legal_indep(hand, trick, trump, ams, uf), \
                        (hand, trick, trump, ams, uf)
                    assert legal
                    count += 1
    assert count == 120 * 4 * 4


# ---------------------------------------------------------------------------
# Roem
# ---------------------------------------------------------------------------


def test_roem_by_hand():
    assert nk.roem(["9H", "TH", "JH", "7S"], "H")[0] == 20  # trump 9-T-J is a run
    assert nk.roem(["9H", "TH", "JH", "7S"], "H")[1] == [("run", 3, 20)]
    assert nk.roem(["JH", "QH", "KH", "7S"], "H")[0] == 40  # run + stuk
    assert sorted(nk.roem(["JH", "QH", "KH", "7S"], "H")[1]) == [("run", 3, 20), ("stuk", 20)]
    assert nk.roem(["JH", "QH", "KH", "AH"], "H")[0] == 70  # four-run + stuk
    assert nk.roem(["7H", "8H", "9H", "TH"], "H")[0] == 50  # four-run, not 50 + 20
    assert nk.roem(["QH", "KH", "AH", "TH"], "H")[0] == 40  # Q-K-A + stuk, T not adjacent
    assert nk.roem(["JS", "JH", "JD", "JC"], "H") == (200, [("four", "J", 200)])
    assert nk.roem(["JS", "JH", "JD", "JC"], "H", all_100=True)[0] == 100
    for r in "AKQT":
        assert nk.roem([r + s for s in SUITS], "D")[0] == 100
        assert nk.roem([r + s for s in SUITS], "D", all_100=True)[0] == 100
    for r in "987":
        assert nk.roem([r + s for s in SUITS], "D") == (0, [])
        assert nk.roem([r + s for s in SUITS], "D", all_100=True)[0] == 100
    assert nk.roem(["KS", "QS", "7D", "8C"], "H")[0] == 0  # K+Q of a non-trump
    assert nk.roem(["KH", "QH", "7S", "8D"], "H") == (20, [("stuk", 20)])
    assert nk.roem(["7S", "8H", "9D", "TC"], "H")[0] == 0  # runs across suits
    assert nk.roem(["AS", "KS", "QS", "7D"], "H")[0] == 20  # A-K-Q of a plain suit
    assert nk.roem(["7S", "8S", "9S", "JS"], "H")[0] == 20  # 7-8-9 with a gap to J
    assert nk.roem(["7S", "8S", "TS", "JS"], "H")[0] == 0  # two pairs, no run
    assert nk.roem(["9S", "JS", "QS", "KS"], "H")[0] == 20  # J-Q-K (9 not adjacent)
    # partial tricks (used by the heuristic): stuk with two cards, run with three
    assert nk.roem(["KH", "QH"], "H")[0] == 20
    assert nk.roem(["8C", "7C", "9C"], "H")[0] == 20
    assert nk.roem(["AS"], "H")[0] == 0


def test_roem_invariant_exhaustive():
    counts = {}
    for all_100 in (False, True):
        for combo in itertools.combinations(DECK, 4):
            total, items = nk.roem(list(combo), "S", all_100)
            assert total in ROEM_VALUES
            assert total == sum(item[-1] for item in items)
            counts[(all_100, total)] = counts.get((all_100, total), 0) + 1
    assert counts[(False, 200)] == 1  # four jacks
    assert (True, 200) not in counts
    assert counts[(False, 70)] == counts[(True, 70)] == 2  # T-J-Q-K and J-Q-K-A of trump
    assert counts[(False, 50)] == 5 * 4 - 2  # 4-runs without the stuk
    assert counts[(False, 100)] == 4  # A, T, K, Q
    assert counts[(True, 100)] == 8  # every rank


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


def test_score_both_bank():
    r = nk.score_deal([100, 62], [20, 0], 0, [5, 3])
    assert r == {"team_scores": [120, 62], "nat": False, "pit": None}
    r = nk.score_deal([60, 102], [40, 0], 1, [3, 5])
    assert r == {"team_scores": [100, 102], "nat": False, "pit": None}


def test_score_nat():
    # equal totals: nat
    assert nk.score_deal([81, 81], [0, 0], 0, [4, 4]) == \
        {"team_scores": [0, 162], "nat": True, "pit": None}
    assert nk.score_deal([71, 91], [20, 0], 0, [4, 4]) == \
        {"team_scores": [0, 182], "nat": True, "pit": None}
    # less: nat, defenders bank 162 + all roem
    assert nk.score_deal([60, 102], [20, 20], 0, [3, 5]) == \
        {"team_scores": [0, 202], "nat": True, "pit": None}
    assert nk.score_deal([100, 62], [0, 20], 1, [5, 3]) == \
        {"team_scores": [162 + 20, 0], "nat": True, "pit": None}
    # roem can make the playing team lose with more card points
    assert nk.score_deal([90, 72], [0, 20], 0, [5, 3]) == \
        {"team_scores": [0, 182], "nat": True, "pit": None}
    # ... and win with fewer
    assert nk.score_deal([90, 72], [0, 20], 1, [5, 3]) == \
        {"team_scores": [90, 92], "nat": False, "pit": None}
    assert nk.score_deal([82, 80], [0, 20], 0, [5, 3])["nat"] is True


def test_score_pit():
    # playing team takes every trick
    assert nk.score_deal([162, 0], [40, 0], 0, [8, 0]) == \
        {"team_scores": [302, 0], "nat": False, "pit": 0}
    assert nk.score_deal([0, 162], [0, 0], 1, [0, 8]) == \
        {"team_scores": [0, 262], "nat": False, "pit": 1}
    # defenders take every trick: 162 + all roem + 100
    assert nk.score_deal([0, 162], [0, 20], 0, [0, 8]) == \
        {"team_scores": [0, 282], "nat": True, "pit": 1}
    assert nk.score_deal([162, 0], [50, 0], 1, [8, 0]) == \
        {"team_scores": [312, 0], "nat": True, "pit": 0}


# ---------------------------------------------------------------------------
# Naming trump
# ---------------------------------------------------------------------------


def test_call_values_by_hand():
    hand = ["JH", "9H", "AH", "TH", "7S", "8S", "7D", "8D"]
    assert nk.call_value(hand, "H") == 45 + 35 + 25 + 20 + 10  # 4 trumps: +10
    # spades trump: 7S 8S = 20; side hearts: ace 20, ten with its ace 10
    assert nk.call_value(hand, "S") == 20 + 20 + 10


def test_call_values_side_suits():
    hand = ["JH", "9H", "AH", "TH", "7S", "8S", "7D", "8D"]
    assert nk.call_value(hand, "S") == 10 + 10 + 20 + 10
    assert nk.call_value(["TS", "KS", "7H"], "H") == 10 + 5 + 2
    assert nk.call_value(["AS", "TS", "KS", "7H"], "H") == 10 + 20 + 10 + 2
    assert nk.call_value(["7H", "8H", "QH", "KH", "9D"], "H") == 10 + 10 + 12 + 15 + 10


def test_heuristic_call_thresholds():
    strong = ["JH", "9H", "AH", "TH", "7S", "8S", "7D", "8D"]
    for p in range(4):
        assert nk.heuristic_call(strong, p, False) == "H"
    ninety = ["JH", "9H", "7H", "7S", "8S", "7D", "8D", "7C"]  # value(H) = 90
    assert nk.call_value(ninety, "H") == 90
    assert [nk.heuristic_call(ninety, p, False) for p in range(4)] == [None, "H", "H", "H"]
    eighty_five = ["JH", "9H", "TS", "7S", "8S", "7D", "8D", "7C"]  # value(H) = 85
    assert nk.call_value(eighty_five, "H") == 85
    assert [nk.heuristic_call(eighty_five, p, False) for p in range(4)] == [None, None, None, "H"]
    ninety_five = ["JH", "AH", "TH", "TS", "7S", "7D", "8D", "7C"]  # 45 + 25 + 20 + side T 5
    assert nk.call_value(ninety_five, "H") == 95
    assert [nk.heuristic_call(ninety_five, p, False) for p in range(4)] == ["H"] * 4
    ninety_two = ["JH", "AH", "TH", "KS", "7S", "7D", "8D", "7C"]  # 90 + side K 2
    assert nk.call_value(ninety_two, "H") == 92
    assert [nk.heuristic_call(ninety_two, p, False) for p in range(4)] == [None, "H", "H", "H"]
    weak = ["7S", "8S", "7H", "8H", "7D", "8D", "7C", "8C"]
    assert [nk.heuristic_call(weak, p, False) for p in range(4)] == [None] * 4
    # forced: the suit of highest value, ties to the lowest suit index
    assert nk.heuristic_call(weak, 0, True) == "S"
    assert nk.heuristic_call(eighty_five, 0, True) == "H"
    tie = ["JS", "9S", "AS", "JH", "9H", "AH", "7D", "8D"]
    assert nk.call_value(tie, "S") == nk.call_value(tie, "H") == 125
    assert nk.heuristic_call(tie, 2, False) == "S"
    low_tie = ["JD", "9D", "JC", "9C", "7S", "8S", "7H", "8H"]
    assert nk.heuristic_call(low_tie, 3, False) is None
    assert nk.heuristic_call(low_tie, 0, True) == "D"


# ---------------------------------------------------------------------------
# The heuristic play, by hand
# ---------------------------------------------------------------------------


def test_heuristic_lead():
    # 1. my team plays, highest trump top: lead it
    assert nk.heuristic_card(["7H", "JH", "AS", "8D"], None, [], "H", [], True) == "JH"
    # not the playing team: the top non-trump with most points
    assert nk.heuristic_card(["7H", "JH", "AS", "8D"], None, [], "H", [], False) == "AS"
    # highest trump not top: top non-trumps (TS is top beside my AS), most points
    assert nk.heuristic_card(["9H", "7H", "TS", "AS", "8D"], None, [], "H", [], True) == "AS"
    # 3. nothing top: the non-trump with fewest points
    assert nk.heuristic_card(["9H", "KS", "8D", "QC"], None, [], "H", [], True) == "8D"
    # ties: lowest strength, then lowest card code
    assert nk.heuristic_card(["7D", "8C", "7S", "9H"], None, [], "H", [], False) == "7S"
    # only trumps, not playing: the lowest trump
    assert nk.heuristic_card(["QH", "7H", "8H"], None, [], "H", [], False) == "7H"


def test_heuristic_lead_no_trump_unseen():
    played = ["7H", "8H", "QH", "KH", "TH", "AH"]
    hand = ["9H", "JH", "TS", "8D"]
    # every other trump is gone: rule 1 is skipped; TS is not top (AS unseen) -> fewest points
    assert nk.heuristic_card(hand, None, [], "H", played, True) == "8D"
    played2 = played + ["AS"]
    assert nk.heuristic_card(hand, None, [], "H", played2, True) == "TS"


def test_heuristic_follow():
    # last to play, opponent winning: win with AS (v = 18 > -7)
    trick = ["KS", "7S", "QS"]
    hand = ["AS", "8S", "JD"]
    legal = nk.legal_cards(hand, trick, "H", False)[0]
    assert nk.heuristic_card(hand, legal, trick, "H", trick, True) == "AS"
    # last to play, partner winning: roem counts (9H makes 7-8-9: 11 + 20 > KH's 15)
    trick = ["7H", "AH", "8H"]
    hand = ["9H", "KH"]
    legal = nk.legal_cards(hand, trick, "S", True)[0]
    assert legal == ["9H", "KH"]
    assert nk.heuristic_card(hand, legal, trick, "S", trick, False) == "9H"
    # partner winning with a top card: smear the most points
    trick = ["AS", "7S"]
    hand = ["TS", "KS", "9H"]
    legal = nk.legal_cards(hand, trick, "H", True)[0]
    assert nk.heuristic_card(hand, legal, trick, "H", trick, False) == "TS"
    # ... and a trump costs 30 (amsterdam lets me keep it)
    hand = ["9H", "QD", "KD"]
    legal = nk.legal_cards(hand, trick, "H", True, amsterdam=True)[0]
    assert legal == ["9H", "QD", "KD"]
    assert nk.heuristic_card(hand, legal, trick, "H", trick, False) == "KD"
    # partner winning but not top: try to win with the lowest winning card
    trick = ["KS", "7S"]
    hand = ["TS", "8S"]
    assert nk.heuristic_card(hand, hand, trick, "H", trick, False) == "TS"
    # partner's QS winning but not top (TS unseen): not a smear (AS) but the lowest winner
    trick = ["QS", "7S"]
    assert nk.heuristic_card(["KS", "AS"], ["KS", "AS"], trick, "H", trick, False) == "KS"
    # nothing wins: fewest points + roem (KS would make Q-K-A: 4 + 20 > TS's 10)
    trick = ["QS", "AS"]
    assert nk.heuristic_card(["KS", "TS"], ["KS", "TS"], trick, "H", trick, False) == "TS"
    # second to play: lowest winning card
    assert nk.heuristic_card(["AS", "TS", "7S"], ["AS", "TS", "7S"], ["KS"], "H", ["KS"],
                             False) == "TS"
    # nothing wins: fewest points
    assert nk.heuristic_card(["TS", "7S", "KS"], ["TS", "7S", "KS"], ["AS"], "H", ["AS"],
                             False) == "7S"


# ---------------------------------------------------------------------------
# Whole deals: replay every rule from the record
# ---------------------------------------------------------------------------


def replay_calls(rec, policies, dkey):
    dealer = rec["dealer"]
    calls = []
    trump = None
    team = None
    for p in range(4):
        seat = (dealer + 1 + p) % 4
        if policies[seat] == "random":
            k = bb.below(dkey, 64 + p, 5)
            call = SUITS[k] if k < 4 else "pass"
        else:
            call = nk.heuristic_call(rec["hands"][seat], p, False) or "pass"
        calls.append([seat, call])
        if call != "pass":
            trump, team = call, seat % 2
            break
    if trump is None:
        seat = (dealer + 1) % 4
        if policies[seat] == "random":
            trump = SUITS[bb.below(dkey, 68, 4)]
        else:
            trump = nk.heuristic_call(rec["hands"][seat], 0, True)
        calls.append([seat, trump])
        team = seat % 2
    return calls, trump, team


def check_deal(rec, seed, deal, dealer, policies, variant, fixed_trump=None, fixed_team=None,
               rules_seen=None):
    dkey = bb.deal_key(seed, deal)
    assert set(rec) == {"players", "hand_size", "dealer", "hands", "trump_card", "trump", "bids",
                        "calls", "playing_team", "tricks", "tricks_won", "team_scores",
                        "card_points", "roem", "nat", "pit", "scores"}
    assert rec["players"] == 4 and rec["hand_size"] == 8 and rec["dealer"] == dealer
    assert rec["trump_card"] is None and rec["bids"] is None
    # the deal, recomputed from the spec
    deck = [16 * s + r for s in range(4) for r in range(5, 13)]
    for i in range(31):
        j = i + bb.below(dkey, i, 32 - i)
        deck[i], deck[j] = deck[j], deck[i]
    for p in range(4):
        seat = (dealer + 1 + p) % 4
        assert rec["hands"][seat] == [bb.card_str(c) for c in sorted(deck[8 * p:8 * p + 8])]
    assert sorted(c for h in rec["hands"] for c in h) == sorted(DECK)
    # calls
    if fixed_trump is None:
        calls, trump, team = replay_calls(rec, policies, dkey)
        assert rec["calls"] == calls
        assert 1 <= len(calls) <= 5
        assert rec["trump"] == trump and rec["playing_team"] == team
    else:
        assert rec["calls"] == []
        assert rec["trump"] == fixed_trump
        assert rec["playing_team"] == (0 if fixed_team is None else fixed_team)
    trump = rec["trump"]
    ams, uf, all_100 = variant["amsterdam"], variant["undertrump_forced"], variant["all_100"]
    # the play
    hands = [list(h) for h in rec["hands"]]
    leader = (dealer + 1) % 4
    played = []
    won = [0] * 4
    cp = [0, 0]
    rm = [0, 0]
    assert len(rec["tricks"]) == 8
    for t, trick in enumerate(rec["tricks"]):
        assert trick["leader"] == leader
        assert [s for s, _ in trick["cards"]] == [(leader + i) % 4 for i in range(4)]
        cards = []
        for i, (seat, card) in enumerate(trick["cards"]):
            assert card in hands[seat] and card not in played
            pw = i >= 2 and winner_index(cards, trump) == i - 2
            legal, rule = nk.legal_cards(hands[seat], cards, trump, pw, ams, uf)
            assert card in legal
            assert set(legal) == legal_indep(hands[seat], cards, trump, ams, uf)
            if rules_seen is not None:
                rules_seen.add(rule)
            if policies[seat] == "random":
                p = (seat - dealer - 1) % 4
                ordered = sorted(legal, key=code)
                assert card == ordered[bb.below(dkey, 128 + 8 * t + p, len(ordered))]
            hands[seat].remove(card)
            cards.append(card)
            played.append(card)
        w = (leader + winner_index(cards, trump)) % 4
        assert trick["winner"] == w
        points = sum(pts(c, trump) for c in cards) + (10 if t == 7 else 0)
        assert trick["points"] == points
        assert trick["roem"] == nk.roem(cards, trump, all_100)[0]
        assert trick["roem"] in ROEM_VALUES
        won[w] += 1
        cp[w % 2] += points
        rm[w % 2] += trick["roem"]
        leader = w
    assert all(not h for h in hands)
    assert sorted(played) == sorted(DECK)
    assert rec["tricks_won"] == won and sum(won) == 8
    assert rec["card_points"] == cp and sum(cp) == 162
    assert rec["roem"] == rm
    # scoring, recomputed
    P = rec["playing_team"]
    D = 1 - P
    tot = [cp[0] + rm[0], cp[1] + rm[1]]
    tricks_team = [won[0] + won[2], won[1] + won[3]]
    if tot[P] > tot[D]:
        expected = list(tot)
        assert rec["nat"] is False
    else:
        expected = [0, 0]
        expected[D] = 162 + rm[0] + rm[1]
        assert rec["nat"] is True
    pit = None
    for team in (0, 1):
        if tricks_team[team] == 8:
            expected[team] += 100
            pit = team
    assert rec["pit"] == pit
    assert rec["team_scores"] == expected
    assert rec["scores"] == [expected[s % 2] for s in range(4)]
    if not rec["nat"]:
        for team in (0, 1):
            assert expected[team] == cp[team] + rm[team] + (100 if pit == team else 0)


@pytest.mark.parametrize("vi", range(len(VARIANTS)))
@pytest.mark.parametrize("pi", range(len(POLICY_SETS)))
def test_random_deals_replay(pi, vi):
    policies = POLICY_SETS[pi]
    variant = VARIANTS[vi]
    seen = set()
    for d in range(40):
        seed, deal, dealer = 100 + pi, d + 1000 * vi, (d + pi) % 4
        rec = nk.play_deal(seed, deal, dealer, policies, **variant)
        check_deal(rec, seed, deal, dealer, policies, variant, rules_seen=seen)
    assert {"lead", "follow", "any"} <= seen


def test_fixed_trump_deals():
    variant = VARIANTS[0]
    for d in range(30):
        trump = SUITS[d % 4]
        team = [None, 0, 1][d % 3]
        kw = {} if team is None else {"playing_team": team}
        policies = POLICY_SETS[d % 4]
        rec = nk.play_deal(5, d, d % 4, policies, trump=trump, **kw)
        check_deal(rec, 5, d, d % 4, policies, variant, fixed_trump=trump, fixed_team=team)


def test_every_rule_and_event_occurs():
    """Across many deals every obligation (and variant) shows up, as do nat and roem."""
    seen = set()
    nats = roem_tricks = 0
    for variant in VARIANTS:
        for d in range(60):
            policies = POLICY_SETS[d % 4]
            rec = nk.play_deal(31, d, d % 4, policies, **variant)
            check_deal(rec, 31, d, d % 4, policies, variant, rules_seen=seen)
            nats += rec["nat"]
            roem_tricks += sum(1 for t in rec["tricks"] if t["roem"])
    assert seen == {"lead", "follow", "trump-led", "trump-led-under", "must-trump", "overtrump",
                    "discard", "undertrump", "undertrump-forced", "amsterdam-partner", "any"}
    assert nats > 0 and roem_tricks > 0


def test_forced_calls():
    # all four pass: position 0 names a suit, recorded as a fifth call
    for seed, deal, dealer, policies in [(31, 142, 2, ["heuristic"] * 4),
                                         (31, 315, 3, ["heuristic"] * 4),
                                         (31, 224, 0, ["random"] * 4),
                                         (31, 601, 1, ["random"] * 4)]:
        rec = nk.play_deal(seed, deal, dealer, policies)
        check_deal(rec, seed, deal, dealer, policies, VARIANTS[0])
        first = (dealer + 1) % 4
        assert [c[1] for c in rec["calls"][:4]] == ["pass"] * 4
        assert [c[0] for c in rec["calls"]] == [(first + i) % 4 for i in range(4)] + [first]
        assert rec["calls"][4][1] == rec["trump"]
        assert rec["playing_team"] == first % 2
        if policies[0] == "heuristic":
            assert rec["trump"] == nk.heuristic_call(rec["hands"][first], 0, True)
        else:
            assert rec["trump"] == SUITS[bb.below(bb.deal_key(seed, deal), 68, 4)]


def test_variants_change_play():
    differ_ams = differ_uf = 0
    for d in range(40):
        base = nk.play_deal(8, d, 0, ["random"] * 4, trump="S")
        ams = nk.play_deal(8, d, 0, ["random"] * 4, trump="S", amsterdam=True)
        uf = nk.play_deal(8, d, 0, ["random"] * 4, trump="S", undertrump_forced=True)
        differ_ams += base["tricks"] != ams["tricks"]
        differ_uf += base["tricks"] != uf["tricks"]
    assert differ_ams > 0 and differ_uf > 0


def test_pit_happens_with_heuristic_play():
    pits = 0
    for d in range(300):
        rec = nk.play_deal(2, d, d % 4, ["heuristic"] * 4)
        if rec["pit"] is not None:
            pits += 1
            team = rec["pit"]
            assert rec["tricks_won"][team] + rec["tricks_won"][team + 2] == 8
            assert rec["card_points"][team] == 162
            assert rec["team_scores"][team] >= 262
    assert pits > 0


def test_deterministic_and_dealer_independent_hands_by_position():
    a = nk.play_deal(3, 4, 1, ["heuristic", "random"] * 2)
    b = nk.play_deal(3, 4, 1, ["heuristic", "random"] * 2)
    assert a == b
    c = nk.play_deal(3, 4, 2, ["heuristic", "random"] * 2)
    for p in range(4):
        assert a["hands"][(1 + 1 + p) % 4] == c["hands"][(2 + 1 + p) % 4]


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError):
        nk.play_deal(0, 0, 0, ["random"] * 3)
    with pytest.raises(ValueError):
        nk.play_deal(0, 0, 0, ["random"] * 3 + ["smart"])
    with pytest.raises(ValueError):
        nk.play_deal(0, 0, 4, ["random"] * 4)
    with pytest.raises(ValueError):
        nk.play_deal(0, 0, 0, ["random"] * 4, trump="X")


# ---------------------------------------------------------------------------
# Boompje
# ---------------------------------------------------------------------------


def test_boompje_totals_and_deals():
    for g, policies in enumerate(POLICY_SETS):
        game = nk.play_boompje(17, g, policies, first_dealer=g % 4)
        deals = game["deals"]
        assert len(deals) >= 16
        totals = [sum(r["team_scores"][t] for r in deals) for t in (0, 1)]
        assert game["totals"] == totals
        if len(deals) == 16:
            assert totals[0] != totals[1]
        if totals[0] != totals[1]:
            assert game["winners"] == [0 if totals[0] > totals[1] else 1]
        for k, rec in enumerate(deals):
            assert rec["dealer"] == (g % 4 + k) % 4
        for k in (0, 7, 15):
            assert deals[k] == nk.play_deal(17, 1024 * g + k, (g % 4 + k) % 4, policies)


def test_boompje_variant_flags_reach_the_deals():
    game = nk.play_boompje(4, 1, ["random"] * 4, amsterdam=True, undertrump_forced=True,
                           all_100=True)
    for k, rec in enumerate(game["deals"][:4]):
        assert rec == nk.play_deal(4, 1024 + k, k % 4, ["random"] * 4, amsterdam=True,
                                   undertrump_forced=True, all_100=True)


def fake_deals(monkeypatch, scores_by_k):
    calls = []

    def fake_play_deal(seed, deal_index, dealer, policies, **kw):
        k = deal_index % 1024
        calls.append((seed, deal_index, dealer))
        return {"team_scores": list(scores_by_k(k)), "dealer": dealer}

    monkeypatch.setattr(nk, "play_deal", fake_play_deal)
    return calls


def test_boompje_tie_plays_extra_deals(monkeypatch):
    # equal after 16, still equal after deal 16, different after deal 17 (0-based)
    def scores(k):
        if k < 16:
            return (100, 62) if k % 2 == 0 else (62, 100)
        if k == 16:
            return (81, 81)
        return (0, 162)
    calls = fake_deals(monkeypatch, scores)
    game = nk.play_boompje(9, 2, ["random"] * 4, first_dealer=3)
    assert len(game["deals"]) == 18
    assert calls == [(9, 2048 + k, (3 + k) % 4) for k in range(18)]
    assert game["totals"] == [8 * 162 + 81, 8 * 162 + 81 + 162]
    assert game["winners"] == [1]


def test_boompje_tie_after_32_deals_is_shared(monkeypatch):
    calls = fake_deals(monkeypatch, lambda k: (81, 81))
    game = nk.play_boompje(9, 0, ["random"] * 4)
    assert len(game["deals"]) == 32 and len(calls) == 32
    assert game["totals"] == [32 * 81, 32 * 81]
    assert game["winners"] == [0, 1]


def test_boompje_no_tie_stops_at_16(monkeypatch):
    fake_deals(monkeypatch, lambda k: (100, 62))
    game = nk.play_boompje(9, 0, ["random"] * 4)
    assert len(game["deals"]) == 16
    assert game["winners"] == [0]

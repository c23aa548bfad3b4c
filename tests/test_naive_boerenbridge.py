"""Tests of the slow reference engine itself (tests/naive_boerenbridge.py)."""
import itertools
import json
import os
import sys
from fractions import Fraction

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_boerenbridge as nb  # noqa: E402

RANKS = "23456789TJQKA"
SUITS = "SHDC"
FULL_DECK = [r + s for s in SUITS for r in RANKS]
STAIRS4 = [1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1]


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------


def test_card_str_examples():
    assert nb.card_str(0) == "2S"
    assert nb.card_str(12) == "AS"
    assert nb.card_str(16) == "2H"
    assert nb.card_str(24) == "TH"
    assert nb.card_str(60) == "AC"
    assert nb.card_str(16 * 2 + 9) == "JD"


def test_card_codes_round_trip():
    codes = [16 * s + r for s in range(4) for r in range(13)]
    strings = [nb.card_str(c) for c in codes]
    assert strings == FULL_DECK
    assert [nb.card_code(s) for s in strings] == codes
    for bad in (13, 14, 15, 29, 64, -1):
        with pytest.raises(ValueError):
            nb.card_str(bad)


# ---------------------------------------------------------------------------
# Random numbers
# ---------------------------------------------------------------------------


def test_mix64_matches_published_splitmix64_vectors():
    # rand(dkey, c) is output c of SplitMix64 started at state dkey. SplitMix64 seeded
    # with 0 is widely published to start 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
    # 0x06C45D188009454F.
    assert nb.rand(0, 0) == 0xE220A8397B1DCDAF
    assert nb.rand(0, 1) == 0x6E789E6AA1B965F4
    assert nb.rand(0, 2) == 0x06C45D188009454F


def test_rng_seed0_deal0_counter0_by_hand():
    # An independent one-off evaluation of the formulas, written with % 2**64 and
    # pow() instead of masks.
    M = 2 ** 64

    def m(z):
        z = ((z ^ (z // pow(2, 30))) * 13787848793156543929) % M
        z = ((z ^ (z // pow(2, 27))) * 10723151780598845931) % M
        return z ^ (z // pow(2, 31))

    golden = 11400714819323198485  # 0x9E3779B97F4A7C15
    rk = m((0 * golden + 1) % M)  # run_key(0) = mix64(1)
    dk = m(rk ^ 0)  # deal 0: 0 * DEALK = 0
    r0 = m((dk + 1 * golden) % M)
    assert nb.run_key(0) == rk
    assert nb.deal_key(0, 0) == dk
    assert nb.rand(nb.deal_key(0, 0), 0) == r0
    # below(): the high 32 bits scaled to [0, m)
    for mm in (1, 2, 13, 52):
        assert nb.below(dk, 0, mm) == (r0 // 2 ** 32) * mm // 2 ** 32


def test_rng_values_stay_64_bit_and_below_in_range():
    for seed in (0, 1, 2 ** 64 - 1, 123456789):
        for deal in (0, 1, 10 ** 6):
            dkey = nb.deal_key(seed, deal)
            assert 0 <= dkey < 2 ** 64
            for counter in (0, 63, 64, 70, 128, 263):
                assert 0 <= nb.rand(dkey, counter) < 2 ** 64
                for m in (1, 2, 7, 52):
                    assert 0 <= nb.below(dkey, counter, m) < m


def test_deal_index_and_seed_change_the_key():
    keys = {nb.deal_key(s, d) for s in range(5) for d in range(5)}
    assert len(keys) == 25


# ---------------------------------------------------------------------------
# Shuffle and deal
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players,hand_size", [(3, 1), (4, 8), (5, 10), (7, 7), (3, 17), (2, 8)])
def test_shuffle_is_a_permutation(players, hand_size):
    for seed in range(20):
        deck = nb.shuffled_deck(nb.deal_key(seed, 3), players, hand_size)
        assert sorted(deck) == sorted(nb.deck_order())
        assert len(set(deck)) == 52


def test_shuffle_varies_with_seed():
    firsts = {tuple(nb.shuffled_deck(nb.deal_key(seed, 0), 4, 5)[:21]) for seed in range(50)}
    assert len(firsts) == 50


def test_hands_come_from_the_shuffled_deck_by_position():
    seed, deal, n, h, dealer = 7, 11, 5, 4, 3
    deck = nb.shuffled_deck(nb.deal_key(seed, deal), n, h)
    rec = nb.play_deal(seed, deal, n, h, dealer, ["random"] * n)
    for p in range(n):
        seat = (dealer + 1 + p) % n
        expected = sorted(deck[p * h:(p + 1) * h])
        assert rec["hands"][seat] == [nb.card_str(c) for c in expected]
    assert rec["trump_card"] == nb.card_str(deck[n * h])
    assert rec["trump"] == rec["trump_card"][1]


def test_hand_size_too_large_is_rejected():
    with pytest.raises(ValueError):
        nb.play_deal(0, 0, 4, 13, 0, ["random"] * 4)  # 4*13 + 1 > 52
    nb.play_deal(0, 0, 3, 17, 0, ["random"] * 3)  # 3*17 + 1 == 52 is fine


# ---------------------------------------------------------------------------
# Rule helpers
# ---------------------------------------------------------------------------


def test_forbidden_bid():
    assert nb.forbidden_bid(3, [1, 1, 0]) == 1
    assert nb.forbidden_bid(3, [0, 0, 0]) == 3
    assert nb.forbidden_bid(3, [2, 1, 0]) == 0
    assert nb.forbidden_bid(3, [2, 2, 0]) is None  # -1: nothing forbidden
    assert nb.forbidden_bid(1, [0, 0, 0]) == 1
    assert nb.forbidden_bid(5, []) == 5


def test_legal_cards_follow_suit():
    hand = ["AS", "3H", "KH", "2D"]
    assert nb.legal_cards(hand, "H") == ["3H", "KH"]
    assert nb.legal_cards(hand, "D") == ["2D"]
    # void in clubs: anything, also no duty to trump
    assert nb.legal_cards(hand, "C") == ["AS", "3H", "KH", "2D"]
    # leading: anything
    assert nb.legal_cards(hand, None) == ["AS", "3H", "KH", "2D"]
    # result is sorted by card code
    assert nb.legal_cards(["KH", "AS", "2D", "3H"], None) == ["AS", "3H", "KH", "2D"]


def test_trick_winner_cases():
    # highest of the led suit
    assert nb.trick_winner(["5H", "KH", "2H", "9H"], "S") == 1
    # trump beats the led suit, even a small trump
    assert nb.trick_winner(["AH", "2S", "KH"], "S") == 1
    # highest trump wins among trumps
    assert nb.trick_winner(["AH", "2S", "QS", "3S"], "S") == 2
    # off-suit non-trump never wins, whatever its rank
    assert nb.trick_winner(["2H", "AD", "AC", "3H"], "S") == 3
    assert nb.trick_winner(["2H", "AD", "AC"], "S") == 0
    # trump led
    assert nb.trick_winner(["4S", "AH", "5S"], "S") == 2
    # no-trump deal: the suit of the turned card means nothing
    assert nb.trick_winner(["AH", "2S", "KH"], None) == 0
    assert nb.trick_winner(["5D", "AS", "6D", "AC"], None) == 2


def test_deal_score_examples():
    assert nb.deal_score(0, 0) == 10
    assert nb.deal_score(3, 3) == 16
    assert nb.deal_score(1, 0) == 0
    assert nb.deal_score(0, 2) == 0
    assert nb.deal_score(1, 4, "hard") == -3
    assert nb.deal_score(4, 1, "hard") == -3
    assert nb.deal_score(1, 4, "dutch") == -6
    assert nb.deal_score(2, 2, "dutch") == 14
    assert nb.deal_score(2, 2, "hard") == 14


def test_game_winner_tie_breaks():
    # highest total wins outright, whatever the other counts
    assert nb.game_winners([50, 40, 30], [1, 9, 9], [10, 40, 40]) == [0]
    # tie on total: more exact bids wins
    assert nb.game_winners([10, 20, 20], [3, 4, 5], [30, 18, 14]) == [2]
    # tie on total and exact bids: highest single-deal score wins
    assert nb.game_winners([20, 20, 5], [4, 4, 1], [12, 14, 20]) == [1]
    # still tied: share the win
    assert nb.game_winners([20, 20, 20, 3], [4, 4, 3, 1], [12, 12, 30, 3]) == [0, 1]
    assert nb.game_winners([0, 0, 0], [0, 0, 0], [0, 0, 0]) == [0, 1, 2]
    # negative totals (hard scoring)
    assert nb.game_winners([-3, -1, -1], [0, 0, 0], [10, 0, -1]) == [1]


# ---------------------------------------------------------------------------
# Heuristic policy, worked by hand from docs/boerenbridge.md
# ---------------------------------------------------------------------------


def test_heuristic_bid_first_position():
    # AS 85, KS (2 spades) 45, QH trump 70, 2H trump 25, 3D 0 = 225; nt = 2,
    # void in clubs -> +30 = 255; position 0 +10 = 265 -> (265 + 50) // 100 = 3
    hand = ["AS", "KS", "QH", "2H", "3D"]
    assert nb.heuristic_bid(hand, 0, 4, 5, "H", [], True, False) == 3
    # no-trump: QH is a plain queen (2 hearts -> 5), 2H 0, no void bonus:
    # 85 + 45 + 5 = 135 + 10 = 145 -> 1
    assert nb.heuristic_bid(hand, 0, 4, 5, None, [], True, False) == 1


def test_heuristic_bid_long_trumps_and_clamp():
    # trumps 2S 3S 4S 5S 6S: 5 * 25 = 125; nt - 3 = 2 -> +60; voids = 3 -> +30*3:
    # 125 + 60 + 90 = 275 +10 = 285 -> 3
    hand = ["2S", "3S", "4S", "5S", "6S"]
    assert nb.heuristic_bid(hand, 0, 4, 5, "S", [], True, False) == 3
    # one card, AS trump: 100 + void bonus min(3, 1) * 30 = 130, position 1 with
    # earlier bid 0: 0 < 100*1*1 - 200 ? no -> E = 130 -> (180)//100 = 1, clamp to h=1
    assert nb.heuristic_bid(["AS"], 1, 4, 1, "S", [0], True, False) == 1


def test_heuristic_bid_earlier_bids_adjust():
    # hand worth 60 at position 2 of 4, h = 4: share k/n*h = 2
    hand = ["QS", "KS", "2D", "3D"]  # trump H: KS 45, QS (2 spades) 5 -> 50; no trumps
    # S = 2: exactly the share -> 50 -> (100)//100 = 1
    assert nb.heuristic_bid(hand, 2, 4, 4, "H", [1, 1], True, False) == 1
    # S = 0: 0 < 800 - 200 -> +25 = 75 -> 1
    assert nb.heuristic_bid(hand, 2, 4, 4, "H", [0, 0], True, False) == 1
    # S = 4: 1600 > 800 + 200 -> -25 = 25 -> (75)//100 = 0
    assert nb.heuristic_bid(hand, 2, 4, 4, "H", [2, 2], True, False) == 0


def test_heuristic_bid_earlier_bids_boundaries_are_strict():
    # n=4, h=2, position 1: 100*S*n == 100*h*k + 50*n when S = 1 -> no -25
    # KD (2 diamonds) 45 + QD (only 2 diamonds, < 3) 5 = 50 -> (100)//100 = 1
    assert nb.heuristic_bid(["KD", "QD"], 1, 4, 2, "S", [1], True, False) == 1
    # S = 2: 800 > 400 -> -25 -> 25 -> 0
    assert nb.heuristic_bid(["KD", "QD"], 1, 4, 2, "S", [2], True, False) == 0
    # S = 0: 0 == 100*2*1 - 50*4 -> no +25: KD 45 -> (95)//100 = 0
    assert nb.heuristic_bid(["KD", "3D"], 1, 4, 2, "S", [0], True, False) == 0
    # n=3, h=2, position 1, S = 0: 0 < 200 - 150 -> +25 -> 70 -> 1
    assert nb.heuristic_bid(["KD", "3D"], 1, 3, 2, "S", [0], True, False) == 1


def test_heuristic_bid_dealer_rule():
    hand = ["AS", "KS", "QH", "2H", "3D"]  # 255 as above, dealer = position 3
    # bids 1,1,0: S=2, 800 < 1500 - 200 -> +25 -> E = 280 -> bid 3 == forbidden 3;
    # E < 300 -> bid 2
    assert nb.heuristic_bid(hand, 3, 4, 5, "H", [1, 1, 0], True, False) == 2
    # dealer rule off: 3
    assert nb.heuristic_bid(hand, 3, 4, 5, "H", [1, 1, 0], False, False) == 3
    # KD instead of 3D: 255 + 20 = 275, +25 = 300 -> bid 3 == f, E >= 300 -> 4
    hand2 = ["AS", "KS", "QH", "2H", "KD"]
    assert nb.heuristic_bid(hand2, 3, 4, 5, "H", [1, 1, 0], True, False) == 4
    # bid 0 forbidden with E < 0: n=3, h=2, bids 2,0 -> S=2, 600 > 400 + 150 -> -25
    # E = -25 -> bid 0 == f = 0 -> bid - 1 < 0 -> bid + 1 = 1
    assert nb.heuristic_bid(["2D", "3C"], 2, 3, 2, "S", [2, 0], True, False) == 1


def test_heuristic_bid_blind():
    # E = 100 // n regardless of the card
    assert nb.heuristic_bid(["AS"], 0, 4, 1, "S", [], True, True) == 0  # 25 + 10
    # dealer of 3, bids 0,0: 33 + 25 = 58 -> 1 == forbidden 1, E < 100 -> 0
    assert nb.heuristic_bid(["AS"], 2, 3, 1, "S", [0, 0], True, True) == 0
    # not blind the same card bids 1 even as first hand
    assert nb.heuristic_bid(["AS"], 0, 4, 1, "S", [], True, False) == 1


def _hc(hand, trick, trump, need, last, played=(), turned="2C"):
    led = trick[0][1] if trick else None
    legal = nb.legal_cards(hand, led)
    card = nb.heuristic_card(hand, legal, list(trick), trump, list(played) + list(trick),
                             turned, need, last)
    assert card in legal
    return card


def test_heuristic_lead_need_positive():
    # top trump
    assert _hc(["3S", "AH", "KD"], [], "H", 1, False) == "AH"
    # KH is top only because AH is the turned card
    assert _hc(["KH", "3S"], [], "H", 1, False, turned="AH") == "KH"
    assert _hc(["KH", "3S"], [], "H", 1, False, turned="AS") == "3S"
    # ... or because AH has been played
    assert _hc(["KH", "3S"], [], "H", 1, False, played=["AH", "4H"], turned="AS") == "KH"
    # top non-trumps: the highest of them, rank ties to the lower suit index
    assert _hc(["AD", "AS", "KC", "2H"], [], "H", 2, False, turned="AC") == "AS"
    # no top card: low of the longest non-trump suit, ties to the lower suit index
    assert _hc(["5S", "9S", "4D", "8D", "2H"], [], "H", 1, False, turned="3H") == "5S"
    assert _hc(["5S", "4D", "8D", "2H"], [], "H", 1, False, turned="3H") == "4D"
    # only trumps, none on top
    assert _hc(["3H", "2H"], [], "H", 1, False, turned="AS") == "2H"


def test_heuristic_lead_need_not_positive():
    assert _hc(["AH", "5S", "3D"], [], "H", 0, False) == "3D"
    assert _hc(["AH", "3D", "3S"], [], "H", -1, False) == "3S"
    assert _hc(["AH", "2H"], [], "H", 0, False) == "2H"
    # no-trump: every card is a non-trump
    assert _hc(["AH", "2H", "5S"], [], None, 0, False) == "2H"


def test_heuristic_follow_suit():
    hand = ["7D", "KD", "2D", "AH"]
    # need > 0: cards that beat 5D are 7D, KD: high when not last, low when last
    assert _hc(hand, ["5D"], "H", 1, False) == "KD"
    assert _hc(hand, ["5D"], "H", 1, True) == "7D"
    # need > 0 and nothing beats: low
    assert _hc(hand, ["AD"], "H", 1, False) == "2D"
    # a trump already in the trick: no diamond beats it
    assert _hc(["KD", "AD", "3C"], ["5D", "2H"], "H", 1, False) == "KD"
    # need <= 0: highest card that does not beat
    assert _hc(hand, ["8D"], "H", 0, False) == "7D"
    assert _hc(hand, ["AD"], "H", 0, False) == "KD"
    # need <= 0, everything beats: high when last, low otherwise
    assert _hc(["7D", "KD"], ["3D"], "H", 0, True) == "KD"
    assert _hc(["7D", "KD"], ["3D"], "H", 0, False) == "7D"
    # the current winner is the best card so far, not the led card
    assert _hc(["7D", "KD", "2D"], ["5D", "QD"], "H", 1, False) == "KD"
    assert _hc(["7D", "KD", "2D"], ["5D", "QD"], "H", 0, False) == "7D"


def test_heuristic_void():
    # need > 0: lowest trump that beats the current winner
    assert _hc(["3H", "9H", "AS"], ["5D", "2H"], "H", 1, False) == "3H"
    assert _hc(["3H", "9H", "AS"], ["5D", "4H"], "H", 1, False) == "9H"
    # no trump beats: lowest non-trump
    assert _hc(["3H", "AS", "4C"], ["5D", "KH"], "H", 1, False) == "4C"
    # only trumps and none beats: low(hand)
    assert _hc(["3H", "4H"], ["5D", "KH"], "H", 1, False) == "3H"
    # need <= 0: shed the highest non-trump
    assert _hc(["3H", "AS", "4C"], ["5D"], "H", 0, False) == "AS"
    # only trumps: highest trump that does not beat, else low(hand)
    assert _hc(["3H", "QH"], ["5D", "9H"], "H", 0, False) == "3H"
    assert _hc(["QH", "KH"], ["5D", "9H"], "H", 0, False) == "QH"
    assert _hc(["QH", "KH"], ["5D"], "H", 0, False) == "QH"
    # no-trump deal: no trump can beat anything
    assert _hc(["AS", "2C"], ["5D"], None, 1, False) == "2C"
    assert _hc(["AS", "2C"], ["5D"], None, 0, False) == "AS"


# ---------------------------------------------------------------------------
# Whole deals: invariants
# ---------------------------------------------------------------------------

POLICY_MIXES = [
    lambda n: ["random"] * n,
    lambda n: ["heuristic"] * n,
    lambda n: ["random" if s % 2 else "heuristic" for s in range(n)],
]


def _deal_cases():
    for n, sizes in ((3, (1, 5, 17)), (4, (1, 3, 8, 12)), (5, (2, 10)), (7, (1, 7)), (2, (8,))):
        for h in sizes:
            for mix in range(len(POLICY_MIXES)):
                yield n, h, mix


def _check_record(rec, n, h, dealer, dealer_rule=True, notrump=False):
    assert set(rec) == {"players", "hand_size", "dealer", "hands", "trump_card", "trump",
                        "bids", "tricks", "tricks_won", "scores"}
    json.dumps(rec)
    assert rec["players"] == n and rec["hand_size"] == h and rec["dealer"] == dealer
    hands = rec["hands"]
    assert len(hands) == n and all(len(hd) == h for hd in hands)
    for hd in hands:
        assert hd == sorted(hd, key=nb.card_code)
    dealt = [c for hd in hands for c in hd] + [rec["trump_card"]]
    assert len(set(dealt)) == n * h + 1 and set(dealt) <= set(FULL_DECK)
    trump = rec["trump"]
    assert trump == (None if notrump else rec["trump_card"][1])
    # bids
    assert all(0 <= b <= h for b in rec["bids"])
    if dealer_rule:
        assert sum(rec["bids"]) != h
    # play
    assert len(rec["tricks"]) == h
    remaining = [list(hd) for hd in hands]
    won = [0] * n
    leader = (dealer + 1) % n
    played = []
    for trick in rec["tricks"]:
        assert trick["leader"] == leader
        seats = [s for s, _ in trick["cards"]]
        assert seats == [(leader + i) % n for i in range(n)]
        cards = [c for _, c in trick["cards"]]
        for i, (s, c) in enumerate(trick["cards"]):
            assert c in remaining[s]
            if i > 0:
                led = cards[0][1]
                if any(x[1] == led for x in remaining[s]):
                    assert c[1] == led
            remaining[s].remove(c)
        winner = seats[nb.trick_winner(cards, trump)]
        assert trick["winner"] == winner
        won[winner] += 1
        leader = winner
        played.extend(cards)
    assert all(r == [] for r in remaining)
    assert sorted(played) == sorted(c for hd in hands for c in hd)  # every card once
    assert rec["tricks_won"] == won
    assert sum(won) == h


@pytest.mark.parametrize("n,h,mix", list(_deal_cases()))
def test_deal_invariants(n, h, mix):
    policies = POLICY_MIXES[mix](n)
    for seed in range(6):
        dealer = seed % n
        rec = nb.play_deal(seed, 100 + seed, n, h, dealer, policies)
        _check_record(rec, n, h, dealer)
        for s in range(n):
            assert rec["scores"][s] == nb.deal_score(rec["bids"][s], rec["tricks_won"][s])


def test_dealer_rule_never_lets_bids_sum_to_h_and_off_does():
    equal_seen = 0
    for seed in range(300):
        for policy in ("random", "heuristic"):
            h = 1 + seed % 6
            on = nb.play_deal(seed, seed, 4, h, seed % 4, [policy] * 4)
            assert sum(on["bids"]) != h
            off = nb.play_deal(seed, seed, 4, h, seed % 4, [policy] * 4, dealer_rule=False)
            equal_seen += sum(off["bids"]) == h
    assert equal_seen > 0


def test_notrump_deal():
    for seed in range(40):
        rec = nb.play_deal(seed, 0, 4, 6, 1, ["heuristic", "random"] * 2, notrump=True)
        _check_record(rec, 4, 6, 1, notrump=True)
        plain = nb.play_deal(seed, 0, 4, 6, 1, ["heuristic", "random"] * 2)
        assert plain["hands"] == rec["hands"] and plain["trump_card"] == rec["trump_card"]


def test_random_decisions_are_counter_based():
    # The deal does not depend on the policies, and a random seat's bid depends only on
    # (seed, deal, position), not on what the other seats do.
    for seed in range(30):
        a = nb.play_deal(seed, 5, 5, 4, 2, ["random"] * 5)
        b = nb.play_deal(seed, 5, 5, 4, 2, ["heuristic"] * 3 + ["random"] + ["heuristic"])
        assert a["hands"] == b["hands"] and a["trump_card"] == b["trump_card"]
        # seat 3 is position 0 with dealer 2
        assert a["bids"][3] == b["bids"][3]
        dkey = nb.deal_key(seed, 5)
        assert a["bids"][3] == nb.below(dkey, 64, 5)
        # first card of the first trick, led by position 0 (seat 3), random in both
        first = sorted(a["hands"][3], key=nb.card_code)[nb.below(dkey, 128, 4)]
        assert a["tricks"][0]["cards"][0] == [3, first]
        assert b["tricks"][0]["cards"][0] == [3, first]


def _spec_deck(seed, deal, n, h):
    """The shuffle restated from the spec text, with its own 64-bit arithmetic."""
    M = 2 ** 64

    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M
        return z ^ (z >> 31)

    golden = 0x9E3779B97F4A7C15
    dkey = mix(mix((seed * golden + 1) % M) ^ ((deal * 0xD1B54A32D192ED03) % M))

    def below(counter, m):
        return ((mix((dkey + (counter + 1) * golden) % M) >> 32) * m) >> 32

    deck = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    for i in range(n * h + 1):
        j = i + below(i, 52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck, below


@pytest.mark.parametrize("n,h,dealer", [(3, 6, 0), (4, 1, 3), (5, 7, 2), (7, 7, 6), (3, 17, 1)])
def test_all_random_deal_replays_from_the_spec(n, h, dealer):
    """Replay every random decision of a recorded deal straight from the spec's formulas."""
    for seed in (0, 1, 2 ** 64 - 1, 42):
        deal = seed % 1000 + 7
        deck, below = _spec_deck(seed, deal, n, h)
        rec = nb.play_deal(seed, deal, n, h, dealer, ["random"] * n)
        for p in range(n):
            seat = (dealer + 1 + p) % n
            assert set(rec["hands"][seat]) == set(deck[p * h:(p + 1) * h])
        assert rec["trump_card"] == deck[n * h]
        bids = []
        for p in range(n):
            seat = (dealer + 1 + p) % n
            choices = list(range(h + 1))
            if p == n - 1 and 0 <= h - sum(bids) <= h:
                choices.remove(h - sum(bids))
            bids.append(choices[below(64 + p, len(choices))])
            assert rec["bids"][seat] == bids[-1]
        remaining = [list(hd) for hd in rec["hands"]]
        order = {c: i for i, c in enumerate(FULL_DECK)}
        for t, trick in enumerate(rec["tricks"]):
            for i, (seat, card) in enumerate(trick["cards"]):
                p = (seat - dealer - 1) % n
                mine = sorted(remaining[seat], key=order.get)
                if i > 0 and any(c[1] == trick["cards"][0][1][1] for c in mine):
                    mine = [c for c in mine if c[1] == trick["cards"][0][1][1]]
                assert card == mine[below(128 + 8 * t + p, len(mine))]
                remaining[seat].remove(card)


def test_one_card_deal_outcome_depends_only_on_cards():
    for seed in range(50):
        a = nb.play_deal(seed, 0, 5, 1, seed % 5, ["random"] * 5)
        b = nb.play_deal(seed, 0, 5, 1, seed % 5, ["heuristic"] * 5)
        assert a["tricks"] == b["tricks"]


# ---------------------------------------------------------------------------
# Scoring variants inside deals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("scoring", ["standard", "hard", "dutch"])
def test_scoring_modes_in_deals(scoring):
    for seed in range(40):
        rec = nb.play_deal(seed, 1, 4, 5, 0, ["random", "heuristic"] * 2, scoring=scoring)
        for s in range(4):
            b, t = rec["bids"][s], rec["tricks_won"][s]
            expected = 10 + 2 * t if b == t else {"standard": 0, "hard": -abs(t - b),
                                                  "dutch": -2 * abs(t - b)}[scoring]
            assert rec["scores"][s] == expected


@pytest.mark.parametrize("scoring", ["standard", "hard", "dutch"])
def test_bauer_bonus(scoring):
    applied = 0
    for seed in range(400):
        h = 1 + seed % 4
        dealer = seed % 4
        kw = dict(scoring=scoring)
        off = nb.play_deal(seed, 9, 4, h, dealer, ["random"] * 4, **kw)
        on = nb.play_deal(seed, 9, 4, h, dealer, ["random"] * 4, bauer_bonus=True, **kw)
        assert on["bids"] == off["bids"] and on["tricks"] == off["tricks"]
        others = sum(on["bids"]) - on["bids"][dealer]
        forbidden = h - others
        t = on["tricks_won"][dealer]
        bonus = 5 if (0 <= forbidden <= h and t == forbidden) else 0
        applied += bonus > 0
        for s in range(4):
            assert on["scores"][s] == off["scores"][s] + (bonus if s == dealer else 0)
        # dealer rule off: never a bonus
        off_rule = nb.play_deal(seed, 9, 4, h, dealer, ["random"] * 4, bauer_bonus=True,
                                dealer_rule=False, **kw)
        plain_off_rule = nb.play_deal(seed, 9, 4, h, dealer, ["random"] * 4, dealer_rule=False,
                                      **kw)
        assert off_rule["scores"] == plain_off_rule["scores"]
    assert applied > 0


def test_blind_one_card_doubles_whole_score():
    bonus_doubled = 0
    for seed in range(300):
        kw = dict(scoring=("standard", "hard", "dutch")[seed % 3], bauer_bonus=True)
        plain = nb.play_deal(seed, 2, 4, 1, seed % 4, ["random"] * 4, **kw)
        blind = nb.play_deal(seed, 2, 4, 1, seed % 4, ["random"] * 4, blind_one_card=True, **kw)
        # the random policy does not look at the card, so the deal plays the same
        assert blind["bids"] == plain["bids"] and blind["tricks"] == plain["tricks"]
        assert blind["scores"] == [2 * x for x in plain["scores"]]
        d = seed % 4
        if blind["scores"][d] - 2 * nb.deal_score(blind["bids"][d], blind["tricks_won"][d],
                                                  kw["scoring"]) == 10:
            bonus_doubled += 1
    assert bonus_doubled > 0
    # deals of more than one card are not doubled
    for seed in range(30):
        plain = nb.play_deal(seed, 2, 4, 3, 0, ["random"] * 4)
        blind = nb.play_deal(seed, 2, 4, 3, 0, ["random"] * 4, blind_one_card=True)
        assert blind == plain


def test_blind_heuristic_bids_ignore_the_card():
    for seed in range(50):
        rec = nb.play_deal(seed, 0, 4, 1, 0, ["heuristic"] * 4, blind_one_card=True)
        # 25 (+10 for position 0) with the earlier-bids adjustment only
        again = nb.play_deal(seed + 1000, 0, 4, 1, 0, ["heuristic"] * 4, blind_one_card=True)
        assert rec["bids"] == again["bids"]
        assert rec["scores"] == [2 * nb.deal_score(b, t) for b, t in
                                 zip(rec["bids"], rec["tricks_won"])]


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


def test_play_game_structure():
    policies = ["heuristic", "random", "heuristic", "random"]
    g = nb.play_game(3, 2, 4, STAIRS4, policies, first_dealer=1, notrump_deals={0, 7})
    assert set(g) == {"deals", "totals", "exact", "best", "winners"}
    assert len(g["deals"]) == 15
    for k, rec in enumerate(g["deals"]):
        dealer = (1 + k) % 4
        assert rec["dealer"] == dealer and rec["hand_size"] == STAIRS4[k]
        same = nb.play_deal(3, 2 * 15 + k, 4, STAIRS4[k], dealer, policies,
                            notrump=k in (0, 7))
        assert rec == same
        assert (rec["trump"] is None) == (k in (0, 7))
        _check_record(rec, 4, STAIRS4[k], dealer, notrump=k in (0, 7))
    for s in range(4):
        scores = [rec["scores"][s] for rec in g["deals"]]
        assert g["totals"][s] == sum(scores)
        assert g["best"][s] == max(scores)
        assert g["exact"][s] == sum(rec["bids"][s] == rec["tricks_won"][s] for rec in g["deals"])
    assert g["winners"] == nb.game_winners(g["totals"], g["exact"], g["best"])
    top = max(g["totals"])
    assert all(g["totals"][w] == top for w in g["winners"])


def test_play_game_options_pass_through():
    g = nb.play_game(11, 0, 5, [1, 2, 1], ["random"] * 5, scoring="dutch", bauer_bonus=True,
                     blind_one_card=True)
    for k, rec in enumerate(g["deals"]):
        same = nb.play_deal(11, k, 5, [1, 2, 1][k], k % 5, ["random"] * 5, scoring="dutch",
                            bauer_bonus=True, blind_one_card=True)
        assert rec == same
    g2 = nb.play_game(11, 0, 5, [1, 2, 1], ["random"] * 5, dealer_rule=False)
    assert [r["bids"] for r in g2["deals"]] == [
        nb.play_deal(11, k, 5, h, k % 5, ["random"] * 5, dealer_rule=False)["bids"]
        for k, h in enumerate([1, 2, 1])]


# ---------------------------------------------------------------------------
# Exact fact: the leader of a 4-player 1-card deal wins with probability 7699/20825
# ---------------------------------------------------------------------------


def test_leader_wins_one_card_deal_with_exact_probability():
    """Exhaustive over every turned card, lead card and set of three follower cards.

    By the symmetry of the four suits the turned card can be taken to be a spade
    (trump S), and with spades trump the three other suits are interchangeable, so a
    lead in diamonds or clubs counts like one in hearts (weight 3). Whether the leader
    wins does not depend on the order of the three followers, so each unordered set of
    follower cards stands for 3! equally likely orderings. Every (turned card, four
    hands) arrangement is equally likely, so the ratio of counts is the probability.
    """
    wins = 0
    total = 0
    for turned_rank in RANKS:
        turned = turned_rank + "S"
        rest = [c for c in FULL_DECK if c != turned]
        for lead in rest:
            if lead[1] in "DC":
                continue
            weight = 3 if lead[1] == "H" else 1
            followers = [c for c in rest if c != lead]
            n_sets = 0
            n_wins = 0
            for a, b, c in itertools.combinations(followers, 3):
                n_sets += 1
                if nb.trick_winner([lead, a, b, c], "S") == 0:
                    n_wins += 1
            wins += weight * n_wins
            total += weight * n_sets
    assert total == 13 * 51 * 19600
    assert Fraction(wins, total) == Fraction(7699, 20825)

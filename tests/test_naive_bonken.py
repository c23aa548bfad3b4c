"""Tests of the slow Bonken reference engine itself (tests/naive_bonken.py).

The checks here recompute things independently from the records (legality, scores,
turn order) or compare with values worked out by hand from docs/bonken.md.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_boerenbridge as bb  # noqa: E402
import naive_bonken as nk  # noqa: E402

RANKS = "23456789TJQKA"
SUITS = "SHDC"
FULL_DECK = [r + s for s in SUITS for r in RANKS]
TOTALS = [-65, -65, -120, -120, -50, -50, -50, 130, 130, 130, 130, 130]
POLICY_SETS = [
    ["random"] * 4,
    ["heuristic"] * 4,
    ["heuristic", "random", "heuristic", "random"],
    ["random", "random", "heuristic", "heuristic"],
]
TRICK_IDS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]


def rank(card):
    return RANKS.index(card[0])


def points_of_trick(contract, cards, t):
    """Points for the winner of trick t, written independently of the engine."""
    if contract >= 7:
        return 10
    if contract == 0:
        return -5
    if contract == 5:
        return -50 if t == 12 else 0
    pts = 0
    for c in cards:
        if contract == 1 and c[1] == "H":
            pts -= 5
        if contract == 2 and c[0] == "K":
            pts -= 20
        if contract == 2 and c[0] == "J":
            pts -= 10
        if contract == 3 and c[0] == "Q":
            pts -= 30
        if contract == 4 and c == "KH":
            pts -= 50
    return pts


def penalty_set(contract):
    if contract == 1:
        return {r + "H" for r in RANKS}
    if contract == 2:
        return {r + s for r in "JK" for s in SUITS}
    if contract == 3:
        return {"Q" + s for s in SUITS}
    if contract == 4:
        return {"KH"}
    return set()


def winner_index(cards, trump):
    """Index of the trick's winning card: highest trump, else highest of the led suit."""
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        c_trump = trump is not None and c[1] == trump
        b_trump = trump is not None and b[1] == trump
        if c_trump and not b_trump:
            best = i
        elif c[1] == b[1] and rank(c) > rank(b):
            best = i
    return best


def check_trick_round(rec, contract, policies, hearts_lead="restricted", seed=None,
                      deal=None):
    """Replay a trick round and check every rule; returns the number of tricks played."""
    dealer = rec["dealer"]
    trump = SUITS[contract - 7] if 7 <= contract <= 10 else None
    assert rec["trump"] == trump
    assert rec["contract"] == nk.CONTRACTS[contract]
    assert rec["moves"] == [] and rec["out_order"] == []
    hands = [list(h) for h in rec["hands"]]
    dkey = bb.deal_key(seed, deal) if seed is not None else None
    leader = (dealer + 1) % 4  # position 0 leads the first trick
    won = [0, 0, 0, 0]
    scores = [0, 0, 0, 0]
    seen = set()
    broken = False
    penalties_left = set(penalty_set(contract))
    n_tricks = len(rec["tricks"])
    for t, trick in enumerate(rec["tricks"]):
        assert trick["leader"] == leader
        seats = [s for s, _ in trick["cards"]]
        assert seats == [(leader + i) % 4 for i in range(4)]
        cards = [c for _, c in trick["cards"]]
        for i, (seat, card) in enumerate(trick["cards"]):
            hand = hands[seat]
            assert card in hand, "card not held by the player (or played twice)"
            assert card not in seen
            if i == 0:
                legal = list(hand)
                if contract in (1, 4) and any(c[1] != "H" for c in hand):
                    if not (hearts_lead == "after_broken" and broken):
                        legal = [c for c in hand if c[1] != "H"]
            else:
                led = cards[0][1]
                legal = [c for c in hand if c[1] == led] or list(hand)
            assert card in legal
            if dkey is not None and policies[seat] == "random":
                p = (seat - dealer - 1) % 4
                ordered = sorted(legal, key=lambda c: 16 * SUITS.index(c[1]) + rank(c))
                assert card == ordered[bb.below(dkey, 128 + 8 * t + p, len(ordered))]
            hand.remove(card)
            seen.add(card)
        w = (leader + winner_index(cards, trump)) % 4
        assert trick["winner"] == w
        won[w] += 1
        scores[w] += points_of_trick(contract, cards, t)
        if any(c[1] == "H" for c in cards):
            broken = True
        penalties_left -= set(cards)
        if contract in (1, 2, 3, 4):
            # early stop: right after the trick with the last penalty card, not before
            assert (not penalties_left) == (t == n_tricks - 1)
        leader = w
    if contract not in (1, 2, 3, 4):
        assert n_tricks == 13
    assert rec["tricks_won"] == won
    assert rec["scores"] == scores
    return n_tricks


def domino_legal_indep(hand, played):
    """Legal Domino cards given the set of cards already laid (independent formulation)."""
    out = []
    for c in hand:
        row = {rank(x) for x in played if x[1] == c[1]}
        r = rank(c)
        if not row:
            ok = r == 6
        else:
            ok = (r + 1 in row) or (r - 1 in row)
        if ok:
            out.append(c)
    return out


def check_domino_round(rec, policies, seed=None, deal=None):
    dealer = rec["dealer"]
    assert rec["contract"] == "domino" and rec["trump"] is None
    assert rec["tricks"] == [] and rec["tricks_won"] == [0, 0, 0, 0]
    hands = [list(h) for h in rec["hands"]]
    dkey = bb.deal_key(seed, deal) if seed is not None else None
    played = set()
    out = []
    seat = (dealer + 1) % 4  # position 0 moves first
    for m, (mover, card) in enumerate(rec["moves"]):
        while not hands[seat]:
            seat = (seat + 1) % 4  # players who are out are skipped
        assert mover == seat
        assert len(out) < 3
        legal = domino_legal_indep(hands[seat], played)
        if card is None:
            assert legal == [], "passed while holding a legal move"
        else:
            assert card in legal
            if len(legal) == 1:
                assert card == legal[0]
            if dkey is not None and policies[seat] == "random":
                ordered = sorted(legal, key=lambda c: 16 * SUITS.index(c[1]) + rank(c))
                assert card == ordered[bb.below(dkey, 256 + m, len(ordered))]
            hands[seat].remove(card)
            played.add(card)
            if not hands[seat]:
                out.append(seat)
        seat = (seat + 1) % 4
    assert len(out) == 3
    assert rec["out_order"] == out
    last = [s for s in range(4) if s not in out]
    assert len(last) == 1 and hands[last[0]]
    expected = [0, 0, 0, 0]
    expected[last[0]] = -50
    assert rec["scores"] == expected


# ---------------------------------------------------------------------------
# Ids, deal, record shape
# ---------------------------------------------------------------------------


def test_contract_ids():
    assert nk.CONTRACTS == ["ducking", "no-hearts", "no-men", "no-queens", "no-king-of-hearts",
                            "no-last", "domino", "spades", "hearts", "diamonds", "clubs",
                            "no-trump"]


def test_deal_follows_the_spec():
    for seed, deal, dealer in [(0, 0, 0), (5, 17, 2), (2 ** 64 - 1, 1000, 3)]:
        dkey = bb.deal_key(seed, deal)
        deck = [16 * s + r for s in range(4) for r in range(13)]
        for i in range(51):
            j = i + bb.below(dkey, i, 52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        rec = nk.play_round(seed, deal, dealer, ["random"] * 4, contract=0)
        assert rec["dealer"] == dealer
        all_cards = []
        for p in range(4):
            seat = (dealer + 1 + p) % 4
            expected = [bb.card_str(c) for c in sorted(deck[13 * p:13 * p + 13])]
            assert rec["hands"][seat] == expected
            all_cards += rec["hands"][seat]
        assert sorted(all_cards) == sorted(FULL_DECK)
        assert rec["chooser"] == (dealer + 2) % 4


def test_record_keys():
    rec = nk.play_round(1, 2, 3, ["heuristic"] * 4, contract=8)
    assert set(rec) == {"players", "hand_size", "dealer", "hands", "trump_card", "trump", "bids",
                        "contract", "chooser", "tricks", "moves", "out_order", "tricks_won",
                        "scores"}
    assert rec["players"] == 4 and rec["hand_size"] == 13
    assert rec["trump_card"] is None and rec["bids"] is None and rec["trump"] == "H"
    assert rec["tricks"][0]["leader"] == 0  # left of dealer 3


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError):
        nk.play_round(0, 0, 0, ["random"] * 3, contract=0)
    with pytest.raises(ValueError):
        nk.play_round(0, 0, 0, ["random", "random", "random", "smart"], contract=0)
    with pytest.raises(ValueError):
        nk.play_round(0, 0, 0, ["random"] * 4, contract=12)
    with pytest.raises(ValueError):
        nk.play_round(0, 0, 0, ["random"] * 4, available=[0, 7])
    with pytest.raises(ValueError):
        nk.play_round(0, 0, 0, ["random"] * 4, contract=1, hearts_lead="never")


# ---------------------------------------------------------------------------
# Whole rounds: totals, legality, scores
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("contract", range(12))
def test_round_totals_and_replay(contract):
    n = 0
    for pi, policies in enumerate(POLICY_SETS):
        for d in range(25):
            seed, deal, dealer = 11 + pi, d, (d + pi) % 4
            rec = nk.play_round(seed, deal, dealer, policies, contract=contract)
            assert sum(rec["scores"]) == TOTALS[contract]
            if contract == 6:
                check_domino_round(rec, policies, seed, deal)
            else:
                check_trick_round(rec, contract, policies, seed=seed, deal=deal)
            n += 1
    assert n == 100


def test_trump_rounds_are_plus_ten_per_trick_and_play_all_cards():
    for contract in (7, 8, 9, 10, 11):
        for d in range(10):
            rec = nk.play_round(3, d, d % 4, ["heuristic", "random"] * 2, contract=contract)
            assert rec["scores"] == [10 * w for w in rec["tricks_won"]]
            played = sorted(c for t in rec["tricks"] for _, c in t["cards"])
            assert played == sorted(FULL_DECK)


# ---------------------------------------------------------------------------
# Hearts-lead rule
# ---------------------------------------------------------------------------


def test_hearts_lead_rule_direct():
    hand = ["2H", "AH", "5S", "KD"]
    for contract in (1, 4):
        assert nk.legal_cards(hand, [], contract) == ["5S", "KD"]
        assert nk.legal_cards(hand, [], contract, "restricted", True) == ["5S", "KD"]
        assert nk.legal_cards(hand, [], contract, "after_broken", False) == ["5S", "KD"]
        assert nk.legal_cards(hand, [], contract, "after_broken", True) == ["5S", "2H", "AH", "KD"]
        # hearts-only hand must lead a heart
        assert nk.legal_cards(["2H", "AH"], [], contract) == ["2H", "AH"]
        assert nk.legal_cards(["2H", "AH"], [], contract, "after_broken", False) == ["2H", "AH"]
        # following is not restricted: void in clubs may discard hearts
        assert nk.legal_cards(hand, ["3C"], contract) == ["5S", "2H", "AH", "KD"]
        assert nk.legal_cards(hand, ["3H"], contract) == ["2H", "AH"]
    # the other contracts have no hearts-lead rule
    for contract in (0, 2, 3, 5, 7, 8, 11):
        assert nk.legal_cards(hand, [], contract) == ["5S", "2H", "AH", "KD"]


def test_hearts_lead_in_records():
    restricted_heart_leads = 0
    broken_leads = 0
    for contract in (1, 4):
        for d in range(60):
            for mode in ("restricted", "after_broken"):
                rec = nk.play_round(7, d, d % 4, ["random"] * 4, contract=contract,
                                    hearts_lead=mode)
                check_trick_round(rec, contract, ["random"] * 4, hearts_lead=mode,
                                  seed=7, deal=d)
                hands = [list(h) for h in rec["hands"]]
                broken = False
                for t in rec["tricks"]:
                    lead_seat, lead = t["cards"][0]
                    if lead[1] == "H":
                        only_hearts = all(c[1] == "H" for c in hands[lead_seat])
                        if mode == "restricted":
                            assert only_hearts
                            restricted_heart_leads += 1
                        else:
                            assert only_hearts or broken
                            if not only_hearts:
                                broken_leads += 1
                    for s, c in t["cards"]:
                        hands[s].remove(c)
                    if any(c[1] == "H" for _, c in t["cards"]):
                        broken = True
    assert restricted_heart_leads > 0  # hearts-only hands do occur and must lead hearts
    assert broken_leads > 0  # after_broken really frees the lead


def test_first_lead_is_restricted_too():
    # K-1: find a deal where the first leader holds hearts and other cards; no heart led
    for d in range(30):
        rec = nk.play_round(9, d, 0, ["random"] * 4, contract=1)
        first = rec["tricks"][0]["cards"][0]
        assert first[0] == 1
        assert first[1][1] != "H"


# ---------------------------------------------------------------------------
# Early stop
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("contract", [1, 2, 3, 4])
def test_early_stop_equals_full_play(contract):
    # (no-hearts under the restricted lead nearly always plays 13 tricks: hearts leave
    # only by discards; after_broken makes early stops common)
    stopped_early = 0
    for policies, mode in [(POLICY_SETS[0], "restricted"), (POLICY_SETS[1], "restricted"),
                           (POLICY_SETS[0], "after_broken")]:
        for d in range(40):
            kw = dict(contract=contract, hearts_lead=mode)
            rec = nk.play_round(21, d, d % 4, policies, **kw)
            full = nk.play_round(21, d, d % 4, policies, _early_stop=False, **kw)
            n = check_trick_round(rec, contract, policies, hearts_lead=mode, seed=21, deal=d)
            assert len(full["tricks"]) == 13
            assert full["tricks"][:n] == rec["tricks"]
            assert full["scores"] == rec["scores"]
            if n < 13:
                stopped_early += 1
                # the rest of the full play holds no penalty card
                rest = [c for t in full["tricks"][n:] for _, c in t["cards"]]
                assert not (set(rest) & penalty_set(contract))
    assert stopped_early > 0


@pytest.mark.parametrize("contract", [0, 5, 7, 11])
def test_no_early_stop_elsewhere(contract):
    for d in range(10):
        rec = nk.play_round(4, d, 1, ["heuristic"] * 4, contract=contract)
        assert len(rec["tricks"]) == 13


def test_no_last_penalty_goes_to_thirteenth_trick():
    for d in range(10):
        rec = nk.play_round(5, d, 2, ["random"] * 4, contract=5)
        expected = [0, 0, 0, 0]
        expected[rec["tricks"][12]["winner"]] = -50
        assert rec["scores"] == expected


# ---------------------------------------------------------------------------
# Negative-round heuristic card, by hand
# ---------------------------------------------------------------------------


def test_heuristic_negative_lead():
    # no-hearts: hearts may not be led; 5S is the only other card
    hand = ["2H", "5S", "KH"]
    legal = nk.legal_cards(hand, [], 1)
    assert nk.heuristic_negative_card(hand, legal, [], 1, False) == "5S"
    # hearts only: low(Lg) = 2H
    hand = ["2H", "KH"]
    assert nk.heuristic_negative_card(hand, nk.legal_cards(hand, [], 1), [], 1, False) == "2H"
    # no-queens: low ties go to the lowest suit index
    hand = ["3H", "3S", "QD"]
    assert nk.heuristic_negative_card(hand, nk.legal_cards(hand, [], 3), [], 3, False) == "3S"
    # no-men: the jack is not led although it is lower than the ace
    hand = ["JS", "AD"]
    assert nk.heuristic_negative_card(hand, nk.legal_cards(hand, [], 2), [], 2, False) == "AD"
    assert nk.heuristic_negative_card(hand, nk.legal_cards(hand, [], 0), [], 0, False) == "JS"
    # only penalty cards: low of them
    hand = ["QD", "QS"]
    assert nk.heuristic_negative_card(hand, nk.legal_cards(hand, [], 3), [], 3, False) == "QS"


def test_heuristic_negative_follow():
    # highest card that stays under the winner
    hand = ["2S", "TS", "KS", "5H"]
    assert nk.heuristic_negative_card(hand, ["2S", "TS", "KS"], ["9S"], 0, False) == "2S"
    hand = ["2S", "4S", "TS"]
    assert nk.heuristic_negative_card(hand, ["2S", "4S", "TS"], ["5S"], 0, False) == "4S"
    # the winner is 9S (AH is off-suit): 8S is the highest card under it
    hand = ["7S", "8S", "TS"]
    assert nk.heuristic_negative_card(hand, hand, ["5S", "9S", "AH"], 2, True) == "8S"
    # every card wins: low when not last, high when last
    hand = ["TS", "KS"]
    assert nk.heuristic_negative_card(hand, hand, ["2S"], 0, False) == "TS"
    assert nk.heuristic_negative_card(hand, hand, ["2S", "3S", "4S"], 0, True) == "KS"


def test_heuristic_negative_void():
    hand = ["AD", "QC", "2H"]
    assert nk.heuristic_negative_card(hand, hand, ["5S"], 3, False) == "QC"  # shed the queen
    assert nk.heuristic_negative_card(hand, hand, ["5S"], 0, False) == "AD"  # high(hand)
    assert nk.heuristic_negative_card(hand, hand, ["5S"], 1, False) == "2H"  # the only heart
    assert nk.heuristic_negative_card(["AD", "AC"], ["AD", "AC"], ["5S"], 0, False) == "AD"
    hand = ["KH", "AH", "AS"]
    assert nk.heuristic_negative_card(hand, hand, ["5D"], 4, False) == "KH"
    assert nk.heuristic_negative_card(hand, hand, ["5D"], 1, False) == "AH"
    assert nk.heuristic_negative_card(hand, hand, ["5D"], 2, False) == "KH"  # a man


def test_trump_round_heuristic_without_turned_card():
    # the Boerenbridge card rule, need = 1, no turned card: KS is a top card once AS
    # has been played; otherwise lead low of the longest non-trump suit (diamonds)
    hand = ["KS", "2D", "3D", "2H"]
    assert bb.heuristic_card(hand, hand, [], "H", ["AS"], None, 1, False) == "KS"
    assert bb.heuristic_card(hand, hand, [], "H", [], None, 1, False) == "2D"


# ---------------------------------------------------------------------------
# Domino
# ---------------------------------------------------------------------------


def test_domino_legal_by_hand():
    # nothing open: only 8s
    assert nk.domino_legal(["8S", "7S", "9H", "8C"], {}) == ["8S", "8C"]
    # spade row is 8 alone: 7 and 9 extend it; 8C still opens clubs
    assert nk.domino_legal(["7S", "9S", "TS", "8C"], {"S": (6, 6)}) == ["7S", "9S", "8C"]
    # row 2..J: Q extends upward, nothing below the 2
    assert nk.domino_legal(["QS", "AS", "KS"], {"S": (0, 9)}) == ["QS"]
    # row 5..A: 4 extends downward, nothing above the ace
    assert nk.domino_legal(["4S", "3S", "2S"], {"S": (3, 12)}) == ["4S"]
    # a full row takes nothing; a card of another unopened suit that is not an 8 is no move
    assert nk.domino_legal(["9H", "2D"], {"S": (0, 12)}) == []
    # None means not opened
    assert nk.domino_legal(["8H", "9H"], {"H": None}) == ["8H"]
    # diamond row 7..9 (rank indices 5..7): 6 and T extend it at both ends; 5 and J
    # (two away) do not; the result is sorted by card code
    assert nk.domino_legal(["TD", "JD", "5D", "6D", "2S"], {"D": (5, 7)}) == ["6D", "TD"]


def test_domino_heuristic_by_hand():
    hand = ["8S", "9S", "TS", "JS", "7H", "6H", "5H", "8D"]
    legal = nk.domino_legal(hand, {"H": (6, 6)})
    assert legal == ["8S", "7H", "8D"]
    # values: 8S -> 3 other spades; 7H -> 2 hearts below it; 8D -> 0
    assert nk.domino_heuristic(hand, legal) == "8S"
    # 9S with two spades above it (JS, AS) vs 7H with one heart below (2H): 9S
    hand = ["9S", "JS", "AS", "7H", "2H"]
    legal = nk.domino_legal(hand, {"S": (6, 6), "H": (6, 6)})
    assert nk.domino_heuristic(hand, legal) == "9S"
    # ties go to the lowest card code
    assert nk.domino_heuristic(["8D", "8S"], ["8D", "8S"]) == "8S"
    hand = ["9S", "7S", "TS", "6S"]
    assert nk.domino_heuristic(hand, ["7S", "9S"]) == "7S"  # 1 below vs 1 above


def test_domino_hand_built_pass_and_forced():
    hands = [
        ["8S", "8H", "8D", "8C", "9S", "9H", "9D", "9C", "TS", "TH", "TD", "TC", "JS"],
        ["2S", "3S", "4S", "5S", "2H", "3H", "4H", "5H", "2D", "3D", "4D", "5D", "2C"],
        ["6S", "7S", "6H", "7H", "6D", "7D", "6C", "7C", "3C", "4C", "5C", "QS", "KS"],
        ["AS", "JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD", "JC", "QC", "KC", "AC"],
    ]
    assert sorted(c for h in hands for c in h) == sorted(FULL_DECK)
    hands = [bb.sort_cards(h) for h in hands]
    moves, out, scores = nk.play_domino(bb.deal_key(0, 0), 3, hands, ["heuristic"] * 4)
    # seat 0 (position 0) opens spades (3 more spades: most), seat 1 has no 7/9: pass,
    # seat 2's only move is 7S, seat 3 has no 6S/9S: pass
    assert moves[:4] == [[0, "8S"], [1, None], [2, "7S"], [3, None]]
    rec = {"dealer": 3, "contract": "domino", "trump": None, "tricks": [],
           "tricks_won": [0] * 4, "hands": hands, "moves": moves, "out_order": out,
           "scores": scores}
    check_domino_round(rec, ["heuristic"] * 4)


def test_domino_one_suit_each():
    hands = [[r + s for r in RANKS] for s in SUITS]  # seat i holds suit i
    for dealer, first in [(3, 0), (0, 1), (1, 2)]:
        for policies in (["heuristic"] * 4, ["random"] * 4):
            moves, out, scores = nk.play_domino(bb.deal_key(1, 1), dealer, hands, policies)
            assert [None for _, c in moves if c is None] == []  # nobody ever passes
            assert out == [first, (first + 1) % 4, (first + 2) % 4]
            last = (first + 3) % 4
            assert scores == [-50 if s == last else 0 for s in range(4)]
            assert len(moves) == 13 * 3 + 12
    moves, _, _ = nk.play_domino(bb.deal_key(1, 1), 3, hands, ["heuristic"] * 4)
    # 7S: 5 spades below; 9S: 5 above; tie -> lowest code 7S
    assert moves[4] == [0, "7S"]


def test_domino_passes_happen_in_random_deals():
    passes = 0
    for d in range(40):
        for policies in POLICY_SETS[:2]:
            rec = nk.play_round(13, d, d % 4, policies, contract=6)
            check_domino_round(rec, policies, 13, d)
            passes += sum(1 for _, c in rec["moves"] if c is None)
    assert passes > 0


# ---------------------------------------------------------------------------
# Contract choice, by hand
# ---------------------------------------------------------------------------


def test_hand_value_by_hand():
    hand = ["AS", "KS", "QS", "JS", "TS", "2H", "3H", "4D", "5D", "6D", "7C", "8C", "9C"]
    # no trump: AS 85, KS 45 (5 spades), QS 20 (>= 3 spades) = 150
    assert nk.hand_value(hand, None) == 150
    # spades: 100 + 85 + 70 + 55 + 40 = 350, 5 trumps -> +60, no voids
    assert nk.hand_value(hand, "S") == 410
    # hearts: 2H 3H 25 + 25 + side 150
    assert nk.hand_value(hand, "H") == 200
    # diamonds: 3 * 25 + 150; clubs: 7C 25, 8C 25, 9C 30 + 150
    assert nk.hand_value(hand, "D") == 225
    assert nk.hand_value(hand, "C") == 230
    # singleton king 20, doubleton queen 5
    assert nk.hand_value(["KS", "QH", "2H"], None) == 25
    # void bonus limited by the number of trumps: 1 trump, 2 voids -> +30
    assert nk.hand_value(["2S", "AH", "3H"], "S") == 25 + 85 + 30


def test_heuristic_trump_choice_by_hand():
    hand = ["AS", "KS", "QS", "JS", "TS", "2H", "3H", "4D", "5D", "6D", "7C", "8C", "9C"]
    assert nk.heuristic_choice(hand, [7, 8, 9, 10, 11]) == 7
    assert nk.heuristic_choice(hand, [8, 9, 10, 11]) == 10  # clubs 230 > diamonds 225
    assert nk.heuristic_choice(hand, [8, 9, 11]) == 9
    assert nk.heuristic_choice(hand, [8, 11]) == 8
    # voids: hearts 7*25 + 4*30 + 2 voids*30 + spade side 150 = 505;
    # spades 100+85+70+55+40+30 + 3*30 + 2*30 = 530; diamonds = clubs = no-trump = 150
    hand = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "AS", "KS", "QS", "JS", "TS", "9S"]
    assert nk.hand_value(hand, "H") == 505
    assert nk.hand_value(hand, "S") == 530
    assert nk.heuristic_choice(hand, [7, 8, 9, 10, 11]) == 7
    assert nk.heuristic_choice(hand, [8, 9, 10, 11]) == 8
    assert nk.heuristic_choice(hand, [9, 10, 11]) == 9  # three-way tie -> lowest id
    assert nk.heuristic_choice(hand, [11, 10]) == 10


def test_heuristic_negative_choice_high_hearts():
    hand = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "2S", "3S", "4D", "5D", "2C", "3C"]
    # E(-1) = AH 85 + KH 45 + QH 20 = 150
    # ducking 5*150 - 1625 = -875
    # no-hearts 5*(90+75+60+45+35+25+20) - 1625 = 1750 - 1625 = 125
    # no-men 20*75 + 10*45 - 3000 = -1050
    # no-queens 30*60 - 3000 = -1200
    # no-king-of-hearts 50*75 - 1250 = 2500
    # no-last 7500 // 13 - 1250 = 576 - 1250 = -674
    # domino S = (6+5+4+3+2+1+0) + (6+5) + (4+3) + (6+5) = 50; 1250 // 42 = 29;
    #   50*29 - 1250 = 200
    costs = [nk.negative_cost(hand, i) - nk.BASELINE[i] for i in range(7)]
    assert costs == [-875, 125, -1050, -1200, 2500, -674, 200]
    assert nk.heuristic_choice(hand, range(7)) == 3
    assert nk.heuristic_choice(hand, [0, 1, 2, 4, 5, 6]) == 2
    assert nk.heuristic_choice(hand, [0, 1, 4, 5, 6]) == 0
    assert nk.heuristic_choice(hand, [1, 4, 5, 6]) == 5
    assert nk.heuristic_choice(hand, [1, 4, 6]) == 1
    assert nk.heuristic_choice(hand, [4, 6]) == 6


def test_heuristic_negative_choice_ties():
    hand = ["2S", "3S", "4S", "5S", "2H", "3H", "4H", "2D", "3D", "4D", "2C", "3C", "4C"]
    # E = 0: ducking -1625; no-hearts 5*15 - 1625 = -1550; no-men = no-queens = -3000;
    # no-KH = no-last = -1250; domino S = 18 + 15*3 = 63, 1575 // 42 = 37, 1850 - 1250 = 600
    costs = [nk.negative_cost(hand, i) - nk.BASELINE[i] for i in range(7)]
    assert costs == [-1625, -1550, -3000, -3000, -1250, -1250, 600]
    assert nk.heuristic_choice(hand, range(7)) == 2
    assert nk.heuristic_choice(hand, [3, 4, 5, 6]) == 3
    assert nk.heuristic_choice(hand, [6, 5, 4]) == 4
    assert nk.heuristic_choice(hand, [5, 6]) == 5
    assert nk.heuristic_choice(hand, [1, 0]) == 0
    with pytest.raises(ValueError):
        nk.heuristic_choice(hand, [0, 11])


def test_random_choice_uses_counter_60():
    for d in range(30):
        for available in ([0, 1, 2, 3, 4, 5, 6], [1, 4, 6], [7, 8, 9, 10, 11], [11, 8]):
            rec = nk.play_round(2, d, d % 4, ["random"] * 4, available=available)
            ids = sorted(available)
            expected = ids[bb.below(bb.deal_key(2, d), 60, len(ids))]
            assert rec["contract"] == nk.CONTRACTS[expected]


def test_chooser_policy_is_the_seat_across_from_the_dealer():
    for d in range(20):
        dealer = d % 4
        chooser = (dealer + 2) % 4
        policies = ["random"] * 4
        policies[chooser] = "heuristic"
        rec = nk.play_round(6, d, dealer, policies)
        assert rec["chooser"] == chooser
        expected = nk.heuristic_choice(rec["hands"][chooser], range(7))
        assert rec["contract"] == nk.CONTRACTS[expected]


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


def test_games():
    for g in range(6):
        for policies in POLICY_SETS:
            first = g % 4
            game = nk.play_game(31, g, policies, first_dealer=first)
            rounds = game["rounds"]
            assert len(rounds) == 11
            ids = [nk.CONTRACTS.index(r["contract"]) for r in rounds]
            assert sorted(ids[:7]) == [0, 1, 2, 3, 4, 5, 6]
            assert len(set(ids[7:])) == 4 and all(7 <= i <= 11 for i in ids[7:])
            totals = [0] * 4
            for k, r in enumerate(rounds):
                assert r["dealer"] == (first + k) % 4
                # round k is deal 11 * g + k
                assert r["hands"] == nk.play_round(31, 11 * g + k, r["dealer"], policies,
                                                   contract=ids[k])["hands"]
                for s in range(4):
                    totals[s] += r["scores"][s]
            assert game["totals"] == totals
            assert sum(totals) == 0
            top = max(totals)
            assert game["winners"] == [s for s in range(4) if totals[s] == top]


def test_game_rounds_replay_as_single_rounds():
    policies = ["heuristic", "random", "random", "heuristic"]
    game = nk.play_game(8, 3, policies, first_dealer=2)
    played = []
    for k, r in enumerate(game["rounds"]):
        group = list(range(7)) if k < 7 else list(range(7, 12))
        available = [i for i in group if i not in played]
        again = nk.play_round(8, 33 + k, (2 + k) % 4, policies, available=available)
        assert again == r
        played.append(nk.CONTRACTS.index(r["contract"]))


def test_fixed_order():
    for g in range(3):
        game = nk.play_game(4, g, ["heuristic", "random"] * 2, fixed_order=True)
        assert [r["contract"] for r in game["rounds"]] == nk.CONTRACTS[:11]
        assert [r["trump"] for r in game["rounds"]][7:] == ["S", "H", "D", "C"]
        assert sum(game["totals"]) == 0


def test_hearts_lead_option_reaches_the_rounds():
    differs = False
    for g in range(6):
        a = nk.play_game(12, g, ["random"] * 4, fixed_order=True)
        b = nk.play_game(12, g, ["random"] * 4, fixed_order=True, hearts_lead="after_broken")
        for k in (0, 2, 3, 5, 6, 7, 8, 9, 10):  # no hearts-lead rule: identical
            assert a["rounds"][k] == b["rounds"][k]
        if a["rounds"][1] != b["rounds"][1] or a["rounds"][4] != b["rounds"][4]:
            differs = True
    assert differs

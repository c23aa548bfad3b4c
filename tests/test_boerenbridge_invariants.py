"""One invariant harness run over every variant (in the spirit of OpenSpiel's RandomSimTest)."""
import numpy as np
import pytest

from analyzer.records import deal_records
from fastsim import boerenbridge as bb
from fastsim.boerenbridge_schema import GAME_COLUMNS
from fastsim.cards import parse_card, SUITS
from fastsim.trick import resolve_tricks

SETUPS = [
    (4, []),
    (3, []),
    (5, []),
    (6, []),
    (7, []),
    (5, ["schedule=short"]),
    (4, ["scoring=hard"]),
    (4, ["scoring=dutch"]),
    (4, ["bauer_bonus"]),
    (4, ["bauer_bonus", "scoring=dutch"]),
    (4, ["bauer_bonus", "dealer_rule=off"]),
    (4, ["no_trump_rounds=ones,top,last"]),
    (5, ["no_trump_rounds=2,3"]),
    (4, ["fixed_hands=10,6"]),
    (4, ["blind_one_card"]),
    (4, ["blind_one_card", "bauer_bonus", "scoring=hard"]),
    (2, ["two_player"]),
    (4, ["dealer_rule=off"]),
    (6, ["schedule=1,8,2"]),
]


def expected_score(bid, tricks, rules, is_dealer, forbidden, h):
    if bid == tricks:
        s = 10 + 2 * tricks
    else:
        s = {"standard": 0, "hard": -abs(tricks - bid), "dutch": -2 * abs(tricks - bid)}[rules.scoring]
        if rules.bauer_bonus and is_dealer and forbidden >= 0 and tricks == forbidden:
            s += 5
    if rules.blind_one_card and h == 1:
        s *= 2
    return s


@pytest.mark.parametrize("players,variants", SETUPS, ids=[f"{p}p-{'+'.join(v) or 'plain'}" for p, v in SETUPS])
@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
def test_invariants(players, variants, policy):
    rules = bb.build_rules(players=players, variants=variants, first_dealer=players - 1)
    if policy == "mixed":
        pols = bb.parse_seat_policies(players, "heuristic", [f"{s}=random" for s in range(0, players, 2)])
    else:
        pols = bb.parse_seat_policies(players, policy)
    check_invariants(rules, pols, 60)


STRONG_SETUPS = [(4, []), (3, ["bauer_bonus", "scoring=dutch"]), (5, ["no_trump_rounds=2,3"]),
                 (4, ["blind_one_card", "dealer_rule=off"]), (2, ["two_player"])]


@pytest.mark.parametrize("players,variants", STRONG_SETUPS,
                         ids=[f"{p}p-{'+'.join(v) or 'plain'}" for p, v in STRONG_SETUPS])
def test_invariants_with_strong_seats(players, variants):
    """The strong policy (every other seat, the rest pimc and heuristic) keeps every rule."""
    rules = bb.build_rules(players=players, variants=variants, first_dealer=players - 1)
    seats = [f"{s}=strong" for s in range(0, players, 2)] + ["1=pimc"]
    check_invariants(rules, bb.parse_seat_policies(players, "heuristic", seats), 2)


ONE_DEAL = [(4, 8, []), (3, 1, ["blind_one_card", "scoring=dutch"]), (5, 6, ["scoring=hard"]),
            (6, 1, ["bauer_bonus"])]


@pytest.mark.parametrize("players,h,variants", ONE_DEAL,
                         ids=[f"{p}p-h{h}-{'+'.join(v) or 'plain'}" for p, h, v in ONE_DEAL])
def test_one_deal_games(players, h, variants):
    """Games of one deal (independent deals; the kernel writes no game rows, the Result
    derives them, fastsim.boerenbridge.OneDealGames) keep every invariant, whole-game
    totals and winners included, with the dtypes of longer games'."""
    rules = bb.build_rules(players=players, hand_size=h, variants=variants, first_dealer=1)
    pols = bb.parse_seat_policies(players, "heuristic", ["0=random"])
    check_invariants(rules, pols, 300)
    res = bb.simulate(rules, 300, seed=11)
    assert list(res.games) == list(GAME_COLUMNS)
    whole = bb.simulate(bb.build_rules(players=players, schedule=(h, h)), 2, seed=1)
    for k in whole.games:
        assert res.games[k].dtype == whole.games[k].dtype
        assert res.games[k].shape == (300, players)
        assert res.games[k] is res.games[k]       # derived once, then kept
    assert bb.simulate(rules, 0, seed=1).games["winners"].shape == (0, players)


def check_invariants(rules, pols, games):
    res = bb.simulate(rules, games, seed=11, policies=pols, record=True)
    d = res.deals
    n = rules.players
    K = len(rules.schedule)
    assert len(d["deal"]) == games * K
    for r, rec in enumerate(deal_records(res)):
        k = r % K
        h = rules.schedule[k]
        assert d["hand_size"][r] == h
        assert d["dealer"][r] == (rules.first_dealer + k) % n
        # cards conserved: disjoint hands of h cards, turned card in none of them
        hands = d["hands"][r]
        union = 0
        for s in range(n):
            assert bin(int(hands[s])).count("1") == h
            assert union & int(hands[s]) == 0
            union |= int(hands[s])
        assert not union >> int(d["trump_card"][r]) & 1
        # trump
        tsuit = int(d["trump_card"][r]) // 16
        assert d["trump"][r] == (-1 if rules.notrump[k] else tsuit)
        # bids and the dealer rule
        bids = [int(x) for x in d["bids"][r]]
        assert all(0 <= b <= h for b in bids)
        dealer = int(d["dealer"][r])
        others = sum(bids) - bids[dealer]
        forb = h - others if rules.dealer_rule and 0 <= h - others <= h else -1
        assert d["forbidden"][r] == forb
        if rules.dealer_rule:
            assert sum(bids) != h
        # tricks sum to h
        assert int(d["tricks"][r].sum()) == h
        # the recorded play: every dealt card played once, follow suit, winners, leaders
        played = {s: [] for s in range(n)}
        leader = (dealer + 1) % n
        won = [0] * n
        for t, trick in enumerate(rec["tricks"]):
            assert trick["leader"] == leader
            seats = [c[0] for c in trick["cards"]]
            assert seats == [(leader + j) % n for j in range(n)]
            codes = [parse_card(c[1]) for c in trick["cards"]]
            led = codes[0] // 16
            for s, c in zip(seats, codes):
                remaining = int(hands[s]) & ~sum(1 << x for x in played[s])
                assert remaining >> c & 1, "card not in hand"
                holds_led = any(remaining >> (16 * led + q) & 1 for q in range(13))
                if s != leader and holds_led:
                    assert c // 16 == led, "did not follow suit"
                played[s].append(c)
            w = int(resolve_tricks(np.array([codes]), int(d["trump"][r]))[0])
            assert trick["winner"] == seats[w]
            won[seats[w]] += 1
            leader = seats[w]
        for s in range(n):
            assert sorted(played[s]) == sorted(parse_card(c) for c in rec["hands"][s])
        assert won == [int(x) for x in d["tricks"][r]]
        assert rec["trump"] == (None if rules.notrump[k] else SUITS[tsuit])
        # scores
        for s in range(n):
            assert d["scores"][r, s] == expected_score(bids[s], won[s], rules, s == dealer,
                                                       forb, h)
    # whole-game totals and winners
    g = res.games
    scores = d["scores"].reshape(games, K, n).astype(np.int64)
    exact = (d["bids"] == d["tricks"]).reshape(games, K, n).sum(axis=1)
    assert (g["totals"] == scores.sum(axis=1)).all()
    assert (g["exact"] == exact).all()
    assert (g["best"] == scores.max(axis=1)).all()
    for gi in range(games):
        keys = [(g["totals"][gi, s], g["exact"][gi, s], g["best"][gi, s]) for s in range(n)]
        top = max(keys)
        assert [bool(x) for x in g["winners"][gi]] == [k == top for k in keys]


def test_bid_sum_never_equals_hand_size_at_scale():
    rules = bb.build_rules(players=5, hand_size=3)
    for policy in ("random", "heuristic"):
        res = bb.simulate(rules, 200_000, seed=3, policies=bb.parse_seat_policies(5, policy))
        assert (res.deals["bids"].astype(np.int64).sum(axis=1) != 3).all()
        assert (res.deals["tricks"].astype(np.int64).sum(axis=1) == 3).all()


def test_random_policy_reaches_every_legal_bid():
    rules = bb.build_rules(players=4, hand_size=2)
    res = bb.simulate(rules, 20_000, seed=9, policies=bb.parse_seat_policies(4, "random"))
    d = res.deals
    dealer_bids = d["bids"][np.arange(len(d["deal"])), d["dealer"]]
    forb = d["forbidden"]
    for b in range(3):
        # the dealer bids b exactly when b is allowed, with the right frequency (1/allowed)
        allowed = forb != b
        frac = (dealer_bids[allowed] == b).mean()
        n_allowed = 3 - (forb[allowed] >= 0)
        assert abs(frac - (1 / n_allowed).mean()) < 0.02
        assert not (dealer_bids[~allowed] == b).any()

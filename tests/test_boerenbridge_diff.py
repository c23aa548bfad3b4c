"""Differential test: the compiled engine against the slow reference, card by card."""
import itertools

import pytest

import naive_boerenbridge as ref
from analyzer.records import deal_records
from fastsim import boerenbridge as bb
from sweep import batches, random_names, random_run

VARIANTS = [
    [],
    ["scoring=hard"],
    ["scoring=dutch", "bauer_bonus"],
    ["bauer_bonus"],
    ["dealer_rule=off"],
    ["blind_one_card", "bauer_bonus"],
    ["no_trump_rounds=1"],
]


def _ref_kwargs(rules):
    return dict(scoring=rules.scoring, bauer_bonus=rules.bauer_bonus,
                dealer_rule=rules.dealer_rule, blind_one_card=rules.blind_one_card)


def _policy_sets(n):
    names = ["heuristic"] * n, ["random"] * n, [("random" if s % 2 else "heuristic") for s in range(n)]
    return [list(x) for x in names]


CASES = []
for n, hs in [(3, [1, 4, 8, 17]), (4, [1, 2, 5, 8, 12]), (5, [1, 3, 10]), (6, [1, 6, 8]),
              (7, [1, 4, 7])]:
    for h, variants in itertools.product(hs, VARIANTS):
        CASES.append((n, h, variants))


@pytest.mark.parametrize("n,h,variants", CASES,
                         ids=[f"{n}p-h{h}-{'+'.join(v) or 'plain'}" for n, h, v in CASES])
def test_independent_deals_agree(n, h, variants):
    rules = bb.build_rules(players=n, hand_size=h, variants=variants, first_dealer=h % n)
    deals = 12 if h >= 8 else 24
    for names in _policy_sets(n):
        pols = bb.parse_seat_policies(n, "heuristic", [f"{s}={p}" for s, p in enumerate(names)])
        res = bb.simulate(rules, deals, seed=1234 + n * 100 + h, policies=pols, record=True)
        for i, got in enumerate(deal_records(res)):
            exp = ref.play_deal(1234 + n * 100 + h, i, n, h, rules.first_dealer, names,
                                notrump=rules.notrump[0], **_ref_kwargs(rules))
            assert got == exp, f"deal {i}"


GAME_CASES = [
    (4, []), (3, ["scoring=hard"]), (5, ["bauer_bonus", "no_trump_rounds=ones,top"]),
    (6, ["blind_one_card"]), (7, ["scoring=dutch", "last" and "no_trump_rounds=last"]),
    (2, ["two_player"]), (4, ["fixed_hands=12,4", "dealer_rule=off"]),
]


@pytest.mark.parametrize("n,variants", GAME_CASES, ids=[f"{n}p-{'+'.join(v) or 'plain'}" for n, v in GAME_CASES])
def test_whole_games_agree(n, variants):
    rules = bb.build_rules(players=n, variants=variants, first_dealer=1)
    notrump = [k for k, f in enumerate(rules.notrump) if f]
    for names in _policy_sets(n):
        pols = bb.parse_seat_policies(n, "heuristic", [f"{s}={p}" for s, p in enumerate(names)])
        games = 4
        res = bb.simulate(rules, games, seed=99, policies=pols, record=True)
        recs = list(deal_records(res))
        K = len(rules.schedule)
        for g in range(games):
            exp = ref.play_game(99, g, n, list(rules.schedule), names, first_dealer=1,
                                notrump_deals=notrump, **_ref_kwargs(rules))
            assert recs[g * K:(g + 1) * K] == exp["deals"]
            assert list(res.games["totals"][g]) == exp["totals"]
            assert list(res.games["exact"][g]) == exp["exact"]
            assert list(res.games["best"][g]) == exp["best"]
            assert [s for s in range(n) if res.games["winners"][g, s]] == exp["winners"]


def test_many_random_deals_agree():
    """A broad sweep: thousands of deals with player count, hand size, dealer, policies
    and variants drawn at random (reproducibly)."""
    for rnd in batches(2026, 3000, 20):
        n = rnd.randint(3, 7)
        h = rnd.randint(1, min(13, 51 // n))
        variants = rnd.choice(VARIANTS)
        rules = bb.build_rules(players=n, hand_size=h, variants=variants,
                               first_dealer=rnd.randrange(n))
        names = random_names(rnd, n)
        pols = bb.parse_seat_policies(n, "heuristic", [f"{s}={p}" for s, p in enumerate(names)])
        seed, start = random_run(rnd)
        res = bb.simulate(rules, 20, seed=seed, policies=pols, record=True, game_start=start)
        for i, got in enumerate(deal_records(res)):
            exp = ref.play_deal(seed, start + i, n, h, rules.first_dealer, names,
                                notrump=rules.notrump[0], **_ref_kwargs(rules))
            assert got == exp, (n, h, variants, names, seed, start + i)


def test_heuristic_fast_path_agrees():
    """A run with the heuristic in every seat and nothing recorded takes its own deal loop
    (fastsim.boerenbridge_nb.heuristic_bid_play_nb: no policy dispatch, its own trick loop);
    recording the play takes the engine's (held card by card to the reference above). Both
    give the same deals, and games, on a broad sweep of set-ups."""
    import numpy as np
    setups = [dict(hand_size=h, variants=v) for h in (1, 3, 8, 13) for v in VARIANTS]
    setups += [dict(schedule=s) for s in ("standard", (5,), (2, 9, 4))]
    setups += [dict(variants=["two_player"]), dict(schedule="short", variants=["scoring=dutch"])]
    for i, setup in enumerate(setups):
        n = 2 if "two_player" in setup.get("variants", ()) else \
            5 if setup.get("schedule") == "short" else 3 + i % 5
        if setup.get("hand_size", 0) * n >= 52:
            setup["hand_size"] = 51 // n
        rules = bb.build_rules(players=n, first_dealer=i % n, **setup)
        count = 400 if len(rules.schedule) == 1 else 20
        fast = bb.simulate(rules, count, seed=500 + i, game_start=i)
        slow = bb.simulate(rules, count, seed=500 + i, game_start=i, record=True)
        for k in slow.deals:
            assert np.array_equal(fast.deals[k], slow.deals[k]), (setup, k)
        for k in slow.games:
            assert np.array_equal(fast.games[k], slow.games[k]), (setup, k)

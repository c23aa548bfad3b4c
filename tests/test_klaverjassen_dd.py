"""The double-dummy solver against brute-force minimax (written with the reference rules)."""
import functools
import random

import numpy as np
import pytest

import naive_klaverjassen as ref
import naive_klaverjassen_dd as ref_dd
from fastsim import klaverjassen_dd as kdd
from fastsim import klaverjassen_dd_nb as dd
from fastsim.cards import card_str, parse_card
from fastsim.klaverjassen_schema import build_rules

RV = build_rules().flags     # the kernels' variant tuple: no variants

DECK = [16 * s + r for s in range(4) for r in range(5, 13)]


def brute(hands, leader, trump, team, trick, rules, mode="margin"):
    """Plain minimax over the rest of the deal; hands: 4 tuples of card strings."""
    @functools.lru_cache(maxsize=None)
    def value(hands, leader, trick):
        if not trick and not any(hands):
            return 0
        player = (leader + len(trick)) % 4
        if trick:
            w = ref.trick_winner(list(trick), trump)
            pw = ((leader + w) % 4) % 2 == player % 2
        else:
            pw = False
        legal, _ = ref.legal_cards(list(hands[player]), list(trick), trump, pw,
                                   amsterdam=rules.amsterdam,
                                   undertrump_forced=rules.undertrump_forced)
        vals = []
        for c in legal:
            h = list(hands)
            h[player] = tuple(x for x in h[player] if x != c)
            h = tuple(h)
            t = trick + (c,)
            if len(t) == 4:
                w = (leader + ref.trick_winner(list(t), trump)) % 4
                if mode == "margin":
                    v = sum(ref.card_points(x, trump) for x in t)
                    v += ref.roem(list(t), trump, all_100=rules.all_100)[0]
                    v += 10 if not any(h) else 0
                    v = v if w % 2 == team else -v
                else:
                    v = 1 if w % 2 == team else 0
                vals.append(v + value(h, w, ()))
            else:
                vals.append(value(h, leader, t))
        return max(vals) if player % 2 == team else min(vals)
    return value(tuple(tuple(h) for h in hands), leader, tuple(trick))


def random_position(rnd, n_tricks, in_trick):
    cards = rnd.sample(DECK, 4 * n_tricks)
    hands = [cards[p * n_tricks:(p + 1) * n_tricks] for p in range(4)]
    leader = rnd.randrange(4)
    trump = rnd.randrange(4)
    trick = []
    rules = build_rules(rnd.choice([[], ["amsterdam"], ["undertrump=forced"],
                                    ["four_of_a_kind=all_100"]]))
    # play a legal partial trick from the dealt cards
    for j in range(in_trick):
        s = (leader + j) % 4
        legal, _ = ref.legal_cards([card_str(c) for c in hands[s]], [card_str(c) for c in trick],
                                   "SHDC"[trump], False if j == 0 else
                                   ((leader + ref.trick_winner([card_str(c) for c in trick],
                                                               "SHDC"[trump])) % 2 == s % 2),
                                   amsterdam=rules.amsterdam,
                                   undertrump_forced=rules.undertrump_forced)
        c = parse_card(rnd.choice(legal))
        hands[s].remove(c)
        trick.append(c)
    return hands, leader, trump, trick, rules


@pytest.mark.parametrize("n_tricks", [1, 2, 3, 4])
def test_solver_matches_brute_force(n_tricks):
    rnd = random.Random(n_tricks)
    count = {1: 150, 2: 120, 3: 60, 4: 12}[n_tricks]
    for _ in range(count):
        hands, leader, trump, trick, rules = random_position(rnd, n_tricks, rnd.randint(0, 3))
        team = rnd.randrange(2)
        hs = [[card_str(c) for c in h] for h in hands]
        ts = [card_str(c) for c in trick]
        r = kdd.solve(hands, trump, rules, leader=leader, playing_team=team, trick=trick,
                      cards=True)
        exp = brute(hs, leader, "SHDC"[trump], team, ts, rules)
        assert r["margin"] == exp
        assert r["makes"] == (exp > 0)
        left = n_tricks          # tricks still to finish, the one in progress included
        pit_team = None
        for t in (team, 1 - team):
            if brute(hs, leader, "SHDC"[trump], t, ts, rules, mode="tricks") == left:
                pit_team = t
                break
        assert r["pit_team"] == pit_team
        assert max(x["margin"] for x in r["cards"]) == exp if (leader + len(trick)) % 2 == team \
            else min(x["margin"] for x in r["cards"]) == exp


def test_every_position_of_two_trick_endings():
    """Walk every position reachable in random 2-trick endings."""
    rnd = random.Random(99)
    for _ in range(25):
        hands, leader, trump, _, rules = random_position(rnd, 2, 0)
        team = rnd.randrange(2)
        seen = 0

        def walk(hands, leader, trick):
            nonlocal seen
            if not trick and not any(hands):
                return
            r = kdd.solve(hands, trump, rules, leader=leader, playing_team=team, trick=trick)
            hs = [[card_str(c) for c in h] for h in hands]
            assert r["margin"] == brute(hs, leader, "SHDC"[trump], team,
                                        [card_str(c) for c in trick], rules)
            seen += 1
            player = (leader + len(trick)) % 4
            pw = bool(trick) and (leader + ref.trick_winner([card_str(c) for c in trick],
                                                            "SHDC"[trump])) % 2 == player % 2
            legal, _ = ref.legal_cards([card_str(c) for c in hands[player]],
                                       [card_str(c) for c in trick], "SHDC"[trump], pw,
                                       amsterdam=rules.amsterdam,
                                       undertrump_forced=rules.undertrump_forced)
            for c in legal:
                h = [list(x) for x in hands]
                h[player].remove(parse_card(c))
                t = trick + [parse_card(c)]
                if len(t) == 4:
                    w = (leader + ref.trick_winner([card_str(x) for x in t], "SHDC"[trump])) % 4
                    walk(h, w, [])
                else:
                    walk(h, leader, t)

        walk(hands, leader, [])
        assert seen > 10


def test_full_deals_null_window_agrees_with_exact():
    from fastsim import klaverjassen as kj
    res = kj.simulate(kj.build_rules(), 6, seed=12)
    table = dd.new_table()
    empty = np.full(4, -1, dtype=np.int64)
    for i in range(6):
        hands = res.deals["hands"][i].astype(np.int64)
        trump, team = int(res.deals["trump"][i]), int(res.deals["playing_team"][i])
        leader = (int(res.deals["dealer"][i]) + 1) % 4
        exact = dd.search_nb(hands, empty, 0, leader, -dd.INF, dd.INF, trump, team, 0,
                             RV, *table, 2 * i + 1, np.zeros(1, dtype=np.int64))
        for v in (exact - 1, exact):
            g = dd.search_nb(hands, empty, 0, leader, v, v + 1, trump, team, 0, RV, *table,
                             100 + 2 * i + (v == exact), np.zeros(1, dtype=np.int64))
            assert (g > v) == (exact > v)


def test_table_generations_that_share_their_low_bits():
    """A table entry keeps only the generation's low bits (``dd.GEN_BITS - 1`` of them): a
    search whose generation has other high bits must start from an empty table. The same
    hands under each trump (the same positions, so the same keys, other values), solved in
    one table with generations equal in their low bits, give the values of fresh tables."""
    from fastsim import klaverjassen as kj
    res = kj.simulate(kj.build_rules(), 1, seed=8)
    hands = res.deals["hands"][0].astype(np.int64)
    team = int(res.deals["playing_team"][0])
    empty = np.full(4, -1, dtype=np.int64)
    step = 1 << (dd.GEN_BITS - 1)
    fresh = [dd.search_nb(hands, empty, 0, 1, -dd.INF, dd.INF, t, team, 0, RV,
                          *dd.new_table(), 3, np.zeros(1, dtype=np.int64)) for t in range(4)]
    assert len(set(fresh)) > 1      # else this test could not fail
    table = dd.new_table()
    for k, t in enumerate([0, 1, 2, 3, 0]):
        v = dd.search_nb(hands, empty, 0, 1, -dd.INF, dd.INF, t, team, 0, RV, *table,
                         3 + (k % 4) * step, np.zeros(1, dtype=np.int64))
        assert v == fresh[t], (k, t)


def _fail_soft(g, exact, a, b, where):
    """A search result ``g`` under the window (a, b): inside it the exact value, outside it a
    bound on the right side. Returns True when the value lay outside the window."""
    if a < exact < b:
        assert g == exact, (where, a, b)
        return False
    if exact <= a:
        assert exact <= g <= a, (where, a, b)
    else:
        assert b <= g <= exact, (where, a, b)
    return True


def _windows(rnd, exact, mode):
    """The full window and four random ones around ``exact`` (points for mode 0, tricks
    for mode 1), some narrow, some wide."""
    windows = [(-dd.INF, dd.INF)]
    for _ in range(4):
        a = exact + (rnd.randint(-60, 60) if mode == 0 else rnd.randint(-2, 2))
        windows.append((a, a + rnd.choice([1, 1, 2, 5, 30, 200])))
    return windows


def test_fail_soft_windows_on_endings():
    """Any window: inside it the exact value, outside it a bound on the right side."""
    rnd = random.Random(7)
    table = dd.new_table()
    for k in range(150):
        n_tricks = rnd.randint(1, 4)
        hands, leader, trump, trick, rules = random_position(rnd, n_tricks, rnd.randint(0, 3))
        team = rnd.randrange(2)
        h = np.array([sum(1 << c for c in x) for x in hands], dtype=np.int64)
        tr = np.full(4, -1, dtype=np.int64)
        tr[:len(trick)] = trick
        rv = rules.flags
        exact = brute([[card_str(c) for c in x] for x in hands], leader, "SHDC"[trump], team,
                      [card_str(c) for c in trick], rules)
        for _ in range(4):
            a = exact + rnd.randint(-60, 60)
            b = a + rnd.choice([1, 1, 2, 5, 30, 200])
            g = dd.search_nb(h, tr, len(trick), leader, a, b, trump, team, 0, rv, *table,
                             1000 + 4 * k + _, np.zeros(1, dtype=np.int64))
            _fail_soft(g, exact, a, b, k)


def test_reference_solver_matches_brute_force():
    """The plain full-deal reference agrees with brute-force minimax on short endings."""
    rnd = random.Random(5)
    rules = build_rules([])
    for _ in range(40):
        n_tricks = rnd.randint(1, 3)
        hands, leader, trump, _, _ = random_position(rnd, n_tricks, 0)
        team = rnd.randrange(2)
        exp = brute([[card_str(c) for c in x] for x in hands], leader, "SHDC"[trump], team, [],
                    rules)
        assert ref_dd.value([sum(1 << c for c in x) for x in hands], leader, trump, team) == exp


def test_full_deals_match_reference_solver():
    """Full 8-trick deals (the project's deals, heuristic calls): the solver's margin and
    make-or-not against the plain reference alpha-beta."""
    from fastsim import klaverjassen as kj
    n = 16
    res = kj.simulate(kj.build_rules(), n, seed=31)
    rules = build_rules([])
    table = dd.new_table()
    empty = np.full(4, -1, dtype=np.int64)
    for i in range(n):
        hands = res.deals["hands"][i].astype(np.int64)
        trump, team = int(res.deals["trump"][i]), int(res.deals["playing_team"][i])
        leader = (int(res.deals["dealer"][i]) + 1) % 4
        exp = ref_dd.value(hands, leader, trump, team)
        lists = [[c for c in range(64) if int(hands[s]) >> c & 1] for s in range(4)]
        r = kdd.solve(lists, trump, rules, leader=leader, playing_team=team)
        assert r["margin"] == exp
        assert r["makes"] == (exp > 0)
        make = dd.search_nb(hands, empty, 0, leader, 0, 1, trump, team, 0, RV,
                            *table, 500 + i, np.zeros(1, dtype=np.int64))
        assert (make > 0) == (exp > 0)


def _stored_values_check(n):
    import kj_dd_values as stored
    z = stored.load()
    assert z["margin"].shape == (stored.N, len(stored.VARIANTS))
    for k, variant in enumerate(stored.VARIANTS):
        margin, pit = stored.solve_all(z["hands"][:n], z["trump"][:n], z["team"][:n],
                                       z["leader"][:n], build_rules(variant))
        assert np.array_equal(margin, z["margin"][:n, k]), variant
        assert np.array_equal(pit, z["pit"][:n, k]), variant


def test_full_deals_match_stored_values():
    """Regression check: the first 100 of the stored 1,000 full deals (every variant) keep
    the margins and pit answers the solver gave when the file was written."""
    _stored_values_check(100)


@pytest.mark.slow
def test_full_deals_match_stored_values_all():
    """All 1,000 stored full deals, every variant."""
    _stored_values_check(1000)


def _boundary_ending(rnd, n_tricks):
    """A random ending of ``n_tricks`` tricks at a trick boundary: the hands (card codes and
    names), the leader, the trump suit and the side whose margin counts."""
    cards = rnd.sample(DECK, 4 * n_tricks)
    hands = [cards[n_tricks * p:n_tricks * (p + 1)] for p in range(4)]
    leader, trump, team = rnd.randrange(4), rnd.randrange(4), rnd.randrange(2)
    return hands, [[card_str(c) for c in x] for x in hands], leader, trump, team


@pytest.mark.parametrize("variant", [[], ["amsterdam"], ["undertrump=forced"],
                                     ["four_of_a_kind=all_100"]])
def test_three_trick_solver_matches_brute_force(variant):
    """``three_tricks_nb`` (called at trick boundaries with three tricks left) against
    brute-force minimax on random 3-trick endings, margins and trick counts, any window:
    inside it the exact value, outside it a bound on the right side."""
    rnd = random.Random(hash(tuple(variant)) & 0xFFFF)
    rules = build_rules(variant)
    outside = 0
    for k in range(60):
        hands, hs, leader, trump, team = _boundary_ending(rnd, 3)
        q = [np.int64(sum(1 << c for c in x)) for x in hands]
        lb, ub = dd.bounds_nb(*q, q[0] | q[1] | q[2] | q[3], 3, trump, team, rules.flags)
        span = max(ub, -lb)
        for mode, name in ((0, "margin"), (1, "tricks")):
            exact = brute(hs, leader, "SHDC"[trump], team, [], rules, mode=name)
            windows = _windows(rnd, exact, mode)
            t2 = np.zeros(dd.T2_SIZE, dtype=np.int64)     # shared by the windows
            for a, b in windows:
                g = dd.three_tricks_nb(*q, leader, trump, team, mode, rules.flags, a, b, span,
                                       t2)
                outside += _fail_soft(g, exact, a, b, (k, mode))
    assert outside > 50     # windows on both sides were tried


@pytest.mark.parametrize("variant", [[], ["amsterdam"], ["undertrump=forced"],
                                     ["four_of_a_kind=all_100"]])
def test_four_trick_endings_match_brute_force(variant):
    """Random 4-trick endings from a trick boundary (the general search, above the three-trick solver),
    margins and trick counts, any window, one table: inside the window the exact value,
    outside it a bound on the right side."""
    rnd = random.Random(4 + (hash(tuple(variant)) & 0xFFFF))
    rules = build_rules(variant)
    table = dd.new_table()
    gen = 1
    for k in range(12):
        hands, hs, leader, trump, team = _boundary_ending(rnd, 4)
        h = np.array([sum(1 << c for c in x) for x in hands], dtype=np.int64)
        tr = np.full(4, -1, dtype=np.int64)
        for mode, name in ((0, "margin"), (1, "tricks")):
            exact = brute(hs, leader, "SHDC"[trump], team, [], rules, mode=name)
            windows = _windows(rnd, exact, mode)
            for a, b in windows:
                gen += 1
                g = dd.search_nb(h, tr, 0, leader, a, b, trump, team, mode, rules.flags,
                                 *table, gen, np.zeros(1, dtype=np.int64))
                _fail_soft(g, exact, a, b, (k, mode))


@pytest.mark.parametrize("variant", [[], ["amsterdam"], ["undertrump=forced"],
                                     ["four_of_a_kind=all_100"]])
def test_positions_sharing_a_canonical_key_have_the_same_value(variant):
    """The table keys' canonical form (``canon_table_nb``, ``_ckey``): positions at a trick
    boundary (three cards a hand, kept from five dealt) that share a key, i.e. differ only
    in which of some interchangeable 0-point cards are gone, have the same value by
    brute-force minimax, margins and trick counts, whoever leads."""
    import itertools
    import zlib
    # a seed of the variant's own (str hashes are salted per process)
    rnd = random.Random(11 + zlib.crc32(repr(variant).encode()))
    rules = build_rules(variant)
    joined = 0
    for k in range(60):
        if joined > 30 or (rules.all_100 and k >= 10):
            break
        # the low cards (7 8 9) of two suits among the 20 dealt, so that some are joined
        low = [16 * s + r for s in rnd.sample(range(4), 2) for r in (5, 6, 7)]
        cards = low + rnd.sample([c for c in DECK if c not in low], 20 - len(low))
        rnd.shuffle(cards)
        hands = [cards[5 * p:5 * p + 5] for p in range(4)]
        trump, team = rnd.randrange(4), rnd.randrange(2)
        ct = dd.canon_table_nb(np.array([sum(1 << c for c in x) for x in hands],
                                        dtype=np.int64), trump, rules.flags)
        groups = {}
        for kept in itertools.product(*(itertools.combinations(x, 3) for x in hands)):
            rem = np.int64(sum(1 << c for x in kept for c in x))
            groups.setdefault(int(dd._ckey(rem, ct)), []).append(kept)
        shared = [g for g in groups.values() if len(g) > 1]
        if rules.all_100:       # four 7s, 8s or 9s score: no card is interchangeable
            assert not shared
            continue
        for g in rnd.sample(shared, min(6, len(shared))):
            leader = rnd.randrange(4)
            for mode in ("margin", "tricks"):
                values = {brute([[card_str(c) for c in x] for x in kept], leader,
                                "SHDC"[trump], team, [], rules, mode=mode)
                          for kept in g[:3]}
                assert len(values) == 1, (k, g[:3], mode)
            joined += 1
    assert joined > 30 or rules.all_100

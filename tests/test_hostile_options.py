"""Options that were silently ignored or defaulted: each is now refused in one line."""
import pytest

from conftest import invoke_cli

TOUR = ["tournament", "boerenbridge", "--policies", "heuristic,random"]


def one_line(args, needle):
    code, out, err = invoke_cli(*args)
    err = [l for l in err.splitlines() if not l.startswith("troef: compiling")]
    assert code == 2 and len(err) == 1 and err[0].startswith("troef: error:"), (code, err)
    assert needle in err[0], err


def test_tournament_hand_size_is_never_ignored():
    # --hand-size 0 played 8-card deals; with --games it was dropped without a word
    one_line([*TOUR, "--deals", 5, "--hand-size", 0], "hand size must be at least 1")
    one_line([*TOUR, "--games", 2, "--hand-size", 5], "with --hand-size use --deals")


PLAY = {
    "boerenbridge": ["--hand", "AS KS 7H 2C", "--trump-card", "9H", "--bids", "1,0,1,1"],
    "klaverjassen": ["--hand", "JH 9H AH TS 7C 8C KD QD", "--trump", "H", "--caller", 0],
    "bonken": ["--hand", "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", "--contract", "no-hearts"],
    "boonaken": ["--hand", "JH 9H AH KH 7S AD", "--open", "TC 8C", "--declarer", 0,
                 "--contract", 60, "--trump", "H"],
}


@pytest.mark.parametrize("game", sorted(PLAY))
def test_play_worlds_zero_is_refused_not_defaulted(game):
    # --worlds 0 (and any falsy count) quietly became the default 16 in every play query,
    # while bid, trump, contract, simulate and tournament refuse it
    args = ["play", game, *PLAY[game], "--position", 0, "--samples", 2, "--policy", "pimc"]
    one_line([*args, "--worlds", 0], "--worlds must be 1..4096, got 0")
    one_line([*args, "--worlds", -1], "--worlds must be 1..4096, got -1")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    f = tmp_path_factory.mktemp("opts") / "r.parquet"
    code, _, err = invoke_cli("simulate", "boerenbridge", "--hand-size", 3, "--deals", 300,
                              "--out", f)
    assert code == 0, err
    return f


def test_stats_by_twice_or_empty(results):
    # a column twice leaked pandas' "cannot insert bid, already exists"; an empty --by was
    # read as the default grouping
    one_line(["stats", results, "--by", "bid,bid"], "--by names a column twice")
    one_line(["stats", results, "--by", "", "--stat", "exact"], "at least one --by column")


@pytest.mark.parametrize("game", sorted(PLAY))
def test_play_samples_beyond_memory_are_refused_in_words(game):
    # numpy's "Maximum allowed dimension exceeded" / "array is too big; `arr.size *
    # arr.dtype.itemsize` is larger than ..." reached the user; the other queries say why
    args = ["play", game, *PLAY[game], "--position", 0]
    for n in (10**20, 2**63 - 1):
        one_line([*args, "--samples", n], "give fewer --samples (play keeps every sample")


@pytest.mark.parametrize("roem", [241, 100_000, 2**31, 2**63 - 1, 10**20])
def test_boonaken_play_roem_beyond_any_meld_is_refused(roem):
    # --roem 100000 overflowed the int16 scores (expected score -30997 with P(make) 1);
    # 2**63-1 wrapped to P(make) 0; 10**20 ended in an OverflowError traceback
    args = ["play", "boonaken", *PLAY["boonaken"], "--position", 0, "--samples", 2]
    one_line([*args, "--roem", roem], "roem must be an integer 0..240")


def test_max_roem_is_the_most_any_kept_hand_melds():
    # every 6 of the 32 cards, every trump (or none), both run tables: the sum of all
    # combinations (pagat, leimuiden) and the best single meld (seed) stay within MAX_ROEM,
    # and the sum reaches it
    import itertools

    import numpy as np

    from analyzer.boonaken_play import MAX_ROEM
    from fastsim.boonaken_nb import best_meld_nb, roem_sum_nb
    from fastsim.cards import DECK32
    top = 0
    for hand in itertools.combinations(DECK32.tolist(), 6):
        m = np.int64(sum(1 << c for c in hand))
        for trump in range(-1, 4):
            for lm in (0, 1):
                top = max(top, roem_sum_nb(m, trump, lm), best_meld_nb(m, trump, lm))
    assert top == MAX_ROEM


@pytest.mark.parametrize("args, needle", [
    (["play", "boerenbridge", "--hand", "AS KS 7H 2C", "--trump-card", "9H", "--position", 0,
      "--bids", "1 0 1 1"], "bids must be integers separated by commas, got '1 0 1 1'"),
    (["bid", "boerenbridge", "--hand", "AS KS 7H 2C", "--trump-card", "9H", "--position", 2,
      "--bids-before", "1 2"], "--bids-before must be integers separated by commas"),
    (["play", "boonaken", "--hand", "JH 9H AH KH 7S AD", "--open", "TC 8C", "--declarer", 0,
      "--contract", "misere", "--joiners", "1 3", "--position", 0],
     "joiners must be positions separated by commas"),
])
def test_spaces_inside_a_number_list_are_no_digits(args, needle):
    # the spaces were dropped first: "1 0 1 1" was the one bid 1011 ("need one per
    # position (4), got 1"), "1 2" the bid 12, joiners "1 3" the position 13
    one_line(args, needle)
    spaced = [a.replace(" ", " , ") if isinstance(a, str) and a[:1].isdigit() else a
              for a in args]
    code, _, err = invoke_cli(*spaced, "--samples", 2)   # spaces around the commas are fine
    assert code == 0, err


@pytest.mark.parametrize("args", [
    # --record-play '' was taken as "no record" and the run went on without one
    ["simulate", "boerenbridge", "--hand-size", 8, "--deals", 10, "--record-play", ""],
    # these reached the user as a raw "[Errno 2] No such file or directory: ''"
    ["simulate", "boerenbridge", "--hand-size", 8, "--deals", 10, "--out", ""],
    ["report", "boerenbridge", "--deals", 10, "--out", ""],
    ["report", "boerenbridge", "--out", "unused", "--from", ""],
    ["stats", ""],
    ["stats", "unused.parquet", "--csv-dir", " "],
])
def test_an_empty_path_is_refused_in_words(args):
    one_line(args, "an empty path")


def test_bonken_tournament_deals_are_refused_not_read_as_games():
    # --deals 3 played 3 whole games (36 deals) without a word
    one_line(["tournament", "bonken", "--policies", "heuristic,random", "--deals", 3],
             "whole games of 12 deals (--games)")

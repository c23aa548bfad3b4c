"""Klaverjassen schema: orders, points, variants, counters, result dtypes (docs/rules.md §2,
docs/klaverjassen.md)."""
from dataclasses import dataclass, field

import numpy as np

from .common import (RulesError, KernelFlags, parse_seat_policies as _parse_seat_policies,
                     variant_options)

GAME = "klaverjassen"
PLAYERS = 4
HAND = 8
DECK = 32
GAME_DEALS = 16
MAX_GAME_DEALS = 32
GAME_STRIDE = 1024       # deal index of deal k of game g: GAME_STRIDE * g + k
TOTAL_POINTS = 162
LAST_TRICK = 10
PIT_BONUS = 100

# rank index (2..A = 0..12) -> strength within the suit (0..7), -1 outside the 32-card deck
TRUMP_STRENGTH = np.full(13, -1, dtype=np.int64)
PLAIN_STRENGTH = np.full(13, -1, dtype=np.int64)
TRUMP_POINTS = np.zeros(13, dtype=np.int64)
PLAIN_POINTS = np.zeros(13, dtype=np.int64)
# rank indices: 7=5, 8=6, 9=7, T=8, J=9, Q=10, K=11, A=12
for _s, _r in enumerate([5, 6, 10, 11, 8, 12, 7, 9]):      # 7 8 Q K T A 9 J
    TRUMP_STRENGTH[_r] = _s
for _s, _r in enumerate([5, 6, 7, 9, 10, 11, 8, 12]):      # 7 8 9 J Q K T A
    PLAIN_STRENGTH[_r] = _s
for _r, _p in {9: 20, 7: 14, 12: 11, 8: 10, 11: 4, 10: 3}.items():
    TRUMP_POINTS[_r] = _p
for _r, _p in {12: 11, 8: 10, 11: 4, 10: 3, 9: 2}.items():
    PLAIN_POINTS[_r] = _p
# 13-bit rank masks of the ranks stronger than each rank
TRUMP_ABOVE = np.array([sum(1 << q for q in range(5, 13) if TRUMP_STRENGTH[q] > TRUMP_STRENGTH[r])
                        if r >= 5 else 0 for r in range(13)], dtype=np.int64)
PLAIN_ABOVE = np.array([sum(1 << q for q in range(5, 13) if PLAIN_STRENGTH[q] > PLAIN_STRENGTH[r])
                        if r >= 5 else 0 for r in range(13)], dtype=np.int64)

# heuristic trump call (docs/klaverjassen.md)
CALL_TRUMP_VALUE = np.zeros(13, dtype=np.int64)
for _r, _v in {9: 45, 7: 35, 12: 25, 8: 20, 11: 15, 10: 12, 6: 10, 5: 10}.items():
    CALL_TRUMP_VALUE[_r] = _v
CALL_THRESHOLD = np.array([95, 90, 90, 85], dtype=np.int64)

# policies (per seat; shared, fastsim/common.py): pimc = card play by pimc; the trump call by the heuristic;
from .common import (PIMC_WORLDS, POLICY_HEURISTIC, POLICY_NAMES, POLICY_PIMC,  # noqa: E402,F401
                     POLICY_RANDOM, POLICY_STRONG, SEAT_POLICIES as POLICIES)
# strong: the trump call by search and pimc card play over worlds that fit the calling
# round (fastsim/klaverjassen_strong_nb.py); Klaverjassen is the game that plays it.
# POLICY_NAMES stays the shared three: they are the tidy frame's policy categories, and a
# run with a strong seat gets "strong" added as one more (analyzer.agents.tidy_named), so
# the frames of runs without one are unchanged

CTR_CALL = 64
CTR_FORCED = 68
CTR_PLAY = 128

DEAL_COLUMNS = {
    "deal": (np.int64, False),
    "game": (np.int64, False),
    "deal_no": (np.int8, False),
    "dealer": (np.int8, False),
    "trump": (np.int8, False),
    "playing_team": (np.int8, False),
    "caller": (np.int8, False),        # seat that named trump (-1 with a fixed trump)
    "forced": (np.bool_, False),       # all passed: position 0 had to name
    "nat": (np.bool_, False),
    "pit": (np.int8, False),           # team that took all tricks, -1 if none
    "hands": (np.int64, True),         # per seat
    "tricks": (np.int8, True),         # per seat
    "card_points": (np.int16, "team"),
    "roem": (np.int16, "team"),
    "team_scores": (np.int16, "team"),
}
GAME_COLUMNS = {"totals": (np.int32, 2), "n_deals": (np.int8, None), "winners": (np.bool_, 2)}


# the variant settings as the kernels take them: one tuple ``rv`` (Rules.flags, in this
# order), read as rv[F_AMSTERDAM] etc. (fastsim/common.py KernelFlags)
FLAGS = ("amsterdam", "undertrump_forced", "all_100")
F_AMSTERDAM, F_UNDERTRUMP_FORCED, F_ALL_100 = range(len(FLAGS))


@dataclass(frozen=True)
class Rules(KernelFlags):
    FLAGS = FLAGS
    amsterdam: bool = False
    undertrump_forced: bool = False
    all_100: bool = False
    first_dealer: int = 0
    variants: dict = field(default_factory=dict)


VARIANTS = ("amsterdam", "undertrump", "four_of_a_kind")


def build_rules(variants=(), first_dealer=0):
    opts = {name: value.lower() for name, value in variant_options(
        variants, VARIANTS, "klaverjassen",
        known_text="amsterdam, undertrump=forced, four_of_a_kind=all_100").items()}
    if opts.get("amsterdam", "") not in ("", "on", "1", "true"):
        raise RulesError(f"amsterdam takes no value, got {opts['amsterdam']!r}")
    if "undertrump" in opts and opts["undertrump"] not in ("forced", "never"):
        raise RulesError(f"undertrump takes forced (or never, the default), got {opts['undertrump']!r}")
    if "four_of_a_kind" in opts and opts["four_of_a_kind"] not in ("all_100", "standard"):
        raise RulesError(f"four_of_a_kind takes all_100, got {opts['four_of_a_kind']!r}")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, (int, np.integer)) \
            or not 0 <= first_dealer < PLAYERS:
        raise RulesError(f"dealer must be a seat 0..3, got {first_dealer!r}")
    return Rules(amsterdam="amsterdam" in opts,
                 undertrump_forced=opts.get("undertrump") == "forced",
                 all_100=opts.get("four_of_a_kind") == "all_100",
                 first_dealer=int(first_dealer), variants=opts)


def parse_seat_policies(default="heuristic", seat_policies=()):
    return _parse_seat_policies(PLAYERS, POLICIES, default, seat_policies)

"""Boonaken schema: orders, points, the bid ladder, presets, counters and result dtypes
(docs/rules.md §4, docs/boonaken.md)."""
from dataclasses import dataclass

import numpy as np

from .common import RulesError, parse_seat_policies as _parse_seat_policies

GAME = "boonaken"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
PRESETS = ("seed", "pagat", "leimuiden")
PRESET_SEED, PRESET_PAGAT, PRESET_LEIMUIDEN = 0, 1, 2

# rank index -> strength 0..7 (-1 outside the 32-card deck); trump 7 8 T Q K A 9 J
TRUMP_STRENGTH = np.full(13, -1, dtype=np.int64)
PLAIN_STRENGTH = np.full(13, -1, dtype=np.int64)
for _s, _r in enumerate([5, 6, 8, 10, 11, 12, 7, 9]):
    TRUMP_STRENGTH[_r] = _s
for _s, _r in enumerate([5, 6, 7, 8, 9, 10, 11, 12]):
    PLAIN_STRENGTH[_r] = _s
TRUMP_POINTS = np.zeros(13, dtype=np.int64)
PLAIN_POINTS = np.zeros(13, dtype=np.int64)
for _r, _p in {9: 20, 7: 14, 12: 11, 8: 10, 11: 3, 10: 2}.items():
    TRUMP_POINTS[_r] = _p
for _r, _p in {12: 11, 8: 10, 11: 3, 10: 2, 9: 1}.items():
    PLAIN_POINTS[_r] = _p

# the bid ladder: 75 levels
MISERE, ZWABBER, BOONAAK = 16, 22, 74
LADDER = ([25 + 5 * i for i in range(16)] + ["misere"] + [105 + 5 * i for i in range(5)]
          + ["zwabber"] + [130 + 5 * i for i in range(51)] + ["boonaak"])
assert len(LADDER) == 75 and LADDER[MISERE] == "misere" and LADDER[ZWABBER] == "zwabber"
LADDER_VALUE = np.array([v if isinstance(v, int) else 0 for v in LADDER], dtype=np.int64)
CONTRACT_POINTS, CONTRACT_MISERE, CONTRACT_ZWABBER, CONTRACT_BOONAAK = 0, 1, 2, 3
CONTRACTS = ["points", "misere", "zwabber", "boonaak"]

# table layout per preset and player count: (open, blind) — the rest is stock (seed) or sleeps
def table_layout(preset, n):
    if preset == PRESET_SEED:
        return 2, 0
    if preset == PRESET_PAGAT:
        return (2, 2) if n <= 4 else (2, 0)
    return (2, 1) if n <= 4 else (2, 0)


LAYOUT_OPEN = np.array([[table_layout(p, n)[0] for n in range(6)] for p in range(3)], dtype=np.int64)
LAYOUT_BLIND = np.array([[table_layout(p, n)[1] for n in range(6)] for p in range(3)], dtype=np.int64)

# policies (per seat; shared, fastsim/common.py): pimc = card play by pimc; auction, exchange and trump by the heuristic
from .common import (PIMC_WORLDS, POLICY_HEURISTIC, POLICY_NAMES, POLICY_PIMC,  # noqa: E402,F401
                     POLICY_RANDOM, POLICY_STRONG, SEAT_POLICIES as POLICIES)
# strong: the auction, the exchange and the trump searched (STRONG_AUCTION_FACTOR /
# STRONG_EXCHANGE_FACTOR × worlds worlds), pimc card play over STRONG_CARD_FACTOR × worlds
# worlds, equivalent cards scored once (fastsim/boonaken_strong_nb.py). POLICY_NAMES stays the shared three: they are the tidy
# frame's policy categories, and a run with a strong seat gets "strong" added as one more
# (analyzer.agents.tidy_named), so frames of runs without strong are unchanged.
STRONG_CARD_FACTOR = 4     # strong's worlds per card decision, as a multiple of --worlds
STRONG_AUCTION_FACTOR = 8  # strong's worlds per auction turn, as a multiple of --worlds
STRONG_EXCHANGE_FACTOR = 8  # strong's worlds for the exchange and the trump, likewise
# key offsets of strong's searches before the play, added to rng.KEY_STRONG_BID: auction
# turn k (k counts every call of the auction from 0) draws its worlds from
# deal_key(deal key, KEY_STRONG_BID + KEY_BK_AUCTION + k), the declarer's exchange and
# trump from deal_key(deal key, KEY_STRONG_BID + KEY_BK_EXCHANGE)
KEY_BK_AUCTION = 0
KEY_BK_EXCHANGE = 1024     # above every auction turn (MAX_AUCTION)

# roem modes of a point contract in the play query: the given value, the seed preset's
# standing meld from the hands at the start of play, the pagat/leimuiden sum over the kept
# cards
ROEM_GIVEN, ROEM_MELD, ROEM_SUM = 0, 1, 2

# the soft heuristic bidder (the strong policy's and the play query's model of the auction)
AUCTION_TAU = 10.0     # logistic scale of the soft bidder, in estimate points
AUCTION_EPS = 0.05     # floor: every action has probability at least this under the model

CTR_AUCTION = 64
CTR_AUCTION_PICK = 2000
CTR_EXCHANGE = 1100
CTR_TRUMP = 1120
CTR_PLAY = 1200
MATCH_STRIDE = 1024
MAX_MATCH_DEALS = 500
MAX_AUCTION = 512
MAX_TRICKS = 15


@dataclass(frozen=True)
class Rules:
    players: int = 4
    preset: str = "seed"
    first_dealer: int = 0

    @property
    def preset_id(self):
        return PRESETS.index(self.preset)


def build_rules(players=4, preset="seed", first_dealer=0):
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) \
            or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"boonaken needs 2 to 5 players, got {players!r}")
    preset = str(preset).strip().lower()
    if preset not in PRESETS:
        raise RulesError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, (int, np.integer)) \
            or not 0 <= first_dealer < players:
        raise RulesError(f"dealer must be a seat 0..{players - 1}, got {first_dealer!r}")
    return Rules(players=int(players), preset=preset, first_dealer=int(first_dealer))


def parse_seat_policies(players, default="heuristic", seat_policies=()):
    return _parse_seat_policies(players, POLICIES, default, seat_policies)

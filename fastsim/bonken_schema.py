"""Bonken schema: contracts, variants, counters and result dtypes.

Rules: ``docs/rules.md`` §3 (Bonken); engine details: ``docs/bonken.md``.

Imported by the kernels (:mod:`fastsim.bonken_nb`), the Python front
(:mod:`fastsim.bonken`), the pandas layer and the tests.
"""
from dataclasses import dataclass, field

import numpy as np

from .common import (RulesError, KernelFlags, parse_seat_policies as _parse_seat_policies,
                     variant_options)

GAME = "bonken"
PLAYERS = 4
HAND = 13
ROUNDS = 11
N_NEGATIVE = 7

DUCKING, NO_HEARTS, NO_MEN, NO_QUEENS, NO_KH, NO_LAST, DOMINO = range(7)
TRUMP_S, TRUMP_H, TRUMP_D, TRUMP_C, NO_TRUMP = range(7, 12)
CONTRACTS = ["ducking", "no-hearts", "no-men", "no-queens", "no-king-of-hearts", "no-last",
             "domino", "spades", "hearts", "diamonds", "clubs", "no-trump"]
ALIASES = {"no-kh": NO_KH, "no-king": NO_KH, "nt": NO_TRUMP, "notrump": NO_TRUMP,
           "trump-spades": TRUMP_S, "trump-hearts": TRUMP_H, "trump-diamonds": TRUMP_D,
           "trump-clubs": TRUMP_C}
NEGATIVE_IDS = tuple(range(7))
TRUMP_IDS = tuple(range(7, 12))
# the scoring table (docs/rules.md §3), defined once for the engine and its heuristics
PTS_DUCKING_TRICK = 5     # Ducking: per trick taken
PTS_HEART = 5             # No Hearts: per heart
PTS_KING = 20             # No Men: per king
PTS_JACK = 10             # No Men: per jack
PTS_QUEEN = 30            # No Queens: per queen
PTS_KH = 50               # No King of Hearts
PTS_LAST = 50             # No Last: the last trick
PTS_TRUMP_TRICK = 10      # trump contracts: per trick taken (a gain)
PTS_DOMINO_LOSER = 50     # Domino: the player left holding cards

# each contract's total over a round (negative: the points every player loses together)
CONTRACT_TOTAL = ([-13 * PTS_DUCKING_TRICK, -13 * PTS_HEART, -4 * (PTS_KING + PTS_JACK),
                   -4 * PTS_QUEEN, -PTS_KH, -PTS_LAST, -PTS_DOMINO_LOSER]
                  + [13 * PTS_TRUMP_TRICK] * 5)
# quarter of each negative total, hundredths of points (heuristic contract choice)
BASELINE = np.array([-25 * t for t in CONTRACT_TOTAL[:7]], dtype=np.int64)
RISK = np.array([5, 5, 5, 5, 10, 15, 20, 25, 35, 45, 60, 75, 90], dtype=np.int64)

# policies (per seat; shared, fastsim/common.py): pimc = trick play by pimc; contract choice and Domino by the heuristic;
# strong (Bonken only) = contract choice by search, pimc trick play with worlds weighted by the
# chooser's choice, Domino by the heuristic (fastsim/bonken_strong_nb.py)
from .common import (PIMC_WORLDS, POLICY_HEURISTIC, POLICY_PIMC, POLICY_RANDOM,  # noqa: E402,F401
                     POLICY_STRONG, SEAT_POLICIES as POLICIES, SEAT_POLICY_NAMES as POLICY_NAMES)

# the strong policy's soft chooser model: softmax of the heuristic chooser's values over
# the available contracts; negative contracts in hundredths of points (baseline − cost),
# trump options in hundredths of tricks (the hand value). 0: the heuristic's choice only.
TEMP_NEGATIVE = 500
TEMP_TRUMP = 50

CTR_CHOICE = 60
CTR_PLAY = 128
CTR_DOMINO = 256
MAX_TURNS = 256   # Domino turns (52 moves and at most 3 passes between two moves)

DEAL_COLUMNS = {
    "deal": (np.int64, False),
    "game": (np.int64, False),
    "round": (np.int8, False),        # 0-based round within the game
    "dealer": (np.int8, False),
    "contract": (np.int8, False),     # id, see CONTRACTS
    "n_tricks": (np.int8, False),     # tricks played (early stop), 0 in Domino
    "loser": (np.int8, False),        # Domino: seat left holding cards, else -1
    "hands": (np.int64, True),        # per seat, as dealt
    "tricks": (np.int8, True),
    "scores": (np.int16, True),
}
GAME_COLUMNS = {"totals": np.int32, "winners": np.bool_}


def contract_id(name):
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if key in CONTRACTS:
        return CONTRACTS.index(key)
    if key in ALIASES:
        return ALIASES[key]
    raise RulesError(f"unknown contract {name!r}; known: {', '.join(CONTRACTS)}")


def parse_contracts(text):
    """``ducking,no-hearts`` → sorted list of unique ids."""
    ids = [contract_id(x) for x in str(text).split(",") if x.strip()]
    if not ids:
        raise RulesError("the contract list is empty")
    if len(set(ids)) != len(ids):
        raise RulesError(f"a contract is listed twice in {text!r}")
    return sorted(ids)


# the variant settings as the kernels take them: one tuple ``rv`` (Rules.flags, in this
# order), read as rv[F_HEARTS_AFTER_BROKEN] (fastsim/common.py KernelFlags); fixed_order
# only changes the plan of contracts, which Python builds
FLAGS = ("hearts_after_broken",)
(F_HEARTS_AFTER_BROKEN,) = range(len(FLAGS))


@dataclass(frozen=True)
class Rules(KernelFlags):
    FLAGS = FLAGS
    hearts_after_broken: bool = False
    fixed_order: bool = False
    first_dealer: int = 0
    variants: dict = field(default_factory=dict)


VARIANTS = ("hearts_lead", "fixed_order")


def build_rules(variants=(), first_dealer=0):
    opts = {name: value.lower() for name, value in variant_options(
        variants, VARIANTS, "bonken", note=" (doubling is out of scope)").items()}
    hl = opts.get("hearts_lead", "restricted")
    if hl not in ("restricted", "after_broken"):
        raise RulesError(f"hearts_lead takes restricted or after_broken, got {hl!r}")
    fo = opts.get("fixed_order")
    if fo is not None and fo not in ("", "on", "off", "1", "0", "true", "false"):
        raise RulesError(f"fixed_order takes on/off, got {fo!r}")
    fixed = fo is not None and fo in ("", "on", "1", "true")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, (int, np.integer)) \
            or not 0 <= first_dealer < PLAYERS:
        raise RulesError(f"dealer must be a seat 0..3, got {first_dealer!r}")
    return Rules(hearts_after_broken=hl == "after_broken", fixed_order=fixed,
                 first_dealer=int(first_dealer), variants=opts)


def parse_seat_policies(default="heuristic", seat_policies=()):
    """Default policy name plus ``SEAT=NAME`` overrides → int8 array per seat."""
    return _parse_seat_policies(PLAYERS, POLICIES, default, seat_policies)

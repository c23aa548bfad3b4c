"""Boerenbridge schema: constants, variant options, schedules and result dtypes.

The one description of Boerenbridge that the kernels (:mod:`fastsim.boerenbridge_nb`),
the Python front (:mod:`fastsim.boerenbridge`), the pandas layer and the tests import.
Rules: ``docs/rules.md`` §1; engine details: ``docs/boerenbridge.md``.
"""
from dataclasses import dataclass, field

import numpy as np

from .common import (RulesError, KernelFlags, parse_seat_policies as _parse_seat_policies,
                     variant_options)

GAME = "boerenbridge"
DECK = 52
MIN_PLAYERS, MAX_PLAYERS = 3, 7
MAX_SEATS = 8  # array width for per-seat scratch
MAX_SCHEDULE = 32767   # deals per game: deal_no and the per-game exact counts are int16

# policies (per seat)
from .common import (PIMC_WORLDS, POLICY_HEURISTIC, POLICY_PIMC, POLICY_RANDOM,  # noqa: E402,F401
                     POLICY_STRONG, SEAT_POLICIES as _SEAT_POLICIES)

# issue #14, sixth push (fastsim/cardmodel_nb.py): ``learned`` plays the card of a
# conditional-logit model fitted to strong's play (bids: the heuristic's), ``strongl`` is
# strong whose card rollouts play that model for the other players; code 6, not named, is
# the experiment's other rollout mode (the deciding player's own cards modelled too;
# tools/cardmodel.py duel)
# issue #14, seventh push: ``strongi`` (code 7) is strongl with the card model fitted to
# OpenSpiel IS-MCTS 1000's cards (a model of the opponent; fastsim/cardmodel_weights_ismcts.py)
POLICY_LEARNED = 4
POLICY_STRONGL = 5
POLICY_STRONGI = 7
POLICIES = {**_SEAT_POLICIES, "learned": POLICY_LEARNED, "strongl": POLICY_STRONGL,
            "strongi": POLICY_STRONGI}
POLICY_NAMES = {v: k for k, v in POLICIES.items()}
# strongl's rollout modes by code, codes POLICY_STRONGL, 6 and POLICY_STRONGI in turn (the
# bits of fastsim.boerenbridge_strong_nb: ROLL_OTHERS 1, ROLL_ME 2, the model index from bit
# MODEL_SHIFT = 2 on: 4 is the IS-MCTS model)
STRONGL_MODES = (1, 3, 1 | 4)
POLICY_EXP_LAST = POLICY_STRONGL + len(STRONGL_MODES) - 1

# pimc's worlds (fastsim/boerenbridge_nb.py: pimc_card_nb, pimc_bid_nb) as multiples of
# ``worlds`` (default 16: 512 per card and per bid). Issue #14, seventh push: the 16 worlds
# pimc had before were most of its gap to strong (docs/boerenbridge.md, "Seventh push"; the
# push's experiment variants — other factors, learned rollouts — are on branch helper-pimc7)
PIMC_CARD_FACTOR = 32
PIMC_BID_FACTOR = 32
# the policies that search at every decision (a millisecond or more each): a query whose other
# players follow one of them defaults to analyzer.stats_core.STRONG_QUERY_SAMPLES samples
QUERY_SEARCHING = ("pimc", "strong", "strongl", "strongi")

# the strong policy (fastsim/boerenbridge_strong_nb.py): its worlds per card and per bid as
# multiples of ``worlds`` (pimc's, default 16: 512 and 256), the candidates drawn per world
# kept, the soft bidder's slope that weighs them, and the shift (hundredths of a trick) added
# to the hand value of the bidder it models (the heuristic's bidder bids about a third of a
# trick lower than the searching players do; docs/boerenbridge.md)
STRONG_CARD_FACTOR = 32
STRONG_BID_FACTOR = 16
STRONG_CANDIDATES = 4
STRONG_SLOPE = 1.0
STRONG_BID_SHIFT = 30

# scoring modes
SCORING = {"standard": 0, "hard": 1, "dutch": 2}

# random-number counters (docs/boerenbridge.md)
CTR_SHUFFLE = 0
CTR_BID = 64
CTR_PLAY = 128

# scoring constants
EXACT_BASE = 10
PER_TRICK = 2
BAUER_BONUS = 5
BLIND_MULTIPLIER = 2

# heuristic bidding adjustments, hundredths of a trick (docs/boerenbridge.md); the hand
# value itself lives in fastsim/play_nb.py, shared with Bonken
LEADER_BONUS = 10
EARLIER_BIDS_SHIFT = 25


def _stair(top, peak_twice=False):
    up = list(range(1, top + 1))
    return tuple(up + (up[::-1] if peak_twice else up[-2::-1]))


STANDARD_SCHEDULES = {
    3: _stair(8),
    4: _stair(8),
    5: _stair(10),
    6: _stair(8),
    7: _stair(7, peak_twice=True),
}
SHORT_SCHEDULES = {5: _stair(8)}
TWO_PLAYER_SCHEDULE = _stair(8)

# per-deal result columns: name -> (dtype, per_seat)
DEAL_COLUMNS = {
    "deal": (np.int64, False),       # global deal index (RNG key)
    "game": (np.int64, False),
    "deal_no": (np.int16, False),    # 0-based deal number within the game
    "hand_size": (np.int8, False),
    "dealer": (np.int8, False),      # seat
    "trump_card": (np.int8, False),  # card code of the turned card
    "trump": (np.int8, False),       # suit index, -1 in a no-trump deal
    "forbidden": (np.int8, False),   # the dealer's forbidden bid, -1 if none
    "hands": (np.int64, True),       # bit mask per seat, as dealt
    "bids": (np.int8, True),
    "tricks": (np.int8, True),
    "scores": (np.int16, True),
}
GAME_COLUMNS = {
    "totals": np.int32,
    "exact": np.int16,
    "best": np.int16,
    "winners": np.bool_,
}


# the variant settings as the kernels take them: one tuple ``rv`` (Rules.flags, in this
# order), read as rv[F_SCORING] etc. (fastsim/common.py KernelFlags); the schedule and its
# no-trump deals are arrays of their own, two_player is the player count
FLAGS = ("scoring_id", "bauer_bonus", "dealer_rule", "blind_one_card")
F_SCORING, F_BAUER, F_DEALER_RULE, F_BLIND = range(len(FLAGS))


@dataclass(frozen=True)
class Rules(KernelFlags):
    """A fully validated Boerenbridge set-up (players, schedule and variants)."""
    FLAGS = FLAGS
    players: int
    schedule: tuple
    notrump: tuple            # one bool per deal of the schedule
    scoring: str = "standard"
    bauer_bonus: bool = False
    dealer_rule: bool = True
    blind_one_card: bool = False
    two_player: bool = False
    first_dealer: int = 0
    variants: dict = field(default_factory=dict)  # as given, for reports

    @property
    def deck_limit(self):
        return 26 if self.two_player else DECK

    @property
    def scoring_id(self):
        return SCORING[self.scoring]

    @property
    def max_hand(self):
        return max(self.schedule)


VARIANTS = ("scoring", "bauer_bonus", "no_trump_rounds", "fixed_hands", "blind_one_card",
            "two_player", "dealer_rule", "schedule")
_FLAG_VALUES = {"": True, "1": True, "on": True, "true": True, "yes": True,
                "0": False, "off": False, "false": False, "no": False}


def _flag(name, value):
    v = value.lower()
    if v not in _FLAG_VALUES:
        raise RulesError(f"variant {name} takes on/off, got {value!r}")
    return _FLAG_VALUES[v]


def parse_schedule(text):
    """A custom schedule ``1,2,3`` → tuple of ints (``standard``/``short`` return the name)."""
    t = text.strip().lower()
    if t in ("standard", "short"):
        return t
    try:
        # a space inside a number is no digit: "1 2" is two sizes without their comma,
        # never the one size 12
        sizes = tuple(int(x) for x in (x.strip() for x in t.split(",")) if x != "")
    except ValueError:
        raise RulesError(f"schedule must be standard, short or a list of hand sizes like 1,2,3; got {text!r}") from None
    if not sizes:
        raise RulesError("schedule is empty")
    return sizes


def _no_trump_flags(spec, schedule):
    flags = [False] * len(schedule)
    top = max(schedule)
    for item in (x.strip() for x in spec.split(",")):     # "1 2" is no deal 12
        if item == "":
            continue
        if item == "ones":
            idx = [i for i, h in enumerate(schedule) if h == 1]
        elif item == "top":
            idx = [i for i, h in enumerate(schedule) if h == top]
        elif item == "last":
            idx = [len(schedule) - 1]
        else:
            try:
                k = int(item)
            except ValueError:
                raise RulesError(f"no_trump_rounds takes deal numbers and ones/top/last, got {item!r}") from None
            if not 1 <= k <= len(schedule):
                raise RulesError(f"no_trump_rounds: deal {k} is outside the schedule's 1..{len(schedule)}")
            idx = [k - 1]
        for i in idx:
            flags[i] = True
    return tuple(flags)


def _check_length(deals):
    if deals > MAX_SCHEDULE:
        raise RulesError(f"a game has at most {MAX_SCHEDULE:,} deals (the result columns "
                         f"count them in 16 bits), got {deals:,}")


def build_rules(players=None, hand_size=None, schedule=None, variants=(), first_dealer=0):
    """Validate everything and return :class:`Rules`.

    ``hand_size`` gives a run of independent deals (the one-deal schedule ``[h]``);
    ``schedule`` (``standard``, ``short`` or a list) gives whole games. ``variants`` is a
    list of ``NAME[=VALUE]`` strings or (name, value) pairs.
    """
    opts = variant_options(variants, VARIANTS, "boerenbridge")
    two_player = _flag("two_player", opts["two_player"]) if "two_player" in opts else False
    if players is None:
        players = 2 if two_player else 4
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise RulesError(f"players must be an integer, got {players!r}")
    players = int(players)
    if two_player:
        if players != 2:
            raise RulesError(f"two_player is a 2-player variant; got --players {players}")
    elif not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"boerenbridge needs 3 to 7 players (or --variant two_player), got {players}")

    scoring = opts.get("scoring", "standard").lower()
    if scoring not in SCORING:
        raise RulesError(f"scoring must be one of {', '.join(SCORING)}, got {scoring!r}")
    bauer = _flag("bauer_bonus", opts["bauer_bonus"]) if "bauer_bonus" in opts else False
    blind = _flag("blind_one_card", opts["blind_one_card"]) if "blind_one_card" in opts else False
    if "dealer_rule" in opts:
        dr = opts["dealer_rule"].lower()
        if dr not in ("on", "off", "1", "0", "true", "false", "yes", "no"):
            raise RulesError(f"dealer_rule takes on or off, got {opts['dealer_rule']!r}")
        dealer_rule = _FLAG_VALUES[dr]
    else:
        dealer_rule = True

    # the schedule: --hand-size, --schedule, variant schedule=, fixed_hands=
    sources = [s for s in (hand_size is not None and "--hand-size",
                           schedule is not None and "--schedule",
                           "schedule" in opts and "schedule variant",
                           "fixed_hands" in opts and "fixed_hands") if s]
    if len(sources) > 1:
        raise RulesError(f"give only one of {' / '.join(sources)}")
    if hand_size is not None:
        if isinstance(hand_size, bool) or not isinstance(hand_size, (int, np.integer)):
            raise RulesError(f"hand size must be an integer, got {hand_size!r}")
        sched = (int(hand_size),)
    elif "fixed_hands" in opts:
        parts = opts["fixed_hands"].split(",")
        try:
            h, rounds = (int(p) for p in parts)
        except ValueError:
            raise RulesError(f"fixed_hands takes H,ROUNDS (e.g. fixed_hands=7,10), got {opts['fixed_hands']!r}") from None
        if rounds < 1:
            raise RulesError(f"fixed_hands needs at least one round, got {rounds}")
        _check_length(rounds)           # before the tuple is built (10**20 rounds: OverflowError)
        sched = (h,) * rounds
    else:
        spec = schedule if schedule is not None else opts.get("schedule", "standard")
        spec = parse_schedule(spec) if isinstance(spec, str) else tuple(int(x) for x in spec)
        if spec == "standard":
            sched = TWO_PLAYER_SCHEDULE if two_player else STANDARD_SCHEDULES[players]
        elif spec == "short":
            if players not in SHORT_SCHEDULES or two_player:
                raise RulesError("schedule=short exists only for 5 players")
            sched = SHORT_SCHEDULES[players]
        else:
            sched = spec
    _check_length(len(sched))
    limit = 26 if two_player else DECK
    for h in sched:
        if h < 1:
            raise RulesError(f"hand size must be at least 1, got {h}")
        if players * h + 1 > limit:
            raise RulesError(f"{players} players cannot be dealt {h} cards each: "
                             f"{players}x{h}+1 (trump card) > {limit} cards")
    if "no_trump_rounds" in opts and not opts["no_trump_rounds"].replace(",", "").strip():
        raise RulesError(f"no_trump_rounds takes deal numbers and ones/top/last, got "
                         f"{opts['no_trump_rounds']!r}")
    notrump = _no_trump_flags(opts.get("no_trump_rounds", ""), sched)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, (int, np.integer)) \
            or not 0 <= first_dealer < players:
        raise RulesError(f"dealer must be a seat 0..{players - 1}, got {first_dealer!r}")
    return Rules(players=players, schedule=tuple(sched), notrump=notrump, scoring=scoring,
                 bauer_bonus=bauer, dealer_rule=dealer_rule, blind_one_card=blind,
                 two_player=two_player, first_dealer=int(first_dealer), variants=dict(opts))


def parse_seat_policies(players, default="heuristic", seat_policies=()):
    """Default policy name plus ``SEAT=NAME`` overrides → int8 array per seat."""
    return _parse_seat_policies(players, POLICIES, default, seat_policies)

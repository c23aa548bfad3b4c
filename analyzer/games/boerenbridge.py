"""Boerenbridge in the registry: set-up, run, tidy frame, metadata, records, summary.

Rules: docs/rules.md (Boerenbridge); engine: :mod:`fastsim.boerenbridge`.
"""
import numpy as np

from . import (concat_results, deal_row_blocks, frame_functions, lazy_engine, run_metadata,
               seat_lines)
from . import policy_names  # noqa: F401 (the entry's interface)

from fastsim.boerenbridge_schema import GAME, PIMC_WORLDS, POLICIES as _POLICIES, RulesError

bb = lazy_engine("fastsim.boerenbridge")   # the engine, imported on first use

NAME = GAME
TITLE = "Boerenbridge"
POLICIES = tuple(_POLICIES)
OPTIONS = {"players", "hand_size", "schedule", "variant", "dealer"}
UNITS = {"deals": "deal", "games": "game"}
DEFAULT_COUNT = {"deal": 100_000, "game": 1000}
TOURNAMENT_DEFAULT = {"deal": 2000, "game": 200}
SCORE_UNIT = "points"
STREAMS = True
USER_POLICIES = True      # PATH.py:FUNCTION seats (analyzer/agents.py)


class Setup:
    """The rules plus the run's shape: independent deals (``--hand-size``) or whole games."""

    def __init__(self, rules, unit):
        self.rules = rules
        self.unit = unit

    @property
    def players(self):
        return self.rules.players

    @property
    def deals_per_unit(self):
        return len(self.rules.schedule)

    def __eq__(self, other):
        return isinstance(other, Setup) and (self.rules, self.unit) == (other.rules, other.unit)

    def __reduce__(self):
        return (Setup, (self.rules, self.unit))


def make_setup(unit="deal", players=None, hand_size=None, schedule=None, variant=(), dealer=0):
    if unit == "deal":
        if schedule is not None:
            raise RulesError("--schedule plays whole games; use --games")
        rules = bb.build_rules(players=players, hand_size=8 if hand_size is None else hand_size,
                               variants=variant, first_dealer=dealer)
    else:
        if hand_size is not None:
            raise RulesError("--games plays whole games; with --hand-size use --deals")
        rules = bb.build_rules(players=players, schedule=schedule, variants=variant,
                               first_dealer=dealer)
    return Setup(rules, unit)


def parse_policies(setup, policy="heuristic", seat_policy=()):
    from .. import agents   # built-in names, or PATH.py:FUNCTION (a policy of your own)
    return agents.parse_policies(lambda d, sp: bb.parse_seat_policies(setup.players, d, sp),
                                 setup.players, policy, seat_policy)


def simulate(setup, n, seed=0, policies=None, start=0, threads=None, record=False,
             worlds=PIMC_WORLDS):
    from .. import agents
    if agents.has_user(policies):     # a policy of your own: the step-by-step driver
        return agents.simulate_boerenbridge(setup.rules, n, seed=seed, policies=policies,
                                            game_start=start, record=record, worlds=worlds,
                                            threads=threads)
    return bb.simulate(setup.rules, n, seed=seed, policies=policies, threads=threads,
                       game_start=start, record=record, worlds=worlds)


tidy, columns = frame_functions(GAME)
# columns() runs the serial nogil kernels of fastsim.features_nb only: a streamed run may
# build the table in its encoding threads while the next chunk plays
COLUMNS_ANY_THREAD = True


def row_blocks(result, max_rows):
    """The tidy table in row groups of whole deals (:func:`analyzer.games.deal_row_blocks`)."""
    return deal_row_blocks(result, max_rows, result.rules.players)


def metadata(result):
    r = result.rules
    return run_metadata(GAME, r.players, result, schedule=list(r.schedule),
                        notrump=list(r.notrump), scoring=r.scoring, bauer_bonus=r.bauer_bonus,
                        dealer_rule=r.dealer_rule, blind_one_card=r.blind_one_card,
                        two_player=r.two_player)


def records(result, notation="en"):
    from ..records import deal_records
    return deal_records(result, notation=notation)


# ---------------------------------------------------------------- summary

def partials(result):
    """Per position the player-deal count and the sums of bids, tricks, scores and exact
    bids; for whole games per seat the sums of totals and exact bids, and the win counts
    by number of co-winners (exact win shares). One compiled pass each
    (:mod:`fastsim.features_nb`, built ahead of time where it is), integers throughout."""
    from fastsim.aot import kernels
    k = kernels("features").pick()
    d = result.deals
    q = k.position_sums_nb(d["dealer"], d["bids"], d["tricks"], d["scores"])
    p = {"deals": int(len(d["deal"])), "n": q[0].tolist(), "bid": q[1].tolist(),
         "tricks": q[2].tolist(), "score": q[3].tolist(), "exact": q[4].tolist()}
    g = result.games
    total, exact, wins = k.seat_sums_nb(g["totals"], g["exact"], g["winners"])
    p["games"] = int(g["totals"].shape[0])
    p["total"] = total.tolist()
    p["exact_bids"] = exact.tolist()
    p["wins"] = wins.tolist()
    return p


def empty_partials(setup):
    n = setup.players
    z = [0] * n
    return {"deals": 0, "games": 0, "n": z, "bid": z, "tricks": z, "score": z, "exact": z,
            "total": z, "exact_bids": z, "wins": [z] * n}


def summarize(s, setup):
    from . import win_share
    n = setup.players
    positions = []
    for q in range(n):
        cnt = s["n"][q]
        if cnt == 0:
            positions.append({"position": q, "mean_tricks": None, "exact_rate": None,
                              "mean_score": None, "mean_bid": None, "n": 0})
            continue
        positions.append({"position": q, "mean_tricks": s["tricks"][q] / cnt,
                          "exact_rate": s["exact"][q] / cnt, "mean_score": s["score"][q] / cnt,
                          "mean_bid": s["bid"][q] / cnt, "n": cnt})
    out = {"game": GAME, "players": n, "deals": s["deals"], "positions": positions}
    if setup.unit == "game":
        g = s["games"]
        share = win_share(s["wins"])
        out["games"] = g
        out["schedule"] = list(setup.rules.schedule)
        out["seats"] = [{"seat": q, "policy": None, "mean_total": s["total"][q] / g if g else None,
                         "win_rate": float(share[q] / g) if g else None,
                         "mean_exact": s["exact_bids"][q] / g if g else None}
                        for q in range(n)]
    else:
        out["hand_size"] = setup.rules.schedule[0]
    out["scoring"] = setup.rules.scoring
    return out


def describe(setup, n):
    r = setup.rules
    what = (f"{n:,} games of {len(r.schedule)} deals (schedule {'-'.join(map(str, r.schedule))})"
            if setup.unit == "game" else f"{n:,} deals of {r.schedule[0]} cards")
    return f"{TITLE}, {r.players} players: {what}"


def render(p):
    lines = ["position             mean bid  mean tricks  exact-bid rate  mean score"]
    n = p["players"]
    for q in p["positions"]:
        if not q["n"]:
            continue
        label = f"{q['position']}" + (" (leads first)" if q["position"] == 0 else
                                      " (dealer)" if q["position"] == n - 1 else "")
        lines.append(f"{label:<20} {q['mean_bid']:>8.3f}  {q['mean_tricks']:>11.3f}  "
                     f"{q['exact_rate']:>14.1%}  {q['mean_score']:>10.2f}")
    return lines + seat_lines(p, [("mean exact bids", "mean_exact", ">15.2f")])


# ---------------------------------------------------------------- tournaments, statistics

def seat_scores(result, whole):
    return (result.games["totals"] if whole else result.deals["scores"]).astype(np.float64)


def tournament_setup(whole, players=None, hand_size=None, variant=()):
    if not whole and hand_size is None:
        hand_size = 8
    return make_setup("game" if whole else "deal", players=players, hand_size=hand_size,
                      variant=variant)


def _stats_module():
    from .. import stats
    return stats


STATS = ("exact", "calibration", "tricks", "score", "dealer", "compare")
DEFAULT_FEATURE = "trump_count"


def stats(df, which, by, feature):
    mod = _stats_module()
    if feature is None:
        feature = DEFAULT_FEATURE
    if feature not in df.columns:
        raise ValueError(f"unknown feature {feature!r}")
    return mod.all_stats(df, by, which or STATS, feature)


REPORT = "reports.boerenbridge"


def tiny_setup():
    """A small set-up for warming the kernels (Dask workers, `make setup`)."""
    return make_setup("deal")


# the CLI options of `troef simulate boerenbridge` beyond the shared ones
CLI_OPTIONS = [
    (("--players",), dict(type=int, default=None, help="3-7 (2 with --variant two_player); default 4.")),
    (("--hand-size",), dict(type=int, default=None, help="Independent deals of this many cards (else whole games).")),
    (("--schedule",), dict(default=None, help="Whole games: standard, short or a list like 1,2,3,2,1.")),
    (("--variant",), dict(multiple=True, metavar="NAME[=VALUE]", help="Rule variant (repeatable), see docs/rules.md.")),
]
GAMES_OPTION = ("--games",)

STREAM_STATS = True
STATS_BY = True
SINGLE_OPTION = "--hand-size"


concat = concat_results   # chunk results joined (the registry interface)


# `troef play boerenbridge`: the decision interface (analyzer/boerenbridge_play.py)
PLAY_OPTIONS = [
    (("--players",), dict(type=int, default=4, show_default=True)),
    (("--trump-card",), dict(required=True, help="The turned card.")),
    (("--bids",), dict(required=True, help="Every bid by position, e.g. 1,0,2,3.")),
    (("--bid-model",), dict(default="soft", show_default=True,
                            help="How the others' bids are read (docs/inference.md): soft or exact.")),
]
PLAY_HELP = "Value of every legal card: P(making my bid) and expected score (Boerenbridge)."


def play(players, trump_card, bids, hand, position, history, samples, policy, worlds, variant, notation,
         seed, threads, bid_model="soft"):
    from ..boerenbridge_play import play_query
    from ..stats_core import check_worlds
    return play_query(players, hand, trump_card, position, bids, history, samples, policy,
                      check_worlds(worlds), seed, threads, notation, variant,
                      bid_model=bid_model)

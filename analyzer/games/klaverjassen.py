"""Klaverjassen in the registry: set-up, run, tidy frame, metadata, records, summary.

Rules: docs/rules.md (Klaverjassen, Rotterdam with variants); engine:
:mod:`fastsim.klaverjassen`.
"""
import numpy as np

from . import (concat_results, deal_row_blocks, frame_columns, lazy_engine, run_metadata,
               tidy_frame)
from . import policy_names  # noqa: F401 (the entry's interface)

from fastsim.klaverjassen_schema import PIMC_WORLDS, PLAYERS, POLICIES as _POLICIES, RulesError

kj = lazy_engine("fastsim.klaverjassen")   # the engine, imported on first use

NAME = "klaverjassen"
TITLE = "Klaverjassen"
POLICIES = tuple(_POLICIES)
OPTIONS = {"trump", "playing_team", "variant", "dealer"}
UNITS = {"deals": "deal", "games": "boompje"}
DEFAULT_COUNT = {"deal": 100_000, "boompje": 1000}
TOURNAMENT_DEFAULT = {"deal": 2000, "boompje": 200}
STREAMS = True
USER_POLICIES = True      # PATH.py:FUNCTION seats (analyzer/agents.py)
TEAM_GAME = True


class Setup:
    """The rules plus the run's shape: single deals (trump called, or fixed with a playing
    team) or whole 16-deal boompjes."""

    def __init__(self, rules, boompje=False, trump=None, playing_team=0):
        self.rules = rules
        self.boompje = bool(boompje)
        self.trump = trump
        self.playing_team = int(playing_team)
        self.unit = "boompje" if boompje else "deal"

    players = PLAYERS

    @property
    def deals_per_unit(self):
        return None if self.boompje else 1     # a boompje's length varies

    def _key(self):
        return (self.rules, self.boompje, self.trump, self.playing_team)

    def __eq__(self, other):
        return isinstance(other, Setup) and self._key() == other._key()

    def __reduce__(self):
        return (Setup, self._key())


def make_setup(unit="deal", trump=None, playing_team=None, variant=(), dealer=0):
    from fastsim.cards import parse_suit
    rules = kj.build_rules(variant, first_dealer=dealer)
    t = None if trump is None else (parse_suit(trump) if isinstance(trump, str) else int(trump))
    if unit == "boompje" and t is not None:
        raise RulesError("a boompje calls trump every deal; --trump is for single deals")
    team = 0 if playing_team is None else playing_team
    if isinstance(team, bool) or team not in (0, 1):
        raise RulesError(f"the playing team is 0 (seats 0+2) or 1 (seats 1+3), got {team!r}")
    if playing_team is not None and t is None:
        raise RulesError("--playing-team goes with --trump (a fixed trump)")
    return Setup(rules, unit == "boompje", t, team)


def parse_policies(setup, policy="heuristic", seat_policy=()):
    from .. import agents   # built-in names, or PATH.py:FUNCTION (a policy of your own)
    return agents.parse_policies(kj.parse_seat_policies, PLAYERS, policy, seat_policy)


def simulate(setup, n, seed=0, policies=None, start=0, threads=None, record=False,
             worlds=PIMC_WORLDS):
    from .. import agents
    if agents.has_user(policies):     # a policy of your own: the step-by-step driver
        return agents.simulate_klaverjassen(
            setup.rules, n, seed=seed, policies=policies, boompje=setup.boompje,
            trump=setup.trump, playing_team=setup.playing_team, game_start=start,
            record=record, worlds=worlds, threads=threads)
    return kj.simulate(setup.rules, n, seed=seed, policies=policies, boompje=setup.boompje,
                       trump=setup.trump, playing_team=setup.playing_team, threads=threads,
                       game_start=start, record=record, worlds=worlds)


def tidy(result):
    return tidy_frame(NAME, result)


def columns(result):
    """The tidy table's columns as arrays (built into Arrow without pandas); ``None`` (the
    frame's path, which names the policy) when a seat plays strong."""
    from fastsim.klaverjassen_schema import POLICY_STRONG
    if (np.asarray(result.policies).astype(np.int64) == POLICY_STRONG).any():
        return None
    return frame_columns(NAME, result)


# columns() (or the frame) runs numpy and serial nogil kernels only: a streamed run may
# build the table in its encoding threads while the next chunk plays
COLUMNS_ANY_THREAD = True


def row_blocks(result, max_rows):
    """The tidy table in row groups of whole deals (:func:`analyzer.games.deal_row_blocks`)."""
    return deal_row_blocks(result, max_rows, PLAYERS)


def metadata(result):
    r = result.rules
    return run_metadata(NAME, PLAYERS, result, boompje=result.boompje,
                        fixed_trump=result.fixed_trump, fixed_team=result.fixed_team,
                        amsterdam=r.amsterdam, undertrump_forced=r.undertrump_forced,
                        all_100=r.all_100)


def records(result, notation="en"):
    from ..records import klaverjassen_records
    return klaverjassen_records(result, notation=notation)


# ---------------------------------------------------------------- summary

def partials(result):
    """Per team: deals played, score, nat, pit and roem sums; per caller position: deals
    called and the playing team's score sum; for boompjes the outright and shared wins."""
    d = result.deals
    n = len(d["deal"])
    team = d["playing_team"].astype(np.int64)
    ts = d["team_scores"].astype(np.int64)
    p = {"deals": int(n),
         "plays": [int((team == t).sum()) for t in range(2)],
         "score": [int(ts[:, t].sum()) for t in range(2)],
         "nat": [int(d["nat"][team == t].sum()) for t in range(2)],
         "pit": [int((d["pit"] == t).sum()) for t in range(2)],
         "roem": [int(d["roem"][:, t].astype(np.int64).sum()) for t in range(2)]}
    if n and (d["caller"] >= 0).any():
        cpos = (d["caller"].astype(np.int64) - d["dealer"].astype(np.int64) - 1) % 4
    else:
        cpos = np.full(n, -1)
    playing = ts[np.arange(n), team] if n else np.zeros(0, dtype=np.int64)
    p["called"] = [int((cpos == q).sum()) for q in range(4)]
    p["called_score"] = [int(playing[cpos == q].sum()) for q in range(4)]
    g = result.games
    if result.boompje:
        w = g["winners"].astype(bool)
        shared = w.all(axis=1)
        p["boompjes"] = {"games": int(len(g["n_deals"])),
                         "won": [int((w[:, t] & ~shared).sum()) for t in range(2)],
                         "shared": int(shared.sum()),
                         "deals": int(g["n_deals"].astype(np.int64).sum())}
    return p


def empty_partials(setup):
    p = {"deals": 0, "plays": [0, 0], "score": [0, 0], "nat": [0, 0], "pit": [0, 0],
         "roem": [0, 0], "called": [0] * 4, "called_score": [0] * 4}
    if setup.boompje:
        p["boompjes"] = {"games": 0, "won": [0, 0], "shared": 0, "deals": 0}
    return p


def summarize(s, setup):
    n = s["deals"]
    out = {"game": NAME, "players": PLAYERS, "deals": n, "teams": [], "positions": []}
    for t in range(2):
        out["teams"].append({
            "team": t, "seats": f"{t}+{t + 2}",
            "play_rate": s["plays"][t] / n if n else 0.0,
            "mean_score": s["score"][t] / n if n else 0.0,
            "nat_rate": s["nat"][t] / s["plays"][t] if s["plays"][t] else 0.0,
            "pit_rate": s["pit"][t] / n if n else 0.0,
            "mean_roem": s["roem"][t] / n if n else 0.0})
    for q in range(4):
        c = s["called"][q]
        out["positions"].append({"position": q, "play_rate": c / n if n else 0.0,
                                 "mean_score_playing": s["called_score"][q] / c if c else 0.0})
    if setup.boompje:
        g = s["boompjes"]
        k = g["games"]
        out["boompjes"] = {"games": k, "win_rate": [w / k if k else 0.0 for w in g["won"]],
                           "shared": g["shared"] / k if k else 0.0,
                           "mean_deals": g["deals"] / k if k else 0.0}
    return out


def describe(setup, n):
    from fastsim.cards import SUITS
    v = "".join(", " + k for k in setup.rules.variants)
    what = f"{n:,} boompjes" if setup.boompje else f"{n:,} deals"
    fixed = (f"; trump fixed {SUITS[setup.trump]}, team {setup.playing_team} plays"
             if setup.trump is not None else "")
    return f"{TITLE} (Rotterdam{v}): {what}{fixed}"


def render(p):
    lines = ["team  seats  plays   mean score  nat rate  pit rate  mean roem"]
    for e in p["teams"]:
        lines.append(f"{e['team']:<5} {e['seats']:<6} {e['play_rate']:>5.1%}  "
                     f"{e['mean_score']:>11.2f}  {e['nat_rate']:>8.1%}  {e['pit_rate']:>8.1%}  "
                     f"{e['mean_roem']:>9.2f}")
    lines += ["", "position (0 names first and leads)   plays   mean score when playing"]
    for e in p["positions"]:
        lines.append(f"{e['position']:<36} {e['play_rate']:>6.1%}   "
                     f"{e['mean_score_playing']:>10.2f}")
    if "boompjes" in p:
        g = p["boompjes"]
        lines += ["", f"boompjes won: team 0 {g['win_rate'][0]:.1%}, team 1 "
                      f"{g['win_rate'][1]:.1%} (shared {g['shared']:.2%}); mean deals "
                      f"{g['mean_deals']:.2f}"]
    return lines


# ---------------------------------------------------------------- tournaments, statistics

def seat_scores(result, whole):
    t = (result.games["totals"] if whole else result.deals["team_scores"]).astype(np.float64)
    return t[:, [0, 1, 0, 1]]


def tournament_setup(whole, variant=()):
    return make_setup("boompje" if whole else "deal", variant=variant)


# the columns its statistics read (plus --feature): nothing else is loaded
STATS_COLUMNS = ("caller", "margin", "nat", "pit", "position", "seat", "deal", "roem", "game_index", "team", "team_score")
STATS = ("trump_value", "nat_pit", "roem", "position", "matches")


def STATS_ROWS():
    """The rows the statistics use: the caller's (trump value, nat/pit, position) and the
    first two seats, one per team (roem, deal counts, matches) — the rest is not read."""
    import pyarrow.dataset as pads
    return pads.field("caller") | (pads.field("seat") < 2)
DEFAULT_FEATURE = "trump_count"


def stats(df, which, by, feature):
    from .. import klaverjassen_stats
    f = DEFAULT_FEATURE if feature is None else feature
    if f not in df.columns:
        raise ValueError(f"unknown feature {f!r}")
    return klaverjassen_stats.all_stats(df, which or STATS, feature=f)


REPORT = "reports.klaverjassen"


def tiny_setup():
    """A small set-up for warming the kernels (Dask workers, `make setup`)."""
    return make_setup("deal")


CLI_OPTIONS = [
    (("--trump",), dict(default=None, help="Fix trump (S H D C) instead of calling it (single deals).")),
    (("--playing-team",), dict(type=int, default=None, help="With --trump: 0 (seats 0+2, default) or 1.")),
    (("--variant",), dict(multiple=True, metavar="NAME[=VALUE]", help="amsterdam, undertrump=forced, four_of_a_kind=all_100.")),
]
GAMES_OPTION = ("--games",)


concat = concat_results   # chunk results joined (the registry interface)


# `troef play klaverjassen`: the decision interface (analyzer/klaverjassen_play.py)
PLAY_OPTIONS = [
    (("--trump",), dict(required=True, help="Trump suit.")),
    (("--caller",), dict(type=int, required=True, help="The position that named trump (its team plays).")),
    (("--forced",), dict(is_flag=True, help="Everyone passed and position 0 had to name trump (--caller 0); the strong policy conditions on the calling round.")),
]
PLAY_HELP = "Expected team margin and P(the playing team makes it) of every legal card (Klaverjassen)."


def play(trump, caller, hand, position, history, samples, policy, worlds, variant, notation,
         seed, threads, forced=False):
    from ..klaverjassen_play import play_query
    from ..stats_core import check_worlds
    return play_query(hand, trump, caller, position, history, samples, policy,
                      check_worlds(worlds), seed, threads, notation, variant, forced=forced)

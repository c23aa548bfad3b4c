"""Bonken in the registry: set-up, run, tidy frame, metadata, records, summary.

Rules: docs/rules.md (Bonken); engine: :mod:`fastsim.bonken`.
"""
import numpy as np

from . import (concat_results, deal_row_blocks, frame_functions, lazy_engine, run_metadata,
               seat_lines)
from . import policy_names  # noqa: F401 (the entry's interface)

from fastsim.bonken_schema import (CONTRACTS, DOMINO, PIMC_WORLDS, POLICIES as _POLICIES,
                                   ROUNDS, RulesError, contract_id)

bk = lazy_engine("fastsim.bonken")   # the engine, imported on first use

NAME = "bonken"
TITLE = "Bonken"
POLICIES = tuple(_POLICIES)
OPTIONS = {"contract", "variant", "dealer"}
UNITS = {"deals": "deal", "games": "game"}
DEFAULT_COUNT = {"deal": 100_000, "game": 1000}
TOURNAMENT_DEFAULT = {"game": 200}
STREAMS = True
USER_POLICIES = True      # PATH.py:FUNCTION seats (analyzer/agents.py)
PLAYERS = 4


class Setup:
    """The rules plus the run's shape: rounds of one contract, or whole 11-round games."""

    def __init__(self, rules, contract=None):
        self.rules = rules
        self.contract = contract          # contract id, None = whole games
        self.unit = "game" if contract is None else "deal"

    players = PLAYERS

    @property
    def plan(self):
        return bk.game_plan(self.rules) if self.contract is None else (self.contract,)

    @property
    def deals_per_unit(self):
        return len(self.plan)

    def __eq__(self, other):
        return isinstance(other, Setup) and (self.rules, self.contract) == (other.rules,
                                                                            other.contract)

    def __reduce__(self):
        return (Setup, (self.rules, self.contract))


def make_setup(unit="game", contract=None, variant=(), dealer=0):
    rules = bk.build_rules(variant, first_dealer=dealer)
    if unit == "deal":
        if contract is None:
            raise RulesError("single rounds need --contract; whole games use --games")
        return Setup(rules, contract_id(contract))
    if contract is not None:
        raise RulesError("--games plays whole games; with --contract use --deals")
    return Setup(rules, None)


def parse_policies(setup, policy="heuristic", seat_policy=()):
    from .. import agents   # built-in names, or PATH.py:FUNCTION (a policy of your own)
    return agents.parse_policies(bk.parse_seat_policies, 4, policy, seat_policy)


def simulate(setup, n, seed=0, policies=None, start=0, threads=None, record=False,
             worlds=PIMC_WORLDS):
    from .. import agents
    if agents.has_user(policies):     # a policy of your own: the step-by-step driver
        return agents.simulate_bonken(setup.rules, n, seed=seed, policies=policies,
                                      contract=setup.contract, game_start=start,
                                      record=record, worlds=worlds, threads=threads)
    return bk.simulate(setup.rules, n, seed=seed, policies=policies, contract=setup.contract,
                       threads=threads, game_start=start, record=record, worlds=worlds)


tidy, columns = frame_functions(NAME)
# columns() runs serial nogil kernels only (fastsim.features_nb): a streamed run may build
# the table in its encoding threads while the next chunk plays
COLUMNS_ANY_THREAD = True


def row_blocks(result, max_rows):
    """The tidy table in row groups of whole deals (:func:`analyzer.games.deal_row_blocks`)."""
    return deal_row_blocks(result, max_rows, PLAYERS)


def metadata(result):
    r = result.rules
    return run_metadata(NAME, PLAYERS, result,
                        plan=[CONTRACTS[c] if c >= 0 else "chosen" for c in result.plan],
                        hearts_after_broken=r.hearts_after_broken, fixed_order=r.fixed_order)


def records(result, notation="en"):
    from ..records import bonken_records
    return bonken_records(result, notation=notation)


# ---------------------------------------------------------------- summary

def partials(result):
    """Per contract and position: rounds, score and trick sums, Domino losers; per seat
    the game totals and win counts by number of co-winners. The deal sums in one
    compiled pass (:func:`fastsim.features_nb.bonken_sums_nb`), integers throughout."""
    from fastsim.features_nb import bonken_sums_nb, seat_sums_nb
    d = result.deals
    rounds, score, tricks, losers = bonken_sums_nb(d["dealer"], d["contract"], d["scores"],
                                                   d["tricks"], d["loser"], len(CONTRACTS))
    p = {"deals": int(len(d["deal"])), "rounds": rounds.tolist(), "score": score.tolist(),
         "tricks": tricks.tolist(), "losers": losers.tolist()}
    g = result.games
    total, _, wins = seat_sums_nb(g["totals"], g["totals"], g["winners"])
    p["games"] = int(g["totals"].shape[0])
    p["total"] = total.tolist()
    p["wins"] = wins.tolist()
    return p


def empty_partials(setup):
    C, z = len(CONTRACTS), [0] * PLAYERS
    return {"deals": 0, "rounds": [0] * C, "score": [z] * C, "tricks": [z] * C, "losers": z,
            "games": 0, "total": z, "wins": [z] * PLAYERS}


def summarize(s, setup):
    from . import win_share
    contracts = []
    for c in range(len(CONTRACTS)):
        n = s["rounds"][c]
        if not n:
            continue
        e = {"contract": CONTRACTS[c], "n": n, "positions": []}
        for q in range(PLAYERS):
            pe = {"position": q, "mean_score": s["score"][c][q] / n,
                  "mean_tricks": s["tricks"][c][q] / n}
            if c == DOMINO:
                pe["loser_rate"] = s["losers"][q] / n
            e["positions"].append(pe)
        contracts.append(e)
    out = {"game": NAME, "players": PLAYERS, "deals": s["deals"], "contracts": contracts}
    if setup.unit == "game":
        g = s["games"]
        share = win_share(s["wins"])
        out["games"] = g
        out["seats"] = [{"seat": q, "policy": None, "mean_total": s["total"][q] / g if g else None,
                         "win_rate": float(share[q] / g) if g else None} for q in range(PLAYERS)]
    else:
        out["contract"] = CONTRACTS[setup.contract]
    return out


def describe(setup, n):
    what = (f"{n:,} rounds of {CONTRACTS[setup.contract]}" if setup.unit == "deal"
            else f"{n:,} games of {ROUNDS} rounds")
    return f"{TITLE}: {what}"


def render(p):
    lines = ["mean score by position (0 leads, 1 chooses, 3 deals)",
             "contract              rounds       pos 0    pos 1    pos 2    pos 3"]
    for e in p["contracts"]:
        sc = "".join(f"{q['mean_score']:>9.2f}" for q in e["positions"])
        lines.append(f"{e['contract']:<20} {e['n']:>7,}  {sc}")
        if e["contract"] == "domino":
            lr = "".join(f"{q['loser_rate']:>9.1%}" for q in e["positions"])
            lines.append(f"{'  domino loser rate':<20} {'':>7}  {lr}")
    return lines + seat_lines(p)


# ---------------------------------------------------------------- tournaments, statistics

def seat_scores(result, whole):
    return result.games["totals"].astype(np.float64)


def tournament_setup(whole, variant=()):
    """Bonken is compared over whole games: every seat chooses in turn."""
    if not whole:
        raise RulesError("bonken tournaments are played over whole games of 12 deals "
                         "(--games)")
    return make_setup("game", variant=variant)


# the columns its statistics read (plus --feature): nothing else is loaded
STATS_COLUMNS = ("contract", "score", "chooser", "position", "domino_loser", "strength")
STATS = ("contract_score", "chooser", "domino")
DEFAULT_FEATURE = "strength_band"


def stats(df, which, by, feature):
    from .. import bonken_stats
    f = DEFAULT_FEATURE if feature is None else feature
    if f != "strength_band" and f not in df.columns:
        raise ValueError(f"unknown feature {f!r}")
    return bonken_stats.all_stats(df, which or STATS, feature=f)


REPORT = "reports.bonken"


def tiny_setup():
    """A small set-up for warming the kernels (Dask workers, `make setup`)."""
    return make_setup("deal", contract="ducking")


CLI_OPTIONS = [
    (("--contract",), dict(default=None, help="Play single rounds of this contract (else whole games).")),
    (("--variant",), dict(multiple=True, metavar="NAME[=VALUE]", help="hearts_lead=after_broken, fixed_order.")),
]
GAMES_OPTION = ("--games",)
SINGLE_OPTION = "--contract"


concat = concat_results   # chunk results joined (the registry interface)


# `troef play bonken`: the decision interface (analyzer/bonken_play.py)
PLAY_OPTIONS = [
    (("--contract",), dict(required=True, help="The contract being played (domino: moves with pass).")),
    (("--available",), dict(default=None, help="The contracts the chooser (position 1) chose "
                            "from, e.g. ducking,no-queens,no-last: the worlds are then weighed "
                            "by its choice (not for domino).")),
]
PLAY_HELP = "Expected points of every legal card in the contract being played (Bonken)."


def play(contract, available, hand, position, history, samples, policy, worlds, variant,
         notation, seed, threads):
    from ..bonken_play import play_query
    from ..stats_core import check_worlds
    return play_query(contract, hand, position, history, samples, policy,
                      check_worlds(worlds), seed, threads, notation, variant,
                      available=available)

"""Boonaken in the registry: set-up, run, tidy frames, metadata, records, summary.

Rules: docs/rules.md (Boonaken, three presets); engine: :mod:`fastsim.boonaken`.
"""
import numpy as np

from . import concat_results, frame_columns, lazy_engine, policy_names, tidy_frame

from fastsim.boonaken_schema import (CONTRACTS, GAME, PIMC_WORLDS, POLICIES as _POLICIES,
                                     POLICY_NAMES, PRESETS, RulesError)

bo = lazy_engine("fastsim.boonaken")   # the engine, imported on first use

NAME = GAME
TITLE = "Boonaken"
POLICIES = tuple(_POLICIES)
OPTIONS = {"players", "preset", "dealer"}
UNITS = {"deals": "deal", "games": "match"}
DEFAULT_COUNT = {"deal": 100_000, "match": 1000}
TOURNAMENT_DEFAULT = {"deal": 2000}
STREAMS = True
USER_POLICIES = True      # PATH.py:FUNCTION seats (analyzer/agents.py, analyzer/boonaken_agents.py)


class Setup:
    """The rules (players, preset, first dealer) plus the run's shape: independent deals
    or whole matches."""

    def __init__(self, rules, matches=False):
        self.rules = rules
        self.matches = bool(matches)
        self.unit = "match" if matches else "deal"

    @property
    def players(self):
        return self.rules.players

    @property
    def deals_per_unit(self):
        return None if self.matches else 1

    def __eq__(self, other):
        return isinstance(other, Setup) and (self.rules, self.matches) == (other.rules,
                                                                           other.matches)

    def __reduce__(self):
        return (Setup, (self.rules, self.matches))


def make_setup(unit="deal", players=None, preset=None, dealer=0):
    rules = bo.build_rules(4 if players is None else players,
                           "seed" if preset is None else preset, first_dealer=dealer)
    return Setup(rules, unit == "match")


def parse_policies(setup, policy="heuristic", seat_policy=()):
    from .. import agents   # built-in names, or PATH.py:FUNCTION (a policy of your own)
    n = setup.players
    return agents.parse_policies(lambda d, rest: bo.parse_seat_policies(n, d, rest), n,
                                 policy, seat_policy)


def simulate(setup, n, seed=0, policies=None, start=0, threads=None, record=False,
             worlds=PIMC_WORLDS):
    from .. import agents
    user = agents.has_user(policies)    # a policy of your own: the step-by-step driver
    if user:
        from .. import boonaken_agents as ba
    if setup.matches:
        if record:
            raise RulesError("--record-play records single deals; use --deals")
        if user:
            return ba.simulate_boonaken_matches(setup.rules, n, seed=seed, policies=policies,
                                                start=start, worlds=worlds, threads=threads)
        return bo.simulate_matches(setup.rules, n, seed=seed, policies=policies, threads=threads,
                                   start=start, worlds=worlds)
    if user:
        return ba.simulate_boonaken(setup.rules, n, seed=seed, policies=policies, start=start,
                                    record=record, worlds=worlds, threads=threads)
    return bo.simulate(setup.rules, n, seed=seed, policies=policies, threads=threads,
                       start=start, record=record, worlds=worlds)


def concat(results):
    return concat_results(results, ("deals", "play", "matches"))


def tidy(result):
    """The tidy frame; a run with a strong seat gets "strong" as one more policy category
    (analyzer.agents.tidy_named), so frames of runs without strong are unchanged."""
    if isinstance(result, bo.MatchResult):
        from ..agents import tidy_named
        return tidy_named(tidy_matches, result)
    return tidy_frame(GAME, result)


def columns(result):
    """Single deals' tidy columns as arrays (built into Arrow without pandas); None for
    whole matches (their frame is small)."""
    from fastsim.boonaken_schema import POLICY_STRONG
    pol = np.asarray(result.policies).astype(np.int64)
    if isinstance(result, bo.MatchResult) or (pol == POLICY_STRONG).any() or (pol >= 64).any():
        return None      # strong, a policy of your own: the frame's path names the policy
    return frame_columns(GAME, result)


# the tables run numpy and serial nogil kernels only: a streamed run may build them in its
# encoding threads while the next chunk plays
COLUMNS_ANY_THREAD = True


def row_blocks(result, max_rows):
    """Single deals' tidy table in row groups of whole deals (views of the deal arrays,
    each sub-result's ``start`` its first deal's global index); whole matches as one
    table (rows known once it is built: None)."""
    if isinstance(result, bo.MatchResult):
        return None, [result]
    from dataclasses import replace
    d = result.deals
    n = result.rules.players
    deals = len(d["info"])
    step = max(1, max_rows // n)
    parts = [replace(result, deals={k: v[a:a + step] for k, v in d.items()},
                     start=result.start + a) for a in range(0, max(deals, 1), step)]
    return deals * n, parts


def tidy_matches(mr):
    """Whole matches → one row per (match, seat): game, preset, players, match (global
    index), first_dealer, seat, position (0 = left of the match's first dealer), policy,
    deals (the match's length), won (this seat won the match; seed and pagat), status
    (leimuiden: 1 safe, −1 pays, 0 undecided), plus and walk (the seat's counters)."""
    import pandas as pd
    m = mr.matches
    n = mr.rules.players
    rows = len(m["deals"])
    seats = np.tile(np.arange(n, dtype=np.int8), rows)
    fd = np.repeat(m["first_dealer"], n)
    return pd.DataFrame({
        "game": pd.Categorical.from_codes(np.zeros(rows * n, dtype=np.int8), categories=[GAME]),
        "preset": pd.Categorical.from_codes(
            np.full(rows * n, PRESETS.index(mr.rules.preset), dtype=np.int8),
            categories=list(PRESETS)),
        "players": np.full(rows * n, n, dtype=np.int8),
        "match": np.repeat(np.arange(rows, dtype=np.int64) + mr.start, n),
        "first_dealer": fd.astype(np.int8),
        "seat": seats,
        "position": ((seats.astype(np.int64) - fd - 1) % n).astype(np.int8),
        "policy": pd.Categorical.from_codes(np.tile(mr.policies.astype(np.int64), rows),
                                            categories=[POLICY_NAMES[i] for i in sorted(POLICY_NAMES)]),
        "deals": np.repeat(m["deals"], n).astype(np.int32),
        "won": np.repeat(m["winner"], n) == seats,
        "status": m["status"].ravel().astype(np.int8),
        "plus": m["plus"].ravel().astype(np.int16),
        "walk": m["walk"].ravel().astype(np.int16),
    })


def metadata(result):
    r = result.rules
    meta = {"game": GAME, "players": r.players, "preset": r.preset,
            "first_dealer": r.first_dealer, "seed": result.seed,
            "policies": policy_names(result.policies)}
    if isinstance(result, bo.MatchResult):
        meta["matches"] = True
    return meta


def records(result, notation="en"):
    from ..records import boonaken_records
    return boonaken_records(result, notation=notation)


# ---------------------------------------------------------------- summary

def partials(result):
    if isinstance(result, bo.MatchResult):
        return _match_partials(result)
    from fastsim import boonaken_nb as bnb
    d = result.deals
    info = d["info"]
    n = result.rules.players
    played = info[:, bnb.I_VOID] == 0
    res = d["result"]
    p = {"deals": int(len(info)), "played": int(played.sum()), "contract_deals": [],
         "made": [], "tried": [], "bid": 0}
    for c in range(len(CONTRACTS)):
        m = played & (info[:, bnb.I_CONTRACT] == c)
        decl = res[m]
        p["contract_deals"].append(int(m.sum()))
        p["made"].append(int((decl == 1).sum()))
        p["tried"].append(int((decl >= 0).sum()))
        if c == 0:
            p["bid"] = int(info[m, bnb.I_BID].sum())
    dealer = result.rules.first_dealer
    p["declared"], p["declared_made"] = [], []
    for q in range(n):
        s = (dealer + 1 + q) % n
        tried = res[played, s] >= 0
        p["declared"].append(int(tried.sum()))
        p["declared_made"].append(int((res[played, s][tried] == 1).sum()))
    return p


def _match_partials(mr):
    m = mr.matches
    n = mr.rules.players
    p = {"deals": int(m["deals"].sum()), "matches": int(len(m["deals"])),
         "safe": [], "pays": [], "undecided": [], "wins": []}
    idx = np.arange(len(m["deals"]))
    for q in range(n):
        seat = (m["first_dealer"] + 1 + q) % n
        st = m["status"][idx, seat]
        p["safe"].append(int((st == 1).sum()))
        p["pays"].append(int((st == -1).sum()))
        p["undecided"].append(int((st == 0).sum()))
        p["wins"].append(int((m["winner"] == seat).sum()))
    return p


def empty_partials(setup):
    n = setup.players
    if setup.matches:
        return {"deals": 0, "matches": 0, "safe": [0] * n, "pays": [0] * n,
                "undecided": [0] * n, "wins": [0] * n}
    C = len(CONTRACTS)
    return {"deals": 0, "played": 0, "contract_deals": [0] * C, "made": [0] * C,
            "tried": [0] * C, "bid": 0, "declared": [0] * n, "declared_made": [0] * n}


def summarize(s, setup):
    r = setup.rules
    n = r.players
    if setup.matches:
        k = s["matches"]
        out = {"game": GAME, "players": n, "preset": r.preset, "matches": k,
               "mean_deals": s["deals"] / k if k else 0.0, "positions": []}
        for q in range(n):
            e = {"position": q}
            if r.preset == "leimuiden":
                e.update({"safe_rate": s["safe"][q] / k if k else 0.0,
                          "pays_rate": s["pays"][q] / k if k else 0.0,
                          "undecided_rate": s["undecided"][q] / k if k else 0.0})
            else:
                e["win_rate"] = s["wins"][q] / k if k else 0.0
            out["positions"].append(e)
        return out
    total, played = s["deals"], s["played"]
    out = {"game": GAME, "players": n, "preset": r.preset, "deals": total,
           "void_rate": (total - played) / total if total else 0.0,
           "contracts": [], "positions": []}
    for c, name in enumerate(CONTRACTS):
        m = s["contract_deals"][c]
        out["contracts"].append({"contract": name, "deals": m,
                                 "made_rate": s["made"][c] / s["tried"][c] if s["tried"][c] else None,
                                 "mean_bid": s["bid"] / m if (c == 0 and m) else None})
    for q in range(n):
        tried = s["declared"][q]
        out["positions"].append({"position": q, "seat": (r.first_dealer + 1 + q) % n,
                                 "declare_rate": tried / played if played else 0.0,
                                 "made_rate": s["declared_made"][q] / tried if tried else None})
    return out


def describe(setup, n):
    r = setup.rules
    return (f"{TITLE} ({r.preset}), {r.players} players: "
            + (f"{n:,} matches" if setup.matches else f"{n:,} deals"))


def render(p):
    if "matches" in p:
        lines = [f"mean deals per match {p['mean_deals']:.2f}", ""]
        if p["preset"] == "leimuiden":
            lines.append("position of the first dealer's left   safe     pays   undecided")
            for e in p["positions"]:
                lines.append(f"{e['position']:<37} {e['safe_rate']:>6.1%}  {e['pays_rate']:>6.1%}"
                             f"  {e['undecided_rate']:>9.1%}")
        else:
            lines.append("position (0 = left of the first dealer)   match wins")
            for e in p["positions"]:
                lines.append(f"{e['position']:<41} {e['win_rate']:>9.1%}")
        return lines
    lines = [f"all passed in {p['void_rate']:.1%}", "", "contract   deals      made"]
    for e in p["contracts"]:
        made = "-" if e["made_rate"] is None else f"{e['made_rate']:.1%}"
        lines.append(f"{e['contract']:<10} {e['deals']:>7,}  {made:>8}")
    lines += ["", "position   declares   makes it"]
    for e in p["positions"]:
        made = "-" if e["made_rate"] is None else f"{e['made_rate']:.1%}"
        lines.append(f"{e['position']:<10} {e['declare_rate']:>8.1%}  {made:>9}")
    return lines


# ---------------------------------------------------------------- tournaments, statistics

def seat_scores(result, whole):
    res = result.deals["result"]
    return np.where(res < 0, 0, np.where(res == 1, 1, -1)).astype(np.float64)


def tournament_setup(whole, players=None, preset=None):
    if whole:
        raise RulesError("boonaken tournaments are played over deals (--deals)")
    return make_setup("deal", players=players, preset=preset)


# the columns its statistics read (plus --feature): nothing else is loaded
STATS_COLUMNS = ("declarer", "contract", "made", "bid", "hand_points", "match")
STATS = ("make_rate", "special", "hand_points")
DEFAULT_FEATURE = None


def stats(df, which, by, feature):
    from .. import boonaken_stats
    if feature is not None:
        raise ValueError("--feature does not apply to boonaken statistics")
    if "match" in df.columns:
        raise ValueError("boonaken statistics are computed from deals; this file holds "
                         "whole matches")
    return boonaken_stats.all_stats(df, which or STATS)


REPORT = "reports.boonaken"


def tiny_setup():
    """A small set-up for warming the kernels (Dask workers, `make setup`)."""
    return make_setup("deal")


CLI_OPTIONS = [
    (("--players",), dict(type=int, default=None, help="2-5 (default 4).")),
    (("--preset",), dict(default=None, help="seed (default), pagat or leimuiden.")),
]
GAMES_OPTION = ("--matches", "--games")


# `troef play boonaken`: the decision interface (analyzer/boonaken_play.py)
PLAY_OPTIONS = [
    (("--players",), dict(type=int, default=4, show_default=True, help="2-5.")),
    (("--preset",), dict(default="seed", show_default=True, help="seed, pagat or leimuiden.")),
    (("--declarer",), dict(type=int, required=True, help="The declarer's position (a misère: its first bidder); it leads the first trick.")),
    (("--contract",), dict(required=True, help="A point bid (25..380), misere, zwabber or boonaak.")),
    (("--trump",), dict(default=None, help="Trump suit; 'first' = not named, the declarer's first card decides; none for zwabber and a joined misère.")),
    (("--open", "open_cards"), dict(required=True, help="The face-up table cards as dealt.")),
    (("--taken",), dict(default="", help="seed preset: the face-up cards the declarer took (the rest lie out of play).")),
    (("--joiners",), dict(default="", help="Positions that joined the misère, e.g. 1,3.")),
    (("--drawn",), dict(default="", help="seed preset: the cards I drew after each trick, in order.")),
    (("--discarded",), dict(default="", help="The declarer only: the cards I put away.")),
    (("--roem",), dict(type=int, default=None, help="The declarer's counted roem (seed: the meld that stood at the first trick).")),
    (("--auction",), dict(default=None, help="The whole auction in bidding order from position 0, e.g. 'pass 60 pass 70 pass' or '0:pass 1:60 2:pass 3:70 1:pass'; calls: pass, a point bid, misere (a join while a misère stands), zwabber, boonaak. The worlds are then weighed by it (docs/play_query.md).")),
]
PLAY_HELP = ("P(contract made), the declarer's expected points and my expected mark of every "
             "legal card (Boonaken).")


def play(players, preset, declarer, contract, trump, open_cards, taken, joiners, drawn,
         discarded, roem, hand, position, history, samples, policy, worlds, variant, notation,
         seed, threads, auction=None):
    from ..boonaken_play import play_query
    from ..stats_core import check_worlds
    if variant:
        raise RulesError("boonaken has no --variant; choose the rules with --preset")
    return play_query(players, preset, hand, position, declarer, contract, trump, open_cards,
                      taken, history, joiners, drawn, discarded, roem, samples, policy,
                      check_worlds(worlds), seed, threads, notation, auction=auction)

"""Klaverjassen: the thin Python front of :mod:`fastsim.klaverjassen_nb`."""
from dataclasses import dataclass

import numpy as np

from . import klaverjassen_nb as nb
from .klaverjassen_schema import (DEAL_COLUMNS, GAME_COLUMNS, GAME_DEALS, MAX_GAME_DEALS,
                                  PIMC_WORLDS, PLAYERS, Rules, RulesError, build_rules,
                                  parse_seat_policies)
from .common import SimResult, auto_chunk, check_run, set_threads
from .rng import check_seed

DEFAULT_CHUNK = 256


@dataclass(kw_only=True)
class Result(SimResult):
    boompje: bool
    fixed_trump: int     # -1: called
    fixed_team: int
    games: dict


def simulate(rules, n, seed=0, policies=None, boompje=False, trump=None, playing_team=0,
             threads=None, chunk=None, game_start=0, record=False, worlds=PIMC_WORLDS):
    """``n`` independent deals (``boompje=False``) or ``n`` 16-deal games. ``trump``: a
    suit index to fix trump (no calling) with ``playing_team`` playing."""
    policies = check_run(rules, Rules, policies, parse_seat_policies, n)
    seed_u = check_seed(seed)
    if trump is not None and not 0 <= trump < 4:
        raise RulesError("trump must be a suit 0..3")
    if playing_team not in (0, 1):
        raise RulesError("the playing team is 0 (seats 0+2) or 1 (seats 1+3)")
    if boompje and trump is not None:
        raise RulesError("a boompje calls trump every deal; --trump is for single deals")
    set_threads(threads)
    if chunk is None:
        chunk = auto_chunk(n, DEFAULT_CHUNK, threads)
    width = MAX_GAME_DEALS if boompje else 1
    rows = n * width
    deals = {}
    for name, (dtype, kind) in DEAL_COLUMNS.items():
        shape = rows if not kind else (rows, 2 if kind == "team" else PLAYERS)
        deals[name] = np.zeros(shape, dtype=dtype)
    games = {name: np.zeros((n, w) if w else n, dtype=dt) for name, (dt, w) in GAME_COLUMNS.items()}
    valid = np.zeros(rows, dtype=np.bool_)
    if record:
        play = {"calls": np.full((rows, 5), -1, dtype=np.int8),
                "n_calls": np.zeros(rows, dtype=np.int8),
                "cards": np.full((rows, 8, 4), -1, dtype=np.int8),
                "leader": np.full((rows, 8), -1, dtype=np.int8),
                "winner": np.full((rows, 8), -1, dtype=np.int8),
                "points": np.zeros((rows, 8), dtype=np.int16),
                "roem": np.zeros((rows, 8), dtype=np.int16)}
    else:
        play = {"calls": np.zeros((1, 5), dtype=np.int8), "n_calls": np.zeros(1, dtype=np.int8),
                "cards": np.zeros((1, 8, 4), dtype=np.int8), "leader": np.zeros((1, 8), dtype=np.int8),
                "winner": np.zeros((1, 8), dtype=np.int8), "points": np.zeros((1, 8), dtype=np.int16),
                "roem": np.zeros((1, 8), dtype=np.int16)}
    if n:
        nb.run_deals_nb(
            seed_u, np.int64(n), GAME_DEALS if boompje else 1, rules.first_dealer, policies,
            -1 if trump is None else int(trump), int(playing_team), rules.flags,
            np.int64(worlds), np.int64(game_start), np.int64(chunk),
            valid, deals["deal"], deals["game"], deals["deal_no"], deals["dealer"],
            deals["trump"], deals["playing_team"], deals["caller"], deals["forced"],
            deals["nat"], deals["pit"], deals["hands"], deals["tricks"], deals["card_points"],
            deals["roem"], deals["team_scores"], games["totals"], games["n_deals"],
            games["winners"], record, play["calls"], play["n_calls"], play["cards"],
            play["leader"], play["winner"], play["points"], play["roem"])
    if boompje:
        deals = {k: v[valid] for k, v in deals.items()}
        if record:
            play = {k: v[valid] for k, v in play.items()}
    return Result(rules=rules, policies=policies, seed=int(seed), boompje=boompje,
                  fixed_trump=-1 if trump is None else int(trump), fixed_team=int(playing_team),
                  deals=deals, games=games, play=play if record else None)


__all__ = ["Result", "simulate", "build_rules", "parse_seat_policies", "RulesError"]

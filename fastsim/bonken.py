"""Bonken: the thin Python front of the compiled engine (:mod:`fastsim.bonken_nb`)."""
from dataclasses import dataclass

import numpy as np

from . import bonken_nb as nb
from .bonken_schema import (DEAL_COLUMNS, GAME_COLUMNS, MAX_TURNS, PIMC_WORLDS, PLAYERS, ROUNDS, Rules,
                            RulesError, build_rules, contract_id, parse_seat_policies)
from .common import SimResult, auto_chunk, check_run, set_threads
from .rng import check_seed

DEFAULT_CHUNK = 512


@dataclass(kw_only=True)
class Result(SimResult):
    plan: tuple          # contract id per round, -1 = chosen
    games: dict


def game_plan(rules):
    """Contract per round of a whole game: -1 (chosen) or the fixed order."""
    if rules.fixed_order:
        return tuple(range(ROUNDS))
    return (-1,) * ROUNDS


def simulate(rules, n_games, seed=0, policies=None, contract=None, threads=None,
             chunk=None, game_start=0, record=False, worlds=PIMC_WORLDS):
    """Whole games (``contract=None``) or single rounds of one contract (id or name)."""
    policies = check_run(rules, Rules, policies, parse_seat_policies, n_games)
    seed_u = check_seed(seed)
    if contract is None:
        plan = game_plan(rules)
    else:
        plan = (contract_id(contract) if not isinstance(contract, (int, np.integer)) else int(contract),)
    set_threads(threads)
    if chunk is None:
        chunk = auto_chunk(n_games, DEFAULT_CHUNK, threads)
    K = len(plan)
    rows = n_games * K
    deals = {name: np.zeros((rows, PLAYERS) if per_seat else rows, dtype=dtype)
             for name, (dtype, per_seat) in DEAL_COLUMNS.items()}
    games = {name: np.zeros((n_games, PLAYERS), dtype=dtype) for name, dtype in GAME_COLUMNS.items()}
    if record:
        play = {"cards": np.full((rows, 13, 4), -1, dtype=np.int8),
                "leader": np.full((rows, 13), -1, dtype=np.int8),
                "winner": np.full((rows, 13), -1, dtype=np.int8),
                "moves": np.full((rows, MAX_TURNS, 2), -1, dtype=np.int8),
                "n_moves": np.zeros(rows, dtype=np.int16),
                "out": np.full((rows, 3), -1, dtype=np.int8)}
    else:
        play = {"cards": np.zeros((1, 1, 1), dtype=np.int8),
                "leader": np.zeros((1, 1), dtype=np.int8),
                "winner": np.zeros((1, 1), dtype=np.int8),
                "moves": np.zeros((1, 1, 2), dtype=np.int8),
                "n_moves": np.zeros(1, dtype=np.int16),
                "out": np.zeros((1, 1), dtype=np.int8)}
    if n_games:
        nb.run_games_nb(seed_u, np.asarray(plan, dtype=np.int64), rules.first_dealer, policies,
                        rules.flags, np.int64(worlds), np.int64(game_start),
                        np.int64(n_games),
                        np.int64(chunk), deals["deal"], deals["game"], deals["round"],
                        deals["dealer"], deals["contract"], deals["n_tricks"], deals["loser"],
                        deals["hands"], deals["tricks"], deals["scores"], games["totals"],
                        games["winners"], record, play["cards"], play["leader"],
                        play["winner"], play["moves"], play["n_moves"], play["out"])
    return Result(rules=rules, policies=policies, seed=int(seed), plan=plan, deals=deals,
                  games=games, play=play if record else None)


__all__ = ["Result", "simulate", "build_rules", "parse_seat_policies", "game_plan", "RulesError"]

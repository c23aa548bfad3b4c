"""Boerenbridge: the thin Python front of the compiled engine.

Validates the set-up (:func:`fastsim.boerenbridge_schema.build_rules`), allocates the
result arrays of the schema and runs :func:`fastsim.boerenbridge_nb.games_chunk_nb` over the
chunks on parallel threads (:func:`fastsim.common.run_chunks`); :func:`bid_weights` and
:func:`bid_query` do the same for the bid query's kernels. Small runs with the heuristic in
every seat use the kernels built ahead of time where they are (:mod:`fastsim.aot`), on one
thread, and start without numba; the results are the same either way.
"""
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .aot import kernels
from .boerenbridge_schema import (DEAL_COLUMNS, GAME_COLUMNS, PIMC_WORLDS, Rules,
                                  RulesError, build_rules, parse_seat_policies)
from .common import (POLICY_HEURISTIC, SimResult, auto_chunk, check_run, check_seed, run_chunks,
                     run_key, set_threads)

DEFAULT_CHUNK = 2048
# a heuristic run or bid query of at most this many cards played (deals × cards a hand) on
# one thread runs the ahead-of-time kernels where they are built (about 0.3 s on one core)
AOT_MAX_CARDS = 2_000_000
nb = kernels("boerenbridge")


@dataclass(kw_only=True)
class Result(SimResult):
    """Compact result arrays (:class:`fastsim.common.SimResult`); ``games[name]`` one row per
    game (a :class:`OneDealGames` when every game is one deal); ``play`` holds the recorded
    tricks (``cards``: rows × tricks × players in play order, ``leader`` and ``winner``:
    positions relative to the dealer... see :func:`record_play`)."""
    games: dict


class OneDealGames(Mapping):
    """``Result.games`` of a run whose games are one deal each (independent deals, or a
    one-deal schedule): each game's row follows from its deal row, so the kernel does not
    write it (that would add half again to its output) and it is derived here, on first
    use, with the values and dtypes the kernel writes for longer games: ``totals`` and
    ``best`` the deal's score, ``exact`` whether the bid was made, ``winners`` the seats
    first by (total, exact bids, best deal), ties shared. Read-only use needs nothing else;
    the arrays, once made, are kept (writes into them stay)."""

    def __init__(self, deals):
        self._deals = deals
        self._arrays = None

    def _made(self):
        if self._arrays is None:
            d = self._deals
            score = d["scores"]
            exact = d["bids"] == d["tricks"]
            # (total, exact, best) = (score, exact, score): ordered as 2 * score + exact
            key = 2 * score.astype(np.int32) + exact
            self._arrays = {
                "totals": score.astype(GAME_COLUMNS["totals"]),
                "exact": exact.astype(GAME_COLUMNS["exact"]),
                "best": score.astype(GAME_COLUMNS["best"]),   # a copy
                "winners": key == key.max(axis=1, keepdims=True),
            }
        return self._arrays

    def __getitem__(self, name):
        return self._made()[name]

    def __iter__(self):
        return iter(GAME_COLUMNS)

    def __len__(self):
        return len(GAME_COLUMNS)

    def __repr__(self):
        return f"OneDealGames({dict(self)!r})"


def simulate(rules, n_games, seed=0, policies=None, threads=None, chunk=None,
             game_start=0, record=False, worlds=PIMC_WORLDS):
    """Play ``n_games`` games of ``rules.schedule`` (a one-deal schedule for independent
    deals) starting at game index ``game_start``; returns :class:`Result`."""
    policies = check_run(rules, Rules, policies, lambda: parse_seat_policies(rules.players),
                         n_games)
    seed_u = check_seed(seed)
    n = rules.players
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or not 1 <= worlds <= 4096:
        raise RulesError(f"worlds must be 1..4096, got {worlds!r}")
    set_threads(threads)
    if chunk is None:
        chunk = auto_chunk(n_games, DEFAULT_CHUNK, threads)
    if chunk < 1:
        raise RulesError("chunk must be at least 1")
    K = len(rules.schedule)
    rows = n_games * K
    # the kernel writes every entry of these; np.empty (numpy's own allocator, huge pages
    # where the system offers them) costs far fewer page faults than np.zeros (calloc)
    deals = {}
    for name, (dtype, per_seat) in DEAL_COLUMNS.items():
        deals[name] = np.empty((rows, n) if per_seat else rows, dtype=dtype)
    # one-deal games: the kernel writes no game rows (OneDealGames derives them)
    g_rows = n_games if K > 1 else 0
    games = {name: np.empty((g_rows, n), dtype=dtype) for name, dtype in GAME_COLUMNS.items()}
    hmax = max(rules.schedule)
    if record:
        r_cards = np.full((rows, hmax, n), -1, dtype=np.int8)
        r_lead = np.full((rows, hmax), -1, dtype=np.int8)
        r_win = np.full((rows, hmax), -1, dtype=np.int8)
    else:
        r_cards = np.zeros((1, 1, 1), dtype=np.int8)
        r_lead = np.zeros((1, 1), dtype=np.int8)
        r_win = np.zeros((1, 1), dtype=np.int8)
    if n_games:
        rkey = run_key(seed_u)
        search = None if not record and (policies == POLICY_HEURISTIC).all() else True
        k = nb.pick(threads, search is None and rows * hmax <= AOT_MAX_CARDS)
        args = (n, np.asarray(rules.schedule, dtype=np.int64),
                np.asarray(rules.notrump, dtype=np.bool_), rules.first_dealer, policies,
                rules.flags, np.int64(worlds), np.int64(game_start),
                np.int64(n_games), np.int64(chunk),
                deals["deal"], deals["game"], deals["deal_no"], deals["hand_size"],
                deals["dealer"], deals["trump_card"], deals["trump"], deals["forbidden"],
                deals["hands"], deals["bids"], deals["tricks"], deals["scores"],
                games["totals"], games["exact"], games["best"], games["winners"],
                record, r_cards, r_lead, r_win, search)
        run_chunks(-(-n_games // chunk), lambda ci: k.games_chunk_nb(rkey, ci, *args),
                   k.games_chunk_nb)
    play = {"cards": r_cards, "leader": r_lead, "winner": r_win} if record else None
    if K == 1:
        games = OneDealGames(deals)
    return Result(rules=rules, policies=policies, seed=int(seed), deals=deals, games=games,
                  play=play)



BID_WEIGHT_SLICE = 4096        # deals per parallel slice of bid_weights (results never depend on it)


def bid_weights(seed_u, n, h, my_pos, unseen, given, trump, rv, lam, start, count,
                threads=None):
    """(log weights, thinning uniforms) of deals ``start .. start+count``: see
    :func:`fastsim.boerenbridge_nb.bid_weights_nb`."""
    lw = np.empty(count, dtype=np.float64)
    u = np.empty(count, dtype=np.float64)
    rkey = run_key(seed_u)
    k = BID_WEIGHT_SLICE
    kn = nb.pick(threads, count * h <= AOT_MAX_CARDS)
    run_chunks(-(-count // k), lambda ci: kn.bid_weights_nb(
        rkey, ci * k, min(ci * k + k, count), n, h, my_pos, unseen, given, trump, rv,
        lam, start, lw, u), kn.bid_weights_nb)
    return lw, u


def bid_query(seed_u, n, h, my_pos, my_hand, turned, trump, unseen, given, others_pol, rv,
              worlds, deals, chunk, out_tricks, out_scores, threads=None):
    """Play the bid query's sampled deals: see :func:`fastsim.boerenbridge_nb.bid_query_nb`
    (each deal once for every bid of the player asking)."""
    rkey = run_key(seed_u)
    search = None if others_pol == POLICY_HEURISTIC else True
    kn = nb.pick(threads, search is None and len(deals) * (h + 1) * h <= AOT_MAX_CARDS)
    run_chunks(-(-len(deals) // chunk), lambda ci: kn.bid_query_nb(
        rkey, ci, n, h, my_pos, my_hand, turned, trump, unseen, given, others_pol, rv,
        worlds, deals, chunk, out_tricks, out_scores, search),
        kn.bid_query_nb)

__all__ = ["Result", "simulate", "bid_weights", "bid_query", "build_rules", "parse_seat_policies", "set_threads",
           "RulesError"]

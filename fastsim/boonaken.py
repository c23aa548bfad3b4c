"""Boonaken: the thin Python front of :mod:`fastsim.boonaken_nb`."""
from dataclasses import dataclass

import numpy as np

from . import boonaken_nb as nb
from .boonaken_schema import (MAX_AUCTION, MAX_TRICKS, PIMC_WORLDS,
                              Rules, RulesError, build_rules, parse_seat_policies)
from .common import SimResult, auto_chunk, check_run, set_threads
from .rng import check_seed

INFO_FIELDS = ["void", "contract", "level", "bid", "declarer_pos", "n_misere", "trump",
               "trump_named", "roem", "n_tricks", "n_auction", "taken", "discarded", "open",
               "blind", "stock", "sleeping"]


@dataclass(kw_only=True)
class Result(SimResult):
    start: int = 0        # global index of the first deal

    @property
    def n_deals(self):
        return len(self.deals["info"])


@dataclass
class MatchResult:
    rules: Rules
    policies: np.ndarray
    seed: int
    matches: dict
    start: int = 0        # global index of the first match


def _prepare(rules, policies, n, seed, threads, chunk, per_chunk):
    """A run's checked policies, its seed as the kernels take it and its chunk size
    (``per_chunk`` units a chunk by default); sets the thread count."""
    policies = check_run(rules, Rules, policies, lambda: parse_seat_policies(rules.players), n,
                         "deals/matches", np.int64)
    seed_u = check_seed(seed)
    set_threads(threads)
    if chunk is None:
        chunk = auto_chunk(n, per_chunk, threads)
    return policies, seed_u, chunk


def deal_arrays(n_deals, n):
    """The per-deal result arrays of ``n_deals`` deals among ``n`` players, as
    :func:`simulate` returns them in ``Result.deals`` (before filling)."""
    return {"info": np.zeros((n_deals, nb.N_INFO), dtype=np.int64),
            "hands": np.zeros((n_deals, n), dtype=np.int64),
            "misere": np.full((n_deals, 5), -1, dtype=np.int64),
            "tricks": np.zeros((n_deals, n), dtype=np.int64),
            "card_points": np.zeros((n_deals, n), dtype=np.int64),
            "result": np.full((n_deals, n), -1, dtype=np.int64)}


def play_arrays(rows):
    """The recorded play arrays of ``rows`` deals, as :func:`simulate` returns them in
    ``Result.play`` with ``record=True`` (before filling)."""
    return {"auction": np.full((rows, MAX_AUCTION, 2), -2, dtype=np.int64),
            "cards": np.full((rows, MAX_TRICKS, 5), -1, dtype=np.int64),
            "leader": np.full((rows, MAX_TRICKS), -1, dtype=np.int64),
            "winner": np.full((rows, MAX_TRICKS), -1, dtype=np.int64),
            "draws": np.full((rows, MAX_TRICKS, 5), -1, dtype=np.int64),
            "deck": np.full((rows, 32), -1, dtype=np.int64)}


def match_arrays(n_matches, n):
    """The per-match result arrays of ``n_matches`` matches among ``n`` players, as
    :func:`simulate_matches` returns them in ``MatchResult.matches`` (before filling)."""
    return {"deals": np.zeros(n_matches, dtype=np.int64),
            "winner": np.full(n_matches, -1, dtype=np.int64),
            "status": np.zeros((n_matches, n), dtype=np.int64),
            "plus": np.zeros((n_matches, n), dtype=np.int64),
            "walk": np.zeros((n_matches, n), dtype=np.int64),
            "first_dealer": np.zeros(n_matches, dtype=np.int64)}


def simulate(rules, n_deals, seed=0, policies=None, threads=None, chunk=None, start=0,
             record=False, worlds=PIMC_WORLDS):
    """Independent deals (the dealer fixed at ``rules.first_dealer``)."""
    policies, seed_u, chunk = _prepare(rules, policies, n_deals, seed, threads, chunk, 256)
    n = rules.players
    d = deal_arrays(n_deals, n)
    rows = n_deals if record else 1
    play = play_arrays(rows)
    if n_deals:
        nb.run_deals_nb(seed_u, n, rules.preset_id, rules.first_dealer, policies,
                        np.int64(worlds), np.int64(start), np.int64(n_deals), np.int64(chunk), d["info"],
                        d["hands"], d["misere"], d["tricks"], d["card_points"], d["result"],
                        record, play["auction"], play["cards"], play["leader"],
                        play["winner"], play["draws"], play["deck"])
    return Result(rules=rules, policies=policies, seed=int(seed), deals=d,
                  play=play if record else None, start=int(start))


def simulate_matches(rules, n_matches, seed=0, policies=None, threads=None, chunk=None, start=0,
                     worlds=PIMC_WORLDS):
    """Whole matches; the first dealer rotates with the match index."""
    policies, seed_u, chunk = _prepare(rules, policies, n_matches, seed, threads, chunk, 64)
    n = rules.players
    m = match_arrays(n_matches, n)
    if n_matches:
        nb.run_matches_nb(seed_u, n, rules.preset_id, rules.first_dealer, policies,
                          np.int64(worlds), np.int64(start), np.int64(n_matches), np.int64(chunk), m["deals"],
                          m["winner"], m["status"], m["plus"], m["walk"], m["first_dealer"])
    return MatchResult(rules=rules, policies=policies, seed=int(seed), matches=m,
                       start=int(start))


__all__ = ["Result", "MatchResult", "simulate", "simulate_matches", "deal_arrays",
           "play_arrays", "match_arrays", "build_rules", "parse_seat_policies", "RulesError"]

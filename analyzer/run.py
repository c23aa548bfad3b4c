"""Running simulations in pieces: a progress bar on long runs, same results as one call.

The engine keys every deal's random numbers by (seed, global deal index), so splitting a
run into consecutive blocks of games and concatenating gives the identical arrays.
"""
import sys

import numpy as np

from fastsim import boerenbridge as bb

PROGRESS_MIN_DEALS = 2_000_000
BLOCK_DEALS = 1_000_000


def _concat(results, rules, policies, seed):
    first = results[0]
    if len(results) == 1:
        return first
    deals = {k: np.concatenate([r.deals[k] for r in results]) for k in first.deals}
    games = {k: np.concatenate([r.games[k] for r in results]) for k in first.games}
    play = None
    if first.play is not None:
        play = {k: np.concatenate([r.play[k] for r in results]) for k in first.play}
    return bb.Result(rules=rules, policies=policies, seed=seed, deals=deals, games=games,
                     play=play)


def run_chunked(rules, n_games, seed=0, policies=None, threads=None, record=False,
                progress=None, block_deals=BLOCK_DEALS):
    """Like :func:`fastsim.boerenbridge.simulate`, in blocks with an optional progress bar
    (``None``: shown for long runs when stderr is a terminal)."""
    K = len(rules.schedule)
    total_deals = n_games * K
    if progress is None:
        progress = total_deals >= PROGRESS_MIN_DEALS and sys.stderr.isatty()
    if not progress:
        return bb.simulate(rules, n_games, seed=seed, policies=policies, threads=threads,
                           record=record)
    from tqdm import tqdm
    per_block = max(1, block_deals // K)
    results = []
    with tqdm(total=total_deals, unit="deal", unit_scale=True, file=sys.stderr,
              dynamic_ncols=True) as bar:
        for start in range(0, n_games, per_block):
            g = min(per_block, n_games - start)
            results.append(bb.simulate(rules, g, seed=seed, policies=policies,
                                       threads=threads, game_start=start, record=record))
            bar.update(g * K)
    return _concat(results, rules, results[0].policies, seed)

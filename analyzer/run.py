"""Running simulations in chunks: the same results as one call, on any backend.

The engine keys every deal's random numbers by (seed, global deal index), so splitting a
run into consecutive blocks of games and concatenating gives the identical arrays. A run
is described by a :class:`RunSpec`; chunk ``i`` is the game range
``[i·chunk_games, min((i+1)·chunk_games, n_games))``. :func:`compute_chunk` plays one
chunk and returns a :class:`ChunkOut` (the summary's sufficient statistics plus, as asked,
the compact arrays or the chunk's Parquet bytes); it is the unit of work of every backend:
:class:`LocalBackend` here, :class:`analyzer.cluster.DaskBackend` on a Dask cluster.
:func:`execute` drives a backend over a list of chunks with a progress bar (rate and ETA)
and hands each finished chunk, in chunk order, to a callback. :class:`Summary` adds the
per-chunk statistics up to the per-position and per-seat summary of the whole run.
"""
import math
import sys
import threading
from dataclasses import dataclass

import numpy as np

from fastsim import boerenbridge as bb

PROGRESS_MIN_DEALS = 2_000_000
BLOCK_DEALS = 1_000_000       # chunk of in-memory runs shown with a progress bar
CHUNK_DEALS = 250_000         # default chunk of streamed / cluster runs
MAX_DEALS = 2**62             # global deal indices are int64

MODES = ("summary", "parquet", "result")

# numba's default (workqueue) threading layer must not run two parallel kernels at once
# from different threads of one process (a Dask worker with several threads would).
_KERNEL_LOCK = threading.Lock()


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
    if policies is None:
        policies = bb.parse_seat_policies(rules.players)
    spec = RunSpec(rules, n_games, seed, np.asarray(policies, dtype=np.int8),
                   chunk_games_for(rules, block_deals), threads, record)
    results = []
    execute(spec, range(spec.n_chunks), "result", progress=True,
            on_chunk=lambda out: results.append(out.result))
    return _concat(results, rules, spec.policies, seed)


# ---------------------------------------------------------------- run description

def chunk_games_for(rules, chunk_deals):
    """Games per chunk for about ``chunk_deals`` deals (whole games, at least one)."""
    return max(1, int(chunk_deals) // len(rules.schedule))


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's results, plus how it is cut and threaded
    (``threads`` and the chunking never change the results)."""
    rules: bb.Rules
    n_games: int
    seed: int
    policies: np.ndarray
    chunk_games: int
    threads: int | None = None
    record: bool = False

    @property
    def deals_per_game(self):
        return len(self.rules.schedule)

    @property
    def total_deals(self):
        return self.n_games * self.deals_per_game

    @property
    def n_chunks(self):
        return math.ceil(self.n_games / self.chunk_games)

    def chunk(self, index):
        """(first game, number of games) of chunk ``index``."""
        if not 0 <= index < self.n_chunks:
            raise IndexError(f"chunk {index} outside 0..{self.n_chunks - 1}")
        start = index * self.chunk_games
        return start, min(self.chunk_games, self.n_games - start)

    def chunk_deals(self, index):
        return self.chunk(index)[1] * self.deals_per_game


@dataclass
class ChunkOut:
    """One finished chunk: its game range, the summary statistics (:func:`partials`) and,
    by mode, the compact arrays (``result``) or the Parquet file's bytes (``data``)."""
    index: int
    game_start: int
    games: int
    deals: int
    partials: dict
    result: object = None
    data: bytes | None = None


def compute_chunk(spec, index, mode="summary"):
    """Play chunk ``index`` of ``spec``. ``mode``: ``summary`` (statistics only),
    ``parquet`` (also the chunk as Parquet bytes, :func:`analyzer.stream.encode_chunk`)
    or ``result`` (also the compact arrays). A pure function of its arguments: any
    process on any machine returns the same."""
    if mode not in MODES:
        raise ValueError(f"unknown chunk mode {mode!r}")
    start, count = spec.chunk(index)
    with _KERNEL_LOCK:
        res = bb.simulate(spec.rules, count, seed=spec.seed, policies=spec.policies,
                          threads=spec.threads, game_start=start,
                          record=spec.record and mode == "result")
        part = partials(res)
        data = None
        if mode == "parquet":
            from .stream import encode_chunk
            data = encode_chunk(res, spec, index, part)
    return ChunkOut(index=index, game_start=start, games=count, deals=res.n_deals,
                    partials=part, result=res if mode == "result" else None, data=data)


# ---------------------------------------------------------------- summary statistics

def partials(result):
    """The sufficient statistics of the run summary over one chunk (JSON-able): per
    position the player-deal count and the sums of bids, tricks, scores and exact bids;
    for whole games per seat the sums of totals, win shares and exact bids."""
    from .summary import positions_of
    d = result.deals
    n = result.rules.players
    pos = positions_of(d, n).ravel()
    bids = d["bids"].astype(np.int64).ravel()
    tricks = d["tricks"].astype(np.int64).ravel()
    scores = d["scores"].astype(np.int64).ravel()

    def per_pos(values):  # float64 sums of integers below 2**53 are exact
        return [int(x) for x in np.bincount(pos, weights=values, minlength=n)]

    p = {"deals": int(len(d["deal"])),
         "n": [int(x) for x in np.bincount(pos, minlength=n)],
         "bid": per_pos(bids), "tricks": per_pos(tricks), "score": per_pos(scores),
         "exact": per_pos((bids == tricks).astype(np.int64))}
    g = result.games
    n_games = g["totals"].shape[0]
    p["games"] = int(n_games)
    if n_games:
        winners = g["winners"]
        share = winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
        p["total"] = [int(x) for x in g["totals"].astype(np.int64).sum(axis=0)]
        p["share"] = [float(x) for x in share.sum(axis=0)]
        p["exact_bids"] = [int(x) for x in g["exact"].astype(np.int64).sum(axis=0)]
    else:
        p["total"] = [0] * n
        p["share"] = [0.0] * n
        p["exact_bids"] = [0] * n
    return p


class Summary:
    """Adds up :func:`partials` of chunks; gives the same per-position and per-seat
    summaries as :func:`analyzer.summary.by_position` / ``by_seat`` on the whole run."""
    KEYS = ("n", "bid", "tricks", "score", "exact", "total", "share", "exact_bids")

    def __init__(self, players):
        self.players = players
        self.deals = 0
        self.games = 0
        self.sums = {k: [0] * players for k in self.KEYS}
        self.sums["share"] = [0.0] * players

    def add(self, p):
        self.deals += p["deals"]
        self.games += p["games"]
        for k in self.KEYS:
            self.sums[k] = [a + b for a, b in zip(self.sums[k], p[k])]

    def by_position(self):
        s = self.sums
        out = []
        for q in range(self.players):
            cnt = s["n"][q]
            if cnt == 0:
                out.append({"position": q, "mean_tricks": None, "exact_rate": None,
                            "mean_score": None, "n": 0})
                continue
            out.append({"position": q, "mean_tricks": s["tricks"][q] / cnt,
                        "exact_rate": s["exact"][q] / cnt, "mean_score": s["score"][q] / cnt,
                        "mean_bid": s["bid"][q] / cnt, "n": cnt})
        return out

    def by_seat(self):
        if self.games == 0:
            return []
        s, g = self.sums, self.games
        return [{"seat": q, "policy": None, "mean_total": s["total"][q] / g,
                 "win_rate": s["share"][q] / g, "mean_exact": s["exact_bids"][q] / g}
                for q in range(self.players)]


# ---------------------------------------------------------------- backends and driver

class LocalBackend:
    """Plays the chunks one after the other in this process (numba threads inside)."""
    name = "local"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, spec, indices, mode):
        for i in indices:
            yield compute_chunk(spec, i, mode)


def progress_default(deals):
    return deals >= PROGRESS_MIN_DEALS and sys.stderr.isatty()


def execute(spec, indices, mode, backend=None, progress=None, on_chunk=None, done_deals=0):
    """Run chunks ``indices`` of ``spec`` on ``backend`` (default: local), calling
    ``on_chunk(ChunkOut)`` in chunk order. The progress bar (tqdm on stderr: deals, rate,
    ETA; ``None``: shown for long runs on a terminal) starts at ``done_deals``, the deals
    of chunks saved earlier. Returns the number of deals played."""
    indices = list(indices)
    todo = sum(spec.chunk_deals(i) for i in indices)
    if progress is None:
        progress = progress_default(todo)
    backend = backend if backend is not None else LocalBackend()
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=done_deals + todo, initial=done_deals, unit="deal", unit_scale=True,
                   file=sys.stderr, dynamic_ncols=True, smoothing=0.1)
    played = 0
    try:
        gen = backend.run(spec, indices, mode)
        try:
            for out in gen:
                if on_chunk is not None:
                    on_chunk(out)
                played += out.deals
                if bar is not None:
                    bar.update(out.deals)
        finally:
            gen.close()
    finally:
        if bar is not None:
            bar.close()
    return played

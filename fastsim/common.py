"""Set-up helpers shared by every game's schema (pure Python, no numba)."""
import os
import sys
from dataclasses import dataclass

import numpy as np

# SplitMix64, the RNG's mixer (fastsim/rng.py; part of the reproducibility contract): the
# golden-ratio increment, the deal-index multiplier and the output function's multipliers
SPLITMIX_GOLDEN = 0x9E3779B97F4A7C15
SPLITMIX_DEAL = 0xD1B54A32D192ED03
SPLITMIX_M1 = 0xBF58476D1CE4E5B9
SPLITMIX_M2 = 0x94D049BB133111EB
SPLITMIX_SHIFTS = (30, 27, 31)
_MASK64 = (1 << 64) - 1


def run_key(seed):
    """The run's key (:func:`fastsim.rng.run_key_nb`) as ``np.uint64``, computed without
    numba: a kernel called with the Python int numba returns would type it int64."""
    a, b, c = SPLITMIX_SHIFTS
    z = (int(seed) * SPLITMIX_GOLDEN + 1) & _MASK64
    z = ((z ^ (z >> a)) * SPLITMIX_M1) & _MASK64
    z = ((z ^ (z >> b)) * SPLITMIX_M2) & _MASK64
    return np.uint64(z ^ (z >> c))


MAX_SEED = 2**64 - 1


def check_seed(seed):
    """Validate a user seed; returns it as ``np.uint64``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    return np.uint64(int(seed))


def check_threads(threads):
    """Validate a user thread count (a positive integer; the caller caps it)."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise RulesError(f"threads must be a positive integer, got {threads!r}")
    return int(threads)


REST = 8   # index of the "nobody's / not dealt" bucket in the pimc capacity arrays


# the built-in policies of every game (per seat); the reproducibility of pimc rests on
# its world count, so the default lives here once (--worlds changes it)
POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_PIMC = 2
# search for every decision (not only the cards) with worlds drawn from what the bidding,
# calling or choosing revealed; every game implements it (its schema's POLICIES)
POLICY_STRONG = 3
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "pimc": POLICY_PIMC}
PIMC_WORLDS = 16   # sampled deals per pimc decision
POLICY_NAMES = {v: k for k, v in POLICIES.items()}
SEAT_POLICIES = {**POLICIES, "strong": POLICY_STRONG}   # what a seat's --policy may name
SEAT_POLICY_NAMES = {v: k for k, v in SEAT_POLICIES.items()}


class KernelFlags:
    """Base of a schema's ``Rules``: :attr:`flags` are the variant settings the kernels
    read, one tuple of ints in the order of the class's ``FLAGS`` (every kernel takes it as
    ``rv`` and reads ``rv[F_NAME]``): a new variant adds its field to ``Rules`` and its name
    and index to ``FLAGS``, and no kernel signature or call changes."""
    FLAGS = ()

    @property
    def flags(self):
        return tuple(int(getattr(self, name)) for name in self.FLAGS)


class RulesError(ValueError):
    """Rules, variant or option input that cannot be played; one line for the user."""


def variant_options(variants, known, game, known_text=None, note=""):
    """``NAME[=VALUE]`` strings or ``(name, value)`` pairs → ``{name: value}``: names in
    lower case with ``_`` for ``-``, string values stripped; an unknown or repeated name is
    a :class:`RulesError` (listing ``known_text``, default the names of ``known``)."""
    opts = {}
    for v in variants:
        name, value = v.partition("=")[::2] if isinstance(v, str) else v
        name = name.strip().lower().replace("-", "_")
        if name not in known:
            raise RulesError(f"unknown variant {name!r} for {game}; known: "
                             f"{known_text or ', '.join(known)}{note}")
        if name in opts:
            raise RulesError(f"variant {name} given twice")
        opts[name] = value.strip() if isinstance(value, str) else value
    return opts


def check_run(rules, rules_type, policies, default_policies, n, units="deals/games",
              dtype=np.int8):
    """The checks every game's ``simulate`` starts with: ``rules`` from the game's
    ``build_rules`` (a bug otherwise: TypeError), one policy code per seat (``None``: the
    array ``default_policies()`` returns), ``n`` a count of ``units``. Returns the policies."""
    if not isinstance(rules, rules_type):
        raise TypeError("rules must come from build_rules()")
    seats = default_policies()
    policies = np.asarray(seats if policies is None else policies, dtype=dtype)
    if policies.shape != seats.shape:
        raise RulesError(f"need one policy per seat ({len(seats)}), got {policies.shape}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise RulesError(f"number of {units} must be a non-negative integer, got {n!r}")
    return policies


def parse_seat_policies(players, known, default, seat_policies=()):
    """Default policy name plus ``SEAT=NAME`` overrides → int8 array (one code per seat)."""
    if default not in known:
        raise RulesError(f"unknown policy {default!r}; known: {', '.join(known)}")
    pol = np.full(players, known[default], dtype=np.int8)
    seen = set()
    for item in seat_policies:
        seat_txt, sep, name = item.partition("=")
        name = name.strip().lower()
        try:
            seat = int(seat_txt)
        except ValueError:
            seat = None
        if not sep or seat is None:
            raise RulesError(f"seat policy must look like SEAT=NAME (e.g. 0=random), got {item!r}")
        if not 0 <= seat < players:
            raise RulesError(f"seat policy {item!r}: seat must be 0..{players - 1}")
        if name not in known:
            raise RulesError(f"seat policy {item!r}: unknown policy {name!r}; known: {', '.join(known)}")
        if seat in seen:
            raise RulesError(f"seat {seat} given two policies")
        seen.add(seat)
        pol[seat] = known[name]
    return pol


_threads_wanted = []


def configured_threads():
    """numba's thread pool size (``NUMBA_NUM_THREADS``, default the usable cores), read as
    numba reads it, without importing numba."""
    if "numba" in sys.modules:
        return sys.modules["numba"].config.NUMBA_NUM_THREADS
    env = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, len(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") \
        else max(1, os.cpu_count() or 1)


def set_threads(threads):
    """Use ``threads`` worker threads (``None``: all cores). Returns the number used. Before
    numba is imported the choice is kept and applied when it is (:func:`fastsim.on_jit`),
    so that a command whose kernels are built ahead of time need not import it."""
    if threads is None:
        return current_threads()
    threads = min(check_threads(threads), configured_threads())
    if "fastsim._jit" in sys.modules:
        sys.modules["numba"].set_num_threads(threads)
    else:
        from ._hooks import on_jit
        if not _threads_wanted:
            on_jit(lambda: sys.modules["numba"].set_num_threads(_threads_wanted[-1]))
        _threads_wanted.append(threads)
    return threads


def current_threads():
    """The worker threads the kernels use now (see :func:`set_threads`)."""
    if "fastsim._jit" in sys.modules:
        return sys.modules["numba"].get_num_threads()
    return _threads_wanted[-1] if _threads_wanted else configured_threads()


def auto_chunk(n_units, default, threads):
    """Units per parallel chunk: the game's default, but small enough that every thread
    gets work on short runs (the results never depend on it)."""
    t = threads or current_threads()
    return max(1, min(default, -(-n_units // (4 * t))))


def run_chunks(n_chunks, call, kernel):
    """``call(ci)`` for every chunk ``ci`` in ``range(n_chunks)`` (``ci`` an ``np.int64``), on
    as many Python threads as numba's thread count (see ``set_threads``). The chunk
    ``kernel`` (the numba function ``call`` runs) is ``nogil``, so the threads run in
    parallel; each chunk writes only its own rows, so the results never depend on the
    thread count or the order. This replaces numba's ``prange``, whose parallel passes and
    extra linking more than doubled a kernel's first, uncached compile. While the kernel is
    not yet compiled or loaded in this process, chunk 0 runs first in the calling thread,
    so that it is compiled (or read from the cache) once, there, and not by racing threads."""
    start = 0
    if not hasattr(kernel, "signatures"):     # built ahead of time (fastsim.aot): one thread
        for ci in range(n_chunks):
            call(np.int64(ci))
        return
    if n_chunks and not kernel.signatures:
        call(np.int64(0))
        start = 1
    threads = min(current_threads(), n_chunks - start)
    if threads <= 1:
        for ci in range(start, n_chunks):
            call(np.int64(ci))
        return
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(threads, thread_name_prefix="troef-chunk")
    futures = []
    try:
        futures = [pool.submit(call, np.int64(ci)) for ci in range(start, n_chunks)]
        for f in futures:
            f.result()
    except BaseException:          # Ctrl-C or a failed chunk: the chunks not started never run
        for f in futures:
            f.cancel()
        raise
    finally:
        pool.shutdown(wait=True)


@dataclass(kw_only=True)
class SimResult:
    """What a game's ``simulate`` returns: its rules, the seat policies and seed, the per-deal
    result arrays (``deals[name]``, one row per deal; per-seat columns ``(rows, players)``)
    and the recorded tricks when asked for (``play``). Each game adds its own fields."""
    rules: object
    policies: np.ndarray
    seed: int
    deals: dict
    play: dict | None = None

    @property
    def n_deals(self):
        return len(self.deals["deal"])

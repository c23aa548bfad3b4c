"""Set-up helpers shared by every game's schema (pure Python)."""
import numpy as np


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
# calling or choosing revealed; a game lists it in its own POLICIES once it implements it
POLICY_STRONG = 3
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "pimc": POLICY_PIMC}
PIMC_WORLDS = 16   # sampled deals per pimc decision
POLICY_NAMES = {v: k for k, v in POLICIES.items()}


class RulesError(ValueError):
    """Rules, variant or option input that cannot be played; one line for the user."""


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


def auto_chunk(n_units, default, threads):
    """Units per parallel chunk: the game's default, but small enough that every thread
    gets work on short runs (the results never depend on it)."""
    from ._jit import numba
    t = threads or numba.get_num_threads()
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
    from ._jit import numba
    start = 0
    if n_chunks and not kernel.signatures:
        call(np.int64(0))
        start = 1
    threads = min(numba.get_num_threads(), n_chunks - start)
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

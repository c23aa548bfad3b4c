"""Memory bounds of the commands that keep their work in memory (queries, tournaments).

Before any work starts, a command estimates the memory it will hold from its sizes and
compares it with what this process may use — :func:`analyzer.run.memory_limit`, the cgroup
(container) limit where there is one, else the physical memory. Above ``FRACTION`` of that
it refuses in one line (:class:`MemoryLimitError`) with a hint (fewer samples or deals, a
dataset folder), instead of being killed without a word half-way. The estimates are
upper bounds per sample or per deal from the arrays each command allocates (checked
against the peak resident memory of real runs), plus a fixed allowance for the Python
process, numba and the compiled kernels.

Sampling loops that draw until enough deals fit (rejection sampling) draw in batches of at
most ``MAX_BATCH`` deals, so that a low acceptance rate never allocates a huge batch; the
draws are keyed by their index, so the batch size never changes the answer.

The worker-thread count asked for in the environment (``NUMBA_NUM_THREADS``) is checked
here too (:func:`check_environment`), before numba reads it.
"""
import os

FRACTION = 0.8                # of the limit: room for the interpreter, pandas, the OS
BASE_BYTES = 400 << 20        # the process itself: Python, numpy, pandas, numba, kernels
MAX_BATCH = 1 << 20           # deals drawn at once by a rejection-sampling query
TOURNAMENT_BLOCK_DEALS = 200_000   # deals a tournament plays at once (every seating)


class MemoryLimitError(ValueError):
    """A command that would need more memory than this process may use (one line)."""


def gib(n):
    return f"{n / 2**30:,.1f} GiB"


def check_memory(what, need, hint):
    """Refuse ``what`` when ``need`` bytes (plus the process itself) exceed ``FRACTION`` of
    the process's memory limit; ``hint`` says what to do instead."""
    from . import run
    limit = run.memory_limit()
    total = int(need) + BASE_BYTES
    if limit is not None and total > FRACTION * limit:
        raise MemoryLimitError(f"{what} would need about {gib(total)} of memory, more than "
                               f"the {gib(FRACTION * limit)} this process may use; {hint}")


def check_samples(samples, per_sample, per_draw=0, command="this query"):
    """A query keeping ``per_sample`` bytes for each of ``samples`` samples, and drawing in
    batches of up to MAX_BATCH deals of ``per_draw`` bytes each."""
    need = int(samples) * per_sample + min(int(samples), MAX_BATCH) * per_draw
    check_memory(f"--samples {int(samples):,}", need,
                 f"give fewer --samples ({command} keeps every sample in memory)")


def batch(n):
    """At most MAX_BATCH deals drawn at once."""
    return min(int(n), MAX_BATCH)


def tournament_block(setup):
    """Units a tournament plays at once: about TOURNAMENT_BLOCK_DEALS deals."""
    per = setup.deals_per_unit or 30
    return max(1, TOURNAMENT_BLOCK_DEALS // per)


def check_tournament(n, policies, seats, unit, block_bytes):
    """A tournament keeps, for every unit, a float per policy (and a few such columns for
    the intervals and the pairs), plus one block of results at a time."""
    k = len(policies)
    need = int(n) * 8 * (2 * k + 2 * max(1, k * (k - 1) // 2) + seats) + block_bytes
    check_memory(f"a tournament of {int(n):,} {unit}s", need, f"give fewer --deals/--games")


# bytes per deal and seat that a run's Result, its tidy frame and the Arrow table written
# from it hold at their peak (measured peak resident memory, rounded up), and per deal and
# seat the play record adds
PER_SEAT_DEAL = {"boerenbridge": 160, "klaverjassen": 160, "boonaken": 180, "bonken": 270}
PER_SEAT_DEAL_RECORD = 80


def check_in_memory(spec, path, record=False):
    """A run whose every deal is kept in memory (``--out FILE.parquet``, ``--record-play``)."""
    from .run import _typical_deals
    per = spec.setup.deals_per_unit or _typical_deals(spec.setup)
    deals = spec.n * per
    seats = spec.setup.players
    need = deals * (50 + seats * (PER_SEAT_DEAL.get(spec.game, 270)
                                  + (PER_SEAT_DEAL_RECORD if record else 0)))
    check_memory(f"{path} would hold all {deals:,} deals in memory, which", need,
                 "stream them to a dataset folder: --out DIR" if not record else
                 "record fewer deals")


# numba starts NUMBA_NUM_THREADS worker threads at once: far beyond the machine's cores
# they only cost, and where the OS cannot start them all numba ends in a segmentation
# fault (100000 did here, 2026-12-04); the cap leaves room for any real machine
MAX_THREADS_PER_CORE = 4
MIN_THREAD_CAP = 1024


def thread_cap():
    """The most worker threads troef accepts from ``NUMBA_NUM_THREADS``."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(MIN_THREAD_CAP, MAX_THREADS_PER_CORE * (cores or 1))


def check_environment(environ=None):
    """Refuse, in one line, a ``NUMBA_NUM_THREADS`` that numba would reject with a
    traceback-like warning and then ignore (``abc``, ``1.5``), reject with its own message
    (``0``, and an empty value), or accept and crash on (a number of threads the OS cannot
    start). Unset: numba's default (the usable cores)."""
    env = os.environ if environ is None else environ
    raw = env.get("NUMBA_NUM_THREADS")
    if raw is None:
        return
    text = raw.strip()
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"NUMBA_NUM_THREADS must be a positive integer, got {raw!r}")
    if int(text) > thread_cap():
        raise ValueError(f"NUMBA_NUM_THREADS={text} is more worker threads than troef starts "
                         f"(at most {thread_cap():,} on this machine); unset it to use every "
                         f"core")

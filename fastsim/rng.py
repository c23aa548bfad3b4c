"""Counter-based random numbers keyed by (seed, deal index, counter).

Every random decision of a deal is a pure function of the run's seed, the deal's global
index and a *counter* naming the decision (see ``docs/boerenbridge.md``). No state is
carried between deals or threads, so results are bit-identical for any thread count,
chunk size or machine split. The mixer is SplitMix64's output function; the stream for a
deal is the SplitMix64 sequence started at that deal's key.
"""
import numpy as np
from ._jit import njit

# the seed rule and the mixer's constants have no numba (fastsim/common.py, with run_key)
from .common import (MAX_SEED, SPLITMIX_DEAL, SPLITMIX_GOLDEN, SPLITMIX_M1,  # noqa: F401
                     SPLITMIX_M2, SPLITMIX_SHIFTS, check_seed)

GOLDEN = np.uint64(SPLITMIX_GOLDEN)
DEALK = np.uint64(SPLITMIX_DEAL)
_M1 = np.uint64(SPLITMIX_M1)
_M2 = np.uint64(SPLITMIX_M2)
_S30, _S27, _S31 = (np.uint64(s) for s in SPLITMIX_SHIFTS)
_S32 = np.uint64(32)
_ONE = np.uint64(1)


# Key streams derived from a deal's key (part of the reproducibility contract: changing one
# changes every pimc result). A pimc decision of player ``me`` at trick ``t`` draws its
# worlds from deal_key(deal key, KEY_PIMC_PLAY + 8·t + me); a Boerenbridge pimc bid of
# ``me`` from deal_key(deal key, KEY_PIMC_BID + me).
KEY_PIMC_PLAY = 1_000_000
KEY_PIMC_BID = 2_000_000
# the strong policies: a card decision draws its candidate worlds from
# deal_key(deal key, KEY_STRONG_PLAY + 8·t + me), a bid / call / contract choice of ``me``
# from deal_key(deal key, KEY_STRONG_BID + me), each game's own offsets added to these
KEY_STRONG_PLAY = 3_000_000
KEY_STRONG_BID = 4_000_000


@njit(cache=True, inline="always")
def mix64_nb(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def run_key_nb(seed):
    """Key of a run; ``seed`` is a uint64."""
    return mix64_nb(seed * GOLDEN + _ONE)


@njit(cache=True, inline="always")
def deal_key_nb(run_key, deal):
    """Key of one deal; ``deal`` is the global deal index (any non-negative int)."""
    return mix64_nb(run_key ^ (np.uint64(deal) * DEALK))


@njit(cache=True, inline="always")
def rand_nb(dkey, counter):
    """64 random bits for decision ``counter`` of the deal keyed ``dkey``."""
    return mix64_nb(dkey + (np.uint64(counter) + _ONE) * GOLDEN)


@njit(cache=True, inline="always")
def below_nb(dkey, counter, m):
    """A uniform integer in ``[0, m)`` for decision ``counter`` (``1 <= m < 2**32``)."""
    r = rand_nb(dkey, counter) >> _S32
    return np.int64((r * np.uint64(m)) >> _S32)


@njit(cache=True)
def _rand_block_nb(seed, deal, counters):
    dkey = deal_key_nb(run_key_nb(seed), deal)
    out = np.empty(counters.shape[0], dtype=np.uint64)
    for i in range(counters.shape[0]):
        out[i] = rand_nb(dkey, counters[i])
    return out


def rand_block(seed, deal, counters):
    """The raw 64-bit numbers for ``counters`` of one deal (for tests and tools)."""
    counters = np.asarray(counters, dtype=np.int64)
    if deal < 0 or (counters < 0).any():
        raise ValueError("deal index and counters must be non-negative")
    return _rand_block_nb(check_seed(seed), np.int64(deal), counters)


@njit(cache=True, inline="always")
def shuffle_nb(key, counter0, arr, lo, hi, size):
    """Fisher–Yates steps ``lo .. hi-1`` over ``arr[:size]``: step ``i`` swaps ``arr[i]``
    with ``arr[i + below(key, counter0 + i, size - i)]``. The one shuffle of every deal,
    world and stock (after ``hi = size - 1`` steps, or a prefix of ``hi`` cards, the
    first ``hi`` entries are a uniform sample)."""
    for i in range(lo, hi):
        j = i + below_nb(key, counter0 + i, size - i)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t

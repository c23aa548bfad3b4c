import numpy as np
import pytest

from fastsim import rng

MASK = (1 << 64) - 1


def _mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _rand(seed, deal, counter):
    run = _mix((seed * 0x9E3779B97F4A7C15 + 1) & MASK)
    dk = _mix(run ^ ((deal * 0xD1B54A32D192ED03) & MASK))
    return _mix((dk + (counter + 1) * 0x9E3779B97F4A7C15) & MASK)


@pytest.mark.parametrize("seed,deal", [(0, 0), (1, 0), (0, 1), (2**64 - 1, 123456789),
                                       (42, 10**12)])
def test_matches_specification(seed, deal):
    counters = np.array([0, 1, 2, 63, 64, 500], dtype=np.int64)
    got = rng.rand_block(seed, deal, counters)
    assert [int(x) for x in got] == [_rand(seed, deal, int(c)) for c in counters]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 + 7, 2**63 - 1, 2**63, 2**64 - 1])
def test_run_key_without_numba_is_the_kernels_run_key(seed):
    from fastsim.common import run_key
    key = run_key(seed)
    assert isinstance(key, np.uint64)
    assert int(key) == _mix((seed * 0x9E3779B97F4A7C15 + 1) & MASK)
    assert key == np.uint64(rng.run_key_nb(np.uint64(seed)))


def test_streams_differ():
    a = rng.rand_block(1, 0, np.arange(8))
    b = rng.rand_block(1, 1, np.arange(8))
    c = rng.rand_block(2, 0, np.arange(8))
    assert len(set(map(int, a)) | set(map(int, b)) | set(map(int, c))) == 24


def test_below_is_uniform():
    # 52-way uniformity over many deals: chi-square well inside its 99.9% range (df=51 -> 95.8)
    from numba import njit

    @njit
    def draw(seed, n, m):
        key = rng.run_key_nb(seed)
        out = np.zeros(m, dtype=np.int64)
        for d in range(n):
            out[rng.below_nb(rng.deal_key_nb(key, d), 0, m)] += 1
        return out

    counts = draw(np.uint64(7), 520_000, 52)
    exp = 10_000
    chi2 = ((counts - exp) ** 2 / exp).sum()
    assert chi2 < 95.8
    assert counts.min() > 0


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "3", True])
def test_bad_seeds(bad):
    with pytest.raises(ValueError):
        rng.check_seed(bad)

"""Borrowed arrays (fastsim/refs_nb.py): the same memory without numba's reference counts."""
import numpy as np

from fastsim._jit import njit
from fastsim.refs_nb import borrow_nb, keep_nb


@njit
def _write_through(a, i, v):
    b = borrow_nb(a)
    s = b[1:]             # a view of a borrowed array is borrowed too
    s[i - 1] = v
    return b.shape[0] + s.shape[0]


@njit
def _local_scratch(n):
    own = np.zeros(3 * n, dtype=np.int64)
    buf = borrow_nb(own)
    x, y, z = buf[0:n], buf[n:2 * n], buf[2 * n:]
    for i in range(n):
        x[i] = i
        y[i] = 2 * i
    for i in range(n):
        z[i] = x[i] + y[i]
    total = 0
    for i in range(n):
        total += z[i]
    keep_nb(own)
    return total


@njit
def _pass_down(a):
    return _write_through(borrow_nb(a), 2, 7)


def test_writes_through_a_borrowed_view_reach_the_array():
    a = np.arange(5, dtype=np.int64)
    assert _write_through(a, 3, -1) == 9
    assert a.tolist() == [0, 1, 2, -1, 4]
    b = np.arange(4, dtype=np.int64)
    assert _pass_down(b) == 7
    assert b.tolist() == [0, 1, 7, 3]


def test_local_scratch_through_borrowed_views():
    for n in (1, 5, 1000):
        assert _local_scratch(n) == 3 * n * (n - 1) // 2


"""fastsim.common.run_chunks: every chunk once, on several threads, and an error stops it."""
import threading
import time

import numpy as np
import pytest

from fastsim.common import run_chunks


class _Kernel:
    """Stands in for a numba dispatcher: ``signatures`` empty until the first call."""

    def __init__(self):
        self.signatures = []


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_every_chunk_runs_once(monkeypatch, threads):
    import numba
    monkeypatch.setattr(numba, "get_num_threads", lambda: threads)
    seen, names, k = [], set(), _Kernel()

    def call(ci):
        assert isinstance(ci, np.int64)
        seen.append(int(ci))
        names.add(threading.current_thread().name)
        k.signatures = ["compiled"]

    run_chunks(17, call, k)
    assert sorted(seen) == list(range(17))
    assert seen[0] == 0                       # the not-yet-compiled kernel: chunk 0 first
    if threads > 1:
        assert any(n.startswith("troef-chunk") for n in names)


def test_zero_chunks_call_nothing():
    run_chunks(0, lambda ci: pytest.fail("called"), _Kernel())


def test_a_failing_chunk_raises_and_cancels_the_rest(monkeypatch):
    import numba
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    k = _Kernel()
    k.signatures = ["compiled"]
    ran = []

    def call(ci):
        ran.append(int(ci))
        if ci == 1:
            raise RuntimeError("chunk 1 failed")
        time.sleep(0.002)

    with pytest.raises(RuntimeError, match="chunk 1 failed"):
        run_chunks(2_000, call, k)
    assert len(ran) < 2_000


def test_simulate_is_the_same_on_one_and_two_threads():
    from fastsim import boerenbridge as bb
    r = bb.build_rules(players=5, schedule="short")
    a = bb.simulate(r, 300, seed=5, threads=1, chunk=7)
    b = bb.simulate(r, 300, seed=5, threads=2, chunk=50)
    for name in a.deals:
        assert np.array_equal(a.deals[name], b.deals[name]), name
    for name in a.games:
        assert np.array_equal(a.games[name], b.games[name]), name

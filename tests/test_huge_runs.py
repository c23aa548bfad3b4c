"""A run of very many deals starts its first chunk at once: the chunks still to play are
counted and walked lazily, never listed (10**14 deals are 4 * 10**8 chunks)."""
import itertools
import random

import pytest

from analyzer.run import ChunksLeft, RunSpec, execute, units_in


@pytest.mark.parametrize("deals,chunk", [(10, 3), (9, 3), (1, 5), (1000, 7), (0, 4)])
def test_units_in_matches_counting_chunk_by_chunk(deals, chunk):
    spec = RunSpec.make("boerenbridge", deals=deals, hand_size=5).with_chunk_deals(chunk)
    n = spec.n_chunks
    rng = random.Random(deals * 31 + chunk)
    for _ in range(20):
        done = {i for i in range(n) if rng.random() < 0.3} | {n + 3}   # one out of range
        left = ChunksLeft(n, done)
        walked = [i for i in range(n) if i not in done]
        assert list(left) == walked
        assert len(left) == len(walked) and bool(left) == bool(walked)
        assert units_in(spec, left) == sum(spec.chunk_units(i) for i in walked)
    assert units_in(spec, range(n)) == deals
    assert units_in(spec, [i for i in range(n) if i % 2]) == sum(
        spec.chunk_units(i) for i in range(1, n, 2))


class _TwoChunks:
    """A backend that plays the first two chunks it is given, then stops."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, spec, indices, mode):
        from analyzer.run import compute_chunk
        for i in itertools.islice(indices, 2):
            yield compute_chunk(spec, i, mode)


def test_a_run_of_10_to_the_14_deals_plays_its_first_chunks_without_listing_the_rest():
    spec = RunSpec.make("boerenbridge", deals=10**14, hand_size=3).with_chunk_deals(50)
    assert spec.n_chunks == 2 * 10**12
    left = ChunksLeft(spec.n_chunks, {0, 5})
    assert len(left) == spec.n_chunks - 2
    assert list(itertools.islice(left, 4)) == [1, 2, 3, 4]
    seen = []
    played = execute(spec, left, "summary", _TwoChunks(), progress=False,
                     on_chunk=lambda out: seen.append(out.index))
    assert seen == [1, 2] and played == 100


def test_a_dataset_of_10_to_the_14_deals_knows_what_is_missing(tmp_path):
    from analyzer import stream
    spec = RunSpec.make("boerenbridge", deals=10**14, hand_size=3).with_chunk_deals(10**6)
    with stream.Dataset(str(tmp_path / "ds"), spec, False) as ds:
        assert len(ds.missing) == spec.n_chunks == 10**8
        assert next(iter(ds.missing)) == 0
        assert units_in(spec, ds.missing) == 10**14


def test_execute_takes_a_one_shot_iterator():
    spec = RunSpec.make("boerenbridge", deals=30, hand_size=5).with_chunk_deals(10)
    assert execute(spec, iter([0, 1, 2]), "summary", progress=False) == 30
    assert execute(spec, (i for i in (2, 0)), "summary", progress=False) == 20


class _Future:
    def __init__(self, i):
        self.i = i

    def result(self):
        return self.i


class _Client:
    """Stands in for a Dask client: records what is submitted and cancelled."""

    def __init__(self):
        self.submitted, self.cancelled = [], []

    def submit(self, fn, spec, i, mode, **kw):
        self.submitted.append(i)
        return _Future(i)

    def cancel(self, futures):
        self.cancelled += [f.i for f in futures]

    def nthreads(self):
        return {"w": 2}


def _dask(window):
    from analyzer.cluster import DaskBackend
    b = DaskBackend.__new__(DaskBackend)      # no cluster: the scheduling logic alone
    b.client, b.window, b._wait = _Client(), window, lambda fut, i: None
    return b


class _Spec:
    threads = 1


@pytest.mark.parametrize("indices,expect", [
    (ChunksLeft(10, {2, 5, 99}), [0, 1, 3, 4, 6, 7, 8, 9]),
    (range(3, 9), [3, 4, 5, 6, 7, 8]),
    ([7, 1, 4], [7, 1, 4]),
    (ChunksLeft(0), []),
])
def test_dask_backend_hands_chunks_on_in_order(indices, expect):
    b = _dask(3)
    assert list(b.run(_Spec(), indices, "summary")) == expect
    assert b.client.submitted == expect and b.client.cancelled == []


def test_dask_backend_walks_a_huge_run_lazily_and_cancels_the_rest():
    b = _dask(3)
    g = b.run(_Spec(), ChunksLeft(10**12), "summary")
    assert [next(g), next(g)] == [0, 1]
    g.close()
    assert b.client.submitted == [0, 1, 2, 3, 4]      # the window, topped up: no more
    assert b.client.cancelled == [2, 3, 4]
